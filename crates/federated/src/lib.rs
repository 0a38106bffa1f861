//! K-anonymous federated analysis (Becher, Marcus-Kalish & Steinberg 2023, "Federated
//! statistical analysis: non-parametric testing and quantile estimation"): summary tables
//! built across centres that never share raw data, federated Mann–Whitney tests and federated
//! quantiles. What each party sees: a centre sees only its own rows; the coordinator and every
//! centre see the summary table (bin limits and whole counts, each 0 or ≥ K), never a row.
//!
//! * **Summary table** ([`SummaryTable`]): bins (c_{j−1}, c_j] with whole counts per group,
//!   each 0 or ≥ K, K, the extreme-limits policy and the ids of the contributing centres;
//!   versioned JSON (`dptest-federated-table/2`), validated on load (a fractional count, a
//!   count in 1..K−1 or a repeated centre is an error).
//! * **Algorithm S1** ([`bin_centre`]): one centre's K-anonymous table (every cell 0 or ≥ K);
//!   interior limits are anonymised with an independent w_j ~ U(0,1) each; extremes are ±∞,
//!   natural bounds or privacy buffers ([`ExtremeLimits`]). A group with 1..K−1 observations is
//!   an error or, by explicit policy, suppressed and reported ([`SmallGroupPolicy`]).
//! * **Joining** ([`add_centre`], [`build_federation`]): the paper's S3 without SPLIT — the
//!   new centre bins its own data by S1, each of its own limits is paired with the nearest
//!   table limit, and its counts between paired limits (each 0 or ≥ K) are added to the runs
//!   of bins they delimit. Cells stay whole and 0 or ≥ K, and the new table is a public
//!   function of the old one and the centre's own S1 table, whatever table it is handed (the
//!   paper's S3 released fractional cells below K from which a centre's counts could be
//!   recovered).
//! * **Tests** ([`centre_summary`], [`sum_test`], [`weighted_test`] (= van Elteren),
//!   [`fisher_test`], [`table_test`], [`combined_test`]). Direction: group 1 is the first
//!   label, Z > 0 when group 1 tends larger, [`Alternative::Greater`] = group 1 stochastically
//!   larger (dptest-refdist's [`Alternative`], scipy's names).
//! * **Quantiles** ([`quantile_naive`], [`quantile_linear`], [`yj_table_fit`],
//!   [`yj_data_fit`], [`quantile_loss`]; several at once by a named estimator:
//!   [`table_quantiles`], [`data_quantiles`]) and the Yeo–Johnson transform ([`yeo_johnson`]).
//! * **Simulation helpers** for `cargo xtask federated-sim` ([`run_testing_replicate`],
//!   [`run_quantile_replicate`], [`allocation`], the parameter grids).
//!
//! * **A centre's journal** ([`Journal`], [`bin_centre_journaled`], [`add_centre_journaled`]):
//!   the entry points for real data. Each of a centre's own limits is derived from its secret
//!   and the two data values it separates (the same in every run), and a table is admitted
//!   only if, with everything the centre disclosed before, every interval between two of its
//!   disclosed limits holds 0 or ≥ K of its values; refused otherwise, with the reason.
//!
//! Randomness of the simulations is passed in (`&mut R where R: rand::Rng + ?Sized`);
//! [`build_federation_os`] draws every w_j from the OS CSPRNG (`rand::rngs::SysRng`) and
//! reports an OS failure as [`FederatedError::Entropy`].
//!
//! ```
//! use dptest_federated::{
//!     Alternative, BinningOptions, ExtremeLimits, SmallGroupPolicy, SummaryTable, add_centre,
//!     bin_centre, centre_summary, table_test, weighted_test, yj_table_fit,
//! };
//! use rand::SeedableRng;
//!
//! // Two centres, control (x, group 1) and treatment (y); the RNG only anonymises limits.
//! let a_x: Vec<f64> = (0..60).map(|i| f64::from(i) * 0.5).collect();
//! let a_y: Vec<f64> = (0..50).map(|i| f64::from(i) * 0.6 + 10.0).collect();
//! let b_x: Vec<f64> = (0..30).map(|i| f64::from(i) * 0.9 + 1.0).collect();
//! let b_y: Vec<f64> = (0..25).map(|i| f64::from(i) * 1.1 + 12.0).collect();
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7); // real data: bin_centre_journaled
//!
//! // Centre A (the larger) bins its data; centre B joins the table.
//! let options = BinningOptions::new(10)?.with_extremes(ExtremeLimits::BUFFERS);
//! let labels = ["control", "treated"];
//! let first = bin_centre(&[&a_x, &a_y], &labels, "site-a", &options, &mut rng)?;
//! let added =
//!     add_centre(&first.table, &[&b_x, &b_y], "site-b", SmallGroupPolicy::Error, &mut rng)?;
//! assert!(added.table.counts().iter().flatten().all(|&c| c == 0.0 || c >= 10.0));
//! let table = SummaryTable::from_json(&added.table.to_json())?; // what centres exchange
//! assert_eq!(table.totals(), vec![90.0, 75.0]);
//! assert_eq!(table.centres(), ["site-a", "site-b"]);
//!
//! // Federated Mann–Whitney tests: control (group 1) smaller, so "less" and Z < 0.
//! let on_table = table_test(&table, Alternative::Less)?;
//! let summaries = [centre_summary(&a_x, &a_y)?, centre_summary(&b_x, &b_y)?];
//! let weighted = weighted_test(&summaries, Alternative::Less)?;
//! assert!(on_table.p_value < 0.01 && weighted.p_value < 0.01 && on_table.statistic < 0.0);
//!
//! // A quantile of the control group from the table alone (Yeo–Johnson, one pass).
//! let median = yj_table_fit(&table, 0)?.quantile(0.5)?;
//! assert!(median > 10.0 && median < 20.0);
//! # Ok::<(), dptest_federated::FederatedError>(())
//! ```
#![deny(missing_docs)]

mod binning;
mod error;
mod estimates;
mod federation;
mod journal;
mod merge;
mod mwu;
mod numeric;
mod quantile;
mod sim;
mod table;
mod yeojohnson;

pub use binning::{
    BinningOptions, CentreRelease, RunTotal, SmallGroupPolicy, Suppression, bin_centre,
};
pub use error::FederatedError;
pub use estimates::{
    DataMethod, Estimate, QuantileError, Quantiles, TableMethod, data_quantiles, group_index,
    table_quantiles,
};
pub use federation::{
    FederationBuild, add_centre_journaled, bin_centre_journaled, build_federation,
    build_federation_os, random_centre_id,
};
pub use journal::{JOURNAL_FORMAT, Journal};
pub use merge::add_centre;
pub use mwu::{
    Alternative, CENTRE_FORMAT, CentreSummary, CentreSummaryFile, FederatedTest, TableStatistic,
    TestMethod, centre_summary, check_distinct_centres, combined_test, fisher_test, p_from_z,
    sum_test, table_statistic, table_test, weighted_test,
};
pub use quantile::{
    QuantileLoss, YjFit, quantile_linear, quantile_loss, quantile_loss_with, quantile_naive,
    sample_quantile, yj_data_fit, yj_data_fit_with, yj_table_fit,
};
pub use sim::{
    DELTA_GRID, GAMMA_SHAPES, METHOD_COMPARISON, POWER_DELTAS, QUANTILE_PROBS, QuantileData,
    QuantileDesign, QuantileReplicate, SIGMA_ALPHA_GRID, SIGMA_BETA_GRID, SIM_CENTRES, SIM_K,
    SIM_PER_GROUP, SigmaAlphaRule, TestingDesign, TestingReplicate, allocation, gamma_sigma_alpha,
    generate_quantile_data, generate_testing_data, mixture_gamma_quantile, run_quantile_replicate,
    run_testing_replicate,
};
// The standard normal distribution lives in dptest-refdist; re-exported for this crate's callers.
pub use dptest_refdist::special::{normal_cdf, normal_quantile, normal_sf};
pub use table::{ExtremeLimit, ExtremeLimits, SummaryTable, TABLE_FORMAT};
pub use yeojohnson::{YjCentreSums, yeo_johnson, yeo_johnson_inverse, yj_centre_sums};
