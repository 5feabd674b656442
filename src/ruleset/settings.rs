//! `ruleset.toml`: what a ruleset declares about itself: its vocabulary (success levels,
//! grades, weapon sizes, reaches and traits, conditions) and its formulas.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use toml::Spanned;

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

/// The default budget of script operations a fight: 250 million. The largest fight
/// measured among the shipped rulesets' scenarios (300 fights of each, 3,000 of the
/// longest) ran about 1.1 million, so this is over 200 times that, and a runaway still
/// stops within seconds.
const SCRIPT_OPERATIONS_DEFAULT: u64 = 250_000_000;

/// The budget of one fight (`[limits]`): a fight that reaches one is stopped with a
/// message naming it, so that a scenario with a million actions a round, or a script
/// that logs without end, can neither run forever nor fill the memory.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FightLimits {
    /// Turns in the whole fight, every combatant's counted.
    #[serde(default = "FightLimits::default_turns")]
    pub turns: u64,
    /// Events the fight's log may keep (a duel of two keeps a few hundred).
    #[serde(default = "FightLimits::default_events")]
    pub events: u64,
    /// Operations of the ruleset's scripts in the whole fight, every call of a hook, a
    /// row's script and the tactics module counted (rhai's own limit is per call).
    #[serde(default = "FightLimits::default_script_operations")]
    pub script_operations: u64,
    /// Bytes of free text the fight's log may keep: notes scripts write, reasons, purposes
    /// and labels (a note may be 10,000 characters; the events limit alone would let a
    /// log grow to gigabytes).
    #[serde(default = "FightLimits::default_log_bytes")]
    pub log_bytes: u64,
}

impl FightLimits {
    fn default_turns() -> u64 {
        10_000
    }

    fn default_events() -> u64 {
        200_000
    }

    fn default_script_operations() -> u64 {
        SCRIPT_OPERATIONS_DEFAULT
    }

    fn default_log_bytes() -> u64 {
        16 * 1024 * 1024
    }
}

impl Default for FightLimits {
    fn default() -> Self {
        FightLimits {
            turns: Self::default_turns(),
            events: Self::default_events(),
            script_operations: Self::default_script_operations(),
            log_bytes: Self::default_log_bytes(),
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
