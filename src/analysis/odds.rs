//! `odds`: the probabilities of one exchange, by walking every outcome of its dice.
//!
//! An exchange is deterministic given its dice, so it is run once per branch of the
//! tree of outcomes: every outcome of the first draw, for each every outcome of the next
//! one, and so on. Each run tells which draw comes next (the rules decide whether a
//! defence or a damage roll follows), so the tree is found as it is walked, whatever the
//! ruleset. A leaf weighs the product of its outcomes' chances; the sums are fixed-point
//! whole numbers (2^-64), so the result does not depend on the order the threads add them.
//!
//! An outcome is what the rules can tell apart, not a face: dice rolled together whose
//! total alone is read are drawn by their total (`DiceExpr::roll`), a roll on a table by
//! the row it reads (`tables::roll`), a test of `combat.toml` by its level, its roll
//! drawn only when a rule reads it (`engine::merged`). The outcomes weigh the faces they
//! stand for ([`RolledDie::weights`]), so the figures are those of a walk face by face.
//! Where a rule reads such a roll, what it reads is drawn rather than the roll: a
//! condition of `combat.toml` reading one or two rolls still to be drawn
//! (`attack.roll > defence.roll`) is drawn as holding or not, a roll compared with an
//! exact one keeps the rolls that agree, and of two rolls compared only the one read is
//! drawn. A reroll that ignores some results is drawn by the row kept. A script
//! called by a row gets the tests' rolls drawn first only if its text may read them
//! (`script::hooks::reads_tests`). A single die a script rolls and reads itself (a d100
//! it compares) is walked face by face; the dice a script rolls together are drawn by
//! their total too.
//!
//! The tree grows as the product of the outcomes: branching stops where an outcome would
//! weigh less than 1 / `branches` on average, and the draws below are sampled, one
//! seeded draw per leaf (stratified sampling). The report says which draws were walked
//! and which sampled; with none sampled the figures are exact.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::names::Words;

use rayon::prelude::*;
use serde::Serialize;

use crate::dice::{DiceSource, RolledDie};
use crate::engine::FightError;

use super::exchange::Exchange;
use super::figures::{FigureKey, Section};
use super::run::fight_seed;

/// One in fixed point: weights are multiples of 2^-64.
const ONE: u128 = 1 << 64;

/// Weighted sums over the leaves of the tree.
#[derive(Clone, Debug, Default)]
struct Weighted {
    leaves: u64,
    sampled_leaves: u64,
    total: u128,
    /// The weight of leaves that sampled dice.
    sampled_weight: u128,
    figures: BTreeMap<FigureKey, i128>,
    damage: BTreeMap<i64, u128>,
    /// The weight of leaves in which the defender took a wound of any level.
    wounded: u128,
    /// By wound level, the weight of leaves in which the defender took one.
    wounds: BTreeMap<String, u128>,
    enumerated: BTreeSet<String>,
    sampled: BTreeSet<String>,
}

impl Weighted {
    fn merge(mut self, other: Weighted) -> Weighted {
        self.leaves += other.leaves;
        self.sampled_leaves += other.sampled_leaves;
        self.total += other.total;
        self.sampled_weight += other.sampled_weight;
        for (key, sum) in other.figures {
            *self.figures.entry(key).or_insert(0) += sum;
        }
        for (damage, weight) in other.damage {
            *self.damage.entry(damage).or_insert(0) += weight;
        }
        self.wounded += other.wounded;
        for (level, weight) in other.wounds {
            *self.wounds.entry(level).or_insert(0) += weight;
        }
        self.enumerated.extend(other.enumerated);
        self.sampled.extend(other.sampled);
        self
    }
}

/// The probabilities of one exchange.
#[derive(Clone, Debug, Serialize)]
pub struct Odds {
    pub scenario: String,
    pub attacker: String,
    pub defender: String,
    /// Branches run (leaves of the tree of dice).
    pub branches: u64,
    /// True when no die had to be sampled: every figure is exact.
    pub exact: bool,
    /// The share of probability whose branches sampled some dice.
    pub sampled_share: f64,
    /// The seed of the sampled dice (it changes nothing when every figure is exact).
    pub seed: u64,
    /// Draws walked outcome by outcome, by purpose.
    pub enumerated: Vec<String>,
    /// Dice sampled below the branching limit, by purpose.
    pub sampled: Vec<String>,
    /// Probability that damage got through to the defender: the blow got past the
    /// defence and its damage past the armour, and took hit points.
    pub damage_through: f64,
    /// Damage to the defender as taken (after defences and armour): (amount, probability).
    pub damage: Vec<(i64, f64)>,
    /// Probability that the defender took a wound of some level the ruleset records.
    pub wounded: f64,
    /// Each wound level the defender took, with its probability, the likeliest first.
    pub wounds: Vec<(String, f64)>,
    /// The ruleset records wound levels rather than hit points lost (no branch took hit
    /// points, some took a wound level): the wound levels are the main figure.
    pub wound_levels_main: bool,
    /// Expected count of each figure in one exchange (a probability for what happens at
    /// most once).
    pub figures: Vec<OddsLine>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OddsLine {
    pub section: Section,
    pub name: String,
    pub expected: f64,
}

/// Enumerate the exchange's dice, branching while a branch weighs at least
/// 1 / `branches`; `seed` seeds the dice sampled below that.
pub fn odds(exchange: &Exchange, branches: u64, seed: u64) -> Result<Odds, FightError> {
    let weighted = explore(exchange, Vec::new(), ONE, branches.max(1), seed)?;
    let total = weighted.total.max(1) as f64;
    let probability = |weight: u128| weight as f64 / total;
    let defender = exchange.defender_name().to_string();
    let sampled_share = probability(weighted.sampled_weight);
    let damage_through: u128 = weighted
        .damage
        .iter()
        .filter(|(amount, _)| **amount > 0)
        .map(|(_, weight)| weight)
        .sum();
    let mut wounds: Vec<(String, f64)> = weighted
        .wounds
        .iter()
        .map(|(level, &weight)| (level.clone(), probability(weight)))
        .collect();
    // The likeliest first (a ruleset names its wound levels but gives them no order).
    wounds.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(Odds {
        scenario: exchange.scenario.title.clone(),
        attacker: exchange.attacker_name().to_string(),
        defender,
        branches: weighted.leaves,
        exact: weighted.sampled_leaves == 0,
        sampled_share,
        seed,
        enumerated: weighted.enumerated.into_iter().collect(),
        sampled: weighted.sampled.into_iter().collect(),
        damage_through: probability(damage_through),
        wounded: probability(weighted.wounded),
        wound_levels_main: damage_through == 0 && weighted.wounded > 0,
        wounds,
        damage: weighted
            .damage
            .iter()
            .map(|(&amount, &weight)| (amount, probability(weight)))
            .collect(),
        figures: weighted
            .figures
            .iter()
            .map(|(key, &sum)| OddsLine {
                section: key.section,
                name: key.name.clone(),
                expected: sum as f64 / total,
            })
            .collect(),
    })
}

fn explore(
    exchange: &Exchange,
    prefix: Vec<u32>,
    weight: u128,
    branches: u64,
    seed: u64,
) -> Result<Weighted, FightError> {
    let leaf_seed = prefix
        .iter()
        .fold(seed, |s, &face| fight_seed(s, u64::from(face)));
    let played = exchange.play(DiceSource::planned(prefix.clone(), leaf_seed))?;
    let (figures, trace) = (played.figures, played.trace);
    let depth = prefix.len();
    if let Some(next) = trace.get(depth) {
        // Branch while an outcome weighs, on average, at least 1 / `branches`.
        if weight / u128::from(next.sides.max(1)) >= ONE / u128::from(branches) {
            let purpose = without_numbers(&next.purpose);
            let children = (1..=next.sides)
                .into_par_iter()
                .map(|place| {
                    let mut branch = prefix.clone();
                    branch.push(place);
                    explore(exchange, branch, share(weight, next, place), branches, seed)
                })
                .try_reduce(Weighted::default, |a, b| Ok(a.merge(b)))?;
            let mut children = children;
            children.enumerated.insert(purpose);
            return Ok(children);
        }
    }
    // A leaf: the dice past the prefix (if any) were sampled.
    let mut leaf = Weighted {
        leaves: 1,
        total: weight,
        ..Weighted::default()
    };
    leaf.damage.insert(played.harm.damage, weight);
    if !played.harm.wounds.is_empty() {
        leaf.wounded = weight;
    }
    for level in &played.harm.wounds {
        leaf.wounds.insert(level.to_string(), weight);
    }
    for (key, count) in figures.counts {
        leaf.figures.insert(key, i128::from(count) * weight as i128);
    }
    if trace.len() > depth {
        leaf.sampled_leaves = 1;
        leaf.sampled.extend(
            trace[depth..]
                .iter()
                .map(|die| without_numbers(&die.purpose)),
        );
        leaf.sampled_weight = weight;
    }
    Ok(leaf)
}

/// The weight of the outcome at `place` (the first 1) of `die`, out of `weight`: an
/// equal share of a die's faces, or a merged outcome's ways out of all of them.
fn share(weight: u128, die: &RolledDie, place: u32) -> u128 {
    if die.weights.is_empty() {
        return weight / u128::from(die.sides.max(1));
    }
    let all: u128 = die.weights.iter().map(|w| u128::from(*w)).sum();
    let ways = u128::from(die.weights[place as usize - 1]);
    // weight x ways may pass 2^128: the whole multiples of `all` first, the rest after.
    (weight / all).saturating_mul(ways) + (weight % all).saturating_mul(ways) / all
}

impl Odds {
    /// The odds as text for a person.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: one exchange, {} against {}",
            self.scenario, self.attacker, self.defender
        );
        if self.exact {
            let _ = writeln!(
                out,
                "exact: every outcome of every die walked ({})",
                plural(self.branches, "branch", "branches")
            );
        } else {
            let _ = writeln!(
                out,
                "walked outcome by outcome: {}\nsampled (one draw per branch, seed {}, {}; {:.1}% of the probability): {}",
                list(&self.enumerated),
                self.seed,
                plural(self.branches, "branch", "branches"),
                self.sampled_share * 100.0,
                list(&self.sampled)
            );
        }
        if self.wound_levels_main {
            self.render_wounds(&mut out);
            let _ = writeln!(
                out,
                "\n{} loses no hit points in any branch: this ruleset records wound levels, not damage",
                self.defender
            );
        } else {
            self.render_damage(&mut out);
            if !self.wounds.is_empty() {
                self.render_wounds(&mut out);
            }
        }
        let mut section = None;
        for line in &self.figures {
            if line.section == Section::Exchange {
                continue;
            }
            if section != Some(line.section) {
                section = Some(line.section);
                let _ = writeln!(out, "\n{} (expected per exchange)", line.section.title());
            }
            let _ = writeln!(
                out,
                "  {:<52} {:>8.4}",
                Words(&line.name).to_string(),
                line.expected
            );
        }
        out
    }
}

impl Odds {
    /// The chance of damage getting through and its distribution.
    fn render_damage(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "\n{} takes damage: {:.2}%  (the blow gets past the defence, and its damage past the armour)",
            self.defender,
            self.damage_through * 100.0
        );
        let _ = writeln!(
            out,
            "\ndamage to {} after defences and armour (bars: the damage taken, to scale; 0 not drawn)",
            self.defender
        );
        // The exchanges without damage (most of them, often) would dwarf the bars of the
        // damage taken: their chance is written, not drawn, as on the chart of `--plot`.
        let rows = self.damage.iter().map(|&(amount, p)| {
            let bar = if amount > 0 { Some(p) } else { None };
            (format!("{amount:>4}"), p, bar)
        });
        bar_lines(out, rows.collect());
    }

    /// The chance of a wound, and of each wound level.
    fn render_wounds(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "\n{} is wounded: {:.2}%  (takes a wound level of the ruleset)",
            self.defender,
            self.wounded * 100.0
        );
        let _ = writeln!(
            out,
            "\nwound levels {} takes (an exchange may give more than one)",
            self.defender
        );
        let rows = self
            .wounds
            .iter()
            .map(|(level, p)| (format!("{:<20}", Words(level).to_string()), *p, Some(*p)));
        bar_lines(out, rows.collect());
    }
}

/// One line for each (label, probability, bar): the label, the percentage and, where the
/// row is drawn (`bar` is its chance), a bar as long as the chance, the likeliest row
/// drawn 40 blocks.
fn bar_lines(out: &mut String, rows: Vec<(String, f64, Option<f64>)>) {
    let top = rows
        .iter()
        .filter_map(|r| r.2)
        .fold(0.0, f64::max)
        .max(1e-12);
    for (label, probability, drawn) in rows {
        let bar = drawn.map_or(String::new(), |p| {
            "█".repeat((p / top * 40.0).round() as usize)
        });
        let line = format!("  {label}  {:>6.2}%  {bar}", probability * 100.0);
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// A die's purpose with its standalone numbers as `N` ("against the roll of 63" and "of
/// 64" are one kind of die), so the list says what was sampled, not each value.
fn without_numbers(purpose: &str) -> String {
    purpose
        .split(' ')
        .map(|word| {
            if !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
                "N"
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        let items: Vec<String> = items.iter().map(|item| Words(item).to_string()).collect();
        items.join(", ")
    }
}

/// `1 branch`, `2 branches`.
fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn odds(damage: Vec<(i64, f64)>) -> Odds {
        let damage_through = damage.iter().filter(|d| d.0 > 0).map(|d| d.1).sum();
        Odds {
            scenario: "Duel".into(),
            attacker: "Aldric".into(),
            defender: "Bryn".into(),
            branches: 3,
            exact: true,
            sampled_share: 0.0,
            seed: 1,
            enumerated: Vec::new(),
            sampled: Vec::new(),
            damage_through,
            damage,
            wounded: 0.0,
            wounds: Vec::new(),
            wound_levels_main: false,
            figures: Vec::new(),
        }
    }

    /// The line of `label` in the report, and the length of its bar.
    fn bar_of(report: &str, label: &str) -> (String, usize) {
        let line = report
            .lines()
            .find(|line| line.trim_start().starts_with(&format!("{label} ")))
            .unwrap_or_else(|| panic!("no line {label}: {report}"));
        (line.to_string(), line.chars().filter(|&c| c == '█').count())
    }

    /// The exchanges without damage (80% of them here) keep their chance in the text but
    /// do not set the scale: the likeliest amount of damage taken is the full bar, so
    /// that the bars of the damage a GM reads are not a block or two each.
    #[test]
    fn the_damage_bars_are_to_scale_among_the_amounts_taken() {
        let report = odds(vec![(0, 0.80), (1, 0.05), (2, 0.15)]).render();
        let (none, blocks) = bar_of(&report, "0");
        assert!(none.ends_with("80.00%"), "{none}");
        assert_eq!(blocks, 0, "{none}");
        assert_eq!(bar_of(&report, "1").1, 13, "{report}");
        assert_eq!(bar_of(&report, "2").1, 40, "{report}");
        assert!(
            report.contains("Bryn takes damage: 20.00%  (the blow gets past the defence, and its damage past the armour)"),
            "{report}"
        );
        assert!(report.contains("0 not drawn"), "{report}");
    }
}
