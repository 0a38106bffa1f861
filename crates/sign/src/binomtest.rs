//! The public exact binomial test (scipy's `binomtest(k, n, p, alternative)`) and its
//! confidence intervals for the proportion (scipy's `BinomTestResult.proportion_ci`).
//!
//! Two-sided p-value, as scipy and R's `binom.test`: the probability of every outcome no more
//! likely than k, P = Σ_{j : f(j) ≤ f(k)·(1 + 10⁻⁷)} f(j), with f the binomial(n, p) pmf. The
//! pmf is unimodal, so the outcomes on the far side of the mode form one tail, found by a
//! binary search; the p-value is the sum of two tail probabilities.

use crate::SignError;
use crate::binomial::BinomialLaw;
use dptest_core::Alternative;
use serde::Serialize;

/// The relative tolerance with which an outcome counts as "as likely as k" (scipy's and R's).
const LIKELIHOOD_TOLERANCE: f64 = 1e-7;

/// The result of [`binomtest`] (scipy's `BinomTestResult`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BinomTestResult {
    /// Successes.
    pub k: u64,
    /// Trials.
    pub n: u64,
    /// The hypothesised probability of success.
    pub p: f64,
    /// The alternative.
    pub alternative: Alternative,
    /// The estimated proportion k / n.
    pub statistic: f64,
    /// The exact p-value.
    pub p_value: f64,
}

/// How [`BinomTestResult::proportion_ci`] computes the interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProportionCiMethod {
    /// Clopper–Pearson: the p at which the observed tail has probability α (exact coverage
    /// ≥ the level).
    #[default]
    Exact,
    /// Wilson's score interval.
    Wilson,
    /// Wilson's score interval with continuity correction.
    WilsonCc,
}

/// A confidence interval for the proportion.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ProportionInterval {
    /// Lower end (0 for `Less`).
    pub low: f64,
    /// Upper end (1 for `Greater`).
    pub high: f64,
    /// Confidence level.
    pub level: f64,
}

/// The exact test of H0: P(success) = `p` from `k` successes in `n` trials.
///
/// # Errors
/// [`SignError::InvalidParameter`] for n = 0, k > n or p outside [0, 1].
pub fn binomtest(
    k: u64,
    n: u64,
    p: f64,
    alternative: Alternative,
) -> Result<BinomTestResult, SignError> {
    if n == 0 {
        return Err(SignError::InvalidParameter { name: "n", value: 0.0 });
    }
    if k > n {
        return Err(SignError::InvalidParameter { name: "k", value: k as f64 });
    }
    if !(0.0..=1.0).contains(&p) {
        return Err(SignError::InvalidParameter { name: "p", value: p });
    }
    let law = BinomialLaw::new(n, p);
    let p_value = match alternative {
        Alternative::Less => law.at_most(k),
        Alternative::Greater => law.at_least(k),
        Alternative::TwoSided => two_sided(&law, k, n, p),
    };
    Ok(BinomTestResult {
        k,
        n,
        p,
        alternative,
        statistic: k as f64 / n as f64,
        p_value: p_value.min(1.0),
    })
}

/// Σ f(j) over the j with f(j) ≤ f(k)·(1 + tolerance): k's own tail plus the far tail.
fn two_sided(law: &BinomialLaw, k: u64, n: u64, p: f64) -> f64 {
    let expected = p * n as f64;
    if k as f64 == expected {
        return 1.0;
    }
    let threshold = law.pmf(k) * (1.0 + LIKELIHOOD_TOLERANCE);
    if (k as f64) < expected {
        // The far tail is [first, n]: the first j above the mode with f(j) ≤ threshold.
        let first = first_at_most(law, expected.ceil() as u64, n, threshold);
        law.at_most(k) + law.at_least(first)
    } else {
        // The far tail is [0, last]: the last j below the mode with f(j) ≤ threshold.
        match last_at_most(law, expected.floor() as u64, threshold) {
            Some(last) => law.at_most(last) + law.at_least(k),
            None => law.at_least(k),
        }
    }
}

/// The smallest j in [from, n] with pmf(j) ≤ threshold (pmf decreasing there), or n + 1.
fn first_at_most(law: &BinomialLaw, from: u64, n: u64, threshold: f64) -> u64 {
    let (mut lo, mut hi) = (from, n + 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if law.pmf(mid) <= threshold { hi = mid } else { lo = mid + 1 }
    }
    lo
}

/// The largest j in [0, to] with pmf(j) ≤ threshold (pmf increasing there), if any.
fn last_at_most(law: &BinomialLaw, to: u64, threshold: f64) -> Option<u64> {
    // Count the j in [0, to] with pmf(j) ≤ threshold: they form a prefix.
    let (mut lo, mut hi) = (0u64, to + 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if law.pmf(mid) <= threshold { lo = mid + 1 } else { hi = mid }
    }
    lo.checked_sub(1)
}

impl BinomTestResult {
    /// The interval for the proportion at `level` (two-sided, or one-sided with the test's
    /// alternative), as scipy's `proportion_ci(confidence_level, method)`.
    ///
    /// # Errors
    /// [`SignError::InvalidParameter`] unless 0 ≤ `level` ≤ 1.
    pub fn proportion_ci(
        &self,
        level: f64,
        method: ProportionCiMethod,
    ) -> Result<ProportionInterval, SignError> {
        if !(0.0..=1.0).contains(&level) {
            return Err(SignError::InvalidParameter { name: "confidence level", value: level });
        }
        let (low, high) = match method {
            ProportionCiMethod::Exact => clopper_pearson(self.k, self.n, level, self.alternative),
            ProportionCiMethod::Wilson => wilson(self.k, self.n, level, self.alternative, false),
            ProportionCiMethod::WilsonCc => wilson(self.k, self.n, level, self.alternative, true),
        };
        Ok(ProportionInterval { low, high, level })
    }
}

/// Clopper–Pearson ends: P(X ≥ k | p_low) = α and P(X ≤ k | p_high) = α, with α the level's
/// complement (halved when two-sided); the first is increasing in p, the second decreasing.
fn clopper_pearson(k: u64, n: u64, level: f64, alternative: Alternative) -> (f64, f64) {
    let alpha = match alternative {
        Alternative::TwoSided => (1.0 - level) / 2.0,
        _ => 1.0 - level,
    };
    let low = if k == 0 || alternative == Alternative::Less {
        0.0
    } else {
        increasing_root(|p| BinomialLaw::new(n, p).at_least(k), alpha)
    };
    let high = if k == n || alternative == Alternative::Greater {
        1.0
    } else {
        increasing_root(|p| -BinomialLaw::new(n, p).at_most(k), -alpha)
    };
    (low, high)
}

/// The p in [0, 1] where the increasing `f` crosses `target`, by bisection to the last bit.
fn increasing_root(f: impl Fn(f64) -> f64, target: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            return mid;
        }
        if f(mid) < target { lo = mid } else { hi = mid }
    }
}

/// Wilson's score interval (Newcombe 1998, methods 3 and 4), one-sided ends at 0 or 1.
fn wilson(k: u64, n: u64, level: f64, alternative: Alternative, corrected: bool) -> (f64, f64) {
    let z = match alternative {
        Alternative::TwoSided => dptest_refdist::special::normal_quantile(0.5 + 0.5 * level),
        _ => dptest_refdist::special::normal_quantile(level),
    };
    let nf = n as f64;
    let p = k as f64 / nf;
    let q = 1.0 - p;
    let denom = 2.0 * (nf + z * z);
    let centre = (2.0 * nf * p + z * z) / denom;
    let (below, above) = if corrected {
        (
            (1.0 + z * (z * z - 2.0 - 1.0 / nf + 4.0 * p * (nf * q + 1.0)).sqrt()) / denom,
            (1.0 + z * (z * z + 2.0 - 1.0 / nf + 4.0 * p * (nf * q - 1.0)).sqrt()) / denom,
        )
    } else {
        let half = z / denom * (4.0 * nf * p * q + z * z).sqrt();
        (half, half)
    };
    let low = if alternative == Alternative::Less || k == 0 { 0.0 } else { centre - below };
    let high = if alternative == Alternative::Greater || k == n { 1.0 } else { centre + above };
    (low, high)
}
