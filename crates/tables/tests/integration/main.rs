//! The integration tests of this crate, one test binary (one link) for all of them: each
//! module is one former test file (`cargo test -p dptest-tables --test integration -- MODULE`).

mod constants_come_from_the_tests;
mod exact_vs_monte_carlo;
mod paper_table_3;
