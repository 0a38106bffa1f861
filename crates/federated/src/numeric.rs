//! Small numeric helpers of the quantile estimators: the Pearson correlation (the bounded
//! Brent minimiser is `dptest_refdist::optimize::minimize_bounded`).

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
    fn pearson_values() {
        let r = pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 7.0]).unwrap_or(f64::NAN);
        // numpy.corrcoef([1, 2, 3], [2, 4, 7])[0, 1] = 0.9933992677987828
        assert!((r - 0.993_399_267_798_782_8).abs() < 1e-15, "{r}");
        assert_eq!(pearson(&[1.0, 1.0], &[1.0, 2.0]), None);
    }
}
