//! `simulate`: many fights of one scenario added up into a report — win rate per side
//! with a 95% interval, rounds to the end, and the mean per fight of every figure of the
//! log (wounds, hits, test results, table rows, choices, conditions).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::names::Words;

use serde::{Deserialize, Serialize};

use super::figures::{FightFigures, FigureKey, NOBODY, Section};
use super::run::Accumulate;
use super::stats::{Interval, Sums, percentile, proportion_interval};

/// The sums of many fights; its size depends on the ruleset's vocabulary, not on the
/// number of fights.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub fights: u64,
    pub rounds: BTreeMap<u32, u64>,
    pub figures: BTreeMap<FigureKey, Sums>,
}

impl Accumulate for Tally {
    type Item = FightFigures;

    fn add(&mut self, fight: FightFigures) {
        self.fights += 1;
        *self.rounds.entry(fight.rounds).or_insert(0) += 1;
        for (key, value) in fight.counts {
            self.figures.entry(key).or_default().add(value);
        }
    }

    fn merge(&mut self, other: Tally) {
        self.fights += other.fights;
        for (rounds, count) in other.rounds {
            *self.rounds.entry(rounds).or_insert(0) += count;
        }
        for (key, sums) in other.figures {
            self.figures.entry(key).or_default().merge(&sums);
        }
    }

    fn fights(&self) -> u64 {
        self.fights
    }
}

impl Tally {
    /// Fights `side` won.
    pub fn wins(&self, side: &str) -> u64 {
        let key = FigureKey {
            section: Section::Wins,
            name: side.to_string(),
        };
        self.figures.get(&key).map_or(0, |sums| sums.sum as u64)
    }

    /// The widest 95% interval of a side's win rate: how precise the run is.
    pub fn widest_win_interval(&self, sides: &[String]) -> f64 {
        sides
            .iter()
            .map(|side| proportion_interval(self.wins(side), self.fights).width())
            .fold(0.0, f64::max)
    }
}

/// What a report is about.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunInfo {
    pub scenario: String,
    pub ruleset: String,
    pub seed: u64,
    /// Sides in scenario order.
    pub sides: Vec<String>,
    /// Single exchanges ("Brannoc against Ysolde") instead of whole fights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SideLine {
    pub side: String,
    pub wins: u64,
    pub rate: f64,
    pub interval: Interval,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoundsLine {
    pub mean: f64,
    pub median: u32,
    pub p90: u32,
    pub p99: u32,
    pub longest: u32,
    /// Fights ended after each number of rounds.
    pub histogram: BTreeMap<u32, u64>,
}

impl RoundsLine {
    pub fn of(histogram: &BTreeMap<u32, u64>) -> Self {
        let fights: u64 = histogram.values().sum();
        let total: u64 = histogram.iter().map(|(r, c)| u64::from(*r) * c).sum();
        RoundsLine {
            mean: if fights == 0 {
                0.0
            } else {
                total as f64 / fights as f64
            },
            median: percentile(histogram, 0.5),
            p90: percentile(histogram, 0.9),
            p99: percentile(histogram, 0.99),
            longest: histogram.keys().next_back().copied().unwrap_or(0),
            histogram: histogram.clone(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FigureLine {
    pub section: Section,
    pub name: String,
    /// How many times in all fights.
    pub total: i64,
    pub per_fight: f64,
    pub interval: Interval,
}

/// The report of a simulation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    #[serde(flatten)]
    pub info: RunInfo,
    pub fights: u64,
    pub wins: Vec<SideLine>,
    pub rounds: RoundsLine,
    pub figures: Vec<FigureLine>,
}

impl Report {
    pub fn new(info: RunInfo, tally: &Tally) -> Self {
        let n = tally.fights;
        let mut sides = info.sides.clone();
        if tally.wins(NOBODY) > 0 {
            sides.push(NOBODY.to_string());
        }
        let wins = sides
            .iter()
            .map(|side| {
                let wins = tally.wins(side);
                SideLine {
                    side: side.clone(),
                    wins,
                    rate: if n == 0 { 0.0 } else { wins as f64 / n as f64 },
                    interval: proportion_interval(wins, n),
                }
            })
            .collect();
        let figures = tally
            .figures
            .iter()
            .filter(|(key, _)| key.section != Section::Wins)
            .map(|(key, sums)| FigureLine {
                section: key.section,
                name: key.name.clone(),
                total: sums.sum,
                per_fight: sums.mean(n),
                interval: sums.interval(n),
            })
            .collect();
        Report {
            info,
            fights: n,
            wins,
            rounds: RoundsLine::of(&tally.rounds),
            figures,
        }
    }

    /// The report as text for a person.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let info = &self.info;
        if let Some(exchange) = &info.exchange {
            let _ = writeln!(
                out,
                "{} ({}): {} single exchanges, {exchange}, seed {}",
                info.scenario, info.ruleset, self.fights, info.seed
            );
        } else {
            let _ = writeln!(
                out,
                "{} ({}): {} fights, seed {}",
                info.scenario, info.ruleset, self.fights, info.seed
            );
            let _ = write!(out, "\n{}", super::verdict::of_report(self));
            self.render_wins(&mut out);
        }
        self.render_figures(&mut out);
        out
    }

    fn render_wins(&self, out: &mut String) {
        let _ = writeln!(out, "\nwins                       rate    95% interval");
        for line in &self.wins {
            let _ = writeln!(
                out,
                "  {:<18} {:>7} {:>6}  {} – {}",
                line.side,
                line.wins,
                percent(line.rate),
                percent(line.interval.low),
                percent(line.interval.high)
            );
        }
        let r = &self.rounds;
        let _ = writeln!(
            out,
            "\nrounds to the end: mean {:.2}, median {}, 90% within {}, 99% within {}, longest {}",
            r.mean, r.median, r.p90, r.p99, r.longest
        );
    }

    fn render_figures(&self, out: &mut String) {
        let mut section = None;
        for line in &self.figures {
            if section != Some(line.section) {
                section = Some(line.section);
                let _ = writeln!(
                    out,
                    "\n{:<44} {:>8} {:>9}  95% interval",
                    line.section.title(),
                    "total",
                    "per fight"
                );
            }
            let _ = writeln!(
                out,
                "  {:<42} {:>8} {:>9.4}  {:.4} – {:.4}",
                Words(&line.name).to_string(),
                line.total,
                line.per_fight,
                line.interval.low,
                line.interval.high
            );
        }
    }
}

/// A rate as a percentage with one decimal.
pub fn percent(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}
