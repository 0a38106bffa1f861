//! Mean and sum of squared deviations that keep their digits on data with a large offset
//! (timestamps, atomic weights, lab values on a baseline): every value is first shifted by
//! the sample's first value, which is exact for values within a factor 2 of it (Sterbenz),
//! then summed twice (mean, then squared deviations). Plain sums of 10¹² + 0.2 … 0.6 lose
//! the digits that carry the variance (NIST StRD SmLs09: an F statistic 7.7× too large).

/// The mean and Σ(x − mean)² of a sample (both 0 for an empty one), the mean kept relative to
/// the origin it was computed about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Centred {
    /// The number of values.
    pub n: usize,
    /// The origin the values were shifted by.
    pub origin: f64,
    /// mean − origin, without the rounding of the mean itself.
    pub shifted_mean: f64,
    /// Σ (x − mean)².
    pub sum_squares: f64,
}

impl Centred {
    /// The moments of `values`, shifted by `origin` first (use [`Centred::of`] for a sample's
    /// own first value; a shared origin keeps several groups on one scale).
    pub fn about(values: &[f64], origin: f64) -> Centred {
        let n = values.len();
        if n == 0 {
            return Centred { n, origin, shifted_mean: 0.0, sum_squares: 0.0 };
        }
        let shifted_mean = values.iter().map(|v| v - origin).sum::<f64>() / n as f64;
        let sum_squares = values
            .iter()
            .map(|v| {
                let d = (v - origin) - shifted_mean;
                d * d
            })
            .sum();
        Centred { n, origin, shifted_mean, sum_squares }
    }

    /// The mean (rounded at the scale of the origin).
    pub fn mean(&self) -> f64 {
        self.origin + self.shifted_mean
    }

    /// The moments of `values` about their first value.
    pub fn of(values: &[f64]) -> Centred {
        Centred::about(values, values.first().copied().unwrap_or(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_of_a_trillion_keeps_the_variance() {
        // 10¹² + {0.3, 0.5} alternating: mean 10¹² + 0.4, squared deviations 0.01 each.
        let values: Vec<f64> =
            (0..2000).map(|i| if i % 2 == 0 { 1e12 + 0.3 } else { 1e12 + 0.5 }).collect();
        let c = Centred::of(&values);
        // The values themselves are stored to an ulp of 10¹² (1.2·10⁻⁴): 0.2 apart ± that.
        assert!((c.sum_squares / 2000.0 - 0.01).abs() < 2e-5, "{}", c.sum_squares);
        assert!((c.mean() - (1e12 + 0.4)).abs() < 1e-3);
        // 10¹² + 0.3 is stored to ±6·10⁻⁵ (half an ulp at 10¹²): so is the shifted mean.
        assert!((c.shifted_mean - 0.1).abs() < 1e-4, "{}", c.shifted_mean);
        assert_eq!(Centred::of(&[]).sum_squares, 0.0);
    }
}
