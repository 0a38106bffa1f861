//! SVG plots of the figures (plotters' SVG backend: text is written as SVG `<text>`, so no
//! system fonts are needed).

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

/// One curve to draw.
pub struct Curve {
    /// Legend label.
    pub label: String,
    /// (x, y) points, x ascending.
    pub points: Vec<(f64, f64)>,
}

/// What to draw.
pub struct Plot<'a> {
    /// Title (the caption's parameters).
    pub title: &'a str,
    /// x axis label.
    pub x_label: &'a str,
    /// y axis label.
    pub y_label: &'a str,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Draw the identity line (Q-Q plots) .
    pub diagonal: bool,
    /// Draw a horizontal reference line at this y (e.g. 0.8 power).
    pub reference_y: Option<f64>,
    /// Curves.
    pub curves: Vec<Curve>,
}

const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Renders `plot` as an SVG document.
pub fn svg(plot: &Plot<'_>) -> Result<String> {
    let xs = plot.curves.iter().flat_map(|c| c.points.iter().map(|p| p.0));
    let (mut lo, mut hi) =
        xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| (l.min(x), h.max(x)));
    if !(lo.is_finite() && hi.is_finite()) {
        (lo, hi) = (0.0, 1.0);
    }
    if hi <= lo {
        hi = lo + 1.0;
    }
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (960, 620)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("plot: {e}"))?;
        if plot.log_x {
            draw(&root, plot, (lo * 0.9..hi * 1.1).log_scale())?;
        } else {
            draw(&root, plot, lo..hi)?;
        }
        root.present().map_err(|e| anyhow!("plot: {e}"))?;
    }
    Ok(out)
}

fn draw<X>(root: &DrawingArea<SVGBackend<'_>, Shift>, plot: &Plot<'_>, x: X) -> Result<()>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let err = |e: &dyn std::fmt::Display| anyhow!("plot: {e}");
    let mut chart = ChartBuilder::on(root)
        .caption(plot.title, ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(x, 0f64..1f64)
        .map_err(|e| err(&e))?;
    chart.configure_mesh().x_desc(plot.x_label).y_desc(plot.y_label).draw().map_err(|e| err(&e))?;
    let (x0, x1) = {
        let xs = plot.curves.iter().flat_map(|c| c.points.iter().map(|p| p.0));
        xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| (l.min(x), h.max(x)))
    };
    if plot.diagonal {
        chart
            .draw_series(LineSeries::new(vec![(0.0, 0.0), (1.0, 1.0)], BLACK.mix(0.5)))
            .map_err(|e| err(&e))?;
    }
    if let Some(y) = plot.reference_y {
        chart
            .draw_series(LineSeries::new(vec![(x0, y), (x1, y)], BLACK.mix(0.3)))
            .map_err(|e| err(&e))?;
    }
    for (k, curve) in plot.curves.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        chart
            .draw_series(LineSeries::new(curve.points.clone(), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(curve.label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart
            .draw_series(curve.points.iter().map(|&p| Circle::new(p, 2, color.filled())))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_linear_and_log_plots() {
        for log_x in [false, true] {
            let plot = Plot {
                title: "t",
                x_label: "n",
                y_label: "power",
                log_x,
                diagonal: !log_x,
                reference_y: Some(0.8),
                curves: vec![Curve { label: "a".into(), points: vec![(1.0, 0.1), (10.0, 0.9)] }],
            };
            let svg = svg(&plot).unwrap();
            assert!(svg.contains("<svg") && svg.contains("power"));
        }
    }
}
