//! Wilcoxon signed-rank tests for paired data (d = after − before): the public test with
//! Pratt's zero handling (matching `scipy.stats.wilcoxon(..., zero_method="pratt")`), the
//! differentially private Pratt test WP of Couch et al. (CCS 2019, §5), and the Task–Clifton
//! private Wilcoxon (SDM 2016) as corrected by Couch et al., the paper's baseline.
//!
//! # Public test
//!
//! W = Σ sign(d_i)·rank_i with zeros ranked and then given sign 0 ([`pratt_statistic`], O(n
//! log n)). [`wilcoxon_pratt`] reports scipy's statistic (min(R+, R−) two-sided, R+
//! one-sided) and also W, R+ and R− so users can cross-check. p-values: the normal
//! approximation with Pratt's (Cureton's) zero adjustment and the tie correction, or the exact
//! null for data without zeros or ties ([`PublicMethod::Auto`]: exact when n ≤ 50).
//!
//! ```
//! use dptest_wilcoxon::{wilcoxon_pratt, PairedSample, PublicOptions};
//!
//! let d = [0.0, 0.0, 1.5, -2.0, 3.0, -0.5, 4.0, 2.5, -1.0, 3.5, 1.5, 0.0, 2.0, -3.0, 5.0];
//! let r = wilcoxon_pratt(&PairedSample::from_differences(&d)?, &PublicOptions::default())?;
//! assert_eq!((r.statistic, r.r_plus, r.r_minus, r.w), (29.0, 85.0, 29.0, 56.0));
//! assert!((r.p_value - 0.10952614205271183).abs() < 1e-10); // scipy 1.17.1
//! # Ok::<(), dptest_wilcoxon::WilcoxonError>(())
//! ```
//!
//! # Private test
//!
//! W̃ = W + Lap(2n/ε) (W has L1 sensitivity 2n, paper Thm 5.1; audited exhaustively for
//! n ≤ 8 and by adversarial search up to n = 1000), released through `dptest-mechanisms`
//! (OS CSPRNG, exact discrete Laplace). The p-value is post-processing against
//! [`Reference::Exact`] (default: the exact signed-rank pmf of W ⊕ Laplace, O(1) per p-value
//! once built) or [`Reference::Normal`] (the paper's Normal(0, n(n+1)(2n+1)/6) ⊕ Laplace, in
//! closed form), for `two-sided`, `less` or `greater` alternatives. Either can also run by
//! Monte Carlo on a refdist engine ([`Backend::MonteCarlo`]).
//!
//! ```
//! use dptest_mechanisms::Epsilon;
//! use dptest_wilcoxon::{private_wilcoxon, Backend, PairedSample, PrivateOptions};
//!
//! let before = [12.1, 14.3, 11.8, 15.2, 13.3, 12.9, 14.8, 13.7];
//! let after = [13.0, 14.1, 12.9, 16.0, 13.3, 13.8, 15.5, 14.9];
//! let sample = PairedSample::new(&before, &after)?;
//! let r = private_wilcoxon(&sample, Epsilon::new(1.0)?, &PrivateOptions::default(), Backend::Exact)?;
//! assert!(0.0 < r.p_value && r.p_value <= 1.0);
//! assert_eq!((r.n, r.delta, r.release.sensitivity), (8, 0.0, 16.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Validity of the exact reference with zeros and ties
//!
//! [`Reference::Exact`] is the null of W for n untied non-zero ranks. Under H0 the signs of
//! the non-zero d are fair and independent given |d|, so for data with n0 zeros and tied |d|,
//! W = Σ s_i·r_i over the non-zero midranks. Two facts make this null conservative:
//! dropping a rank (a zero) can only shrink W in convex order (E φ(X + a s) grows with |a|
//! for convex φ), and replacing the ranks of a tie block by their mean is a conditional
//! expectation given the block's sign sum, hence also a convex-order decrease (Jensen). So
//! W_data + L ≤_cx W_ref + L. Convex order bounds stop-loss transforms, not every tail
//! probability, so the size was also **computed exactly** ([`conditional_size`]: the exact
//! pmf of the conditional W ⊕ Laplace at the reference's critical value, no Monte Carlo):
//!
//! - for every zero count and a family of tie patterns (untied, blocks of 2/3/5, one block,
//!   a large block below a single top rank, …), n ≤ 30, ε ∈ {0.1, 1, 3}, α ∈ {.01, .05, .1},
//!   two-sided and one-sided: never above α (a test asserts it);
//! - the paper's Fig. 9 setting scaled to n = 200, ε = 1, α = .05: size 0.0500 / 0.0472 /
//!   0.0018 with 0% / 30% / 90% zeros;
//! - **limitation:** with very little noise relative to the rank lattice (ε ≥ 3.5 at n ≤ 20;
//!   e.g. n = 8, ε = 10, 3 zeros: 0.0549 at α = .05; worst seen 0.125 at α = .1, n = 10,
//!   ε = 100), the coarser lattice of zeros/ties can push the size above α. The paper's Normal
//!   reference has the same problem and is, besides, not exact without zeros (0.1004 at
//!   α = .1, n = 10, ε = 1). Use ε ≤ 3 at small n, or check a setting with
//!   [`conditional_size`] (the ignored test `scan_conditional_sizes` prints a full scan).
//!
//! # Task–Clifton baseline (module decisions)
//!
//! - Statistic: the classic Wilcoxon (zeros dropped), normalised by σ(N) = √(N(N+1)(2N+1)/6)
//!   where **N is the number of rows that enter the ranking**: the n_r non-zero differences,
//!   plus the 2k dummies for High Privacy. This is TC's own z-score (exactly standard under
//!   H0 for any n_r), and it is why High Utility is not DP: the noise 2·N_min/(σ(N_min)·ε)
//!   bounds the sensitivity of W/σ(N) only when N ≥ N_min. (Couch's code normalised by the
//!   total row count, zeros included, and added a continuity correction in its ties study.)
//! - High Utility: N_min = ⌈0.3n⌉, **not differentially private** (a test exhibits |Δz| above
//!   the noise bound with 90% zeros). High Privacy: k pairs at +∞ and k at −∞ ([`DEFAULT_DUMMIES`]
//!   = 15), N_min = 2k; the dummies tie above every real |d| with k signs of each kind, so
//!   they add exactly 0 to W (Couch's ±(M ± 1) dummies biased W by +k²); ε-DP (sensitivity
//!   audited exhaustively for small n and k).
//! - Critical value: z_{1−(α−.01)/.99} + ln(50)·b, the corrected Laplace quantile
//!   ([`tc_analytic_critical_value`]; reproduces paper Table 1's TC column exactly).
//! - Sidedness: the paper's tables are one-sided upper. `greater`/`less` use level α in one
//!   tail; **two-sided spends α/2 per tail** (so it needs α > 0.02), unlike Couch's
//!   comparison code, which applied the one-sided value to |z| (size ≈ 2α).
//! - p-value: the smallest α at which the analytic test rejects, 0.01 + 0.99·Φ̄(z̃ −
//!   ln(50)·b) (never below 0.01); two-sided: twice that at |z̃|.
//! - "+" variants ([`TcVariant::HighUtilityPlus`], [`TcVariant::HighPrivacyPlus`]): the
//!   critical value is the simulated quantile of W(N_min)/σ(N_min) + Lap(b) ([`TcNull`],
//!   Philox tag [`TC_NULL_TAG`] = 49, CPU engine), sampled once per reference.
//!
//! ```
//! use dptest_mechanisms::Epsilon;
//! use dptest_wilcoxon::{task_clifton, PairedSample, TcOptions, TcVariant};
//!
//! let sample = PairedSample::from_differences(&[0.4, -1.0, 2.0, 0.0, 3.0, 3.5, 1.2, 2.2])?;
//! let options = TcOptions { variant: TcVariant::high_privacy(), ..TcOptions::default() };
//! let r = task_clifton(&sample, Epsilon::new(1.0)?, &options)?;
//! assert!(r.differentially_private && r.p_value >= 0.01);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Performance
//!
//! The statistic is O(n log n) (41 µs at n = 1000, 0.13 s at n = 10⁶, release build). The
//! exact reference costs O(n³) once per n (the signed-rank pmf, ≈ 50–85 ms at n = 1000; it is
//! cached per n, so another ε at the same n costs O(n²), ≈ 2 ms) and then answers each
//! p-value in O(1): 17 ns at n = 1000 (normal reference: 40 ns). Up to
//! [`MAX_EXACT_N`] = 2000 pairs; beyond, use [`Reference::Normal`].
//!
//! # Studies (calibration, power, tables)
//!
//! Build the reference once per setting ([`WpReference`], [`TcReference`]), then score many
//! simulated datasets: [`Scenario`] generates the paper's data (d = u − v, u ~ N(0,1),
//! v ~ N(effect, 1), with a fraction of exact zeros) from Philox streams ([`study_stream`],
//! tag [`STUDY_TAG`] = 48), [`simulate_release`] adds the release's noise distribution
//! (simulation only, never for real releases), and [`wilcoxon_study`] /
//! [`task_clifton_study`] return every p-value. [`comparison_critical_values`] gives paper
//! Tables 1–2 (one-sided upper critical values of W/σ_n: public, private Pratt, TC).
//!
//! ```
//! use dptest_mechanisms::Epsilon;
//! use dptest_wilcoxon::{wilcoxon_study, Alternative, Backend, Reference, Scenario, WpReference};
//!
//! let reference = WpReference::new(100, Epsilon::new(1.0)?, Reference::Exact, Backend::Exact)?;
//! let null = Scenario::null(100, 0.3)?;
//! let run = wilcoxon_study(&reference, &null, Alternative::TwoSided, 500, 7)?;
//! assert!(run.rejection_rate(0.05) < 0.05 + 3.0 * run.binomial_sd(0.05));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub use crate::{
    error::WilcoxonError,
    exact::MAX_EXACT_N,
    private::{
        Backend, PrivateOptions, PrivateResult, Reference, WpReference, pratt_sensitivity,
        private_wilcoxon, release_pratt,
    },
    public::{AUTO_EXACT_MAX_N, PublicMethod, PublicOptions, PublicResult, wilcoxon_pratt},
    sample::{Alternative, PairedSample, PrattStatistic, pratt_statistic, signed_rank_sd},
    study::{
        RateSummary, STUDY_TAG, Scenario, StudyRun, simulate_release, study_stream,
        task_clifton_study, wilcoxon_study,
    },
    tables::{ComparisonRow, comparison_critical_values},
    task_clifton::{
        DEFAULT_DUMMIES, TC_GAMMA, TC_NULL_TAG, TcNull, TcOptions, TcReference, TcResult,
        TcStatistic, TcVariant, release_task_clifton, task_clifton, tc_analytic_critical_value,
        tc_sensitivity, tc_statistic,
    },
    validity::{ConditionalSize, MAX_CONDITIONAL_N, conditional_size},
};

#[cfg(test)]
mod audit;
mod error;
mod exact;
mod private;
mod public;
mod sample;
mod study;
mod tables;
mod task_clifton;
mod validity;
