//! End-to-end tests of the `dptest` binary (one test target, so it links once): the examples
//! against scipy golden values (testdata/cli.toml), malformed files, the ledger, federated flow.

mod common;
mod doc_commands;

mod errors;
mod federated;
mod intervals;
mod kruskal_wallis;
mod ledger;
mod mann_whitney;
mod other_commands;
mod parquet;
mod privacy_boundary;
mod sign;
mod t_test;
mod usability;
mod wilcoxon;
