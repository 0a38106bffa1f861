//! The real-data figures (16, 22, 35): the paper resampled public datasets we do not ship, so
//! these take the user's CSV (`--data FILE`) and resample it with replacement.
//!
//! - 16 (KWabs, Global Findex age by income quintile): columns `group,value`; subsets of
//!   size n keep the data's group proportions (unequal groups).
//! - 22 (MW, Nepal abortion data): columns `group,value`, exactly two groups; n/2 rows from each
//!   (m:(n−m) = 1).
//! - 35 (WP vs TC, NYC taxi): columns `before,after`; d = after − before; n = 400.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use dptest_wilcoxon::TcVariant;

use super::data::Data;
use super::figures::{Figure, Kind, Point, Series};
use super::methods::Method;

/// The figure `id` built on the CSV at `path`.
pub fn figure(id: u32, path: &Path) -> Result<Figure> {
    match id {
        16 => grouped_figure(16, path),
        22 => grouped_figure(22, path),
        35 => paired_figure(path),
        _ => bail!("figure {id} is not a real-data figure (16, 22, 35)"),
    }
}

fn read_columns(path: &Path, names: [&str; 2]) -> Result<(Vec<String>, Vec<String>)> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let headers = reader.headers()?.clone();
    let index = |name: &str, fallback: usize| {
        headers.iter().position(|h| h.trim() == name).unwrap_or(fallback)
    };
    let (a, b) = (index(names[0], 0), index(names[1], 1));
    let (mut first, mut second) = (vec![], vec![]);
    for record in reader.records() {
        let record = record?;
        let (Some(x), Some(y)) = (record.get(a), record.get(b)) else { continue };
        if x.trim().is_empty() || y.trim().is_empty() {
            continue;
        }
        first.push(x.trim().to_owned());
        second.push(y.trim().to_owned());
    }
    if first.is_empty() {
        bail!("{} has no rows with columns {} and {}", path.display(), names[0], names[1]);
    }
    Ok((first, second))
}

fn parse(values: &[String]) -> Result<Vec<f64>> {
    values
        .iter()
        .map(|v| v.parse::<f64>().with_context(|| format!("not a number: {v:?}")))
        .collect()
}

fn grouped_figure(id: u32, path: &Path) -> Result<Figure> {
    let (labels, values) = read_columns(path, ["group", "value"])?;
    let values = parse(&values)?;
    let mut by_label: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (label, value) in labels.into_iter().zip(values) {
        by_label.entry(label).or_default().push(value);
    }
    let groups: Arc<Vec<Vec<f64>>> = Arc::new(by_label.into_values().collect());
    let g = groups.len();
    let total: usize = groups.iter().map(Vec::len).sum();
    if id == 22 && g != 2 {
        bail!("figure 22 needs exactly two groups, the file has {g}");
    }
    if g < 2 {
        bail!("need at least two groups");
    }
    let grid: Vec<usize> =
        [10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000]
            .into_iter()
            .filter(|&n| n >= 2 * g)
            .collect();
    let sizes_at = |n: usize| -> Vec<usize> {
        if id == 22 {
            vec![n / 2, n - n / 2]
        } else {
            groups
                .iter()
                .map(|grp| ((n * grp.len()) as f64 / total as f64).round().max(1.0) as usize)
                .collect()
        }
    };
    let points: Vec<Point> = grid
        .iter()
        .map(|&n| {
            let sizes = sizes_at(n);
            let x = sizes.iter().sum::<usize>() as f64;
            Point { x, data: Data::ResampleGroups { groups: Arc::clone(&groups), sizes } }
        })
        .collect();
    let methods: Vec<(Method, Option<f64>)> = if id == 16 {
        vec![
            (Method::KwAbs, Some(1.0)),
            (Method::KwAbs, Some(0.1)),
            (Method::Kw, Some(1.0)),
            (Method::Kw, Some(0.1)),
            (Method::PublicKw, None),
        ]
    } else {
        vec![
            (Method::Mw { fraction: dptest_mann_whitney::DEFAULT_SIZE_FRACTION }, Some(1.0)),
            (Method::Mw { fraction: dptest_mann_whitney::DEFAULT_SIZE_FRACTION }, Some(0.1)),
            (Method::PublicMw, None),
        ]
    };
    let title = if id == 16 {
        format!("Fig 16: KWabs power on resampled user data (g = {g}, unequal groups), α = .05")
    } else {
        "Fig 22: MW power on resampled user data, ε_m = .65 ε, α = .05, m:(n−m) = 1".to_owned()
    };
    Ok(Figure {
        id,
        title,
        x_label: "n".into(),
        log_x: true,
        kind: Kind::Power,
        series: series(&methods, &points),
    })
}

fn paired_figure(path: &Path) -> Result<Figure> {
    let (before, after) = read_columns(path, ["before", "after"])?;
    let (before, after) = (parse(&before)?, parse(&after)?);
    let differences: Arc<Vec<f64>> =
        Arc::new(after.iter().zip(&before).map(|(a, b)| a - b).collect());
    let points = vec![Point { x: 400.0, data: Data::ResamplePaired { differences, n: 400 } }];
    let methods = [
        (Method::Wilcoxon, Some(1.0)),
        (Method::TaskClifton(TcVariant::HighUtility), Some(1.0)),
        (Method::TaskClifton(TcVariant::high_privacy()), Some(1.0)),
        (Method::PublicWilcoxon, None),
    ];
    Ok(Figure {
        id: 35,
        title: "Fig 35: WP vs TC vs public on resampled user paired data; n = 400, ε = 1, α = .05"
            .into(),
        x_label: "n".into(),
        log_x: false,
        kind: Kind::Power,
        series: series(&methods, &points),
    })
}

fn series(methods: &[(Method, Option<f64>)], points: &[Point]) -> Vec<Series> {
    methods
        .iter()
        .map(|&(method, epsilon)| Series {
            label: match epsilon {
                Some(e) => format!("{} ε={e}", method.name()),
                None => method.name(),
            },
            method,
            epsilon,
            points: points.to_vec(),
            data_key: 1,
            design: None,
        })
        .collect()
}
