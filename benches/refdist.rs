//! Criterion benches for the reference-distribution engines.
fn main() {}
