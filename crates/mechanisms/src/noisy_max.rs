//! Report noisy max: the index of the largest integer score after exact discrete Laplace
//! noise. Private confidence intervals pick a candidate point with it.
//!
//! Privacy: each score moves by at most Δ between neighbouring datasets. Integer noise Z
//! with P[Z = z] ∝ exp(−|z|·ε/(2Δ)) is added to every score and only the index of the
//! largest noisy score is released (the first on ties): ε-DP (Dwork & Roth 2014, Claim 3.9,
//! with noise of scale 2Δ/ε for scores that need not move together). The proof uses only
//! that, with the other noises fixed, the noises for which a candidate wins form an up-set
//! (true for any fixed tie-breaking rule) and that shifting one noise by 2Δ, an integer,
//! changes its probability by at most a factor e^ε: both hold on the integer lattice. The
//! noisy scores are never released.

use num_bigint::BigInt;
use rand::TryRng;

use crate::cks20::discrete_laplace;
use crate::os_bytes::OsBytes;
use crate::plan::laplace_plan_on_lattice;
use crate::{Epsilon, MechanismError, Sensitivity};

/// The index of the largest of `scores` after noise of scale 2Δ/ε (first on ties), from the
/// OS CSPRNG: ε-DP when each score has sensitivity `sensitivity` (Δ, an integer ≥ 1).
///
/// The OS is asked for 4096 bytes at a time (one release's reader, never kept), since one
/// system call a word made a noisy max over 10⁵ candidates about twelve times slower
/// (`tests::the_block_reader_saves`).
///
/// # Errors
/// [`MechanismError::InvalidSensitivity`] for Δ = 0 or no scores, or the sampler's errors.
pub fn report_noisy_max(
    scores: &[i64],
    sensitivity: u32,
    epsilon: Epsilon,
) -> Result<usize, MechanismError> {
    noisy_max_with(scores, sensitivity, epsilon, &mut OsBytes::new())
}

/// **NOT PRIVATE.** [`report_noisy_max`] with a caller-supplied RNG (feature
/// `insecure-seeded-noise`, tests only).
///
/// # Errors
/// As [`report_noisy_max`].
#[cfg(feature = "insecure-seeded-noise")]
pub fn report_noisy_max_insecure_seeded<R: rand::Rng + ?Sized>(
    scores: &[i64],
    sensitivity: u32,
    epsilon: Epsilon,
    rng: &mut R,
) -> Result<usize, MechanismError> {
    noisy_max_with(scores, sensitivity, epsilon, rng)
}

fn noisy_max_with<R: TryRng + ?Sized>(
    scores: &[i64],
    sensitivity: u32,
    epsilon: Epsilon,
    rng: &mut R,
) -> Result<usize, MechanismError> {
    if sensitivity == 0 || scores.is_empty() {
        return Err(MechanismError::InvalidSensitivity { value: f64::from(sensitivity) });
    }
    let twice = Sensitivity::new(2.0 * f64::from(sensitivity))?;
    let plan = laplace_plan_on_lattice(twice, epsilon, 0)?;
    let mut best: Option<(BigInt, usize)> = None;
    for (i, &score) in scores.iter().enumerate() {
        let z = discrete_laplace(rng, &plan.lattice_numer, &plan.lattice_denom)?;
        let noisy = BigInt::from(score) + z;
        if best.as_ref().is_none_or(|(b, _)| noisy > *b) {
            best = Some((noisy, i));
        }
    }
    Ok(best.map_or(0, |(_, i)| i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_clear_winner_wins_and_the_choice_follows_the_scale() {
        let eps = Epsilon::new(1.0).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let scores = [0, 0, 60, 0];
        for _ in 0..50 {
            assert_eq!(noisy_max_with(&scores, 1, eps, &mut rng).unwrap(), 2);
        }
        // Two scores 2 apart at ε = 1 (scale 2): the better one wins about 1 − e^{−1}/2·… of
        // the time, clearly more than half and clearly less than always.
        let wins =
            (0..2000).filter(|_| noisy_max_with(&[0, 2], 1, eps, &mut rng).unwrap() == 1).count();
        assert!((1200..1900).contains(&wins), "{wins}");
        assert!(noisy_max_with(&[], 1, eps, &mut rng).is_err());
        assert!(report_noisy_max(&[1, 5], 1, eps).is_ok());
    }

    /// What reading the OS CSPRNG a block at a time saves: a noisy max over 10⁵ candidates
    /// with the OS asked for every word, and through [`OsBytes`] (the figures CHANGELOG.md
    /// quotes). Run with `cargo test --release -p dptest-mechanisms --lib
    /// noisy_max::tests::the_block_reader_saves -- --ignored --nocapture`.
    #[test]
    #[ignore = "timing; run in release mode"]
    fn the_block_reader_saves() {
        let scores: Vec<i64> = (0..100_000).map(|i| i % 1000).collect();
        let eps = Epsilon::new(1.0).unwrap();
        for round in 0..3 {
            let start = std::time::Instant::now();
            noisy_max_with(&scores, 1, eps, &mut rand::rngs::SysRng).unwrap();
            let word_at_a_time = start.elapsed();
            let start = std::time::Instant::now();
            noisy_max_with(&scores, 1, eps, &mut OsBytes::new()).unwrap();
            println!(
                "round {round}: {word_at_a_time:?} a word at a time, {:?} through OsBytes",
                start.elapsed()
            );
        }
    }
}
