//! `dptest._dptest`: the native half of the Python package `dptest`.
//!
//! Every function takes validated public parameters and the data, runs the library call the
//! CLI runs (same crates, same defaults, same seeds of the public reference), and returns the
//! result as a JSON string with the keys of the CLI's `--json` output (the Python layer turns
//! it into a result object). Long calls release the GIL. Release noise comes only from
//! `dptest-mechanisms` (OS CSPRNG, never seeded); `seed` fixes the public Monte Carlo
//! reference only. Library errors become `ValueError` with the library's message.

use dptest_anova as av;
use dptest_core::{Bounds, PrivacyCost, Spent};
use dptest_federated as fed;
use dptest_intervals::{GridCell, GridSpacing, MedianGrid};
use dptest_kruskal_wallis as kw;
use dptest_mann_whitney as mw;
use dptest_mechanisms::Epsilon;
use dptest_refdist::{Alternative, CpuEngine, Engine, Evaluator, MonteCarlo, Tail};
use dptest_report::{
    Binding, Choices, Data, Fields, FrontEnd, IntervalSummary, Layout, ReleaseTest, Shape,
    Simulation, Summary,
    asymptotic_reference, binding_choices, data_of_samples, exact_reference, exact_reference_of,
    release_on_cpu,
};
use dptest_sign as sg;
use dptest_t_test as tt;
use dptest_tables as tables;
use dptest_wilcoxon as wx;
use numpy::PyReadonlyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde::Serialize;
use serde_json::{Value, json};

fn err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A copy of a float64 array's data (read straight from its buffer; the library owns it).
fn values(a: &PyReadonlyArray1<'_, f64>) -> PyResult<Vec<f64>> {
    match a.as_slice() {
        Ok(s) => Ok(s.to_vec()),
        Err(_) => Ok(a.as_array().iter().copied().collect()),
    }
}

fn alternative(name: &str) -> PyResult<Alternative> {
    match name {
        "two-sided" => Ok(Alternative::TwoSided),
        "less" => Ok(Alternative::Less),
        "greater" => Ok(Alternative::Greater),
        other => Err(err(format!(
            "alternative must be 'two-sided', 'less' or 'greater', not {other:?}"
        ))),
    }
}

/// A reference's draws and seed: `seed` where given (to reproduce a run), else a fresh one from
/// the OS CSPRNG, as the CLI's (`dptest_report::reference_monte_carlo`).
fn monte_carlo(draws: Option<u64>, default_draws: u64, seed: Option<u64>) -> PyResult<MonteCarlo> {
    dptest_report::reference_monte_carlo(draws.unwrap_or(default_draws), seed)
        .map_err(|e| err(format!("draws: {e}")))
}

/// A result object (the CLI's JSON, through `dptest-report`) on its way to a Python dict.
struct Report {
    fields: Fields,
}

impl Report {
    fn from_result(test: &str, result: &impl Serialize) -> PyResult<Report> {
        Ok(Report { fields: Fields::from_result(test, result).map_err(err)? })
    }

    fn plain(test: &str) -> Report {
        Report { fields: Fields::plain(test) }
    }

    fn set(&mut self, key: &str, value: impl Serialize) {
        self.fields.set(key, value);
    }

    fn warn(&mut self, text: impl Into<String>) {
        self.fields.warn(&text.into());
    }

    fn decision(&mut self, alpha: f64) {
        self.fields.decision(alpha);
    }

    fn engine(&mut self, engine: &dyn Engine) {
        self.fields.engine("cpu (the Python package runs the CPU engine)", &engine.device());
    }

    /// The Monte Carlo precision (as the CLI's), then serialised.
    fn finish(mut self) -> String {
        if let Some(warning) = self.fields.monte_carlo_precision(|n| format!("draws={n}")) {
            self.warn(warning);
        }
        self.json()
    }

    fn json(self) -> String {
        Value::Object(self.fields.into_map()).to_string()
    }
}

fn kw_statistic(name: &str) -> PyResult<kw::KwStatistic> {
    match name {
        "abs" => Ok(kw::KwStatistic::Abs),
        "squared" => Ok(kw::KwStatistic::Squared),
        other => Err(err(format!("statistic must be 'abs' or 'squared', not {other:?}"))),
    }
}

/// The public Kruskal–Wallis test (scipy.stats.kruskal); the private one is [`release`].
#[pyfunction]
#[pyo3(signature = (samples, labels, alpha))]
fn kruskal(samples: Vec<PyReadonlyArray1<'_, f64>>, labels: Vec<String>, alpha: f64) -> PyResult<String> {
    let groups: Vec<Vec<f64>> = samples.iter().map(values).collect::<PyResult<_>>()?;
    let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    if let Some(g) = sizes.iter().position(|&s| s == 0) {
        return Err(err(format!("group {g} is empty: the public test needs every group non-empty")));
    }
    let sample = kw::GroupedSample::from_groups(&groups).map_err(err)?;
    let result = kw::kruskal(&sample).map_err(err)?;
    let mut r = Report::from_result("kruskal-wallis", &result)?;
    r.set("reference", asymptotic_reference("chi2"));
    r.set("group_sizes", &sizes);
    r.set("group_labels", &labels);
    r.decision(alpha);
    Ok(r.finish())
}

/// The public Kruskal–Wallis test from the group mid-rank sums, sizes and Σ(t³ − t), computed
/// where the rows live (`dptest.spark`): the fields of [`kruskal`].
#[pyfunction]
#[pyo3(signature = (sums, sizes, tie_sum, labels, alpha))]
fn kruskal_of_rank_sums(sums: Vec<f64>, sizes: Vec<u32>, tie_sum: f64, labels: Vec<String>, alpha: f64) -> PyResult<String> {
    if let Some(g) = sizes.iter().position(|&s| s == 0) {
        return Err(err(format!("group {g} is empty: the public test needs every group non-empty")));
    }
    let result = kw::kruskal_of_rank_sums(&sums, &sizes, tie_sum).map_err(err)?;
    let mut r = Report::from_result("kruskal-wallis", &result)?;
    r.set("reference", asymptotic_reference("chi2"));
    r.set("group_sizes", &sizes);
    r.set("group_labels", &labels);
    r.decision(alpha);
    Ok(r.finish())
}

/// The p-value the private Kruskal–Wallis reference gives a released statistic (public
/// post-processing: n, groups, ε, draws and seed only).
#[pyfunction]
#[pyo3(signature = (released, n, groups, epsilon, statistic="abs", draws=None, seed=None))]
fn kruskal_reference_pvalue(
    py: Python<'_>,
    released: f64,
    n: usize,
    groups: usize,
    epsilon: f64,
    statistic: &str,
    draws: Option<u64>,
    seed: Option<u64>,
) -> PyResult<f64> {
    let statistic = kw_statistic(statistic)?;
    let model = kw::reference_null(n, groups, statistic, Epsilon::new(epsilon).map_err(err)?)
        .map_err(err)?;
    let mc = monte_carlo(draws, kw::DEFAULT_DRAWS, seed)?;
    let p = py.detach(|| CpuEngine.p_value(&model, released, Tail::Upper, &mc)).map_err(err)?;
    Ok(p.p_value)
}

/// The public Mann–Whitney U test (scipy.stats.mannwhitneyu); the private one is [`release`].
#[pyfunction]
#[pyo3(signature = (x, y, labels, alternative, use_continuity, method, alpha))]
fn mannwhitneyu(
    x: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
    labels: Vec<String>,
    alternative: &str,
    use_continuity: bool,
    method: &str,
    alpha: f64,
) -> PyResult<String> {
    let (x, y) = (values(&x)?, values(&y)?);
    let sample = mw::TwoSample::new(x, y).map_err(err)?;
    let options = mw_options(alternative, use_continuity, method)?;
    let result = mw::mann_whitney_u(&sample, &options).map_err(err)?;
    mw_report(&result, labels, alpha)
}

/// The public Mann–Whitney U test from x's mid-rank sum `r1`, the sizes and Σ(t³ − t),
/// computed where the rows live (`dptest.spark`): the fields of [`mannwhitneyu`].
#[pyfunction]
#[pyo3(signature = (r1, n1, n2, tie_sum, labels, alternative, use_continuity, method, alpha))]
#[allow(clippy::too_many_arguments)]
fn mannwhitneyu_of_rank_sum(
    r1: f64,
    n1: usize,
    n2: usize,
    tie_sum: f64,
    labels: Vec<String>,
    alternative: &str,
    use_continuity: bool,
    method: &str,
    alpha: f64,
) -> PyResult<String> {
    if n1 == 0 || n2 == 0 {
        return Err(err("both samples need at least one value".to_owned()));
    }
    let options = mw_options(alternative, use_continuity, method)?;
    let summary = mw::MwSummary::from_rank_sum(r1, n1, n2);
    let result = mw::mann_whitney_u_of_summary(&summary, tie_sum, &options).map_err(err)?;
    mw_report(&result, labels, alpha)
}

fn mw_options(alternative: &str, use_continuity: bool, method: &str) -> PyResult<mw::MannWhitneyOptions> {
    let method = match method {
        "auto" => mw::Method::Auto,
        "exact" => mw::Method::Exact,
        "asymptotic" => mw::Method::Asymptotic,
        other => return Err(err(format!("method must be 'auto', 'exact' or 'asymptotic', not {other:?}"))),
    };
    Ok(mw::MannWhitneyOptions { alternative: self::alternative(alternative)?, method, use_continuity })
}

fn mw_report(result: &mw::MannWhitneyResult, labels: Vec<String>, alpha: f64) -> PyResult<String> {
    let mut r = Report::from_result("mann-whitney", result)?;
    r.set(
        "reference",
        match result.method {
            mw::Method::Exact => exact_reference(),
            _ => asymptotic_reference("normal"),
        },
    );
    r.set("group_sizes", [result.n1, result.n2]);
    r.set("group_labels", &labels);
    r.decision(alpha);
    Ok(r.finish())
}

fn wx_reference(name: &str) -> PyResult<wx::Reference> {
    match name {
        "exact" => Ok(wx::Reference::Exact),
        "exact-untied" => Ok(wx::Reference::ExactUntied),
        "normal" => Ok(wx::Reference::Normal),
        other => Err(err(format!(
            "reference must be 'exact', 'exact-untied' or 'normal', not {other:?}"
        ))),
    }
}

/// The public Wilcoxon signed-rank test of the differences `d` (x − y, or x):
/// scipy.stats.wilcoxon with its `zero_method`, `method` ("auto", "exact", "asymptotic" or
/// "permutation", the exhaustive sign-flip null), `correction` and `alternative`; the private
/// one is [`release`].
#[pyfunction]
#[pyo3(signature = (d, kind, popmean, alternative, zero_method, correction, method, alpha))]
#[allow(clippy::too_many_arguments)]
fn wilcoxon(
    py: Python<'_>,
    d: PyReadonlyArray1<'_, f64>,
    kind: &str,
    popmean: f64,
    alternative: &str,
    zero_method: &str,
    correction: bool,
    method: &str,
    alpha: f64,
) -> PyResult<String> {
    let d = wx::shifted(&values(&d)?, popmean);
    let sample = wx::PairedSample::from_differences(&d).map_err(err)?;
    let options = wx_options(alternative, zero_method, correction, method)?;
    let result = py.detach(|| wx::wilcoxon_pratt(&sample, &options)).map_err(err)?;
    wx_report(&result, kind, alpha)
}

/// The public Wilcoxon test from the counts and rank sums of the ranking `zero_method` tests
/// and the tie blocks of |d| (`None` above the permutation null's limit), computed where the
/// rows live (`dptest.spark`): the fields of [`wilcoxon`].
#[pyfunction]
#[pyo3(signature = (n, n_zero, r_plus, r_minus, tie_term, blocks, kind, alternative, zero_method, correction, method, alpha))]
#[allow(clippy::too_many_arguments)]
fn wilcoxon_of_summary(
    py: Python<'_>,
    n: usize,
    n_zero: usize,
    r_plus: f64,
    r_minus: f64,
    tie_term: f64,
    blocks: Option<Vec<usize>>,
    kind: &str,
    alternative: &str,
    zero_method: &str,
    correction: bool,
    method: &str,
    alpha: f64,
) -> PyResult<String> {
    let options = wx_options(alternative, zero_method, correction, method)?;
    let summary = wx::SignedRankSummary { n, n_zero, r_plus, r_minus, tie_term, blocks };
    let result = py.detach(|| wx::wilcoxon_of_summary(&summary, &options)).map_err(err)?;
    wx_report(&result, kind, alpha)
}

fn wx_options(alternative: &str, zero_method: &str, correction: bool, method: &str) -> PyResult<wx::PublicOptions> {
    let zero_method = match zero_method {
        "wilcox" => wx::ZeroMethod::Wilcox,
        "pratt" => wx::ZeroMethod::Pratt,
        "zsplit" => wx::ZeroMethod::Zsplit,
        other => {
            return Err(err(format!("zero_method must be 'wilcox', 'pratt' or 'zsplit', not {other:?}")));
        }
    };
    let method = match method {
        "auto" => wx::PublicMethod::Auto,
        "exact" => wx::PublicMethod::Exact,
        "asymptotic" => wx::PublicMethod::Asymptotic,
        "permutation" => wx::PublicMethod::Permutation,
        other => {
            return Err(err(format!(
                "method must be 'auto', 'exact', 'asymptotic' or 'permutation', not {other:?}"
            )));
        }
    };
    let alternative = self::alternative(alternative)?;
    Ok(wx::PublicOptions { alternative, zero_method, correction, method })
}

fn wx_report(result: &wx::PublicResult, kind: &str, alpha: f64) -> PyResult<String> {
    let mut r = Report::from_result("wilcoxon", result)?;
    r.set(
        "reference",
        match result.method {
            wx::PublicMethod::Exact => exact_reference(),
            wx::PublicMethod::Permutation => exact_reference_of("permutation"),
            _ => asymptotic_reference("normal"),
        },
    );
    r.set("kind", kind);
    r.decision(alpha);
    Ok(r.finish())
}

/// The p-value the private Wilcoxon reference gives a released W̃ (public post-processing).
#[pyfunction]
#[pyo3(signature = (released, n, epsilon, alternative="two-sided", reference="exact"))]
fn wilcoxon_reference_pvalue(
    py: Python<'_>,
    released: f64,
    n: usize,
    epsilon: f64,
    alternative: &str,
    reference: &str,
) -> PyResult<f64> {
    let alt = self::alternative(alternative)?;
    let epsilon = Epsilon::new(epsilon).map_err(err)?;
    let reference = wx_reference(reference)?;
    py.detach(|| {
        let r = wx::WpReference::new(n, epsilon, reference, Evaluator::Exact)?;
        r.p_value(released, alt)
    })
    .map_err(err)
}

/// The public one-sample / paired t-test of `d` (scipy); the private one is [`release`].
#[pyfunction]
#[pyo3(signature = (d, kind, popmean, alternative, alpha))]
fn ttest(d: PyReadonlyArray1<'_, f64>, kind: &str, popmean: f64, alternative: &str, alpha: f64) -> PyResult<String> {
    let d = values(&d)?;
    let result = tt::ttest_1samp(&d, popmean, self::alternative(alternative)?).map_err(err)?;
    t_report(&result, kind, alpha)
}

/// The public t-test from n, the mean, the mean of x − popmean and the unbiased variance,
/// computed where the rows live (`dptest.spark`): the fields of [`ttest`].
#[pyfunction]
#[pyo3(signature = (n, mean, difference, variance, kind, popmean, alternative, alpha))]
#[allow(clippy::too_many_arguments)]
fn ttest_of_moments(
    n: usize,
    mean: f64,
    difference: f64,
    variance: f64,
    kind: &str,
    popmean: f64,
    alternative: &str,
    alpha: f64,
) -> PyResult<String> {
    let alternative = self::alternative(alternative)?;
    let result =
        tt::ttest_of_moments(n, mean, difference, variance, popmean, alternative).map_err(err)?;
    t_report(&result, kind, alpha)
}

fn t_report(result: &tt::TTestResult, kind: &str, alpha: f64) -> PyResult<String> {
    let mut r = Report::from_result("t-test", result)?;
    r.set("reference", exact_reference_of("t"));
    r.set("kind", kind);
    r.decision(alpha);
    Ok(r.finish())
}

/// The public t-test's interval for the mean from its `mean`, `standard_error` and `df`
/// (scipy's `TtestResult.confidence_interval`): `(low, high)`.
#[pyfunction]
fn ttest_confidence_interval(
    mean: f64,
    standard_error: f64,
    df: f64,
    alternative: &str,
    level: f64,
) -> PyResult<(f64, f64)> {
    let alternative = self::alternative(alternative)?;
    let ci = tt::t_confidence_interval(mean, standard_error, df, alternative, level)
        .map_err(err)?;
    Ok((ci.low, ci.high))
}

/// The public interval of a public test (`public=True, ci=LEVEL`, the CLI's `--public --ci`)
/// as the JSON estimate object ([`dptest_registry::public_interval`]).
#[pyfunction]
fn public_interval(test: &str, samples: Vec<PyReadonlyArray1<'_, f64>>, level: f64) -> PyResult<String> {
    let samples: Vec<Vec<f64>> = samples.iter().map(values).collect::<PyResult<_>>()?;
    let estimate = dptest_registry::public_interval(test, &samples, level).map_err(err)?;
    serde_json::to_string(&estimate).map_err(err)
}

/// The public exact binomial test (scipy.stats.binomtest).
#[pyfunction]
fn binomtest(k: u64, n: u64, p: f64, alternative: &str, alpha: f64) -> PyResult<String> {
    let result = sg::binomtest(k, n, p, self::alternative(alternative)?).map_err(err)?;
    let mut r = Report::from_result("binomtest", &result)?;
    r.set("reference", exact_reference_of("binomial"));
    r.decision(alpha);
    Ok(r.finish())
}

/// The binomial test's interval for the proportion (scipy's `proportion_ci`): `(low, high)`.
#[pyfunction]
fn binomtest_proportion_ci(
    k: u64,
    n: u64,
    p: f64,
    alternative: &str,
    level: f64,
    method: &str,
) -> PyResult<(f64, f64)> {
    let method = match method {
        "exact" => sg::ProportionCiMethod::Exact,
        "wilson" => sg::ProportionCiMethod::Wilson,
        "wilsoncc" => sg::ProportionCiMethod::WilsonCc,
        other => {
            return Err(err(format!("method must be 'exact', 'wilson' or 'wilsoncc', not {other:?}")));
        }
    };
    let result = sg::binomtest(k, n, p, self::alternative(alternative)?).map_err(err)?;
    let ci = result.proportion_ci(level, method).map_err(err)?;
    Ok((ci.low, ci.high))
}

/// The names of the private tests of `dptest-registry`.
#[pyfunction]
fn tests() -> Vec<&'static str> {
    dptest_registry::names()
}

/// A test of `dptest-registry` by name, for the private calls below.
fn registered(name: &str) -> PyResult<&'static dyn ReleaseTest> {
    dptest_registry::find(name).ok_or_else(|| {
        err(format!("test must be one of {}, not {name:?}", dptest_registry::names().join(", ")))
    })
}

/// The public choices of a private release, as the CLI's (named options `(name, value)`,
/// a switch that is on has the value "true"); names the test does not know are refused.
#[allow(clippy::too_many_arguments)]
fn choices(
    test: &dyn ReleaseTest,
    epsilon: f64,
    delta: Option<f64>,
    alternative: &str,
    bounds: Option<(f64, f64)>,
    popmean: f64,
    options: Vec<(String, String)>,
    ci: Option<(f64, Option<f64>)>,
) -> PyResult<Choices> {
    let ci = ci.map(|(level, epsilon)| dptest_report::CiRequest { level, epsilon });
    let alternative = self::alternative(alternative)?;
    binding_choices(test, epsilon, delta, alternative, bounds, popmean, options, ci, FrontEnd::Python)
        .map_err(err)
}

/// The ε and δ a private release of `test` spends (public values only: n, the number of
/// groups, whether the data are paired, the choices), for the ledger before the release.
#[pyfunction]
#[pyo3(signature = (test, n, groups, paired, epsilon, delta, alternative, bounds, popmean, options, ci))]
#[allow(clippy::too_many_arguments)]
fn release_cost(
    test: &str,
    n: usize,
    groups: usize,
    paired: bool,
    epsilon: f64,
    delta: Option<f64>,
    alternative: &str,
    bounds: Option<(f64, f64)>,
    popmean: f64,
    options: Vec<(String, String)>,
    ci: Option<(f64, Option<f64>)>,
) -> PyResult<(f64, f64)> {
    let test = registered(test)?;
    let choices = choices(test, epsilon, delta, alternative, bounds, popmean, options, ci)?;
    test.layout().check_groups(test.name(), groups).map_err(err)?;
    let prepared = test.prepare(Shape { n, groups, paired }, &choices).map_err(err)?;
    Ok((prepared.epsilon, prepared.delta))
}

/// Any private test of `dptest-registry` through its release hook, as the CLI runs it: the
/// public checks, the reference on the CPU engine where it must be simulated (else exactly),
/// the release, and the same fields and warnings as the CLI's `--json`.
#[pyfunction]
#[pyo3(signature = (test, samples, labels, paired, epsilon, delta, alternative, bounds, popmean, options, ci, draws, seed, alpha))]
#[allow(clippy::too_many_arguments)]
fn release(
    py: Python<'_>,
    test: &str,
    samples: Vec<PyReadonlyArray1<'_, f64>>,
    labels: Vec<String>,
    paired: bool,
    epsilon: f64,
    delta: Option<f64>,
    alternative: &str,
    bounds: Option<(f64, f64)>,
    popmean: f64,
    options: Vec<(String, String)>,
    ci: Option<(f64, Option<f64>)>,
    draws: Option<u64>,
    seed: Option<u64>,
    alpha: f64,
) -> PyResult<Released> {
    let test = registered(test)?;
    let choices = choices(test, epsilon, delta, alternative, bounds, popmean, options, ci)?;
    let samples: Vec<Vec<f64>> = samples.iter().map(values).collect::<PyResult<_>>()?;
    let data = data_of_samples(test, samples, paired).map_err(err)?;
    release_data(py, test, data, &choices, labels, Simulation { draws, seed }, alpha)
}

/// A private release of `test` from its sufficient statistic, computed where the rows live
/// (`dptest.spark`): `kind` names it and `floats` and `counts` hold it —
/// `"rank-sums"` ([]; twice the group rank sums, exact integers, then the group sizes),
/// `"signed-ranks"` ([W]; [n]),
/// `"signs"` ([]; [positive, negative, zeros]) or `"moments"` ([]; [n, Σq, Σq²]: the exact
/// sums of the values' grid points q on the t-test's scale, [`ttest_grid`]). `median_cells`, for the median interval of `sign` and `wilcoxon`: the
/// tested values' counts on the interval's grid as three arrays of one entry a grid index,
/// `(indices, at_point, after_point)`: the values at the point and those strictly between it
/// and the next ([`MedianCells`]; [`median_grid_cells`] counts them); `placement_sums`, for
/// Mann–Whitney's placement variance (`ci_epsilon` with known sizes): `(x, y)` as `dptest_mann_whitney::PlacementSums`;
/// `rank_moments`, for Kruskal–Wallis's released intervals (`ci_epsilon` with known sizes):
/// `(linear, products, twice_mid_rank_sums)` as `dptest_report::IntervalSummary::RankMoments`.
/// Otherwise as [`release`].
#[pyfunction]
#[pyo3(signature = (test, kind, floats, counts, labels, paired, epsilon, delta, alternative, bounds, popmean, options, ci, draws, seed, alpha, median_cells=None, placement_sums=None, rank_moments=None))]
#[allow(clippy::too_many_arguments)]
fn release_summary(
    py: Python<'_>,
    test: &str,
    kind: &str,
    floats: Vec<f64>,
    counts: Vec<i128>,
    labels: Vec<String>,
    paired: bool,
    epsilon: f64,
    delta: Option<f64>,
    alternative: &str,
    bounds: Option<(f64, f64)>,
    popmean: f64,
    options: Vec<(String, String)>,
    ci: Option<(f64, Option<f64>)>,
    draws: Option<u64>,
    seed: Option<u64>,
    alpha: f64,
    median_cells: Option<MedianCells<'_>>,
    placement_sums: Option<(u128, u128)>,
    rank_moments: Option<RankMoments>,
) -> PyResult<Released> {
    let test = registered(test)?;
    let choices = choices(test, epsilon, delta, alternative, bounds, popmean, options, ci)?;
    let summary = summary(kind, floats, counts)?;
    test.layout().check_groups(test.name(), summary.groups()).map_err(err)?;
    let interval = interval_summary(median_cells, placement_sums, rank_moments)?;
    let data = Data::Summary { summary, paired, interval };
    release_data(py, test, data, &choices, labels, Simulation { draws, seed }, alpha)
}

/// The public grid of the median interval on the declared range `(lo, hi)` for `n` values and
/// the interval's ε `epsilon` (finer for large n or n·ε: `dptest_intervals::MedianGrid::new`),
/// for a front end that counts the values' cells where the rows live: `(kind, a, b, first,
/// last)` with kind `"decimal"` (a = mantissa, b = exponent: the point of index i is
/// `(i·a) as f64 · 10^b`, or `/ 10^−b` for b < 0) or `"even"` (a = origin, b = step:
/// `a + b·i`), and the first and last index inside the range.
#[pyfunction]
fn median_grid(lo: f64, hi: f64, n: u64, epsilon: f64) -> PyResult<(String, f64, f64, i64, i64)> {
    let grid = MedianGrid::new(Bounds::new(lo, hi).map_err(err)?, n, epsilon).map_err(err)?;
    let (first, last) = grid.indices();
    Ok(match grid.spacing() {
        GridSpacing::Decimal { mantissa, exponent } => {
            ("decimal".to_owned(), mantissa as f64, f64::from(exponent), first, last)
        }
        GridSpacing::Even { origin, step } => ("even".to_owned(), origin, step, first, last),
    })
}

/// The cells of `values` (clamped to `(lo, hi)`) on the median interval's grid for their
/// number and the interval's ε `epsilon`, as the in-memory path counts them: `(index,
/// at_point, count)` in order, empty cells left out. For checking a front end's own counting
/// (`dptest.spark`'s tests).
#[pyfunction]
fn median_grid_cells(
    x: PyReadonlyArray1<'_, f64>,
    lo: f64,
    hi: f64,
    epsilon: f64,
) -> PyResult<Vec<(i64, bool, u64)>> {
    let range = Bounds::new(lo, hi).map_err(err)?;
    let x = values(&x)?;
    let grid = MedianGrid::new(range, x.len() as u64, epsilon).map_err(err)?;
    let mut cells = std::collections::BTreeMap::new();
    for &v in x.iter() {
        if !v.is_finite() {
            return Err(err("the values must be finite"));
        }
        *cells.entry(grid.cell(range.clamp(v))).or_insert(0u64) += 1;
    }
    Ok(cells.into_iter().map(|(c, count)| (c.index, c.at_point, count)).collect())
}

/// Kruskal–Wallis's rank moments as Python sends them: Σ p_j and Σ p_j p_l per group, and
/// twice each group's mid-rank sum.
type RankMoments = (Vec<Vec<i128>>, Vec<Vec<i128>>, Vec<i128>);

/// The median grid's counts as a front end sends them, one entry a grid index in each array:
/// the index, the values at its point, and the values strictly between it and the next
/// point. Arrays rather than a list of tuples: a Spark driver holds up to 10⁶ indices, 24 bytes
/// each (at 10⁷ rows its peak fell from 173 MB with tuples to 126 MB; docs/benchmarks.md).
type MedianCells<'py> =
    (PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>);

/// [`MedianCells`] as the cells of the grid, empty ones left out.
fn grid_cells((indices, at_point, after_point): MedianCells<'_>) -> PyResult<Vec<(GridCell, u64)>> {
    let (indices, at, after) = (indices.as_array(), at_point.as_array(), after_point.as_array());
    if at.len() != indices.len() || after.len() != indices.len() {
        return Err(err("median_cells: three arrays of the same length"));
    }
    let count = |c: i64| u64::try_from(c).map_err(|_| err("median_cells: a negative count"));
    let mut cells = Vec::with_capacity(indices.len());
    for ((&index, &at), &after) in indices.iter().zip(at.iter()).zip(after.iter()) {
        for (at_point, n) in [(true, count(at)?), (false, count(after)?)] {
            if n > 0 {
                cells.push((GridCell { index, at_point }, n));
            }
        }
    }
    Ok(cells)
}

/// What an interval reads beyond the summary, as [`release_summary`] takes it (at most one).
fn interval_summary(
    median_cells: Option<MedianCells<'_>>,
    placement_sums: Option<(u128, u128)>,
    rank_moments: Option<RankMoments>,
) -> PyResult<Option<IntervalSummary>> {
    Ok(match (median_cells, placement_sums, rank_moments) {
        (Some(cells), None, None) => Some(IntervalSummary::MedianCells(grid_cells(cells)?)),
        (None, Some((x, y)), None) => Some(IntervalSummary::PlacementSums { x, y }),
        (None, None, Some((linear, products, twice_mid_rank_sums))) => {
            Some(IntervalSummary::RankMoments { linear, products, twice_mid_rank_sums })
        }
        (None, None, None) => None,
        _ => return Err(err("at most one of median_cells, placement_sums and rank_moments")),
    })
}

/// The summary `kind` from its numbers (see [`release_summary`]).
fn summary(kind: &str, floats: Vec<f64>, counts: Vec<i128>) -> PyResult<Summary> {
    let (float_count, count_count) = (floats.len(), counts.len());
    let malformed = || err(format!("a {kind} summary with {float_count} floats and {count_count} counts"));
    if let ("moments", &[], &[n, sum, sum_squares]) = (kind, floats.as_slice(), counts.as_slice()) {
        let n = u64::try_from(n).map_err(|_| malformed())?;
        let sum_squares = u128::try_from(sum_squares).map_err(|_| malformed())?;
        return Ok(Summary::Moments { n, sum, sum_squares });
    }
    if let ("rank-sums", &[]) = (kind, floats.as_slice()) {
        if counts.len() % 2 != 0 {
            return Err(malformed());
        }
        let (twice, sizes) = counts.split_at(counts.len() / 2);
        let twice_sums = twice.iter().map(|&t| u128::try_from(t)).collect::<Result<Vec<_>, _>>();
        let sizes = sizes.iter().map(|&s| u64::try_from(s)).collect::<Result<Vec<_>, _>>();
        return match (twice_sums, sizes) {
            (Ok(twice_sums), Ok(sizes)) => Ok(Summary::RankSums { twice_sums, sizes }),
            _ => Err(malformed()),
        };
    }
    let counts = counts.into_iter().map(u64::try_from).collect::<Result<Vec<u64>, _>>().map_err(|_| malformed())?;
    Ok(match (kind, floats.as_slice(), counts.as_slice()) {
        ("signed-ranks", &[w], &[n]) => Summary::SignedRanks { w, n },
        ("signs", &[], &[positive, negative, zeros]) => Summary::Signs { positive, negative, zeros },
        _ => return Err(malformed()),
    })
}

/// The private t-test's public grid on the declared bounds `(lo, hi)` about `popmean`, for a
/// front end that sums the values' grid points where the rows live: `(bits, first, last)`, so
/// that a value's grid point is round(y·2^bits) clamped to [first, last], y its image on the
/// [−1, 1] scale (`dptest_t_test::Rescaling::apply`, `grid_ends`, `grid_point`).
#[pyfunction]
fn ttest_grid(lo: f64, hi: f64, popmean: f64) -> PyResult<(u32, i64, i64)> {
    let bounds = tt::Bounds::new(lo, hi).map_err(|e| err(format!("bounds: {e}")))?;
    let rescaling = tt::Rescaling::new(bounds, popmean).map_err(err)?;
    let (first, last) = tt::grid_ends(rescaling.range());
    Ok((tt::GRID_BITS, first, last))
}

/// n, Σq and Σq² of `values`' grid points on the private t-test's scale for bounds `(lo, hi)`
/// about `popmean` (`dptest_t_test::GridSums::of` after `Rescaling::apply`): what the
/// in-memory release sums, for comparison with a front end's own sums ([`ttest_grid`]).
#[pyfunction]
fn ttest_grid_sums(values: PyReadonlyArray1<'_, f64>, lo: f64, hi: f64, popmean: f64) -> PyResult<(u64, i128, u128)> {
    let bounds = tt::Bounds::new(lo, hi).map_err(|e| err(format!("bounds: {e}")))?;
    let rescaling = tt::Rescaling::new(bounds, popmean).map_err(err)?;
    let y: Vec<f64> = self::values(&values)?.iter().map(|&x| rescaling.apply(x)).collect();
    let sums = tt::GridSums::of(&y, rescaling.range());
    Ok((sums.n, sums.sum, sums.sum_squares))
}

/// The release of `data` on the CPU engine, with the labels or the kind of the data.
fn release_data(
    py: Python<'_>,
    test: &'static dyn ReleaseTest,
    data: Data,
    choices: &Choices,
    labels: Vec<String>,
    simulation: Simulation,
    alpha: f64,
) -> PyResult<Released> {
    let paired = data.shape().paired;
    let (fields, spent) = py
        .detach(|| release_on_cpu(test, data, choices, simulation, alpha, PYTHON_BINDING))
        .map_err(err)?;
    let mut r = Report { fields };
    match test.layout() {
        Layout::Grouped { .. } => r.set("group_labels", &labels),
        Layout::Values => r.set("kind", if paired { "paired" } else { "one-sample" }),
    }
    Ok((r.json(), (spent.epsilon, spent.delta)))
}

/// How the Python package names itself in the fields and warnings it adds.
const PYTHON_BINDING: Binding = Binding {
    engine_choice: "cpu (the Python package runs the CPU engine)",
    more_draws: |n| format!("draws={n}"),
};

/// Swanberg et al.'s private ANOVA (a baseline; group sizes treated as public).
#[pyfunction]
#[pyo3(signature = (samples, labels, epsilon, bounds, draws, seed, alpha))]
fn anova(
    py: Python<'_>,
    samples: Vec<PyReadonlyArray1<'_, f64>>,
    labels: Vec<String>,
    epsilon: f64,
    bounds: (f64, f64),
    draws: Option<u64>,
    seed: Option<u64>,
    alpha: f64,
) -> PyResult<Released> {
    let groups: Vec<Vec<f64>> = samples.iter().map(values).collect::<PyResult<_>>()?;
    let bounds = av::Bounds::new(bounds.0, bounds.1).map_err(|e| err(format!("bounds: {e}")))?;
    let options = av::SwanbergOptions::new(Epsilon::new(epsilon).map_err(err)?);
    options.noise_scales().map_err(err)?;
    let mc = monte_carlo(draws, av::DEFAULT_NULL_DRAWS, seed)?;
    let sample = av::BoundedGroups::new(&groups, bounds).map_err(err)?;
    let engine = CpuEngine;
    let evaluator = Evaluator::MonteCarlo { engine: &engine, mc };
    let result = py.detach(|| av::private_anova(&sample, &options, evaluator)).map_err(err)?;
    let mut r = Report::from_result("anova", &result)?;
    if result.detail.noisy_se_nonpositive {
        r.warn("the noisy SE is ≤ 0: the statistic is undefined and p = 1 (no power)");
    }
    r.engine(&engine);
    r.set("group_labels", &labels);
    r.decision(alpha);
    Ok((r.finish(), cost(&result)))
}

/// The public one-way ANOVA F test (scipy.stats.f_oneway; Welch's with `equal_var=False`).
#[pyfunction]
#[pyo3(signature = (samples, equal_var, alpha))]
fn f_oneway(samples: Vec<PyReadonlyArray1<'_, f64>>, equal_var: bool, alpha: f64) -> PyResult<String> {
    let groups: Vec<Vec<f64>> = samples.iter().map(values).collect::<PyResult<_>>()?;
    let result =
        if equal_var { av::f_oneway(&groups) } else { av::f_oneway_welch(&groups) }.map_err(err)?;
    let mut r = Report::from_result("anova", &result)?;
    r.set("reference", exact_reference_of("f"));
    r.decision(alpha);
    Ok(r.finish())
}

/// Task & Clifton's private Wilcoxon test (a baseline).
#[pyfunction]
#[pyo3(signature = (d, epsilon, variant, k, alternative, draws, seed, alpha))]
fn task_clifton(
    py: Python<'_>,
    d: PyReadonlyArray1<'_, f64>,
    epsilon: f64,
    variant: &str,
    k: usize,
    alternative: &str,
    draws: Option<u64>,
    seed: Option<u64>,
    alpha: f64,
) -> PyResult<Released> {
    let d = values(&d)?;
    let sample = wx::PairedSample::from_differences(&d).map_err(err)?;
    let variant = match variant {
        "high-utility" => wx::TcVariant::HighUtility,
        "high-privacy" => wx::TcVariant::HighPrivacy { k },
        "high-utility-plus" => wx::TcVariant::HighUtilityPlus,
        "high-privacy-plus" => wx::TcVariant::HighPrivacyPlus { k },
        other => return Err(err(format!(
            "variant must be 'high-utility', 'high-privacy', 'high-utility-plus' or 'high-privacy-plus', not {other:?}"
        ))),
    };
    let evaluator = Evaluator::cpu(monte_carlo(draws, wx::TC_DEFAULT_DRAWS, seed)?);
    let eps = Epsilon::new(epsilon).map_err(err)?;
    let options =
        wx::TcOptions { variant, alternative: self::alternative(alternative)?, alpha, epsilon: eps };
    wx::TcReference::new(variant, sample.len(), eps, evaluator).map_err(err)?;
    let result = py.detach(|| wx::task_clifton(&sample, &options, evaluator)).map_err(err)?;
    let r = Report::from_result("task-clifton", &result)?;
    Ok((r.finish(), cost(&result)))
}

/// A critical value of a private test's reference from the shipped tables (computed when no
/// shipped cell matches: exact where possible, else 10⁶ CPU draws).
#[pyfunction]
#[pyo3(signature = (test, n, epsilon, alpha, groups=3, statistic="abs", reference="exact", m_star=None))]
fn critical_value(
    py: Python<'_>,
    test: &str,
    n: u32,
    epsilon: f64,
    alpha: f64,
    groups: u32,
    statistic: &str,
    reference: &str,
    m_star: Option<u32>,
) -> PyResult<String> {
    let table_test = match test {
        "kruskal-wallis" => tables::TableTest::KruskalWallis { statistic: kw_statistic(statistic)?, groups },
        "wilcoxon" => tables::TableTest::Wilcoxon(reference.parse().map_err(|_| {
            err(format!("reference must be 'exact', 'exact-untied' or 'normal', not {reference:?}"))
        })?),
        "mann-whitney" => tables::TableTest::MannWhitney {
            m_star: m_star.unwrap_or(n / 2),
        },
        "t-test" => tables::TableTest::TTest,
        other => {
            return Err(err(format!(
                "test must be 'kruskal-wallis', 'mann-whitney', 'wilcoxon' or 't-test', not {other:?}"
            )));
        }
    };
    let lookup =
        py.detach(|| tables::critical_value(table_test, n, epsilon, alpha)).map_err(err)?;
    let mut r = Report::plain("critical-value");
    r.set("for", test);
    r.set("critical_value", lookup.value());
    r.set("shipped", lookup.shipped);
    r.set("source", if lookup.shipped { "shipped" } else { "computed" });
    r.set("row", &lookup.row);
    r.set("n", n);
    r.set("epsilon", epsilon);
    r.set("alpha", alpha);
    Ok(r.finish())
}

/// The shipped critical-value tables (CSV text of one family).
#[pyfunction]
fn shipped_table(family: &str) -> PyResult<String> {
    let family = tables::Family::ALL
        .into_iter()
        .find(|f| f.name() == family)
        .ok_or_else(|| {
            let names: Vec<&str> = tables::Family::ALL.iter().map(|f| f.name()).collect();
            err(format!("family must be one of {}, not {family:?}", names.join(", ")))
        })?;
    Ok(tables::shipped_text(family).to_owned())
}

pyo3::create_exception!(
    _dptest,
    PrivacyBudgetError,
    pyo3::exceptions::PyRuntimeError,
    "A private query was refused because it would overspend the ledger's budget."
);

fn ledger_err(e: dptest_ledger::LedgerError) -> PyErr {
    if e.is_refusal() {
        PrivacyBudgetError::new_err(e.to_string())
    } else {
        err(e)
    }
}

/// A private release's JSON and the `(ε, δ)` it spent in all, which `dptest._api` keeps as the
/// result's `_spent` for the ledger.
type Released = (String, (f64, f64));

/// What a release spent, as [`Released`] carries it.
fn cost(release: &impl Spent) -> (f64, f64) {
    let PrivacyCost { epsilon, delta } = release.spent();
    (epsilon, delta)
}

/// A Python release with the cost it reported (its `_spent`).
struct Costed {
    result: Py<PyAny>,
    cost: PrivacyCost,
}

impl Spent for Costed {
    fn spent(&self) -> PrivacyCost {
        self.cost
    }
}

/// Runs `run()` (the release) under the ledger (dptest-ledger: the CLI's file, lock and
/// limits): refused with `PrivacyBudgetError` (nothing run) if it would overspend; else the
/// release is made and the `(ε, δ)` of its result's `_spent` recorded (a result without one
/// fails, recording nothing and returning nothing). Returns `(run's result, the status as
/// JSON)`.
#[pyfunction]
#[pyo3(signature = (path, dataset, budget, delta_budget, test, epsilon, delta, run))]
fn ledger_charged(
    py: Python<'_>,
    path: std::path::PathBuf,
    dataset: &str,
    budget: Option<f64>,
    delta_budget: Option<f64>,
    test: &str,
    epsilon: f64,
    delta: f64,
    run: Py<PyAny>,
) -> PyResult<(Py<PyAny>, String)> {
    let account =
        dptest_ledger::Account { file: &path, dataset, budget, delta_budget };
    let charge = dptest_ledger::Charge { test, epsilon, delta };
    let release = || -> PyResult<Costed> {
        let result = run.call0(py)?;
        let (epsilon, delta) = result.getattr(py, "_spent")?.extract::<(f64, f64)>(py)?;
        Ok(Costed { result, cost: PrivacyCost { epsilon, delta } })
    };
    match dptest_ledger::charged(&account, &charge, release) {
        Ok((done, status)) => Ok((done.result, serde_json::to_string(&status).map_err(err)?)),
        Err(dptest_ledger::Failure::Ledger(e)) => Err(ledger_err(e)),
        Err(dptest_ledger::Failure::Release(e)) => Err(e),
    }
}

/// The budget state of a named dataset (JSON), or None when it is not in the ledger.
#[pyfunction]
fn ledger_status(path: std::path::PathBuf, dataset: &str) -> PyResult<Option<String>> {
    let status = dptest_ledger::status(&path, dataset).map_err(ledger_err)?;
    status.map(|s| serde_json::to_string(&s).map_err(err)).transpose()
}

/// Sample size by simulation (dptest-plan, the CLI's `plan`); JSON with the CLI's keys.
#[pyfunction]
#[pyo3(signature = (test, effect, epsilon, power, alpha, groups, reps, max_n, zero_fraction, draws, seed, bounds, sd, smaller_share, known_sizes, ci=None, ci_epsilon=None))]
#[allow(clippy::too_many_arguments)]
fn plan(
    py: Python<'_>,
    test: &str,
    effect: f64,
    epsilon: f64,
    power: f64,
    alpha: f64,
    groups: usize,
    reps: usize,
    max_n: usize,
    zero_fraction: f64,
    draws: Option<u64>,
    seed: Option<u64>,
    bounds: Option<(f64, f64)>,
    sd: Option<f64>,
    smaller_share: Option<f64>,
    known_sizes: bool,
    ci: Option<f64>,
    ci_epsilon: Option<f64>,
) -> PyResult<String> {
    let settings = dptest_plan::PlanSettings {
        test: test.to_owned(),
        effect,
        epsilon,
        power,
        alpha,
        groups,
        reps,
        max_n,
        zero_fraction,
        sd_fraction: None,
        smaller_share,
        known_sizes,
        draws,
        seed,
        ci,
        ci_epsilon,
        ci_range: None,
    };
    let median = ["sign", "wilcoxon"].contains(&test);
    let settings = match (bounds, sd) {
        (Some((lo, hi)), Some(sd)) => settings.with_data_sd(lo, hi, sd).map_err(err)?,
        (Some(range), None) if median && ci.is_some() => dptest_plan::PlanSettings { ci_range: Some(range), ..settings },
        (None, None) => settings,
        _ => return Err(err("bounds and sd go together for the t-test (its declared bounds and anticipated sd); for sign and wilcoxon, bounds is the median interval's range, with ci")),
    };
    let which = settings.private_test().map_err(err)?;
    let found = py.detach(|| dptest_plan::plan(&settings, &mut |_| {})).map_err(err)?;
    let mut r = Report::plain("plan");
    r.set("for", test);
    r.set("n", found.n);
    r.set("power", found.at.map(|p| p.power));
    r.set("target_power", power);
    r.set("alpha", alpha);
    r.set("epsilon", epsilon);
    r.set("effect", effect);
    r.set("reps", reps);
    r.set("reference_draws", found.draws);
    r.set("seed", found.seed);
    if which.uses_groups() {
        r.set("groups", groups);
    }
    r.set("evaluated", &found.evaluated);
    r.set("public_n", dptest_plan::public_n(test, effect, alpha, power, zero_fraction, groups, smaller_share));
    if let (Some(level), Some(w)) = (ci, &found.interval) {
        r.set("ci", level);
        r.set("ci_epsilon", ci_epsilon);
        r.set("interval", w);
    }
    r.set("privacy", "nothing released: planning uses simulated data only");
    Ok(r.json())
}

fn fed_alternative(name: &str) -> PyResult<fed::Alternative> {
    alternative(name)
}

fn small_groups(name: &str) -> PyResult<fed::SmallGroupPolicy> {
    match name {
        "error" => Ok(fed::SmallGroupPolicy::Error),
        "suppress" => Ok(fed::SmallGroupPolicy::Suppress),
        other => Err(err(format!("small_groups must be 'error' or 'suppress', not {other:?}"))),
    }
}

fn centre_or_random(centre: Option<String>) -> PyResult<String> {
    match centre {
        Some(id) => Ok(id),
        None => fed::random_centre_id().map_err(err),
    }
}

/// The release of a centre as JSON: `table` (the table's own JSON text), `released`,
/// `centre`, and `suppressed` (for the data holder only, never part of the release).
fn centre_release(release: &fed::CentreRelease, centre: &str) -> PyResult<String> {
    Ok(json!({
        "table": release.table.to_json(),
        "released": serde_json::to_value(&release.released).map_err(err)?,
        "centre": centre,
        "suppressed": release.suppressed.iter()
            .map(|s| json!({"group": s.group, "count": s.count})).collect::<Vec<_>>(),
    })
    .to_string())
}

/// Checks a centre's journal path and dataset name before any data is read (the CLI's
/// `--journal`, `--dataset`).
#[pyfunction]
fn federated_journal_check(journal: std::path::PathBuf, dataset: &str) -> PyResult<()> {
    fed::Journal::check(&journal, dataset).map_err(err)
}

/// Algorithm S1 at one centre (the CLI's `federated bin`), limits from the centre's journal.
#[pyfunction]
#[pyo3(signature = (groups, labels, k, centre, extremes, natural, small_groups_policy, journal, dataset))]
#[allow(clippy::too_many_arguments)]
fn federated_bin(
    groups: Vec<Vec<f64>>,
    labels: Vec<String>,
    k: usize,
    centre: Option<String>,
    extremes: &str,
    natural: Option<(f64, f64)>,
    small_groups_policy: &str,
    journal: std::path::PathBuf,
    dataset: &str,
) -> PyResult<String> {
    let extremes = match (extremes, natural) {
        ("infinite", None) => fed::ExtremeLimits::INFINITE,
        ("buffer", None) => fed::ExtremeLimits::BUFFERS,
        ("natural", Some((lo, hi))) => fed::ExtremeLimits::natural(lo, hi).map_err(err)?,
        ("natural", None) => return Err(err("extremes='natural' needs natural=(lo, hi)")),
        ("infinite" | "buffer", Some(_)) => {
            return Err(err("natural=(lo, hi) goes with extremes='natural'"));
        }
        (other, _) => {
            return Err(err(format!(
                "extremes must be 'infinite', 'buffer' or 'natural', not {other:?}"
            )));
        }
    };
    let options = fed::BinningOptions::new(k)
        .map_err(err)?
        .with_extremes(extremes)
        .with_small_groups(small_groups(small_groups_policy)?);
    let views: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
    let label_refs: Vec<&str> = labels.iter().map(String::as_str).collect();
    let centre = centre_or_random(centre)?;
    let mut journal = fed::Journal::open(&journal, dataset).map_err(err)?;
    let release = fed::bin_centre_journaled(&views, &label_refs, &centre, &options, &mut journal)
        .map_err(err)?;
    centre_release(&release, &centre)
}

/// Adds a centre to a table (the CLI's `federated add`; draws nothing), admitted by the
/// centre's journal.
#[pyfunction]
#[pyo3(signature = (table, groups, centre, small_groups_policy, journal, dataset))]
fn federated_add(
    table: &str,
    groups: Vec<Vec<f64>>,
    centre: Option<String>,
    small_groups_policy: &str,
    journal: std::path::PathBuf,
    dataset: &str,
) -> PyResult<String> {
    let table = fed::SummaryTable::from_json(table).map_err(err)?;
    let views: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
    let centre = centre_or_random(centre)?;
    let policy = small_groups(small_groups_policy)?;
    let mut journal = fed::Journal::open(&journal, dataset).map_err(err)?;
    let release =
        fed::add_centre_journaled(&table, &views, &centre, policy, &mut journal).map_err(err)?;
    centre_release(&release, &centre)
}

/// A table validated and re-serialised by the federated crate, with its public facts.
#[pyfunction]
fn federated_table_info(table: &str) -> PyResult<String> {
    let t = fed::SummaryTable::from_json(table).map_err(err)?;
    Ok(json!({
        "json": t.to_json(), "k": t.k(), "bins": t.bins(), "groups": t.groups(),
        "centres": t.centres(), "totals": t.totals(),
    })
    .to_string())
}

fn federated_report(test: &fed::FederatedTest, groups: &[String], alt: &str, n: usize) -> PyResult<Report> {
    let mut r = Report::from_result("federated", test)?;
    r.set("alternative", alt);
    r.set("n", n);
    r.set("group_labels", groups);
    let distribution = if test.df.is_some() { "chi2" } else { "normal" };
    r.set("reference", asymptotic_reference(distribution));
    Ok(r)
}

/// The federated Mann–Whitney test on a table (the CLI's `federated test`).
#[pyfunction]
#[pyo3(signature = (table, alternative, alpha))]
fn federated_test(table: &str, alternative: &str, alpha: f64) -> PyResult<String> {
    let t = fed::SummaryTable::from_json(table).map_err(err)?;
    if t.groups().len() != 2 {
        return Err(err(format!("the table has {} groups; the test needs two", t.groups().len())));
    }
    let test = fed::table_test(&t, fed_alternative(alternative)?).map_err(err)?;
    let n = t.totals().iter().sum::<f64>() as usize;
    let mut r = federated_report(&test, t.groups(), alternative, n)?;
    r.set("centres", t.centres());
    r.set("k", t.k());
    r.set("privacy", format!(
        "computed from the K-anonymous table only (K = {}); no differential privacy", t.k()));
    r.decision(alpha);
    Ok(r.finish())
}

/// Quantiles of one group from a table (the CLI's `federated quantile --table`).
#[pyfunction]
#[pyo3(signature = (table, p, method, group))]
fn federated_quantile(table: &str, p: Vec<f64>, method: &str, group: Option<String>) -> PyResult<String> {
    let t = fed::SummaryTable::from_json(table).map_err(err)?;
    let g = fed::group_index(&t, group.as_deref()).map_err(err)?;
    let method: fed::TableMethod = method.parse().map_err(err)?;
    let found = fed::table_quantiles(&t, g, method, &p).map_err(err)?;
    Ok(quantile_report(&method, &t.groups()[g], &found))
}

/// Quantiles of the pooled data of several centres (the CLI's `federated quantile --centres`:
/// the protocol run locally; it discloses per-centre counts or sums, NOT K-anonymous).
#[pyfunction]
#[pyo3(signature = (centres, p, method))]
fn federated_quantile_data(
    py: Python<'_>,
    centres: Vec<PyReadonlyArray1<'_, f64>>,
    p: Vec<f64>,
    method: &str,
) -> PyResult<String> {
    let data: Vec<Vec<f64>> = centres.iter().map(values).collect::<PyResult<_>>()?;
    let views: Vec<&[f64]> = data.iter().map(Vec::as_slice).collect();
    let method: fed::DataMethod = method.parse().map_err(err)?;
    let found = py.detach(|| fed::data_quantiles(&views, method, &p)).map_err(err)?;
    Ok(quantile_report(&method, "all rows", &found))
}

fn quantile_report(method: &impl Serialize, group: &str, found: &fed::Quantiles) -> String {
    let mut r = Report::plain("federated-quantile");
    r.set("group", group);
    r.set("method", method);
    r.set("quantiles", &found.estimates);
    if let Some(fit) = &found.fit {
        r.set("fit", fit);
    }
    r.json()
}

/// One centre's exact summary file (the CLI's `federated summary`): NOT K-anonymous.
#[pyfunction]
#[pyo3(signature = (x, y, groups, centre))]
fn federated_summary(x: Vec<f64>, y: Vec<f64>, groups: (String, String), centre: Option<String>) -> PyResult<String> {
    let summary = fed::centre_summary(&x, &y).map_err(err)?;
    let centre = centre_or_random(centre)?;
    let file = fed::CentreSummaryFile { centre, groups: [groups.0, groups.1], summary };
    let text = file.to_json();
    fed::CentreSummaryFile::from_json(&text).map_err(err)?;
    Ok(text)
}

/// Combines centre summary files (the CLI's `federated combine`): NOT K-anonymous.
#[pyfunction]
#[pyo3(signature = (summaries, method, alternative, alpha))]
fn federated_combine(summaries: Vec<String>, method: &str, alternative: &str, alpha: f64) -> PyResult<String> {
    let files = summaries
        .iter()
        .map(|s| fed::CentreSummaryFile::from_json(s).map_err(err))
        .collect::<PyResult<Vec<_>>>()?;
    if files.is_empty() {
        return Err(err("combine needs at least one centre summary"));
    }
    fed::check_distinct_centres(&files).map_err(err)?;
    let groups = files[0].groups.clone();
    if files.iter().any(|f| f.groups != groups) {
        return Err(err("all centres must use the same group labels in the same order"));
    }
    let s: Vec<fed::CentreSummary> = files.iter().map(|f| f.summary).collect();
    let alt = fed_alternative(alternative)?;
    let test = match method {
        "sum" => fed::sum_test(&s, alt),
        "weighted" => fed::weighted_test(&s, alt),
        "fisher" => fed::fisher_test(&s, alt),
        other => return Err(err(format!("method must be 'sum', 'weighted' or 'fisher', not {other:?}"))),
    }
    .map_err(err)?;
    let n: usize = s.iter().map(|x| x.n + x.m).sum();
    let mut r = federated_report(&test, &groups, alternative, n)?;
    r.set("centres", files.iter().map(|f| f.centre.as_str()).collect::<Vec<_>>());
    r.set("k_anonymous", false);
    r.set("privacy", "computed from exact per-centre summaries (n, m, U, V): not K-anonymous, not differentially private");
    r.decision(alpha);
    Ok(r.finish())
}

/// The native module.
#[pymodule]
fn _dptest(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(kruskal, m)?)?;
    m.add_function(wrap_pyfunction!(kruskal_reference_pvalue, m)?)?;
    m.add_function(wrap_pyfunction!(mannwhitneyu, m)?)?;
    m.add_function(wrap_pyfunction!(wilcoxon, m)?)?;
    m.add_function(wrap_pyfunction!(wilcoxon_reference_pvalue, m)?)?;
    m.add_function(wrap_pyfunction!(ttest, m)?)?;
    m.add_function(wrap_pyfunction!(ttest_confidence_interval, m)?)?;
    m.add_function(wrap_pyfunction!(public_interval, m)?)?;
    m.add_function(wrap_pyfunction!(binomtest, m)?)?;
    m.add_function(wrap_pyfunction!(binomtest_proportion_ci, m)?)?;
    m.add_function(wrap_pyfunction!(release, m)?)?;
    m.add("WILCOXON_PERMUTATION_MAX_N", wx::PERMUTATION_MAX_N)?;
    m.add("LEDGER_FORMAT", dptest_ledger::LEDGER_FORMAT)?;
    m.add("DEFAULT_DELTA_BUDGET", dptest_ledger::DEFAULT_DELTA_BUDGET)?;
    m.add_function(wrap_pyfunction!(release_summary, m)?)?;
    m.add_function(wrap_pyfunction!(median_grid, m)?)?;
    m.add_function(wrap_pyfunction!(median_grid_cells, m)?)?;
    m.add_function(wrap_pyfunction!(kruskal_of_rank_sums, m)?)?;
    m.add_function(wrap_pyfunction!(mannwhitneyu_of_rank_sum, m)?)?;
    m.add_function(wrap_pyfunction!(ttest_of_moments, m)?)?;
    m.add_function(wrap_pyfunction!(ttest_grid, m)?)?;
    m.add_function(wrap_pyfunction!(ttest_grid_sums, m)?)?;
    m.add_function(wrap_pyfunction!(wilcoxon_of_summary, m)?)?;
    m.add_function(wrap_pyfunction!(tests, m)?)?;
    m.add_function(wrap_pyfunction!(release_cost, m)?)?;
    m.add_function(wrap_pyfunction!(anova, m)?)?;
    m.add_function(wrap_pyfunction!(f_oneway, m)?)?;
    m.add_function(wrap_pyfunction!(task_clifton, m)?)?;
    m.add_function(wrap_pyfunction!(critical_value, m)?)?;
    m.add_function(wrap_pyfunction!(shipped_table, m)?)?;
    m.add_function(wrap_pyfunction!(ledger_charged, m)?)?;
    m.add_function(wrap_pyfunction!(ledger_status, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(federated_journal_check, m)?)?;
    m.add_function(wrap_pyfunction!(federated_bin, m)?)?;
    m.add_function(wrap_pyfunction!(federated_add, m)?)?;
    m.add_function(wrap_pyfunction!(federated_table_info, m)?)?;
    m.add_function(wrap_pyfunction!(federated_test, m)?)?;
    m.add_function(wrap_pyfunction!(federated_quantile, m)?)?;
    m.add_function(wrap_pyfunction!(federated_quantile_data, m)?)?;
    m.add_function(wrap_pyfunction!(federated_summary, m)?)?;
    m.add_function(wrap_pyfunction!(federated_combine, m)?)?;
    m.add("PrivacyBudgetError", m.py().get_type::<PrivacyBudgetError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
