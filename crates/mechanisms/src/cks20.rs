//! Exact discrete Laplace sampler of Canonne, Kamath & Steinke (2020), "The Discrete
//! Gaussian for Differential Privacy", Algorithms 1 and 2, written from the paper.
//!
//! Only uniform random bytes and exact integer arithmetic are used: no floating point.

use crate::MechanismError;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use rand::TryRng;

/// Draws `Z` with `P[Z = z] = (1 − q)/(1 + q) · q^|z|`, `q = exp(−1/scale)`, exactly.
///
/// This is the discrete Laplace sampler behind [`release_laplace`](crate::release_laplace)
/// (Canonne, Kamath & Steinke 2020, Algorithms 1–2): it consumes only uniform random bits
/// and uses exact integer arithmetic. It takes any RNG so that *simulations* of a
/// reference distribution can use the same noise law with a seeded generator. Noise that
/// is released about real data must come from [`release_laplace`](crate::release_laplace).
///
/// Expected cost: O(1) loop iterations whatever the scale (about 2.4 uniform draws per
/// iteration plus big-integer arithmetic on numbers the size of the scale's numerator).
///
/// # Errors
/// [`MechanismError::InvalidScale`] if `scale ≤ 0`.
pub fn sample_discrete_laplace<R: rand::Rng + ?Sized>(
    scale: &BigRational,
    rng: &mut R,
) -> Result<BigInt, MechanismError> {
    if !scale.is_positive() {
        return Err(MechanismError::InvalidScale { scale: scale.to_f64().unwrap_or(f64::NAN) });
    }
    discrete_laplace(rng, scale.numer().magnitude(), scale.denom().magnitude())
}

fn entropy_error<E: std::error::Error>(e: E) -> MechanismError {
    MechanismError::Entropy { message: e.to_string() }
}

fn next_u64<R: TryRng + ?Sized>(rng: &mut R) -> Result<u64, MechanismError> {
    rng.try_next_u64().map_err(entropy_error)
}

/// Uniform integer in `0..bound` (`bound ≥ 1`): mask to the bit length, reject if too big.
fn uniform_u64_below<R: TryRng + ?Sized>(rng: &mut R, bound: u64) -> Result<u64, MechanismError> {
    if bound <= 1 {
        return Ok(0);
    }
    let bits = 64 - (bound - 1).leading_zeros();
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    loop {
        let x = next_u64(rng)? & mask;
        if x < bound {
            return Ok(x);
        }
    }
}

/// Uniform integer in `0..bound` (`bound ≥ 1`) by rejection on random bytes.
pub(crate) fn uniform_below<R: TryRng + ?Sized>(
    rng: &mut R,
    bound: &BigUint,
) -> Result<BigUint, MechanismError> {
    if let Some(b) = bound.to_u64() {
        return uniform_u64_below(rng, b).map(BigUint::from);
    }
    let bits = bound.bits();
    let n_bytes = bits.div_ceil(8) as usize;
    let top_mask = 0xffu8 >> (n_bytes as u64 * 8 - bits);
    let mut buf = vec![0u8; n_bytes];
    loop {
        rng.try_fill_bytes(&mut buf).map_err(entropy_error)?;
        buf[n_bytes - 1] &= top_mask; // little-endian: the last byte is the most significant
        let x = BigUint::from_bytes_le(&buf);
        if &x < bound {
            return Ok(x);
        }
    }
}

/// Bernoulli(num/den) for `0 ≤ num ≤ den`, `den ≥ 1`.
fn bernoulli_ratio<R: TryRng + ?Sized>(
    rng: &mut R,
    num: &BigUint,
    den: &BigUint,
) -> Result<bool, MechanismError> {
    Ok(&uniform_below(rng, den)? < num)
}

/// Bernoulli(exp(−num/den)) for `0 ≤ num/den ≤ 1` (CKS20 Algorithm 1, γ ∈ [0, 1]).
///
/// Draw A_k ~ Bernoulli(γ/k) for k = 1, 2, … until the first A_k = 0; return whether that
/// k is odd. A_k is drawn as Bernoulli(1/k) AND Bernoulli(γ), two independent draws, which
/// has the same law and avoids multiplying `den` by `k`.
fn bernoulli_exp_neg_fraction<R: TryRng + ?Sized>(
    rng: &mut R,
    num: &BigUint,
    den: &BigUint,
) -> Result<bool, MechanismError> {
    let mut k: u64 = 1;
    loop {
        let a = uniform_u64_below(rng, k)? == 0 && bernoulli_ratio(rng, num, den)?;
        if !a {
            return Ok(k % 2 == 1);
        }
        k += 1;
    }
}

/// Bernoulli(exp(−1)): Algorithm 1 with γ = 1, where Bernoulli(γ) is always 1.
fn bernoulli_exp_neg_one<R: TryRng + ?Sized>(rng: &mut R) -> Result<bool, MechanismError> {
    let mut k: u64 = 1;
    while uniform_u64_below(rng, k)? == 0 {
        k += 1;
    }
    Ok(k % 2 == 1)
}

/// Number of successes before the first failure of Bernoulli(exp(−1)) draws:
/// Geometric with P[V = v] = (1 − e^{−1}) e^{−v}.
fn geometric_exp_neg_one<R: TryRng + ?Sized>(rng: &mut R) -> Result<u64, MechanismError> {
    let mut v = 0;
    while bernoulli_exp_neg_one(rng)? {
        v += 1;
    }
    Ok(v)
}

/// One draw Z of the discrete Laplace with scale `t/s` (both ≥ 1):
/// P[Z = z] ∝ exp(−|z|·s/t) on the integers (CKS20 Algorithm 2).
///
/// Where t and s fit in 64 bits (every scale an `f64` gives), the same algorithm runs in
/// machine integers ([`discrete_laplace_u64`]): the same draws from the same random stream,
/// without an allocation per step (`tests` compares the two draw by draw).
pub(crate) fn discrete_laplace<R: TryRng + ?Sized>(
    rng: &mut R,
    t: &BigUint,
    s: &BigUint,
) -> Result<BigInt, MechanismError> {
    match (t.to_u64(), s.to_u64()) {
        (Some(t), Some(s)) => discrete_laplace_u64(rng, t, s),
        _ => discrete_laplace_big(rng, t, s),
    }
}

/// [`discrete_laplace`] for t and s below 2⁶⁴: every uniform draw is the one the `BigUint`
/// version makes (its bounds fit in 64 bits, where [`uniform_below`] draws with
/// [`uniform_u64_below`]), in the same order, and X = U + t·V is formed in 128 bits (beyond
/// them, in `BigUint`, drawing nothing more).
fn discrete_laplace_u64<R: TryRng + ?Sized>(
    rng: &mut R,
    t: u64,
    s: u64,
) -> Result<BigInt, MechanismError> {
    loop {
        let u = uniform_u64_below(rng, t)?;
        if !bernoulli_exp_neg_fraction_u64(rng, u, t)? {
            continue;
        }
        let v = geometric_exp_neg_one(rng)?;
        let y = match u128::from(t).checked_mul(u128::from(v)) {
            Some(tv) => BigUint::from((tv + u128::from(u)) / u128::from(s)),
            None => (BigUint::from(u) + BigUint::from(t) * v) / s,
        };
        let negative = next_u64(rng)? & 1 == 1;
        if negative && y.is_zero() {
            continue;
        }
        let y = BigInt::from(y);
        return Ok(if negative { -y } else { y });
    }
}

/// [`bernoulli_exp_neg_fraction`] for `num ≤ den` below 2⁶⁴, with the same draws.
fn bernoulli_exp_neg_fraction_u64<R: TryRng + ?Sized>(
    rng: &mut R,
    num: u64,
    den: u64,
) -> Result<bool, MechanismError> {
    let mut k: u64 = 1;
    loop {
        let a = uniform_u64_below(rng, k)? == 0 && uniform_u64_below(rng, den)? < num;
        if !a {
            return Ok(k % 2 == 1);
        }
        k += 1;
    }
}

/// [`discrete_laplace`] in `BigUint` arithmetic, for any t and s.
fn discrete_laplace_big<R: TryRng + ?Sized>(
    rng: &mut R,
    t: &BigUint,
    s: &BigUint,
) -> Result<BigInt, MechanismError> {
    loop {
        // X = U + t·V is geometric with P[X = x] ∝ exp(−x/t).
        let u = uniform_below(rng, t)?;
        if !bernoulli_exp_neg_fraction(rng, &u, t)? {
            continue;
        }
        let v = geometric_exp_neg_one(rng)?;
        let y: BigUint = (u + t * v) / s;
        // Random sign; reject (−, 0) so that zero is not counted twice.
        let negative = next_u64(rng)? & 1 == 1;
        if negative && y.is_zero() {
            continue;
        }
        let y = BigInt::from(y);
        return Ok(if negative { -y } else { y });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;
    use rand::SeedableRng;

    /// The 64-bit path draws what the `BigUint` path draws, draw by draw, from the same
    /// stream: scales an `f64` gives (2/ε for ε from 10⁻³ to 50, their numerators and
    /// denominators near 2⁵³) and small integer ones.
    #[test]
    fn the_64_bit_path_is_the_big_path_draw_by_draw() {
        let mut scales: Vec<(BigUint, BigUint)> =
            [1e-3, 0.0105, 0.15, 0.7, 1.0, 2.0 / 3.0, 5.0, 50.0]
                .iter()
                .map(|&e| {
                    let r = BigRational::from_float(2.0 / e).unwrap();
                    (r.numer().magnitude().clone(), r.denom().magnitude().clone())
                })
                .collect();
        scales.extend([(1u32, 1u32), (3, 1), (7, 2), (1, 5)].map(|(t, s)| (t.into(), s.into())));
        for (i, (t, s)) in scales.iter().enumerate() {
            let seed = 1000 + i as u64;
            let mut fast = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut big = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for draw in 0..3000 {
                let a = discrete_laplace(&mut fast, t, s).unwrap();
                let b = discrete_laplace_big(&mut big, t, s).unwrap();
                assert_eq!(a, b, "scale {t}/{s}, draw {draw}");
            }
        }
    }
}
