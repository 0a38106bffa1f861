//! One-dimensional optimisation shared by the crates that search a bounded parameter (the
//! federated quantile estimators, the size envelope's worst design).

/// Minimises `f` on [a, b] with Brent's method (golden section + parabolic steps), absolute
/// tolerance `xatol` on the argument (scipy's `fminbound` scheme).
pub fn minimize_bounded<F: FnMut(f64) -> f64>(mut f: F, a: f64, b: f64, xatol: f64) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brent_finds_parabola_minimum() {
        let x = minimize_bounded(|x| (x - 0.7) * (x - 0.7), 0.0, 2.0, 1e-9);
        assert!((x - 0.7).abs() < 1e-7);
        let edge = minimize_bounded(|x| x, 0.0, 2.0, 1e-5);
        assert!(edge < 1e-4);
    }
}
