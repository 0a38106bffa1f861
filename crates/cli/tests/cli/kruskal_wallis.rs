//! `dptest kruskal-wallis` on the examples: --public against scipy, private runs' keys.

use super::common::*;

#[test]
fn public_matches_scipy() {
    for section in ["kruskal_methylation", "kruskal_two_groups"] {
        let gold = golden(section);
        let file = gold["file"].as_str().unwrap();
        let v = json(&kw_args(file, &["--public"]));
        assert_standard_keys(&v);
        assert_eq!(v["test"], "kruskal-wallis");
        close(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"), 1e-10);
        close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-9);
        assert!(v["epsilon"].is_null() && v["delta"].is_null());
    }
}

#[test]
fn private_release_has_the_stable_keys() {
    let v = json(&kw_args(
        "examples/methylation.csv",
        &["--epsilon", "1", "--draws", "500", "--seed", "5"],
    ));
    assert_standard_keys(&v);
    assert_eq!(v["test"], "kruskal-wallis");
    assert_eq!(v["n"], 165);
    assert_eq!(v["epsilon"], 1.0);
    assert_eq!(v["delta"], 0.0);
    assert_eq!(v["reference"]["draws"], 500);
    assert_eq!(v["reference"]["seed"], 5);
    assert_eq!(v["group_labels"], serde_json::json!(["bipolar", "control", "schizophrenia"]));
    let p = v["p_value"].as_f64().unwrap();
    assert!(p > 0.0 && p <= 1.0);
    assert!(v.get("group_sizes").is_none(), "private output must not reveal group sizes");
}

#[test]
fn known_sizes_put_the_public_sizes_in_the_reference() {
    let extra = ["--epsilon", "1", "--draws", "500", "--seed", "5"];
    let v = json(&kw_args("examples/methylation.csv", &extra));
    assert_eq!(v["known_sizes"], false);
    let with = [&extra[..], &["--known-sizes"]].concat();
    let v = json(&kw_args("examples/methylation.csv", &with));
    assert_eq!((v["known_sizes"].as_bool(), v["delta"].as_f64()), (Some(true), Some(0.0)));
    let sizes = counts(&v["reference_sizes"]);
    assert_eq!((sizes.len(), sizes.iter().sum::<u64>()), (3, 165), "{v}");
    let human = ok(&kw_args("examples/methylation.csv", &with));
    assert!(human.contains("assumed public"), "{human}");
    // Only where it acts: not with --public.
    fails(&kw_args("examples/methylation.csv", &["--public", "--known-sizes"]));
    // plan knows it: unequal groups need far fewer rows with public sizes.
    let plan = |extra: &[&str]| {
        let mut args = vec!["plan", "--test", "kruskal-wallis", "--effect", "2", "--epsilon"];
        args.extend(["1", "--smaller-share", "0.1", "--reps", "100", "--draws", "2000"]);
        args.extend_from_slice(extra);
        json(&args)["n"].as_u64().expect("n")
    };
    assert!(plan(&["--known-sizes"]) < plan(&[]));
}

#[test]
fn squared_statistic_and_human_output() {
    let out = ok(&kw_args(
        "examples/methylation.csv",
        &["--epsilon", "0.5", "--statistic", "squared", "--draws", "300", "--backend", "cpu"],
    ));
    assert!(out.contains("squared statistic"), "{out}");
    assert!(out.contains("ε = 0.5"), "{out}");
    assert!(out.contains("p-value"), "{out}");
    assert!(out.contains("300 draws"), "{out}");
}
