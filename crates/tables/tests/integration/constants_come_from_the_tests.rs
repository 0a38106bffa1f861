//! The tables' nulls use the tests' own constants and formulas, so a change in a test shows up
//! here (and in `cargo xtask tables --check`) instead of silently leaving the tables stale.

use dptest_mann_whitney::MwPrivacy;
use dptest_mechanisms::Epsilon;
use dptest_tables::{T_PAPER_SD, TableTest, mann_whitney_null, signed_rank_sd, wilcoxon_scale};

#[test]
fn mann_whitney_null_uses_the_release_share_of_epsilon() {
    for epsilon in [0.1, 1.0, 3.0] {
        let privacy = MwPrivacy::paper(Epsilon::new(epsilon).unwrap());
        let (_, epsilon_u) = privacy.split().unwrap();
        let null = mann_whitney_null(40, 10, epsilon);
        approx::assert_relative_eq!(null.laplace_scale, 30.0 / epsilon_u, max_relative = 1e-12);
    }
}

#[test]
fn wilcoxon_null_uses_the_release_sensitivity() {
    for n in [5u32, 50, 500] {
        let sensitivity = dptest_wilcoxon::pratt_sensitivity(n as usize);
        assert_eq!(wilcoxon_scale(n, 0.5), sensitivity / 0.5);
        assert_eq!(signed_rank_sd(n), dptest_wilcoxon::signed_rank_sd(n as usize));
    }
}

#[test]
fn t_test_reference_label_names_the_paper_sd() {
    assert_eq!(T_PAPER_SD, dptest_t_test::PAPER_SD);
    assert_eq!(TableTest::TTest.reference_name(), format!("normal-sd-{T_PAPER_SD}"));
}

#[test]
fn the_default_wilcoxon_cell_is_the_critical_value_of_the_test_run_with_defaults() {
    use dptest_wilcoxon::{Alternative, Evaluator, PrivateWilcoxonOptions, WpReference};
    // The test's default options name the reference; the table reads the same type.
    let epsilon = Epsilon::new(1.0).unwrap();
    let reference = PrivateWilcoxonOptions::new(epsilon).reference;
    assert_eq!(reference, dptest_tables::WilcoxonReference::Exact);
    for (n, alpha) in [(10u32, 0.05), (100, 0.01), (400, 0.05), (1000, 0.005)] {
        let test = TableTest::Wilcoxon(reference);
        let found = dptest_tables::critical_value(test, n, 1.0, alpha).unwrap();
        assert!(found.shipped, "n = {n}: the default reference has shipped cells");
        assert_eq!(found.row.reference, "exact");
        let own = WpReference::new(n as usize, epsilon, reference, Evaluator::Exact).unwrap();
        let value = own.critical_value(alpha, Alternative::TwoSided).unwrap();
        assert_eq!(found.value(), value, "n = {n}, α = {alpha}");
        // The test rejects at the cell and not just below it.
        let p = |w: f64| own.p_value(w, Alternative::TwoSided).unwrap();
        assert!(p(found.value()) <= alpha + 1e-12 && p(found.value() * 0.99) > alpha);
        // The untied reference is another test's: its cell differs.
        let untied = TableTest::Wilcoxon(dptest_tables::WilcoxonReference::ExactUntied);
        let other = dptest_tables::critical_value(untied, n, 1.0, alpha).unwrap();
        assert_eq!(other.row.reference, "exact-untied");
        assert_ne!(other.value(), value);
    }
}
