//! What a walk of whole fights (`analysis::fight_odds`) reads of a fight between its
//! steps: a key for the fight's state, the same for every two fights whose rest goes
//! the same way given the same dice, and the die a walked plan stopped at.

use std::fmt::Write;

use super::FightHandle;
use crate::dice::RolledDie;

/// What of a fight's state the key holds beside the combatants' lasting state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyParts {
    /// This round's order of turns and the turns taken in it (inside a round).
    pub order: bool,
    /// Each combatant's initiative this round.
    pub initiative: bool,
    /// Each combatant's initiative kept from the last roll (a ruleset that keeps it).
    pub kept_initiative: bool,
}

impl FightHandle {
    /// The fight's state as a key: the round; every combatant's hit points and worst
    /// wound by location, weapons (hit points, place, where lodged), conditions with what
    /// is left of them, actions left and to lose, whether out, the numbers kept on it and
    /// toward others; the distances and who waits for whom; and what `parts` adds.
    /// Neither the log nor the counts against the limits (turns, script operations, log
    /// bytes) are in it.
    pub fn state_key(&self, parts: KeyParts) -> String {
        let core = self.core();
        let mut key = String::with_capacity(256);
        let _ = write!(key, "r{}", core.round);
        if parts.order {
            let _ = write!(key, " order{:?}", core.order);
        }
        for c in &core.combatants {
            let _ = write!(key, " |{}", c.spec.name);
            for (name, l) in c.locations.iter() {
                let _ = write!(key, " {name}:{}", l.hit_points);
                if let Some(worst) = l.worst_wound {
                    let _ = write!(key, "/{worst}");
                }
            }
            for w in &c.weapons {
                let _ = write!(
                    key,
                    " {}:{}:{:?}:{:?}",
                    w.id, w.hit_points, w.place, w.lodged_in
                );
            }
            for condition in c.conditions() {
                let _ = write!(key, " +{}:{:?}", condition.name, condition.remaining);
            }
            let _ = write!(
                key,
                " a{} l{} o{}",
                c.actions_left, c.actions_to_lose, c.out as u8
            );
            if parts.initiative {
                let _ = write!(key, " i{}", c.initiative);
            }
            if parts.kept_initiative {
                let _ = write!(key, " k{:?}", c.rolled_initiative);
            }
            let _ = write!(key, " v{:?} t{:?}", c.values, c.toward);
        }
        let _ = write!(key, " d{:?} w{:?}", core.distances, core.waiting);
        key
    }

    /// How many dice the fight has drawn.
    pub fn dice_drawn(&self) -> u64 {
        self.core().dice.rolls()
    }

    /// The die past the plan of walked dice ([`crate::dice::DiceSource::walked`]), once
    /// the fight wanted one.
    pub fn die_wanted(&self) -> Option<RolledDie> {
        self.core().dice.wanted().cloned()
    }

    /// Whether the ruleset keeps a combatant's initiative from one round to the next
    /// (`[turn] keep_initiative`), or leaves initiative to a hook, which may read it.
    pub fn keeps_initiative(&self) -> bool {
        match self.combat() {
            Some(combat) => {
                combat.turn.initiative.is_none() || combat.turn.keep_initiative.is_some()
            }
            None => true,
        }
    }
}
