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

#[test]
fn public_groups_select_a_subset_and_private_runs_refuse_it() {
    let text = std::fs::read_to_string(root().join("examples/methylation.csv")).expect("read");
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    let kept: Vec<&str> = lines.clone().filter(|l| !l.starts_with("schizophrenia,")).collect();
    let left_out = lines.count() - kept.len();
    let subset = file("methylation-two-groups.csv", &format!("{header}\n{}\n", kept.join("\n")));
    let args = |input: &str| {
        let mut a = vec!["mann-whitney", "--input", input, "--group", "group"];
        a.extend(["--value", "value", "--groups", "bipolar,control", "--public"]);
        a.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let whole = args("examples/methylation.csv");
    let selected = json(&whole.iter().map(String::as_str).collect::<Vec<_>>());
    let own_file = json(&args(&subset).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(selected["statistic"], own_file["statistic"]);
    assert_eq!(selected["p_value"], own_file["p_value"]);
    assert_eq!(selected["input"]["other_group_rows"], left_out);
    assert!(own_file["input"].get("other_group_rows").is_none());
    let human = ok(&whole.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(human.contains(&format!("{left_out} row(s) of other groups left out")), "{human}");
    let private = data_error(&[
        "kruskal-wallis",
        "--input",
        "examples/methylation.csv",
        "--group",
        "group",
        "--value",
        "value",
        "--groups",
        "bipolar,control",
        "--epsilon",
        "1",
    ]);
    assert!(private.contains("A private test cannot leave rows out"), "{private}");
    assert!(private.contains("--public runs select groups with --groups"), "{private}");
}

#[test]
fn a_european_csv_is_read_with_decimal_commas_and_diagnosed_without_them() {
    let text = "group;value\na;4,17\na;3,5\na;5,25\nb;6,0\nb;7,75\nb;6,5\n";
    let path = file("european.csv", text);
    let base = ["kruskal-wallis", "--input", &path, "--group", "group", "--value", "value"];
    let plain = [&base[..], &["--public", "--delimiter", ";"]].concat();
    let e = data_error(&plain);
    assert!(e.contains("'4,17' is not a number") && e.contains("--decimal ','"), "{e}");
    assert!(!e.contains("--drop-missing"), "a format problem is not missing data: {e}");
    let read = json(&[&plain[..], &["--decimal", ","]].concat());
    let dots = file("points.csv", &text.replace(',', ".").replace(';', ","));
    let want = json(&[
        "kruskal-wallis",
        "--input",
        &dots,
        "--group",
        "group",
        "--value",
        "value",
        "--public",
    ]);
    assert_eq!(read["statistic"], want["statistic"]);
    assert_eq!(read["p_value"], want["p_value"]);
    let missing = file("missing.csv", "group,value\na,1\na,\nb,2\nb,3\na,4\n");
    let e = data_error(&[
        "kruskal-wallis",
        "--input",
        &missing,
        "--group",
        "group",
        "--value",
        "value",
        "--groups",
        "a,b",
        "--epsilon",
        "1",
    ]);
    assert!(e.contains("a private run cannot"), "private advice that works: {e}");
}

#[test]
fn the_private_wilcoxon_refuses_a_zero_method_it_does_not_use() {
    let e = data_error(&paired_args("wilcoxon", &["--epsilon", "1", "--zero-method", "wilcox"]));
    assert!(e.contains("ranks zero differences by Pratt's method"), "{e}");
    ok(&paired_args("wilcoxon", &["--epsilon", "1", "--zero-method", "pratt"]));
    let public = json(&paired_args("wilcoxon", &["--public", "--zero-method", "zsplit"]));
    assert_eq!(public["zero_method"], "zsplit");
}

#[test]
fn a_headless_gpu_probe_prints_no_mesa_error() {
    // Where Mesa's Vulkan drivers are installed (CI's lavapipe), its device-select layer
    // printed "error: XDG_RUNTIME_DIR is invalid or not set" on every probe without this.
    let out = command()
        .args(kw_args("examples/methylation.csv", &["--epsilon", "1"]))
        .current_dir(root())
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("NODEVICE_SELECT")
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("XDG_RUNTIME_DIR"), "{stderr}");
}

#[test]
fn plan_takes_honest_t_test_bounds_and_shows_the_public_n() {
    let base = ["plan", "--test", "t-test", "--effect", "1", "--epsilon", "1", "--reps", "100"];
    let paper = json(&base);
    let honest = json(&[&base[..], &["--bounds=-10,10", "--sd", "1.2"]].concat());
    assert!(honest["n"].as_u64() > paper["n"].as_u64(), "{honest} vs {paper}");
    assert_eq!(honest["public_n"]["n"], 10, "Guenther's n at δ = 1");
    assert_eq!(honest["sd"], 1.2);
    let text = ok(&[&base[..], &["--bounds=-10,10", "--sd", "1.2"]].concat());
    assert!(!text.contains("data:"), "a plan reads no data: {text}");
    assert!(text.contains("data sd = 0.12 of the half-range"), "{text}");
    let e = data_error(&[&base[..], &["--bounds=-1,1", "--sd", "3"]].concat());
    assert!(e.contains("at most half the width"), "{e}");
}

#[test]
fn plan_takes_the_mann_whitney_design() {
    let base =
        ["plan", "--test", "mann-whitney", "--effect", "0.8", "--epsilon", "1", "--reps", "100"];
    let equal = json(&base);
    let unequal = json(&[&base[..], &["--smaller-share", "0.1"]].concat());
    let known = json(&[&base[..], &["--smaller-share", "0.1", "--known-sizes"]].concat());
    let n = |v: &serde_json::Value| v["n"].as_u64().expect("n");
    assert!(n(&unequal) > n(&equal) && n(&known) < n(&unequal), "{equal} {unequal} {known}");
    assert!(unequal["public_n"]["n"].as_u64() > equal["public_n"]["n"].as_u64());
    let e = data_error(&[
        "plan",
        "--test",
        "wilcoxon",
        "--effect",
        "1",
        "--epsilon",
        "1",
        "--known-sizes",
    ]);
    assert!(e.contains("Mann–Whitney"), "{e}");
    let kw =
        ["plan", "--test", "kruskal-wallis", "--effect", "2", "--epsilon", "1", "--reps", "100"];
    let small = json(&[&kw[..], &["--smaller-share", "0.1"]].concat());
    let equal = json(&kw);
    assert!(small["n"].as_u64().is_some(), "{small}");
    assert!(small["public_n"]["n"].as_u64() > equal["public_n"]["n"].as_u64(), "{small}");
}

#[test]
fn declared_group_names_are_trimmed() {
    let spaced = json(&kw_args("examples/methylation.csv", &["--public"]));
    let mut args =
        vec!["kruskal-wallis", "--input", "examples/methylation.csv", "--group", "group"];
    args.extend(["--value", "value", "--groups", "bipolar, control , schizophrenia", "--public"]);
    assert_eq!(json(&args)["statistic"], spaced["statistic"]);
}

#[test]
fn each_command_lists_only_the_options_it_uses() {
    let options = |args: &[&str]| -> Vec<String> {
        ok(args)
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("--"))
            .map(|l| l.split([' ', '<']).next().unwrap_or_default().to_owned())
            .collect()
    };
    let engine = ["draws", "seed", "backend", "alpha", "report"];
    for command in [
        &["ledger", "show", "--help"][..],
        &["federated", "bin", "--help"],
        &["federated", "test", "--help"],
        &["federated", "combine", "--help"],
    ] {
        let listed = options(command);
        assert!(listed.contains(&"json".to_owned()), "{command:?}: {listed:?}");
        for name in engine {
            assert!(!listed.contains(&name.to_owned()), "{command:?} lists --{name}");
        }
    }
    let plan = options(&["plan", "--help"]);
    assert!(plan.contains(&"draws".to_owned()) && !plan.contains(&"backend".to_owned()));
    let critical = options(&["critical-value", "--help"]);
    assert!(critical.contains(&"backend".to_owned()) && !critical.contains(&"report".to_owned()));
    for name in engine {
        assert!(options(&["kruskal-wallis", "--help"]).contains(&name.to_owned()), "--{name}");
    }
    // An option a command does not use is an error there, not silently ignored.
    let message = fails(&["ledger", "show", "--ledger", "x.json", "--draws", "5"]);
    assert!(message.contains("unexpected argument '--draws'"), "{message}");
}

/// The reference seed of three runs of `args` (a `reference.seed` field each).
fn reference_seeds(args: &[&str]) -> Vec<u64> {
    (0..3).map(|_| json(args)["reference"]["seed"].as_u64().expect("a reference seed")).collect()
}

#[test]
fn each_release_simulates_its_reference_afresh_unless_a_seed_is_given() {
    // One seed for every run kept one Monte Carlo error for ever (issue 70, item 2): a
    // release's reference now takes a fresh seed from the OS CSPRNG, which it reports.
    let draws = ["--epsilon", "1", "--draws", "200"];
    let kw = kw_args("examples/methylation.csv", &draws);
    let t = paired_args("t-test", &["--epsilon", "1", "--bounds=-20,20", "--draws", "200"]);
    let tc = paired_args(
        "task-clifton",
        &["--epsilon", "1", "--variant", "high-utility-plus", "--draws", "200"],
    );
    // ANOVA reads the same columns as Kruskal–Wallis, with bounds.
    let mut anova = kw_args("examples/methylation.csv", &["--bounds", "0,1", "--epsilon", "1"]);
    anova[0] = "anova";
    anova.extend(["--draws", "200"]);
    for args in [&kw[..], &t[..], &tc[..], &anova[..]] {
        let seeds = reference_seeds(args);
        // Three draws of 64 bits collide with probability below 2⁻⁶².
        assert!(seeds[0] != seeds[1] && seeds[1] != seeds[2] && seeds[0] != seeds[2], "{args:?}");
        let given: Vec<&str> = args.iter().copied().chain(["--seed", "17"]).collect();
        assert_eq!(reference_seeds(&given), [17, 17, 17], "{args:?}");
    }
}

#[test]
fn negative_numbers_are_refused_with_their_rule_and_a_huge_epsilon_is_flagged() {
    // clap took "-1" for an unknown flag (issue 72, item 5).
    let kw = kw_args("examples/methylation.csv", &["--epsilon", "-1"]);
    let e = fails(&kw);
    assert!(e.contains("'-1' is not a finite number > 0"), "{e}");
    let k =
        paired_args("task-clifton", &["--epsilon", "1", "--variant", "high-privacy", "--k", "-5"]);
    let e = fails(&k);
    assert!(e.contains("'-5' is not a whole number"), "{e}");
    let v = json(&kw_args("examples/methylation.csv", &["--epsilon", "1e6", "--draws", "2000"]));
    let warnings = v["warnings"].as_array().expect("warnings");
    assert!(warnings.iter().any(|w| w.as_str().is_some_and(|w| w.contains("not private"))), "{v}");
    let quiet = json(&kw_args("examples/methylation.csv", &["--epsilon", "10", "--draws", "2000"]));
    assert!(!quiet.to_string().contains("not private"), "{quiet}");
}
