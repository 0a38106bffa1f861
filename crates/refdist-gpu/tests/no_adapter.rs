//! Without any usable adapter, `gpu` is a clear error and `auto` falls back to the CPU engine.
//! (This binary holds one test only: it changes the process environment.)

use dptest_refdist::Engine;
use dptest_refdist_gpu::{Backend, GpuError, select_engine};

#[test]
fn gpu_without_an_adapter_is_a_clear_error() {
    // This build has no GL backend, so asking wgpu for GL only leaves no adapter at all.
    // SAFETY: the only test of this binary; nothing else reads the environment concurrently.
    unsafe { std::env::set_var("WGPU_BACKEND", "gl") };
    let error = select_engine(Backend::Gpu).unwrap_err();
    assert!(matches!(error, GpuError::NoAdapter(_)), "{error}");
    assert!(error.to_string().contains("no GPU adapter"), "{error}");
    assert!(error.to_string().contains("cpu backend"), "{error}");
    let auto = select_engine(Backend::Auto).unwrap();
    assert_eq!(auto.engine.name(), "cpu", "{}", auto.reason);
    assert!(auto.reason.contains("no GPU adapter"), "{}", auto.reason);
}
