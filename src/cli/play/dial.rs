//! The automation dial: for each step of a fight, whether the person at the table is
//! asked (`manual`), offered the tactics script's choice or affray's roll (`suggest`), or
//! not asked at all (`auto`).
//!
//! A step is a decision name as the ruleset's scripts ask it (`action`, `manoeuvre`, ...),
//! `choices` for every decision, `dice` for every die, or `dice:WORD` for the dice whose
//! purpose begins with WORD (`dice:initiative`, `dice:damage`, `dice:attack`; a roll on a
//! table is matched by the table's name, `dice:humanoid_hit_location`). A setting may be
//! for one combatant: `Kara:dice=auto`. The most particular setting wins.

use std::fmt;

use affray::names::suggest;
use affray::source::excerpt;
use indexmap::IndexMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Manual,
    Suggest,
    Auto,
}

impl Level {
    fn parse(text: &str) -> Option<Level> {
        match text {
            "manual" => Some(Level::Manual),
            "suggest" => Some(Level::Suggest),
            "auto" => Some(Level::Auto),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Manual => "manual",
            Level::Suggest => "suggest",
            Level::Auto => "auto",
        })
    }
}

/// Every setting made, in order (`--dial` options, then `dial` commands).
#[derive(Clone, Debug, Default)]
pub struct Dials {
    /// (combatant or none, step) → level.
    settings: IndexMap<(Option<String>, String), Level>,
}

/// The generic steps, and what they default to: decisions are suggested, dice are asked
/// (the table rolls its own dice).
const ALL_CHOICES: &str = "choices";
const ALL_DICE: &str = "dice";

/// Why a setting is refused, and what to write instead when there is a close name.
#[derive(Debug)]
pub struct DialError {
    pub reason: String,
    pub help: Option<String>,
}

impl fmt::Display for DialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.help {
            Some(help) => write!(f, "{}; {help}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl From<String> for DialError {
    fn from(reason: String) -> Self {
        DialError { reason, help: None }
    }
}

/// What a setting may name in one fight: its combatants, and the decisions its ruleset
/// is known to ask.
pub struct Known {
    combatants: Vec<String>,
    decisions: Vec<String>,
}

impl Known {
    /// `decisions` are those the ruleset is known to ask
    /// ([`affray::ruleset::Ruleset::known_decisions`]).
    pub fn new(decisions: Vec<String>, combatants: Vec<String>) -> Self {
        Known {
            combatants,
            decisions,
        }
    }
}

impl Dials {
    /// Apply `STEP=LEVEL` or `NAME:STEP=LEVEL`; the reason when it is not one. With what
    /// the fight `knows`, a combatant it does not have is refused, and so is a step a
    /// letter or two off one of its decisions ("did you mean"); a step far from all of
    /// them is kept, since a script may ask a decision by a name no list holds.
    pub fn set(&mut self, setting: &str, knows: Option<&Known>) -> Result<(), DialError> {
        let (step, level) = setting.split_once('=').ok_or_else(|| {
            DialError::from(format!(
                "`{}` is not STEP=LEVEL (e.g. dice=auto)",
                excerpt(setting)
            ))
        })?;
        let level = Level::parse(level.trim()).ok_or_else(|| {
            DialError::from(format!(
                "`{}` is not a level: manual, suggest or auto",
                excerpt(level.trim())
            ))
        })?;
        let step = step.trim();
        // `dice:attack` is a step; `Ysolde:dice` and `Ysolde:dice:attack` name a combatant.
        let (who, step) = match step.split_once(':') {
            Some((first, rest)) if first != ALL_DICE => (Some(first.to_string()), rest),
            _ => (None, step),
        };
        if step.is_empty() {
            return Err(format!("`{}` names no step", excerpt(setting)).into());
        }
        if let Some(knows) = knows {
            if let Some(who) = &who
                && !knows.combatants.contains(who)
            {
                let close = suggest(who, &knows.combatants)
                    .map_or(String::new(), |close| format!("did you mean `{close}`? "));
                return Err(DialError {
                    reason: format!("`{}` is no combatant of this fight", excerpt(who)),
                    help: Some(format!(
                        "{close}The combatants: {}",
                        knows.combatants.join(", ")
                    )),
                });
            }
            let generic = step == ALL_CHOICES || step == ALL_DICE || step.starts_with("dice:");
            if !generic
                && !knows.decisions.iter().any(|d| d == step)
                && let Some(close) = suggest(step, &knows.decisions)
            {
                return Err(DialError {
                    reason: format!("`{}` is no step of this fight", excerpt(step)),
                    help: Some(format!(
                        "did you mean `{close}`? The steps: choices, dice, dice:WORD, and the decisions {}",
                        knows.decisions.join(", ")
                    )),
                });
            }
        }
        self.settings.insert((who, step.to_string()), level);
        Ok(())
    }

    /// The settings as they were given, to be saved and applied again on resume.
    pub fn written(&self) -> Vec<String> {
        self.settings
            .iter()
            .map(|((who, step), level)| match who {
                Some(who) => format!("{who}:{step}={level}"),
                None => format!("{step}={level}"),
            })
            .collect()
    }

    fn find(&self, who: Option<&str>, steps: &[&str]) -> Option<Level> {
        for step in steps {
            if let Some(who) = who {
                let key = (Some(who.to_string()), step.to_string());
                if let Some(level) = self.settings.get(&key) {
                    return Some(*level);
                }
            }
            if let Some(level) = self.settings.get(&(None, step.to_string())) {
                return Some(*level);
            }
        }
        None
    }

    /// The level of `who`'s decision `decision`.
    pub fn for_decision(&self, who: &str, decision: &str) -> Level {
        self.find(Some(who), &[decision, ALL_CHOICES])
            .unwrap_or(Level::Suggest)
    }

    /// The level of a die rolled for `purpose` (for `who`, when the purpose names one).
    pub fn for_die(&self, who: Option<&str>, purpose: &str) -> Level {
        let step = format!("{ALL_DICE}:{}", dice_step(purpose));
        self.find(who, &[&step, ALL_DICE]).unwrap_or(Level::Manual)
    }
}

/// The word a die's purpose is matched by: its first word, or for a roll on a table
/// (`1D20 on humanoid_hit_location`) the table's name.
pub fn dice_step(purpose: &str) -> &str {
    let mut words = purpose.split_whitespace();
    let first = words.next().unwrap_or_default();
    let starts_with_die = first.chars().next().is_some_and(|c| c.is_ascii_digit());
    match (starts_with_die, words.next(), words.next()) {
        (true, Some("on"), Some(table)) => table,
        _ => first,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_particular_setting_wins() {
        let mut dials = Dials::default();
        dials.set("dice=auto", None).unwrap();
        dials.set("dice:attack=manual", None).unwrap();
        dials.set("Ysolde:dice:attack=suggest", None).unwrap();
        dials.set("Brannoc:manoeuvre=manual", None).unwrap();
        assert_eq!(dials.for_die(None, "initiative for Brannoc"), Level::Auto);
        assert_eq!(
            dials.for_die(Some("Brannoc"), "attack with Long Sword"),
            Level::Manual
        );
        assert_eq!(
            dials.for_die(Some("Ysolde"), "attack with Long Sword"),
            Level::Suggest
        );
        assert_eq!(dials.for_decision("Brannoc", "manoeuvre"), Level::Manual);
        assert_eq!(dials.for_decision("Ysolde", "manoeuvre"), Level::Suggest);
        assert_eq!(
            dials.written(),
            [
                "dice=auto",
                "dice:attack=manual",
                "Ysolde:dice:attack=suggest",
                "Brannoc:manoeuvre=manual"
            ]
        );
    }

    #[test]
    fn defaults_ask_dice_and_suggest_choices() {
        let dials = Dials::default();
        assert_eq!(dials.for_die(None, "damage"), Level::Manual);
        assert_eq!(dials.for_decision("Ysolde", "action"), Level::Suggest);
    }

    #[test]
    fn table_rolls_are_matched_by_the_table() {
        assert_eq!(
            dice_step("1D20 on humanoid_hit_location"),
            "humanoid_hit_location"
        );
        assert_eq!(dice_step("attack with Long Sword for Ysolde"), "attack");
    }

    #[test]
    fn bad_settings_say_why() {
        let mut dials = Dials::default();
        assert!(
            dials
                .set("dice", None)
                .unwrap_err()
                .to_string()
                .contains("STEP=LEVEL")
        );
        assert!(
            dials
                .set("dice=sometimes", None)
                .unwrap_err()
                .to_string()
                .contains("manual, suggest or auto")
        );
    }
}
