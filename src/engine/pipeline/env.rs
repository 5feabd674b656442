//! How the expressions of the turn and the exchange read the fight while it runs. An
//! evaluation holds the fight's state from its first read to its end ([`FightEnv::holds`],
//! [`FightEnv::number`]), and lets go of it around a die, so that a die asked of a
//! person lets them look at the fight meanwhile.

use parking_lot::MutexGuard;

use crate::dice::DiceExpr;
use crate::expr::{Condition, Env, Number, Slot};

use super::super::reads::{Bound, Read, SavedBindings, Vocabulary, World, opponent, weapon_at};
use super::super::{Core, FightHandle};
use crate::names::Name;
use crate::ruleset::Equipment;
use crate::scenario::Statistic;

/// The environment of one expression of `combat.toml`: the fight, what its names stand
/// for, and what a die rolled here is for.
pub(super) struct FightEnv<'f> {
    fight: &'f FightHandle,
    reads: &'f [Read],
    pub bound: Bound<'f>,
    /// What a die rolled here is for, as the log says it.
    pub purpose: &'f str,
    saved: SavedBindings<'f>,
    /// The fight's state, held while an expression is evaluated (one lock for all its
    /// reads, not one a read); never held between evaluations, where the engine changes
    /// the state.
    held: Option<MutexGuard<'f, Core>>,
    /// What every read sees besides the state, looked up once.
    equipment: &'f Equipment,
    vocabulary: &'f Vocabulary,
    fight_options: &'f [Name],
    fight_modifiers: &'f [Name],
}

impl<'f> FightEnv<'f> {
    pub fn new(fight: &'f FightHandle, me: usize) -> Self {
        let ruleset = fight.ruleset();
        let reads = fight.combat().map_or(&[][..], |c| &c.reads);
        FightEnv {
            equipment: &ruleset.equipment,
            vocabulary: &ruleset.tactics.vocabulary,
            fight_options: fight.fight_options(),
            fight_modifiers: fight.fight_modifiers(),
            fight,
            reads,
            bound: Bound {
                me,
                ..Bound::default()
            },
            purpose: "",
            saved: SavedBindings::default(),
            held: None,
        }
    }

    /// Whether `condition` holds, read with the fight's state held throughout.
    pub fn holds(&mut self, condition: &Condition) -> bool {
        match condition {
            Condition::Const(holds) => *holds,
            _ => self.holding(|env| condition.eval(env)),
        }
    }

    /// What `number` comes to, read with the fight's state held (let go around a die).
    pub fn number_of(&mut self, number: &Number) -> i64 {
        match number {
            Number::Const(value) => *value,
            _ => self.holding(|env| number.eval(env)),
        }
    }

    /// Evaluate with the fight's state held throughout (let go around a die): several
    /// expressions in a row under one lock. Nothing in `evaluate` may take the state
    /// but through this environment.
    pub fn holding<T>(&mut self, evaluate: impl FnOnce(&mut Self) -> T) -> T {
        let outermost = self.held.is_none();
        if outermost {
            self.held = Some(self.fight.core());
        }
        let value = evaluate(self);
        if outermost {
            self.held = None;
        }
        value
    }

    /// The fight's state: the one held by the evaluation, or taken for this read.
    #[inline]
    fn with_core<T>(&self, read: impl FnOnce(&Core) -> T) -> T {
        match &self.held {
            Some(core) => read(core),
            None => read(&self.fight.core()),
        }
    }

    #[inline]
    fn read<T>(&self, slot: Slot, read: impl FnOnce(&World<'_>, &Bound<'f>, &Read) -> T) -> T {
        self.with_core(|core| self.read_in(core, slot, read))
    }

    #[inline]
    fn read_in<T>(
        &self,
        core: &Core,
        slot: Slot,
        read: impl FnOnce(&World<'_>, &Bound<'f>, &Read) -> T,
    ) -> T {
        let world = World {
            core,
            equipment: self.equipment,
            vocabulary: self.vocabulary,
            fight_options: self.fight_options,
            fight_modifiers: self.fight_modifiers,
            offered: &[],
        };
        read(&world, &self.bound, &self.reads[slot.0 as usize])
    }

    fn roll_dice(&mut self, dice: &DiceExpr) -> i64 {
        // A die nobody reads is rolled with the state held.
        if let Some(rolled) = self.held.as_mut().and_then(|core| core.roll_unseen(dice)) {
            return rolled.unwrap_or_else(|error| {
                // Recorded for the stage to find, as below; `stop` takes the state.
                drop(self.held.take());
                self.fight.stop(super::super::FightError::Dice(error));
                self.held = Some(self.fight.core());
                0
            });
        }
        // The state is let go while the die is rolled (it may be asked of a person).
        let held = self.held.take().is_some();
        // A die that cannot be rolled (given dice run out) stops the fight: the stage
        // that evaluated this finds the error recorded and returns it.
        let rolled = self
            .fight
            .roll_expr(Some(self.bound.me), dice, self.purpose)
            .unwrap_or(0);
        if held {
            self.held = Some(self.fight.core());
        }
        rolled
    }
}

impl Env for FightEnv<'_> {
    #[inline]
    fn number(&mut self, slot: Slot) -> i64 {
        self.read(slot, |world, bound, read| world.number(bound, read))
    }

    #[inline]
    fn flag(&mut self, slot: Slot) -> bool {
        self.read(slot, |world, bound, read| world.flag(bound, read))
    }

    /// A symbol reads what is bound alone, without the fight's state.
    fn symbol(&self, slot: Slot) -> u32 {
        self.bound
            .symbol(self.vocabulary, &self.reads[slot.0 as usize])
    }

    fn roll_slot(&mut self, slot: Slot) -> i64 {
        match self.reads[slot.0 as usize] {
            Read::ItemDamage => match self.bound.item.and_then(|w| w.damage.as_ref()) {
                Some(dice) => self.roll_dice(dice),
                None => 0,
            },
            Read::StatisticDice(who, ref name) => {
                let whom = who.of(&self.bound);
                // Taken out of the state first: the state is not held while rolling.
                let statistic = whom.and_then(|whom| {
                    self.with_core(|core| core.combatants[whom].statistic(*name).cloned())
                });
                match statistic {
                    Some(Statistic::Dice(dice)) => self.roll_dice(&dice),
                    Some(Statistic::Number(n)) => n,
                    _ => 0,
                }
            }
            _ => 0,
        }
    }

    fn dice_bounds(&self, slot: Slot) -> (i64, i64) {
        let bounds = |dice: &DiceExpr| (dice.min(), dice.max());
        match &self.reads[slot.0 as usize] {
            Read::ItemDamage => self
                .bound
                .item
                .and_then(|w| w.damage.as_ref())
                .map_or((0, 0), bounds),
            Read::StatisticDice(who, name) => {
                let whom = who.of(&self.bound);
                self.with_core(|core| {
                    match whom.and_then(|whom| core.combatants[whom].statistic(*name)) {
                        Some(Statistic::Dice(dice)) => bounds(dice),
                        Some(Statistic::Number(n)) => (*n, *n),
                        _ => (0, 0),
                    }
                })
            }
            _ => (0, 0),
        }
    }

    fn slot_dice(&self, slot: Slot) -> Option<DiceExpr> {
        match &self.reads[slot.0 as usize] {
            Read::ItemDamage => self.bound.item.and_then(|w| w.damage.clone()),
            Read::StatisticDice(who, name) => {
                let whom = who.of(&self.bound)?;
                self.with_core(|core| match core.combatants[whom].statistic(*name) {
                    Some(Statistic::Dice(dice)) => Some(dice.clone()),
                    _ => None,
                })
            }
            _ => None,
        }
    }

    fn roll(&mut self, dice: &DiceExpr) -> i64 {
        self.roll_dice(dice)
    }

    fn bind(&mut self, collection: Slot, index: usize) -> bool {
        let fight = self.fight;
        let me = self.bound.me;
        match self.reads[collection.0 as usize] {
            Read::EachOpponent => {
                self.bound.other = self.with_core(|core| opponent(core, me, index));
                self.bound.other.is_some()
            }
            Read::EachCombatant => {
                let count = self.with_core(|core| core.combatants.len());
                self.bound.other = (index < count).then_some(index);
                self.bound.other.is_some()
            }
            Read::EachWeapon(place) => {
                let equipment = &fight.ruleset().equipment;
                self.bound.item =
                    self.with_core(|core| weapon_at(core, equipment, me, place, index));
                self.bound.item.is_some()
            }
            _ => false,
        }
    }

    fn enter(&mut self, _: Slot) {
        self.saved.enter(&self.bound);
    }

    fn leave(&mut self, _: Slot) {
        self.saved.leave(&mut self.bound);
    }
}
