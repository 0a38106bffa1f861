//! What a user meets at the edges: closed pipes, stdin, delimiters, duplicated headers, JSON
//! errors, warnings about resolution and noise, natural group order.

use std::io::Write as _;
use std::process::Stdio;

use super::common::*;

fn file(name: &str, text: &str) -> String {
    let path = temp(name);
    std::fs::write(&path, text).expect("write");
    path.to_str().expect("utf-8").to_owned()
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let mut child = command()
        .args(kw_args("examples/methylation.csv", &["--public"]))
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take()); // like `| head -0`
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked") && out.status.code() != Some(101), "{stderr}");
}

#[test]
fn standard_input_and_other_delimiters() {
    let text = std::fs::read_to_string(root().join("examples/methylation.csv")).expect("read");
    let mut child = command()
        .args(["kruskal-wallis", "--input", "-", "--group", "group", "--value", "value"])
        .args(["--public", "--json"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    let from_stdin: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let from_file = json(&kw_args("examples/methylation.csv", &["--public"]));
    assert_eq!(from_stdin["statistic"], from_file["statistic"]);

    let semi = file("semicolon.csv", &text.replace(',', ";"));
    let e = data_error(&kw_args(&semi, &["--public"]));
    assert!(e.contains("--delimiter ';'"), "{e}");
    let v = json(&kw_args(&semi, &["--public", "--delimiter", ";"]));
    assert_eq!(v["statistic"], from_file["statistic"]);
}

#[test]
fn a_duplicated_header_is_an_error() {
    let dup = file("dup_header.csv", "group,value,value\na,1,9\nb,2,8\n");
    let e = data_error(&kw_args(&dup, &["--public"]));
    assert!(e.contains("'value' twice"), "{e}");
}

#[test]
fn json_errors_have_a_stable_kind() {
    let cases: [(&[&str], &str); 3] = [
        (
            &[
                "kruskal-wallis",
                "--input",
                "no-such.csv",
                "--group",
                "g",
                "--value",
                "v",
                "--public",
            ],
            "input",
        ),
        (&["kruskal-wallis", "--no-such-flag"], "usage"),
        (&["critical-value", "wilcoxon", "--n", "0", "--epsilon", "1"], "invalid_argument"),
    ];
    for (args, kind) in cases {
        let mut all = args.to_vec();
        all.push("--json");
        let out = dptest(&all);
        assert_eq!(out.status.code(), Some(2));
        let v: serde_json::Value = serde_json::from_slice(&out.stderr).expect("stderr is JSON");
        assert_eq!(v["error"]["kind"], kind, "{v}");
        assert!(v["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
}

#[test]
fn monte_carlo_p_values_carry_their_precision() {
    let v = json(&kw_args("examples/methylation.csv", &["--epsilon", "1", "--draws", "400"]));
    let (p, se) = (v["p_value"].as_f64().expect("p"), v["p_value_se"].as_f64().expect("se"));
    assert!((se - (p * (1.0 - p) / 400.0).sqrt()).abs() < 1e-12);
    let warnings = v["warnings"].as_array().expect("few draws warn");
    assert!(
        warnings.iter().any(|w| w
            .as_str()
            .is_some_and(|w| w.contains("resolves") || w.contains("1/(draws + 1)"))),
        "{v}"
    );
    let human = ok(&kw_args("examples/methylation.csv", &["--epsilon", "1", "--draws", "1"]));
    assert!(human.contains("1 draw,") && !human.contains("1 draws"), "{human}");
}

#[test]
fn an_all_noise_release_is_flagged() {
    let v = json(&kw_args("examples/methylation.csv", &["--epsilon", "1e-12", "--draws", "2000"]));
    let warnings = v["warnings"].as_array().expect("warnings");
    assert!(warnings.iter().any(|w| w.as_str().is_some_and(|w| w.contains("pure noise"))), "{v}");
    let quiet = json(&kw_args("examples/methylation.csv", &["--epsilon", "1", "--draws", "2000"]));
    assert!(!quiet.to_string().contains("pure noise"));
}

#[test]
fn the_t_test_flags_no_power() {
    let v = json(&paired_args("t-test", &["--epsilon", "1", "--bounds=-20,20", "--draws", "200"]));
    // The default Z stays informative when s̃² ≤ 0; only T̃ methods lose their power then.
    assert_eq!(v["no_power"], false, "{v}");
    assert_eq!(v["method"]["kind"], "noise_studentized");
    assert!(v["paper_statistic"].as_f64().is_some());
}

#[test]
fn public_group_order_is_natural() {
    let f = file("numbered_groups.csv", "g,v\n10,1\n9,2\n10,3\n9,4\n10,5\n9,6\n");
    let v = json(&["mann-whitney", "--input", &f, "--group", "g", "--value", "v", "--public"]);
    assert_eq!(v["group_labels"], serde_json::json!(["9", "10"]));
    let v = json(&[
        "mann-whitney",
        "--input",
        &f,
        "--group",
        "g",
        "--value",
        "v",
        "--public",
        "--groups",
        "10,9",
    ]);
    assert_eq!(v["group_labels"], serde_json::json!(["10", "9"]));
}

#[test]
fn the_wilcoxon_output_names_the_reference_that_ran() {
    let base = paired_args("wilcoxon", &["--epsilon", "1"]);
    let normal = ok(&[&base[..], &["--reference", "normal"]].concat());
    assert!(
        normal.contains("normal ⊕ Laplace reference") && !normal.contains("(exact reference)"),
        "{normal}"
    );
    let v = json(&base);
    assert_eq!(v["reference"]["distribution"], "zero-robust signed-rank ⊕ Laplace");
}

#[test]
fn the_wilcoxon_default_releases_at_any_n_and_names_its_law() {
    let rows: String = (0..3000).map(|i| format!("{},{}\n", i % 17, (i * 7) % 19)).collect();
    let f = file("paired_3000.csv", &format!("before,after\n{rows}"));
    let v = json(&[
        "wilcoxon",
        "--input",
        &f,
        "--before",
        "before",
        "--after",
        "after",
        "--epsilon",
        "8",
    ]);
    assert_eq!(v["reference_law"], "zero_robust_normal_limit", "{v}");
    assert_eq!(v["reference"]["distribution"], "zero-robust normal limit ⊕ Laplace");
}

#[test]
fn the_wilcoxon_default_releases_at_any_epsilon() {
    // Above ε = 10 at n ≤ 400 the exact zero-robust reference is not validated: the release
    // uses ε = 10 (a public rule) instead of refusing.
    let v = json(&paired_args("wilcoxon", &["--epsilon", "20"]));
    assert_eq!(v["epsilon"], 10.0, "{v}");
    assert_eq!(v["epsilon_requested"], 20.0);
    assert!(v["warnings"].to_string().contains("validated up to"), "{v}");
    let normal = json(&paired_args("wilcoxon", &["--epsilon", "20", "--reference", "normal"]));
    assert_eq!(normal["epsilon"], 20.0);
}
