//! `odds --fight`: the chance each side wins a whole fight, walked exactly where the
//! fight's states are few, simulated where they are not.
//!
//! A fight is deterministic given its dice, so it can be walked as `odds` walks one
//! exchange: every outcome of each draw in turn (the level of a test, the total of dice
//! rolled together, the row of a table), each branch replayed from the start with its
//! dice planned ([`DiceSource::walked`]). The walk goes step by step: a step ends where
//! the turn order of a round is known, where a turn ends, and where a round ends. At the
//! end of a step the fight is reduced to a key of everything later steps can read
//! ([`FightHandle::state_key`]: hit points, wounds, conditions and what is left of them,
//! weapons, actions left and to lose, the numbers a ruleset keeps, distances, the round,
//! and inside a round the order and the turns taken), and branches that reach the same
//! key are merged, their chances added: a fight of two combatants on one pool of hit
//! points has at most a few states per round, however many dice led there. One branch
//! per merged state is kept (its dice), to replay the fight to it for the next step.
//!
//! The round is part of every key and grows with each round, so the states form no
//! cycle: a fight where both miss forever reaches the ruleset's round limit, which ends
//! it with no winner (a draw, `nobody`), as in `simulate`. The states are taken in the
//! order of the fight (round, then the step inside it), each once all the chance that
//! reaches it is in; its chance is passed on to the states it leads to. Chances are
//! whole multiples of 2^-64 (the figures are exact to that; the sums do not depend on
//! the order of the threads).
//!
//! The initiative of a round is in the key only where something later may read it: a
//! ruleset that keeps it from round to round (`keep_initiative`) or leaves it to a hook,
//! or whose scripts name it; otherwise only the order it made counts.
//!
//! Past `max_states` merged states, or past [`DICE_PER_STATE`] dice replayed for each
//! of them (each branch is replayed from the start of the fight, so a long or dicey
//! fight costs more than its states say), the walk stops, says so, and the fight is
//! simulated instead. Both bounds are counts, not times: the same scenario stops at the
//! same place on every machine. A scenario with scripted choices
//! (`[[choices]]`, used up as the fight goes, which a state does not hold) is simulated
//! too.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;

use parking_lot::Mutex;
use rayon::prelude::*;
use serde::Serialize;

use crate::dice::DiceSource;
use crate::engine::{
    FightError, FightHandle, FightObserver, FightSetup, KeyParts, Log, Resolved, ScriptedChooser,
};
use crate::log::Event;
use crate::ruleset::Ruleset;
use crate::scenario::Scenario;
use crate::script::TacticsChooser;

use super::figures::NOBODY;
use super::run::{self, Plan, RunError};
use super::simulate::{Report, RunInfo, Tally};
use super::stats::{Interval, proportion_interval};

/// One in fixed point: chances are multiples of 2^-64.
const ONE: u128 = 1 << 64;

/// The dice replayed for each merged state allowed, in all: the walk's work bound.
pub const DICE_PER_STATE: u64 = 50;

/// How far to walk, and how to simulate past that.
#[derive(Clone, Copy, Debug)]
pub struct FightOddsPlan {
    /// Merged states past which the walk stops and the fight is simulated.
    pub max_states: u64,
    /// The simulation used instead.
    pub fallback: Plan,
}

/// The chance of each side, exact or simulated.
#[derive(Clone, Debug, Serialize)]
pub struct FightOdds {
    pub scenario: String,
    pub ruleset: String,
    /// True when every figure is walked exactly (to 2^-64).
    pub exact: bool,
    /// Why the figures are simulated, when they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulated_because: Option<String>,
    /// Merged states walked (all of them when exact; as far as the walk went when not).
    pub states: u64,
    /// Branches replayed to walk them.
    pub replays: u64,
    /// The ruleset's round limit, past which a fight ends with no winner.
    pub max_rounds: u32,
    /// Each side's chance to win, in scenario order, then `nobody` (the round limit)
    /// when it can happen.
    pub wins: Vec<SideOdds>,
    /// The expected number of rounds to the end.
    pub expected_rounds: f64,
    /// The simulation's fights and seed, when simulated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fights: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SideOdds {
    pub side: String,
    pub probability: f64,
    /// The 95% interval of a simulated rate; none for an exact one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
}

/// Why the odds of a fight could not be had.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum FightOddsError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Fight(#[from] FightError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Run(#[from] RunError),
}

/// Where a step ends, in the order of the fight: a round's turn order is known (0),
/// the n-th turn of the round ended (n), the round ended (`u32::MAX`).
type Progress = (u32, u32);

/// A merged state still to walk on from: the chance that reaches it, the dice of one
/// branch that reaches it, and how many step ends that branch passed.
#[derive(Clone, Debug)]
struct Node {
    mass: u128,
    plan: Vec<u32>,
    ends: u32,
}

/// What one step from a state leads to.
enum Step {
    /// Another state, after this step.
    State {
        progress: Progress,
        key: String,
        node: Node,
    },
    /// The end of the fight: the winning side (`None`: nobody) after so many rounds.
    End {
        winner: Option<String>,
        rounds: u32,
        mass: u128,
    },
}

/// The chances of a whole fight: walked, or simulated when the walk is too large.
pub fn fight_odds(
    ruleset: &Arc<Ruleset>,
    scenario: &Scenario,
    plan: FightOddsPlan,
) -> Result<FightOdds, FightOddsError> {
    let sides = sides_of(scenario);
    let max_rounds = ruleset.rules.settings.max_rounds;
    let walked = if scenario.choices.is_empty() {
        walk(ruleset, scenario, plan.max_states)?
    } else {
        Walked::TooLarge {
            states: 0,
            replays: 0,
            why: "the scenario's scripted choices ([[choices]]) are used up as the fight goes, \
                  which a state does not hold"
                .to_string(),
        }
    };
    match walked {
        Walked::Done {
            ends,
            rounds,
            states,
            replays,
        } => {
            let total: u128 = ends.values().sum::<u128>().max(1);
            let share = |mass: u128| mass as f64 / total as f64;
            let mut wins: Vec<SideOdds> = sides
                .iter()
                .map(|side| SideOdds {
                    side: side.clone(),
                    probability: share(ends.get(side).copied().unwrap_or(0)),
                    interval: None,
                })
                .collect();
            if let Some(&draws) = ends.get(NOBODY) {
                wins.push(SideOdds {
                    side: NOBODY.to_string(),
                    probability: share(draws),
                    interval: None,
                });
            }
            Ok(FightOdds {
                scenario: scenario.title.clone(),
                ruleset: ruleset.settings.title.clone(),
                exact: true,
                simulated_because: None,
                states,
                replays,
                max_rounds,
                wins,
                expected_rounds: rounds / total as f64,
                fights: None,
                seed: None,
            })
        }
        Walked::TooLarge {
            states,
            replays,
            why,
        } => {
            let info = RunInfo {
                scenario: scenario.title.clone(),
                ruleset: ruleset.settings.title.clone(),
                seed: plan.fallback.seed,
                sides: sides.clone(),
                exchange: None,
            };
            let tally: Tally = run::run(
                plan.fallback,
                |seed| run::fight_figures(ruleset, scenario, seed),
                &|_| {},
                |_: &Tally| false,
            )?;
            let report = Report::new(info, &tally);
            let wins = report
                .wins
                .iter()
                .map(|line| SideOdds {
                    side: line.side.clone(),
                    probability: line.rate,
                    interval: Some(proportion_interval(line.wins, report.fights)),
                })
                .collect();
            Ok(FightOdds {
                scenario: scenario.title.clone(),
                ruleset: ruleset.settings.title.clone(),
                exact: false,
                simulated_because: Some(why),
                states,
                replays,
                max_rounds,
                wins,
                expected_rounds: report.rounds.mean,
                fights: Some(report.fights),
                seed: Some(plan.fallback.seed),
            })
        }
    }
}

/// The sides in scenario order.
fn sides_of(scenario: &Scenario) -> Vec<String> {
    let mut sides: Vec<String> = Vec::new();
    for combatant in &scenario.combatants {
        if !sides.iter().any(|side| combatant.side == *side) {
            sides.push(combatant.side.to_string());
        }
    }
    sides
}

enum Walked {
    Done {
        /// The chance of each end, by winning side (`nobody` for none).
        ends: BTreeMap<String, u128>,
        /// The sum of the ends' rounds weighed by their chances (in units of 2^-64).
        rounds: f64,
        states: u64,
        replays: u64,
    },
    TooLarge {
        states: u64,
        replays: u64,
        why: String,
    },
}

/// Walk the fight's states in the order of the fight, merging equal keys.
fn walk(
    ruleset: &Arc<Ruleset>,
    scenario: &Scenario,
    max_states: u64,
) -> Result<Walked, FightError> {
    let walker = Walker::new(ruleset, scenario);
    let max_dice = max_states.saturating_mul(DICE_PER_STATE);
    // The dice replayed so far, by every thread.
    let dice = std::sync::atomic::AtomicU64::new(0);
    let mut queue: BTreeMap<(Progress, String), Node> = BTreeMap::new();
    queue.insert(
        ((0, 0), String::new()),
        Node {
            mass: ONE,
            plan: Vec::new(),
            ends: 0,
        },
    );
    let mut states: u64 = 1;
    let replays = std::sync::atomic::AtomicU64::new(0);
    let mut ends: BTreeMap<String, u128> = BTreeMap::new();
    let mut rounds = 0.0;
    while let Some((&(progress, _), _)) = queue.first_key_value() {
        // Every state at this point of the fight: none leads to another of them.
        let after = match progress.1 {
            u32::MAX => (progress.0.saturating_add(1), 0),
            stage => (progress.0, stage + 1),
        };
        let rest = queue.split_off(&(after, String::new()));
        let batch: Vec<Node> = std::mem::replace(&mut queue, rest).into_values().collect();
        // Where the walk stood before this batch: what it says if it stops in it (how
        // far each thread got into the batch depends on the threads).
        let (states_before, replays_before) =
            (states, replays.load(std::sync::atomic::Ordering::Relaxed));
        let steps: Vec<Result<Option<Vec<Step>>, FightError>> = batch
            .into_par_iter()
            .map(|node| walker.step(&node, &replays, &dice, max_dice))
            .collect();
        for steps in steps {
            let Some(steps) = steps? else {
                return Ok(Walked::TooLarge {
                    states: states_before,
                    replays: replays_before,
                    why: format!(
                        "more than {max_dice} dice replayed (by round {})",
                        progress.0.max(1)
                    ),
                });
            };
            for step in steps {
                match step {
                    Step::State {
                        progress,
                        key,
                        node,
                    } => match queue.entry((progress, key)) {
                        std::collections::btree_map::Entry::Occupied(mut merged) => {
                            merged.get_mut().mass += node.mass;
                        }
                        std::collections::btree_map::Entry::Vacant(new) => {
                            states += 1;
                            new.insert(node);
                        }
                    },
                    Step::End {
                        winner,
                        rounds: length,
                        mass,
                    } => {
                        *ends
                            .entry(winner.unwrap_or_else(|| NOBODY.to_string()))
                            .or_insert(0) += mass;
                        rounds += f64::from(length) * mass as f64;
                    }
                }
            }
        }
        if states > max_states {
            return Ok(Walked::TooLarge {
                states,
                replays: replays.into_inner(),
                why: format!(
                    "more than {max_states} states (by round {})",
                    progress.0.max(1)
                ),
            });
        }
    }
    Ok(Walked::Done {
        ends,
        rounds,
        states,
        replays: replays.into_inner(),
    })
}

/// What every replay of the walk shares.
struct Walker<'a> {
    ruleset: &'a Arc<Ruleset>,
    scenario: &'a Scenario,
    /// Whether the key holds each combatant's initiative of the round.
    initiative: bool,
}

impl<'a> Walker<'a> {
    fn new(ruleset: &'a Arc<Ruleset>, scenario: &'a Scenario) -> Self {
        // A script that names initiative (or reaches names it does not spell) may read it.
        let scripts_read = ruleset.scripts.iter().any(|script| {
            script
                .file
                .text()
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .flat_map(|line| line.split(|c: char| !(c.is_alphanumeric() || c == '_')))
                .any(|word| ["initiative", "import", "eval", "call"].contains(&word))
        });
        Walker {
            ruleset,
            scenario,
            initiative: scripts_read,
        }
    }

    /// Every branch of the step after `node`'s state, found as it is walked: a replay
    /// that wants a die past its plan is replayed once for each outcome of that die.
    /// `None` when the dice replayed by every thread pass `max_dice`.
    fn step(
        &self,
        node: &Node,
        replays: &std::sync::atomic::AtomicU64,
        dice: &std::sync::atomic::AtomicU64,
        max_dice: u64,
    ) -> Result<Option<Vec<Step>>, FightError> {
        let mut steps = Vec::new();
        let mut pending: Vec<(Vec<u32>, u128)> = vec![(node.plan.clone(), node.mass)];
        while let Some((plan, mass)) = pending.pop() {
            let cost = plan.len() as u64 + 1;
            if dice.fetch_add(cost, std::sync::atomic::Ordering::Relaxed) + cost > max_dice {
                return Ok(None);
            }
            replays.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let (result, fight, found) = self.replay(plan.clone(), node.ends + 1)?;
            if let Some(found) = found {
                debug_assert_eq!(found.dice, plan.len() as u64);
                steps.push(Step::State {
                    progress: found.progress,
                    key: found.key,
                    node: Node {
                        mass,
                        plan,
                        ends: node.ends + 1,
                    },
                });
                continue;
            }
            match result {
                Ok(outcome) => steps.push(Step::End {
                    winner: outcome.winner.map(|w| w.to_string()),
                    rounds: outcome.rounds,
                    mass,
                }),
                Err(error) => {
                    let Some(die) = fight.die_wanted() else {
                        return Err(error);
                    };
                    let total: u128 = if die.weights.is_empty() {
                        u128::from(die.sides)
                    } else {
                        die.weights.iter().map(|&w| u128::from(w)).sum()
                    };
                    // In reverse, so that the first outcome is walked first.
                    for value in (1..=die.sides).rev() {
                        let weight = match die.weights.get(value as usize - 1) {
                            Some(&w) => u128::from(w),
                            None => 1,
                        };
                        if weight == 0 {
                            continue;
                        }
                        let mut next = plan.clone();
                        next.push(value);
                        pending.push((next, scale(mass, weight, total)));
                    }
                }
            }
        }
        Ok(Some(steps))
    }

    /// The fight replayed with `plan` for its dice and nothing past them, watched for
    /// the `target`-th end of a step.
    fn replay(&self, plan: Vec<u32>, target: u32) -> Result<Replayed, FightError> {
        let found = Arc::new(Mutex::new(None));
        let watch = Watch {
            target,
            seen: 0,
            turns: Vec::new(),
            initiative: self.initiative,
            found: Arc::clone(&found),
        };
        let chooser = ScriptedChooser::new(
            &self.scenario.choices,
            TacticsChooser::new(&self.ruleset.rules),
        );
        let setup = FightSetup {
            dice: DiceSource::walked(plan),
            chooser: Box::new(chooser),
            log: Log::Off,
            observer: Some(Box::new(watch)),
        };
        let fight = FightHandle::new(Arc::clone(&self.ruleset.rules), self.scenario, setup)?;
        let result = fight.run();
        let found = found.lock().take();
        Ok((result, fight, found))
    }
}

/// A replay: how the fight ended (or why it stopped), the fight, and the end of a
/// step it was watched for, if it got there.
type Replayed = (
    Result<crate::engine::Outcome, FightError>,
    FightHandle,
    Option<Found>,
);

/// `mass` times `weight / total`, rounded down.
fn scale(mass: u128, weight: u128, total: u128) -> u128 {
    match mass.checked_mul(weight) {
        Some(product) => product / total.max(1),
        None => (mass / total.max(1)) * weight,
    }
}

/// The end of a step a replay was watched for: where in the fight, the state's key,
/// and the dice drawn to it.
struct Found {
    progress: Progress,
    key: String,
    dice: u64,
}

/// Counts the ends of steps as the fight passes them; keys the `target`-th.
struct Watch {
    target: u32,
    seen: u32,
    /// The turns taken this round, in order.
    turns: Vec<usize>,
    initiative: bool,
    found: Arc<Mutex<Option<Found>>>,
}

impl Watch {
    fn passed(&mut self, fight: &FightHandle, stage: u32) {
        self.seen += 1;
        if self.seen != self.target {
            return;
        }
        let round = fight.core().round;
        let within = stage != u32::MAX;
        let parts = KeyParts {
            order: within,
            initiative: self.initiative,
            kept_initiative: fight.keeps_initiative(),
        };
        let mut key = fight.state_key(parts);
        if within {
            let _ = write!(key, " turns{:?}", self.turns);
        }
        *self.found.lock() = Some(Found {
            progress: (round, stage),
            key,
            dice: fight.dice_drawn(),
        });
    }
}

impl FightObserver for Watch {
    fn event(&mut self, fight: &FightHandle, event: &Event) {
        if let Event::TurnOrder { .. } = event {
            self.turns.clear();
            self.passed(fight, 0);
        }
    }

    fn resolved(&mut self, fight: &FightHandle, what: Resolved) {
        match what {
            Resolved::Turn(who) => {
                self.turns.push(who);
                let stage = u32::try_from(self.turns.len()).unwrap_or(u32::MAX - 1);
                self.passed(fight, stage.min(u32::MAX - 1));
            }
            Resolved::Round(_) => self.passed(fight, u32::MAX),
        }
    }
}

impl FightOdds {
    /// The odds as text for a person.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{} ({}): whole fights", self.scenario, self.ruleset);
        if self.exact {
            let _ = writeln!(
                out,
                "exact: {} merged states walked ({} branches replayed)",
                self.states, self.replays
            );
            let _ = writeln!(out, "\nwins                  chance");
            for line in &self.wins {
                let _ = writeln!(
                    out,
                    "  {:<18} {:>9.5}%",
                    label(&line.side, self.max_rounds),
                    line.probability * 100.0
                );
            }
        } else {
            let why = self.simulated_because.as_deref().unwrap_or("");
            let _ = writeln!(out, "too large, simulated instead: {why}");
            let _ = writeln!(
                out,
                "{} fights, seed {} ({} merged states walked before stopping)",
                self.fights.unwrap_or(0),
                self.seed.unwrap_or(0),
                self.states
            );
            let _ = writeln!(out, "\nwins                    rate    95% interval");
            for line in &self.wins {
                let interval = line.interval.unwrap_or(Interval {
                    low: line.probability,
                    high: line.probability,
                });
                let _ = writeln!(
                    out,
                    "  {:<18} {:>6.1}%  {:.1}% – {:.1}%",
                    label(&line.side, self.max_rounds),
                    line.probability * 100.0,
                    interval.low * 100.0,
                    interval.high * 100.0
                );
            }
        }
        let _ = writeln!(
            out,
            "\nexpected rounds to the end: {:.3}",
            self.expected_rounds
        );
        out
    }

    /// A side's chance to win (0 for a side not in the fight).
    pub fn chance(&self, side: &str) -> f64 {
        self.wins
            .iter()
            .find(|line| line.side == side)
            .map_or(0.0, |line| line.probability)
    }
}

fn label(side: &str, max_rounds: u32) -> String {
    if side == NOBODY {
        format!("{NOBODY} (round {max_rounds})")
    } else {
        side.to_string()
    }
}
