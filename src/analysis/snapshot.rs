//! A ruleset's statistical snapshot: the `simulate --json` report of each of its
//! scenarios, recorded once and kept in the repository, against which a later run of the
//! same scenarios is held. A change of behaviour then shows as figures that moved, and
//! is a decision rather than an accident (../shared/PORTING.md).
//!
//! The two runs are independent samples (different seeds), so each figure is compared by
//! the difference of two means, with the per-fight variance pooled from both runs: a
//! rare figure (a fumble row) seen a few times in the record and never in a short run is
//! then judged by how rare it is, not by the short run's variance of zero. The moved
//! figures are
//! decided over the whole report at once, as `compare` decides its `*`
//! (Benjamini–Hochberg at [`FALSE_DISCOVERY_RATE`]).

use std::collections::BTreeMap;

use super::compare::FALSE_DISCOVERY_RATE;
use super::simulate::Report;
use super::stats::{Z95, benjamini_hochberg};

/// One figure of the two reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Drift {
    /// The report's section and the figure's name, as `simulate` prints them.
    pub figure: String,
    pub recorded: f64,
    pub now: f64,
    /// How often a difference this large would come from noise alone.
    pub p_value: f64,
    /// Whether the difference holds up with every figure of the report tested at once.
    pub moved: bool,
}

/// A per-fight mean, the variance of the figure from fight to fight, and the fights.
#[derive(Clone, Copy, Debug, Default)]
struct Estimate {
    mean: f64,
    variance: f64,
    fights: f64,
}

/// Every figure of two reports of the same scenario (win rates, mean rounds, and each
/// per-fight figure), figures only one report has counting as zero in the other; the
/// moved ones decided over this report's figures.
pub fn drift(recorded: &Report, now: &Report) -> Vec<Drift> {
    drift_all(&[(String::new(), recorded, now)])
}

/// The same for many scenarios at once (a ruleset's whole snapshot): the moved figures
/// are decided over all of them together, so that a ruleset of ten scenarios is not ten
/// times as likely to show a figure moved by chance. Each figure is named after its
/// scenario, as `scenario: section: figure`.
pub fn drift_all(reports: &[(String, &Report, &Report)]) -> Vec<Drift> {
    let mut drifts = Vec::new();
    for (scenario, recorded, now) in reports {
        let (before, after) = (estimates(recorded), estimates(now));
        let mut names: Vec<&String> = before.keys().chain(after.keys()).collect();
        names.sort();
        names.dedup();
        for name in names {
            let absent = |fights| Estimate {
                fights,
                ..Estimate::default()
            };
            let a = before
                .get(name)
                .copied()
                .unwrap_or(absent(recorded.fights as f64));
            let b = after
                .get(name)
                .copied()
                .unwrap_or(absent(now.fights as f64));
            let figure = if scenario.is_empty() {
                name.clone()
            } else {
                format!("{scenario}: {name}")
            };
            drifts.push(Drift {
                figure,
                recorded: a.mean,
                now: b.mean,
                p_value: p_value(a, b),
                moved: false,
            });
        }
    }
    let p_values: Vec<f64> = drifts.iter().map(|d| d.p_value).collect();
    for (drift, moved) in drifts
        .iter_mut()
        .zip(benjamini_hochberg(&p_values, FALSE_DISCOVERY_RATE))
    {
        drift.moved = moved;
    }
    drifts
}

fn estimates(report: &Report) -> BTreeMap<String, Estimate> {
    let fights = report.fights as f64;
    let mut all = BTreeMap::new();
    for side in &report.wins {
        let p = side.rate;
        let variance = p * (1.0 - p);
        let name = format!("wins: {}", side.side);
        all.insert(
            name,
            Estimate {
                mean: p,
                variance,
                fights,
            },
        );
    }
    let ended: u64 = report.rounds.histogram.values().sum();
    if ended > 1 {
        let count = ended as f64;
        let rounds = || {
            report
                .rounds
                .histogram
                .iter()
                .map(|(r, n)| (f64::from(*r), *n as f64))
        };
        let mean = rounds().map(|(r, n)| r * n).sum::<f64>() / count;
        let variance = rounds().map(|(r, n)| (r - mean).powi(2) * n).sum::<f64>() / (count - 1.0);
        all.insert(
            "rounds: mean".to_string(),
            Estimate {
                mean,
                variance,
                fights: count,
            },
        );
    }
    for figure in &report.figures {
        // The report gives each mean's 95% interval: its half width over z is the
        // standard error of the mean, whose square times the fights is the variance.
        let error = (figure.interval.high - figure.interval.low) / (2.0 * Z95);
        let name = format!("{}: {}", figure.section.title(), figure.name);
        let variance = error.max(0.0).powi(2) * fights;
        all.insert(
            name,
            Estimate {
                mean: figure.per_fight,
                variance,
                fights,
            },
        );
    }
    all
}

/// Two-sided p-value of "both means are the same" (normal approximation), with the
/// larger of the two runs' variances for both. A record of 20,000 fights is checked
/// against a few hundred: a rare figure that comes in bursts (a disarmed fighter
/// evading every blow of a long fight) shows its spread in the small run only, and a
/// variance pooled with the record's would hide it and call a burst a change; a rare
/// figure the small run never saw has no spread there, and the record's stands.
fn p_value(a: Estimate, b: Estimate) -> f64 {
    let difference = (a.mean - b.mean).abs();
    if a.fights < 1.0 || b.fights < 1.0 {
        return 1.0;
    }
    let variance = a.variance.max(b.variance);
    let error = (variance / a.fights + variance / b.fights).sqrt();
    if error == 0.0 {
        // The figure is the same in every fight of both runs.
        return if difference < 1e-12 { 1.0 } else { 0.0 };
    }
    libm::erfc(difference / error / std::f64::consts::SQRT_2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::figures::Section;
    use crate::analysis::simulate::{FigureLine, RoundsLine, RunInfo, SideLine};
    use crate::analysis::stats::{Interval, proportion_interval};

    fn report(fights: u64, red_wins: u64, falters: (i64, f64)) -> Report {
        let side = |name: &str, wins: u64| SideLine {
            side: name.into(),
            wins,
            rate: wins as f64 / fights as f64,
            interval: proportion_interval(wins, fights),
        };
        let (total, error) = falters;
        let mean = total as f64 / fights as f64;
        Report {
            info: RunInfo {
                scenario: "duel".into(),
                ruleset: "test".into(),
                seed: 1,
                sides: vec!["red".into(), "blue".into()],
                exchange: None,
            },
            fights,
            wins: vec![side("red", red_wins), side("blue", fights - red_wins)],
            rounds: RoundsLine::of(&BTreeMap::from([(3, fights / 2), (4, fights - fights / 2)])),
            figures: vec![FigureLine {
                section: Section::TableRows,
                name: "fumble: falter".into(),
                total,
                per_fight: mean,
                interval: Interval {
                    low: mean - Z95 * error,
                    high: mean + Z95 * error,
                },
            }],
        }
    }

    #[test]
    fn the_same_behaviour_does_not_move() {
        let recorded = report(20_000, 13_700, (1_000, 0.0016));
        let now = report(2_000, 1_385, (97, 0.005));
        let drifts = drift(&recorded, &now);
        assert_eq!(drifts.len(), 4);
        assert!(drifts.iter().all(|d| !d.moved), "{drifts:#?}");
    }

    #[test]
    fn a_changed_win_rate_and_a_new_figure_move() {
        let recorded = report(20_000, 13_700, (1_000, 0.0016));
        // 60% instead of 68.5%, and four times the falters.
        let now = report(2_000, 1_200, (400, 0.01));
        let moved: Vec<String> = drift(&recorded, &now)
            .into_iter()
            .filter(|d| d.moved)
            .map(|d| d.figure)
            .collect();
        assert_eq!(
            moved,
            [
                "table rows rolled: fumble: falter",
                "wins: blue",
                "wins: red"
            ]
        );
    }
}
