//! The release boundary: what a private command prints, and whether it releases at all,
//! depends only on declared parameters and noised values. Each test is one way an output
//! could tell neighbouring datasets (one row changed) apart; every one of them failed before
//! the boundary existed (a data hash and row counts in the JSON, groups read off the data,
//! refusals on a one-row change, `--drop-missing` counts).

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

use super::common::*;

/// Writes `rows` (after the header) to a fresh file named `name`.
fn file(name: &str, header: &str, rows: &[String]) -> PathBuf {
    let path = temp(name);
    std::fs::write(&path, format!("{header}\n{}\n", rows.join("\n"))).expect("write");
    path
}

/// `count` rows `label,value` with values 1, 2, ….
fn rows(label: &str, count: usize, offset: usize) -> Vec<String> {
    (0..count).map(|i| format!("{label},{}", offset + i)).collect()
}

/// Keys whose string values are functions of the noised release, so they may differ between
/// two runs on the same data: the warnings, and where the t-test's supremum over data laws was
/// attained (docs/privacy.md).
const NOISED_STRING_KEYS: [&str; 2] = ["warnings", "worst_law"];

/// Every string value in the output (labels, names, methods, paths, hashes), those under
/// [`NOISED_STRING_KEYS`] aside.
fn strings(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
        Value::Object(map) => {
            for (k, item) in map {
                if !NOISED_STRING_KEYS.contains(&k.as_str()) {
                    strings(item, out);
                }
            }
        }
        _ => {}
    }
}

/// Keys that would describe the input file rather than the release.
const FORBIDDEN_KEYS: [&str; 6] =
    ["input", "sha256", "rows", "dropped_rows", "path", "group_sizes"];

fn assert_no_forbidden_keys(v: &Value) {
    if let Value::Object(map) = v {
        for (k, item) in map {
            assert!(!FORBIDDEN_KEYS.contains(&k.as_str()), "private output has key {k}: {v}");
            assert_no_forbidden_keys(item);
        }
    } else if let Value::Array(items) = v {
        items.iter().for_each(assert_no_forbidden_keys);
    }
}

/// Runs `args` with `{}` replaced by each file; both must release, the JSON must hold no
/// key about the file, the same strings, and neither the human nor the JSON output may name
/// the file.
fn assert_neighbours_look_alike(args: &[&str], a: &PathBuf, b: &PathBuf) {
    let mut seen = Vec::new();
    for path in [a, b] {
        let p = path.to_str().expect("utf-8 path");
        let with: Vec<&str> = args.iter().map(|&x| if x == "{}" { p } else { x }).collect();
        let v = json(&with);
        assert_no_forbidden_keys(&v);
        let human = ok(&with);
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        assert!(!human.contains(name) && !v.to_string().contains(name), "names the file: {human}");
        let mut s = BTreeSet::new();
        strings(&v, &mut s);
        seen.push(s);
    }
    assert_eq!(seen[0], seen[1], "neighbouring datasets print different strings");
}

#[test]
fn groups_are_declared_not_read_off_the_data() {
    // Finding 2: 20 A + 20 B + 1 C against its neighbour with the C row moved to A.
    let three = [rows("A", 20, 0), rows("B", 20, 20), rows("C", 1, 40)].concat();
    let two = [rows("A", 21, 0), rows("B", 20, 20)].concat();
    let a = file("kw_abc.csv", "group,value", &three);
    let b = file("kw_ab.csv", "group,value", &two);
    let args = [
        "kruskal-wallis",
        "--input",
        "{}",
        "--group",
        "group",
        "--value",
        "value",
        "--groups",
        "A,B,C",
        "--epsilon",
        "1",
        "--draws",
        "300",
    ];
    assert_neighbours_look_alike(&args, &a, &b);
    let v = json(&args.map(|x| if x == "{}" { b.to_str().expect("utf-8") } else { x }));
    assert_eq!(v["groups"], 3);
    assert_eq!(v["group_labels"], serde_json::json!(["A", "B", "C"]));
    // Without declared groups a private run is refused before the data is read.
    let e = data_error(&[
        "kruskal-wallis",
        "--input",
        "no-such-file.csv",
        "--group",
        "g",
        "--value",
        "v",
        "--epsilon",
        "1",
    ]);
    assert!(e.contains("--groups"), "{e}");
    // An undeclared label is an input error.
    let e = data_error(&args.map(|x| {
        if x == "{}" {
            a.to_str().expect("utf-8")
        } else if x == "A,B,C" {
            "A,B"
        } else {
            x
        }
    }));
    assert!(e.contains("not one of the declared groups"), "{e}");
}

#[test]
fn mann_whitney_releases_with_an_empty_declared_group() {
    // Finding 3: 99 A + 1 B released, its neighbour 100 A + 0 B was refused.
    let a = file("mw_99_1.csv", "group,value", &[rows("A", 99, 0), rows("B", 1, 99)].concat());
    let b = file("mw_100_0.csv", "group,value", &rows("A", 100, 0));
    let args = [
        "mann-whitney",
        "--input",
        "{}",
        "--group",
        "group",
        "--value",
        "value",
        "--groups",
        "A,B",
        "--epsilon",
        "1",
    ];
    assert_neighbours_look_alike(&args, &a, &b);
    // Every option of private sizes: the statistic, one-sided, the paper's estimate.
    for extra in [&["--alternative", "greater"][..], &["--statistic", "paper"], &["--count-sizes"]]
    {
        assert_neighbours_look_alike(&[&args[..], extra].concat(), &a, &b);
    }
    // Without releasing the sizes, every field but the noised statistic and its p-value is
    // the same for the two neighbours (sizes 99/1 and 100/0): the reference takes the most
    // balanced split of n.
    let fixed = |path: &PathBuf| {
        let v = json(&args.map(|x| if x == "{}" { path.to_str().expect("utf-8") } else { x }));
        let keys = ["reference_sizes", "noise_scale", "sensitivity", "delta", "m_star"];
        keys.map(|k| v[k].clone())
    };
    assert_eq!(fixed(&a), fixed(&b));
    assert_eq!(fixed(&a)[0], serde_json::json!([50, 50]));
    // With public sizes the two files are not neighbours (their sizes differ), but an empty
    // group still releases (the test then has no power).
    let v = json(
        &[
            &args.map(|x| if x == "{}" { b.to_str().expect("utf-8") } else { x })[..],
            &["--known-sizes"],
        ]
        .concat(),
    );
    assert_eq!(v["p_value"], 1.0);
}

#[test]
fn overflowing_differences_are_released() {
    // Finding 3: the pair (−1e308, 1e308) made t-test and wilcoxon refuse.
    let normal: Vec<String> = (0..30).map(|i| format!("{i},{}", i + i % 3)).collect();
    let mut extreme = normal.clone();
    extreme[0] = "-1e308,1e308".to_owned();
    let a = file("paired_normal.csv", "before,after", &normal);
    let b = file("paired_extreme.csv", "before,after", &extreme);
    let paired = ["--input", "{}", "--before", "before", "--after", "after", "--epsilon", "1"];
    assert_neighbours_look_alike(&[&["wilcoxon"][..], &paired].concat(), &a, &b);
    let t = [&["t-test"][..], &paired, &["--bounds=-5,5", "--draws", "200"]].concat();
    assert_neighbours_look_alike(&t, &a, &b);
    assert_neighbours_look_alike(&[&["sign"][..], &paired].concat(), &a, &b);
}

#[test]
fn drop_missing_is_refused_in_private_mode_whatever_the_data() {
    // Finding 4: n and the dropped count depended on which cells were missing.
    for input in ["examples/methylation.csv", "crates/cli/tests/data/missing.csv"] {
        let e =
            data_error(&kw_args(input, &["--epsilon", "1", "--drop-missing", "--groups", "a,b"]));
        assert!(e.contains("--drop-missing is for public tests only"), "{e}");
    }
}

#[test]
fn every_private_command_keeps_the_file_out_of_its_output() {
    // Finding 1: input.sha256, input.rows and dropped_rows identified the data.
    let a = root().join("examples/methylation.csv");
    let text = std::fs::read_to_string(&a).expect("read");
    let b = temp("methylation_neighbour.csv");
    std::fs::write(&b, text.replacen("control,", "control,9", 1)).expect("write");
    let grouped =
        ["--input", "{}", "--group", "group", "--value", "value", "--groups", METHYLATION_GROUPS];
    let kw = [&["kruskal-wallis"][..], &grouped, &["--epsilon", "1", "--draws", "300"]].concat();
    assert_neighbours_look_alike(&kw, &a, &b);
    let anova = [
        &["anova"][..],
        &grouped,
        &["--epsilon", "1", "--bounds", "0,1", "--draws", "50", "--backend", "cpu"],
    ]
    .concat();
    assert_neighbours_look_alike(&anova, &a, &b);
    let p = root().join("examples/paired.csv");
    let text = std::fs::read_to_string(&p).expect("read");
    let q = temp("paired_neighbour.csv");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[1] = "1,3,40".to_owned();
    std::fs::write(&q, lines.join("\n") + "\n").expect("write");
    let tc = [
        "task-clifton",
        "--input",
        "{}",
        "--before",
        "before",
        "--after",
        "after",
        "--epsilon",
        "1",
        "--variant",
        "high-privacy",
    ];
    assert_neighbours_look_alike(&tc, &p, &q);
    let sign =
        ["sign", "--input", "{}", "--before", "before", "--after", "after", "--epsilon", "1"];
    assert_neighbours_look_alike(&sign, &p, &q);
}

#[test]
fn high_utility_is_never_labelled_dp() {
    // Finding 8: "pure ε-DP" beside "NOT differentially private".
    let out = ok(&paired_args("task-clifton", &["--epsilon", "1", "--variant", "high-utility"]));
    assert!(out.contains("NOT differentially private"), "{out}");
    assert!(
        !out.contains("pure ε-DP") && out.contains("baseline, NOT differentially private"),
        "{out}"
    );
}

#[test]
fn private_objects_have_the_documented_keys() {
    // docs/privacy.md, "Fields of every private output": the keys every private object has,
    // then the keys of each test's own row there.
    const COMMON: [&str; 10] = [
        "test",
        "statistic",
        "p_value",
        "reject",
        "alpha",
        "n",
        "epsilon",
        "epsilon_total",
        "delta",
        "reference",
    ];
    let doc = std::fs::read_to_string(root().join("docs/privacy.md")).expect("read the doc");
    let grouped = |file: &'static str, groups: &'static str, test: &'static str| {
        vec![test, "--input", file, "--group", "group", "--value", "value", "--groups", groups]
    };
    let paired = |test: &'static str| paired_args(test, &[]);
    let cases: [(Vec<&str>, &[&str]); 5] = [
        (
            grouped("examples/methylation.csv", METHYLATION_GROUPS, "kruskal-wallis"),
            &["variant", "groups", "group_labels"],
        ),
        (
            grouped("examples/two_groups.csv", "bipolar,control", "mann-whitney"),
            &[
                "alternative",
                "known_sizes",
                "reference_kind",
                "epsilon_sizes",
                "epsilon_u",
                "m_tilde",
                "m_star",
                "no_power",
            ],
        ),
        (paired("wilcoxon"), &["alternative", "kind", "null", "normalized", "release"]),
        (paired("sign"), &["alternative", "kind", "sensitivity", "noise_scale"]),
        (
            [paired("t-test"), vec!["--bounds=-20,20"]].concat(),
            &[
                "alternative",
                "kind",
                "method",
                "noisy_mean",
                "noisy_variance",
                "epsilon_mean",
                "epsilon_variance",
                "no_power",
            ],
        ),
    ];
    let documented = documented_paths(&doc);
    for (mut args, own) in cases {
        args.extend(["--epsilon", "1"]);
        let v = json(&args);
        for key in COMMON.iter().chain(own) {
            assert!(v.get(*key).is_some(), "{} lacks `{key}`: {v}", args[0]);
            assert!(doc.contains(&format!("`{key}`")), "`{key}` is not in docs/privacy.md");
        }
        // The other direction (privacy review 4): every key the output has, nested ones
        // included, is documented.
        for path in key_paths(&v) {
            assert!(
                is_documented(&documented, &path),
                "{}: `{path}` is not in docs/privacy.md",
                args[0]
            );
        }
    }
}

/// Every key of an object and of the objects in it, as `a` and `a.b`.
fn key_paths(v: &serde_json::Value) -> Vec<String> {
    let Some(map) = v.as_object() else { return Vec::new() };
    let mut paths = Vec::new();
    for (key, inner) in map {
        paths.push(key.clone());
        paths.extend(key_paths(inner).into_iter().map(|sub| format!("{key}.{sub}")));
    }
    paths
}

/// The paths docs/privacy.md names in backticks: `a`, `a.b`, and `a.{b,c}` (both `a.b` and
/// `a.c`); a `*_release` prefix stands for every key ending in `_release`.
fn documented_paths(doc: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for span in doc.split('`').skip(1).step_by(2) {
        match span.split_once(".{") {
            Some((prefix, rest)) => {
                paths.push(prefix.to_owned());
                let inner = rest.trim_end_matches('}');
                paths.extend(inner.split(',').map(|sub| format!("{prefix}.{}", sub.trim())));
            }
            None => paths.push(span.to_owned()),
        }
    }
    paths
}

fn is_documented(documented: &[String], path: &str) -> bool {
    let wildcard = |p: &str| {
        let (head, tail) = p.split_once('.').map_or((p, None), |(h, t)| (h, Some(t)));
        head.ends_with("_release")
            && documented.iter().any(|d| match tail {
                None => d == "*_release",
                Some(t) => d == &format!("*_release.{t}"),
            })
    };
    documented.iter().any(|d| d == path) || wildcard(path)
}

#[test]
fn public_objects_have_the_documented_keys() {
    // docs/privacy.md, "Public outputs": the keys of every public object, then each test's.
    const COMMON: [&str; 10] = [
        "test",
        "statistic",
        "p_value",
        "reject",
        "alpha",
        "n",
        "epsilon",
        "delta",
        "reference",
        "input",
    ];
    let doc = std::fs::read_to_string(root().join("docs/privacy.md")).expect("read the doc");
    let grouped = |file: &'static str, test: &'static str| {
        vec![test, "--input", file, "--group", "group", "--value", "value"]
    };
    let paired = |test: &'static str| paired_args(test, &[]);
    let cases: [(Vec<&str>, &[&str]); 5] = [
        (
            grouped("examples/methylation.csv", "kruskal-wallis"),
            &["df", "method", "groups", "group_labels", "group_sizes"],
        ),
        (
            grouped("examples/two_groups.csv", "mann-whitney"),
            &["alternative", "method", "n1", "n2", "z", "group_labels", "group_sizes"],
        ),
        (
            paired("wilcoxon"),
            &[
                "alternative",
                "kind",
                "method",
                "zero_method",
                "n_zero",
                "r_plus",
                "r_minus",
                "w",
                "z",
            ],
        ),
        (paired("sign"), &["alternative", "kind", "n_positive", "n_negative", "n_zero"]),
        (
            paired("t-test"),
            &["alternative", "kind", "method", "df", "mean", "standard_error", "popmean"],
        ),
    ];
    for (mut args, own) in cases {
        args.push("--public");
        let v = json(&args);
        for key in COMMON.iter().chain(own) {
            assert!(v.get(*key).is_some(), "{} lacks `{key}`: {v}", args[0]);
            assert!(doc.contains(&format!("`{key}`")), "`{key}` is not in docs/privacy.md");
        }
        assert!(v["epsilon"].is_null() && v["delta"].is_null(), "{v}");
    }
}
