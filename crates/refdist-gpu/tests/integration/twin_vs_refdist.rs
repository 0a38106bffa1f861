//! The CPU twins equal dptest_refdist's models (no GPU needed): integer parts exactly, the
//! float statistic within f32 rounding (`Tolerance::TWIN_VS_REFDIST`).

use crate::common;

use dptest_refdist::{DrawStream, NullModel, NullSpec, RankSumNull, SignedRankLaplace};
use dptest_refdist_gpu::{Kernel, KernelSpec, Tolerance, cpu_twin};

const SEED: u64 = 0x5eed_0001;

fn refdist_ints(spec: &NullSpec, seed: u64, draw: u64) -> Option<(u32, u32)> {
    match spec {
        NullSpec::SignedRankLaplace(m) => {
            let m: &SignedRankLaplace = m;
            let r_plus = m.positive_rank_sum(&mut DrawStream::new(seed, m.tag(), draw));
            Some((r_plus as u32, 0))
        }
        NullSpec::RankSums(m) => {
            let m: &RankSumNull = m;
            let mut sums = vec![0u64; m.sizes().len()];
            m.rank_sums(&mut DrawStream::new(seed, m.tag(), draw), &mut sums);
            let hash =
                sums.iter().fold(2_166_136_261u32, |h, &s| (h ^ s as u32).wrapping_mul(16_777_619));
            Some((sums[0] as u32, hash))
        }
        _ => None,
    }
}

#[test]
fn twins_equal_the_refdist_models() {
    let tolerance = Tolerance::TWIN_VS_REFDIST;
    for case in common::cases() {
        let spec = KernelSpec::from_model(case.model.as_ref()).unwrap();
        let null_spec = case.model.spec().unwrap();
        let draws = (case.draws / 5) as u64;
        let mut worst = 0.0f64;
        for d in 0..draws {
            let twin = cpu_twin::draw(&spec, SEED, d);
            let reference = case.model.draw(&mut DrawStream::new(SEED, case.model.tag(), d));
            let value = spec.unshift(twin.shifted);
            let bound = match spec.kernel {
                Kernel::TStatistic => tolerance.t_statistic(&spec, reference, f64::from(twin.aux)),
                _ => tolerance.per_draw(&spec),
            };
            let error = (value - reference).abs();
            worst = worst.max(error / bound);
            assert!(error <= bound, "{} draw {d}: twin {value} refdist {reference}", case.name);
            if let Some(ints) = refdist_ints(&null_spec, SEED, d) {
                assert_eq!((twin.int0, twin.int1), ints, "{} draw {d}", case.name);
            }
        }
        eprintln!("{}: max |twin − refdist| / ε = {worst:.3}", case.name);
    }
}

#[test]
fn draw_index_high_word_is_carried() {
    let case = &common::cases()[2];
    let spec = KernelSpec::from_model(case.model.as_ref()).unwrap();
    for d in [u64::from(u32::MAX) - 1, u64::from(u32::MAX), 1 << 32, (7 << 32) + 3] {
        let twin = cpu_twin::draw(&spec, SEED, d);
        let reference = case.model.draw(&mut DrawStream::new(SEED, case.model.tag(), d));
        assert!((spec.unshift(twin.shifted) - reference).abs() <= 1e-3, "draw {d}");
    }
}
