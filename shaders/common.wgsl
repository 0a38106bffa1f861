// common.wgsl — parameters, shared bindings, draw indices and keys for the Monte Carlo kernels.
//
// CPU twin: crates/refdist-gpu/src/cpu_twin/common.rs. Every module is
// philox.wgsl + common.wgsl + <model>.wgsl + <operation>.wgsl.

struct Params {
    seed_lo: u32,
    seed_hi: u32,
    // Global index of this dispatch's first draw (lo, hi): results never depend on chunking.
    first_lo: u32,
    first_hi: u32,
    count: u32,
    // 0 upper (key = s), 1 lower (key = -s), 2 two-sided (key = |s + center|).
    tail: u32,
    // p_value_count: slot of this dispatch's counter. sample: output offset (draws).
    slot: u32,
    // quantile_tail: the boundary bin (top 16 bits of the order key).
    boundary: u32,
    // p_value_count: count tail keys >= this (already rounded up to f32 on the host).
    threshold: f32,
    // The statistic is s + center; kernels compute the shifted s exactly where possible.
    center: f32,
    cap: u32,
    n: u32,
    groups: u32,
    kind: u32,
    pad0: u32,
    pad1: u32,
    p0: f32,
    p1: f32,
    p2: f32,
    p3: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sizes: array<u32>;

const WORKGROUP: u32 = 256u;

// One draw's result: shifted statistic, an auxiliary float, two integer parts.
struct Draw {
    s: f32,
    aux: f32,
    i0: u32,
    i1: u32,
}

fn seed_key() -> vec2<u32> {
    return vec2<u32>(params.seed_lo, params.seed_hi);
}

// Global draw index (lo, hi) of local index i, with the carry into the high word.
fn draw_index(i: u32) -> vec2<u32> {
    let lo = params.first_lo + i;
    let hi = params.first_hi + select(0u, 1u, lo < i);
    return vec2<u32>(lo, hi);
}

// The value whose upper tail is extreme.
fn tail_key(s: f32) -> f32 {
    if (params.tail == 1u) {
        return -s;
    }
    if (params.tail == 2u) {
        return abs(s + params.center);
    }
    return s;
}

// Order-preserving u32 key of a finite f32 (-0 is mapped to +0 first).
fn order_key(x: f32) -> u32 {
    let y = select(x, 0.0, x == 0.0);
    let b = bitcast<u32>(y);
    return select(b | 0x80000000u, ~b, (b >> 31u) == 1u);
}
