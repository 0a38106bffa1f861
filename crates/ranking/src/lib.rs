//! Ranks for rank-based hypothesis tests: mid-ranks (scipy's `rankdata(method="average")`),
//! ranks with ties broken in a uniformly random order, tie-block sizes, and signed ranks of
//! paired differences with Pratt's or Wilcoxon's zero handling.
//!
//! Every function validates its input (non-empty, all values finite) and runs in
//! O(n log n): indices are sorted once in [`f64::total_cmp`] order, after mapping `-0.0` to
//! `0.0` so the two zeros tie (as they do in scipy). From 2^16 values on the sort runs on
//! rayon's thread pool; the order is total (ties by index), so the result is the same.
//!
//! ```
//! use dptest_ranking::{mid_ranks, signed_ranks_pratt, tie_block_sizes};
//!
//! let ranks = mid_ranks(&[10.0, 30.0, 20.0, 20.0])?;
//! assert_eq!(ranks, vec![1.0, 4.0, 2.5, 2.5]);
//! assert_eq!(tie_block_sizes(&[10.0, 30.0, 20.0, 20.0])?, vec![1, 2, 1]);
//!
//! // Pratt: the zero takes rank 1 among |d| and then contributes nothing.
//! let s = signed_ranks_pratt(&[0.0, 2.0, -1.0])?;
//! assert_eq!(s.signed, vec![0.0, 3.0, -2.0]);
//! assert_eq!((s.r_plus(), s.r_minus(), s.n_zero), (3.0, 2.0, 1));
//! # Ok::<(), dptest_ranking::RankError>(())
//! ```
//!
//! Random tie-breaking takes the RNG from the caller:
//!
//! ```
//! use dptest_ranking::ranks_random_ties;
//! use rand::SeedableRng;
//!
//! let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(1);
//! let ranks = ranks_random_ties(&[5.0, 1.0, 1.0], &mut rng)?;
//! assert_eq!(ranks[0], 3);
//! assert!(ranks[1..] == [1, 2] || ranks[1..] == [2, 1]);
//! # Ok::<(), dptest_ranking::RankError>(())
//! ```
#![deny(missing_docs)]

mod error;
mod ranks;
mod signed;

pub use error::RankError;
pub use ranks::{
    labels_by_random_rank, labels_by_random_rank_owned, mid_ranks, mid_ranks_and_ties,
    ranks_random_ties, tie_block_sizes, tie_sum,
};
pub use signed::{
    PrattRankSums, SignedRanks, pratt_rank_sums, signed_ranks_classic, signed_ranks_pratt,
};
