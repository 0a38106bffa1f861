//! The native half of the R package `dptest`: every private test of `dptest-registry` through
//! its release hook, as the CLI and the Python package run it (same checks, same reference on
//! the CPU engine, same seeds of the public reference, same fields), optionally charged to the
//! CLI's ledger file. The R layer (R/*.R) turns the result into an `htest` object.
//!
//! Release noise comes only from `dptest-mechanisms` (OS CSPRNG, never seeded); `seed` fixes
//! the public Monte Carlo reference only. A failure comes back as `list(error = message,
//! budget = TRUE/FALSE)`, which the R layer raises as an R condition (no Rust panic crosses
//! into R).

use dptest_core::{PrivacyCost, Spent};
use dptest_refdist::Alternative;
use dptest_report::{
    Binding, Choices, CiRequest, Data, Fields, FrontEnd, ReleaseTest, Simulation, binding_choices,
    data_of_samples, release_on_cpu,
};
use extendr_api::prelude::*;
use serde_json::Value;

/// Why a call failed, as the R layer raises it.
enum CallError {
    /// Bad input, a refused choice or a library error: an R error with this message.
    Error(String),
    /// A ledger's refusal (the release would overspend): a `dptest_budget_error`.
    Budget(String),
}

/// A binding call's result.
type Outcome<T> = std::result::Result<T, CallError>;

fn fail(e: impl std::fmt::Display) -> CallError {
    CallError::Error(e.to_string())
}

/// The value an exported function hands to R: the result, or `list(error =, budget =)`.
fn to_r_outcome(result: Outcome<Robj>) -> Robj {
    let (message, budget) = match result {
        Ok(value) => return value,
        Err(CallError::Error(message)) => (message, false),
        Err(CallError::Budget(message)) => (message, true),
    };
    let values: [Robj; 2] = [Robj::from(message), Robj::from(budget)];
    List::from_names_and_values(["error", "budget"], values)
        .map(Robj::from)
        .unwrap_or_else(|_| ().into())
}

/// A test of `dptest-registry` by name.
fn registered(name: &str) -> Outcome<&'static dyn ReleaseTest> {
    dptest_registry::find(name).ok_or_else(|| {
        fail(format!("test must be one of {}, not {name:?}", dptest_registry::names().join(", ")))
    })
}

fn alternative(name: &str) -> Outcome<Alternative> {
    match name {
        "two.sided" => Ok(Alternative::TwoSided),
        "less" => Ok(Alternative::Less),
        "greater" => Ok(Alternative::Greater),
        other => Err(fail(format!(
            "alternative must be \"two.sided\", \"less\" or \"greater\", not {other:?}"
        ))),
    }
}

/// An optional number: `NULL` or `NA` is absent.
fn optional(x: &Robj) -> Option<f64> {
    if x.is_null() {
        return None;
    }
    x.as_real().filter(|v| !v.is_nan())
}

/// A finished release: its fields (the CLI's `--json` keys) and what it spent.
struct Released {
    fields: Fields,
    cost: PrivacyCost,
}

impl Spent for Released {
    fn spent(&self) -> PrivacyCost {
        self.cost
    }
}

/// How the R package names itself in the fields and warnings it adds.
const R_BINDING: Binding = Binding {
    engine_choice: "cpu (the R package runs the CPU engine)",
    more_draws: |n| format!("draws = {n}"),
};

/// Everything a release needs besides the ledger.
struct Request {
    test: &'static dyn ReleaseTest,
    choices: Choices,
    data: Data,
    simulation: Simulation,
    alpha: f64,
}

impl Request {
    /// The ε and δ the release will spend (public values only), for the ledger's check.
    fn cost(&self) -> Outcome<dptest_report::Prepared> {
        self.test.prepare(self.data.shape(), &self.choices).map_err(fail)
    }

    fn run(self) -> Outcome<Released> {
        let (fields, cost) = release_on_cpu(
            self.test,
            self.data,
            &self.choices,
            self.simulation,
            self.alpha,
            R_BINDING,
        )
        .map_err(fail)?;
        Ok(Released { fields, cost })
    }
}

/// An R value of a JSON value: numbers, strings and logicals as length-one vectors, arrays of
/// numbers or strings as vectors, other arrays and objects as (named) lists, null as NULL.
fn to_r(value: &Value) -> Robj {
    match value {
        Value::Null => Robj::from(()),
        Value::Bool(b) => Robj::from(*b),
        Value::Number(x) => Robj::from(x.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => Robj::from(s.as_str()),
        Value::Array(items) => {
            if !items.is_empty() && items.iter().all(Value::is_number) {
                let numbers: Vec<f64> =
                    items.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect();
                Robj::from(numbers)
            } else if !items.is_empty() && items.iter().all(Value::is_string) {
                let strings: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                Robj::from(strings)
            } else {
                List::from_values(items.iter().map(to_r)).into()
            }
        }
        Value::Object(map) => {
            let names: Vec<&str> = map.keys().map(String::as_str).collect();
            let values: Vec<Robj> = map.values().map(to_r).collect();
            List::from_names_and_values(names, values).map(Robj::from).unwrap_or_else(|_| ().into())
        }
    }
}

/// Whole, non-negative numbers from R (draws and seeds arrive as doubles).
fn whole(name: &str, x: &Robj) -> Outcome<Option<u64>> {
    match optional(x) {
        None => Ok(None),
        Some(v) if v >= 0.0 && v.fract() == 0.0 && v < 2f64.powi(64) => Ok(Some(v as u64)),
        Some(v) => Err(fail(format!("{name} must be a whole number ≥ 0, not {v}"))),
    }
}

/// The named arguments of a release, as the R layer passes them (one list).
struct Arguments(std::collections::HashMap<String, Robj>);

impl Arguments {
    fn of(list: List) -> Self {
        Arguments(list.iter().map(|(name, value)| (name.to_owned(), value)).collect())
    }

    /// An argument that may be `NULL` (absent from the list reads as `NULL` too).
    fn robj(&self, name: &str) -> Robj {
        self.0.get(name).cloned().unwrap_or_else(|| ().into())
    }

    fn number(&self, name: &str) -> Outcome<f64> {
        optional(&self.robj(name)).ok_or_else(|| fail(format!("`{name}` must be a number")))
    }

    fn text(&self, name: &str) -> Outcome<String> {
        self.robj(name)
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| fail(format!("`{name}` must be a string")))
    }

    fn texts(&self, name: &str) -> Vec<String> {
        self.robj(name).as_str_vector().unwrap_or_default().into_iter().map(str::to_owned).collect()
    }
}

/// Any private test of `dptest-registry` through its release hook, as the CLI runs it, and
/// charged to the ledger `ledger_path` (dataset `dataset`) when it is given: refused before
/// anything is spent if it would overspend, recorded at what the release itself spent.
/// Returns the CLI's `--json` fields as a named list, with `ledger` (the dataset's status)
/// when charged.
#[extendr]
fn dp_release(arguments: List) -> Robj {
    to_r_outcome(release(&Arguments::of(arguments)))
}

fn release(args: &Arguments) -> Outcome<Robj> {
    let test = registered(&args.text("test")?)?;
    let bounds = match args.robj("bounds").as_real_slice() {
        Some([lo, hi]) => Some((*lo, *hi)),
        Some(_) => return Err(fail("bounds must be c(lo, hi)")),
        None => None,
    };
    let named = args.texts("option_names").into_iter().zip(args.texts("option_values")).collect();
    let ci = optional(&args.robj("ci_level"))
        .map(|level| CiRequest { level, epsilon: optional(&args.robj("ci_epsilon")) });
    let choices = binding_choices(
        test,
        args.number("epsilon")?,
        optional(&args.robj("delta")),
        alternative(&args.text("alternative")?)?,
        bounds,
        args.number("popmean")?,
        named,
        ci,
        FrontEnd::R,
    )
    .map_err(fail)?;
    let samples = args
        .robj("samples")
        .as_list()
        .ok_or_else(|| fail("`samples` must be a list"))?
        .values()
        .map(|s| s.as_real_vector().ok_or_else(|| fail("every sample must be numeric")))
        .collect::<Outcome<Vec<Vec<f64>>>>()?;
    let paired = args.robj("paired").as_bool().unwrap_or(false);
    let request = Request {
        test,
        choices,
        data: data_of_samples(test, samples, paired).map_err(fail)?,
        simulation: Simulation {
            draws: whole("draws", &args.robj("draws"))?,
            seed: whole("seed", &args.robj("seed"))?,
        },
        alpha: args.number("alpha")?,
    };
    let ledger_path = args.robj("ledger_path");
    let Some(path) = ledger_path.as_str() else {
        let done = request.run()?;
        return Ok(to_r(&Value::Object(done.fields.into_map())));
    };
    let prepared = request.cost()?;
    let file = std::path::PathBuf::from(path);
    let dataset = args.text("dataset")?;
    let account = dptest_ledger::Account {
        file: &file,
        dataset: &dataset,
        budget: optional(&args.robj("budget")),
        delta_budget: optional(&args.robj("delta_budget")),
    };
    let charge = dptest_ledger::Charge {
        test: test.name(),
        epsilon: prepared.epsilon,
        delta: prepared.delta,
    };
    let (done, status) = dptest_ledger::charged(&account, &charge, || request.run()).map_err(
        |failure| match failure {
            dptest_ledger::Failure::Ledger(e) if e.is_refusal() => {
                CallError::Budget(format!("ledger: {e}"))
            }
            dptest_ledger::Failure::Ledger(e) => fail(format!("ledger: {e}")),
            dptest_ledger::Failure::Release(e) => e,
        },
    )?;
    let mut map = done.fields.into_map();
    map.insert("ledger".to_owned(), serde_json::to_value(status).map_err(fail)?);
    Ok(to_r(&Value::Object(map)))
}

/// The budget state of a named dataset in a ledger file (a named list), or NULL when the
/// dataset has no entry.
#[extendr]
fn dp_ledger_status(path: &str, dataset: &str) -> Robj {
    to_r_outcome((|| {
        let status = dptest_ledger::status(std::path::Path::new(path), dataset).map_err(fail)?;
        match status {
            Some(status) => Ok(to_r(&serde_json::to_value(status).map_err(fail)?)),
            None => Ok(().into()),
        }
    })())
}

/// The public interval of `test` at `level` on `samples` (a list of numeric vectors) where
/// `stats` has none (`dp_kruskal_test(public = TRUE, conf.level =)`): the estimate object of
/// the CLI's `--public --ci` as a named list ([`dptest_registry::public_interval`]).
#[extendr]
fn dp_public_interval(test: &str, samples: List, level: f64) -> Robj {
    to_r_outcome((|| {
        let samples = samples
            .values()
            .map(|s| s.as_real_vector().ok_or_else(|| fail("every sample must be numeric")))
            .collect::<Outcome<Vec<Vec<f64>>>>()?;
        let estimate = dptest_registry::public_interval(test, &samples, level).map_err(fail)?;
        Ok(to_r(&serde_json::to_value(estimate).map_err(fail)?))
    })())
}

/// The names of the private tests of `dptest-registry`.
#[extendr]
fn dp_test_names() -> Vec<String> {
    dptest_registry::names().into_iter().map(str::to_owned).collect()
}

extendr_module! {
    mod dptest;
    fn dp_release;
    fn dp_ledger_status;
    fn dp_public_interval;
    fn dp_test_names;
}
