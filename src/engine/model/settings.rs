//! The settings of ruleset.toml a fight reads: how a round runs and what one fight may
//! take at most.

use serde::{Deserialize, Serialize};

/// What a fight reads of ruleset.toml, as the loader resolved it.
#[derive(Clone, Debug)]
pub struct FightSettings {
    /// The game's name as a person writes it, for the head of the log.
    pub title: String,
    /// Turns cycle in initiative order while anyone has actions left (true), or the
    /// round is one pass (false).
    pub cycle: bool,
    /// A fight still undecided after so many rounds ends with no winner.
    pub max_rounds: u32,
    /// What one fight may take at most before it is stopped.
    pub limits: FightLimits,
    /// The roll table whose rows are a combatant's hit locations, if the ruleset has them.
    pub hit_locations: Option<String>,
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
    /// row's script and the tactics module counted (the script sandbox's own limit is
    /// per call).
    #[serde(default = "FightLimits::default_script_operations")]
    pub script_operations: u64,
    /// Bytes of free text the fight's log may keep: notes scripts write, reasons, purposes
    /// and labels (a note may be 10,000 characters; the events limit alone would let a
    /// log grow to gigabytes).
    #[serde(default = "FightLimits::default_log_bytes")]
    pub log_bytes: u64,
    /// Exchanges run one inside another (combat.toml's `strike EXCHANGE`, done by a rule
    /// of an exchange): how deep they may go, so that an exchange that starts itself
    /// stops.
    #[serde(default = "FightLimits::default_nested_exchanges")]
    pub nested_exchanges: u64,
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

    fn default_nested_exchanges() -> u64 {
        10
    }
}

impl Default for FightLimits {
    fn default() -> Self {
        FightLimits {
            turns: Self::default_turns(),
            events: Self::default_events(),
            script_operations: Self::default_script_operations(),
            log_bytes: Self::default_log_bytes(),
            nested_exchanges: Self::default_nested_exchanges(),
        }
    }
}
