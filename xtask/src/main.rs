//! `cargo xtask`: tables, calibrate, power, federated-sim, bench.

fn main() {}
