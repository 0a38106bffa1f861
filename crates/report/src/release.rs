//! The release hook: what a private test gives every front end, so that the CLI and Python
//! run any test of `dptest-registry` through one code path instead of one handler per test.
//!
//! A front end reads the data into [`Data`] in the test's [`Layout`] (grouped values, or one
//! sample of values) and the public choices into [`Choices`], then:
//!
//! 1. [`Choices::check`] against [`ReleaseTest::options`], [`Layout::check_groups`] and
//!    [`ReleaseTest::check_interval`] (before any data are read);
//! 2. [`ReleaseTest::prepare`]: public checks only (n, declared groups, ε, options), the ε and
//!    δ the release will be charged, and how its reference is evaluated ([`Evaluation`]);
//! 3. [`ReleaseTest::check`] with the evaluator the front end built (refusals cost nothing),
//!    and, in the CLI, [`ReleaseTest::pilot`] to time the reference;
//! 4. [`ReleaseTest::release`]: the private test itself, returning a [`Release`], which is
//!    built from the test's [`Outcome`] only, plus human lines and warnings made from it.

use dptest_core::{Alternative, Bounds, Outcome, PrivacyCost, PrivateTest, Spent};
pub use dptest_core::{Estimate, Refusal};
use dptest_refdist::Evaluator;
use serde::Serialize;

use crate::{Fields, Summary, all_noise_warning};

/// The data layout a test reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Values with a group label; the groups are declared (public), at least `min_groups`
    /// and at most `max_groups`.
    Grouped {
        /// Fewest declared groups.
        min_groups: usize,
        /// Most declared groups.
        max_groups: usize,
    },
    /// One sample of tested values: a column, or the differences after − before of pairs.
    Values,
}

impl Layout {
    /// Refuses a number of declared groups the layout does not take (public: declared).
    ///
    /// # Errors
    /// The refusal, naming `test`.
    pub fn check_groups(self, test: &str, groups: usize) -> Result<(), Refusal> {
        let Layout::Grouped { min_groups, max_groups } = self else { return Ok(()) };
        if (min_groups..=max_groups).contains(&groups) {
            return Ok(());
        }
        let count = match (min_groups, max_groups) {
            (a, b) if a == b => a.to_string(),
            (a, usize::MAX) => format!("at least {a}"),
            (a, b) => format!("{a} to {b}"),
        };
        Err(Refusal(format!("{test} needs {count} declared groups, not {groups}")))
    }
}

/// The data of a private release, read by a front end (private: only the test sees it).
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// Values and the index of each value's declared group (`groups[i] < declared`).
    Grouped {
        /// The pooled values.
        values: Vec<f64>,
        /// The group index of each value (4 bytes a row: a reader of 10⁸ rows holds them).
        groups: Vec<u32>,
        /// The number of declared groups (a declared group may be empty).
        declared: usize,
    },
    /// The tested values (a column, or differences of pairs).
    Values {
        /// The values.
        values: Vec<f64>,
        /// Whether they are differences of pairs (public: it is how the data was declared).
        paired: bool,
    },
    /// The test's sufficient statistic, computed where the rows live ([`Summary`]).
    Summary {
        /// The statistic.
        summary: Summary,
        /// Whether the rows were pairs (public: it is how the data was declared).
        paired: bool,
        /// What an interval reads beyond the test's statistic, counted where the rows live
        /// ([`IntervalSummary`]); `None` when not sent.
        interval: Option<IntervalSummary>,
    },
}

/// What an interval reads from the rows beyond the test's own statistic, as a front end that
/// counts where the rows live (`dptest.spark`) computes it for [`Data::Summary`].
#[derive(Clone, Debug, PartialEq)]
pub enum IntervalSummary {
    /// The median interval of `sign` and `wilcoxon`: the tested values' counts on the
    /// interval's grid of the declared range (each value clamped and placed as
    /// [`dptest_intervals::MedianGrid::cell`] places it), cells in any order and possibly
    /// repeated ([`crate::MedianSource::Cells`]).
    MedianCells(Vec<(dptest_intervals::GridCell, u64)>),
    /// Mann–Whitney's placement variance (`--ci-epsilon` with known sizes): Σ (2·#{y < x} +
    /// #{y = x})² over the first group and Σ (2·#{x > y} + #{x = y})² over the second
    /// (`dptest_mann_whitney::PlacementSums`).
    PlacementSums {
        /// The first group's sum.
        x: u128,
        /// The second group's sum.
        y: u128,
    },
    /// Kruskal–Wallis's released intervals (`--ci-epsilon` with known sizes): the placement
    /// numerators' moments over each group (`dptest_kruskal_wallis::PlacementMoments`) and
    /// twice each group's mid-rank sum.
    RankMoments {
        /// Σ p_j over each group m's values, `[m][j]`.
        linear: Vec<Vec<i128>>,
        /// Σ p_j·p_l over each group m's values, `[m][(j, l) in layout order]`.
        products: Vec<Vec<i128>>,
        /// Twice each group's sum of mid-ranks.
        twice_mid_rank_sums: Vec<i128>,
    },
}

impl IntervalSummary {
    /// Its name in messages.
    pub fn kind(&self) -> &'static str {
        match self {
            IntervalSummary::MedianCells(_) => "median grid counts",
            IntervalSummary::PlacementSums { .. } => "placement sums",
            IntervalSummary::RankMoments { .. } => "rank moments",
        }
    }
}

impl Data {
    /// The public size of the data.
    pub fn shape(&self) -> Shape {
        match self {
            Data::Grouped { values, declared, .. } => {
                Shape { n: values.len(), groups: *declared, paired: false }
            }
            Data::Values { values, paired } => {
                Shape { n: values.len(), groups: 1, paired: *paired }
            }
            Data::Summary { summary, paired, .. } => Shape {
                n: usize::try_from(summary.n()).unwrap_or(usize::MAX),
                groups: summary.groups(),
                paired: *paired,
            },
        }
    }

    /// The summary, checked ([`Summary::check`]), for a test that reads a summary; `None` for
    /// rows.
    ///
    /// # Errors
    /// The summary is not one a dataset of its size could produce.
    pub fn checked_summary(&self) -> Result<Option<&Summary>, Refusal> {
        let Data::Summary { summary, .. } = self else { return Ok(None) };
        summary.check()?;
        Ok(Some(summary))
    }

    /// The values of each declared group, in order (empty for [`Data::Values`] and
    /// [`Data::Summary`]).
    ///
    /// # Errors
    /// A group index that is not a declared group, or as many indices as values.
    pub fn split(&self) -> Result<Vec<Vec<f64>>, Refusal> {
        let Data::Grouped { values, groups, declared } = self else { return Ok(Vec::new()) };
        if values.len() != groups.len() {
            return Err(Refusal(format!(
                "{} values but {} group indices",
                values.len(),
                groups.len()
            )));
        }
        let mut split = vec![Vec::new(); *declared];
        for (&value, &group) in values.iter().zip(groups) {
            let Some(g) = split.get_mut(group as usize) else {
                return Err(Refusal(format!(
                    "group index {group} is not one of the {declared} declared groups"
                )));
            };
            g.push(value);
        }
        Ok(split)
    }
}

/// What a release's reference may know of the data: n, the number of declared groups, and
/// whether the values are paired differences. All public.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Observations (pairs for paired data).
    pub n: usize,
    /// Declared groups (1 for one sample).
    pub groups: usize,
    /// Whether the values are differences of pairs.
    pub paired: bool,
}

/// How a front end spells an option in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontEnd {
    /// The `dptest` command line: `--name value`.
    Cli,
    /// The Python package: `name=value`.
    Python,
    /// The R package: `name = "value"`.
    R,
}

impl FrontEnd {
    /// An option with a value: `--reference paper`, `reference='paper'` or
    /// `reference = "paper"`.
    pub fn option(self, name: &str, value: &str) -> String {
        match self {
            FrontEnd::Cli => format!("--{name} {value}"),
            FrontEnd::Python => format!("{}='{value}'", name.replace('-', "_")),
            FrontEnd::R => format!("{} = \"{value}\"", name.replace('-', "_")),
        }
    }

    /// A switch: `--known-sizes`, `known_sizes=True` or `known_sizes = TRUE`.
    pub fn switch(self, name: &str) -> String {
        match self {
            FrontEnd::Cli => format!("--{name}"),
            FrontEnd::Python => format!("{}=True", name.replace('-', "_")),
            FrontEnd::R => format!("{} = TRUE", name.replace('-', "_")),
        }
    }

    /// An option's bare name: `--bounds` or `bounds`.
    pub fn name(self, name: &str) -> String {
        match self {
            FrontEnd::Cli => format!("--{name}"),
            FrontEnd::Python | FrontEnd::R => name.replace('-', "_"),
        }
    }

    /// How the declared bounds are given: `--bounds LO,HI`, `bounds=(lo, hi)` or
    /// `bounds = c(lo, hi)`.
    pub fn bounds_syntax(self) -> &'static str {
        match self {
            FrontEnd::Cli => "--bounds LO,HI",
            FrontEnd::Python => "bounds=(lo, hi)",
            FrontEnd::R => "bounds = c(lo, hi)",
        }
    }
}

/// The public choices of a release, as a front end collected them. Test-specific choices are
/// named (`statistic`, `reference`, `known-sizes`, …: [`ReleaseTest::options`] lists a test's).
#[derive(Clone, Debug, PartialEq)]
pub struct Choices {
    /// The ε asked for.
    pub epsilon: f64,
    /// The δ asked for (tests with an (ε, δ) variant; `None`: the test's default).
    pub delta: Option<f64>,
    /// The alternative hypothesis.
    pub alternative: Alternative,
    /// Declared bounds of the values (tests that clamp).
    pub bounds: Option<Bounds>,
    /// The hypothesised mean of a one-sample test.
    pub popmean: f64,
    /// Named choices `(name, value)`; a switch that is on has the value `"true"`.
    pub named: Vec<(String, String)>,
    /// The effect estimate and confidence interval asked for (`--ci LEVEL`), if any.
    pub ci: Option<CiRequest>,
    /// Who asked (for the spelling of options in messages).
    pub front_end: FrontEnd,
}

/// An estimate with a (two-sided) confidence interval at `level`, and the ε of its own the
/// interval may spend (`--ci LEVEL [--ci-epsilon E]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CiRequest {
    /// The confidence level 1 − α.
    pub level: f64,
    /// The interval's own ε, for intervals that need a release of their own.
    pub epsilon: Option<f64>,
}

impl CiRequest {
    /// Checks the level (public), refusing a level outside (0, 1).
    ///
    /// # Errors
    /// The refusal, in the front end's words.
    pub fn checked(self, front: FrontEnd) -> Result<CiRequest, Refusal> {
        dptest_core::check_level(self.level)
            .map_err(|e| Refusal(format!("{}: {e}", front.name("ci"))))?;
        Ok(self)
    }

    /// The interval's own ε, required (an interval that releases something of its own).
    ///
    /// # Errors
    /// No ε was given, or it is not positive and finite.
    pub fn own_epsilon(&self, front: FrontEnd, why: &str) -> Result<f64, Refusal> {
        match self.epsilon {
            Some(e) if e > 0.0 && e.is_finite() => Ok(e),
            Some(e) => {
                Err(Refusal(format!("{} must be positive, not {e}", front.name("ci-epsilon"))))
            }
            None => Err(Refusal(format!(
                "{why}: pass {} (its ε is charged with the test's)",
                front.option("ci-epsilon", "E")
            ))),
        }
    }

    /// Refuses an ε for an interval that is post-processing of the test's own release.
    ///
    /// # Errors
    /// An ε was given.
    pub fn no_epsilon(&self, front: FrontEnd, test: &str) -> Result<(), Refusal> {
        match self.epsilon {
            Some(_) => Err(Refusal(format!(
                "the {test} interval is post-processing of the test's own release and spends no \
                 ε of its own: drop {}",
                front.name("ci-epsilon")
            ))),
            None => Ok(()),
        }
    }
}

impl Choices {
    /// Choices with ε only, from `front_end`.
    pub fn new(epsilon: f64, front_end: FrontEnd) -> Choices {
        Choices {
            epsilon,
            delta: None,
            alternative: Alternative::default(),
            bounds: None,
            popmean: 0.0,
            named: Vec::new(),
            ci: None,
            front_end,
        }
    }

    /// Adds a named choice.
    pub fn with(mut self, name: &str, value: impl Into<String>) -> Choices {
        self.named.push((name.to_owned(), value.into()));
        self
    }

    /// The value of a named choice, if given.
    pub fn named(&self, name: &str) -> Option<&str> {
        self.named.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Whether a switch is on.
    pub fn switch(&self, name: &str) -> bool {
        self.named(name) == Some("true")
    }

    /// Refuses a named choice the test does not have, or a value its option does not take.
    ///
    /// # Errors
    /// The first such choice, in words.
    pub fn check(&self, test: &str, options: &[TestOption]) -> Result<(), Refusal> {
        let front = self.front_end;
        for (name, value) in &self.named {
            let Some(option) = options.iter().find(|o| o.name == name) else {
                let known: Vec<String> = options.iter().map(|o| front.name(o.name)).collect();
                return Err(Refusal(format!(
                    "{test} has no option {} (its options: {})",
                    front.name(name),
                    if known.is_empty() { "none".to_owned() } else { known.join(", ") }
                )));
            };
            if !option.takes(value) {
                return Err(option.refuse(value, front));
            }
        }
        Ok(())
    }
}

/// A named choice a test takes: its name (as the CLI's option, `known-sizes`) and its values,
/// the default first; a switch has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestOption {
    /// The name.
    pub name: &'static str,
    /// The values, the default first (empty for a switch, which is off by default).
    pub values: &'static [&'static str],
}

impl TestOption {
    /// The value given in `choices`, else the default (`""` for a switch).
    pub fn value<'a>(&self, choices: &'a Choices) -> &'a str {
        choices.named(self.name).unwrap_or(self.values.first().copied().unwrap_or(""))
    }

    /// Whether `value` is one of the option's values (`"true"` for a switch).
    pub fn takes(&self, value: &str) -> bool {
        if self.values.is_empty() { value == "true" } else { self.values.contains(&value) }
    }

    /// The refusal of a value the option does not take.
    pub fn refuse(&self, value: &str, front: FrontEnd) -> Refusal {
        let values = if self.values.is_empty() { &["true"][..] } else { self.values };
        let listed: Vec<String> = values.iter().map(|v| format!("'{v}'")).collect();
        Refusal(format!(
            "{} must be one of {}, not '{value}'",
            front.name(self.name),
            listed.join(", ")
        ))
    }
}

/// How a release's reference is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// Exactly (closed forms, exact pmfs); no engine.
    Exact,
    /// By Monte Carlo with these default draws, under the seed a front end is given or else a
    /// fresh one from the OS CSPRNG ([`crate::reference_monte_carlo`]). `required`: the
    /// reference has no exact form (an exact-only request is refused); otherwise the
    /// reference is closed-form and a front end simulates it only when a Monte Carlo engine
    /// is asked for by name.
    MonteCarlo {
        /// Default draws.
        draws: u64,
        /// Whether the reference has no exact evaluation.
        required: bool,
    },
}

/// What [`ReleaseTest::prepare`] settles from public values before any charge.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    /// The ε the release spends (and the ledger is charged).
    pub epsilon: f64,
    /// The δ the release spends.
    pub delta: f64,
    /// How the reference is evaluated.
    pub evaluation: Evaluation,
    /// What the front end shows while the release runs.
    pub progress: &'static str,
}

impl Prepared {
    /// A pure ε-DP release whose reference must be simulated, with these default draws.
    pub fn simulated(epsilon: f64, draws: u64) -> Prepared {
        Prepared {
            epsilon,
            delta: 0.0,
            evaluation: Evaluation::MonteCarlo { draws, required: true },
            progress: "simulating the reference distribution",
        }
    }
}

/// The field with the whole ε a release spent: the test's `epsilon` plus the ε of an interval
/// with a release of its own (`estimate.epsilon`); what the ledger is charged.
pub const EPSILON_TOTAL: &str = "epsilon_total";

/// A finished private release as every front end shows it: the JSON fields (from the test's
/// [`Outcome`] only), a title, and the human lines and warnings the test adds — all made from
/// the outcome and the declared choices. Only [`Release::new`] makes one. It is [`Spent`]:
/// the outcome's ε and δ plus the ε of an estimate with its own (the cost the ledger records),
/// and its fields state that whole cost as [`EPSILON_TOTAL`] beside the test's own `epsilon`.
#[derive(Clone, Debug, PartialEq)]
pub struct Release {
    fields: Fields,
    title: String,
    lines: Vec<(String, String)>,
    spent: PrivacyCost,
}

impl Release {
    /// A release from the test's outcome under the front ends' name `test`.
    ///
    /// # Errors
    /// The outcome cannot be serialised.
    pub fn new<D: Serialize>(
        test: &str,
        title: String,
        outcome: &Outcome<D>,
    ) -> Result<Release, Refusal> {
        let mut fields = Fields::from_release(test, outcome).map_err(Refusal::from_display)?;
        let spent = outcome.spent();
        fields.set(EPSILON_TOTAL, spent.epsilon);
        Ok(Release { fields, title, lines: Vec::new(), spent })
    }

    /// The JSON object so far.
    pub fn fields(&self) -> &Fields {
        &self.fields
    }

    /// The human title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The human lines `(label, text)` in order; warnings have the label `"warning"` and are
    /// also in the `warnings` field.
    pub fn lines(&self) -> &[(String, String)] {
        &self.lines
    }

    /// The title, the fields and the lines, for the front end's report.
    pub fn into_parts(self) -> (String, Fields, Vec<(String, String)>) {
        (self.title, self.fields, self.lines)
    }

    /// Sets a field computed from the outcome or the declared choices.
    pub fn set(&mut self, key: &str, value: impl Serialize) {
        self.fields.set(key, value);
    }

    /// Sets `key` inside the object field `object` (e.g. the reference's `distribution`).
    pub fn set_in(&mut self, object: &str, key: &str, value: impl Serialize) {
        self.fields.set_in(object, key, value);
    }

    /// Adds a human line.
    pub fn line(&mut self, label: &str, text: impl Into<String>) {
        self.lines.push((label.to_owned(), text.into()));
    }

    /// Adds a warning (a human line and an entry of the `warnings` field).
    pub fn warn(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.fields.warn(&text);
        self.lines.push(("warning".to_owned(), text));
    }

    /// Adds the effect estimate and its interval: the `estimate` field and a human line.
    /// An estimate with an ε of its own adds it to what the release spent.
    pub fn set_estimate(&mut self, estimate: &Estimate) {
        self.spent.epsilon += estimate.epsilon;
        self.fields.set(EPSILON_TOTAL, self.spent.epsilon);
        self.fields.set("estimate", estimate);
        self.line("estimate", estimate_text(estimate));
    }

    /// Warns when the noise scale dwarfs the statistic's range ([`all_noise_warning`]).
    pub fn warn_if_all_noise(&mut self, noise_scale: f64, statistic_range: f64) {
        if let Some(warning) = all_noise_warning(noise_scale, statistic_range) {
            self.warn(warning);
        }
    }
}

impl Spent for Release {
    fn spent(&self) -> PrivacyCost {
        self.spent
    }
}

/// The human line of an estimate: `mean 2.1, 95% CI [0.4, 3.9] (no ε of its own; method)`.
pub fn estimate_text(estimate: &Estimate) -> String {
    let cost = if estimate.epsilon > 0.0 {
        format!("ε = {} of its own", crate::fmt(estimate.epsilon))
    } else {
        "no ε of its own".to_owned()
    };
    format!(
        "{} {}, {}% CI [{}, {}] ({cost}; {})",
        estimate.parameter,
        crate::fmt(estimate.value),
        crate::fmt(100.0 * estimate.level),
        crate::fmt(estimate.low),
        crate::fmt(estimate.high),
        estimate.method
    )
}

/// A private test as the front ends run it (see the module docs for the order of calls).
/// Every entry of `dptest-registry` implements it.
pub trait ReleaseTest: PrivateTest {
    /// The data the test reads.
    fn layout(&self) -> Layout;

    /// The named choices the test takes ([`Choices::check`] refuses others).
    fn options(&self) -> &'static [TestOption];

    /// Refuses an interval (`--ci`) the test cannot give for these choices, from the choices
    /// alone: a front end calls it before reading any data ([`ReleaseTest::prepare`] repeats
    /// it). Tests without intervals refuse every `--ci`.
    ///
    /// # Errors
    /// The reason, in the front end's words.
    fn check_interval(&self, choices: &Choices) -> Result<(), Refusal> {
        match choices.ci {
            Some(_) => Err(Refusal(format!("{} has no interval (--ci)", self.name()))),
            None => Ok(()),
        }
    }

    /// Public checks and the cost of the release, from the data's public [`Shape`] and the
    /// choices; nothing is released.
    ///
    /// # Errors
    /// The test's refusal of the setting.
    fn prepare(&self, shape: Shape, choices: &Choices) -> Result<Prepared, Refusal>;

    /// Checks the reference with the evaluator the front end built, before the charge.
    ///
    /// # Errors
    /// The test's refusal of the setting.
    fn check(
        &self,
        _shape: Shape,
        _choices: &Choices,
        _evaluator: Evaluator,
    ) -> Result<(), Refusal> {
        Ok(())
    }

    /// A timing run of the reference on placeholder values (public): the front end calls it
    /// with a small Monte Carlo to estimate the release's time.
    ///
    /// # Errors
    /// The engine fails.
    fn pilot(
        &self,
        _shape: Shape,
        _choices: &Choices,
        _evaluator: Evaluator,
    ) -> Result<(), Refusal> {
        Ok(())
    }

    /// The private release: validates the data, releases, evaluates the reference.
    ///
    /// # Errors
    /// The data or the setting is refused, or the engine fails.
    fn release(
        &self,
        data: Data,
        choices: &Choices,
        evaluator: Evaluator,
    ) -> Result<Release, Refusal>;
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATISTIC: TestOption = TestOption { name: "statistic", values: &["abs", "squared"] };
    const KNOWN: TestOption = TestOption { name: "known-sizes", values: &[] };

    #[test]
    fn each_front_end_spells_options_its_own_way() {
        assert_eq!(FrontEnd::Cli.option("reference", "paper"), "--reference paper");
        assert_eq!(FrontEnd::Python.option("reference", "paper"), "reference='paper'");
        assert_eq!(FrontEnd::Cli.switch("known-sizes"), "--known-sizes");
        assert_eq!(FrontEnd::Python.switch("known-sizes"), "known_sizes=True");
        assert_eq!(FrontEnd::Python.name("known-sizes"), "known_sizes");
        assert_eq!(FrontEnd::R.option("reference", "paper"), "reference = \"paper\"");
        assert_eq!(FrontEnd::R.switch("known-sizes"), "known_sizes = TRUE");
        assert_eq!(FrontEnd::R.bounds_syntax(), "bounds = c(lo, hi)");
    }

    #[test]
    fn options_take_their_values_and_default_to_the_first() {
        let choices = Choices::new(1.0, FrontEnd::Cli);
        assert_eq!(STATISTIC.value(&choices), "abs");
        assert_eq!(STATISTIC.value(&choices.clone().with("statistic", "squared")), "squared");
        assert!(!choices.switch(KNOWN.name) && KNOWN.takes("true") && !KNOWN.takes("yes"));
        let options = [STATISTIC, KNOWN];
        assert!(choices.clone().with("known-sizes", "true").check("t", &options).is_ok());
        let bad = choices.clone().with("statistic", "cubed").check("t", &options).unwrap_err();
        assert_eq!(bad.0, "--statistic must be one of 'abs', 'squared', not 'cubed'");
        let unknown = choices.with("bounds", "1").check("t", &options).unwrap_err();
        assert!(unknown.0.contains("t has no option --bounds"), "{unknown}");
    }

    #[test]
    fn layouts_say_how_many_groups_they_take() {
        let two = Layout::Grouped { min_groups: 2, max_groups: 2 };
        assert!(two.check_groups("mw", 2).is_ok() && Layout::Values.check_groups("w", 7).is_ok());
        assert_eq!(two.check_groups("mw", 3).unwrap_err().0, "mw needs 2 declared groups, not 3");
        let many = Layout::Grouped { min_groups: 2, max_groups: usize::MAX };
        assert!(many.check_groups("kw", 1).unwrap_err().0.contains("at least 2"));
    }

    #[test]
    fn grouped_data_split_by_declared_group_and_keep_empty_groups() {
        let data =
            Data::Grouped { values: vec![1.0, 2.0, 3.0], groups: vec![2, 0, 2], declared: 3 };
        assert_eq!(data.shape(), Shape { n: 3, groups: 3, paired: false });
        assert_eq!(data.split().unwrap(), vec![vec![2.0], vec![], vec![1.0, 3.0]]);
        let stray = Data::Grouped { values: vec![1.0], groups: vec![3], declared: 3 };
        assert!(stray.split().unwrap_err().0.contains("group index 3"));
        let values = Data::Values { values: vec![0.5; 4], paired: true };
        assert_eq!(values.shape(), Shape { n: 4, groups: 1, paired: true });
    }
}
