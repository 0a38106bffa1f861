//! The privacy-budget ledger: releases are recorded per declared dataset name under a lock on
//! the ledger file itself (whatever path reaches it), and a query that would exceed the ε or δ
//! budget is refused.

use super::common::*;

fn kw_release(ledger: &str, epsilon: &str, budget: Option<&str>) -> std::process::Output {
    let flags =
        ["--epsilon", epsilon, "--draws", "200", "--ledger", ledger, "--dataset", "m", "--json"];
    let mut args = kw_args("examples/methylation.csv", &flags);
    if let Some(b) = budget {
        args.extend(["--budget", b]);
    }
    dptest(&args)
}

#[test]
fn ledger_records_and_refuses_overspending() {
    let path = temp("ledger_refuses.json");
    let ledger = path.to_str().unwrap();
    // First use needs a budget.
    let out = kw_release(ledger, "0.5", None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pass --budget"));
    // A refused first use writes nothing, not even an empty file (issue 72, item 5).
    assert!(!path.exists(), "nothing written");

    let out = kw_release(ledger, "0.5", Some("1"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ledger"]["spent"], 0.5);
    assert_eq!(v["ledger"]["remaining"], 0.5);

    let out = kw_release(ledger, "0.5", None);
    assert!(out.status.success());
    // Budget spent: the next query is refused and not recorded.
    let out = kw_release(ledger, "0.1", None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("refused"), "{stderr}");
    assert!(out.stdout.is_empty(), "no result is printed when refused");

    let shown = json(&["ledger", "show", "--ledger", ledger]);
    let datasets = shown["datasets"].as_array().unwrap();
    assert_eq!(datasets.len(), 1);
    assert_eq!(datasets[0]["spent"], 1.0);
    assert_eq!(datasets[0]["releases"].as_array().unwrap().len(), 2);
    assert_eq!(datasets[0]["releases"][0]["test"], "kruskal-wallis");
    assert_eq!(datasets[0]["key"], "name:m");
}

/// Runs every command line at once; how many released.
fn released_together(runs: &[Vec<&str>]) -> usize {
    let children: Vec<_> = runs
        .iter()
        .map(|args| {
            command()
                .args(args)
                .current_dir(root())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("the dptest binary runs")
        })
        .collect();
    children.into_iter().filter_map(|mut c| c.wait().ok()).filter(|s| s.success()).count()
}

/// A copy of examples/methylation.csv with its rows reversed and a blank line added.
fn reordered_copy(name: &str) -> std::path::PathBuf {
    let text =
        std::fs::read_to_string(root().join("examples/methylation.csv")).expect("read the example");
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    let path = temp(name);
    std::fs::write(&path, lines.join("\n") + "\n\n").expect("write the copy");
    path
}

/// examples/methylation.csv with one cell changed: a neighbouring dataset.
fn neighbour(name: &str) -> std::path::PathBuf {
    let text =
        std::fs::read_to_string(root().join("examples/methylation.csv")).expect("read the example");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let cells: Vec<&str> = lines[1].split(',').collect();
    let changed = format!("{},{}", cells[0], 0.123_456);
    lines[1] = changed;
    let path = temp(name);
    std::fs::write(&path, lines.join("\n") + "\n").expect("write the neighbour");
    path
}

#[test]
fn a_ledger_needs_a_dataset_name_before_anything_is_read() {
    let path = temp("ledger_unnamed.json");
    let ledger = path.to_str().unwrap();
    let flags = ["--epsilon", "0.5", "--ledger", ledger, "--budget", "1"];
    // The input does not exist: the refusal comes first, so it depends on the flags alone.
    let e = data_error(&kw_args("no/such/file.csv", &flags));
    assert!(e.contains("--ledger needs --dataset NAME"), "{e}");
    assert!(!path.exists(), "nothing created");
    let dir = temp("ledger_is_a_folder");
    std::fs::create_dir_all(&dir).unwrap();
    let named = ["--epsilon", "0.5", "--ledger", dir.to_str().unwrap(), "--dataset", "d"];
    let e = data_error(&kw_args("no/such/file.csv", &named));
    assert!(e.contains("not a regular file"), "{e}");
    // A public run charges nothing and needs no name.
    assert!(
        data_error(&kw_args("examples/methylation.csv", &["--public", "--ledger", ledger]))
            .contains("--public")
    );
}

/// Privacy review 3, item 2: against one ledger state, a query on D and on a neighbour of D
/// print the same ledger object and both release (the key is the declared name, never a
/// function of the cells).
#[test]
fn neighbouring_files_print_the_same_ledger_state() {
    let state = temp("ledger_state.json");
    let ledger = state.to_str().unwrap();
    let mut first = kw_args(
        "examples/methylation.csv",
        &["--epsilon", "0.5", "--draws", "200", "--ledger", ledger, "--dataset", "trial"],
    );
    first.extend(["--budget", "1"]);
    json(&first);
    let copy = neighbour("methylation_neighbour.csv");
    let mut shown = Vec::new();
    for (i, input) in ["examples/methylation.csv", copy.to_str().unwrap()].iter().enumerate() {
        let own = temp(&format!("ledger_state_{i}.json"));
        std::fs::copy(&state, &own).unwrap();
        let own = own.to_str().unwrap().to_owned();
        let flags = ["--epsilon", "0.25", "--draws", "200", "--ledger", &own, "--dataset", "trial"];
        let mut args = kw_args(input, &flags);
        if i == 1 {
            args.extend(["--groups", METHYLATION_GROUPS]);
        }
        shown.push(json(&args)["ledger"].clone());
    }
    assert_eq!(shown[0], shown[1]);
    assert_eq!(shown[0]["spent"], 0.75);
}

/// Privacy review 3, item 1: a ledger linked into a second folder (symbolic or hard link) or
/// reached by another spelling of its path is one ledger: concurrent runs through both paths
/// release exactly what the budget allows.
#[test]
fn every_path_to_a_ledger_is_one_ledger() {
    let real = temp("ledger_shared.json");
    let team = temp("ledger_team");
    std::fs::create_dir_all(&team).unwrap();
    let dotted = team.join("..").join("ledger_shared.json");
    let links = [("symlink", team.join("ledger.json")), ("hard", team.join("hard.json"))];
    for (kind, link) in &links {
        let _ = std::fs::remove_file(link);
        let _ = std::fs::remove_file(&real);
        // ε 0.4 already spent on a budget of 1 through the real path.
        fn spend(file: &str) -> Vec<&str> {
            let flags =
                ["--epsilon", "0.4", "--draws", "200", "--ledger", file, "--dataset", "trial"];
            let mut args = kw_args("examples/methylation.csv", &flags);
            args.extend(["--budget", "1"]);
            args
        }
        assert!(dptest(&spend(real.to_str().unwrap())).status.success());
        match *kind {
            "symlink" => std::os::unix::fs::symlink(&real, link).unwrap(),
            _ => std::fs::hard_link(&real, link).unwrap(),
        }
        let paths = [link.as_path(), real.as_path(), dotted.as_path()];
        let runs: Vec<Vec<&str>> = (0..6).map(|i| spend(paths[i % 3].to_str().unwrap())).collect();
        let released = released_together(&runs);
        assert_eq!(released, 1, "{kind}: one more ε = 0.4 fits in the 0.6 left");
        for path in paths {
            let shown = json(&["ledger", "show", "--ledger", path.to_str().unwrap()]);
            assert_eq!(shown["datasets"][0]["releases"].as_array().unwrap().len(), 2, "{kind}");
        }
        if *kind == "symlink" {
            assert!(std::fs::symlink_metadata(link).unwrap().file_type().is_symlink());
        }
    }
}

#[test]
fn a_declared_dataset_name_keys_the_budget_and_is_not_a_hash() {
    let path = temp("ledger_named.json");
    let ledger = path.to_str().unwrap();
    let named = ["--epsilon", "0.6", "--draws", "200", "--ledger", ledger, "--dataset", "trial-7"];
    let mut first = kw_args("examples/methylation.csv", &named);
    first.extend(["--budget", "1"]);
    let v = json(&first);
    assert_eq!(v["ledger"]["dataset"], "trial-7");
    // Another file under the same name shares the budget.
    let copy = reordered_copy("methylation_named.csv");
    let mut again = kw_args(copy.to_str().unwrap(), &named);
    again.extend(["--groups", METHYLATION_GROUPS]);
    let e = data_error(&again);
    assert!(e.contains("refused"), "{e}");
}

#[test]
fn delta_is_limited_like_epsilon() {
    let path = temp("ledger_delta.json");
    let ledger = path.to_str().unwrap();
    let run = |budget: &[&str]| {
        let flags = ["--epsilon", "1", "--statistic", "paper", "--delta", "1e-6"];
        let flags = [&flags[..], &["--ledger", ledger, "--dataset", "d"]].concat();
        let mut a = mw_args(&flags);
        a.extend_from_slice(budget);
        dptest(&a)
    };
    assert!(run(&["--budget", "10", "--delta-budget", "2e-6"]).status.success());
    assert!(run(&[]).status.success());
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("δ budget"));
}

#[test]
fn a_dataset_without_a_delta_budget_admits_only_pure_releases() {
    // The default δ budget is 0 in every front end (issue 70, item 3: R documented 0 while
    // the ledger admitted 10⁻⁵).
    let path = temp("ledger_no_delta_budget.json");
    let ledger = path.to_str().unwrap();
    let named = ["--ledger", ledger, "--dataset", "d", "--budget", "10"];
    let paper =
        [&["--epsilon", "1", "--statistic", "paper", "--delta", "1e-6"][..], &named].concat();
    let out = dptest(&mw_args(&paper));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("δ budget"));
    assert!(!path.exists(), "a refused first release writes no ledger");
    assert!(dptest(&mw_args(&[&["--epsilon", "1"][..], &named].concat())).status.success());
    // A mistyped name is told it is unknown, with the names the ledger holds.
    let typo = ["--ledger", ledger, "--dataset", "e", "--epsilon", "1"];
    let e = String::from_utf8_lossy(&dptest(&mw_args(&typo)).stderr).into_owned();
    assert!(e.contains("dataset 'e' is not in ledger") && e.contains("it holds 'd'"), "{e}");
    let shown = json(&["ledger", "show", "--ledger", ledger]);
    assert_eq!(shown["datasets"][0]["delta_budget"], 0.0);
    assert_eq!(shown["datasets"][0]["releases"].as_array().unwrap().len(), 1);
}

#[test]
fn concurrent_runs_cannot_overspend() {
    let path = temp("ledger_concurrent.json");
    let ledger = path.to_str().unwrap();
    let args = kw_args(
        "examples/methylation.csv",
        &[
            "--epsilon",
            "1",
            "--draws",
            "20000",
            "--ledger",
            ledger,
            "--budget",
            "1",
            "--dataset",
            "d",
        ],
    );
    let released = released_together(&[args.clone(), args.clone(), args]);
    assert_eq!(released, 1, "exactly one of three ε = 1 runs fits a budget of 1");
    let shown = json(&["ledger", "show", "--ledger", ledger]);
    assert_eq!(shown["datasets"][0]["releases"].as_array().unwrap().len(), 1);
}

#[test]
fn non_dp_outputs_are_never_charged() {
    let path = temp("ledger_hu.json");
    let ledger = path.to_str().unwrap();
    let e = data_error(&paired_args(
        "task-clifton",
        &[
            "--epsilon",
            "1",
            "--variant",
            "high-utility",
            "--ledger",
            ledger,
            "--dataset",
            "d",
            "--budget",
            "1",
        ],
    ));
    assert!(e.contains("not DP"), "{e}");
    assert!(!path.exists());
}

#[test]
fn budget_cannot_be_changed_and_public_is_refused() {
    let path = temp("ledger_fixed.json");
    let ledger = path.to_str().unwrap();
    assert!(kw_release(ledger, "0.2", Some("1")).status.success());
    let out = kw_release(ledger, "0.2", Some("5"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot change"));
    let e = data_error(&kw_args("examples/methylation.csv", &["--public", "--ledger", ledger]));
    assert!(e.contains("--public"), "{e}");
}

#[test]
fn show_missing_ledger_is_an_error() {
    let path = temp("ledger_absent.json");
    let e = data_error(&["ledger", "show", "--ledger", path.to_str().unwrap()]);
    assert!(e.contains("does not exist"), "{e}");
}
