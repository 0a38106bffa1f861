//! Golden values from scipy 1.17.1 (testdata/gen_ranking.py -> testdata/ranking.toml).

use dptest_ranking::{mid_ranks, signed_ranks_classic, signed_ranks_pratt, tie_block_sizes};
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    rank: Vec<RankCase>,
    signed: Vec<SignedCase>,
}

#[derive(Deserialize)]
struct RankCase {
    name: String,
    values: Vec<f64>,
    mid_ranks: Vec<f64>,
    tie_blocks: Vec<usize>,
}

#[derive(Deserialize)]
struct SignedCase {
    name: String,
    d: Vec<f64>,
    n_zero: usize,
    tie_blocks: Vec<usize>,
    pratt_signed: Vec<f64>,
    pratt_r_plus: f64,
    pratt_two_sided: f64,
    classic_signed: Vec<f64>,
    classic_r_plus: f64,
    classic_two_sided: f64,
}

fn golden() -> Golden {
    toml::from_str(include_str!("../../../../testdata/ranking.toml")).expect("valid golden TOML")
}

#[test]
fn mid_ranks_match_scipy_rankdata() {
    let g = golden();
    assert!(g.rank.len() >= 10);
    for case in &g.rank {
        // Mid-ranks are multiples of 1/2: exact comparison is right.
        assert_eq!(mid_ranks(&case.values).unwrap(), case.mid_ranks, "{}", case.name);
        assert_eq!(tie_block_sizes(&case.values).unwrap(), case.tie_blocks, "{}", case.name);
    }
}

#[test]
fn signed_ranks_match_scipy_wilcoxon() {
    let g = golden();
    assert!(g.signed.len() >= 6);
    for case in &g.signed {
        let p = signed_ranks_pratt(&case.d).unwrap();
        assert_eq!(p.signed, case.pratt_signed, "pratt {}", case.name);
        assert_eq!(p.r_plus(), case.pratt_r_plus, "pratt R+ {}", case.name);
        assert_eq!(p.r_plus().min(p.r_minus()), case.pratt_two_sided, "pratt T {}", case.name);
        assert_eq!(p.n_zero, case.n_zero, "{}", case.name);
        assert_eq!(p.tie_blocks, case.tie_blocks, "pratt blocks {}", case.name);

        let c = signed_ranks_classic(&case.d).unwrap();
        assert_eq!(c.signed, case.classic_signed, "classic {}", case.name);
        assert_eq!(c.r_plus(), case.classic_r_plus, "classic R+ {}", case.name);
        assert_eq!(c.r_plus().min(c.r_minus()), case.classic_two_sided, "classic T {}", case.name);
        assert_eq!(c.n_zero, case.n_zero, "{}", case.name);
        assert_eq!(c.tie_blocks, case.tie_blocks, "classic blocks {}", case.name);
    }
}
