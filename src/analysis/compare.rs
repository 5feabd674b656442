//! `compare`: the same fights under two rulesets — fight `i` of both runs starts from the
//! same seed (common random numbers), so the two differ only where the rules differ, and
//! the difference of each figure is measured fight by fight (a paired interval), which
//! shows small rule changes with little noise.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::names::Words;

use serde::Serialize;

use super::diff::Difference;
use super::figures::{FightFigures, FigureKey, NOBODY, Section};
use super::run::Accumulate;
use super::simulate::{RoundsLine, RunInfo, percent};
use super::stats::{Interval, Sums, benjamini_hochberg};

/// Sums of one figure under both rulesets and of its difference, fight by fight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paired {
    pub before: Sums,
    pub after: Sums,
    pub difference: Sums,
}

impl Paired {
    fn add(&mut self, before: i64, after: i64) {
        self.before.add(before);
        self.after.add(after);
        self.difference.add(after - before);
    }

    fn merge(&mut self, other: &Paired) {
        self.before.merge(&other.before);
        self.after.merge(&other.after);
        self.difference.merge(&other.difference);
    }
}

/// The sums of many pairs of fights.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairedTally {
    pub fights: u64,
    pub rounds_before: BTreeMap<u32, u64>,
    pub rounds_after: BTreeMap<u32, u64>,
    pub rounds: Paired,
    pub figures: BTreeMap<FigureKey, Paired>,
    /// Pairs of fights that came out the same under both rulesets, every figure and the
    /// rounds alike.
    pub same: u64,
}

impl Accumulate for PairedTally {
    type Item = (FightFigures, FightFigures);

    fn add(&mut self, (before, after): (FightFigures, FightFigures)) {
        self.fights += 1;
        if before == after {
            self.same += 1;
        }
        *self.rounds_before.entry(before.rounds).or_insert(0) += 1;
        *self.rounds_after.entry(after.rounds).or_insert(0) += 1;
        self.rounds
            .add(i64::from(before.rounds), i64::from(after.rounds));
        let keys: BTreeSet<&FigureKey> = before.counts.keys().chain(after.counts.keys()).collect();
        for key in keys {
            let b = before.counts.get(key).copied().unwrap_or(0);
            let a = after.counts.get(key).copied().unwrap_or(0);
            self.figures.entry(key.clone()).or_default().add(b, a);
        }
    }

    fn merge(&mut self, other: PairedTally) {
        self.fights += other.fights;
        self.same += other.same;
        for (rounds, count) in other.rounds_before {
            *self.rounds_before.entry(rounds).or_insert(0) += count;
        }
        for (rounds, count) in other.rounds_after {
            *self.rounds_after.entry(rounds).or_insert(0) += count;
        }
        self.rounds.merge(&other.rounds);
        for (key, paired) in other.figures {
            self.figures.entry(key).or_default().merge(&paired);
        }
    }

    fn fights(&self) -> u64 {
        self.fights
    }
}

impl PairedTally {
    /// The widest 95% interval of a difference in win rate: how precise the run is.
    pub fn widest_win_interval(&self, sides: &[String]) -> f64 {
        sides
            .iter()
            .filter_map(|side| self.figures.get(&win_key(side)))
            .map(|paired| paired.difference.interval(self.fights).width())
            .fold(0.0, f64::max)
    }
}

impl PairedTally {
    /// Whether every side's difference in win rate is settled (`compare
    /// --until-settled`): its 95% interval leaves out zero (B changes it, beyond chance),
    /// or lies within ±`margin` (no difference that matters). A side that never won
    /// under either ruleset differs by nothing.
    pub fn settled(&self, sides: &[String], margin: f64) -> bool {
        sides.iter().all(|side| {
            self.figures.get(&win_key(side)).is_none_or(|paired| {
                let interval = paired.difference.interval(self.fights);
                interval.excludes_zero() || (interval.low >= -margin && interval.high <= margin)
            })
        })
    }
}

fn win_key(side: &str) -> FigureKey {
    FigureKey {
        section: Section::Wins,
        name: side.to_string(),
    }
}

/// One figure side by side: the mean per fight before and after, the difference and its
/// paired 95% interval, the p-value of the difference, and whether it is significant
/// among all the figures of the comparison (see [`FALSE_DISCOVERY_RATE`]).
#[derive(Clone, Debug, Serialize)]
pub struct CompareLine {
    pub section: Section,
    pub name: String,
    pub before: f64,
    pub after: f64,
    pub difference: f64,
    pub interval: Interval,
    /// Two-sided p-value of "B − A is zero", for this figure alone.
    pub p_value: f64,
    pub significant: bool,
}

/// A report compares a hundred figures or more at once, and about one in twenty
/// unchanged figures would have a 95% interval without zero by chance. So `*` is decided
/// over the whole report (Benjamini–Hochberg): on average at most 5% of the marked
/// figures are flukes.
pub const FALSE_DISCOVERY_RATE: f64 = 0.05;

impl CompareLine {
    fn new(section: Section, name: &str, paired: &Paired, n: u64) -> Self {
        let interval = paired.difference.interval(n);
        CompareLine {
            section,
            name: name.to_string(),
            before: paired.before.mean(n),
            after: paired.after.mean(n),
            difference: paired.difference.mean(n),
            interval,
            p_value: paired.difference.p_value_of_zero(n),
            // Decided over all the figures, in `Comparison::new`.
            significant: false,
        }
    }
}

/// The report of a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    #[serde(flatten)]
    pub info: RunInfo,
    /// The two ruleset directories, as named.
    pub before: String,
    pub after: String,
    pub fights: u64,
    /// Fights that came out the same under both rulesets, every figure alike.
    pub same: u64,
    /// Win rate of each side (a fraction of fights).
    pub wins: Vec<CompareLine>,
    pub rounds: CompareLine,
    pub rounds_before: RoundsLine,
    pub rounds_after: RoundsLine,
    /// Every other figure, per fight; only those that occurred under either ruleset.
    pub figures: Vec<CompareLine>,
    /// What B changes: table rows, script functions, equipment, settings.
    pub differences: Vec<Difference>,
}

impl Comparison {
    pub fn new(
        info: RunInfo,
        (before, after): (String, String),
        differences: Vec<Difference>,
        tally: &PairedTally,
    ) -> Self {
        let n = tally.fights;
        let mut sides = info.sides.clone();
        if tally.figures.contains_key(&win_key(NOBODY)) {
            sides.push(NOBODY.to_string());
        }
        let empty = Paired::default();
        let wins = sides
            .iter()
            .map(|side| {
                let paired = tally.figures.get(&win_key(side)).unwrap_or(&empty);
                CompareLine::new(Section::Wins, side, paired, n)
            })
            .collect();
        let figures = tally
            .figures
            .iter()
            .filter(|(key, _)| key.section != Section::Wins)
            .map(|(key, paired)| CompareLine::new(key.section, &key.name, paired, n))
            .collect();
        let mut comparison = Comparison {
            info,
            before,
            after,
            fights: n,
            same: tally.same,
            wins,
            rounds: CompareLine::new(Section::Rounds, "mean", &tally.rounds, n),
            rounds_before: RoundsLine::of(&tally.rounds_before),
            rounds_after: RoundsLine::of(&tally.rounds_after),
            figures,
            differences,
        };
        comparison.decide_significance();
        comparison
    }

    fn lines_mut(&mut self) -> impl Iterator<Item = &mut CompareLine> {
        self.wins
            .iter_mut()
            .chain(std::iter::once(&mut self.rounds))
            .chain(&mut self.figures)
    }

    /// Mark the figures whose difference holds up with all of them tested at once.
    fn decide_significance(&mut self) {
        let p_values: Vec<f64> = self.lines_mut().map(|line| line.p_value).collect();
        let decided = benjamini_hochberg(&p_values, FALSE_DISCOVERY_RATE);
        for (line, significant) in self.lines_mut().zip(decided) {
            // A difference whose interval holds zero is never marked.
            line.significant = significant && line.interval.excludes_zero();
        }
    }

    /// How many figures the report compares.
    pub fn compared(&self) -> usize {
        self.wins.len() + 1 + self.figures.len()
    }

    /// How many figures differ significantly.
    pub fn significant(&self) -> usize {
        self.wins
            .iter()
            .chain(std::iter::once(&self.rounds))
            .chain(&self.figures)
            .filter(|line| line.significant)
            .count()
    }

    /// The comparison as text for a person; `only_significant` leaves out figures (not
    /// win rates or rounds) whose difference is noise.
    pub fn render(&self, only_significant: bool) -> String {
        let mut out = String::new();
        let info = &self.info;
        let _ = writeln!(
            out,
            "{}: {} fights, seed {}, the same seeds under both rulesets",
            info.scenario, self.fights, info.seed
        );
        let _ = writeln!(out, "  A = {}\n  B = {}", self.before, self.after);
        let _ = write!(out, "\n{}", super::verdict::of_comparison(self));
        let _ = writeln!(
            out,
            "\n{:<44} {:>9} {:>9} {:>9}  95% interval of B − A",
            "win rate", "A", "B", "B − A"
        );
        for line in &self.wins {
            let _ = writeln!(
                out,
                "  {:<42} {:>9} {:>9} {:>9}  {} … {}{}",
                line.name,
                percent(line.before),
                percent(line.after),
                signed_percent(line.difference),
                signed_percent(line.interval.low),
                signed_percent(line.interval.high),
                flag(line)
            );
        }
        let _ = writeln!(
            out,
            "\n{:<44} {:>9} {:>9} {:>9}",
            "rounds to the end", "A", "B", "B − A"
        );
        let r = &self.rounds;
        let _ = writeln!(
            out,
            "  {:<42} {:>9.2} {:>9.2} {:>+9.2}  {:+.2} … {:+.2}{}",
            "mean",
            r.before,
            r.after,
            r.difference,
            r.interval.low,
            r.interval.high,
            flag(r)
        );
        let mut section = None;
        let mut hidden = 0;
        for line in &self.figures {
            if only_significant && !line.significant {
                hidden += 1;
                continue;
            }
            if section != Some(line.section) {
                section = Some(line.section);
                let _ = writeln!(
                    out,
                    "\n{:<44} {:>9} {:>9} {:>9}",
                    format!("{} (per fight)", line.section.title()),
                    "A",
                    "B",
                    "B − A"
                );
            }
            let _ = writeln!(
                out,
                "  {:<42} {:>9.4} {:>9.4} {:>+9.4}  {:+.4} … {:+.4}{}",
                Words(&line.name).to_string(),
                line.before,
                line.after,
                line.difference,
                line.interval.low,
                line.interval.high,
                flag(line)
            );
        }
        if hidden > 0 {
            let _ = writeln!(
                out,
                "\n({hidden} other figures show no significant difference; --all lists them)"
            );
        }
        let significant = self.significant();
        let _ = writeln!(
            out,
            "\n{}",
            match significant {
                0 => "no significant difference".to_string(),
                1 => "1 significant difference, marked *".to_string(),
                n => format!("{n} significant differences, marked *"),
            }
        );
        let _ = writeln!(
            out,
            "({} figures compared at once; at most {:.0}% of the marked ones are expected to be chance)",
            self.compared(),
            FALSE_DISCOVERY_RATE * 100.0
        );
        out
    }
}

fn flag(line: &CompareLine) -> &'static str {
    if line.significant { "  *" } else { "" }
}

fn signed_percent(rate: f64) -> String {
    format!("{:+.1}%", rate * 100.0)
}
