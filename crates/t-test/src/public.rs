//! The public (non-private) one-sample and paired t-tests, matching `scipy.stats.ttest_1samp`
//! and `scipy.stats.ttest_rel`.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};
use statrs::function::beta::beta_reg;

use crate::error::{TTestError, check_finite, check_n};

pub use dptest_refdist::Alternative;

/// Result of the public t-test (scipy's `TtestResult`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TTestResult {
    /// t = (x̄ − popmean) / (s/√n).
    pub statistic: f64,
    /// p-value from Student's t with `df` degrees of freedom.
    pub p_value: f64,
    /// Degrees of freedom, n − 1.
    pub df: f64,
    /// Number of observations (pairs for the paired test).
    pub n: usize,
    /// Sample mean (of the differences a − b for the paired test).
    pub mean: f64,
    /// Standard error s/√n.
    pub standard_error: f64,
    /// The hypothesised mean.
    pub popmean: f64,
    /// The alternative hypothesis.
    pub alternative: Alternative,
    /// Always `"exact"`: Student's t, the exact null for normal data (scipy's default
    /// `method=None`; scipy's permutation / Monte Carlo options are not offered).
    pub method: &'static str,
}

/// A confidence interval; one-sided alternatives give an infinite end, as scipy does.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ConfidenceInterval {
    /// Lower end (−∞ for `Less`).
    pub low: f64,
    /// Upper end (+∞ for `Greater`).
    pub high: f64,
    /// Confidence level.
    pub level: f64,
}

impl TTestResult {
    /// The confidence interval for the population mean (scipy's `confidence_interval`),
    /// one-sided when the alternative is.
    ///
    /// # Errors
    /// [`TTestError::InvalidParameter`] unless 0 < `level` < 1.
    pub fn confidence_interval(&self, level: f64) -> Result<ConfidenceInterval, TTestError> {
        t_confidence_interval(self.mean, self.standard_error, self.df, self.alternative, level)
    }
}

/// The method named in the estimate object of [`public_mean_interval`].
pub const MEAN_PUBLIC_METHOD: &str = "public: Student t interval (scipy's confidence_interval)";

/// The public interval for the mean of `data` (`--public --ci`, Python's `public=True, ci=`):
/// the two-sided Student-t interval of [`ttest_1samp`]'s result, as an estimate object.
///
/// ```
/// let ci = dptest_t_test::public_mean_interval(&[1.0, 2.0, 4.0, 5.0], 0.95)?;
/// assert_eq!(ci.value, 3.0);
/// assert!((ci.high - ci.value - 3.182446305284263 * (10f64 / 3.0).sqrt() / 2.0).abs() < 1e-9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`ttest_1samp`], and [`TTestError::InvalidParameter`] unless 0 < `level` < 1.
pub fn public_mean_interval(data: &[f64], level: f64) -> Result<dptest_core::Estimate, TTestError> {
    let result = ttest_1samp(data, 0.0, Alternative::TwoSided)?;
    let interval = result.confidence_interval(level)?;
    Ok(dptest_core::Estimate {
        parameter: "mean".to_owned(),
        value: result.mean,
        low: interval.low,
        high: interval.high,
        level,
        epsilon: 0.0,
        method: MEAN_PUBLIC_METHOD.to_owned(),
    })
}

/// The Student-t interval mean ± t_{df}·se at `level` (scipy's `TtestResult.confidence_interval`
/// from its `mean`, `standard_error` and `df`), one-sided when the alternative is.
///
/// # Errors
/// [`TTestError::InvalidParameter`] unless 0 < `level` < 1 and `df` > 0.
pub fn t_confidence_interval(
    mean: f64,
    standard_error: f64,
    df: f64,
    alternative: Alternative,
    level: f64,
) -> Result<ConfidenceInterval, TTestError> {
    if !(level > 0.0 && level < 1.0) {
        return Err(TTestError::InvalidParameter {
            name: "confidence level",
            value: level,
            requirement: "strictly between 0 and 1",
        });
    }
    let t = student(df)?;
    let (low, high) = match alternative {
        Alternative::TwoSided => {
            let half = t.inverse_cdf(0.5 + level / 2.0) * standard_error;
            (mean - half, mean + half)
        }
        Alternative::Less => (f64::NEG_INFINITY, mean + t.inverse_cdf(level) * standard_error),
        Alternative::Greater => (mean - t.inverse_cdf(level) * standard_error, f64::INFINITY),
    };
    Ok(ConfidenceInterval { low, high, level })
}

fn student(df: f64) -> Result<StudentsT, TTestError> {
    StudentsT::new(0.0, 1.0, df).map_err(|_| TTestError::InvalidParameter {
        name: "df",
        value: df,
        requirement: "finite and > 0",
    })
}

/// Mean and unbiased variance (shifted two-pass: `dptest_core::Centred`), for n ≥ 2 finite
/// values.
pub(crate) fn mean_variance(values: &[f64]) -> (f64, f64) {
    let c = dptest_core::Centred::of(values);
    (c.mean(), c.sum_squares / (c.n as f64 - 1.0))
}

/// p-value of `t` under Student's t with `df` degrees of freedom, by alternative.
///
/// Two-sided: I_{df/(df+t²)}(df/2, ½); one-sided: half of it or one minus half of it.
pub fn t_p_value(t: f64, df: f64, alternative: Alternative) -> f64 {
    let half = 0.5 * beta_reg(df / 2.0, 0.5, df / (df + t * t));
    match alternative {
        Alternative::TwoSided => (2.0 * half).min(1.0),
        Alternative::Greater if t > 0.0 => half,
        Alternative::Greater => 1.0 - half,
        Alternative::Less if t < 0.0 => half,
        Alternative::Less => 1.0 - half,
    }
}

/// One-sample t-test of H0: mean = `popmean` (scipy `ttest_1samp(a, popmean, alternative=…)`).
///
/// # Errors
/// [`TTestError::TooFewObservations`] for n < 2, [`TTestError::NonFinite`],
/// [`TTestError::InvalidPopmean`] for a non-finite `popmean`, [`TTestError::ZeroVariance`]
/// when all values are equal.
pub fn ttest_1samp(
    data: &[f64],
    popmean: f64,
    alternative: Alternative,
) -> Result<TTestResult, TTestError> {
    check_n(data.len())?;
    check_finite("data", data)?;
    if !popmean.is_finite() {
        return Err(TTestError::InvalidPopmean { popmean });
    }
    let (mean, variance) = mean_variance(data);
    // mean − popmean about popmean itself, so an offset shared by both costs no digits.
    let difference = dptest_core::Centred::about(data, popmean).shifted_mean;
    ttest_of_moments(data.len(), mean, difference, variance, popmean, alternative)
}

/// [`ttest_1samp`] from what the rows give: n, the mean, the mean of x − popmean (computed
/// about popmean, so that a large shared offset costs no digits) and the unbiased variance,
/// computed where the rows live (`dptest.spark`).
///
/// # Errors
/// As [`ttest_1samp`].
pub fn ttest_of_moments(
    n: usize,
    mean: f64,
    difference: f64,
    variance: f64,
    popmean: f64,
    alternative: Alternative,
) -> Result<TTestResult, TTestError> {
    check_n(n)?;
    if !popmean.is_finite() {
        return Err(TTestError::InvalidPopmean { popmean });
    }
    let standard_error = (variance / n as f64).sqrt();
    if standard_error.is_nan() || standard_error <= 0.0 {
        return Err(TTestError::ZeroVariance);
    }
    let statistic = difference / standard_error;
    let df = (n - 1) as f64;
    Ok(TTestResult {
        statistic,
        p_value: t_p_value(statistic, df, alternative),
        df,
        n,
        mean,
        standard_error,
        popmean,
        alternative,
        method: "exact",
    })
}

/// Paired t-test of H0: mean(a − b) = 0 (scipy `ttest_rel(a, b, alternative=…)`); the
/// confidence interval is for the mean difference a − b. This is scipy's order, kept because
/// the function is scipy's: `ttest_rel(&after, &before, …)` tests the same differences as the
/// private `BoundedSample::from_pairs(&before, &after, …)`.
///
/// # Errors
/// As [`ttest_1samp`], plus [`TTestError::LengthMismatch`].
pub fn ttest_rel(
    a: &[f64],
    b: &[f64],
    alternative: Alternative,
) -> Result<TTestResult, TTestError> {
    let d = differences(a, b)?;
    ttest_1samp(&d, 0.0, alternative)
}

/// Paired differences a − b, after checking lengths and finiteness.
pub(crate) fn differences(a: &[f64], b: &[f64]) -> Result<Vec<f64>, TTestError> {
    if a.len() != b.len() {
        return Err(TTestError::LengthMismatch { a: a.len(), b: b.len() });
    }
    check_finite("a", a)?;
    check_finite("b", b)?;
    check_n(a.len())?;
    Ok(a.iter().zip(b).map(|(x, y)| x - y).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    // scipy 1.17.1: scipy.stats.ttest_rel(POST, PRE) and its confidence_interval(0.95).
    const PRE: [f64; 8] = [12.1, 14.3, 11.8, 15.2, 13.3, 12.9, 14.8, 13.7];
    const POST: [f64; 8] = [13.0, 14.1, 12.9, 16.0, 13.3, 13.8, 15.5, 14.9];

    #[test]
    fn paired_matches_scipy_reference_vector() {
        let r = ttest_rel(&POST, &PRE, Alternative::TwoSided).unwrap();
        approx::assert_relative_eq!(r.statistic, 3.770210163859001, max_relative = 1e-12);
        approx::assert_relative_eq!(r.p_value, 0.006981012770537894, max_relative = 1e-9);
        assert_eq!((r.df, r.method), (7.0, "exact"));
        let ci = r.confidence_interval(0.95).unwrap();
        approx::assert_relative_eq!(ci.low, 0.2516492316196458, max_relative = 1e-9);
        approx::assert_relative_eq!(ci.high, 1.0983507683803544, max_relative = 1e-9);
    }

    #[test]
    fn bad_input_is_refused() {
        let nan = [1.0, f64::NAN, 2.0];
        assert!(matches!(
            ttest_1samp(&nan, 0.0, Alternative::TwoSided),
            Err(TTestError::NonFinite { index: 1, .. })
        ));
        assert!(matches!(
            ttest_1samp(&[1.0], 0.0, Alternative::TwoSided),
            Err(TTestError::TooFewObservations { n: 1, minimum: 2 })
        ));
        assert!(matches!(
            ttest_1samp(&[], 0.0, Alternative::TwoSided),
            Err(TTestError::TooFewObservations { n: 0, .. })
        ));
        assert_eq!(ttest_1samp(&[2.0, 2.0], 0.0, Alternative::Less), Err(TTestError::ZeroVariance));
        assert!(matches!(
            ttest_1samp(&[1.0, 2.0], f64::INFINITY, Alternative::Less),
            Err(TTestError::InvalidPopmean { .. })
        ));
        assert!(matches!(
            ttest_rel(&[1.0, 2.0], &[1.0], Alternative::TwoSided),
            Err(TTestError::LengthMismatch { a: 2, b: 1 })
        ));
        let r = ttest_1samp(&[1.0, 2.0, 4.0], 0.0, Alternative::TwoSided).unwrap();
        for level in [0.0, 1.0, f64::NAN, -0.5] {
            assert!(r.confidence_interval(level).is_err());
        }
    }
}
