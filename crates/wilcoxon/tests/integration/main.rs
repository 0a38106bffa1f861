//! The integration tests of this crate, one test binary (one link) for all of them: each
//! module is one former test file (`cargo test -p dptest-wilcoxon --test integration -- MODULE`).

mod scipy_auto;
mod scipy_methods;
