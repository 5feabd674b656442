//! Every decision of a fight goes through one chooser. A decision has a name (`action`,
//! `reaction`, `effect`, `target`, ...), the combatant who decides, and its legal
//! options; the chooser answers with one of them.

use std::collections::VecDeque;

use crate::engine::model::ScriptedChoice;
use crate::names::Name;

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

    /// The scripted choices this chooser holds that were never used (none for a chooser
    /// that holds none).
    fn unused(&self) -> Vec<ScriptedChoice> {
        Vec::new()
    }
}

/// Scripted choices first, for the decisions they name; everything else by the fallback
/// chooser. Entries without `who` form a queue whose head alone is looked at (a decision
/// it does not name goes to the fallback); entries with `who` are kept aside and each is
/// used at the first decision of its combatant (in its `round`, if it has one) that it
/// names and that offers its choice, whatever the queue holds.
pub struct ScriptedChooser<C> {
    pending: VecDeque<ScriptedChoice>,
    /// The entries with `who`, in file order; `None` once used.
    keyed: Vec<Option<ScriptedChoice>>,
    fallback: C,
}

impl<C: Chooser> ScriptedChooser<C> {
    pub fn new(choices: &[ScriptedChoice], fallback: C) -> Self {
        ScriptedChooser {
            pending: choices
                .iter()
                .filter(|c| c.who.is_none())
                .cloned()
                .collect(),
            keyed: choices
                .iter()
                .filter(|c| c.who.is_some())
                .cloned()
                .map(Some)
                .collect(),
            fallback,
        }
    }

    /// The first entry with `who` that answers `decision` in `round`, taken.
    fn keyed_answer(&mut self, fight: &FightHandle, decision: &Decision) -> Option<Name> {
        if self.keyed.iter().all(Option::is_none) {
            return None;
        }
        let round = fight.core().round;
        let slot = self.keyed.iter_mut().find(|slot| {
            slot.as_ref().is_some_and(|entry| {
                entry.decision == decision.name
                    && entry.who == Some(decision.who_name)
                    && entry.round.is_none_or(|r| r == round)
                    && decision.options.contains(&entry.choose)
            })
        })?;
        slot.take().map(|entry| entry.choose)
    }
}

impl<C: Chooser> Chooser for ScriptedChooser<C> {
    fn choose(
        &mut self,
        fight: &FightHandle,
        decision: &Decision,
    ) -> Result<(Name, &'static str), FightError> {
        if let Some(chosen) = self.keyed_answer(fight, decision) {
            return Ok((chosen, "scenario"));
        }
        let applies = self.pending.front().is_some_and(|next| {
            decision.name == next.decision && next.by.is_none_or(|by| decision.who_name == by)
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
                chosen: next.choose.to_string(),
                options: crate::names::join(&decision.options, ", "),
            })
        }
    }

    fn unused(&self) -> Vec<ScriptedChoice> {
        let mut left: Vec<ScriptedChoice> = self
            .pending
            .iter()
            .cloned()
            .chain(self.keyed.iter().flatten().cloned())
            .collect();
        left.sort_by_key(|entry| entry.span);
        left
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
