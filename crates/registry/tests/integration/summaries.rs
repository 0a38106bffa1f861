//! Every test of the registry released from a summary ([`Data::Summary`], what `dptest.spark`
//! computes in the cluster) says what it says from the rows: the same statistic (up to the
//! noise, here tiny), n, charge and reference. The summaries are computed here directly from
//! their definitions (O(n²) mid-ranks), not by the code under test.
#![allow(clippy::unwrap_used, reason = "test helpers")]

use dptest_refdist::{CpuEngine, Evaluator, MonteCarlo};
use dptest_registry::{ReleaseTest, find};
use dptest_report::{Choices, CiRequest, Data, Evaluation, FrontEnd, IntervalSummary, Summary};

/// Distinct values (no ties: random tie-breaking then gives the mid-ranks' sums), one zero.
fn values() -> Vec<f64> {
    (0..30)
        .map(|i| f64::from((i * 17) % 30) / 10.0 - 1.4)
        .map(|v| (v * 10.0).round() / 10.0)
        .collect()
}

/// A large ε: the noise scale is small next to the tolerance of the comparison.
fn choices() -> Choices {
    Choices {
        bounds: dptest_core::Bounds::new(-2.0, 2.0).ok(),
        ..Choices::new(500.0, FrontEnd::Cli)
    }
}

/// Mid-rank of `x` among `all`: 1 + #{smaller} + (#{equal} − 1)/2.
fn mid_rank(x: f64, all: &[f64]) -> f64 {
    let smaller = all.iter().filter(|&&v| v < x).count() as f64;
    let equal = all.iter().filter(|&&v| v == x).count() as f64;
    1.0 + smaller + (equal - 1.0) / 2.0
}

fn summary_only(summary: Summary, paired: bool) -> Data {
    Data::Summary { summary, paired, interval: None }
}

fn release(test: &dyn ReleaseTest, data: Data, choices: &Choices) -> dptest_report::Fields {
    let shape = data.shape();
    let prepared = test.prepare(shape, choices).unwrap_or_else(|e| panic!("{}: {e}", test.name()));
    let evaluator = match prepared.evaluation {
        Evaluation::MonteCarlo { required: true, .. } => {
            Evaluator::MonteCarlo { engine: &CpuEngine, mc: MonteCarlo::new(4000, 7).unwrap() }
        }
        _ => Evaluator::Exact,
    };
    let release =
        test.release(data, choices, evaluator).unwrap_or_else(|e| panic!("{}: {e}", test.name()));
    release.fields().clone()
}

/// The rows and the summary say the same: n, ε, the reference, and the statistic to within
/// 40 noise scales `sensitivity / ε` (ε as the test used it) of each release (each noise
/// exceeds 20 scales with probability e⁻²⁰).
fn assert_same(test: &str, rows: Data, summary: Summary, sensitivity: f64) {
    let test = find(test).unwrap();
    let paired = rows.shape().paired;
    let choices = choices();
    let from_rows = release(test, rows, &choices);
    let data = Data::Summary { summary, paired, interval: None };
    let from_summary = release(test, data, &choices);
    for key in ["n", "epsilon", "delta", "reference", "variant"] {
        assert_eq!(from_rows.map().get(key), from_summary.map().get(key), "{}: {key}", test.name());
    }
    let scale = sensitivity / from_rows.get_f64("epsilon").unwrap();
    let (a, b) =
        (from_rows.get_f64("statistic").unwrap(), from_summary.get_f64("statistic").unwrap());
    assert!(
        (a - b).abs() <= 40.0 * scale,
        "{}: {a} from the rows, {b} from the summary",
        test.name()
    );
}

#[test]
fn grouped_tests_release_the_same_from_their_rank_sums() {
    let values = values();
    let groups: Vec<usize> = (0..values.len()).map(|i| i % 3).collect();
    // KW-abs: sensitivity 8; Mann–Whitney's centred U: about n.
    for (test, declared, sensitivity) in [("kruskal-wallis", 3, 8.0), ("mann-whitney", 2, 30.0)] {
        let group = |i: usize| groups[i] % declared;
        let mut sums = vec![0.0; declared];
        let mut sizes = vec![0_u64; declared];
        for (i, &v) in values.iter().enumerate() {
            sums[group(i)] += mid_rank(v, &values);
            sizes[group(i)] += 1;
        }
        let rows = Data::Grouped {
            values: values.clone(),
            groups: (0..values.len()).map(|i| group(i) as u32).collect(),
            declared,
        };
        let twice_sums = sums.iter().map(|&s| (2.0 * s) as u128).collect();
        assert_same(test, rows, Summary::RankSums { twice_sums, sizes }, sensitivity);
    }
}

#[test]
fn one_sample_tests_release_the_same_from_their_summaries() {
    let d = values();
    let n = d.len() as u64;
    let abs: Vec<f64> = d.iter().map(|x| x.abs()).collect();
    let w: f64 =
        d.iter().map(|&x| x.signum() * if x == 0.0 { 0.0 } else { mid_rank(x.abs(), &abs) }).sum();
    let rows = || Data::Values { values: d.clone(), paired: true };
    assert_same("wilcoxon", rows(), Summary::SignedRanks { w, n }, 2.0 * d.len() as f64);
    let count = |f: fn(&f64) -> bool| d.iter().filter(|x| f(x)).count() as u64;
    let signs = Summary::Signs {
        positive: count(|x| *x > 0.0),
        negative: count(|x| *x < 0.0),
        zeros: count(|x| *x == 0.0),
    };
    assert_same("sign", rows(), signs, 2.0);
    // Bounds [−2, 2] around popmean 0: y = clamp(x)/2.
    let y: Vec<f64> = d.iter().map(|x| x.clamp(-2.0, 2.0) / 2.0).collect();
    let sums = dptest_t_test::GridSums::of(&y, dptest_t_test::RescaledRange::FULL);
    let moments = Summary::Moments { n, sum: sums.sum, sum_squares: sums.sum_squares };
    // T̃ moves by about √n/s ≈ 13 per unit of the mean (n = 30, s ≈ 0.43 on [−1, 1]), whose
    // noise scale is (2/n)/ε_mean ≈ 3·10⁻⁴ here: T̃'s noise is about 4·10⁻³ a scale, and the
    // allowance of 40/500 = 0.08 is some 20 of them (the variance's noise moves T̃ less).
    assert_same("t-test", rows(), moments, 1.0);
}

#[test]
fn a_summary_no_dataset_gives_or_of_the_wrong_kind_is_refused_before_any_release() {
    let evaluator =
        Evaluator::MonteCarlo { engine: &CpuEngine, mc: MonteCarlo::new(100, 7).unwrap() };
    let choices = choices();
    let kw = find("kruskal-wallis").unwrap();
    let impossible = Summary::RankSums { twice_sums: vec![2, 4], sizes: vec![2, 2] };
    let refusal = kw.release(summary_only(impossible, false), &choices, evaluator);
    assert!(refusal.unwrap_err().0.contains("rank-sum summary"));
    // Grid sums of three values cannot exceed 3 (in units of 2³² on [−1, 1]) nor have a
    // square of the sum above n times the sum of squares.
    let t = find("t-test").unwrap();
    let unit = 1_i128 << 32;
    for (sum, sum_squares) in [(3 * unit + 1, 3 * (unit as u128).pow(2)), (3, 2)] {
        let impossible = Summary::Moments { n: 3, sum, sum_squares };
        let refusal = t.release(summary_only(impossible, true), &choices, evaluator).unwrap_err();
        assert!(refusal.0.contains("moment sums"), "{refusal}");
    }
    let wrong = Summary::Signs { positive: 1, negative: 2, zeros: 0 };
    for test in ["kruskal-wallis", "mann-whitney", "wilcoxon", "t-test"] {
        let data = summary_only(wrong.clone(), true);
        assert!(find(test).unwrap().release(data, &choices, evaluator).is_err(), "{test}");
    }
    // The median interval reads the values' counts on its grid: refused for a summary sent
    // without them.
    let ci = Choices { ci: Some(CiRequest { level: 0.9, epsilon: Some(1.0) }), ..choices };
    let signs = summary_only(wrong, true);
    let refusal = find("sign").unwrap().release(signs, &ci, evaluator).unwrap_err();
    assert!(refusal.0.contains("counts on its grid"), "{refusal}");
    // So does Mann–Whitney's placement variance (an interval ε with public sizes).
    let mut known = ci;
    known.named.push(("known-sizes".to_owned(), "true".to_owned()));
    let sums = Summary::RankSums { twice_sums: vec![20, 52], sizes: vec![4, 4] };
    let data = summary_only(sums.clone(), false);
    let refusal = find("mann-whitney").unwrap().release(data, &known, evaluator).unwrap_err();
    assert!(refusal.0.contains("came without them"), "{refusal}");
    // And Kruskal–Wallis's covariance of the mean ranks.
    let data = summary_only(sums, false);
    let refusal = kw.release(data, &known, evaluator).unwrap_err();
    assert!(refusal.0.contains("came without them"), "{refusal}");
}

/// The median interval of `sign` and `wilcoxon` from a summary reads the grid cells the front
/// end counted (`dptest.spark`): an interval at the asked level and ε around the data's
/// median, and cells that disagree with the summary's n are refused without a count.
#[test]
fn the_median_interval_reads_the_grid_cells_a_summary_brings() {
    use dptest_intervals::MedianGrid;
    let d = values();
    let n = d.len() as u64;
    let range = dptest_core::Bounds::new(-2.0, 2.0).unwrap();
    let grid = MedianGrid::new(range, n, 1.0).unwrap();
    let cells: Vec<_> = d.iter().map(|&v| (grid.cell(range.clamp(v)), 1)).collect();
    let ci = Choices { ci: Some(CiRequest { level: 0.9, epsilon: Some(1.0) }), ..choices() };
    let count = |f: fn(&f64) -> bool| d.iter().filter(|x| f(x)).count() as u64;
    let signs = Summary::Signs {
        positive: count(|x| *x > 0.0),
        negative: count(|x| *x < 0.0),
        zeros: count(|x| *x == 0.0),
    };
    // Any possible W will do (the interval does not read it): 0.
    let ranks = Summary::SignedRanks { w: 0.0, n };
    for (test, summary) in [("sign", signs), ("wilcoxon", ranks)] {
        let data = Data::Summary {
            summary: summary.clone(),
            paired: true,
            interval: Some(IntervalSummary::MedianCells(cells.clone())),
        };
        let fields = release(find(test).unwrap(), data, &ci);
        let estimate = fields.map()["estimate"].as_object().unwrap().clone();
        let at = |key: &str| estimate[key].as_f64().unwrap();
        assert!(-2.0 <= at("low") && at("low") <= at("value") && at("value") <= at("high"));
        assert!(at("high") <= 2.0 && at("epsilon") == 1.0, "{test}: {estimate:?}");
        let short = Data::Summary {
            summary,
            paired: true,
            interval: Some(IntervalSummary::MedianCells(cells[1..].to_vec())),
        };
        let evaluator = Evaluator::Exact;
        let refusal = find(test).unwrap().release(short, &ci, evaluator).unwrap_err().0;
        assert!(refusal.contains("different numbers") && !refusal.contains("29"), "{refusal}");
    }
}

/// Mann–Whitney's placement variance from a summary reads the placement sums the front end
/// computed: the interval is DeLong's, charged the interval's ε; sums no data of the sizes
/// give, or counts of another kind, are refused.
#[test]
fn the_placement_variance_reads_the_sums_a_summary_brings() {
    use dptest_mann_whitney::{AUC_PLACEMENTS_METHOD, PlacementSums, TwoSample};
    let values = values();
    let (x, y): (Vec<f64>, Vec<f64>) = (values[..18].to_vec(), values[18..].to_vec());
    let sums = PlacementSums::of_sample(&TwoSample::new(x.clone(), y.clone()).unwrap());
    let r1: f64 = x.iter().map(|&v| mid_rank(v, &values)).sum();
    let twice_r1 = (2.0 * r1) as u128;
    let rank_sums =
        Summary::RankSums { twice_sums: vec![twice_r1, 30 * 31 - twice_r1], sizes: vec![18, 12] };
    let mut ci = Choices { ci: Some(CiRequest { level: 0.9, epsilon: Some(1.0) }), ..choices() };
    ci.named.push(("known-sizes".to_owned(), "true".to_owned()));
    let test = find("mann-whitney").unwrap();
    let with = |interval| Data::Summary { summary: rank_sums.clone(), paired: false, interval };
    let placements = IntervalSummary::PlacementSums { x: sums.x, y: sums.y };
    let fields = release(test, with(Some(placements)), &ci);
    let estimate = fields.map()["estimate"].as_object().unwrap().clone();
    assert_eq!(estimate["method"], AUC_PLACEMENTS_METHOD);
    assert_eq!(estimate["epsilon"], 1.0);
    let evaluator = Evaluator::Exact;
    let impossible = IntervalSummary::PlacementSums { x: 18 * 24 * 24 + 1, y: 0 };
    let refusal = test.release(with(Some(impossible)), &ci, evaluator).unwrap_err().0;
    assert!(refusal.contains("placement sums") && !refusal.contains("10369"), "{refusal}");
    let cells = IntervalSummary::MedianCells(Vec::new());
    let refusal = test.release(with(Some(cells)), &ci, evaluator).unwrap_err().0;
    assert!(refusal.contains("not median grid counts"), "{refusal}");
}

/// Kruskal–Wallis's released intervals from a summary read the rank moments the front end
/// computed: with them every route gives its interval, charged the interval's ε, as from the
/// rows; moments of another kind are refused.
#[test]
fn the_rank_effect_routes_read_the_moments_a_summary_brings() {
    use dptest_kruskal_wallis::{GroupedSample, PlacementMoments};
    let values = values();
    let groups: Vec<Vec<f64>> =
        (0..3).map(|g| values.iter().skip(g).step_by(3).copied().collect()).collect();
    let moments = PlacementMoments::of_sample(&GroupedSample::from_groups(&groups).unwrap());
    // Distinct values: mid-ranks are the ranks.
    let rank_sum = |g: &Vec<f64>| g.iter().map(|&v| mid_rank(v, &values)).sum::<f64>();
    let sums: Vec<f64> = groups.iter().map(rank_sum).collect();
    let twice = sums.iter().map(|&s| (2.0 * s) as i128).collect();
    let twice_sums = sums.iter().map(|&s| (2.0 * s) as u128).collect();
    let summary = Summary::RankSums { twice_sums, sizes: vec![10, 10, 10] };
    let interval = IntervalSummary::RankMoments {
        linear: moments.linear,
        products: moments.products,
        twice_mid_rank_sums: twice,
    };
    let test = find("kruskal-wallis").unwrap();
    for method in ["scaled", "covariance", "signs"] {
        let mut ci =
            Choices { ci: Some(CiRequest { level: 0.9, epsilon: Some(1.0) }), ..choices() };
        ci.named.push(("known-sizes".to_owned(), "true".to_owned()));
        ci.named.push(("ci-method".to_owned(), method.to_owned()));
        let data = Data::Summary {
            summary: summary.clone(),
            paired: false,
            interval: Some(interval.clone()),
        };
        let fields = release(test, data, &ci);
        let estimate = fields.map()["estimate"].as_object().unwrap().clone();
        assert_eq!(estimate["epsilon"], 1.0, "{method}");
        let rows = Data::Grouped {
            values: groups.concat(),
            groups: (0..3u32).flat_map(|g| std::iter::repeat_n(g, 10)).collect(),
            declared: 3,
        };
        let from_rows = release(test, rows, &ci);
        let method_of = |f: &dptest_report::Fields| f.map()["estimate"]["method"].clone();
        assert_eq!(method_of(&fields), method_of(&from_rows), "{method}");
        let wrong = Data::Summary {
            summary: summary.clone(),
            paired: false,
            interval: Some(IntervalSummary::PlacementSums { x: 0, y: 0 }),
        };
        let evaluator =
            Evaluator::MonteCarlo { engine: &CpuEngine, mc: MonteCarlo::new(100, 7).unwrap() };
        let refusal = test.release(wrong, &ci, evaluator).unwrap_err().0;
        assert!(refusal.contains("not placement sums"), "{refusal}");
    }
}
