//! The size envelope of the three-group KW-abs null: a monotone map of the statistic under
//! which the equal-groups law becomes, in the large-n limit, the supremum over every split of
//! n into three groups at every tail point.
//!
//! In the limit the centred rank sums of groups with shares p = (p₁, p₂, p₃) are √(n²(n+1)/12)
//! times the increments Z of a Brownian bridge over cells of lengths p, and KW-abs is
//! `c_n·√(n²(n+1)/12)·Σ|Zᵢ|`. Equal thirds maximise P(Σ|Z| ≥ y) down to tail
//! probabilities of about 0.007, but not beyond: there the worst designs move towards two
//! halves (p ≈ (0.46, 0.46, 0.08) at 10⁻⁵). With S(y) = sup_p P_p(Σ|Z| ≥ y) and P₌ the equal
//! design's tail, [`envelope_map`] is φ = S⁻¹ ∘ P₌: a reference drawing φ(Σ|Z|) under equal
//! sizes has tail S, so its p-values are valid for every size vector, and φ is the identity
//! wherever equal thirds are already the worst case.
//!
//! - [`three_group_tail`]: P_p(Σ|Z| ≥ y), by one-dimensional Gauss–Legendre quadrature.
//! - [`envelope_tail`]: S(y), the supremum over the symmetric designs (q, q, 1 − 2q) (a grid,
//!   then Brent's bounded refinement, [`crate::optimize::minimize_bounded`]); that no other
//!   design exceeds it is checked on a
//!   two-dimensional grid by this module's tests.
//! - [`envelope_map`]: φ from the knots in `size_envelope_knots.rs`, computed by
//!   `cargo xtask size-envelope` from [`envelope_knot`] and checked against it by a test.

use crate::optimize::minimize_bounded;
use crate::special::normal_sf;

/// Gauss–Legendre nodes on [0, 1] for the inner integral (the integrand is smooth and
/// Gaussian-like: 64 nodes agree with 128 to 1e-13 relative, tested).
const NODES: usize = 64;

/// P_p(Σ|Zᵢ| ≥ y) for the Brownian-bridge increments Z over cells of lengths `shares` (three
/// non-negative shares summing to 1; Var Zᵢ = pᵢ(1 − pᵢ), Cov = −pᵢpⱼ).
///
/// Σ|Zᵢ| = 2·max|Zᵢ| for three numbers summing to zero, so with x = y/2 and Z₁ the largest
/// cell's increment, P = P(|Z₁| ≥ x) + 2∫₀ˣ φ₁(z)·P(Z₂ ∉ [−x, x − z] | Z₁ = z) dz (the
/// negative half mirrors the positive one), Z₂ | Z₁ = z normal with mean −p₂z/(1 − p₁) and
/// variance p₂p₃/(1 − p₁).
pub fn three_group_tail(shares: [f64; 3], y: f64) -> f64 {
    tail_with_rule(gauss_legendre(), shares, y)
}

fn tail_with_rule(rule: &[(f64, f64)], shares: [f64; 3], y: f64) -> f64 {
    let mut p = shares;
    p.sort_by(|a, b| b.total_cmp(a));
    let x = y / 2.0;
    if x <= 0.0 {
        return 1.0;
    }
    let v1 = p[0] * (1.0 - p[0]);
    if v1 <= 0.0 {
        return 0.0;
    }
    let sd1 = v1.sqrt();
    let first = 2.0 * normal_sf(x / sd1);
    if p[2] <= 0.0 {
        // Two cells: Z₂ = −Z₁, Z₃ = 0.
        return first;
    }
    let slope = -p[1] / (1.0 - p[0]);
    let tau = (p[1] * p[2] / (1.0 - p[0])).sqrt();
    let normalising = sd1 * (2.0 * std::f64::consts::PI).sqrt();
    let inner: f64 = rule
        .iter()
        .map(|&(node, weight)| {
            let z = node * x;
            let density = (-0.5 * (z / sd1).powi(2)).exp() / normalising;
            let below = normal_sf((x + slope * z) / tau);
            let above = normal_sf((x - z - slope * z) / tau);
            weight * x * density * (below + above)
        })
        .sum();
    first + 2.0 * inner
}

/// S(y) = sup over three-group designs of [`three_group_tail`], with the maximising share q of
/// the design (q, q, 1 − 2q).
pub fn envelope_tail(y: f64) -> (f64, f64) {
    let tail = |q: f64| three_group_tail([q, q, 1.0 - 2.0 * q], y);
    const GRID: usize = 300;
    let step = 0.5 / GRID as f64;
    let (best, _) = (1..=GRID)
        .map(|k| (k, tail(k as f64 * step)))
        .fold((GRID, f64::MIN), |acc, (k, v)| if v > acc.1 { (k, v) } else { acc });
    let (lo, hi) = ((best as f64 - 1.0) * step, ((best as f64 + 1.0) * step).min(0.5));
    let refined = minimize_bounded(|q| -tail(q), lo, hi, 1e-12);
    let grid_best = best as f64 * step;
    let (q, value) = [(refined, tail(refined)), (grid_best, tail(grid_best))]
        .into_iter()
        .fold((grid_best, f64::MIN), |acc, c| if c.1 > acc.1 { c } else { acc });
    (value, q)
}

/// The equal design's tail P₌(y) = P_{(⅓,⅓,⅓)}(Σ|Z| ≥ y).
pub fn equal_tail(y: f64) -> f64 {
    three_group_tail([1.0 / 3.0; 3], y)
}

/// φ(y) = S⁻¹(P₌(y)) computed now (bisection on S to 1e-9): the smallest y* ≥ y with
/// S(y*) ≤ P₌(y). Slow (milliseconds); [`envelope_map`] reads the shipped knots instead.
pub fn envelope_knot(y: f64) -> f64 {
    let target = equal_tail(y);
    if envelope_tail(y).0 <= target * (1.0 + SAME) {
        return y;
    }
    let (mut lo, mut hi) = (y, y + 1.0);
    while envelope_tail(hi).0 > target {
        hi += 1.0;
    }
    while hi - lo > 1e-9 {
        let mid = 0.5 * (lo + hi);
        if envelope_tail(mid).0 > target { lo = mid } else { hi = mid }
    }
    hi
}

/// φ(y) from the shipped knots: the identity below the first knot, linear between knots, and
/// beyond the last knot its slope continued (the far tail's slope tends to √(9/8) from
/// below, the ratio of the largest split's sd, ½, to the equal design's, √2/3).
pub fn envelope_map(y: f64) -> f64 {
    let knots = KNOTS;
    let first = knots[0];
    if y <= first[0] {
        return y;
    }
    let at = knots.partition_point(|k| k[0] <= y);
    let (a, b) = if at >= knots.len() {
        (knots[knots.len() - 2], knots[knots.len() - 1])
    } else {
        (knots[at - 1], knots[at])
    };
    let slope = (b[1] - a[1]) / (b[0] - a[0]);
    let slope = if at >= knots.len() { slope.max(FAR_SLOPE) } else { slope };
    a[1] + slope * (y - a[0])
}

/// Relative differences of the tails below this are rounding, not a worse design.
const SAME: f64 = 1e-12;

/// The scale s_n = c_n·n·√((n + 1)/12) of KW-abs with n rows: in the limit KW-abs is
/// s_n·Σ|Z| for every design.
pub fn kw_abs_scale(n: u32) -> f64 {
    let nf = f64::from(n);
    crate::kruskal_wallis_abs_constant(n) * nf * ((nf + 1.0) / 12.0).sqrt()
}

/// KW-abs of three groups (n rows in all) through the envelope: s_n·φ(T/s_n), with s_n
/// [`kw_abs_scale`].
pub fn three_group_abs(statistic: f64, n: u32) -> f64 {
    let scale = kw_abs_scale(n);
    scale * envelope_map(statistic / scale)
}

/// The slope φ tends to in the far tail: the largest split's sd over the equal design's.
const FAR_SLOPE: f64 = 1.060_660_171_779_821_2;

/// Spacing of the shipped knots of φ, in units of Σ|Z|.
pub const KNOT_STEP: f64 = 0.02;

/// The knots of φ: first column y (from the last point where φ is the identity, step
/// [`KNOT_STEP`]), second φ(y) rounded up at 1e-9.
#[allow(clippy::approx_constant, reason = "grid points such as 3.14 and 6.28, not π or τ")]
const KNOTS: &[[f64; 2]] = &include!("size_envelope_knots.rs");

/// The knots `cargo xtask size-envelope` writes: y from the first grid point (multiple of
/// [`KNOT_STEP`]) where S exceeds P₌, up to where P₌ falls below 1e-16.
pub fn compute_knots() -> Vec<[f64; 2]> {
    let mut knots = Vec::new();
    let mut k = 1u32;
    loop {
        let y = (f64::from(k) * KNOT_STEP * 1e9).round() / 1e9;
        let phi = envelope_knot(y);
        if phi > y || !knots.is_empty() {
            if knots.is_empty() {
                // The last grid point where φ is the identity anchors the interpolation.
                let below = ((y - KNOT_STEP) * 1e9).round() / 1e9;
                knots.push([below, below]);
            }
            knots.push([y, (phi * 1e9).ceil() / 1e9]);
        }
        if equal_tail(y) < 1e-16 {
            return knots;
        }
        k += 1;
    }
}

/// Gauss–Legendre nodes and weights on [0, 1] (Newton's method on P_m, as in Golub–Welsch's
/// classical alternative).
fn gauss_legendre() -> &'static [(f64, f64)] {
    static TABLE: std::sync::OnceLock<Vec<(f64, f64)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| legendre_nodes(NODES))
}

fn legendre_nodes(m: usize) -> Vec<(f64, f64)> {
    let mf = m as f64;
    (1..=m)
        .map(|i| {
            let mut x = (std::f64::consts::PI * (i as f64 - 0.25) / (mf + 0.5)).cos();
            let mut derivative = 0.0;
            for _ in 0..100 {
                let (mut p0, mut p1) = (1.0, x);
                for k in 2..=m {
                    let kf = k as f64;
                    let p2 = ((2.0 * kf - 1.0) * x * p1 - (kf - 1.0) * p0) / kf;
                    p0 = p1;
                    p1 = p2;
                }
                derivative = mf * (x * p1 - p0) / (x * x - 1.0);
                let step = p1 / derivative;
                x -= step;
                if step.abs() < 1e-16 {
                    break;
                }
            }
            let weight = 2.0 / ((1.0 - x * x) * derivative * derivative);
            ((1.0 + x) / 2.0, weight / 2.0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cells_and_equal_thirds_match_closed_forms() {
        // Two halves: Σ|Z| = 2|Z₁|, Z₁ ~ N(0, ¼).
        let y = 2.2;
        let halves = three_group_tail([0.5, 0.5, 0.0], y);
        assert!((halves - 2.0 * normal_sf(y / 2.0 / 0.5)).abs() < 1e-15);
        // The quadrature against a 128-node rule.
        for shares in [[1.0 / 3.0; 3], [0.45, 0.45, 0.1], [0.7, 0.2, 0.1]] {
            for y in [1.0, 2.2, 3.5, 6.0] {
                let fine = tail_with_rule(&legendre_nodes(128), shares, y);
                let got = three_group_tail(shares, y);
                assert!((got / fine - 1.0).abs() < 1e-13, "{shares:?} {y}: {got} vs {fine}");
            }
        }
    }

    #[test]
    fn the_tail_matches_an_independent_scipy_quadrature() {
        // testdata/size_envelope.toml (testdata/gen_size_envelope.py): scipy's adaptive
        // quadrature conditioning on the smallest cell, and a numpy Monte Carlo column.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/size_envelope.toml");
        let doc: toml::Value = std::fs::read_to_string(path).unwrap().parse().unwrap();
        let cases = doc["tail"].as_array().unwrap();
        assert_eq!(cases.len(), 20);
        for case in cases {
            let shares: Vec<f64> =
                case["shares"].as_array().unwrap().iter().map(|v| v.as_float().unwrap()).collect();
            let (y, want) = (case["y"].as_float().unwrap(), case["tail"].as_float().unwrap());
            let got = three_group_tail([shares[0], shares[1], shares[2]], y);
            assert!((got / want - 1.0).abs() < 1e-10, "{shares:?} y = {y}: {got} vs {want}");
            let (mc, se) = (case["mc"].as_float().unwrap(), case["mc_se"].as_float().unwrap());
            assert!((got - mc).abs() <= 5.0 * se.max(1e-7), "{shares:?} y = {y}: {got} vs MC {mc}");
        }
    }

    #[test]
    fn no_design_of_a_two_dimensional_grid_exceeds_the_symmetric_supremum() {
        const K: usize = 60;
        for y in [1.0, 2.0, 2.8, 3.2, 3.8, 4.6, 6.0] {
            let (sup, _) = envelope_tail(y);
            assert!(sup >= equal_tail(y) * (1.0 - SAME), "y = {y}");
            for i in 0..=K {
                for j in 0..=K - i {
                    let shares =
                        [i as f64 / K as f64, j as f64 / K as f64, (K - i - j) as f64 / K as f64];
                    let tail = three_group_tail(shares, y);
                    assert!(tail <= sup * (1.0 + 1e-9), "y = {y}, {shares:?}: {tail} > {sup}");
                }
            }
        }
    }

    #[test]
    fn the_shipped_knots_are_recomputed() {
        // Every 40th knot (the full set: `cargo xtask size-envelope`, about a minute).
        assert!(KNOTS.windows(2).all(|w| w[1][0] > w[0][0] && w[1][1] >= w[0][1]));
        assert!(KNOTS[0][0] == KNOTS[0][1], "the first knot anchors the identity");
        for knot in KNOTS.iter().step_by(40) {
            let phi = envelope_knot(knot[0]);
            assert!(knot[1] >= phi && knot[1] - phi < 2e-9, "{knot:?} vs {phi}");
        }
    }

    #[test]
    fn the_map_is_the_identity_in_the_body_and_conservative_in_the_tail() {
        assert_eq!(envelope_map(2.0), 2.0);
        for y in [3.0, 3.5, 4.0, 5.0, 7.0] {
            // The equal design's tail at y is the envelope's at φ(y): the worst design
            // reaches P₌(y) only at φ(y) or beyond.
            let (at_phi, _) = envelope_tail(envelope_map(y));
            assert!(at_phi <= equal_tail(y) * (1.0 + 1e-6), "y = {y}");
            assert!(envelope_map(y) > y);
        }
        // Past the last knot the slope continues.
        let last = KNOTS[KNOTS.len() - 1];
        assert!(envelope_map(last[0] + 1.0) >= last[1] + FAR_SLOPE - 1e-12);
    }
}
