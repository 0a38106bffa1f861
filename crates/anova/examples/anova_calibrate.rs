//! Type-I error and power of Swanberg's private ANOVA (authors' reference) on the paper's
//! comparison designs, with the public F test on the same datasets.
//!
//! `cargo run -p dptest-anova --example anova_calibrate -- [reps] [null_draws] [figure|all] [n,n,..]`
//! (defaults: 1000 reps, 300 null draws, all figures, each figure's own N grid thinned to 4).

use std::time::Instant;

use dptest_anova::{PAPER_DESIGNS, RejectionRate, public_p_values, simulated_p_values};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let reps: u64 = args.get(1).map_or(Ok(1000), |s| s.parse())?;
    let null_draws: u64 = args.get(2).map_or(Ok(300), |s| s.parse())?;
    let figure = args.get(3).map_or("all", String::as_str);
    let ns: Option<Vec<usize>> =
        args.get(4).map(|s| s.split(',').map(str::parse).collect::<Result<_, _>>()).transpose()?;
    println!(
        "figure,hypothesis,n,epsilon,alpha,reps,null_draws,private_rate,private_se,public_rate,seconds"
    );
    for design in PAPER_DESIGNS.iter().filter(|d| figure == "all" || d.figure == figure) {
        let grid: Vec<usize> = match &ns {
            Some(v) => v.clone(),
            None => {
                design.n_grid.iter().copied().step_by(design.n_grid.len().div_ceil(4)).collect()
            }
        };
        for n in grid {
            for (hypothesis, d) in
                [("null", design.null_design(n)?), ("alternative", design.design(n)?)]
            {
                let start = Instant::now();
                let p = simulated_p_values(&d, &design.options()?, reps, null_draws, 7 + n as u64)?;
                let private = RejectionRate::from_p_values(&p, 0.05);
                let public =
                    RejectionRate::from_p_values(&public_p_values(&d, reps, 7 + n as u64), 0.05);
                println!(
                    "{},{hypothesis},{n},{},0.05,{reps},{null_draws},{:.4},{:.4},{:.4},{:.2}",
                    design.figure,
                    design.epsilon,
                    private.rate,
                    private.std_error,
                    public.rate,
                    start.elapsed().as_secs_f64()
                );
            }
        }
    }
    Ok(())
}
