//! NIST StRD one-way ANOVA data sets (https://www.itl.nist.gov/div898/strd/anova/, Simon &
//! Lesage 1989): the certified F statistics, at NIST's own accuracy tests.
//!
//! SmLs01–09 are generated data: 9 treatments of r + 1 values each, r = 20, 200, 2000;
//! treatment 1 is centred at .4, even treatments at .3 and odd ones from 3 on at .5, each
//! with its centre first and then r values alternating centre − 0.1 and centre + 0.1, after a
//! constant leading part 1, 1 000 000 or 10¹² (the data files, e.g. those installed with
//! scipy 1.17.1 under `scipy/stats/tests/data/nist_anova/`, list exactly these values). The
//! certified F is r + 1 (exact: SSB = 0.08(r + 1), SSW = 0.09r, df 8 and 9r). AtmWtAg is
//! measured data (atomic weight of silver, two instruments), copied in
//! `tests/nist_atmwtag.toml` with its certified F.
#![allow(clippy::unwrap_used, reason = "test helpers")]

use dptest_anova::f_oneway;

/// The SmLs groups for a leading part and r, built as the data file writes them (decimal
/// text parsed to f64).
fn smls(leading: &str, r: usize) -> Vec<Vec<f64>> {
    let value = |tenths: u32| format!("{leading}.{tenths}").parse::<f64>().unwrap();
    (1..=9)
        .map(|treatment| {
            let centre = match treatment {
                1 => 4,
                t if t % 2 == 0 => 3,
                _ => 5,
            };
            let mut group = vec![value(centre)];
            group.extend((0..r).map(|i| value(if i % 2 == 0 { centre - 1 } else { centre + 1 })));
            group
        })
        .collect()
}

fn relative_error(got: f64, certified: f64) -> f64 {
    (got - certified).abs() / certified
}

#[test]
fn the_lower_and_average_difficulty_sets_match_the_certified_f() {
    for (leading, name) in [("1", "SmLs01-03"), ("1000000", "SmLs04-06")] {
        for r in [20, 200, 2000] {
            let f = f_oneway(&smls(leading, r)).unwrap().statistic;
            let error = relative_error(f, (r + 1) as f64);
            assert!(error < 1e-9, "{name}, r = {r}: F = {f}, relative error {error:e}");
        }
    }
}

#[test]
fn the_higher_difficulty_sets_match_the_certified_f() {
    // 13 constant leading digits: the data's own decimal representation carries ~4 digits.
    for r in [20, 200, 2000] {
        let f = f_oneway(&smls("1000000000000", r)).unwrap().statistic;
        let error = relative_error(f, (r + 1) as f64);
        assert!(error < 1e-4, "SmLs07-09, r = {r}: F = {f}, relative error {error:e}");
    }
}

#[test]
fn atomic_weight_of_silver_matches_the_certified_f() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/nist_atmwtag.toml"))
            .unwrap();
    let table: toml::Table = text.parse().unwrap();
    let group = |key: &str| -> Vec<f64> {
        table[key].as_array().unwrap().iter().map(|v| v.as_float().unwrap()).collect()
    };
    let groups = [group("instrument_1"), group("instrument_2")];
    let certified = table["certified_f"].as_float().unwrap();
    let f = f_oneway(&groups).unwrap().statistic;
    assert!(relative_error(f, certified) < 1e-9, "F = {f}, certified {certified}");
}
