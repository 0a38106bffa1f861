//! The integration tests of this crate, one test binary (one link) for all of them: each
//! module is one former test file (`cargo test -p dptest-refdist-gpu --test integration -- MODULE`).

mod common;
mod gpu_engine;
mod gpu_kernels;
mod shaders_validate;
mod twin_vs_refdist;
