//! `odds`: the probabilities of one exchange, by enumerating its dice.
//!
//! An exchange is deterministic given its dice, so it is run once per branch of the
//! tree of die faces: every face of the first die, for each every face of the next die
//! it rolls, and so on. Each run tells which die comes next (the rules decide whether a
//! defence or a damage roll follows), so the tree is found as it is walked, whatever the
//! ruleset. A leaf weighs 1 / (product of the sides branched on); the sums are fixed-point
//! whole numbers, so the result does not depend on the order the threads add them.
//!
//! The tree grows as the product of the dice (two d100 are 10,000 branches): branching
//! stops where a branch would weigh less than 1 / `branches`, and the dice below are
//! sampled, one seeded draw per leaf (stratified sampling). The report says which dice
//! were enumerated and which sampled; with no die sampled the figures are exact.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::names::Words;

use rayon::prelude::*;
use serde::Serialize;

use crate::dice::DiceSource;
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
    /// Dice enumerated face by face, by purpose.
    pub enumerated: Vec<String>,
    /// Dice sampled below the branching limit, by purpose.
    pub sampled: Vec<String>,
    /// Probability that the defender took damage.
    pub hit: f64,
    /// Damage to the defender as taken (after defences and armour): (amount, probability).
    pub damage: Vec<(i64, f64)>,
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
    let weighted = explore(exchange, Vec::new(), 1, branches.max(1), seed)?;
    let total = weighted.total.max(1) as f64;
    let probability = |weight: u128| weight as f64 / total;
    let defender = exchange.defender_name().to_string();
    let hit_key = FigureKey {
        section: Section::Exchange,
        name: format!("{defender} hit"),
    };
    let sampled_share = probability(weighted.sampled_weight);
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
        hit: weighted
            .figures
            .get(&hit_key)
            .map_or(0.0, |&w| w as f64 / total),
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
    denominator: u64,
    branches: u64,
    seed: u64,
) -> Result<Weighted, FightError> {
    let leaf_seed = prefix
        .iter()
        .fold(seed, |s, &face| fight_seed(s, u64::from(face)));
    let (figures, trace) = exchange.run(DiceSource::planned(prefix.clone(), leaf_seed))?;
    let depth = prefix.len();
    if let Some(next) = trace.get(depth) {
        let sides = u64::from(next.sides);
        if denominator.saturating_mul(sides) <= branches {
            let purpose = without_numbers(&next.purpose);
            let children = (1..=next.sides)
                .into_par_iter()
                .map(|face| {
                    let mut branch = prefix.clone();
                    branch.push(face);
                    explore(exchange, branch, denominator * sides, branches, seed)
                })
                .try_reduce(Weighted::default, |a, b| Ok(a.merge(b)))?;
            let mut children = children;
            children.enumerated.insert(purpose);
            return Ok(children);
        }
    }
    // A leaf: the dice past the prefix (if any) were sampled.
    let weight = ONE / u128::from(denominator);
    let mut leaf = Weighted {
        leaves: 1,
        total: weight,
        ..Weighted::default()
    };
    let defender_damage = figures
        .counts
        .iter()
        .find(|(key, _)| key.section == Section::Exchange && key.name.starts_with("damage to "))
        .map_or(0, |(_, &amount)| amount);
    leaf.damage.insert(defender_damage, weight);
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
                "exact: every face of every die enumerated ({})",
                plural(self.branches, "branch", "branches")
            );
        } else {
            let _ = writeln!(
                out,
                "enumerated face by face: {}\nsampled (one draw per branch, seed {}, {}; {:.1}% of the probability): {}",
                list(&self.enumerated),
                self.seed,
                plural(self.branches, "branch", "branches"),
                self.sampled_share * 100.0,
                list(&self.sampled)
            );
        }
        let _ = writeln!(
            out,
            "\n{} takes damage: {:.2}%",
            self.defender,
            self.hit * 100.0
        );
        let _ = writeln!(
            out,
            "\ndamage to {} after defences and armour",
            self.defender
        );
        let top = self
            .damage
            .iter()
            .map(|d| d.1)
            .fold(0.0, f64::max)
            .max(1e-12);
        for (amount, probability) in &self.damage {
            let bar = "█".repeat((probability / top * 40.0).round() as usize);
            let _ = writeln!(out, "  {amount:>4}  {:>6.2}%  {bar}", probability * 100.0);
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
