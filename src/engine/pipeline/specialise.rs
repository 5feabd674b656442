//! `combat.toml` specialised to a fight: what cannot change while it runs (the
//! scenario's options and situational modifiers, the figures of its combatants) is
//! folded into the expressions before the first turn, so that a fight in which no
//! combatant has an option never reads `self.option.NAME` again. A specialised combat
//! is made once for each set of such facts and shared by every fight that has them
//! (all the fights of one scenario, in `simulate`).

use std::sync::{Arc, Mutex};

use crate::expr::{Condition, Known, Knows, Number, Slot};
use crate::names::Name;

use super::super::Core;
use super::super::reads::{Bound, Read, Who, World};
use super::{Combat, EffectsStage, Exchange, Reaction, TestKind, Turn, TurnRule};
use crate::ruleset::Equipment;

/// What each read of `combat.toml` is known to give for the whole of a fight (`None`:
/// read as the fight goes): the key a specialised combat is kept under.
pub type Facts = Vec<Option<Known>>;

/// The specialised combats made so far, by their facts; the oldest is let go past
/// [`Specialised::KEPT`] (a GM's session that tries many scenarios).
#[derive(Default)]
pub struct Specialised {
    made: Mutex<Vec<(Facts, Arc<Combat>)>>,
}

impl std::fmt::Debug for Specialised {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Specialised")
    }
}

impl Specialised {
    const KEPT: usize = 16;

    /// `combat` specialised to `facts`: made the first time, shared after.
    pub fn get(&self, combat: &Combat, facts: Facts) -> Arc<Combat> {
        let mut made = self.made.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, known)) = made.iter().find(|(f, _)| *f == facts) {
            return known.clone();
        }
        let specialised = Arc::new(combat.specialised(&facts));
        if made.len() == Self::KEPT {
            made.remove(0);
        }
        made.push((facts, specialised.clone()));
        specialised
    }
}

/// What each of `reads` is known to give in a fight of these combatants: a figure of
/// the scenario that is the same for every one of them (and, read of a combatant an
/// expression may not have, the same as when none is there), or a fight option.
pub fn facts(
    reads: &[Read],
    core: &Core,
    equipment: &Equipment,
    vocabulary: &super::super::reads::Vocabulary,
    fight_options: &[Name],
    fight_modifiers: &[Name],
) -> Facts {
    let world = World {
        core,
        equipment,
        vocabulary,
        fight_options,
        fight_modifiers,
        offered: &[],
    };
    reads
        .iter()
        .map(|read| {
            let (who, flag) = fixed(read)?;
            let value = |me: usize, other: Option<usize>| {
                let bound = Bound {
                    me,
                    other,
                    ..Bound::default()
                };
                if flag {
                    Known::Flag(world.flag(&bound, read))
                } else {
                    Known::Number(world.number(&bound, read))
                }
            };
            let each = (0..core.combatants.len()).map(|i| value(i, Some(i)));
            // `self` is always someone; `other` may be no one, where the read gives
            // what it gives for no one.
            let nobody = match who {
                Some(Who::Me) => None,
                _ => Some(value(0, None)),
            };
            let mut values = nobody.into_iter().chain(each);
            let first = values.next()?;
            values.all(|v| v == first).then_some(first)
        })
        .collect()
}

/// Whether a read gives the same all fight long (the scenario's figures, its options
/// and modifiers), and then whose it reads and whether it is a flag; the rest change.
fn fixed(read: &Read) -> Option<(Option<Who>, bool)> {
    match read {
        Read::Option(who, _) | Read::ScenarioModifier(who, _) | Read::Given(who, _) => {
            Some((Some(*who), true))
        }
        Read::FightOption(_) => Some((None, true)),
        Read::Characteristic(who, _)
        | Read::Skill(who, _)
        | Read::Statistic(who, _)
        | Read::SkillOf(who, _) => Some((Some(*who), false)),
        _ => None,
    }
    .filter(|(who, _)| matches!(who, None | Some(Who::Me) | Some(Who::Other)))
}

impl Combat {
    /// This combat with `facts` folded into every expression of the turn and the
    /// exchange; a modifier or rule whose guard can never hold is dropped.
    pub fn specialised(&self, facts: &Facts) -> Combat {
        let knows = |slot: Slot| facts.get(slot.0 as usize).copied().flatten();
        let knows: Knows<'_> = &knows;
        let mut combat = self.clone();
        combat.turn.fold(knows);
        for test in &mut combat.tests {
            test.fold(knows);
        }
        for exchange in &mut combat.exchanges {
            exchange.fold(knows);
        }
        combat
    }
}

fn fold(condition: &mut Condition, knows: Knows<'_>) {
    *condition = condition.fold(knows);
}

fn fold_some(condition: &mut Option<Condition>, knows: Knows<'_>) {
    if let Some(condition) = condition {
        fold(condition, knows);
    }
}

fn fold_number(number: &mut Number, knows: Knows<'_>) {
    *number = number.fold(knows);
}

fn fold_some_number(number: &mut Option<Number>, knows: Knows<'_>) {
    if let Some(number) = number {
        fold_number(number, knows);
    }
}

fn never(guard: &Option<Condition>) -> bool {
    matches!(guard, Some(Condition::Const(false)))
}

fn fold_rules(rules: &mut Vec<TurnRule>, knows: Knows<'_>) {
    for rule in rules.iter_mut() {
        fold_some(&mut rule.guard, knows);
    }
    rules.retain(|rule| !never(&rule.guard));
}

impl Turn {
    fn fold(&mut self, knows: Knows<'_>) {
        fold_some_number(&mut self.initiative, knows);
        fold_some(&mut self.keep_initiative, knows);
        fold_some_number(&mut self.initiative_modifier, knows);
        if let Some(hands) = &mut self.hands {
            fold_number(&mut hands.needs, knows);
        }
        fold_rules(&mut self.setup, knows);
        fold_rules(&mut self.round_start, knows);
        fold_rules(&mut self.round_end, knows);
        fold_some_number(&mut self.tie_break, knows);
        fold_some_number(&mut self.actions, knows);
        fold_some(&mut self.out_of_fight, knows);
        fold_some(&mut self.hooks_if, knows);
        // An action never offered stays in the list: the list is what `dump` and the
        // hooks see, and its guard is now a constant.
        for action in &mut self.choices {
            fold_some(&mut action.guard, knows);
        }
    }
}

impl TestKind {
    fn fold(&mut self, knows: Knows<'_>) {
        fold_number(&mut self.roll, knows);
        fold_some_number(&mut self.total, knows);
        fold_number(&mut self.target, knows);
        for modifier in &mut self.modifiers {
            fold(&mut modifier.guard, knows);
        }
        self.modifiers
            .retain(|modifier| modifier.guard != Condition::Const(false));
        for level in &mut self.levels {
            fold(&mut level.guard, knows);
        }
    }
}

impl Reaction {
    fn fold(&mut self, knows: Knows<'_>) {
        fold_some(&mut self.guard, knows);
        fold_some(&mut self.free, knows);
        fold_some(&mut self.withdraw, knows);
    }
}

impl EffectsStage {
    fn fold(&mut self, knows: Knows<'_>) {
        fold_some_number(&mut self.count, knows);
        for effect in &mut self.effects {
            fold_some(&mut effect.offered, knows);
            fold_some(&mut effect.guard, knows);
            for case in &mut effect.cases {
                fold_some(&mut case.guard, knows);
            }
        }
    }
}

impl Exchange {
    fn fold(&mut self, knows: Knows<'_>) {
        for reaction in &mut self.reactions {
            reaction.fold(knows);
        }
        if let Some(effects) = &mut self.effects {
            effects.fold(knows);
        }
        fold(&mut self.hits, knows);
        fold_some_number(&mut self.damage, knows);
        fold_some_number(&mut self.reduction, knows);
        fold_some(&mut self.choose_location, knows);
        fold_some(&mut self.redirect_location, knows);
        fold_some_number(&mut self.armour, knows);
        for wound in &mut self.wounds {
            fold(&mut wound.guard, knows);
        }
        for after in &mut self.after {
            fold(&mut after.guard, knows);
        }
        self.after
            .retain(|after| after.guard != Condition::Const(false));
        if let Some(knockback) = &mut self.knockback {
            fold(&mut knockback.guard, knows);
            fold_number(&mut knockback.metres, knows);
        }
        if let Some(instead) = &mut self.instead {
            fold(&mut instead.guard, knows);
            for option in &mut instead.options {
                fold_some(&mut option.guard, knows);
            }
        }
    }
}
