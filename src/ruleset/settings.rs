//! `ruleset.toml`: what a ruleset declares about itself: its vocabulary (success levels,
//! grades, weapon sizes, reaches and traits, conditions) and its formulas.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::engine::model::FightLimits;

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The directory name, e.g. `legend`.
    pub name: String,
    /// The game's name as a person writes it.
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// The text the rules are transcribed from.
    #[serde(default)]
    pub source: String,
    /// The results of a test, best first; matrices `by success_level` use them as keys.
    pub success_levels: Vec<Spanned<String>>,
    /// Difficulty Grades a modifier may name with `grade <name>`, easiest first.
    #[serde(default)]
    pub difficulty_grades: Vec<Spanned<String>>,
    /// Weapon sizes, smallest first.
    #[serde(default)]
    pub weapon_sizes: Vec<Spanned<String>>,
    /// Weapon reaches, shortest first.
    #[serde(default)]
    pub weapon_reaches: Vec<Spanned<String>>,
    /// Weapon traits an effect may require and a weapon may have.
    #[serde(default)]
    pub weapon_traits: Vec<Spanned<String>>,
    /// Characteristics a combatant has, e.g. STR, DEX.
    #[serde(default)]
    pub characteristics: Vec<Spanned<String>>,
    /// Statistics a scenario may give a combatant (name → kind), e.g.
    /// `strike_rank = "number"`, `damage_modifier = "dice"`.
    #[serde(default)]
    pub statistics: IndexMap<String, StatisticKind>,
    /// The roll table whose rows are a combatant's hit locations, if the ruleset has them.
    #[serde(default)]
    pub hit_locations: Option<Spanned<String>>,
    /// Options a scenario may switch on for a whole fight (optional rules): name → meaning.
    #[serde(default)]
    pub fight_options: IndexMap<String, String>,
    /// Options a scenario may give one combatant (e.g. NPC rules): name → meaning.
    #[serde(default)]
    pub combatant_options: IndexMap<String, String>,
    /// Conditions tables and scripts may set: name → what it means.
    #[serde(default)]
    pub conditions: IndexMap<String, String>,
    /// Named formulas, each one rhai expression: name → expression.
    #[serde(default)]
    pub formulas: IndexMap<String, Spanned<String>>,
    /// How the engine runs a round.
    #[serde(default)]
    pub sequence: Sequence,
    /// What one fight may take at most before it is stopped.
    #[serde(default)]
    pub limits: FightLimits,
    /// The script functions the engine calls at each step: hook → `module::function`.
    #[serde(default)]
    pub hooks: IndexMap<String, Spanned<String>>,
    /// The script module whose functions answer decisions (`choose_<decision>`).
    #[serde(default)]
    pub tactics: Option<Spanned<String>>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Sequence {
    /// Turns cycle in initiative order while anyone has actions left (true), or the
    /// round is one pass (false).
    #[serde(default = "yes")]
    pub cycle: bool,
    /// A fight still undecided after so many rounds ends with no winner: 1 to
    /// [`Sequence::MOST_ROUNDS`].
    #[serde(default = "hundred")]
    pub max_rounds: Spanned<u32>,
}

impl Sequence {
    /// The most `max_rounds` may be. A round in which nobody acts takes no turn, so the
    /// turn limit alone would not end a fight of four billion empty rounds.
    pub const MOST_ROUNDS: u32 = 10_000;
}

impl Default for Sequence {
    fn default() -> Self {
        Sequence {
            cycle: true,
            max_rounds: hundred(),
        }
    }
}

fn yes() -> bool {
    true
}

fn hundred() -> Spanned<u32> {
    Spanned::new(0..0, 100)
}

/// The domains a matrix axis may be bound to with `by <domain>`.
pub const DOMAINS: [&str; 4] = [
    "success_level",
    "difficulty_grade",
    "weapon_size",
    "weapon_reach",
];

impl Settings {
    pub fn domain(&self, domain: &str) -> Option<Vec<String>> {
        let names = match domain {
            "success_level" => &self.success_levels,
            "difficulty_grade" => &self.difficulty_grades,
            "weapon_size" => &self.weapon_sizes,
            "weapon_reach" => &self.weapon_reaches,
            _ => return None,
        };
        Some(names_of(names))
    }

    pub fn success_level_names(&self) -> Vec<String> {
        names_of(&self.success_levels)
    }

    pub fn grade_names(&self) -> Vec<String> {
        names_of(&self.difficulty_grades)
    }

    pub fn trait_names(&self) -> Vec<String> {
        names_of(&self.weapon_traits)
    }

    pub fn condition_names(&self) -> Vec<String> {
        self.conditions.keys().cloned().collect()
    }
}

fn names_of(names: &[Spanned<String>]) -> Vec<String> {
    names.iter().map(|n| n.get_ref().clone()).collect()
}

/// What kind of value a statistic holds in a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StatisticKind {
    /// A whole number, e.g. `strike_rank = 15`.
    Number,
    /// A dice expression, e.g. `damage_modifier = "+1D2"`.
    Dice,
    /// Free text.
    Text,
}
