//! Every `dptest` command the README, examples/README.md and `--help` show runs as written
//! (in a scratch folder holding a copy of examples/, so files they write land there).

use std::path::Path;

use super::common::*;

/// The `dptest …` lines of the ```sh blocks of a Markdown file (`cargo run --release -p
/// dptest-cli --` counts as `dptest`), comments stripped.
fn markdown_commands(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(file)).expect("read the doc");
    let mut in_sh = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_sh = line.trim() == "```sh";
            continue;
        }
        let line = line.split(" #").next().unwrap_or("").trim();
        let line = line.replacen("cargo run --release -p dptest-cli -- ", "dptest ", 1);
        if in_sh && line.starts_with("dptest ") {
            out.push(line);
        }
    }
    out
}

/// The `dptest …` example lines of a `--help` text.
fn help_commands(args: &[&str]) -> Vec<String> {
    let mut all = args.to_vec();
    all.push("--help");
    ok(&all)
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("dptest "))
        .map(str::to_owned)
        .collect()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

#[test]
fn every_documented_command_runs_as_written() {
    let scratch = temp("doc-commands");
    let _ = std::fs::remove_dir_all(&scratch);
    copy_dir(&root().join("examples"), &scratch.join("examples"));
    // README's `mkdir -p out`: its commands write their files there.
    std::fs::create_dir_all(scratch.join("out")).expect("mkdir out");
    let mut commands = markdown_commands("README.md");
    commands.extend(markdown_commands("examples/README.md"));
    commands.extend(help_commands(&[]));
    let subcommands = [
        "kruskal-wallis",
        "mann-whitney",
        "wilcoxon",
        "t-test",
        "anova",
        "task-clifton",
        "critical-value",
        "plan",
    ];
    for sub in subcommands {
        commands.extend(help_commands(&[sub]));
    }
    assert!(commands.len() > 20, "found only {} commands", commands.len());
    for line in &commands {
        let args: Vec<&str> = line.split_whitespace().skip(1).collect();
        let out = command().args(&args).current_dir(&scratch).output().expect("run");
        assert!(out.status.success(), "`{line}` failed: {}", String::from_utf8_lossy(&out.stderr));
    }
}
