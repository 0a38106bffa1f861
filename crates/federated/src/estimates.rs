//! Several quantiles at once, by a named estimator: what the CLI's `federated quantile` and
//! Python's `dptest.federated.quantile` / `quantile_from_centres` both report.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::error::FederatedError;
use crate::quantile::{
    YjFit, quantile_linear, quantile_loss, quantile_naive, yj_data_fit, yj_table_fit,
};
use crate::table::SummaryTable;

/// The estimators that read a K-anonymous summary table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableMethod {
    /// The upper limit of the bin holding the quantile.
    Naive,
    /// Linear interpolation within that bin.
    Linear,
    /// A Yeo–Johnson normal model fitted to the table (one pass; the default).
    YjTable,
}

/// The estimators that run a protocol over the centres' data (not K-anonymous).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DataMethod {
    /// Federated bisection on counts (exact pooled order statistic).
    Loss,
    /// A Yeo–Johnson normal model from per-centre sums (the default).
    YjData,
}

impl FromStr for TableMethod {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "naive" => Ok(TableMethod::Naive),
            "linear" => Ok(TableMethod::Linear),
            "yj-table" => Ok(TableMethod::YjTable),
            other => Err(format!(
                "a table's method must be 'yj-table', 'linear' or 'naive', not {other:?}"
            )),
        }
    }
}

impl FromStr for DataMethod {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "loss" => Ok(DataMethod::Loss),
            "yj-data" => Ok(DataMethod::YjData),
            other => {
                Err(format!("the centres' data method must be 'yj-data' or 'loss', not {other:?}"))
            }
        }
    }
}

/// One estimated quantile.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The probability.
    pub p: f64,
    /// The estimate; `None` for an open extreme bin (±∞).
    pub quantile: Option<f64>,
    /// Count queries the loss protocol sent (its method only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<usize>,
}

/// The estimates, with the Yeo–Johnson fit behind them (Yeo–Johnson methods).
#[derive(Clone, Debug, PartialEq)]
pub struct Quantiles {
    /// One per probability, in order.
    pub estimates: Vec<Estimate>,
    /// The fitted model.
    pub fit: Option<YjFit>,
}

/// An estimator's refusal, with the probability it concerned (if one).
#[derive(Clone, Debug, PartialEq)]
pub struct QuantileError {
    /// The probability being estimated.
    pub p: Option<f64>,
    /// Why.
    pub error: FederatedError,
}

impl fmt::Display for QuantileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.p {
            Some(p) => write!(f, "p = {p}: {}", self.error),
            None => write!(f, "{}", self.error),
        }
    }
}

impl std::error::Error for QuantileError {}

fn whole(error: FederatedError) -> QuantileError {
    QuantileError { p: None, error }
}

fn finite(q: f64) -> Option<f64> {
    q.is_finite().then_some(q)
}

/// The index of the group labelled `label` in `table` (the first group for `None`).
///
/// # Errors
/// [`FederatedError::GroupMismatch`] naming the table's groups.
pub fn group_index(table: &SummaryTable, label: Option<&str>) -> Result<usize, FederatedError> {
    let Some(label) = label else { return Ok(0) };
    table.groups().iter().position(|g| g == label).ok_or_else(|| {
        FederatedError::GroupMismatch(format!(
            "group '{label}' is not in the table (its groups: {})",
            table.groups().join(", ")
        ))
    })
}

/// The quantiles at `ps` of group `group` of a summary table.
///
/// # Errors
/// The estimator's refusal (e.g. a probability outside (0, 1)).
pub fn table_quantiles(
    table: &SummaryTable,
    group: usize,
    method: TableMethod,
    ps: &[f64],
) -> Result<Quantiles, QuantileError> {
    let fit = match method {
        TableMethod::YjTable => Some(yj_table_fit(table, group).map_err(whole)?),
        _ => None,
    };
    let estimate = |p: f64| -> Result<Estimate, QuantileError> {
        let q = match (&fit, method) {
            (Some(f), _) => f.quantile(p),
            (None, TableMethod::Naive) => quantile_naive(table, group, p),
            (None, _) => quantile_linear(table, group, p),
        };
        let q = q.map_err(|error| QuantileError { p: Some(p), error })?;
        Ok(Estimate { p, quantile: finite(q), rounds: None })
    };
    Ok(Quantiles { estimates: ps.iter().map(|&p| estimate(p)).collect::<Result<_, _>>()?, fit })
}

/// The quantiles at `ps` of the pooled data of `centres` (the protocol run locally).
///
/// # Errors
/// The estimator's refusal (non-finite data, no data, a probability outside (0, 1)).
pub fn data_quantiles(
    centres: &[&[f64]],
    method: DataMethod,
    ps: &[f64],
) -> Result<Quantiles, QuantileError> {
    let fit = match method {
        DataMethod::YjData => Some(yj_data_fit(centres).map_err(whole)?),
        DataMethod::Loss => None,
    };
    let estimate = |p: f64| -> Result<Estimate, QuantileError> {
        let at = |error| QuantileError { p: Some(p), error };
        Ok(match &fit {
            Some(f) => Estimate { p, quantile: finite(f.quantile(p).map_err(at)?), rounds: None },
            None => {
                let q = quantile_loss(centres, p, None).map_err(at)?;
                Estimate { p, quantile: finite(q.value), rounds: Some(q.rounds) }
            }
        })
    };
    Ok(Quantiles { estimates: ps.iter().map(|&p| estimate(p)).collect::<Result<_, _>>()?, fit })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_by_name_and_refusals_name_the_probability() {
        assert_eq!("yj-table".parse::<TableMethod>(), Ok(TableMethod::YjTable));
        assert_eq!("loss".parse::<DataMethod>(), Ok(DataMethod::Loss));
        assert!("loss".parse::<TableMethod>().unwrap_err().contains("yj-table"));
        let centres: [&[f64]; 2] = [&[1.0, 2.0, 3.0], &[4.0, 5.0]];
        let loss = data_quantiles(&centres, DataMethod::Loss, &[0.5]).unwrap();
        assert_eq!(loss.estimates[0].quantile, Some(3.0));
        assert!(loss.estimates[0].rounds.is_some() && loss.fit.is_none());
        let e = data_quantiles(&centres, DataMethod::Loss, &[0.5, 1.5]).unwrap_err();
        assert!(e.to_string().starts_with("p = 1.5: "), "{e}");
    }
}
