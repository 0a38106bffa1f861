//! The integration tests of this crate, one test binary (one link) for all of them: each
//! module is one former test file (`cargo test -p dptest-kruskal-wallis --test integration -- MODULE`).

mod bad_input;
mod calibration;
mod golden;
mod performance;
mod seeded_ties;
