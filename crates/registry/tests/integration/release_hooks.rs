//! Every test of the registry through its release hook, the path the CLI and Python take:
//! the charge `prepare` announces is what the release spends, the fields carry the stable
//! keys under the registry name, and the hook refuses what it does not understand before
//! anything is released.

use dptest_refdist::{CpuEngine, Evaluator, MonteCarlo};
use dptest_registry::{ReleaseTest, TESTS};
use dptest_report::{Choices, Data, Evaluation, FrontEnd, Layout, STABLE_KEYS};

const N: usize = 40;

/// Data in the test's layout: the fewest declared groups it takes, or one sample of paired
/// differences; values spread over [−1, 1].
fn data(test: &dyn ReleaseTest) -> Data {
    let values: Vec<f64> = (0..N).map(|i| ((i * 37 % N) as f64 / N as f64) * 2.0 - 1.0).collect();
    match test.layout() {
        Layout::Grouped { min_groups, .. } => Data::Grouped {
            groups: (0..N).map(|i| (i % min_groups) as u32).collect(),
            declared: min_groups,
            values,
        },
        Layout::Values => Data::Values { values, paired: true },
    }
}

/// ε = 1 with bounds [−1, 1] (read by the tests that clamp).
fn choices() -> Choices {
    Choices { bounds: dptest_core::Bounds::new(-1.0, 1.0).ok(), ..Choices::new(1.0, FrontEnd::Cli) }
}

fn evaluator(evaluation: Evaluation) -> Evaluator<'static> {
    match evaluation {
        Evaluation::Exact => Evaluator::Exact,
        Evaluation::MonteCarlo { .. } => Evaluator::MonteCarlo {
            engine: &CpuEngine,
            mc: MonteCarlo::new(2000, 1).expect("valid Monte Carlo"),
        },
    }
}

#[test]
fn every_release_spends_what_prepare_announced_under_its_registry_name() {
    for test in TESTS {
        let data = data(test);
        let shape = data.shape();
        let choices = choices();
        let prepared =
            test.prepare(shape, &choices).unwrap_or_else(|e| panic!("{}: {e}", test.name()));
        let evaluator = evaluator(prepared.evaluation);
        test.check(shape, &choices, evaluator).unwrap_or_else(|e| panic!("{}: {e}", test.name()));
        let release = test.release(data, &choices, evaluator).unwrap();
        let fields = release.fields().map();
        assert_eq!(fields["test"], test.name());
        for key in STABLE_KEYS {
            assert!(fields.contains_key(key), "{}: no {key}", test.name());
        }
        assert_eq!(fields["epsilon"], prepared.epsilon, "{}", test.name());
        assert_eq!(fields["delta"], prepared.delta, "{}", test.name());
        assert_eq!(fields["n"], N, "{}", test.name());
        let p = release.fields().get_f64("p_value").unwrap();
        assert!(p > 0.0 && p <= 1.0, "{}: p = {p}", test.name());
        assert!(!release.title().is_empty() && !release.lines().is_empty(), "{}", test.name());
    }
}

#[test]
fn every_listed_option_value_is_taken_and_others_are_refused_before_the_release() {
    for test in TESTS {
        let shape = data(test).shape();
        for option in test.options() {
            let taken: Vec<&str> =
                if option.values.is_empty() { vec!["true"] } else { option.values.to_vec() };
            for value in taken {
                let choices = choices().with(option.name, value);
                let setting = format!("{} {}={value}", test.name(), option.name);
                choices
                    .check(test.name(), test.options())
                    .unwrap_or_else(|e| panic!("{setting}: {e}"));
                test.prepare(shape, &choices).unwrap_or_else(|e| panic!("{setting}: {e}"));
            }
            let wrong = choices().with(option.name, "no-such-value");
            let refusal = wrong.check(test.name(), test.options()).unwrap_err();
            assert!(refusal.0.contains("no-such-value"), "{}: {refusal}", test.name());
        }
        let unknown = choices().with("no-such-option", "1");
        assert!(unknown.check(test.name(), test.options()).is_err(), "{}", test.name());
    }
}

#[test]
fn grouped_hooks_refuse_values_and_one_sample_hooks_refuse_groups() {
    for test in TESTS {
        let wrong = match test.layout() {
            Layout::Grouped { .. } => Data::Values { values: vec![0.5; N], paired: false },
            Layout::Values => {
                Data::Grouped { values: vec![0.5; N], groups: vec![0; N], declared: 2 }
            }
        };
        let prepared = test.prepare(wrong.shape(), &choices());
        if let Ok(prepared) = prepared {
            let evaluator = evaluator(prepared.evaluation);
            assert!(test.release(wrong, &choices(), evaluator).is_err(), "{}", test.name());
        }
    }
}

/// `--ci` through every hook: each test adds the one estimate object (its own ε, if any,
/// charged with the test's, and a level-(1 − α) interval around the estimate).
#[test]
fn every_test_gives_the_one_estimate_object_and_is_charged_for_it() {
    use dptest_core::Alternative;
    use dptest_report::CiRequest;
    for test in TESTS {
        let data = data(test);
        let shape = data.shape();
        let ci = |epsilon| Some(CiRequest { level: 0.9, epsilon });
        let choices = match test.name() {
            "sign" | "wilcoxon" => Choices { ci: ci(Some(0.5)), ..choices() },
            "mann-whitney" => {
                Choices { ci: ci(None), alternative: Alternative::Greater, ..choices() }
                    .with("known-sizes", "true")
            }
            _ => Choices { ci: ci(None), ..choices() },
        };
        test.check_interval(&choices).unwrap_or_else(|e| panic!("{}: {e}", test.name()));
        let prepared =
            test.prepare(shape, &choices).unwrap_or_else(|e| panic!("{}: {e}", test.name()));
        let evaluator = evaluator(prepared.evaluation);
        let release = test.release(data, &choices, evaluator).unwrap();
        let fields = release.fields().map();
        let estimate = fields["estimate"].as_object().unwrap_or_else(|| panic!("{}", test.name()));
        for key in ["parameter", "value", "low", "high", "level", "epsilon", "method"] {
            assert!(estimate.contains_key(key), "{}: no estimate.{key}", test.name());
        }
        let (low, value, high) = (
            estimate["low"].as_f64().unwrap(),
            estimate["value"].as_f64().unwrap(),
            estimate["high"].as_f64().unwrap(),
        );
        assert!(low <= value && value <= high, "{}: {low} {value} {high}", test.name());
        assert_eq!(estimate["level"], 0.9);
        let spent = fields["epsilon"].as_f64().unwrap() + estimate["epsilon"].as_f64().unwrap();
        assert!(
            (spent - prepared.epsilon).abs() < 1e-12,
            "{}: charged {} spent {spent}",
            test.name(),
            prepared.epsilon
        );
        assert!(release.lines().iter().any(|(label, _)| label == "estimate"), "{}", test.name());
    }
}

/// An interval that needs a release of its own says so before anything is released.
#[test]
fn a_median_interval_without_its_range_or_epsilon_is_refused_in_prepare() {
    use dptest_report::CiRequest;
    for name in ["sign", "wilcoxon"] {
        let test = dptest_registry::find(name).unwrap();
        let shape = data(test).shape();
        let no_epsilon =
            Choices { ci: Some(CiRequest { level: 0.95, epsilon: None }), ..choices() };
        assert!(test.prepare(shape, &no_epsilon).unwrap_err().0.contains("--ci-epsilon"));
        let no_range = Choices {
            bounds: None,
            ci: Some(CiRequest { level: 0.95, epsilon: Some(1.0) }),
            ..choices()
        };
        assert!(test.prepare(shape, &no_range).unwrap_err().0.contains("--bounds"));
        let bad_level =
            Choices { ci: Some(CiRequest { level: 1.5, epsilon: Some(1.0) }), ..choices() };
        assert!(test.prepare(shape, &bad_level).unwrap_err().0.contains("--ci"));
    }
}

/// The one-sample sign test is of its hypothesised median (Python's and R's `popmean`/`mu`):
/// forty values 1..=40 are all below 100, so T = −40 (noise of scale 2 at ε = 1: a sign flip
/// has probability below 10⁻⁸), and a paired test refuses a hypothesised median. Before this
/// test the hook read the values against 0 whatever the choice said.
#[test]
fn the_sign_test_tests_its_hypothesised_median() {
    let test = dptest_registry::find("sign").unwrap();
    let values: Vec<f64> = (1..=40).map(f64::from).collect();
    let statistic = |popmean: f64| {
        let data = Data::Values { values: values.clone(), paired: false };
        let choices = Choices { popmean, ..choices() };
        let release = test.release(data, &choices, Evaluator::Exact).unwrap();
        release.fields().get_f64("statistic").unwrap()
    };
    assert!(statistic(100.0) < 0.0 && statistic(0.0) > 0.0);
    assert!(statistic(20.5).abs() < 30.0);
    let paired = Data::Values { values: values.clone(), paired: true };
    let choices = Choices { popmean: 100.0, ..choices() };
    let refusal = test.release(paired, &choices, Evaluator::Exact).unwrap_err().0;
    assert!(refusal.contains("hypothesised median"), "{refusal}");
}
