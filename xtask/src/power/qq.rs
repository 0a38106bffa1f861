//! The Q-Q figures (2, 5, 9, 13, 19, 23, 24): rejection rates under the null on a grid of α.

use super::data::Data;
use super::figures::{Figure, Kind, MW_F, Point, Series};
use super::methods::{Method, TRef};

fn qq_fig(id: u32, title: &str, series: Vec<Series>) -> Figure {
    Figure {
        id,
        title: title.to_owned(),
        x_label: "α".into(),
        log_x: false,
        kind: Kind::QQ,
        series,
    }
}

fn qq_series(method: Method, epsilon: Option<f64>, data: Data, label: String, key: u64) -> Series {
    Series {
        label,
        method,
        epsilon,
        points: vec![Point { x: 0.0, data }],
        data_key: key,
        design: None,
    }
}

fn groups(sizes: &[usize], mean: f64, sd: f64) -> Data {
    Data::Groups { sizes: sizes.to_vec(), means: vec![mean; sizes.len()], sd, round: None }
}

/// The Q-Q figure `id` (empty for other ids).
pub(super) fn qq_figure(id: u32) -> Figure {
    let mwp = Method::Mw { fraction: MW_F };
    let (title, series): (&str, Vec<Series>) = match id {
        2 => (
            "Fig 2: Q-Q of KWabs p-values; g = 3, ε = 1, equal groups",
            [10usize, 100, 1000]
                .iter()
                .map(|&m| {
                    qq_series(
                        Method::KwAbs,
                        Some(1.0),
                        groups(&[m; 3], 0.0, 1.0),
                        format!("n={}", 3 * m),
                        m as u64,
                    )
                })
                .collect(),
        ),
        5 => (
            "Fig 5: Q-Q of MW p-values; ε = 1, ε_m = .65 ε, m:(n−m) = 1",
            [10usize, 50, 100, 250, 500]
                .iter()
                .map(|&m| {
                    qq_series(
                        mwp,
                        Some(1.0),
                        groups(&[m; 2], 0.0, 1.0),
                        format!("n={}", 2 * m),
                        m as u64,
                    )
                })
                .collect(),
        ),
        9 => (
            "Fig 9: Q-Q of WP p-values; ε = 1, n = 500, 0/30/90% zero differences",
            [0.0, 0.3, 0.9]
                .iter()
                .enumerate()
                .map(|(k, &z)| {
                    qq_series(
                        Method::Wilcoxon,
                        Some(1.0),
                        Data::paper_paired(500, z, 0.0),
                        format!("{}% zeros", z * 100.0),
                        k as u64,
                    )
                })
                .collect(),
        ),
        13 => (
            "Fig 13: Q-Q of private t p-values; ε = 1 split ½/½, data N(0, .3²) on [−1, 1]",
            [10usize, 100, 1000]
                .iter()
                .map(|&n| {
                    let m = Method::TTest {
                        bounds: [-1.0, 1.0],
                        mean_fraction: 0.5,
                        reference: TRef::Default,
                    };
                    qq_series(
                        m,
                        Some(1.0),
                        Data::Paired { n, zero_fraction: 0.0, mean: 0.0, sd: 0.3 },
                        format!("n={n}"),
                        n as u64,
                    )
                })
                .collect(),
        ),
        19 => (
            "Fig 19: Q-Q of KWabs p-values with unequal groups; g = 3, ε = 1, n = 100",
            [[34usize, 33, 33], [50, 25, 25], [70, 15, 15], [90, 5, 5]]
                .iter()
                .map(|s| {
                    qq_series(
                        Method::KwAbs,
                        Some(1.0),
                        groups(s, 0.0, 1.0),
                        format!("sizes {s:?}"),
                        s[0] as u64,
                    )
                })
                .collect(),
        ),
        23 | 24 => {
            let method = if id == 23 { mwp } else { Method::MwEqualReference };
            let title = if id == 23 {
                "Fig 23: Q-Q of MW p-values with unequal groups; ε = 1, ε_m = .65 ε, n = 1000"
            } else {
                "Fig 24: Q-Q of MW with an equal-size reference (invalid variant); ε = 1, n = 1000"
            };
            (
                title,
                [500usize, 400, 300, 200, 100]
                    .iter()
                    .map(|&m| {
                        qq_series(
                            method,
                            Some(1.0),
                            groups(&[m, 1000 - m], 0.0, 1.0),
                            format!("m={m}"),
                            m as u64,
                        )
                    })
                    .collect(),
            )
        }
        _ => ("", vec![]),
    };
    qq_fig(id, title, series)
}
