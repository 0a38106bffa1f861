//! The catalogue of the paper's synthetic-data figures: every series (method, ε, data) and
//! its grid, with the caption's parameters. Settings follow the authors' code where the
//! paper is silent, minus its flaws (see docs/power.md).

use dptest_wilcoxon::TcVariant;

use super::data::{Data, equal_sizes};
use super::methods::{Method, TRef};

/// Swanberg's ε split (f = .75, the authors' setting).
const SWANBERG_F: f64 = 0.75;
/// MW's ε share of the size estimate: the test's default (paper §4.2).
pub(super) const MW_F: f64 = dptest_mann_whitney::DEFAULT_SIZE_FRACTION;
/// The t-test's bound on the paper's Wilcoxon differences d ~ N(−1, 2): ±√2/sd, so the
/// rescaled differences have the sd of the paper's t-test study ([`dptest_t_test::PAPER_SD`]).
const T_BOUND_PAIRED: f64 = std::f64::consts::SQRT_2 / dptest_t_test::PAPER_SD;

/// Whether a figure plots power or Q-Q (null rejection rates on an α grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Power at α = .05 along the x axis.
    Power,
    /// Rejection rate under the null at every α of the Q-Q grid.
    QQ,
}

/// Data as a function of the total sample size n (for grids and bisection).
#[derive(Clone, Debug)]
pub enum Design {
    /// g near-equal groups N(means\[i\], sd²) (n any integer ≥ g).
    EqualGroups {
        /// Group means.
        means: Vec<f64>,
        /// Common sd.
        sd: f64,
    },
    /// Paired differences N(mean, sd²) with a fraction of exact zeros.
    Paired {
        /// Fraction of zeros.
        zero_fraction: f64,
        /// Mean of the non-zero differences.
        mean: f64,
        /// Their sd.
        sd: f64,
    },
}

impl Design {
    /// The data at total size n.
    pub fn at(&self, n: usize) -> Data {
        match self {
            Design::EqualGroups { means, sd } => Data::Groups {
                sizes: equal_sizes(n, means.len()),
                means: means.clone(),
                sd: *sd,
                round: None,
            },
            Design::Paired { zero_fraction, mean, sd } => {
                Data::Paired { n, zero_fraction: *zero_fraction, mean: *mean, sd: *sd }
            }
        }
    }

    /// The step of n on the grid and in bisection: the paper's designs keep groups equal.
    pub fn step(&self) -> usize {
        match self {
            Design::EqualGroups { means, .. } => means.len(),
            Design::Paired { .. } => 1,
        }
    }

    fn paper_paired(zero_fraction: f64) -> Design {
        Design::Paired { zero_fraction, mean: -1.0, sd: std::f64::consts::SQRT_2 }
    }
}

/// One point of a series.
#[derive(Clone, Debug)]
pub struct Point {
    /// x coordinate (n, effect size, tie proportion, group size, …).
    pub x: f64,
    /// The data simulated there.
    pub data: Data,
}

/// One curve: a method at an ε over a grid.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// The test.
    pub method: Method,
    /// ε (None for public tests).
    pub epsilon: Option<f64>,
    /// Points; series with the same `data_key` see the same datasets at the same x.
    pub points: Vec<Point>,
    /// Key of the data stream (common random numbers across methods).
    pub data_key: u64,
    /// The design as a function of n (power-vs-n series; used by the n80 bisection).
    pub design: Option<Design>,
}

/// One figure of the paper.
#[derive(Clone, Debug)]
pub struct Figure {
    /// Paper figure number.
    pub id: u32,
    /// Title with the caption's parameters.
    pub title: String,
    /// x axis label.
    pub x_label: String,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Power or Q-Q.
    pub kind: Kind,
    /// Curves.
    pub series: Vec<Series>,
}

/// Every synthetic-data figure (power and Q-Q).
pub const ALL: [u32; 32] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 18, 19, 20, 21, 23, 24, 25, 26, 27, 28, 29, 30,
    31, 32, 33, 34, 36, 37,
];

/// Real-data figures (need `--data FILE`).
pub const REAL_DATA: [u32; 3] = [16, 22, 35];

/// KW's grid (authors' code): 3 groups of round((1.1, 1.15, …, 2.3)^10).
fn kw_grid() -> Vec<usize> {
    dedup((0..=24).map(|k| 3 * (1.1 + 0.05 * f64::from(k)).powi(10).round() as usize).collect())
}

/// MW's grid: 2 groups of round((1.2, 1.27, …, 2.53)^10).
fn mw_grid() -> Vec<usize> {
    dedup((0..=19).map(|k| 2 * (1.2 + 0.07 * f64::from(k)).powi(10).round() as usize).collect())
}

/// WP's grid: {10} ∪ round_any((1.45, 1.5, …, 2.45)^10, 30).
fn wp_grid() -> Vec<usize> {
    let mut grid = vec![10];
    grid.extend((0..=20).map(|k| {
        let v = (1.45 + 0.05 * f64::from(k)).powi(10);
        ((v / 30.0).round() * 30.0) as usize
    }));
    dedup(grid)
}

const FIG3_N: &[usize] =
    &[9, 12, 18, 24, 30, 42, 54, 69, 90, 117, 150, 189, 240, 303, 378, 471, 582, 717, 879, 1077];
const FIG6_N: &[usize] =
    &[10, 20, 30, 40, 50, 70, 90, 120, 150, 190, 240, 300, 400, 500, 600, 720, 900, 1000];
const FIG20_N: &[usize] = &[9, 18, 42, 90, 189, 378, 717, 1077, 1500, 2100, 3000, 3966];

fn dedup(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v.dedup();
    v.retain(|&n| n > 0);
    v
}

fn label(method: Method, epsilon: Option<f64>) -> String {
    match epsilon {
        Some(e) => format!("{} ε={e}", method.name()),
        None => method.name(),
    }
}

/// A power-vs-n series.
fn n_series(
    method: Method,
    epsilon: Option<f64>,
    design: &Design,
    grid: &[usize],
    key: u64,
) -> Series {
    let points = grid
        .iter()
        .filter(|&&n| n >= design.step().max(2))
        .map(|&n| Point { x: n as f64, data: design.at(n) })
        .collect();
    Series {
        label: label(method, epsilon),
        method,
        epsilon,
        points,
        data_key: key,
        design: Some(design.clone()),
    }
}

/// A series over explicit points.
fn x_series(method: Method, epsilon: Option<f64>, points: Vec<Point>, key: u64) -> Series {
    Series { label: label(method, epsilon), method, epsilon, points, data_key: key, design: None }
}

fn power_fig(id: u32, title: &str, x_label: &str, log_x: bool, series: Vec<Series>) -> Figure {
    Figure {
        id,
        title: title.to_owned(),
        x_label: x_label.to_owned(),
        log_x,
        kind: Kind::Power,
        series,
    }
}

fn with_label(mut s: Series, label: String) -> Series {
    s.label = label;
    s
}

/// The figure `id`, or None if it is not a synthetic-data figure.
pub fn figure(id: u32) -> Option<Figure> {
    let kw = Design::EqualGroups { means: vec![-1.0, 0.0, 1.0], sd: 1.0 };
    let mw = Design::EqualGroups { means: vec![0.0, 1.0], sd: 1.0 };
    let wp = Design::paper_paired(0.0);
    let swanberg = Method::Anova { fraction: SWANBERG_F };
    let mwp = Method::Mw { fraction: MW_F };
    let hu = Method::TaskClifton(TcVariant::HighUtility);
    let hp = Method::TaskClifton(TcVariant::high_privacy());
    let t_with = |reference| Method::TTest {
        bounds: [-T_BOUND_PAIRED, T_BOUND_PAIRED],
        mean_fraction: 0.5,
        reference,
    };
    let (t_paired, t_bb, t_paper) =
        (t_with(TRef::Default), t_with(TRef::BergerBoosT), t_with(TRef::Paper));
    Some(match id {
        1 => power_fig(
            1,
            "Fig 1: KWabs and KW power; max−min = 2σ, g = 3, α = .05, equal groups, normal data",
            "n",
            true,
            vec![
                n_series(Method::KwAbs, Some(1.0), &kw, &kw_grid(), 1),
                n_series(Method::KwAbs, Some(0.1), &kw, &kw_grid(), 1),
                n_series(Method::Kw, Some(1.0), &kw, &kw_grid(), 1),
                n_series(Method::Kw, Some(0.1), &kw, &kw_grid(), 1),
                n_series(Method::PublicKw, None, &kw, &kw_grid(), 1),
            ],
        ),
        3 | 20 | 21 => {
            let (means, sd, eps, grid, title) = match id {
                3 => (
                    vec![0.35, 0.5, 0.65],
                    0.15,
                    1.0,
                    FIG3_N,
                    "Fig 3: KWabs vs Swanberg; max−min = 2σ (μ = .35/.5/.65, σ = .15), ε = 1, g = 3, α = .05",
                ),
                20 => (
                    vec![0.45, 0.5, 0.55],
                    0.01,
                    0.1,
                    FIG20_N,
                    "Fig 20: KWabs vs Swanberg, big effect; max−min = 10σ (σ = .01), ε = .1, g = 3, α = .05",
                ),
                _ => (
                    vec![0.47, 0.5, 0.53],
                    0.18,
                    1.0,
                    FIG20_N,
                    "Fig 21: KWabs vs Swanberg, small effect; max−min = σ/3 (σ = .18), ε = 1, g = 3, α = .05",
                ),
            };
            let d = Design::EqualGroups { means, sd };
            power_fig(
                id,
                title,
                "n",
                true,
                vec![
                    n_series(Method::KwAbs, Some(eps), &d, grid, 1),
                    n_series(swanberg, Some(eps), &d, grid, 1),
                    n_series(Method::PublicKw, None, &d, grid, 1),
                    n_series(Method::PublicAnova, None, &d, grid, 1),
                ],
            )
        }
        4 => power_fig(
            4,
            "Fig 4: MW power; μ1 − μ2 = 1σ, ε_m = .65 ε, δ = 1e-6, α = .05, m:(n−m) = 1",
            "n",
            true,
            vec![
                n_series(mwp, Some(1.0), &mw, &mw_grid(), 1),
                n_series(mwp, Some(0.1), &mw, &mw_grid(), 1),
                n_series(mwp, Some(0.01), &mw, &mw_grid(), 1),
                n_series(Method::PublicMw, None, &mw, &mw_grid(), 1),
            ],
        ),
        6 => {
            let d = Design::EqualGroups { means: vec![0.45, 0.55], sd: 0.1 };
            power_fig(
                6,
                "Fig 6: MW vs Swanberg; ε = 1, μ1 − μ2 = 1σ (σ = .1), ε_m = .65 ε, α = .05, m:(n−m) = 1",
                "n",
                true,
                vec![
                    n_series(mwp, Some(1.0), &d, FIG6_N, 1),
                    n_series(swanberg, Some(1.0), &d, FIG6_N, 1),
                    n_series(Method::PublicMw, None, &d, FIG6_N, 1),
                    n_series(Method::PublicAnova, None, &d, FIG6_N, 1),
                ],
            )
        }
        7 => power_fig(
            7,
            "Fig 7: MW vs KWabs, g = 2; max−min = 1σ, α = .05, equal groups",
            "n",
            true,
            vec![
                n_series(mwp, Some(1.0), &mw, &mw_grid(), 1),
                n_series(mwp, Some(0.1), &mw, &mw_grid(), 1),
                n_series(Method::KwAbs, Some(1.0), &mw, &mw_grid(), 1),
                n_series(Method::KwAbs, Some(0.1), &mw, &mw_grid(), 1),
                n_series(Method::PublicMw, None, &mw, &mw_grid(), 1),
            ],
        ),
        8 | 31 => {
            let zeros = if id == 8 { 0.0 } else { 0.3 };
            let d = Design::paper_paired(zeros);
            let title = if id == 8 {
                "Fig 8: WP power; μu − μv = 1σ, α = .05, normal data"
            } else {
                "Fig 31: WP power with 30% zero differences; μu − μv = 1σ, α = .05"
            };
            power_fig(
                id,
                title,
                "n",
                true,
                vec![
                    n_series(Method::Wilcoxon, Some(1.0), &d, &wp_grid(), 1),
                    n_series(Method::Wilcoxon, Some(0.1), &d, &wp_grid(), 1),
                    n_series(Method::Wilcoxon, Some(0.01), &d, &wp_grid(), 1),
                    n_series(Method::PublicWilcoxon, None, &d, &wp_grid(), 1),
                ],
            )
        }
        10 | 11 | 36 => {
            let eps = if id == 36 { 0.1 } else { 1.0 };
            let mut series = vec![
                n_series(Method::Wilcoxon, Some(eps), &wp, &wp_grid(), 1),
                n_series(hu, Some(eps), &wp, &wp_grid(), 1),
                n_series(hp, Some(eps), &wp, &wp_grid(), 1),
            ];
            if id == 11 {
                series.push(n_series(
                    Method::TaskClifton(TcVariant::HighUtilityPlus),
                    Some(eps),
                    &wp,
                    &wp_grid(),
                    1,
                ));
                series.push(n_series(
                    Method::TaskClifton(TcVariant::HighPrivacyPlus {
                        k: dptest_wilcoxon::DEFAULT_DUMMIES,
                    }),
                    Some(eps),
                    &wp,
                    &wp_grid(),
                    1,
                ));
            }
            series.push(n_series(Method::PublicWilcoxon, None, &wp, &wp_grid(), 1));
            // The paper's public curve is one-sided (its n80 = 14; two-sided needs 19).
            series.push(n_series(Method::PublicWilcoxonLess, None, &wp, &wp_grid(), 1));
            let title = match id {
                10 => {
                    "Fig 10: TC (HU, HP k = 15) vs WP vs public (two-sided, and one-sided `less` as in the paper); μu − μv = 1σ, ε = 1, α = .05"
                }
                11 => {
                    "Fig 11: TC, TC with simulated critical values (+), WP, public; μu − μv = 1σ, ε = 1, α = .05"
                }
                _ => "Fig 36: TC vs WP vs public at ε = .1; μu − μv = 1σ, α = .05",
            };
            power_fig(id, title, "n", true, series)
        }
        12 => power_fig(
            12,
            "Fig 12: private t vs WP on the same data; μu − μv = 1σ (d ~ N(−1, 2), t bounds ±4.71), α = .05",
            "n",
            true,
            vec![
                n_series(Method::Wilcoxon, Some(1.0), &wp, &wp_grid(), 1),
                n_series(Method::Wilcoxon, Some(0.1), &wp, &wp_grid(), 1),
                n_series(t_paired, Some(1.0), &wp, &wp_grid(), 1),
                n_series(t_paired, Some(0.1), &wp, &wp_grid(), 1),
                n_series(t_paper, Some(1.0), &wp, &wp_grid(), 1),
                n_series(t_bb, Some(1.0), &wp, &wp_grid(), 1),
                n_series(Method::PublicWilcoxon, None, &wp, &wp_grid(), 1),
                n_series(Method::PublicT, None, &wp, &wp_grid(), 1),
            ],
        ),
        17 => fig17(),
        18 => effect_fig(
            18,
            "Fig 18: KWabs power vs effect size (max−min, in σ); n = 900, g = 3, α = .05",
            &[0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1.0],
            &[
                (Method::KwAbs, Some(1.0)),
                (Method::KwAbs, Some(0.1)),
                (Method::KwAbs, Some(0.01)),
                (Method::PublicKw, None),
            ],
            |x| Data::Groups {
                sizes: equal_sizes(900, 3),
                means: vec![-x / 2.0, 0.0, x / 2.0],
                sd: 1.0,
                round: None,
            },
        ),
        25 => effect_fig(
            25,
            "Fig 25: MW power vs effect size μ1 − μ2 (in σ); n = 1500, ε_m = .65 ε, α = .05, m:(n−m) = 1",
            &[0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0],
            &[(mwp, Some(1.0)), (mwp, Some(0.1)), (mwp, Some(0.06)), (Method::PublicMw, None)],
            |x| Data::Groups { sizes: vec![750, 750], means: vec![0.0, x], sd: 1.0, round: None },
        ),
        34 => effect_fig(
            34,
            "Fig 34: WP power vs effect size μu − μv (in σ); n = 2500, α = .05",
            &[0.0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0],
            &[
                (Method::Wilcoxon, Some(1.0)),
                (Method::Wilcoxon, Some(0.1)),
                (Method::Wilcoxon, Some(0.01)),
                (Method::PublicWilcoxon, None),
            ],
            |x| Data::paper_paired(2500, 0.0, x),
        ),
        26 => group_size_fig(
            26,
            500,
            &[25, 50, 75, 100, 150, 200, 250],
            &[(mwp, Some(1.0)), (mwp, Some(0.5)), (Method::PublicMw, None)],
            "Fig 26: MW power vs smaller group size m; n = 500, μ1 − μ2 = 1σ, ε_m = .65 ε, α = .05",
        ),
        27 => group_size_fig(
            27,
            250,
            &[10, 25, 50, 75, 100, 125],
            &[
                (mwp, Some(1.0)),
                (mwp, Some(0.5)),
                (Method::KwAbs, Some(1.0)),
                (Method::KwAbs, Some(0.5)),
                (Method::PublicMw, None),
            ],
            "Fig 27: MW vs KWabs vs group size m; n = 250, g = 2, μ1 − μ2 = 1σ, ε_m = .65 ε, α = .05",
        ),
        28 => group_size_fig(
            28,
            1000,
            &[25, 50, 100, 200, 300, 400, 500],
            &[
                (mwp, Some(1.0)),
                (mwp, Some(0.5)),
                (Method::KwAbs, Some(1.0)),
                (Method::KwAbs, Some(0.5)),
                (Method::PublicMw, None),
            ],
            "Fig 28: MW vs KWabs vs group size m; n = 1000, g = 2, μ1 − μ2 = 1σ, ε_m = .65 ε, α = .05",
        ),
        29 => group_size_fig(
            29,
            1000,
            &[25, 50, 100, 200, 300, 400, 500],
            &[
                (Method::MwKnown, Some(1.0)),
                (Method::MwKnown, Some(0.1)),
                (Method::KwAbs, Some(1.0)),
                (Method::KwAbs, Some(0.1)),
                (Method::PublicMw, None),
            ],
            "Fig 29: MW with known group sizes vs KWabs vs m; n = 1000, g = 2, μ1 − μ2 = 1σ, α = .05",
        ),
        30 => {
            let grid: Vec<usize> = (3..=13).map(|k| 20 * k).collect();
            let series = [0.35, 0.5, 0.55, 0.65, 0.75, 0.85]
                .iter()
                .map(|&f| {
                    with_label(
                        n_series(Method::Mw { fraction: f }, Some(1.0), &mw, &grid, 1),
                        format!("mann-whitney ε_m/ε={f}"),
                    )
                })
                .chain([n_series(Method::PublicMw, None, &mw, &grid, 1)])
                .collect();
            power_fig(
                30,
                "Fig 30: MW power by share of ε to the size estimate; ε = 1, μ1 − μ2 = 1σ, α = .05, m:(n−m) = 1",
                "n",
                false,
                series,
            )
        }
        32 | 33 => {
            let tc = if id == 32 { hu } else { hp };
            let grid: Vec<usize> = wp_grid().into_iter().filter(|&n| n <= 2000).collect();
            let mut series = vec![];
            for (key, zeros) in [0.0, 0.3, 0.5, 0.7].into_iter().enumerate() {
                let d = Design::paper_paired(zeros);
                for method in [Method::Wilcoxon, tc] {
                    let s = n_series(method, Some(1.0), &d, &grid, key as u64 + 1);
                    series.push(with_label(s, format!("{} zeros={zeros}", method.name())));
                }
            }
            let title = if id == 32 {
                "Fig 32: TC High Utility vs WP by share of zero differences; μu − μv = 1σ, ε = 1, α = .05"
            } else {
                "Fig 33: TC High Privacy (k = 15) vs WP by share of zero differences; μu − μv = 1σ, ε = 1, α = .05"
            };
            power_fig(id, title, "n", true, series)
        }
        37 => {
            let d = Design::Paired { zero_fraction: 0.0, mean: 1.0, sd: 1.0 };
            let grid = [10, 20, 30, 40, 60, 80, 100, 150, 200, 300, 400, 600];
            let series = [0.4, 0.5, 0.6, 0.7]
                .iter()
                .map(|&f| {
                    let m = Method::TTest {
                        bounds: [-1.0 / 0.3, 1.0 / 0.3],
                        mean_fraction: f,
                        reference: TRef::Default,
                    };
                    with_label(n_series(m, Some(1.0), &d, &grid, 1), format!("t-test ε_mean/ε={f}"))
                })
                .chain([n_series(Method::PublicT, None, &d, &grid, 1)])
                .collect();
            power_fig(
                37,
                "Fig 37: private t power by share of ε to the mean; μ = 1σ (data ±3.33σ bounds), ε = 1, α = .05",
                "n",
                true,
                series,
            )
        }
        2 | 5 | 9 | 13 | 19 | 23 | 24 => super::qq::qq_figure(id),
        _ => return None,
    })
}

fn effect_fig(
    id: u32,
    title: &str,
    effects: &[f64],
    methods: &[(Method, Option<f64>)],
    data: impl Fn(f64) -> Data,
) -> Figure {
    let points = || effects.iter().map(|&x| Point { x, data: data(x) }).collect::<Vec<_>>();
    let series = methods.iter().map(|&(m, e)| x_series(m, e, points(), 1)).collect();
    power_fig(id, title, "effect size (σ)", false, series)
}

fn group_size_fig(
    id: u32,
    n: usize,
    ms: &[usize],
    methods: &[(Method, Option<f64>)],
    title: &str,
) -> Figure {
    let points = || {
        ms.iter()
            .map(|&m| Point {
                x: m as f64,
                data: Data::Groups {
                    sizes: vec![m, n - m],
                    means: vec![0.0, 1.0],
                    sd: 1.0,
                    round: None,
                },
            })
            .collect::<Vec<_>>()
    };
    let series = methods.iter().map(|&(m, e)| x_series(m, e, points(), 1)).collect();
    power_fig(id, title, "smaller group size m", false, series)
}

/// Fig 17: ties from rounding to multiples (the authors' grid), n/g ∈ {40, 60, 80}; the x
/// axis is the rounding multiple (the CSV's tie_proportion column gives 1 − Gini impurity).
fn fig17() -> Figure {
    const MULTIPLES: [f64; 12] = [0.01, 0.1, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 10.0];
    let mut series = vec![];
    for (key, per_group) in [40usize, 60, 80].into_iter().enumerate() {
        let points: Vec<Point> = MULTIPLES
            .iter()
            .map(|&m| Point {
                x: m,
                data: Data::Groups {
                    sizes: vec![per_group; 3],
                    means: vec![-1.0, 0.0, 1.0],
                    sd: 1.0,
                    round: Some(m),
                },
            })
            .collect();
        for (method, eps) in [(Method::KwAbs, Some(1.0)), (Method::PublicKw, None)] {
            let s = x_series(method, eps, points.clone(), key as u64 + 1);
            series.push(with_label(s.clone(), format!("{} n={}", s.label, 3 * per_group)));
        }
    }
    power_fig(
        17,
        "Fig 17: KWabs power with ties (values rounded to a multiple); max−min = 2σ, g = 3, ε = 1, α = .05",
        "rounding multiple (σ)",
        true,
        series,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_figure_is_defined_and_grids_match_the_authors() {
        for id in ALL {
            let f = figure(id).unwrap();
            assert!(!f.series.is_empty(), "figure {id}");
            assert!(f.series.iter().all(|s| !s.points.is_empty()), "figure {id}");
        }
        assert!(figure(16).is_none());
        assert_eq!(kw_grid()[..4], [9, 12, 18, 27]);
        assert_eq!(mw_grid()[0], 12);
        assert_eq!(*mw_grid().last().unwrap(), 21490);
        assert_eq!(wp_grid()[..2], [10, 30]);
    }
}
