//! Golden values from scipy 1.17.1 (testdata/gen_federated.py -> testdata/federated.toml).
//! Direction: group 1 = x, `Greater` = x stochastically larger, U > 0 when x tends larger.
#![allow(clippy::unwrap_used, reason = "test helpers")]

use dptest_federated::{
    Alternative, CentreSummary, ExtremeLimits, SummaryTable, centre_summary, combined_test,
    fisher_test, mixture_gamma_quantile, sum_test, table_statistic, table_test, weighted_test,
    yeo_johnson, yj_centre_sums, yj_data_fit,
};
use toml::Value;

fn golden() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/federated.toml");
    std::fs::read_to_string(path).unwrap().parse().unwrap()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_float().or_else(|| x.as_integer().map(|i| i as f64)).unwrap())
        .collect()
}

fn num(v: &Value) -> f64 {
    v.as_float().or_else(|| v.as_integer().map(|i| i as f64)).unwrap()
}

/// Relative closeness (Φ and χ² tails come from dptest_refdist::special, ~1e-15 relative).
fn close(got: f64, want: f64, rel: f64) -> bool {
    (got - want).abs() <= rel * want.abs().max(1e-300)
}

const ALTS: [(Alternative, &str); 3] = [
    (Alternative::Greater, "p_greater"),
    (Alternative::Less, "p_less"),
    (Alternative::TwoSided, "p_two_sided"),
];

#[test]
fn per_centre_mann_whitney() {
    for case in golden()["mwu"].as_array().unwrap() {
        let s = centre_summary(&floats(&case["x"]), &floats(&case["y"])).unwrap();
        assert_eq!(s.u, num(&case["u"]));
        assert!(close(s.v, num(&case["v"]), 1e-13));
        for (alt, key) in ALTS {
            let p = s.p_value(alt).unwrap();
            assert!(close(p, num(&case[key]), 1e-12), "{key}: {p} vs {}", case[key]);
        }
    }
}

fn check_federation(case: &Value) {
    let centres = case["centres"].as_integer().unwrap() as usize;
    let data: Vec<(Vec<f64>, Vec<f64>)> = (0..centres)
        .map(|i| (floats(&case[&format!("x{i}")]), floats(&case[&format!("y{i}")])))
        .collect();
    let summaries: Vec<CentreSummary> =
        data.iter().map(|(x, y)| centre_summary(x, y).unwrap()).collect();
    for (i, s) in summaries.iter().enumerate() {
        assert_eq!(s.u, floats(&case["u"])[i]);
        assert!(close(s.v, floats(&case["v"])[i], 1e-13));
        let p = s.p_value(Alternative::Greater).unwrap();
        assert!(close(p, floats(&case["p_centre"])[i], 1e-12));
    }
    let g = Alternative::Greater;
    let sum = sum_test(&summaries, g).unwrap();
    assert!(close(sum.statistic, num(&case["z_sum"]), 1e-12));
    assert!(close(sum.p_value, num(&case["p_sum"]), 1e-12));
    let w = weighted_test(&summaries, g).unwrap();
    assert!(
        close(w.statistic, num(&case["z_weighted"]), 1e-12),
        "{} vs {}",
        w.statistic,
        case["z_weighted"]
    );
    assert!(close(w.p_value, num(&case["p_weighted"]), 1e-12));
    let f = fisher_test(&summaries, g).unwrap();
    assert!(close(f.statistic, num(&case["fisher_statistic"]), 1e-12));
    assert!(close(f.p_value, num(&case["p_fisher"]), 1e-12));
    assert_eq!(f.df, Some(2 * centres));
    let x: Vec<f64> = data.iter().flat_map(|c| c.0.clone()).collect();
    let y: Vec<f64> = data.iter().flat_map(|c| c.1.clone()).collect();
    let c = combined_test(&x, &y, g).unwrap();
    assert!(close(c.p_value, num(&case["p_combined"]), 1e-12));
}

#[test]
fn weighted_test_equals_van_elteren_without_ties() {
    check_federation(&golden()["federation"][0]);
}

#[test]
fn federation_with_ties() {
    check_federation(&golden()["federation_ties"][0]);
}

#[test]
fn table_statistic_and_p_values() {
    for case in golden()["table"].as_array().unwrap() {
        let fx = floats(&case["fx"]);
        let fy = floats(&case["fy"]);
        let limits: Vec<f64> = (1..fx.len()).map(|i| i as f64).chain([f64::INFINITY]).collect();
        let t = SummaryTable::new(
            10,
            vec!["x".into(), "y".into()],
            vec!["c1".into()],
            ExtremeLimits::INFINITE,
            f64::NEG_INFINITY,
            limits,
            vec![fx, fy],
        )
        .unwrap();
        let s = table_statistic(&t).unwrap();
        assert!(close(s.u, num(&case["u"]), 1e-13));
        assert!(close(s.v, num(&case["v"]), 1e-12));
        for (alt, key) in ALTS {
            let p = table_test(&t, alt).unwrap().p_value;
            assert!(close(p, num(&case[key]), 2e-8), "{key}: {p} vs {}", case[key]);
        }
    }
}

#[test]
fn yeo_johnson_matches_scipy() {
    let g = golden();
    for case in g["yeo_johnson"].as_array().unwrap() {
        let lambda = num(&case["lmbda"]);
        let x = floats(&case["x"]);
        for (xi, want) in x.iter().zip(floats(&case["psi"])) {
            let got = yeo_johnson(*xi, lambda).unwrap();
            assert!(
                (got - want).abs() <= 1e-14 * (1.0 + want.abs()),
                "λ={lambda} x={xi}: {got} vs {want}"
            );
        }
        let llf = yj_centre_sums(&x, lambda).unwrap().profile_loglik(lambda);
        assert!(close(llf, num(&case["llf"]), 1e-12), "{llf} vs {}", case["llf"]);
    }
    let mle = &g["yj_mle"][0];
    let data = floats(&mle["data"]);
    let (a, b) = data.split_at(25);
    let fit = yj_data_fit(&[a, b]).unwrap();
    assert!(
        (fit.lambda - num(&mle["lambda_mle"])).abs() < 1e-5,
        "{} vs {}",
        fit.lambda,
        mle["lambda_mle"]
    );
}

#[test]
fn gamma_mixture_truth() {
    for case in golden()["gamma_mixture"].as_array().unwrap() {
        let sizes: Vec<usize> = floats(&case["sizes"]).iter().map(|&s| s as usize).collect();
        let q = mixture_gamma_quantile(
            num(&case["shape"]),
            &sizes,
            &floats(&case["alphas"]),
            num(&case["p"]),
        )
        .unwrap();
        assert!(close(q, num(&case["quantile"]), 1e-9), "{q} vs {}", case["quantile"]);
    }
}

#[test]
fn normal_distribution() {
    let g = golden();
    let case = &g["normal"][0];
    let z = floats(&case["z"]);
    // scipy's ndtr rounds z/√2 first and is itself off by up to ~z²·1e-16 relative (1.1e-13 at
    // z = 37, where ours equals mpmath's ncdf), hence 2e-13 here.
    for ((z, cdf), sf) in z.iter().zip(floats(&case["cdf"])).zip(floats(&case["sf"])) {
        let (c, s) = (dptest_federated::normal_cdf(*z), dptest_federated::normal_sf(*z));
        assert!(close(c, cdf, 2e-13) || (cdf == 0.0 && c < 1e-300), "cdf({z}) = {c} vs {cdf}");
        assert!(close(s, sf, 2e-13) || (sf == 0.0 && s < 1e-300), "sf({z}) = {s} vs {sf}");
    }
    for (p, q) in floats(&case["probs"]).iter().zip(floats(&case["ppf"])) {
        let got = dptest_federated::normal_quantile(*p);
        assert!(close(got, q, 1e-13), "ppf({p}) = {got} vs {q}");
    }
}
