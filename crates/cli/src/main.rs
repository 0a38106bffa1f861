//! The `dptest` command-line tool: differentially private (and K-anonymous federated)
//! hypothesis tests over CSV files. Run `dptest --help`.

mod cli;
mod commands;
mod data;
mod engine;
mod error;
mod ledger;
mod output;

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind as ClapKind;

use crate::error::{Kind, kind_of, render};

fn main() -> ExitCode {
    quiet_gpu_probe();
    let json = std::env::args().any(|a| a == "--json");
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) if matches!(e.kind(), ClapKind::DisplayHelp | ClapKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if json => return fail(Kind::Usage, &e.to_string(), true),
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    match commands::run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(kind_of(&e), &format!("{e:#}"), json),
    }
}

/// Prints the error on stderr and exits with status 2.
fn fail(kind: Kind, message: &str, json: bool) -> ExitCode {
    eprintln!("{}", render(kind, message.trim_end(), json));
    ExitCode::from(2)
}

/// On a headless machine (no `XDG_RUNTIME_DIR`), Mesa's Vulkan device-select layer prints
/// "error: XDG_RUNTIME_DIR is invalid or not set" on every GPU probe, which reads as a
/// failure. The layer only orders GPUs for a display; the engine chooses its own adapter, so
/// it is switched off there (`NODEVICE_SELECT=1`), unless the user set that variable.
fn quiet_gpu_probe() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none()
        && std::env::var_os("NODEVICE_SELECT").is_none()
    {
        // SAFETY: the first statement of `main`, before any other thread exists, so nothing
        // reads the environment concurrently.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        super::cli::Cli::command().debug_assert();
    }
}
