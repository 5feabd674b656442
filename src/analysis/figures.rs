//! What one fight amounts to, as counts a report can add up: who won, how many rounds,
//! and how often each thing of the typed log happened (wounds by level and location,
//! hits, test results, table rows, choices, conditions, who fell). Every figure is a
//! whole number per fight, so sums over fights are exact and independent of the order
//! in which threads add them up.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::engine::Outcome;
use crate::log::Event;

/// The groups of a report, in the order they are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    /// Fights won by a side (`nobody` when the round limit came first).
    Wins,
    /// Rounds to the end of a fight (compare's line of the mean).
    Rounds,
    /// What one exchange did to the defender (hit, damage): `odds` and single exchanges.
    Exchange,
    /// Tests by combatant, test and result: `odds` and single exchanges.
    TestsBy,
    /// Fights in which a combatant ended out of the fight.
    OutOfFight,
    /// Wounds by the ruleset's level and the location.
    Wounds,
    /// Hits that did damage, by location.
    Hits,
    /// Damage taken, by location (the amount after armour).
    Damage,
    /// Tests by their result (the success levels the ruleset declares).
    TestResults,
    /// Rows rolled on each table (critical and mishap tables among them).
    TableRows,
    /// Options chosen, by decision (actions, reactions, effects).
    Choices,
    /// Conditions set, by name.
    Conditions,
}

impl Section {
    pub fn title(self) -> &'static str {
        match self {
            Section::Wins => "wins",
            Section::Rounds => "rounds to the end",
            Section::Exchange => "the defender",
            Section::TestsBy => "tests",
            Section::OutOfFight => "out of the fight",
            Section::Wounds => "wounds (level at location)",
            Section::Hits => "hits that did damage, by location",
            Section::Damage => "damage taken, by location",
            Section::TestResults => "test results",
            Section::TableRows => "table rows rolled",
            Section::Choices => "choices made",
            Section::Conditions => "conditions set",
        }
    }
}

/// One figure: a section and what is counted in it, e.g. `(Wounds, "serious at left_arm")`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FigureKey {
    pub section: Section,
    pub name: String,
}

impl fmt::Display for FigureKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.section.title(), self.name)
    }
}

/// What one fight amounts to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FightFigures {
    pub rounds: u32,
    pub counts: BTreeMap<FigureKey, i64>,
}

impl FightFigures {
    /// Count the events of one fight and its outcome.
    pub fn count(outcome: &Outcome, events: &[Event]) -> Self {
        let mut figures = FightFigures::of_events(events);
        figures.rounds = outcome.rounds;
        let winner = outcome.winner.as_deref().unwrap_or(NOBODY);
        figures.add(Section::Wins, winner, 1);
        figures
    }

    /// Count the events of a part of a fight (one turn, say).
    pub fn of_events(events: &[Event]) -> Self {
        let mut figures = FightFigures::default();
        for event in events {
            figures.add_event(event);
        }
        figures
    }

    pub fn add(&mut self, section: Section, name: &str, amount: i64) {
        let key = FigureKey {
            section,
            name: name.to_string(),
        };
        *self.counts.entry(key).or_insert(0) += amount;
    }

    fn add_event(&mut self, event: &Event) {
        match event {
            Event::OutOfFight { who } => self.add(Section::OutOfFight, who, 1),
            Event::Wound {
                location, level, ..
            } => {
                let name = match location {
                    Some(location) => format!("{level} at {location}"),
                    None => level.to_string(),
                };
                self.add(Section::Wounds, &name, 1);
            }
            Event::Damage {
                location, amount, ..
            } if *amount > 0 => {
                self.add(Section::Hits, location, 1);
                self.add(Section::Damage, location, *amount);
            }
            Event::Test { result, .. } => self.add(Section::TestResults, result, 1),
            Event::TableRow { table, row, .. } => {
                self.add(Section::TableRows, &format!("{table}: {row}"), 1);
            }
            Event::Choice {
                decision, chosen, ..
            } => self.add(Section::Choices, &format!("{decision}: {chosen}"), 1),
            Event::ConditionSet { condition, .. } => {
                self.add(Section::Conditions, condition, 1);
            }
            _ => {}
        }
    }

    /// Whether `side` won this fight.
    pub fn won(&self, side: &str) -> bool {
        self.counts.contains_key(&FigureKey {
            section: Section::Wins,
            name: side.to_string(),
        })
    }
}

/// The "side" of fights nobody won (the round limit came first, or all fell together).
pub const NOBODY: &str = "nobody";
