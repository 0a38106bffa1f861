//! The `dptest` command-line tool: differentially private (and K-anonymous federated)
//! hypothesis tests over CSV files. Run `dptest --help`.

mod cli;
mod commands;
mod data;
mod engine;
mod ledger;
mod output;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match commands::run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let message = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
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
