//! Normal distribution, closed-form χ² tail for even degrees of freedom, and a bounded
//! Brent minimiser.

use statrs::function::erf::{erfc, erfc_inv};
use std::f64::consts::SQRT_2;

/// Φ(z), the standard normal CDF.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / SQRT_2)
}

/// 1 − Φ(z), computed without cancellation.
pub fn normal_sf(z: f64) -> f64 {
    0.5 * erfc(z / SQRT_2)
}

/// Φ⁻¹(p) for 0 < p < 1.
pub fn normal_quantile(p: f64) -> f64 {
    -SQRT_2 * erfc_inv(2.0 * p)
}

/// P(χ²_{2L} > t) = e^{−t/2} Σ_{k<L} (t/2)^k / k!, the closed form for even degrees of freedom
/// (`half_df` = L ≥ 1), summed in log space so large t cannot overflow.
pub fn chi2_sf_even(t: f64, half_df: usize) -> f64 {
    if t.is_nan() {
        return f64::NAN;
    }
    if t <= 0.0 {
        return 1.0;
    }
    if t == f64::INFINITY {
        return 0.0;
    }
    let x = t / 2.0;
    let ln_x = x.ln();
    let mut ln_term = 0.0_f64; // ln(x^k / k!)
    let mut ln_terms = Vec::with_capacity(half_df.max(1));
    ln_terms.push(0.0);
    for k in 1..half_df {
        ln_term += ln_x - (k as f64).ln();
        ln_terms.push(ln_term);
    }
    let top = ln_terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = ln_terms.iter().map(|l| (l - top).exp()).sum();
    (top + sum.ln() - x).exp().min(1.0)
}

/// Minimises `f` on [a, b] with Brent's method (golden section + parabolic steps), absolute
/// tolerance `xatol` on the argument (scipy's `fminbound` scheme).
pub(crate) fn minimize_bounded<F: FnMut(f64) -> f64>(mut f: F, a: f64, b: f64, xatol: f64) -> f64 {
    const GOLDEN: f64 = 0.381_966_011_250_105_1; // (3 − √5)/2
    let (mut lo, mut hi) = (a, b);
    let mut x = lo + GOLDEN * (hi - lo);
    let (mut w, mut v) = (x, x);
    let mut fx = f(x);
    let (mut fw, mut fv) = (fx, fx);
    let (mut d, mut e) = (0.0_f64, 0.0_f64);
    for _ in 0..500 {
        let mid = 0.5 * (lo + hi);
        let tol1 = 1.5e-8 * x.abs() + xatol / 3.0;
        let tol2 = 2.0 * tol1;
        if (x - mid).abs() <= tol2 - 0.5 * (hi - lo) {
            break;
        }
        let mut golden = true;
        if e.abs() > tol1 {
            let r = (x - w) * (fx - fv);
            let mut q = (x - v) * (fx - fw);
            let mut p = (x - v) * q - (x - w) * r;
            q = 2.0 * (q - r);
            if q > 0.0 {
                p = -p;
            }
            q = q.abs();
            let e_old = e;
            e = d;
            if p.abs() < (0.5 * q * e_old).abs() && p > q * (lo - x) && p < q * (hi - x) {
                d = p / q;
                let u = x + d;
                if u - lo < tol2 || hi - u < tol2 {
                    d = if mid >= x { tol1 } else { -tol1 };
                }
                golden = false;
            }
        }
        if golden {
            e = if x >= mid { lo - x } else { hi - x };
            d = GOLDEN * e;
        }
        let u = if d.abs() >= tol1 {
            x + d
        } else if d > 0.0 {
            x + tol1
        } else {
            x - tol1
        };
        let fu = f(u);
        if fu <= fx {
            if u >= x {
                lo = x;
            } else {
                hi = x;
            }
            (v, fv, w, fw, x, fx) = (w, fw, x, fx, u, fu);
        } else {
            if u < x {
                lo = u;
            } else {
                hi = u;
            }
            if fu <= fw || w == x {
                (v, fv, w, fw) = (w, fw, u, fu);
            } else if fu <= fv || v == x || v == w {
                (v, fv) = (u, fu);
            }
        }
    }
    x
}

/// Pearson correlation; `None` when either side is constant.
pub(crate) fn pearson(a: &[f64], b: &[f64]) -> Option<f64> {
    let n = a.len() as f64;
    let ma = a.iter().sum::<f64>() / n;
    let mb = b.iter().sum::<f64>() / n;
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    let r = sab / (saa * sbb).sqrt();
    r.is_finite().then_some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_values() {
        // exact: Φ(0) = ½; Φ(1.959963984540054) = 0.975 (scipy.stats.norm).
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-16);
        // statrs 0.19's erfc is accurate to ~1e-10 relative (measured against scipy), so the
        // tolerances here and in the golden tests are 1e-9 relative.
        let c = normal_cdf(1.959963984540054);
        assert!((c - 0.975).abs() < 1e-9, "{c}");
        assert!((normal_sf(1.959963984540054) / 0.025 - 1.0).abs() < 1e-9);
        assert!((normal_quantile(0.975) - 1.959963984540054).abs() < 1e-9);
        assert!((normal_quantile(0.02) + 2.053748910631823).abs() < 1e-9);
    }

    #[test]
    fn chi2_even_closed_form() {
        // df = 2: P = e^{-t/2} exactly.
        assert!((chi2_sf_even(3.0, 1) - (-1.5f64).exp()).abs() < 1e-16);
        // scipy.stats.chi2.sf(10.0, 6) = 0.12465201948308113
        assert!((chi2_sf_even(10.0, 3) - 0.124_652_019_483_081_13).abs() < 1e-15);
        assert_eq!(chi2_sf_even(0.0, 4), 1.0);
        assert_eq!(chi2_sf_even(f64::INFINITY, 4), 0.0);
        // scipy.stats.chi2.sf(5000.0, 200) = 0.0 (underflow), ours must not be NaN.
        assert!(chi2_sf_even(5000.0, 100) < 1e-300);
    }

    #[test]
    fn brent_finds_parabola_minimum() {
        let x = minimize_bounded(|x| (x - 0.7) * (x - 0.7), 0.0, 2.0, 1e-9);
        assert!((x - 0.7).abs() < 1e-7);
        let edge = minimize_bounded(|x| x, 0.0, 2.0, 1e-5);
        assert!(edge < 1e-4);
    }
}
