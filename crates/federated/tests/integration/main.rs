//! The integration tests of this crate, one test binary (one link) for all of them: each
//! module is one former test file (`cargo test -p dptest-federated --test integration -- MODULE`).

mod differencing;
mod golden;
mod journal;
mod performance;
mod properties;
mod simulation;
