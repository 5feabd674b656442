//! Every decision of a fight goes through one chooser. A decision has a name (`action`,
//! `reaction`, `effect`, `target`, ...), the combatant who decides, and its legal
//! options; the chooser answers with one of them.

use std::collections::VecDeque;

use crate::scenario::ScriptedChoice;

use super::{FightError, FightHandle};

#[derive(Clone, Debug)]
pub struct Decision {
    pub who: usize,
    pub who_name: String,
    pub name: String,
    pub options: Vec<String>,
}

/// Answers decisions. The default is the ruleset's tactics script; a scenario can script
/// choices in advance; a person at the terminal is another implementation.
pub trait Chooser: Send {
    /// The chosen option (one of `decision.options`) and who chose it, for the log.
    fn choose(
        &mut self,
        fight: &FightHandle,
        decision: &Decision,
    ) -> Result<(String, &'static str), FightError>;
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
    ) -> Result<(String, &'static str), FightError> {
        let applies = self.pending.front().is_some_and(|next| {
            next.decision == decision.name
                && next.by.as_ref().is_none_or(|by| *by == decision.who_name)
        });
        if !applies {
            return self.fallback.choose(fight, decision);
        }
        let Some(next) = self.pending.pop_front() else {
            return self.fallback.choose(fight, decision);
        };
        if decision.options.contains(&next.choose) {
            Ok((next.choose, "scenario"))
        } else {
            Err(FightError::IllegalChoice {
                who: decision.who_name.clone(),
                decision: decision.name.clone(),
                chosen: next.choose,
                options: decision.options.join(", "),
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
    ) -> Result<(String, &'static str), FightError> {
        Ok((
            decision.options.first().cloned().unwrap_or_default(),
            "first option",
        ))
    }
}
