//! The JSON result object every dptest front end prints (the CLI's `--json`, Python's result
//! dicts), assembled in one place so both say the same thing:
//!
//! - [`Fields::from_result`] / [`Fields::from_release`]: a library result (a public test's
//!   struct, or a private test's [`Outcome`]) with the stable keys `test`, `statistic`,
//!   `p_value`, `n`, `epsilon`, `delta` and `reference` always present; a library test name
//!   that differs from the front end's moves to `variant`.
//! - [`Fields::decision`], [`Fields::monte_carlo_precision`], [`all_noise_warning`],
//!   [`Fields::engine`]: what the front ends add, from public parameters and released values only.
//! - [`fmt`], [`plural`]: numbers and counts for people.
//! - [`ReleaseTest`] (module `release`): the hook every private test of `dptest-registry`
//!   implements, so that the front ends run any test through one path: [`Data`] and
//!   [`Choices`] in, a [`Release`] (fields, title, human lines) out.
//! - [`data_of_samples`], [`release_on_cpu`] (module `binding`): that path as the Python and R
//!   bindings run it, from samples in memory, on the CPU engine.
//! - [`Summary`] (module `summary`): a test's sufficient statistic computed where the rows
//!   live (`dptest.spark`), released through the same hook as [`Data::Summary`].
//!
//! # Example
//!
//! ```
//! use dptest_report::{Fields, exact_reference};
//!
//! let mut fields = Fields::plain("wilcoxon");
//! fields.set("p_value", 0.01);
//! fields.set("reference", exact_reference());
//! assert_eq!(fields.decision(0.05), Some(true));
//! assert_eq!(fields.map()["reject"], true);
//! ```

#![deny(missing_docs)]

pub use crate::binding::{
    Binding, Simulation, binding_choices, data_of_samples, reference_monte_carlo, release_on_cpu,
};
pub use crate::interval::{
    MEDIAN_METHOD, MedianSource, median_ci_epsilon, median_estimate, median_interval_request,
    median_interval_widths,
};
pub use crate::release::{
    Choices, CiRequest, Data, EPSILON_TOTAL, Estimate, Evaluation, FrontEnd, IntervalSummary,
    Layout, Prepared, Refusal, Release, ReleaseTest, Shape, TestOption, estimate_text,
};
pub use crate::summary::Summary;
use dptest_core::Outcome;
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::{Map, Value, json};

mod binding;
mod interval;
mod release;
mod summary;

/// Fewer Monte Carlo draws than this get a resolution warning.
pub const MIN_USEFUL_DRAWS: u64 = 1000;

/// Above this total ε a release is flagged as effectively not private: neighbouring datasets
/// may then be told apart with a likelihood ratio up to e^ε (e¹⁰ ≈ 22 000).
pub const LARGE_EPSILON: f64 = 10.0;

/// The keys every test result carries (`null` where they do not apply).
pub const STABLE_KEYS: [&str; 6] = ["statistic", "p_value", "n", "epsilon", "delta", "reference"];

/// A result object under construction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fields {
    map: Map<String, Value>,
}

impl Fields {
    /// A public test's result struct, for front-end test name `test`.
    ///
    /// # Errors
    /// The result cannot be serialised.
    pub fn from_result(test: &str, result: &impl Serialize) -> Result<Fields, serde_json::Error> {
        let mut map = match serde_json::to_value(result)? {
            Value::Object(map) => map,
            other => Map::from_iter([("result".to_owned(), other)]),
        };
        let own = map.insert("test".to_owned(), Value::String(test.to_owned()));
        if let Some(Value::String(name)) = own
            && name != test
        {
            map.insert("variant".to_owned(), Value::String(name));
        }
        for key in STABLE_KEYS {
            map.entry(key.to_owned()).or_insert(Value::Null);
        }
        Ok(Fields { map })
    }

    /// A private test's outcome (declared parameters and released values only).
    ///
    /// # Errors
    /// The outcome cannot be serialised.
    pub fn from_release<D: Serialize>(
        test: &str,
        outcome: &Outcome<D>,
    ) -> Result<Fields, serde_json::Error> {
        Fields::from_result(test, outcome)
    }

    /// An object with only `test` (ledger, federated tables, plans, critical values).
    pub fn plain(test: &str) -> Fields {
        Fields { map: Map::from_iter([("test".to_owned(), Value::String(test.to_owned()))]) }
    }

    /// The object so far.
    pub fn map(&self) -> &Map<String, Value> {
        &self.map
    }

    /// The object, to edit a nested value.
    pub fn map_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.map
    }

    /// The finished object.
    pub fn into_map(self) -> Map<String, Value> {
        self.map
    }

    /// Sets a key (an unserialisable value becomes `null`).
    pub fn set(&mut self, key: &str, value: impl Serialize) {
        self.map.insert(key.to_owned(), serde_json::to_value(value).unwrap_or(Value::Null));
    }

    /// Sets `key` inside the object under `object` (nothing when there is no such object).
    pub fn set_in(&mut self, object: &str, key: &str, value: impl Serialize) {
        if let Some(Value::Object(inner)) = self.map.get_mut(object) {
            inner.insert(key.to_owned(), serde_json::to_value(value).unwrap_or(Value::Null));
        }
    }

    /// A number under `key`, if any.
    pub fn get_f64(&self, key: &str) -> Option<f64> {
        self.map.get(key).and_then(Value::as_f64)
    }

    /// Appends to the `warnings` list.
    pub fn warn(&mut self, text: &str) {
        let list = self.map.entry("warnings").or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(items) = list {
            items.push(Value::String(text.to_owned()));
        }
    }

    /// Records `alpha` and `reject` (p ≤ α) when there is a p-value; returns the decision.
    pub fn decision(&mut self, alpha: f64) -> Option<bool> {
        let reject = self.get_f64("p_value")? <= alpha;
        self.set("alpha", alpha);
        self.set("reject", reject);
        Some(reject)
    }

    /// For a Monte Carlo p-value: records `p_value_se` = √(p(1 − p)/draws) and returns the
    /// warning the p-value calls for (at the 1/(draws + 1) floor, or below
    /// [`MIN_USEFUL_DRAWS`]); `more_draws(n)` spells the front end's option ("--draws 1000").
    pub fn monte_carlo_precision(&mut self, more_draws: fn(u64) -> String) -> Option<String> {
        let reference = self.map.get("reference");
        let draws = reference.and_then(|r| r.get("draws")).and_then(Value::as_u64);
        let (draws, p) = (draws.filter(|&d| d > 0)?, self.get_f64("p_value")?);
        self.set("p_value_se", (p * (1.0 - p) / draws as f64).sqrt());
        let floor = 1.0 / (draws as f64 + 1.0);
        if p <= floor * (1.0 + 1e-9) {
            return Some(format!(
                "p = 1/(draws + 1) = {}, the smallest this reference can give: the true p may be \
                 smaller; pass more draws ({}) for resolution",
                fmt(floor),
                more_draws(10 * (draws + 1))
            ));
        }
        (draws < MIN_USEFUL_DRAWS).then(|| {
            format!(
                "only {}: the p-value resolves no better than 1/{}; use {} or more",
                plural(draws, "draw"),
                draws + 1,
                more_draws(MIN_USEFUL_DRAWS)
            )
        })
    }

    /// The warning a release whose whole ε (`epsilon_total`, else `epsilon`) is above
    /// [`LARGE_EPSILON`] calls for (a function of the declared ε alone).
    pub fn large_epsilon_warning(&self) -> Option<String> {
        let epsilon = self.get_f64(EPSILON_TOTAL).or_else(|| self.get_f64("epsilon"))?;
        (epsilon > LARGE_EPSILON).then(|| {
            format!(
                "ε = {} is above {}: neighbouring datasets may be told apart with a likelihood \
                 ratio up to e^ε, so treat this result as effectively not private",
                fmt(epsilon),
                fmt(LARGE_EPSILON)
            )
        })
    }

    /// The sentence to report a private result in a paper (`--report`): the test and its
    /// title, ε and δ, n, the noisy statistic, p with its Monte Carlo standard error and the
    /// reference, and the estimate with its interval and method, from the fields alone
    /// (post-processing of the release and declared parameters).
    pub fn report_sentence(&self, title: &str) -> String {
        let num = |key: &str| self.get_f64(key).map_or_else(|| "?".to_owned(), fmt);
        let reference = self.map.get("reference");
        let engine = reference.and_then(|r| r.get("engine")).and_then(Value::as_str).unwrap_or("?");
        let draws = reference.and_then(|r| r.get("draws")).and_then(Value::as_u64).unwrap_or(0);
        let se = self.get_f64("p_value").map(|p| (p * (1.0 - p) / draws.max(1) as f64).sqrt());
        let p = match se {
            Some(se) if draws > 0 => format!(
                "p = {} (Monte Carlo s.e. {}, {} reference with {} draws)",
                num("p_value"),
                fmt(se),
                engine,
                draws
            ),
            _ => format!("p = {} ({} reference)", num("p_value"), engine),
        };
        let cost = match (self.get_f64("epsilon"), self.get_f64(EPSILON_TOTAL)) {
            (Some(test), Some(total)) if total > test => {
                format!(
                    "ε = {} in all ({} for the test, the rest for the interval)",
                    fmt(total),
                    fmt(test)
                )
            }
            _ => format!("ε = {}", num("epsilon")),
        };
        let mut text = format!(
            "{title}, n = {}, {cost}, δ = {}: noisy statistic {}, {p}.",
            num("n"),
            num("delta"),
            num("statistic")
        );
        if let Some(e) = self.map.get("estimate") {
            let f =
                |key: &str| e.get(key).and_then(Value::as_f64).map_or_else(|| "?".to_owned(), fmt);
            let level = e.get("level").and_then(Value::as_f64).map_or(0.0, |l| 100.0 * l);
            let extra = e.get("epsilon").and_then(Value::as_f64).filter(|&x| x > 0.0);
            let cost = extra
                .map_or_else(String::new, |x| format!(", a release of its own at ε = {}", fmt(x)));
            let _ = write!(
                text,
                " Estimated {} {}, {}% CI [{}, {}] ({}{cost}).",
                e.get("parameter").and_then(Value::as_str).unwrap_or("effect"),
                f("value"),
                fmt(level),
                f("low"),
                f("high"),
                e.get("method").and_then(Value::as_str).unwrap_or("")
            );
        }
        text
    }

    /// Records the Monte Carlo engine that ran (`engine_choice`, `engine_device`), unless the
    /// reference is exact or absent; returns whether it did.
    pub fn engine(&mut self, choice: &str, device: &str) -> bool {
        let engine = self.map.get("reference").and_then(|r| r.get("engine"));
        if engine.and_then(Value::as_str).is_some_and(|e| e == "exact" || e == "none") {
            return false;
        }
        self.set("engine_choice", choice);
        self.set("engine_device", device);
        true
    }
}

/// The warning for a release whose noise scale exceeds 1000 times the statistic's range.
pub fn all_noise_warning(noise_scale: f64, statistic_range: f64) -> Option<String> {
    (noise_scale > 1e3 * statistic_range).then(|| {
        format!(
            "the noise scale {} is over 1000 times the statistic's range {}: the release is \
             essentially pure noise and the test has no power; use a larger ε or more data",
            fmt(noise_scale),
            fmt(statistic_range)
        )
    })
}

/// `{"engine": "exact", "draws": 0, "seed": null}`.
pub fn exact_reference() -> Value {
    json!({"engine": "exact", "draws": 0, "seed": null})
}

/// `{"engine": "exact", "draws": 0, "seed": null, "distribution": D}` for tests whose null
/// law D (t, F, binomial, permutation) is computed exactly.
pub fn exact_reference_of(distribution: &str) -> Value {
    json!({"engine": "exact", "draws": 0, "seed": null, "distribution": distribution})
}

/// `{"engine": "asymptotic", "draws": 0, "seed": null, "distribution": D}` for public tests
/// with a large-sample (χ², normal, t) reference.
pub fn asymptotic_reference(distribution: &str) -> Value {
    json!({"engine": "asymptotic", "draws": 0, "seed": null, "distribution": distribution})
}

/// "1 draw", "2 draws".
pub fn plural(count: u64, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

/// A number for people: integers plainly, others with 6 significant digits.
pub fn fmt(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{x:.0}")
    } else if x != 0.0 && (x.abs() < 1e-4 || x.abs() >= 1e9) {
        format!("{x:.5e}")
    } else {
        let digits = (5 - x.abs().log10().floor() as i32).clamp(0, 12) as usize;
        let s = format!("{x:.digits$}");
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_owned() } else { s }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_for_people() {
        assert_eq!(fmt(3.0), "3");
        assert_eq!(fmt(0.05), "0.05");
        assert_eq!(fmt(1234.5678), "1234.57");
        assert_eq!(fmt(1e-6), "1.00000e-6");
        assert_eq!(fmt(-0.5), "-0.5");
    }

    #[derive(Serialize)]
    struct Fake {
        test: &'static str,
        statistic: f64,
        p_value: f64,
    }

    #[test]
    fn stable_keys_are_always_present() {
        let fake = Fake { test: "kruskal-wallis-abs", statistic: 1.0, p_value: 0.5 };
        let fields = Fields::from_result("kruskal-wallis", &fake).unwrap();
        assert_eq!(fields.map()["test"], "kruskal-wallis");
        assert_eq!(fields.map()["variant"], "kruskal-wallis-abs");
        for key in STABLE_KEYS {
            assert!(fields.map().contains_key(key), "{key}");
        }
    }

    #[test]
    fn a_large_epsilon_is_flagged_from_the_whole_epsilon() {
        let with = |pairs: &[(&str, f64)]| {
            let mut f = Fields::plain("t");
            for &(key, value) in pairs {
                f.set(key, value);
            }
            f.large_epsilon_warning()
        };
        assert_eq!(with(&[("epsilon", 10.0)]), None);
        assert!(with(&[("epsilon", 1e6)]).unwrap().contains("effectively not private"));
        // The interval's own ε counts: 8 + 4 spent.
        assert!(with(&[("epsilon", 8.0), (EPSILON_TOTAL, 12.0)]).is_some());
        assert_eq!(with(&[]), None, "a public result has no ε");
    }

    #[test]
    fn monte_carlo_precision_warns_at_the_floor_and_for_few_draws() {
        let spell = |n: u64| format!("--draws {n}");
        let with = |p: f64, draws: u64| {
            let mut f = Fields::plain("t");
            f.set("p_value", p);
            f.set("reference", json!({"engine": "cpu", "draws": draws, "seed": 1}));
            let warning = f.monte_carlo_precision(spell);
            (f.get_f64("p_value_se").unwrap(), warning)
        };
        let (se, floor) = with(1.0 / 101.0, 100);
        assert!(se > 0.0 && floor.unwrap().contains("smallest"));
        assert!(with(0.5, 100).1.unwrap().contains("--draws 1000"));
        assert_eq!(with(0.5, 5000).1, None);
        let mut exact = Fields::plain("t");
        exact.set("p_value", 0.5);
        exact.set("reference", exact_reference());
        assert_eq!(exact.monte_carlo_precision(spell), None);
        assert!(!exact.engine("cpu", "2 threads"));
    }

    #[test]
    fn the_all_noise_warning_needs_a_thousandfold_scale() {
        assert!(all_noise_warning(2001.0, 2.0).is_some());
        assert!(all_noise_warning(1999.0, 2.0).is_none());
    }
}
