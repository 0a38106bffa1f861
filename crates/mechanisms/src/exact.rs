//! Exact conversions between f64 and dyadic rationals (from the IEEE-754 bits).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;

/// A finite f64 written exactly as `mantissa · 2^exponent`, with `mantissa` odd (or 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dyadic {
    pub(crate) mantissa: i64,
    pub(crate) exponent: i32,
}

/// Decomposes a finite `x` exactly. Callers must reject NaN and ±∞ first.
pub(crate) fn dyadic(x: f64) -> Dyadic {
    let bits = x.to_bits();
    let negative = bits >> 63 == 1;
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = (bits & ((1u64 << 52) - 1)) as i64;
    let (mut m, mut e) = if biased == 0 {
        (fraction, -1074) // subnormal or zero
    } else {
        (fraction | (1i64 << 52), biased - 1075)
    };
    if m == 0 {
        return Dyadic { mantissa: 0, exponent: 0 };
    }
    let tz = m.trailing_zeros();
    m >>= tz;
    e += tz as i32;
    Dyadic { mantissa: if negative { -m } else { m }, exponent: e }
}

/// `2^k` as an exact rational.
pub(crate) fn pow2_ratio(k: i32) -> BigRational {
    let p = BigInt::one() << k.unsigned_abs();
    if k >= 0 { BigRational::from_integer(p) } else { BigRational::new(BigInt::one(), p) }
}

/// The exact value of `d` as a rational.
pub(crate) fn to_ratio(d: Dyadic) -> BigRational {
    BigRational::from_integer(BigInt::from(d.mantissa)) * pow2_ratio(d.exponent)
}

/// `ceil(log2(a / b))` exactly, for positive `a` and `b`.
pub(crate) fn ceil_log2_quotient(a: Dyadic, b: Dyadic) -> i32 {
    let (ma, mb) = (a.mantissa.unsigned_abs() as u128, b.mantissa.unsigned_abs() as u128);
    let (la, lb) = (128 - ma.leading_zeros() as i32, 128 - mb.leading_zeros() as i32);
    // ma/mb lies in (2^(c-1), 2^(c+1)) with c = la - lb, so the ceiling is c or c + 1.
    let c = la - lb;
    let fits = if c >= 0 { ma <= mb << c } else { ma << -c <= mb };
    let ceil_m = if fits { c } else { c + 1 };
    ceil_m + a.exponent - b.exponent
}

/// `2^k` as an f64 (exact for -1074 ≤ k ≤ 1023), built from its bits.
pub(crate) fn pow2_f64(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::ToPrimitive;

    #[test]
    fn dyadic_roundtrips() {
        for x in [1.0, -1.0, 0.1, 3.5, -0.75, 1e300, 5e-324, f64::MIN_POSITIVE, 123456.789] {
            let d = dyadic(x);
            assert!(d.mantissa % 2 != 0, "{x}");
            assert_eq!(to_ratio(d).to_f64().unwrap(), x, "{x}");
        }
        assert_eq!(dyadic(0.0), Dyadic { mantissa: 0, exponent: 0 });
        assert_eq!(dyadic(-0.0), Dyadic { mantissa: 0, exponent: 0 });
        assert_eq!(dyadic(12.0), Dyadic { mantissa: 3, exponent: 2 });
        assert_eq!(dyadic(-0.375), Dyadic { mantissa: -3, exponent: -3 });
    }

    #[test]
    fn ceil_log2_exact() {
        let c = |a: f64, b: f64| ceil_log2_quotient(dyadic(a), dyadic(b));
        assert_eq!(c(1.0, 1.0), 0);
        assert_eq!(c(2.0, 1.0), 1);
        assert_eq!(c(3.0, 1.0), 2);
        assert_eq!(c(1.0, 3.0), -1);
        assert_eq!(c(1.0, 4.0), -2);
        assert_eq!(c(1.0, 0.1), 4); // 10 -> 16
        assert_eq!(c(87.0, 1.0), 7);
        assert_eq!(c(0.5, 0.25), 1);
        assert_eq!(c(1.0000000000000002, 1.0), 1);
        assert_eq!(c(1.0, 1.0000000000000002), 0);
    }

    #[test]
    fn powers_of_two() {
        assert_eq!(pow2_f64(0), 1.0);
        assert_eq!(pow2_f64(-40), 1.0 / 1099511627776.0);
        assert_eq!(pow2_f64(-1074), 5e-324);
        assert_eq!(pow2_f64(1023), 2f64.powi(1023));
        assert_eq!(pow2_ratio(-3).to_f64().unwrap(), 0.125);
    }
}
