//! The public (non-private) Wilcoxon signed-rank test, matching `scipy.stats.wilcoxon(d,
//! zero_method=Z, method="auto")` (scipy 1.17) for Z = `"pratt"` (the default here) or
//! `"wilcox"`.
//!
//! scipy's `method="auto"` ([`PublicMethod::Auto`]), with n the number of differences
//! (zeros included, whatever the zero method):
//!
//! 1. n > [`AUTO_EXACT_MAX_N`] = 50: the normal approximation;
//! 2. no zeros and no tied |d|: the exact signed-rank null;
//! 3. zeros or ties and n ≤ [`AUTO_PERMUTATION_MAX_N`] = 13: a permutation test over all
//!    2ⁿ sign flips (2¹³ < 9999, scipy's default resample count, so scipy enumerates them
//!    all and its p-value is exact; we compute the same null as the pmf of Σ s_i·rank_i);
//! 4. otherwise the normal approximation.

use serde::Serialize;

use crate::error::WilcoxonError;
use crate::exact::{check_exact_n, positive_sum_pmf, signed_rank_pmf};
use crate::sample::{Alternative, PairedSample, PrattStatistic, pratt_statistic};
use dptest_refdist::special::normal_sf;

/// How the public p-value is computed (scipy's `method`); a result's `method` is never
/// `Auto`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PublicMethod {
    /// scipy's `auto` (module docs): exact, permutation or asymptotic by n, zeros and ties.
    #[default]
    Auto,
    /// Normal approximation (Pratt's/Cureton's zero adjustment for Pratt) with the tie
    /// correction.
    Asymptotic,
    /// The exact untied signed-rank null of the tested count. With zeros or ties it is not
    /// exact; as scipy, R+ is then rounded up for P(X ≤ r) and down for P(X ≥ r) (a
    /// conservative p-value, symmetric in the alternatives).
    Exact,
    /// The exact sign-flip null of the observed (mid-)ranks, zeros and ties included: scipy's
    /// `PermutationMethod()` for n ≤ [`AUTO_PERMUTATION_MAX_N`] (where scipy enumerates every
    /// flip); for larger n the exact value that scipy's random resampling estimates.
    /// Refused above [`PERMUTATION_MAX_N`].
    Permutation,
}

/// Zero differences (scipy's `zero_method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ZeroMethod {
    /// Rank zeros with the other |d|, then drop their ranks (the private test's statistic).
    #[default]
    Pratt,
    /// Drop zeros before ranking (scipy's default `"wilcox"`).
    Wilcox,
    /// Rank zeros with the other |d| and add half their ranks to R+ and half to R− (scipy's
    /// `"zsplit"`); the normal approximation then counts zeros as ordinary ranks.
    Zsplit,
}

/// Options of [`wilcoxon_pratt`]; the default is scipy's except the zero method (two-sided,
/// auto, no continuity correction, Pratt zeros).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PublicOptions {
    /// The alternative hypothesis.
    pub alternative: Alternative,
    /// How the p-value is computed.
    pub method: PublicMethod,
    /// Continuity correction of the normal approximation (scipy's `correction`).
    pub correction: bool,
    /// How zero differences are handled.
    pub zero_method: ZeroMethod,
}

/// Result of the public test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PublicResult {
    /// `"wilcoxon"`.
    pub test: &'static str,
    /// scipy's statistic: min(R+, R−) two-sided, R+ one-sided.
    pub statistic: f64,
    /// W = R+ − R− (the statistic the private test releases, for Pratt zeros).
    pub w: f64,
    /// Sum of the ranks of positive differences.
    pub r_plus: f64,
    /// Sum of the ranks of negative differences.
    pub r_minus: f64,
    /// scipy's `zstatistic` (−|z| two-sided), asymptotic method only.
    pub z: Option<f64>,
    /// The p-value.
    pub p_value: f64,
    /// Number of pairs (zeros included).
    pub n: usize,
    /// Number of zero differences.
    pub n_zero: usize,
    /// The method that ran: exact, permutation or asymptotic.
    pub method: PublicMethod,
    /// The zero method used.
    pub zero_method: ZeroMethod,
    /// The alternative tested.
    pub alternative: Alternative,
}

/// Largest n for which [`PublicMethod::Auto`] uses an exact null (scipy's rule).
pub const AUTO_EXACT_MAX_N: usize = 50;

/// Largest n (zeros included) for which [`PublicMethod::Auto`] runs the permutation null on
/// data with zeros or ties: scipy's rule, 2¹³ sign flips being fewer than its 9999 resamples.
pub const AUTO_PERMUTATION_MAX_N: usize = 13;

/// Largest n of [`PublicMethod::Permutation`] (its pmf costs O(n³): 46 ms at n = 500, release).
pub const PERMUTATION_MAX_N: usize = 500;

/// The public signed-rank test of `sample` (d = after − before), zeros handled per
/// `options.zero_method`.
///
/// # Errors
/// [`WilcoxonError::AllZero`] if every difference is zero (except under zsplit, where the
/// sums are equal and the p-value is 1);
/// [`WilcoxonError::TooLargeForExact`] above the exact or permutation limit.
pub fn wilcoxon_pratt(
    sample: &PairedSample,
    options: &PublicOptions,
) -> Result<PublicResult, WilcoxonError> {
    let n_zero = sample.differences().iter().filter(|&&d| d == 0.0).count();
    if n_zero == sample.len() && options.zero_method != ZeroMethod::Zsplit {
        return Err(WilcoxonError::AllZero);
    }
    let tested = tested_differences(sample, options.zero_method)?;
    let ranked = pratt_statistic(&tested)?;
    let doubled = || doubled_nonzero_ranks(&tested);
    test_ranked(&ranked, sample.len(), n_zero, doubled, options)
}

/// What the public test reads of the differences, computed where the rows live
/// (`dptest.spark`): counts and rank sums of the ranking `options.zero_method` tests
/// (mid-ranks of |d| over all n for Pratt and zsplit, over the non-zero d for Wilcox).
#[derive(Clone, Debug, PartialEq)]
pub struct SignedRankSummary {
    /// Differences, zeros included.
    pub n: usize,
    /// Zero differences.
    pub n_zero: usize,
    /// Σ of the ranks of the positive differences.
    pub r_plus: f64,
    /// Σ of the ranks of the negative differences.
    pub r_minus: f64,
    /// Σ(t³ − t) over the blocks of equal non-zero |d|.
    pub tie_term: f64,
    /// The sizes of those blocks in ascending |d|: read by the permutation null only (n up to
    /// [`PERMUTATION_MAX_N`]); `None` refuses it.
    pub blocks: Option<Vec<usize>>,
}

/// [`wilcoxon_pratt`] from a [`SignedRankSummary`] of the ranking `options.zero_method` tests.
///
/// # Errors
/// As [`wilcoxon_pratt`], and [`WilcoxonError::NeedsTieBlocks`] when the permutation null
/// runs without the tie blocks.
pub fn wilcoxon_of_summary(
    summary: &SignedRankSummary,
    options: &PublicOptions,
) -> Result<PublicResult, WilcoxonError> {
    if summary.n_zero == summary.n && options.zero_method != ZeroMethod::Zsplit {
        return Err(WilcoxonError::AllZero);
    }
    let ranks_zeros = options.zero_method != ZeroMethod::Wilcox;
    let tested_zeros = if ranks_zeros { summary.n_zero } else { 0 };
    let ranked = PrattStatistic {
        w: summary.r_plus - summary.r_minus,
        r_plus: summary.r_plus,
        r_minus: summary.r_minus,
        n: summary.n - summary.n_zero + tested_zeros,
        n_zero: tested_zeros,
        tie_term: summary.tie_term,
    };
    let doubled = || {
        let blocks = summary.blocks.as_ref().ok_or(WilcoxonError::NeedsTieBlocks)?;
        Ok(doubled_ranks_of_blocks(tested_zeros, blocks))
    };
    test_ranked(&ranked, summary.n, summary.n_zero, doubled, options)
}

/// The test from the tested ranking; `doubled` gives twice the non-zero ranks when the
/// permutation null runs.
fn test_ranked(
    ranked: &PrattStatistic,
    n: usize,
    n_zero: usize,
    doubled: impl FnOnce() -> Result<Vec<u64>, WilcoxonError>,
    options: &PublicOptions,
) -> Result<PublicResult, WilcoxonError> {
    let stat = scored(ranked, options.zero_method);
    let method = chosen_method(options.method, n, n_zero, &stat)?;
    let (p_value, z) = match method {
        PublicMethod::Exact => (exact_p(&stat, options.alternative)?, None),
        // The sign-flip null of the tested ranks (zsplit's zero halves are not flipped).
        PublicMethod::Permutation => {
            (permutation_p(&doubled()?, ranked, options.alternative), None)
        }
        _ => {
            let (p, z) = asymptotic_p(&stat, options);
            (p, Some(z))
        }
    };
    let statistic = match options.alternative {
        Alternative::TwoSided => stat.r_plus.min(stat.r_minus),
        _ => stat.r_plus,
    };
    Ok(PublicResult {
        test: "wilcoxon",
        statistic,
        w: stat.w,
        r_plus: stat.r_plus,
        r_minus: stat.r_minus,
        z,
        p_value,
        n,
        n_zero,
        method,
        zero_method: options.zero_method,
        alternative: options.alternative,
    })
}

/// The differences that are ranked: all (Pratt, zsplit) or the non-zero ones (Wilcox).
fn tested_differences(
    sample: &PairedSample,
    zero_method: ZeroMethod,
) -> Result<PairedSample, WilcoxonError> {
    match zero_method {
        ZeroMethod::Pratt | ZeroMethod::Zsplit => Ok(sample.clone()),
        ZeroMethod::Wilcox => {
            let nonzero: Vec<f64> =
                sample.differences().iter().copied().filter(|&d| d != 0.0).collect();
            PairedSample::from_differences(&nonzero)
        }
    }
}

/// The rank sums the p-value is read from: Pratt's as ranked, or, for zsplit, with half of
/// the zeros' ranks (n₀ zeros hold ranks 1..n₀) added to each sum and the zeros counted as an
/// ordinary tie block (so the normal approximation has no Pratt adjustment).
fn scored(ranked: &PrattStatistic, zero_method: ZeroMethod) -> PrattStatistic {
    if zero_method != ZeroMethod::Zsplit {
        return ranked.clone();
    }
    let n0 = ranked.n_zero as f64;
    let half_zero_ranks = n0 * (n0 + 1.0) / 4.0;
    PrattStatistic {
        r_plus: ranked.r_plus + half_zero_ranks,
        r_minus: ranked.r_minus + half_zero_ranks,
        n_zero: 0,
        tie_term: ranked.tie_term + if n0 > 1.0 { n0.powi(3) - n0 } else { 0.0 },
        ..ranked.clone()
    }
}

/// The method that runs (scipy's `auto` rule from the whole sample: n and zeros counted
/// before any are dropped), with its size limit checked.
fn chosen_method(
    asked: PublicMethod,
    n: usize,
    n_zero: usize,
    tested: &PrattStatistic,
) -> Result<PublicMethod, WilcoxonError> {
    let method = match asked {
        PublicMethod::Auto if n > AUTO_EXACT_MAX_N => PublicMethod::Asymptotic,
        PublicMethod::Auto if n_zero == 0 && tested.tie_term == 0.0 => PublicMethod::Exact,
        PublicMethod::Auto if n <= AUTO_PERMUTATION_MAX_N => PublicMethod::Permutation,
        PublicMethod::Auto => PublicMethod::Asymptotic,
        other => other,
    };
    match method {
        PublicMethod::Exact => check_exact_n(tested.n)?,
        PublicMethod::Permutation if tested.n > PERMUTATION_MAX_N => {
            return Err(WilcoxonError::TooLargeForExact { n: tested.n, max: PERMUTATION_MAX_N });
        }
        _ => {}
    }
    Ok(method)
}

/// scipy's exact p-value from the untied null of n ranks: P(X ≤ ⌈R+⌉) ("less"),
/// P(X ≥ ⌊R+⌋) ("greater"), twice the smaller (R+ is an integer without ties or zeros).
fn exact_p(stat: &PrattStatistic, alternative: Alternative) -> Result<f64, WilcoxonError> {
    let pmf = signed_rank_pmf(stat.n)?;
    let at_most: f64 = pmf[..=(stat.r_plus.ceil() as usize).min(pmf.len() - 1)].iter().sum();
    let at_least: f64 = pmf[stat.r_plus.floor() as usize..].iter().sum();
    Ok(match alternative {
        Alternative::Less => at_most,
        Alternative::Greater => at_least,
        Alternative::TwoSided => (2.0 * at_most.min(at_least)).min(1.0),
    })
}

/// The exhaustive sign-flip p-value: R+ = Σ_{d_i > 0} rank_i with fair independent signs on
/// the non-zero d (zeros never change sign). Mid-ranks are multiples of ½, so the pmf is
/// over 2·R+ with integer weights 2·rank_i; its probabilities are dyadic, as scipy's
/// counts / 2ⁿ, so both are exact.
fn permutation_p(doubled: &[u64], stat: &PrattStatistic, alternative: Alternative) -> f64 {
    let pmf = positive_sum_pmf(doubled);
    tail_p(&pmf, (2.0 * stat.r_plus).round() as usize, alternative)
}

/// Twice the non-zero mid-ranks of `tested`'s |d| (zeros ranked, then dropped).
fn doubled_nonzero_ranks(tested: &PairedSample) -> Result<Vec<u64>, WilcoxonError> {
    let ranks = dptest_ranking::signed_ranks_pratt(tested.differences())?;
    Ok(ranks.signed.iter().filter(|&&r| r != 0.0).map(|r| (2.0 * r.abs()).round() as u64).collect())
}

/// Twice the mid-ranks of tie blocks of non-zero |d| in ascending order, after `zeros` ranks
/// held by zeros: a block of t from rank o + 1 has mid-rank o + (t + 1)/2, so twice it is
/// 2o + t + 1.
fn doubled_ranks_of_blocks(zeros: usize, blocks: &[usize]) -> Vec<u64> {
    let mut offset = zeros as u64;
    let mut doubled = Vec::new();
    for &t in blocks {
        let t = t as u64;
        doubled.extend(std::iter::repeat_n(2 * offset + t + 1, t as usize));
        offset += t;
    }
    doubled
}

/// P(X ≤ k) ("less"), P(X ≥ k) ("greater") or twice the smaller, capped at 1, for the pmf
/// of X over 0, 1, ….
fn tail_p(pmf: &[f64], k: usize, alternative: Alternative) -> f64 {
    let cdf: f64 = pmf[..=k].iter().sum();
    let sf: f64 = pmf[k..].iter().sum();
    match alternative {
        Alternative::Less => cdf,
        Alternative::Greater => sf,
        Alternative::TwoSided => (2.0 * cdf.min(sf)).min(1.0),
    }
}

/// Pratt/Cureton normal approximation with the tie correction (zeros excluded from it).
fn asymptotic_p(stat: &PrattStatistic, options: &PublicOptions) -> (f64, f64) {
    let (n, n0) = (stat.n as f64, stat.n_zero as f64);
    let mean = (n * (n + 1.0) - n0 * (n0 + 1.0)) / 4.0;
    let var_num = n * (n + 1.0) * (2.0 * n + 1.0) - n0 * (n0 + 1.0) * (2.0 * n0 + 1.0);
    let se = ((var_num - stat.tie_term / 2.0) / 24.0).sqrt();
    let mut z = (stat.r_plus - mean) / se;
    if options.correction {
        let sign = match options.alternative {
            Alternative::Greater => 1.0,
            Alternative::Less => -1.0,
            Alternative::TwoSided if z > 0.0 => 1.0,
            Alternative::TwoSided if z < 0.0 => -1.0,
            Alternative::TwoSided => 0.0,
        };
        z -= sign * 0.5 / se;
    }
    match options.alternative {
        Alternative::Greater => (normal_sf(z), z),
        Alternative::Less => (normal_sf(-z), z),
        Alternative::TwoSided => ((2.0 * normal_sf(z.abs())).min(1.0), -z.abs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLDEN: &str = include_str!("../../../testdata/wilcoxon.toml");

    #[derive(serde::Deserialize)]
    struct Golden {
        case: Vec<Case>,
    }

    #[derive(serde::Deserialize)]
    struct Case {
        name: String,
        d: Vec<f64>,
        alternative: String,
        method: String,
        correction: bool,
        statistic: f64,
        pvalue: f64,
        zstatistic: Option<f64>,
        r_plus: f64,
        r_minus: f64,
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 + 1e-9 * b.abs()
    }

    #[test]
    fn matches_scipy_golden_values() {
        let golden: Golden = toml::from_str(GOLDEN).unwrap();
        assert!(golden.case.len() >= 60);
        for case in &golden.case {
            let alternative = match case.alternative.as_str() {
                "less" => Alternative::Less,
                "greater" => Alternative::Greater,
                _ => Alternative::TwoSided,
            };
            let method = match case.method.as_str() {
                "exact" => PublicMethod::Exact,
                _ => PublicMethod::Asymptotic,
            };
            let options = PublicOptions {
                alternative,
                method,
                correction: case.correction,
                zero_method: ZeroMethod::Pratt,
            };
            let sample = PairedSample::from_differences(&case.d).unwrap();
            let r = wilcoxon_pratt(&sample, &options).unwrap();
            let label =
                format!("{} {} {} {}", case.name, case.alternative, case.method, case.correction);
            assert_eq!(r.statistic, case.statistic, "{label}");
            assert_eq!((r.r_plus, r.r_minus), (case.r_plus, case.r_minus), "{label}");
            assert!(close(r.p_value, case.pvalue), "{label}: {} vs {}", r.p_value, case.pvalue);
            match (r.z, case.zstatistic) {
                (Some(z), Some(want)) => assert!(close(z, want), "{label}: z {z} vs {want}"),
                (None, None) => {}
                other => panic!("{label}: z mismatch {other:?}"),
            }
        }
    }

    /// The summary of `d` for `zero_method`, from definitions: mid-rank of |d_i| is
    /// 1 + #{|d_j| < |d_i|} + (#{|d_j| = |d_i|} − 1)/2 among the ranked values.
    fn summary_of(d: &[f64], zero_method: ZeroMethod) -> SignedRankSummary {
        let ranked: Vec<f64> = match zero_method {
            ZeroMethod::Wilcox => d.iter().copied().filter(|&x| x != 0.0).collect(),
            _ => d.to_vec(),
        };
        let abs: Vec<f64> = ranked.iter().map(|x| x.abs()).collect();
        let rank = |a: f64| {
            let below = abs.iter().filter(|&&b| b < a).count() as f64;
            let equal = abs.iter().filter(|&&b| b == a).count() as f64;
            1.0 + below + (equal - 1.0) / 2.0
        };
        let sum = |keep: fn(f64) -> bool| -> f64 {
            ranked.iter().filter(|&&x| keep(x)).map(|x| rank(x.abs())).sum()
        };
        let mut levels: Vec<f64> = abs.iter().copied().filter(|&a| a > 0.0).collect();
        levels.sort_by(f64::total_cmp);
        levels.dedup();
        let blocks: Vec<usize> =
            levels.iter().map(|&l| abs.iter().filter(|&&a| a == l).count()).collect();
        SignedRankSummary {
            n: d.len(),
            n_zero: d.iter().filter(|&&x| x == 0.0).count(),
            r_plus: sum(|x| x > 0.0),
            r_minus: sum(|x| x < 0.0),
            tie_term: blocks.iter().map(|&t| (t as f64).powi(3) - t as f64).sum(),
            blocks: Some(blocks),
        }
    }

    #[test]
    fn the_summary_gives_the_rows_answer_for_every_method_and_zero_method() {
        let golden: Golden = toml::from_str(GOLDEN).unwrap();
        let tied_zeros = [0.0, 0.0, 1.5, -2.0, 3.0, -0.5, 4.0, 2.5, -1.0, 1.5, 0.0, 2.0, -3.0];
        let mut cases: Vec<Vec<f64>> = golden.case.iter().map(|c| c.d.clone()).collect();
        cases.push(tied_zeros.to_vec());
        for d in &cases {
            let sample = PairedSample::from_differences(d).unwrap();
            for zero_method in [ZeroMethod::Pratt, ZeroMethod::Wilcox, ZeroMethod::Zsplit] {
                for method in
                    [PublicMethod::Auto, PublicMethod::Asymptotic, PublicMethod::Permutation]
                {
                    let options = PublicOptions { zero_method, method, ..PublicOptions::default() };
                    let rows = wilcoxon_pratt(&sample, &options);
                    let summary = wilcoxon_of_summary(&summary_of(d, zero_method), &options);
                    assert_eq!(rows, summary, "{d:?} {zero_method:?} {method:?}");
                }
            }
        }
        let mut no_blocks = summary_of(&tied_zeros, ZeroMethod::Pratt);
        no_blocks.blocks = None;
        let permutation = PublicOptions { method: PublicMethod::Permutation, ..Default::default() };
        assert_eq!(
            wilcoxon_of_summary(&no_blocks, &permutation),
            Err(WilcoxonError::NeedsTieBlocks)
        );
    }

    fn auto(d: &[f64], zero_method: ZeroMethod) -> PublicResult {
        let options = PublicOptions { zero_method, ..PublicOptions::default() };
        wilcoxon_pratt(&PairedSample::from_differences(d).unwrap(), &options).unwrap()
    }

    #[test]
    fn auto_follows_scipys_exact_permutation_asymptotic_rule() {
        let untied = [1.0, -2.0, 3.0, 4.5];
        assert_eq!(auto(&untied, ZeroMethod::Pratt).method, PublicMethod::Exact);
        let zero = [1.0, -2.0, 0.0, 4.5];
        assert_eq!(auto(&zero, ZeroMethod::Pratt).method, PublicMethod::Permutation);
        // scipy decides on the zeros before dropping them.
        assert_eq!(auto(&zero, ZeroMethod::Wilcox).method, PublicMethod::Permutation);
        let tied_14: Vec<f64> = (0..14).map(|i| f64::from(i / 2 + 1)).collect();
        assert_eq!(auto(&tied_14, ZeroMethod::Pratt).method, PublicMethod::Asymptotic);
        let untied_51: Vec<f64> = (1..=51).map(f64::from).collect();
        assert_eq!(auto(&untied_51, ZeroMethod::Pratt).method, PublicMethod::Asymptotic);
    }

    #[test]
    fn small_samples_with_zeros_use_the_permutation_null() {
        // The cases (scipy 1.17.1, zero_method="pratt", method="auto"); the normal
        // approximation gave 0.0764 and 0.0192 (anti-conservative).
        let zeros = [0.0, 0.0, 1.0, -2.0, 3.0, 4.0, 5.0, 6.0];
        assert_eq!(auto(&zeros, ZeroMethod::Pratt).p_value, 0.09375);
        let zeros_and_ties = [0.0, 0.0, 1.0, 2.0, 2.0, 4.0, 5.0, 6.0];
        assert_eq!(auto(&zeros_and_ties, ZeroMethod::Pratt).p_value, 0.03125);
    }

    #[test]
    fn forced_permutation_has_a_size_limit() {
        let big: Vec<f64> = (0..=PERMUTATION_MAX_N).map(|i| i as f64).collect();
        let sample = PairedSample::from_differences(&big).unwrap();
        let options = PublicOptions { method: PublicMethod::Permutation, ..Default::default() };
        assert_eq!(
            wilcoxon_pratt(&sample, &options),
            Err(WilcoxonError::TooLargeForExact {
                n: PERMUTATION_MAX_N + 1,
                max: PERMUTATION_MAX_N
            })
        );
    }

    #[test]
    fn all_zero_is_a_typed_error() {
        let zeros = PairedSample::from_differences(&[0.0, -0.0, 0.0]).unwrap();
        assert_eq!(wilcoxon_pratt(&zeros, &PublicOptions::default()), Err(WilcoxonError::AllZero));
    }
}
