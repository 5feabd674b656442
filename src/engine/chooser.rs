//! Every decision of a fight goes through one chooser. A decision has a name (`action`,
//! `reaction`, `effect`, `target`, ...), the combatant who decides, and its legal
//! options; the chooser answers with one of them.

use std::collections::VecDeque;

use crate::names::Name;
use crate::scenario::ScriptedChoice;

use super::{FightError, FightHandle};

#[derive(Clone, Debug)]
pub struct Decision {
    pub who: usize,
    pub who_name: Name,
    pub name: Name,
    pub options: Vec<Name>,
}

/// Answers decisions. The default is the ruleset's tactics script; a scenario can script
/// choices in advance; a person at the terminal is another implementation.
pub trait Chooser: Send {
    /// The chosen option (one of `decision.options`) and who chose it, for the log.
    fn choose(
        &mut self,
        fight: &FightHandle,
        decision: &Decision,
    ) -> Result<(Name, &'static str), FightError>;
}

/// Scripted choices first, in order, for the decisions they name; everything else by
/// the fallback chooser.
pub struct ScriptedChooser<C> {
    pending: VecDeque<ScriptedChoice>,
    fallback: C,
}

impl<C: Chooser> ScriptedChooser<C> {
    pub fn new(choices: &[ScriptedChoice], fallback: C) -> Self {
        ScriptedChooser {
            pending: choices.iter().cloned().collect(),
            fallback,
        }
    }
}

impl<C: Chooser> Chooser for ScriptedChooser<C> {
    fn choose(
        &mut self,
        fight: &FightHandle,
        decision: &Decision,
    ) -> Result<(Name, &'static str), FightError> {
        let applies = self.pending.front().is_some_and(|next| {
            decision.name == next.decision
                && next.by.as_ref().is_none_or(|by| decision.who_name == *by)
        });
        if !applies {
            return self.fallback.choose(fight, decision);
        }
        let Some(next) = self.pending.pop_front() else {
            return self.fallback.choose(fight, decision);
        };
        if let Some(chosen) = decision.options.iter().find(|o| **o == next.choose) {
            Ok((*chosen, "scenario"))
        } else {
            Err(FightError::IllegalChoice {
                who: decision.who_name.to_string(),
                decision: decision.name.to_string(),
                chosen: next.choose,
                options: crate::names::join(&decision.options, ", "),
            })
        }
    }
}

/// Always the first option: for rulesets without a tactics script.
pub struct FirstOption;

impl Chooser for FirstOption {
    fn choose(
        &mut self,
        _: &FightHandle,
        decision: &Decision,
    ) -> Result<(Name, &'static str), FightError> {
        Ok((
            decision
                .options
                .first()
                .copied()
                .unwrap_or_else(|| Name::new("")),
            "first option",
        ))
    }
}
