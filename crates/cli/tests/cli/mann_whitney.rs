//! `dptest mann-whitney` on the examples: --public against scipy (all alternatives), private
//! runs, group order.

use super::common::*;

#[test]
fn public_matches_scipy_for_every_alternative() {
    for alt in ["two-sided", "less", "greater"] {
        let gold = golden(&format!("mann_whitney_{}", alt.replace('-', "_")));
        let v = json(&mw_args(&["--public", "--alternative", alt]));
        assert_standard_keys(&v);
        assert_eq!(v["test"], "mann-whitney");
        // Group 1 is the first label in sorted order: scipy's x.
        assert_eq!(v["group_labels"], serde_json::json!(["bipolar", "control"]));
        close(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"), 1e-12);
        close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-9);
    }
}

#[test]
fn private_release_is_epsilon_by_default_and_epsilon_delta_with_the_papers_statistic() {
    let v = json(&mw_args(&["--epsilon", "1"]));
    assert_standard_keys(&v);
    assert_eq!((v["epsilon"].as_f64(), v["delta"].as_f64()), (Some(1.0), Some(0.0)));
    assert!(v["statistic"].as_f64().is_some());
    // The sizes are never released: the reference takes the most balanced split of n = 85.
    assert_eq!(v["reference_sizes"], serde_json::json!([42, 43]));
    assert_eq!(v["m_star"], serde_json::Value::Null);
    let v = json(&mw_args(&["--epsilon", "1", "--statistic", "paper", "--delta", "1e-5"]));
    assert_standard_keys(&v);
    assert_eq!(v["epsilon"], 1.0);
    assert_eq!(v["delta"], 1e-5);
    assert_eq!(v["n"], 85);
    let p = v["p_value"].as_f64().unwrap();
    assert!(p > 0.0 && p <= 1.0);
    assert!(v.get("group_sizes").is_none(), "private output must not reveal group sizes");
}

#[test]
fn one_sided_private_needs_the_centred_statistic_or_known_sizes() {
    let v = json(&mw_args(&["--epsilon", "1", "--alternative", "greater"]));
    assert_eq!((v["delta"].as_f64(), v["known_sizes"].as_bool()), (Some(0.0), Some(false)));
    let paper = ["--epsilon", "1", "--alternative", "greater", "--statistic", "paper"];
    let e = data_error(&mw_args(&paper));
    assert!(e.contains("--known-sizes") && e.contains("--statistic centred"), "{e}");
    let v = json(&mw_args(&["--epsilon", "1", "--alternative", "greater", "--known-sizes"]));
    assert_eq!(v["delta"], 0.0);
    assert_eq!(v["known_sizes"], true);
}

#[test]
fn counted_sizes_release_a_noisy_count_and_cover_its_plausible_sizes() {
    let v = json(&mw_args(&["--epsilon", "1", "--count-sizes", "--alternative", "greater"]));
    assert_standard_keys(&v);
    let number = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
    assert_eq!((number("delta"), number("gamma")), (0.0, 0.005));
    assert!((number("epsilon_sizes") - 0.2).abs() < 1e-12, "{v}");
    assert!((number("epsilon_u") - 0.8).abs() < 1e-12, "{v}");
    assert_eq!(v["released_statistic"], "centred");
    let range = counts(&v["plausible_sizes"]);
    let first = v["reference_sizes"][0].as_u64().expect("reference sizes");
    assert!(range.len() == 2 && range[0] <= first && first <= range[1], "{v}");
    assert!(number("p_value") >= 0.005 && number("n1_tilde").is_finite());
    for other in [&["--statistic", "paper"][..], &["--known-sizes"]] {
        let mut args = mw_args(&["--epsilon", "1", "--count-sizes"]);
        args.extend_from_slice(other);
        fails(&args);
    }
    // Far-apart groups at ε = 10: p sits at its floor γ, and the output says what that means.
    let lines: Vec<String> = (0..200)
        .map(|i| if i < 100 { format!("a,{i}") } else { format!("b,{}", 1000 + i) })
        .collect();
    let path = temp("mw-count-floor.csv");
    std::fs::write(&path, format!("group,value\n{}\n", lines.join("\n"))).expect("write");
    let file = path.to_str().expect("utf-8");
    let mut args = vec!["mann-whitney", "--input", file, "--group", "group", "--value", "value"];
    args.extend(["--groups", "a,b", "--epsilon", "10", "--count-sizes"]);
    let v = json(&args);
    assert!((v["p_value"].as_f64().unwrap_or(1.0) - 0.005).abs() < 1e-9, "{v}");
    assert!(v["warnings"].to_string().contains("floor"), "{v}");
}

#[test]
fn a_two_sided_release_with_known_sizes_carries_the_interval() {
    let v = json(&mw_args(&["--epsilon", "1", "--known-sizes", "--ci", "0.95"]));
    assert_eq!(v["released_statistic"], "centred");
    let estimate = &v["estimate"];
    let (low, high) = (estimate["low"].as_f64(), estimate["high"].as_f64());
    assert!(matches!((low, high), (Some(l), Some(h)) if 0.0 <= l && l <= h && h <= 1.0), "{v}");
    // θ̂ is Ũ₁/(n₁n₂), with Ũ₁ the released U₁ − n₁n₂/2 plus n₁n₂/2.
    let sizes = &v["reference_sizes"];
    let pairs = sizes[0].as_f64().unwrap_or(0.0) * sizes[1].as_f64().unwrap_or(0.0);
    let theta = (v["statistic"].as_f64().unwrap_or(f64::NAN) / pairs + 0.5).clamp(0.0, 1.0);
    assert!((estimate["value"].as_f64().unwrap_or(f64::NAN) - theta).abs() < 1e-12, "{v}");
    let e = data_error(&mw_args(&["--epsilon", "1", "--ci", "0.95"]));
    assert!(e.contains("--known-sizes"), "{e}");
}

/// Privacy review 3, item 4: with --known-sizes nothing is estimated, so an empty declared
/// group is named as such, not as a private m* of 0.
#[test]
fn known_sizes_with_an_empty_group_says_the_sizes_are_read_not_estimated() {
    let file = "crates/cli/tests/data/one_group.csv";
    let base = ["mann-whitney", "--input", file, "--group", "group", "--value", "value"];
    let mut args = base.to_vec();
    args.extend(["--groups", "a,b", "--epsilon", "1", "--known-sizes"]);
    let v = json(&args);
    let warnings = v["warnings"].to_string();
    assert!(warnings.contains("assumed public") && !warnings.contains("m*"), "{warnings}");
    assert_eq!(v["p_value"], 1.0);
}

/// Issue 28 item 4: a run whose size estimate leaves m* = 0 for every dataset of its n (a
/// fact of n, ε and δ) is refused before anything is spent, with advice that works.
#[test]
fn a_run_that_cannot_reject_is_refused_before_spending() {
    let rows = |n: usize| -> String {
        let lines: Vec<String> =
            (0..n).map(|i| format!("{},{i}", if i % 2 == 0 { "a" } else { "b" })).collect();
        let path = temp(&format!("mw-reach-{n}.csv"));
        std::fs::write(&path, format!("group,value\n{}\n", lines.join("\n"))).expect("write");
        path.to_str().expect("utf-8").to_owned()
    };
    let ledger = temp("mw-reach-ledger.json");
    let _ = std::fs::remove_file(&ledger);
    let ledger = ledger.to_str().expect("utf-8");
    fn run<'a>(file: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["mann-whitney", "--input", file, "--group", "group", "--value"];
        args.extend(["value", "--groups", "a,b", "--epsilon", "1"]);
        args.extend(extra);
        args
    }
    let small = rows(32);
    let budget =
        ["--ledger", ledger, "--budget", "5", "--dataset", "small", "--statistic", "paper"];
    let message = fails(&run(&small, &budget));
    for advice in ["nothing was spent", "--statistic centred", "--known-sizes", "n = 34"] {
        assert!(message.contains(advice), "{advice}: {message}");
    }
    assert!(!std::path::Path::new(ledger).exists(), "the refusal wrote the ledger");
    // The advice works: public sizes, the centred statistic, or n = 34.
    let known = json(&run(&small, &["--known-sizes"]));
    assert_eq!(known["n"], 32);
    assert_eq!(json(&run(&small, &["--statistic", "centred"]))["n"], 32);
    let enough = rows(34);
    assert_eq!(json(&run(&enough, &["--statistic", "paper"]))["n"], 34);
}
