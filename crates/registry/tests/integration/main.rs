//! The integration tests of this crate, one test binary (one link) for all of them: each
//! module is one former test file (`cargo test -p dptest-registry --test integration -- MODULE`).

mod paired_order;
mod release_hooks;
mod summaries;
