//! Charts of a report as SVG (plotters' SVG backend: no system libraries, text left to the
//! viewer's fonts), for `--plot FILE.svg` and inline in `--report FILE.html`. Every chart
//! has a title, named axes, a legend, its values written on it (where there is room), its 95% intervals, and a
//! footer with the scenario, the ruleset, the number of fights and the seed.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use affray::analysis::compare::{CompareLine, Comparison};
use affray::analysis::odds::Odds;
use affray::analysis::simulate::{Report, RunInfo};
use affray::analysis::stats::proportion_interval;
use affray::analysis::sweep::SweepReport;
use affray::ruleset::Problems;

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Drawn = Result<(), Box<dyn std::error::Error>>;

const FONT: &str = "sans-serif";
const TITLE: (&str, u32) = (FONT, 20);
const CAPTION: (&str, u32) = (FONT, 16);

/// Colours told apart with colour blindness (Okabe and Ito), in the order series take them.
const COLOURS: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
];
/// Fights without a winner.
const GREY: RGBColor = RGBColor(130, 130, 130);

fn colour(index: usize, name: &str) -> RGBColor {
    if name == affray::analysis::figures::NOBODY {
        GREY
    } else {
        COLOURS[index % COLOURS.len()]
    }
}

/// Draw a chart of `size` into an SVG text.
fn render(size: (u32, u32), draw: impl FnOnce(&Area<'_>) -> Drawn) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw(&root).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

fn write(path: &Path, svg: Result<String, String>) -> Result<(), Problems> {
    let svg = svg.map_err(|error| plot_failed(path, &error))?;
    std::fs::write(path, svg).map_err(|error| plot_failed(path, &error))
}

/// The line under a chart: what was run.
fn footer(info: &RunInfo, fights: u64) -> String {
    format!(
        "{} ({}): {} fights, seed {}",
        info.scenario, info.ruleset, fights, info.seed
    )
}

/// Split off a footer line at the bottom of `area` and write `text` in it.
fn with_footer<'a>(area: &Area<'a>, text: &str) -> Result<Area<'a>, Box<dyn std::error::Error>> {
    let height = area.dim_in_pixel().1;
    let (chart, foot) = area.split_vertically(height.saturating_sub(24));
    foot.draw(&Text::new(
        text.to_string(),
        (10, 4),
        (FONT, 13).into_font().color(&BLACK.mix(0.7)),
    ))?;
    Ok(chart)
}

/// The most bars of a chart whose values are written above them: past that they would
/// overlap (a chart of damage from 1 to 40, say).
const MOST_VALUES_WRITTEN: usize = 24;

/// How much of the value axis a written value takes up, with a margin: two values side
/// by side closer in height than this would run into each other.
const LABEL_HEIGHT: f64 = 0.08;

/// The most groups of a chart named under the axis: past that every second (third, ...)
/// is named, so that the names do not run into each other.
const MOST_GROUPS_NAMED: usize = 30;

/// One series of bars: a value (and its 95% interval) per group.
pub struct Series {
    pub name: String,
    pub colour: RGBColor,
    pub values: Vec<(f64, Option<(f64, f64)>)>,
}

/// The labels of a bar chart.
pub struct Labels<'t> {
    pub title: &'t str,
    pub x: &'t str,
    pub y: &'t str,
    /// The unit written after each value ("%").
    pub unit: &'t str,
}

/// Bars side by side in groups (one group per label of `groups`, one bar per series),
/// each with its value written above it and its interval, and a legend of the series.
pub fn grouped_bars(
    area: &Area<'_>,
    labels: &Labels<'_>,
    groups: &[String],
    series: &[Series],
    top: f64,
) -> Drawn {
    let n = groups.len().max(1);
    let stride = n.div_ceil(MOST_GROUPS_NAMED);
    let mut chart = ChartBuilder::on(area)
        .caption(labels.title, CAPTION)
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n + 1)
        .x_label_formatter(&|x| {
            let index = x.round();
            // Every group named while the names fit, else every `stride`-th; the last
            // (a tail gathered as `N+`) always, a stride's name too close before it
            // giving way.
            let at = index as usize;
            let last = n - 1;
            let named = at <= last
                && (at == last
                    || (at.is_multiple_of(stride) && (stride == 1 || last - at > stride / 2)));
            if (x - index).abs() < 1e-6 && index >= 0.0 && named {
                groups.get(at).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        // A percentage's scale stops at 100: above it is the legend's room.
        .y_label_formatter(&|y| {
            if labels.unit == "%" && *y > 100.0 {
                String::new()
            } else {
                tick(*y)
            }
        })
        .x_desc(labels.x)
        .y_desc(labels.y)
        .axis_desc_style((FONT, 15))
        .draw()?;
    let width = 0.7 / series.len().max(1) as f64;
    let small = TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
    let decimals = if labels.unit == "%" { 1 } else { 3 };
    for (s, one) in series.iter().enumerate() {
        let colour = one.colour;
        let left = |g: usize| g as f64 - 0.35 + s as f64 * width;
        chart
            .draw_series(one.values.iter().enumerate().map(|(g, &(value, _))| {
                Rectangle::new(
                    [(left(g), 0.0), (left(g) + width * 0.9, value)],
                    colour.mix(0.85).filled(),
                )
            }))?
            .label(one.name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], colour.filled()));
        chart.draw_series(one.values.iter().enumerate().filter_map(
            |(g, &(value, interval))| {
                interval.map(|(low, high)| {
                    ErrorBar::new_vertical(
                        left(g) + width * 0.45,
                        low,
                        value,
                        high,
                        BLACK.filled(),
                        8,
                    )
                })
            },
        ))?;
        // Values written where there is room for them, and not on an empty place: on
        // every bar of a small chart; on a crowded chart of one series (damage from 4
        // to 28+), on each bar whose neighbours' values would not stand beside its own.
        let room = n * series.len() <= MOST_VALUES_WRITTEN;
        let written_at = |g: usize| {
            let &(value, interval) = one.values.get(g)?;
            (value != 0.0).then(|| interval.map_or(value, |(_, high)| high.max(value)))
        };
        let clear = |g: usize| {
            let Some(mine) = written_at(g) else {
                return false;
            };
            series.len() == 1
                && [g.checked_sub(1), Some(g + 1)]
                    .into_iter()
                    .flatten()
                    .filter_map(written_at)
                    .all(|theirs| (mine - theirs).abs() > top * LABEL_HEIGHT)
        };
        chart.draw_series(
            one.values
                .iter()
                .enumerate()
                .filter(|&(g, &(value, _))| value != 0.0 && (room || clear(g)))
                .map(|(g, &(value, interval))| {
                    let above = interval.map_or(value, |(_, high)| high.max(value));
                    // A small percentage keeps two decimals, so that it does not read 0.0%.
                    let decimals = if labels.unit == "%" && value < 1.0 {
                        2
                    } else {
                        decimals
                    };
                    Text::new(
                        format!("{value:.decimals$}{}", labels.unit),
                        (left(g) + width * 0.45, above + top * 0.01),
                        small.clone(),
                    )
                }),
        )?;
    }
    let intervals = series
        .iter()
        .any(|s| s.values.iter().any(|v| v.1.is_some()));
    legend(&mut chart, intervals)
}

/// A value on an axis without the float's noise (0.6, not 0.6000000001).
fn tick(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The legend of a chart in its upper right corner, with a line for the bars of 95%
/// intervals where the chart draws them.
fn legend<'a, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    intervals: bool,
) -> Drawn {
    if intervals {
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), u32>>())?
            .label("bar: 95% interval")
            .legend(|(x, y)| PathElement::new(vec![(x + 7, y - 7), (x + 7, y + 7)], BLACK));
    }
    series_labels(chart)
}

/// The labels of a chart's series, in its upper right corner.
fn series_labels<'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, CT>,
) -> Drawn {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 13))
        .draw()?;
    Ok(())
}

/// Fights by the number of rounds they lasted.
fn rounds_histogram(area: &Area<'_>, counts: &[(u32, u64)]) -> Drawn {
    let last = counts.iter().map(|c| c.0).max().unwrap_or(1);
    let first = counts.iter().map(|c| c.0).min().unwrap_or(0);
    let top = counts.iter().map(|c| c.1).max().unwrap_or(1);
    let mut chart = ChartBuilder::on(area)
        .caption("How long fights last", CAPTION)
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d((first..last).into_segmented(), 0u64..top + top / 10 + 1)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("rounds to the end")
        .y_desc("fights")
        .axis_desc_style((FONT, 15))
        .draw()?;
    chart
        .draw_series(
            Histogram::vertical(&chart)
                .style(COLOURS[2].mix(0.85).filled())
                .margin(1)
                .data(counts.iter().copied()),
        )?
        .label("fights that ended in that round")
        .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], COLOURS[2].filled()));
    series_labels(&mut chart)
}

/// Win rates with their 95% intervals beside the histogram of rounds to the end.
pub fn simulation_svg(report: &Report) -> Result<String, String> {
    render((1100, 480), |root| {
        let title = format!("{}: who wins, and how long it takes", report.info.scenario);
        let root = root.titled(&title, TITLE)?;
        let root = with_footer(&root, &footer(&report.info, report.fights))?;
        let (left, right) = root.split_horizontally(480);
        let groups: Vec<String> = report.wins.iter().map(|w| w.side.clone()).collect();
        let series = vec![Series {
            name: "win rate".into(),
            colour: COLOURS[0],
            values: report
                .wins
                .iter()
                .map(|w| {
                    (
                        w.rate * 100.0,
                        Some((w.interval.low * 100.0, w.interval.high * 100.0)),
                    )
                })
                .collect(),
        }];
        let labels = Labels {
            title: "Who wins",
            x: "side",
            y: "fights won (%)",
            unit: "%",
        };
        grouped_bars(&left, &labels, &groups, &series, 135.0)?;
        let rounds: Vec<(u32, u64)> = report
            .rounds
            .histogram
            .iter()
            .map(|(&r, &c)| (r, c))
            .collect();
        rounds_histogram(&right, &rounds)
    })
}

pub fn simulation(report: &Report, path: &Path) -> Result<(), Problems> {
    write(path, simulation_svg(report))
}

pub fn plot_failed(path: &Path, error: &dyn std::fmt::Display) -> Problems {
    vec![miette::miette!(
        code = "affray::plot::failed",
        help = "check that the folder exists and can be written to",
        "could not write the plot {}: {error}",
        path.display()
    )]
}

/// Each side's win rate under A and under B, in two colours, one chart per comparison.
pub fn comparison_svg(reports: &[Comparison]) -> Result<String, String> {
    let height = 440 * reports.len().max(1) as u32 + 40;
    render((1000, height), |root| {
        let title = match reports.first() {
            Some(first) => format!("{}: who wins under each ruleset", first.info.scenario),
            None => "who wins under each ruleset".into(),
        };
        let root = root.titled(&title, TITLE)?;
        for (area, report) in root
            .split_evenly((reports.len().max(1), 1))
            .iter()
            .zip(reports)
        {
            let area = with_footer(
                area,
                &format!(
                    "{} — the same seeds under A and B",
                    footer(&report.info, report.fights)
                ),
            )?;
            let groups: Vec<String> = report.wins.iter().map(|w| w.name.clone()).collect();
            // Each rate's own Wilson interval (the wins are whole fights of `fights`).
            let under = |name: String, colour, rate: &dyn Fn(&CompareLine) -> f64| Series {
                name,
                colour,
                values: report
                    .wins
                    .iter()
                    .map(|w| {
                        let rate = rate(w);
                        let wins = (rate * report.fights as f64).round() as u64;
                        let interval = proportion_interval(wins, report.fights);
                        (
                            rate * 100.0,
                            Some((interval.low * 100.0, interval.high * 100.0)),
                        )
                    })
                    .collect(),
            };
            let series = vec![
                under(format!("A = {}", report.before), COLOURS[0], &|w| w.before),
                under(format!("B = {}", report.after), COLOURS[1], &|w| w.after),
            ];
            let caption = format!(
                "Win rate under A and under B ({} fights each)",
                report.fights
            );
            let labels = Labels {
                title: &caption,
                x: "side",
                y: "fights won (%)",
                unit: "%",
            };
            grouped_bars(&area, &labels, &groups, &series, 135.0)?;
        }
        Ok(())
    })
}

pub fn comparison(reports: &[Comparison], path: &Path) -> Result<(), Problems> {
    write(path, comparison_svg(reports))
}

/// Each side's win rate against the value swept, with its 95% interval, and 50%.
pub fn sweep_svg(report: &SweepReport) -> Result<String, String> {
    render((1000, 560), |root| {
        let title = format!(
            "{}: who wins as {} goes from {} to {}",
            report.info.scenario,
            report.vary,
            report.points.first().map_or(0, |p| p.value),
            report.points.last().map_or(0, |p| p.value)
        );
        let root = root.titled(&title, TITLE)?;
        let root = with_footer(
            &root,
            &format!(
                "{} at each value — the same seeds at every value",
                footer(&report.info, report.fights)
            ),
        )?;
        let first = report.points.first().map_or(0.0, |p| p.value as f64);
        let last = report.points.last().map_or(1.0, |p| p.value as f64);
        let pad = ((last - first) * 0.05).max(0.5);
        let mut chart = ChartBuilder::on(&root)
            .margin(16)
            .x_label_area_size(45)
            .y_label_area_size(60)
            // Room above 100% for the legend, which would hide points at the top.
            .build_cartesian_2d(first - pad..last + pad, 0f64..130.0)?;
        chart
            .configure_mesh()
            .y_label_formatter(&|y| {
                if *y <= 100.0 {
                    format!("{y:.0}")
                } else {
                    String::new()
                }
            })
            .x_desc(report.vary.as_str())
            .y_desc("fights won (%)")
            .axis_desc_style((FONT, 15))
            .x_label_formatter(&|x| {
                if (x - x.round()).abs() < 1e-6 {
                    format!("{}", x.round() as i64)
                } else {
                    String::new()
                }
            })
            .draw()?;
        chart
            .draw_series(LineSeries::new(
                [(first - pad, 50.0), (last + pad, 50.0)],
                BLACK.mix(0.5).stroke_width(1),
            ))?
            .label("even: 50%")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK.mix(0.5)));
        let sides: Vec<String> = report
            .points
            .first()
            .map(|p| p.wins.iter().map(|w| w.side.clone()).collect())
            .unwrap_or_default();
        let label_values = report.points.len() <= 12;
        for (s, side) in sides.iter().enumerate() {
            let colour = colour(s, side);
            let points: Vec<(f64, f64, f64, f64)> = report
                .points
                .iter()
                .filter_map(|p| {
                    p.wins.get(s).map(|w| {
                        (
                            p.value as f64,
                            w.rate * 100.0,
                            w.interval.low * 100.0,
                            w.interval.high * 100.0,
                        )
                    })
                })
                .collect();
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|p| (p.0, p.1)),
                    colour.stroke_width(2),
                ))?
                .label(format!("{side} wins"))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
                });
            chart.draw_series(
                points
                    .iter()
                    .map(|p| ErrorBar::new_vertical(p.0, p.2, p.1, p.3, colour.stroke_width(1), 8)),
            )?;
            chart.draw_series(
                points
                    .iter()
                    .map(|p| Circle::new((p.0, p.1), 4, colour.filled())),
            )?;
            if label_values {
                let style = (FONT, 12)
                    .into_font()
                    .color(&colour)
                    .pos(Pos::new(HPos::Left, VPos::Bottom));
                chart.draw_series(
                    points
                        .iter()
                        .map(|p| Text::new(format!("{:.0}%", p.1), (p.0, p.3), style.clone())),
                )?;
            }
        }
        legend(&mut chart, true)
    })
}

pub fn sweep(report: &SweepReport, path: &Path) -> Result<(), Problems> {
    write(path, sweep_svg(report))
}

/// What one exchange did to the defender: the damage that got through, one bar for each
/// amount from the least to the most (an amount never taken is an empty place, so the
/// axis reads as numbers); an exchange that did no damage is said in the caption, not
/// drawn, so that the bars of the damage taken are not dwarfed by it. For a ruleset that
/// records wound levels rather than damage, the chance of each wound level.
pub fn damage(odds: &Odds, path: &Path) -> Result<(), Problems> {
    write(path, damage_svg(odds))
}

pub fn damage_svg(odds: &Odds) -> Result<String, String> {
    render((900, 460), |root| {
        let wounds = odds.wound_levels_main;
        let title = if wounds {
            format!(
                "Wounds to {} in one exchange with {}",
                odds.defender, odds.attacker
            )
        } else {
            format!(
                "Damage to {} in one exchange with {}",
                odds.defender, odds.attacker
            )
        };
        let root = root.titled(&title, TITLE)?;
        let how = if odds.exact {
            "exact: every outcome of every die".to_string()
        } else {
            format!("some dice sampled, seed {}", odds.seed)
        };
        let root = with_footer(&root, &format!("{}: one exchange, {how}", odds.scenario))?;
        let (groups, values, caption, x, name) = if wounds {
            (
                odds.wounds
                    .iter()
                    .map(|(level, _)| affray::names::Words(level).to_string())
                    .collect::<Vec<_>>(),
                odds.wounds.iter().map(|w| w.1 * 100.0).collect::<Vec<_>>(),
                format!(
                    "{} is wounded in {:.1}% of exchanges (an exchange may give more than one level)",
                    odds.defender,
                    odds.wounded * 100.0
                ),
                "wound level",
                "chance of that wound level",
            )
        } else {
            let (groups, values) = damage_bars(&odds.damage);
            (
                groups,
                values,
                if odds.damage_through > 0.0 {
                    format!(
                        "damage gets through in {:.1}% of exchanges; none in the other {:.1}% (not drawn)",
                        odds.damage_through * 100.0,
                        (1.0 - odds.damage_through) * 100.0
                    )
                } else {
                    "no damage gets through in any exchange".to_string()
                },
                "damage after defences and armour",
                "chance of that damage",
            )
        };
        let series = vec![Series {
            name: name.into(),
            colour: COLOURS[1],
            values: values.iter().map(|&v| (v, None)).collect(),
        }];
        let top = values.iter().copied().fold(0.0, f64::max) * 1.3;
        let top = if top > 0.0 { top.min(130.0) } else { 1.0 };
        let labels = Labels {
            title: &caption,
            x,
            y: "chance (%)",
            unit: "%",
        };
        grouped_bars(&root, &labels, &groups, &series, top)
    })
}

/// The bars of a damage distribution: every amount from the least to the most taken
/// above 0, as a percentage (0 where never taken). Where that is more than
/// `MOST_DAMAGE_BARS` amounts, the tail past 99% of the chance of damage (a critical's
/// rare damage) is one last bar, `N+`, so that the bars of the likely amounts stay wide.
/// With no damage at all, the one bar of no damage.
fn damage_bars(damage: &[(i64, f64)]) -> (Vec<String>, Vec<f64>) {
    let taken: Vec<(i64, f64)> = damage.iter().copied().filter(|d| d.0 > 0).collect();
    let (Some(first), Some(last)) = (taken.first(), taken.last()) else {
        return damage
            .iter()
            .map(|&(amount, chance)| (amount.to_string(), chance * 100.0))
            .unzip();
    };
    let through: f64 = taken.iter().map(|d| d.1).sum();
    let chance_of = |amount: i64| taken.iter().find(|d| d.0 == amount).map_or(0.0, |d| d.1);
    let long = last.0 - first.0 >= MOST_DAMAGE_BARS as i64;
    let mut bars = Vec::new();
    let mut drawn = 0.0;
    for amount in first.0..=last.0 {
        if long && drawn >= 0.99 * through && amount < last.0 {
            bars.push((format!("{amount}+"), (through - drawn) * 100.0));
            break;
        }
        drawn += chance_of(amount);
        bars.push((amount.to_string(), chance_of(amount) * 100.0));
    }
    bars.into_iter().unzip()
}

/// Bars of damage drawn one by one before a long tail is gathered into one.
const MOST_DAMAGE_BARS: usize = 30;
