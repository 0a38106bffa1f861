//! Normal ⊕ Laplace nulls: the Wilcoxon (Pratt) normal reference and the folded Mann–Whitney
//! normal reference.

use serde::Serialize;

use crate::error::{RefdistError, non_negative, positive};
use crate::model::NullModel;
use crate::stream::{DrawStream, tags};
use crate::transforms;

/// `sd·Z + scale·L`, Z standard normal, L standard Laplace.
///
/// Word layout of one draw (one Philox block): words 0–1 → Box–Muller (the cosine output),
/// word 2 → Laplace, word 3 unused.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NormalLaplace {
    sd: f64,
    laplace_scale: f64,
}

impl NormalLaplace {
    /// Normal(0, sd²) ⊕ Laplace(laplace_scale); sd > 0, laplace_scale ≥ 0.
    pub fn new(sd: f64, laplace_scale: f64) -> Result<Self, RefdistError> {
        Ok(NormalLaplace {
            sd: positive("sd", sd)?,
            laplace_scale: non_negative("laplace_scale", laplace_scale)?,
        })
    }

    /// Standard deviation of the normal part.
    pub fn sd(&self) -> f64 {
        self.sd
    }

    /// Scale b of the Laplace part.
    pub fn laplace_scale(&self) -> f64 {
        self.laplace_scale
    }

    /// The statistic from one block of words (the shared recipe of CPU and GPU).
    #[inline(always)]
    pub fn from_block(&self, block: [u32; 4]) -> f64 {
        let normal = transforms::box_muller(block[0], block[1]).cos;
        let noise = transforms::laplace(block[2]);
        self.sd * f64::from(normal) + self.laplace_scale * f64::from(noise)
    }
}

impl NullModel for NormalLaplace {
    fn tag(&self) -> u32 {
        tags::NORMAL_LAPLACE
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        self.from_block(stream.next_block())
    }

    fn spec(&self) -> Option<crate::NullSpec> {
        Some(crate::NullSpec::NormalLaplace(*self))
    }
}

/// `min(V, M − V) + scale·L` with V ~ Normal(M/2, sd²): the folded normal reference of the
/// private Mann–Whitney test (paper Thm A.8; the statistic is min(U1, U2)).
///
/// Word layout: as [`NormalLaplace`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FoldedNormalLaplace {
    total: f64,
    sd: f64,
    laplace_scale: f64,
}

impl FoldedNormalLaplace {
    /// Folded reference for `total` = M = m·(n − m), sd = √(M(n+1)/12) and Laplace scale b.
    pub fn new(total: f64, sd: f64, laplace_scale: f64) -> Result<Self, RefdistError> {
        Ok(FoldedNormalLaplace {
            total: non_negative("total", total)?,
            sd: positive("sd", sd)?,
            laplace_scale: non_negative("laplace_scale", laplace_scale)?,
        })
    }

    /// M, the number of (x, y) pairs.
    pub fn total(&self) -> f64 {
        self.total
    }

    /// Standard deviation of V.
    pub fn sd(&self) -> f64 {
        self.sd
    }

    /// Scale b of the Laplace part.
    pub fn laplace_scale(&self) -> f64 {
        self.laplace_scale
    }

    /// The statistic from one block of words.
    #[inline(always)]
    pub fn from_block(&self, block: [u32; 4]) -> f64 {
        let normal = transforms::box_muller(block[0], block[1]).cos;
        let noise = transforms::laplace(block[2]);
        let v = 0.5 * self.total + self.sd * f64::from(normal);
        v.min(self.total - v) + self.laplace_scale * f64::from(noise)
    }
}

impl NullModel for FoldedNormalLaplace {
    fn tag(&self) -> u32 {
        tags::FOLDED_NORMAL_LAPLACE
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        self.from_block(stream.next_block())
    }

    fn spec(&self) -> Option<crate::NullSpec> {
        Some(crate::NullSpec::FoldedNormalLaplace(*self))
    }
}
