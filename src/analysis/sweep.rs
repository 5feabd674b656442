//! `sweep`: one scenario fought at each value of one thing (`scenario::vary`), every
//! value with the same fight seeds (common random numbers: fight 17 starts from the same
//! dice at every value, so that the curve moves only where the value moves it); each
//! side's win rate with its Wilson interval against the value, and where it crosses 50%.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::figures::{FightFigures, NOBODY};
use super::run::Accumulate;
use super::simulate::{RoundsLine, RunInfo, SideLine, Tally, percent};
use super::stats::proportion_interval;

/// The tallies of fight `i` at every value: one `Tally` per value, in the values' order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepTally {
    pub fights: u64,
    pub values: Vec<Tally>,
}

impl Accumulate for SweepTally {
    /// What fight `i` amounts to at each value.
    type Item = Vec<FightFigures>;

    fn add(&mut self, fight: Vec<FightFigures>) {
        self.fights += 1;
        if self.values.len() < fight.len() {
            self.values.resize_with(fight.len(), Tally::default);
        }
        for (tally, figures) in self.values.iter_mut().zip(fight) {
            tally.add(figures);
        }
    }

    fn merge(&mut self, other: SweepTally) {
        self.fights += other.fights;
        if self.values.len() < other.values.len() {
            self.values.resize_with(other.values.len(), Tally::default);
        }
        for (tally, theirs) in self.values.iter_mut().zip(other.values) {
            tally.merge(theirs);
        }
    }

    fn fights(&self) -> u64 {
        self.fights
    }
}

/// The figures at one value.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepPoint {
    pub value: i64,
    /// Each side's wins, in scenario order, then `nobody` when a fight had no winner.
    pub wins: Vec<SideLine>,
    pub mean_rounds: f64,
}

/// Where one side's win rate crosses 50% between two neighbouring values.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Crossing {
    /// The value before the crossing and the one after it.
    pub from: i64,
    pub to: i64,
    /// The value where the straight line between the two rates meets 50%.
    pub estimate: f64,
}

/// Where a side's fight becomes even.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Even {
    pub side: String,
    /// Every crossing of 50%, in the order of the values; none if the rate stays on one side.
    pub crossings: Vec<Crossing>,
    /// Values where 50% lies within the side's 95% interval: even, within chance.
    pub within_chance: Vec<i64>,
}

/// The report of a sweep.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepReport {
    #[serde(flatten)]
    pub info: RunInfo,
    /// What was varied, as typed (`Kobold.count`).
    pub vary: String,
    /// Fights at each value.
    pub fights: u64,
    pub points: Vec<SweepPoint>,
    pub even: Vec<Even>,
}

impl SweepReport {
    pub fn new(info: RunInfo, vary: String, values: &[i64], tally: &SweepTally) -> Self {
        let n = tally.fights;
        let draws = tally.values.iter().any(|t| t.wins(NOBODY) > 0);
        let mut sides = info.sides.clone();
        if draws {
            sides.push(NOBODY.to_string());
        }
        let empty = Tally::default();
        let points: Vec<SweepPoint> = values
            .iter()
            .enumerate()
            .map(|(i, &value)| {
                let at = tally.values.get(i).unwrap_or(&empty);
                SweepPoint {
                    value,
                    wins: sides
                        .iter()
                        .map(|side| {
                            let wins = at.wins(side);
                            SideLine {
                                side: side.clone(),
                                wins,
                                rate: if n == 0 { 0.0 } else { wins as f64 / n as f64 },
                                interval: proportion_interval(wins, n),
                            }
                        })
                        .collect(),
                    mean_rounds: RoundsLine::of(&at.rounds).mean,
                }
            })
            .collect();
        let even = info
            .sides
            .iter()
            .enumerate()
            .map(|(s, side)| even_of(side, s, &points))
            .collect();
        SweepReport {
            info,
            vary,
            fights: n,
            points,
            even,
        }
    }

    /// The report as text: the verdict, then one line per value.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let info = &self.info;
        let _ = writeln!(
            out,
            "{} ({}): {} from {} to {}, {} fights at each of {} values, seed {}, the same \
             seeds at every value",
            info.scenario,
            info.ruleset,
            self.vary,
            self.points.first().map_or(0, |p| p.value),
            self.points.last().map_or(0, |p| p.value),
            self.fights,
            self.points.len(),
            info.seed
        );
        let _ = write!(out, "\n{}", super::verdict::of_sweep(self));
        let sides: Vec<&str> = self
            .points
            .first()
            .map(|p| p.wins.iter().map(|w| w.side.as_str()).collect())
            .unwrap_or_default();
        let width = self.vary.chars().count().max(6);
        let _ = write!(out, "\n{:>width$}", self.vary);
        let headings: Vec<String> = sides
            .iter()
            .map(|side| format!("{side} wins (95% interval)"))
            .collect();
        // Each side's column as wide as its heading, or as the widest cell.
        let widths: Vec<usize> = headings.iter().map(|h| h.chars().count().max(24)).collect();
        for (heading, width) in headings.iter().zip(&widths) {
            let _ = write!(out, "  {heading:<width$}");
        }
        let _ = writeln!(out, "  rounds");
        for point in &self.points {
            let _ = write!(out, "{:>width$}", point.value);
            for (line, width) in point.wins.iter().zip(&widths) {
                let cell = format!(
                    "{:>6}  {} – {}",
                    percent(line.rate),
                    percent(line.interval.low),
                    percent(line.interval.high)
                );
                let _ = write!(out, "  {cell:<width$}");
            }
            let _ = writeln!(out, "  {:>6.1}", point.mean_rounds);
        }
        out
    }
}

fn even_of(side: &str, index: usize, points: &[SweepPoint]) -> Even {
    let rate = |p: &SweepPoint| p.wins.get(index).map_or(0.0, |w| w.rate);
    let crossings = points
        .windows(2)
        .filter_map(|pair| {
            let (a, b) = (rate(&pair[0]), rate(&pair[1]));
            // One below 50%, the other at or above it (so that the two rates differ).
            ((a < 0.5) != (b < 0.5)).then(|| {
                let (x0, x1) = (pair[0].value as f64, pair[1].value as f64);
                Crossing {
                    from: pair[0].value,
                    to: pair[1].value,
                    estimate: x0 + (0.5 - a) / (b - a) * (x1 - x0),
                }
            })
        })
        .collect();
    let within_chance = points
        .iter()
        .filter(|p| {
            p.wins
                .get(index)
                .is_some_and(|w| w.interval.low <= 0.5 && 0.5 <= w.interval.high)
        })
        .map(|p| p.value)
        .collect();
    Even {
        side: side.to_string(),
        crossings,
        within_chance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sweep whose first side wins `rates` (of 1,000 fights) at the values 1, 2, ...
    fn report(rates: &[u64]) -> SweepReport {
        let sides = vec!["party".to_string(), "goblins".to_string()];
        let points = rates
            .iter()
            .enumerate()
            .map(|(i, &wins)| SweepPoint {
                value: i as i64 + 1,
                wins: [("party", wins), ("goblins", 1000 - wins)]
                    .iter()
                    .map(|&(side, wins)| SideLine {
                        side: side.into(),
                        wins,
                        rate: wins as f64 / 1000.0,
                        interval: proportion_interval(wins, 1000),
                    })
                    .collect(),
                mean_rounds: 3.0,
            })
            .collect::<Vec<_>>();
        let even = sides
            .iter()
            .enumerate()
            .map(|(s, side)| even_of(side, s, &points))
            .collect();
        SweepReport {
            info: RunInfo {
                scenario: "Ambush".into(),
                ruleset: "Test".into(),
                seed: 1,
                sides,
                exchange: None,
            },
            vary: "Goblin.count".into(),
            fights: 1000,
            points,
            even,
        }
    }

    #[test]
    fn the_crossing_is_read_between_the_two_values_around_it() {
        let sweep = report(&[900, 700, 400, 100]);
        let crossing = &sweep.even[0].crossings;
        assert_eq!(crossing.len(), 1);
        assert_eq!((crossing[0].from, crossing[0].to), (2, 3));
        // 70% at 2, 40% at 3: 50% two thirds of the way.
        assert!((crossing[0].estimate - 2.0 - 2.0 / 3.0).abs() < 1e-9);
        let verdict = crate::analysis::verdict::of_sweep(&sweep).replace('\n', " ");
        assert_eq!(
            verdict.trim_end(),
            "The win rate of party crosses 50% between Goblin.count 2 (70.0%) and 3 (40.0%): \
             the fight is even at about Goblin.count 2.7."
        );
    }

    #[test]
    fn a_fight_that_never_turns_says_so_and_names_the_closest_value() {
        let sweep = report(&[990, 900, 800]);
        assert!(sweep.even[0].crossings.is_empty());
        let verdict = crate::analysis::verdict::of_sweep(&sweep).replace('\n', " ");
        assert_eq!(
            verdict.trim_end(),
            "Party wins more than half the fights at every Goblin.count from 1 to 3 (at least \
             80.0% at 3): the fight does not become even in this range."
        );
    }

    #[test]
    fn an_even_value_within_chance_is_named() {
        let sweep = report(&[700, 510, 300]);
        assert_eq!(sweep.even[0].within_chance, [2]);
        let verdict = crate::analysis::verdict::of_sweep(&sweep).replace('\n', " ");
        assert!(
            verdict.contains(
                "At Goblin.count 2, 50% is within the 95% interval of party: even, within chance."
            ),
            "{verdict}"
        );
    }
}
