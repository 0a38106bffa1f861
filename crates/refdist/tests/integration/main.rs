//! The integration tests of this crate, one test binary (one link) for all of them: each
//! module is one former test file (`cargo test -p dptest-refdist --test integration -- MODULE`).

mod exact_vs_cpu;
mod size_envelope_study;
mod table3;
