//! The binomial(n, p) law for the public binomial test, accurate at any n.
//!
//! The pmf is Loader's saddle-point form (C. Loader, "Fast and accurate computation of
//! binomial probabilities", 2000; the form R's `dbinom` uses), which keeps full relative
//! precision where exp(ln C(n, k) + …) loses digits to cancellation at large n (about 10⁻⁸ at
//! n = 2·10⁷). Tails are sums of pmf terms by the ratio f(j ± 1)/f(j), summed from the
//! observed value away from the mode until the terms no longer change the sum, so each tail
//! is accurate relative to itself; the far side of the mode is the complement.

use statrs::function::gamma::ln_gamma;

/// ln √(2π).
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// A binomial(n, p) law.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BinomialLaw {
    n: u64,
    p: f64,
}

impl BinomialLaw {
    /// The law; `p` must be in [0, 1] (checked by the caller).
    pub(crate) fn new(n: u64, p: f64) -> Self {
        Self { n, p }
    }

    /// P(X = k).
    pub(crate) fn pmf(&self, k: u64) -> f64 {
        let (n, p, q) = (self.n, self.p, 1.0 - self.p);
        if k > n {
            return 0.0;
        }
        if p == 0.0 || q == 0.0 {
            let certain = if p == 0.0 { 0 } else { n };
            return if k == certain { 1.0 } else { 0.0 };
        }
        let (nf, kf) = (n as f64, k as f64);
        if k == 0 {
            return (nf * (-p).ln_1p()).exp();
        }
        if k == n {
            return (nf * p.ln()).exp();
        }
        let mf = nf - kf;
        let exponent = stirling_error(nf)
            - stirling_error(kf)
            - stirling_error(mf)
            - deviance(kf, nf * p)
            - deviance(mf, nf * q);
        (exponent - LN_SQRT_2PI).exp() * (nf / (kf * mf)).sqrt()
    }

    /// P(X ≤ k).
    pub(crate) fn at_most(&self, k: u64) -> f64 {
        if k >= self.n {
            return 1.0;
        }
        if (k as f64) <= self.n as f64 * self.p {
            self.sum_down(k)
        } else {
            1.0 - self.sum_up(k + 1)
        }
    }

    /// P(X ≥ k).
    pub(crate) fn at_least(&self, k: u64) -> f64 {
        if k == 0 {
            return 1.0;
        }
        if k > self.n {
            return 0.0;
        }
        if (k as f64) >= self.n as f64 * self.p {
            self.sum_up(k)
        } else {
            1.0 - self.sum_down(k - 1)
        }
    }

    /// Σ_{j ≤ k} f(j), from k downwards (k at or below the mean: the terms shrink).
    fn sum_down(&self, k: u64) -> f64 {
        let (n, odds) = (self.n as f64, (1.0 - self.p) / self.p);
        let mut term = self.pmf(k);
        let mut sum = term;
        let mut j = k;
        while j > 0 && term > sum * f64::EPSILON * 0.01 {
            term *= j as f64 / (n - j as f64 + 1.0) * odds;
            sum += term;
            j -= 1;
        }
        sum.min(1.0)
    }

    /// Σ_{j ≥ k} f(j), from k upwards (k at or above the mean: the terms shrink).
    fn sum_up(&self, k: u64) -> f64 {
        let (n, odds) = (self.n as f64, self.p / (1.0 - self.p));
        let mut term = self.pmf(k);
        let mut sum = term;
        let mut j = k;
        while j < self.n && term > sum * f64::EPSILON * 0.01 {
            term *= (n - j as f64) / (j as f64 + 1.0) * odds;
            sum += term;
            j += 1;
        }
        sum.min(1.0)
    }
}

/// δ(x) = ln x! − [(x + ½) ln x − x + ln √(2π)], the error of Stirling's formula.
fn stirling_error(x: f64) -> f64 {
    if x <= 15.0 {
        return ln_gamma(x + 1.0) - (x + 0.5) * x.ln() + x - LN_SQRT_2PI;
    }
    let x2 = x * x;
    const S0: f64 = 1.0 / 12.0;
    const S1: f64 = 1.0 / 360.0;
    const S2: f64 = 1.0 / 1260.0;
    const S3: f64 = 1.0 / 1680.0;
    const S4: f64 = 1.0 / 1188.0;
    if x > 500.0 {
        return (S0 - S1 / x2) / x;
    }
    (S0 - (S1 - (S2 - (S3 - S4 / x2) / x2) / x2) / x2) / x
}

/// The deviance term x ln(x/μ) + μ − x, by its series in v = (x − μ)/(x + μ) when x is near
/// μ (where the direct form cancels).
fn deviance(x: f64, mu: f64) -> f64 {
    if (x - mu).abs() >= 0.1 * (x + mu) {
        return x * (x / mu).ln() + mu - x;
    }
    let v = (x - mu) / (x + mu);
    let mut sum = (x - mu) * v;
    let mut power = 2.0 * x * v;
    let v2 = v * v;
    for j in 1..1000 {
        power *= v2;
        let next = sum + power / f64::from(2 * j + 1);
        if next == sum {
            break;
        }
        sum = next;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pmf_sums_to_one_and_tails_agree() {
        for &(n, p) in &[(1_u64, 0.3), (10, 0.5), (37, 0.11), (400, 0.93)] {
            let law = BinomialLaw::new(n, p);
            let total: f64 = (0..=n).map(|k| law.pmf(k)).sum();
            assert!((total - 1.0).abs() < 1e-13, "n={n} p={p}: {total}");
            for k in 0..=n {
                let below: f64 = (0..=k).map(|j| law.pmf(j)).sum();
                assert!((law.at_most(k) - below).abs() < 1e-13, "n={n} k={k}");
                assert!((law.at_least(k) - (1.0 - below + law.pmf(k))).abs() < 1e-13);
            }
        }
    }
}
