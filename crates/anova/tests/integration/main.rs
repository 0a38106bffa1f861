//! The integration tests of this crate, one test binary (one link) for all of them: each
//! module is one former test file (`cargo test -p dptest-anova --test integration -- MODULE`).

mod golden;
mod nist;
mod private;
