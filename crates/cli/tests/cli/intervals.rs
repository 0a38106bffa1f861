//! `--ci LEVEL`: every private test of the registry adds the one estimate object or refuses
//! the interval before anything is read or released; the ledger is charged the test and its
//! interval together; `--report` prints the sentence to report.

use super::common::*;

fn estimate(v: &serde_json::Value) -> &serde_json::Map<String, serde_json::Value> {
    v["estimate"].as_object().expect("an estimate object")
}

fn paired(test: &str, extra: &[&str]) -> serde_json::Value {
    let mut a =
        vec![test, "--input", "examples/paired.csv", "--before", "before", "--after", "after"];
    a.extend_from_slice(extra);
    json(&a)
}

#[test]
fn the_mean_interval_is_post_processing_and_holds_the_estimate() {
    let v = paired("t-test", &["--epsilon", "1", "--bounds=-20,20", "--ci", "0.9"]);
    let e = estimate(&v);
    assert_eq!(e["parameter"], "mean");
    assert_eq!((e["level"].as_f64(), e["epsilon"].as_f64()), (Some(0.9), Some(0.0)));
    let (low, value, high) =
        (e["low"].as_f64().unwrap(), e["value"].as_f64().unwrap(), e["high"].as_f64().unwrap());
    assert!(-20.0 <= low && low <= value && value <= high && high <= 20.0);
    assert_eq!(v["epsilon"], 1.0);
    let e = data_error(&[
        "t-test",
        "--input",
        "examples/paired.csv",
        "--before",
        "before",
        "--after",
        "after",
        "--epsilon",
        "1",
        "--bounds=-20,20",
        "--ci",
        "0.9",
        "--ci-epsilon",
        "1",
    ]);
    assert!(e.contains("spends no ε of its own"), "{e}");
}

#[test]
fn the_median_interval_is_charged_with_the_test() {
    let ledger = temp("ci_ledger.json");
    let ledger = ledger.to_str().unwrap();
    let flags = [
        "--epsilon",
        "0.5",
        "--ci",
        "0.95",
        "--ci-epsilon",
        "0.25",
        "--bounds=-20,20",
        "--ledger",
        ledger,
        "--dataset",
        "pairs",
        "--budget",
        "2",
    ];
    for test in ["sign", "wilcoxon"] {
        let v = paired(test, &flags);
        let e = estimate(&v);
        assert!(e["parameter"].as_str().unwrap().starts_with("median"), "{test}");
        assert_eq!(e["epsilon"], 0.25);
        assert!(e["low"].as_f64().unwrap() <= e["high"].as_f64().unwrap());
    }
    let shown = json(&["ledger", "show", "--ledger", ledger]);
    // 0.5 + 0.25 per release, test and interval together.
    assert_eq!(shown["datasets"][0]["spent"], 1.5);
}

/// Privacy review 4, item 3: every output that states a cost states the whole of it.
#[test]
fn every_stated_cost_includes_the_intervals_own_epsilon() {
    let flags = ["--epsilon", "1", "--ci", "0.95", "--ci-epsilon", "0.5", "--bounds=-20,20"];
    for test in ["sign", "wilcoxon"] {
        let v = paired(test, &[&flags[..], &["--report"]].concat());
        assert_eq!((v["epsilon"].as_f64(), v["epsilon_total"].as_f64()), (Some(1.0), Some(1.5)));
        let report = v["report"].as_str().unwrap();
        assert!(report.contains("ε = 1.5 in all (1 for the test"), "{report}");
        let mut args = vec![test, "--input", "examples/paired.csv", "--before", "before"];
        args.extend(["--after", "after"]);
        args.extend(flags);
        let human = String::from_utf8(dptest(&args).stdout).unwrap();
        assert!(human.contains("this release cost ε = 1.5 in all (1 for the test, 0.5"), "{human}");
    }
    // Without an interval of its own, the total is the test's ε.
    let v = paired("t-test", &["--epsilon", "1", "--bounds=-20,20", "--ci", "0.9"]);
    assert_eq!(v["epsilon_total"], 1.0);
}

#[test]
fn intervals_that_cannot_be_made_are_refused_before_the_data_are_read() {
    let missing = "no/such/file.csv";
    let cases = [
        ("sign --value v --epsilon 1 --ci 0.95 --bounds=-1,1", "--ci-epsilon"),
        ("wilcoxon --value v --epsilon 1 --ci 0.95 --ci-epsilon 1", "--bounds"),
        ("mann-whitney --group g --value v --groups a,b --epsilon 1 --ci 0.95", "--known-sizes"),
        (
            "kruskal-wallis --group g --value v --groups a,b,c --epsilon 1 --ci 0.95 --statistic squared",
            "--statistic abs",
        ),
        // Privacy review 4: an ε too small for a finite noise scale, and a range whose width
        // overflows, are refused up front, naming the options.
        (
            "sign --value v --epsilon 1 --ci 0.95 --ci-epsilon 1e-320 --bounds=-1,1",
            "--ci-epsilon and --bounds: the interval's ε: ε = 1e-320 is too small",
        ),
        (
            "wilcoxon --value v --epsilon 1 --ci 0.95 --ci-epsilon 1 --bounds=-1e308,1e308",
            "is too wide",
        ),
    ];
    for (line, why) in cases {
        let mut args: Vec<&str> = line.split(' ').collect();
        args.extend(["--input", missing]);
        let e = data_error(&args);
        assert!(e.contains(why), "{args:?}: {e}");
        assert!(!e.contains(missing), "refused before reading: {e}");
    }
    let public = ["t-test", "--input", "examples/paired.csv", "--value", "after", "--public"];
    let mut a = public.to_vec();
    a.extend(["--ci", "0.95", "--ci-epsilon", "1"]);
    assert!(data_error(&a).contains("spends none"));
}

#[test]
fn the_auc_interval_needs_public_sizes_and_a_direction() {
    let mut a = mw_args(&[
        "--epsilon",
        "1",
        "--known-sizes",
        "--alternative",
        "less",
        "--ci",
        "0.95",
        "--report",
    ]);
    a.push("--json");
    let v: serde_json::Value = serde_json::from_str(&ok(&a)).unwrap();
    let e = estimate(&v);
    assert!(e["parameter"].as_str().unwrap().contains("P(X > Y)"));
    let (low, high) = (e["low"].as_f64().unwrap(), e["high"].as_f64().unwrap());
    assert!((0.0..=1.0).contains(&low) && low <= high && high <= 1.0);
    let report = v["report"].as_str().unwrap();
    for part in ["ε = 1", "n = 85", "p = ", "95% CI"] {
        assert!(report.contains(part), "{part}: {report}");
    }
}

/// Privacy review 4: with public sizes and an empty declared group, the interval is released
/// as the whole range (θ is not identified) instead of a refusal after the noise was drawn.
#[test]
fn an_empty_group_with_public_sizes_gets_the_whole_range() {
    let file = temp("mw_empty_group.csv");
    let rows: String = (0..40).map(|i| format!("a,{i}\n")).collect();
    std::fs::write(&file, format!("group,value\n{rows}")).unwrap();
    let mut a = vec!["mann-whitney", "--input", file.to_str().unwrap(), "--group", "group"];
    a.extend(["--value", "value", "--groups", "a,b", "--epsilon", "1"]);
    a.extend(["--known-sizes", "--alternative", "less", "--ci", "0.95", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&ok(&a)).unwrap();
    let e = estimate(&v);
    assert_eq!((e["low"].as_f64(), e["high"].as_f64()), (Some(0.0), Some(1.0)), "{v}");
    assert_eq!(v["p_value"], 1.0);
}

/// `--public --ci`: the public twins, against scipy (testdata/cli.toml).
#[test]
fn public_twins_equal_scipy() {
    let t = paired("t-test", &["--public", "--ci", "0.95"]);
    let gold = golden("t_test_paired_ci");
    close(estimate(&t)["low"].as_f64().unwrap(), g(&gold, "low"), 1e-12);
    close(estimate(&t)["high"].as_f64().unwrap(), g(&gold, "high"), 1e-12);
    let gold = golden("median_paired_ci");
    for test in ["sign", "wilcoxon"] {
        let v = paired(test, &["--public", "--ci", "0.95"]);
        let e = estimate(&v);
        assert_eq!(e["low"].as_f64(), Some(g(&gold, "low")), "{test}");
        assert_eq!(e["high"].as_f64(), Some(g(&gold, "high")), "{test}");
        assert_eq!(e["value"].as_f64(), Some(g(&gold, "median")), "{test}");
    }
}

/// `kruskal-wallis --public --ci`: D̂ from mid-ranks against scipy's `rankdata`
/// (testdata/cli.toml), between the ends of the sign-aware interval on the exact values, and
/// no `--ci-epsilon` (a public interval spends no ε).
#[test]
fn the_public_rank_effect_interval() {
    let v = json(&kw_args("examples/methylation.csv", &["--public", "--ci", "0.95"]));
    let e = estimate(&v);
    let gold = golden("kruskal_methylation_rank_effect");
    close(e["value"].as_f64().unwrap(), g(&gold, "estimate"), 1e-12);
    let (low, high) = (e["low"].as_f64().unwrap(), e["high"].as_f64().unwrap());
    assert!(0.0 < low && low < g(&gold, "estimate") && g(&gold, "estimate") < high && high < 0.5);
    assert!(e["method"].as_str().unwrap().starts_with("public"), "{e:?}");
    let private = json(&kw_args("examples/methylation.csv", &["--epsilon", "1", "--ci", "0.95"]));
    let width = |e: &serde_json::Map<String, serde_json::Value>| {
        e["high"].as_f64().unwrap() - e["low"].as_f64().unwrap()
    };
    // 165 rows: the size-free private bound is several times wider than the public interval.
    assert!(width(e) < 0.5 * width(estimate(&private)), "{e:?} {private:?}");
    let mut spend = kw_args("examples/methylation.csv", &["--public", "--ci", "0.95"]);
    spend.extend(["--ci-epsilon", "0.5"]);
    assert!(data_error(&spend).contains("spends none"));
}

#[test]
fn the_rank_effect_interval_of_kruskal_wallis() {
    let v = json(&kw_args("examples/methylation.csv", &["--epsilon", "1", "--ci", "0.95"]));
    let e = estimate(&v);
    assert!(e["parameter"].as_str().unwrap().starts_with("rank effect"));
    let (low, high) = (e["low"].as_f64().unwrap(), e["high"].as_f64().unwrap());
    assert!((0.0..=0.5).contains(&low) && low <= high && high <= 0.5);
    assert_eq!(e["epsilon"], 0.0);
}

/// The human summary's hint where the rank effect's interval is a bound: fixed text chosen by
/// the declared flags alone (the same line for other data), gone with `--ci-epsilon`.
#[test]
fn a_bound_interval_says_how_to_narrow_it() {
    let hint = |file: &'static str, extra: &[&'static str]| {
        let mut args = kw_args(file, &["--epsilon", "1", "--ci", "0.95"]);
        if file != "examples/methylation.csv" {
            args.extend(["--groups", "bipolar,control"]);
        }
        args.extend_from_slice(extra);
        ok(&args).lines().find(|l| l.trim_start().starts_with("hint:")).map(str::to_owned)
    };
    let free = hint("examples/methylation.csv", &[]).expect("a hint line");
    assert!(free.contains("--known-sizes with --ci-epsilon E"), "{free}");
    let known = hint("examples/methylation.csv", &["--known-sizes"]).expect("a hint line");
    assert!(known.contains("at the public sizes") && !known.contains("--known-sizes"), "{known}");
    let other = hint("examples/two_groups.csv", &[]).expect("a hint line");
    assert_eq!(other, free);
    assert_eq!(hint("examples/methylation.csv", &["--known-sizes", "--ci-epsilon", "0.5"]), None);
}

/// `--ci-epsilon` with the rank effect's interval: the mean ranks' covariance from a
/// release of its own (by default its scale factor), charged with the test; without public
/// sizes refused before anything is read.
#[test]
fn the_rank_effect_interval_with_a_covariance_release_of_its_own() {
    let base = ["--epsilon", "1", "--known-sizes", "--ci", "0.95"];
    let bound = json(&kw_args("examples/methylation.csv", &base));
    let with = [&base[..], &["--ci-epsilon", "0.5"]].concat();
    let v = json(&kw_args("examples/methylation.csv", &with));
    let e = estimate(&v);
    // Without --ci-epsilon, public sizes still narrow the bound (post-processing).
    let free = json(&kw_args("examples/methylation.csv", &["--epsilon", "1", "--ci", "0.95"]));
    let known = estimate(&bound)["method"].as_str().unwrap();
    assert!(known.contains("at the public sizes"), "{known}");
    assert!(!estimate(&free)["method"].as_str().unwrap().contains("public sizes"));
    assert_eq!(e["epsilon"], 0.5);
    assert!(e["method"].as_str().unwrap().contains("scale factor"), "{e:?}");
    assert_eq!(v["epsilon_total"], 1.5);
    assert_eq!(v["noise_scale"], bound["noise_scale"]);
    let width = |e: &serde_json::Map<String, serde_json::Value>| {
        e["high"].as_f64().unwrap() - e["low"].as_f64().unwrap()
    };
    // 165 rows in three groups: the released covariance narrows the interval well below the
    // size-free bound's (about 0.18 against 0.44 at these settings).
    assert!(width(e) < 0.7 * width(estimate(&bound)), "{e:?} {bound:?}");
    let mut refused = kw_args("examples/methylation.csv", &["--epsilon", "1", "--ci", "0.95"]);
    refused.extend(["--ci-epsilon", "0.5"]);
    refused[2] = "no/such/file.csv";
    let message = data_error(&refused);
    assert!(message.contains("--known-sizes"), "{message}");
}

/// The default, `--ci-method auto`: the signs route where the scaled route's one number would
/// have noise of scale 0.025 or less, else the scaled route, by public parameters only
/// (methylation's groups of 50, 60 and 55 rows: κ's sensitivity 0.232, so from ε = 9.28);
/// named or not, the same.
#[test]
fn the_default_released_rank_effect_interval_follows_the_public_rule() {
    for (ci_epsilon, named) in [("8", "scale factor"), ("10", "deviations")] {
        let base = ["--epsilon", "1", "--known-sizes", "--ci", "0.95", "--ci-epsilon", ci_epsilon];
        for named_auto in [&[][..], &["--ci-method", "auto"][..]] {
            let v = json(&kw_args("examples/methylation.csv", &[&base[..], named_auto].concat()));
            let e = estimate(&v);
            assert!(e["method"].as_str().unwrap().contains(named), "{ci_epsilon}: {e:?}");
        }
    }
}

/// `--ci-method signs` and `covariance`: the same ε of its own, split between the covariance
/// and the groups' deviations or spent on the covariance's entries, the method named;
/// refused without `--ci-epsilon` before anything is read.
#[test]
fn the_other_released_rank_effect_intervals() {
    let base = ["--epsilon", "1", "--known-sizes", "--ci", "0.95", "--ci-epsilon", "0.5"];
    for (method, named) in [("signs", "deviations"), ("covariance", "covariance released")] {
        let v = json(&kw_args(
            "examples/methylation.csv",
            &[&base[..], &["--ci-method", method]].concat(),
        ));
        let e = estimate(&v);
        assert_eq!(e["epsilon"], 0.5);
        assert_eq!(v["epsilon_total"], 1.5);
        assert!(e["method"].as_str().unwrap().contains(named), "{method}: {e:?}");
        let (low, high) = (e["low"].as_f64().unwrap(), e["high"].as_f64().unwrap());
        assert!(0.0 <= low && low <= high && high <= 0.5, "{method}: {e:?}");
        let mut refused = kw_args("examples/methylation.csv", &["--epsilon", "1", "--known-sizes"]);
        refused.extend(["--ci", "0.95", "--ci-method", method]);
        refused[2] = "no/such/file.csv";
        let message = fails(&refused);
        assert!(message.contains("--ci-epsilon"), "{method}: {message}");
    }
}

/// `--ci-epsilon` with Mann–Whitney's interval: DeLong's variance from a release of its own
/// (the placement statistic), charged with the test; without public sizes refused before
/// anything is read.
#[test]
fn the_auc_interval_with_a_placement_release_of_its_own() {
    let base = ["--epsilon", "1", "--known-sizes", "--ci", "0.95"];
    let bound = json(&mw_args(&base));
    let v = json(&mw_args(&[&base[..], &["--ci-epsilon", "0.5"]].concat()));
    let e = estimate(&v);
    assert_eq!(e["epsilon"], 0.5);
    assert!(e["method"].as_str().unwrap().contains("DeLong"), "{e:?}");
    assert_eq!(v["epsilon_total"], 1.5);
    assert_eq!(estimate(&bound)["epsilon"], 0.0);
    assert!(estimate(&bound)["method"].as_str().unwrap().contains("Birnbaum"));
    let (low, high) = (e["low"].as_f64().unwrap(), e["high"].as_f64().unwrap());
    assert!(0.0 <= low && low <= e["value"].as_f64().unwrap() && high <= 1.0, "{e:?}");
    // The test's own release is the same mechanism either way: same noise scale.
    assert_eq!(v["noise_scale"], bound["noise_scale"]);
    // Private sizes: refused before the data are read, as without --ci-epsilon.
    let mut refused = mw_args(&["--epsilon", "1", "--ci", "0.95", "--ci-epsilon", "0.5"]);
    refused[2] = "no/such/file.csv";
    let message = data_error(&refused);
    assert!(message.contains("--known-sizes"), "{message}");
}
