// philox.wgsl — Philox4x32-10, per-draw counter streams and the f32 transforms.
//
// Shared by every kernel (prepended to each module). CPU twin:
// crates/refdist-gpu/src/cpu_twin/philox.rs, i.e. dptest_refdist::{philox4x32_10, DrawStream,
// transforms} (whose ln/sin/cos are crates/refdist/src/fastmath.rs, mirrored below).
//
// Counter layout (ARCHITECTURE.md, "Two kinds of randomness"): key = (seed_lo, seed_hi),
// counter = (draw_lo, draw_hi, block, kernel_tag). WGSL has no u64: the draw index's high word
// is carried explicitly.

const PHILOX_M0: u32 = 0xD2511F53u;
const PHILOX_M1: u32 = 0xCD9E8D57u;
const PHILOX_W0: u32 = 0x9E3779B9u;
const PHILOX_W1: u32 = 0xBB67AE85u;

// 32x32 -> 64-bit product as (hi, lo), from 16-bit halves (no u64 in WGSL).
fn mulhilo(a: u32, b: u32) -> vec2<u32> {
    let a_lo = a & 0xFFFFu;
    let a_hi = a >> 16u;
    let b_lo = b & 0xFFFFu;
    let b_hi = b >> 16u;
    let ll = a_lo * b_lo;
    let lh = a_lo * b_hi;
    let hl = a_hi * b_lo;
    let hh = a_hi * b_hi;
    let mid = (ll >> 16u) + (lh & 0xFFFFu) + (hl & 0xFFFFu);
    let hi = hh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
    return vec2<u32>(hi, a * b);
}

fn philox_round(c: vec4<u32>, k: vec2<u32>) -> vec4<u32> {
    let p0 = mulhilo(PHILOX_M0, c.x);
    let p1 = mulhilo(PHILOX_M1, c.z);
    return vec4<u32>(p1.x ^ c.y ^ k.x, p1.y, p0.x ^ c.w ^ k.y, p0.y);
}

fn philox4x32_10(ctr: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
    var c = ctr;
    var k = key;
    for (var r = 0u; r < 9u; r++) {
        c = philox_round(c, k);
        k = k + vec2<u32>(PHILOX_W0, PHILOX_W1);
    }
    return philox_round(c, k);
}

// The random words of one draw: blocks 0, 1, 2, ... of counter (draw, block, tag).
struct Stream {
    key: vec2<u32>,
    ctr: vec4<u32>,
    buf: vec4<u32>,
    used: u32,
}

fn stream_new(key: vec2<u32>, tag: u32, draw: vec2<u32>) -> Stream {
    return Stream(key, vec4<u32>(draw.x, draw.y, 0u, tag), vec4<u32>(0u), 4u);
}

// The next whole block, skipping unread words of the current one.
fn stream_block(s: ptr<function, Stream>) -> vec4<u32> {
    let b = philox4x32_10((*s).ctr, (*s).key);
    (*s).ctr.z = (*s).ctr.z + 1u;
    (*s).used = 4u;
    return b;
}

// The next word; four per block, in order.
fn stream_u32(s: ptr<function, Stream>) -> u32 {
    if ((*s).used == 4u) {
        (*s).buf = philox4x32_10((*s).ctr, (*s).key);
        (*s).ctr.z = (*s).ctr.z + 1u;
        (*s).used = 0u;
    }
    let w = (*s).buf[(*s).used];
    (*s).used = (*s).used + 1u;
    return w;
}

const TWO_POW_M24: f32 = 5.9604644775390625e-8;
const TWO_POW_M23: f32 = 1.1920928955078125e-7;

// Uniform on [0, 1) from the top 24 bits (exact).
fn uniform01(w: u32) -> f32 {
    return f32(w >> 8u) * TWO_POW_M24;
}

// Uniform on (0, 1] from the top 24 bits (exact, never 0: safe for log).
fn uniform_open_zero(w: u32) -> f32 {
    return f32((w >> 8u) + 1u) * TWO_POW_M24;
}

// ---- f32 ln, sin, cos: mirror of crates/refdist/src/fastmath.rs -------------------------
// S. L. Moshier's Cephes logf/sinf/cosf polynomials with an exact integer reduction of the
// Box-Muller angle, using only +, -, *, int<->float conversions and bit moves, so the GPU
// reproduces the CPU's values except where the shader compiler fuses a*b+c (WGSL allows it).
// Constants are given by their exact f32 bits.

// (naga cannot yet evaluate bitcast in `const` declarations, so the bits sit inline.)

// Natural log of a positive normal f32 (Cephes logf): x = m*2^e, m in [sqrt(1/2), sqrt(2)).
fn fm_ln(x: f32) -> f32 {
    let bits = bitcast<u32>(x);
    let m = bitcast<f32>((bits & 0x007fffffu) | 0x3f000000u);
    let small = m < bitcast<f32>(0x3f3504f3u); // sqrt(1/2)
    let e = i32(bits >> 23u) - 126 - select(0, 1, small);
    let f = select(m - 1.0, m + m - 1.0, small);
    let z = f * f;
    var y = bitcast<f32>(0x3d9021bbu) * f - bitcast<f32>(0x3debd1b8u);
    y = y * f + bitcast<f32>(0x3def251bu);
    y = y * f - bitcast<f32>(0x3dfe5d4fu);
    y = y * f + bitcast<f32>(0x3e11e9bfu);
    y = y * f - bitcast<f32>(0x3e2aae50u);
    y = y * f + bitcast<f32>(0x3e4cceacu);
    y = y * f - bitcast<f32>(0x3e7ffffcu);
    y = y * f + bitcast<f32>(0x3eaaaaaau);
    y = y * f * z;
    let ef = f32(e);
    y += -bitcast<f32>(0x395e8083u) * ef;
    y += -0.5 * z;
    return (f + y) + bitcast<f32>(0x3f318000u) * ef;
}

// sin for |x| <= pi/4 (Cephes sinf polynomial).
fn fm_sin_reduced(x: f32) -> f32 {
    let z = x * x;
    return ((-bitcast<f32>(0x394ca1f9u) * z + bitcast<f32>(0x3c08839eu)) * z
        - bitcast<f32>(0x3e2aaaa3u)) * z * x + x;
}

// cos for |x| <= pi/4 (Cephes cosf polynomial).
fn fm_cos_reduced(x: f32) -> f32 {
    let z = x * x;
    return ((bitcast<f32>(0x37ccf5ceu) * z - bitcast<f32>(0x3ab6061au)) * z
        + bitcast<f32>(0x3d2aaaa5u)) * z * z - 0.5 * z + 1.0;
}

// The angle t = 2*pi*u - pi (u = top 24 bits * 2^-24) reduced exactly in integers:
// k = word >> 8 = q*2^22 + r, q the nearest quarter turn, |r| <= 2^21; returns (q & 3, theta).
struct Turn {
    quarter: u32,
    theta: f32,
}

fn fm_reduce(word: u32) -> Turn {
    let k = word >> 8u;
    let q = (k + (1u << 21u)) >> 22u;
    let r = i32(k) - i32(q << 22u);
    return Turn(q & 3u, f32(r) * bitcast<f32>(0x34c90fdbu)); // 2*pi*2^-24
}

// cos(2*pi*u - pi) = -cos(q*pi/2 + theta).
fn fm_cos_turn(word: u32) -> f32 {
    let t = fm_reduce(word);
    let value = select(fm_cos_reduced(t.theta), fm_sin_reduced(t.theta), (t.quarter & 1u) == 1u);
    let negate = ((t.quarter + 1u) & 2u) == 0u;
    return bitcast<f32>(bitcast<u32>(value) ^ (select(0u, 1u, negate) << 31u));
}

// sin(2*pi*u - pi) = -sin(q*pi/2 + theta).
fn fm_sin_turn(word: u32) -> f32 {
    let t = fm_reduce(word);
    let value = select(fm_sin_reduced(t.theta), fm_cos_reduced(t.theta), (t.quarter & 1u) == 1u);
    let negate = (t.quarter & 2u) == 0u;
    return bitcast<f32>(bitcast<u32>(value) ^ (select(0u, 1u, negate) << 31u));
}

// Box-Muller: (r cos t, r sin t), r = sqrt(-2 ln u1), t = 2 pi u2 - pi.
fn box_muller(w1: u32, w2: u32) -> vec2<f32> {
    let r = sqrt(-2.0 * fm_ln(uniform_open_zero(w1)));
    return vec2<f32>(r * fm_cos_turn(w2), r * fm_sin_turn(w2));
}

// Standard Laplace by inverse CDF from 23 bits; u is exact and never 0.
fn laplace(w: u32) -> f32 {
    let u = (f32(w >> 9u) + 0.5) * TWO_POW_M23 - 0.5;
    let m = -fm_ln(1.0 - 2.0 * abs(u));
    return select(m, -m, u < 0.0);
}

// Uniform integer in [0, bound) by Lemire's multiply-high (integer-only: bit-exact).
fn below(w: u32, bound: u32) -> u32 {
    return mulhilo(w, bound).x;
}
