//! `cargo xtask calibrate --test anova --paper-designs FIGURE`: type-I error and power of
//! Swanberg et al.'s private ANOVA with its authors' reference (`DEFAULT_NULL_DRAWS` null
//! datasets, f = 0.75) on the paper's comparison designs (`dptest_anova::PAPER_DESIGNS`), with
//! the public F test on the same datasets. CSV on stdout, one row per (figure, hypothesis, N).

use std::fmt::Write;
use std::time::Instant;

use anyhow::{Result, bail};
use dptest_anova::{
    DEFAULT_NULL_DRAWS, PAPER_DESIGNS, PaperDesign, RejectionRate, public_p_values,
    simulated_p_values,
};

/// The level of the rates.
const ALPHA: f64 = 0.05;

/// The rows of `figure` (`all` or a design's figure, e.g. `fig3`) at the sizes `ns` (default:
/// each figure's own N grid thinned to 4), `reps` datasets each. The datasets of size N use
/// seed `seed + 6 + N` (the default seed 1 gives the runs quoted in docs/privacy.md).
pub fn run(figure: &str, ns: Option<&[usize]>, reps: u64, seed: u64) -> Result<String> {
    let designs: Vec<&PaperDesign> =
        PAPER_DESIGNS.iter().filter(|d| figure == "all" || d.figure == figure).collect();
    if designs.is_empty() {
        let known: Vec<&str> = PAPER_DESIGNS.iter().map(|d| d.figure).collect();
        bail!("unknown --paper-designs {figure:?}: all, {}", known.join(", "));
    }
    let mut out = String::from(
        "figure,hypothesis,n,epsilon,alpha,reps,null_draws,private_rate,private_se,public_rate,seconds\n",
    );
    for design in designs {
        for n in ns.map_or_else(|| thinned(design.n_grid), <[usize]>::to_vec) {
            rows(&mut out, design, n, reps, seed + 6 + n as u64)?;
        }
    }
    Ok(out)
}

/// Every ⌈len/4⌉-th size of `grid`, from the first.
fn thinned(grid: &[usize]) -> Vec<usize> {
    grid.iter().copied().step_by(grid.len().div_ceil(4).max(1)).collect()
}

/// The null and the alternative rows of `design` at total size `n`.
fn rows(out: &mut String, design: &PaperDesign, n: usize, reps: u64, seed: u64) -> Result<()> {
    for (hypothesis, d) in [("null", design.null_design(n)?), ("alternative", design.design(n)?)] {
        let start = Instant::now();
        let p = simulated_p_values(&d, &design.options()?, reps, DEFAULT_NULL_DRAWS, seed)?;
        let private = RejectionRate::from_p_values(&p, ALPHA);
        let public = RejectionRate::from_p_values(&public_p_values(&d, reps, seed), ALPHA);
        writeln!(
            out,
            "{},{hypothesis},{n},{},{ALPHA},{reps},{DEFAULT_NULL_DRAWS},{:.4},{:.4},{:.4},{:.2}",
            design.figure,
            design.epsilon,
            private.rate,
            private.std_error,
            public.rate,
            start.elapsed().as_secs_f64()
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rows_are_rates_and_unknown_figures_are_refused() {
        let text = run("fig6", Some(&[20]), 20, 1).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[1].starts_with("fig6,null,20,1,0.05,20,300,"), "{text}");
        assert!(lines[2].starts_with("fig6,alternative,20,"), "{text}");
        assert!(run("fig99", None, 20, 1).is_err());
        assert_eq!(thinned(&[1, 2, 3, 4, 5, 6, 7, 8, 9]), [1, 4, 7]);
    }
}
