//! `--plot FILE.svg`: charts of a report as SVG (plotters' SVG backend: no system
//! libraries, text left to the viewer's fonts).

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use affray::analysis::compare::Comparison;
use affray::analysis::odds::Odds;
use affray::analysis::simulate::Report;
use affray::ruleset::Problems;

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Drawn = Result<(), Box<dyn std::error::Error>>;

const CAPTION: (&str, u32) = ("sans-serif", 18);

/// Win rates with their 95% intervals beside the histogram of rounds to the end.
pub fn simulation(report: &Report, path: &Path) -> Result<(), Problems> {
    let root = SVGBackend::new(path, (1000, 420)).into_drawing_area();
    let drawn = (|| -> Drawn {
        root.fill(&WHITE)?;
        let (left, right) = root.split_horizontally(420);
        let bars: Vec<Bar> = report
            .wins
            .iter()
            .map(|line| Bar {
                label: line.side.clone(),
                value: line.rate * 100.0,
                interval: Some((line.interval.low * 100.0, line.interval.high * 100.0)),
            })
            .collect();
        bar_chart(&left, "win rate (%), 95% interval", &bars, 100.0)?;
        let rounds: Vec<(u32, u64)> = report
            .rounds
            .histogram
            .iter()
            .map(|(&r, &c)| (r, c))
            .collect();
        histogram(&right, "fights by rounds to the end", &rounds)?;
        root.present()?;
        Ok(())
    })();
    drawn.map_err(|error| plot_failed(path, &error))
}

/// One bar of a bar chart.
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub interval: Option<(f64, f64)>,
}

pub fn bar_chart(area: &Area<'_>, caption: &str, bars: &[Bar], top: f64) -> Drawn {
    let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, CAPTION)
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(45)
        .build_cartesian_2d((0..bars.len().max(1) - 1).into_segmented(), 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_label_formatter(&|value| match value {
            SegmentValue::CenterOf(index) => labels.get(*index).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .draw()?;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(BLUE.mix(0.6).filled())
            .margin(20)
            .data(bars.iter().enumerate().map(|(i, bar)| (i, bar.value))),
    )?;
    chart.draw_series(bars.iter().enumerate().filter_map(|(i, bar)| {
        bar.interval.map(|(low, high)| {
            ErrorBar::new_vertical(
                SegmentValue::CenterOf(i),
                low,
                bar.value,
                high,
                BLACK.filled(),
                12,
            )
        })
    }))?;
    Ok(())
}

pub fn histogram(area: &Area<'_>, caption: &str, counts: &[(u32, u64)]) -> Drawn {
    let last = counts.iter().map(|c| c.0).max().unwrap_or(1);
    let first = counts.iter().map(|c| c.0).min().unwrap_or(0);
    let top = counts.iter().map(|c| c.1).max().unwrap_or(1);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, CAPTION)
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d((first..last).into_segmented(), 0u64..top + top / 10 + 1)?;
    chart.configure_mesh().disable_x_mesh().draw()?;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(RED.mix(0.6).filled())
            .margin(2)
            .data(counts.iter().copied()),
    )?;
    Ok(())
}

pub fn plot_failed(path: &Path, error: &dyn std::fmt::Display) -> Problems {
    vec![miette::miette!(
        code = "affray::plot::failed",
        help = "check that the folder exists and can be written to",
        "could not write the plot {}: {error}",
        path.display()
    )]
}

/// Paired bars: each side's win rate under A and under B, one chart per comparison.
pub fn comparison(reports: &[Comparison], path: &Path) -> Result<(), Problems> {
    let height = 400 * reports.len().max(1) as u32;
    let root = SVGBackend::new(path, (900, height)).into_drawing_area();
    let drawn = (|| -> Drawn {
        root.fill(&WHITE)?;
        for (area, report) in root
            .split_evenly((reports.len().max(1), 1))
            .iter()
            .zip(reports)
        {
            let bars: Vec<Bar> = report
                .wins
                .iter()
                .flat_map(|line| {
                    [
                        Bar {
                            label: format!("{} A", line.name),
                            value: line.before * 100.0,
                            interval: None,
                        },
                        Bar {
                            label: format!("{} B", line.name),
                            value: line.after * 100.0,
                            interval: None,
                        },
                    ]
                })
                .collect();
            let caption = format!("win rate (%): A = {}, B = {}", report.before, report.after);
            bar_chart(area, &caption, &bars, 100.0)?;
        }
        root.present()?;
        Ok(())
    })();
    drawn.map_err(|error| plot_failed(path, &error))
}

/// The distribution of damage to the defender in one exchange.
pub fn damage(odds: &Odds, path: &Path) -> Result<(), Problems> {
    let root = SVGBackend::new(path, (800, 420)).into_drawing_area();
    let drawn = (|| -> Drawn {
        root.fill(&WHITE)?;
        let bars: Vec<Bar> = odds
            .damage
            .iter()
            .map(|&(amount, probability)| Bar {
                label: amount.to_string(),
                value: probability * 100.0,
                interval: None,
            })
            .collect();
        let top = bars.iter().map(|b| b.value).fold(0.0, f64::max) * 1.1 + 1.0;
        let caption = format!(
            "damage to {} in one exchange with {} (%)",
            odds.defender, odds.attacker
        );
        bar_chart(&root, &caption, &bars, top.min(100.0))?;
        root.present()?;
        Ok(())
    })();
    drawn.map_err(|error| plot_failed(path, &error))
}
