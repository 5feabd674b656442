//! `combat.toml` specialised to a fight: what cannot change while it runs (the
//! scenario's options and situational modifiers, the figures of its combatants) is
//! folded into the expressions before the first turn, so that a fight in which no
//! combatant has an option never reads `self.option.NAME` again. A specialised combat
//! is made once for each set of such facts and shared by every fight that has them
//! (all the fights of one scenario, in `simulate`).

use std::sync::{Arc, Mutex};

use crate::expr::{Comparison, Condition, Known, Knows, Number, Slot};
use crate::names::{Name, NameList};

use super::super::Core;
use super::super::reads::{BitsOf, Bound, Read, Who, World};
use super::native;
use super::{Combat, EffectsStage, Exchange, Reaction, TestKind, Turn, TurnRule};
use crate::engine::model::CombatantSpec;
use crate::engine::model::Equipment;

/// What each read of `combat.toml` is known to give for the whole of a fight (`None`:
/// read as the fight goes): the key a specialised combat is kept under.
pub type Facts = Vec<Option<Known>>;

/// The specialised combats made so far, by their facts; the oldest is let go past
/// [`Specialised::KEPT`] (a GM's session that tries many scenarios).
#[derive(Default)]
pub struct Specialised {
    made: Mutex<Vec<(Facts, Arc<Combat>)>>,
    /// What the fights of one set of combatants start from, worked out for the first
    /// (`simulate`'s thousands of fights, `odds`' thousands of replays of one exchange).
    set_up: Mutex<Vec<SetUp>>,
}

/// The specialised combat and each combatant's figures for fights of these combatants,
/// options and modifiers. The combatants are the scenario's own, kept alive here, so
/// that the same pointers are the same figures.
struct SetUp {
    combatants: Vec<Arc<CombatantSpec>>,
    options: Vec<Name>,
    modifiers: Vec<Name>,
    combat: Arc<Combat>,
    figures: Vec<Vec<i64>>,
}

impl std::fmt::Debug for Specialised {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Specialised")
    }
}

impl Specialised {
    const KEPT: usize = 16;

    /// `combat` specialised to the fight whose state `core` is, and each of its
    /// combatants' figures the code reads set ([`figures`]): worked out for
    /// the first fight of these combatants (the very ones: a scenario changed by a sweep
    /// has others), taken from there for the rest. What both depend on, the
    /// combatants' figures, the options and the modifiers, does not change in a fight.
    pub fn for_fight(
        &self,
        combat: &Combat,
        core: &mut Core,
        world: &FightWorld<'_>,
    ) -> Arc<Combat> {
        let same = |set_up: &SetUp| {
            set_up.options == world.fight_options
                && set_up.modifiers == world.fight_modifiers
                && set_up.combatants.len() == core.combatants.len()
                && set_up
                    .combatants
                    .iter()
                    .zip(&core.combatants)
                    .all(|(kept, c)| Arc::ptr_eq(kept, &c.spec))
        };
        let known = {
            let set_up = self.set_up.lock().unwrap_or_else(|p| p.into_inner());
            set_up
                .iter()
                .find(|s| same(s))
                .map(|s| (s.combat.clone(), s.figures.clone()))
        };
        let (specialised, figures) = match known {
            Some(known) => known,
            None => {
                let mut facts = facts(
                    &combat.reads,
                    core,
                    world.equipment,
                    world.vocabulary,
                    world.fight_options,
                    world.fight_modifiers,
                );
                traits_nobody_has(&mut facts, combat, core, world.equipment);
                let specialised = self.get(combat, facts);
                let figures = figures(&specialised, core, world);
                let mut set_up = self.set_up.lock().unwrap_or_else(|p| p.into_inner());
                if set_up.len() == Self::KEPT {
                    set_up.remove(0);
                }
                set_up.push(SetUp {
                    combatants: core.combatants.iter().map(|c| c.spec.clone()).collect(),
                    options: world.fight_options.to_vec(),
                    modifiers: world.fight_modifiers.to_vec(),
                    combat: specialised.clone(),
                    figures: figures.clone(),
                });
                (specialised, figures)
            }
        };
        for (combatant, figures) in core.combatants.iter_mut().zip(figures) {
            combatant.fixed = figures;
        }
        specialised
    }

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
fn facts(
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

/// A weapon trait no weapon of the fight has is had by no weapon in it at any time:
/// reads of it (`weapon.ranged`, `parry.ranged`, `item.ranged`, `self.holds.ranged`)
/// are false throughout, so a duel of swords never evaluates a rule for missiles. The
/// fight's weapons are its combatants' (in hand, carried or dropped: weapons change
/// hands and places in a fight, but none comes into it) and the bare hands its
/// exchanges and reactions fight with.
fn traits_nobody_has(facts: &mut Facts, combat: &Combat, core: &Core, equipment: &Equipment) {
    let carried = core
        .combatants
        .iter()
        .flat_map(|c| &c.weapons)
        .map(|state| state.id);
    let bare_hands = combat
        .exchanges
        .iter()
        .flat_map(|e| {
            e.bare_hands
                .iter()
                .chain(e.reactions.iter().flat_map(|r| &r.bare_hands))
        })
        .map(|bare| bare.weapon);
    let mut traits: Vec<Name> = Vec::new();
    for id in carried.chain(bare_hands) {
        let Some(weapon) = equipment
            .weapons
            .get(&id)
            .or_else(|| equipment.shields.get(&id))
        else {
            continue;
        };
        traits.extend(weapon.traits.iter().copied());
    }
    for (fact, read) in facts.iter_mut().zip(&combat.reads) {
        let name = match read {
            Read::ItemTrait(name) | Read::ParryTrait(name) | Read::Holds(_, name, _) => name,
            _ => continue,
        };
        if fact.is_none() && !traits.contains(name) {
            *fact = Some(Known::Flag(false));
        }
    }
}

/// What a fight's expressions read besides its state: the ruleset's equipment and
/// names, the scenario's fight options and modifiers.
pub struct FightWorld<'w> {
    pub equipment: &'w Equipment,
    pub vocabulary: &'w super::super::reads::Vocabulary,
    pub fight_options: &'w [Name],
    pub fight_modifiers: &'w [Name],
}

/// Each combatant's figures the compiled code of `combat` reads
/// ([`crate::engine::Combatant::fixed`]), looked up in the fight whose state is `core`.
fn figures(combat: &Combat, core: &Core, world: &FightWorld<'_>) -> Vec<Vec<i64>> {
    let world = World {
        core,
        equipment: world.equipment,
        vocabulary: world.vocabulary,
        fight_options: world.fight_options,
        fight_modifiers: world.fight_modifiers,
        offered: &[],
    };
    (0..core.combatants.len())
        .map(|combatant| combat.codes.fixed(&world, combatant))
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
        let mut combat = self.clone();
        let mut reads = std::mem::take(&mut combat.reads);
        let mut made = native::Made::default();
        let vocabulary = combat.vocabulary.clone();
        let mut rewrite = Rewrite {
            knows: &knows,
            reads: &mut reads,
            made: &mut made,
            vocabulary: &vocabulary,
        };
        combat.turn.fold(&mut rewrite);
        for test in &mut combat.tests {
            test.fold(&mut rewrite);
        }
        for exchange in &mut combat.exchanges {
            exchange.fold(&mut rewrite);
        }
        combat.reads = reads;
        combat.codes = made.done();
        combat
    }
}

/// What specialising does to each expression: the facts folded in, then the reads of
/// one combatant's bits side by side fused into one read (new slots go at the end of
/// `reads`).
struct Rewrite<'r> {
    knows: Knows<'r>,
    reads: &'r mut Vec<Read>,
    /// The code each expression is compiled to, last, and the names it compares.
    made: &'r mut native::Made,
    vocabulary: &'r super::super::reads::Vocabulary,
}

impl Rewrite<'_> {
    fn condition(&mut self, condition: &mut Condition) {
        *condition = condition.fold(self.knows);
        let reads = &mut *self.reads;
        condition.visit_lists(&mut |members, all| {
            fuse_bits(members, all, reads);
            fuse_zero_values(members, all, reads);
        });
        native::compile_condition(condition, reads, self.vocabulary, self.made);
    }

    fn number(&mut self, number: &mut Number) {
        *number = number.fold(self.knows);
        let reads = &mut *self.reads;
        number.visit_lists(&mut |members, all| {
            fuse_bits(members, all, reads);
            fuse_zero_values(members, all, reads);
        });
        native::compile_number(number, reads, self.vocabulary, self.made);
    }

    fn some(&mut self, condition: &mut Option<Condition>) {
        if let Some(condition) = condition {
            self.condition(condition);
        }
    }

    fn some_number(&mut self, number: &mut Option<Number>) {
        if let Some(number) = number {
            self.number(number);
        }
    }
}

/// Reads of one combatant's bits side by side in a list (`self.dead or self.unconscious`,
/// `not other.holds.ranged and not other.holds.unarmed`) made one read of those bits
/// together ([`Read::Bits`]), in the place of the first: a guard then tests a mask
/// where it read each bit in turn. Reads change nothing, so reading them together
/// gives what the list gave, and a list that may roll a die is left as it is (the die
/// would then be rolled, or not, where it was not before).
fn fuse_bits(members: &mut Vec<Condition>, all: bool, reads: &mut Vec<Read>) {
    if members.len() < 2 || members.iter().any(Condition::rolls) {
        return;
    }
    // A member's bit: whose, of what, which bit, and whether the member negates it.
    let bit = |member: &Condition| {
        let (slot, negated) = match member {
            Condition::Read(slot) => (*slot, false),
            Condition::Not(inner) => match inner.as_ref() {
                Condition::Read(slot) => (*slot, true),
                _ => return None,
            },
            _ => return None,
        };
        match reads.get(slot.0 as usize)? {
            Read::Condition(who, _, bit) if *bit != 0 => {
                Some((*who, BitsOf::Conditions, *bit, negated))
            }
            Read::Holds(who, _, bit) if *bit != 0 => Some((*who, BitsOf::InHand, *bit, negated)),
            _ => None,
        }
    };
    let bits: Vec<_> = members.iter().map(bit).collect();
    let mut fused: Vec<Option<Condition>> = members.drain(..).map(Some).collect();
    for first in 0..bits.len() {
        let Some((who, of, _, negated)) = bits[first] else {
            continue;
        };
        if fused[first].is_none() {
            continue;
        }
        let group: Vec<usize> = (first..bits.len())
            .filter(|&i| fused[i].is_some())
            .filter(
                |&i| matches!(bits[i], Some((w, o, _, n)) if w == who && o == of && n == negated),
            )
            .collect();
        if group.len() < 2 {
            continue;
        }
        let mask = group
            .iter()
            .fold(0, |mask, &i| mask | bits[i].map_or(0, |b| b.2));
        // `a or b`: some bit set; `a and b`: every bit set; `not a and not b`: none
        // set (not some); `not a or not b`: not every bit set.
        let read = Read::Bits {
            who,
            of,
            mask,
            every: all != negated,
        };
        let slot = match reads.iter().position(|r| *r == read) {
            Some(at) => at,
            None => {
                reads.push(read);
                reads.len() - 1
            }
        };
        let slot = Condition::Read(Slot(slot as u32));
        fused[first] = Some(if negated {
            Condition::Not(Box::new(slot))
        } else {
            slot
        });
        for &i in &group[1..] {
            fused[i] = None;
        }
    }
    members.extend(fused.into_iter().flatten());
}

/// Comparisons of one combatant's values with 0 side by side in an `and` list
/// (`self.value.grappling == 0 and self.value.held_by == 0`) made one read of them
/// together ([`Read::NoValues`]), in the place of the first: most often the combatant
/// holds none of them, which a mask of the value list answers at once. As with
/// [`fuse_bits`], reads change nothing, and a list that may roll a die is left alone.
fn fuse_zero_values(members: &mut Vec<Condition>, all: bool, reads: &mut Vec<Read>) {
    if !all || members.len() < 2 || members.iter().any(Condition::rolls) {
        return;
    }
    // A member's value: whose, and which (`VALUE == 0` or `0 == VALUE`).
    let value = |member: &Condition| {
        let Condition::Compare(Comparison::Equal, a, b) = member else {
            return None;
        };
        let slot = match (a.as_ref(), b.as_ref()) {
            (Number::Read(slot), Number::Const(0)) | (Number::Const(0), Number::Read(slot)) => {
                *slot
            }
            _ => return None,
        };
        match reads.get(slot.0 as usize)? {
            Read::Value(who, name) => Some((*who, *name)),
            _ => None,
        }
    };
    let values: Vec<_> = members.iter().map(value).collect();
    let mut fused: Vec<Option<Condition>> = members.drain(..).map(Some).collect();
    for first in 0..values.len() {
        let Some((who, _)) = values[first] else {
            continue;
        };
        if fused[first].is_none() {
            continue;
        }
        let group: Vec<usize> = (first..values.len())
            .filter(|&i| fused[i].is_some() && matches!(values[i], Some((w, _)) if w == who))
            .collect();
        if group.len() < 2 {
            continue;
        }
        let names: Box<[Name]> = group
            .iter()
            .filter_map(|&i| values[i].map(|v| v.1))
            .collect();
        let mask = names
            .iter()
            .fold(0, |mask, name| mask | NameList::<i64>::bit(name));
        let read = Read::NoValues { who, names, mask };
        let slot = match reads.iter().position(|r| *r == read) {
            Some(at) => at,
            None => {
                reads.push(read);
                reads.len() - 1
            }
        };
        fused[first] = Some(Condition::Read(Slot(slot as u32)));
        for &i in &group[1..] {
            fused[i] = None;
        }
    }
    members.extend(fused.into_iter().flatten());
}

fn never(guard: &Option<Condition>) -> bool {
    matches!(guard, Some(Condition::Const(false)))
}

fn fold_rules(rules: &mut Vec<TurnRule>, r: &mut Rewrite<'_>) {
    for rule in rules.iter_mut() {
        r.some(&mut rule.guard);
        for option in &mut rule.options {
            r.some(&mut option.guard);
        }
    }
    rules.retain(|rule| !never(&rule.guard));
}

impl Turn {
    fn fold(&mut self, r: &mut Rewrite<'_>) {
        r.some_number(&mut self.initiative);
        r.some(&mut self.keep_initiative);
        r.some_number(&mut self.initiative_modifier);
        if let Some(hands) = &mut self.hands {
            r.number(&mut hands.needs);
        }
        fold_rules(&mut self.setup, r);
        fold_rules(&mut self.round_start, r);
        fold_rules(&mut self.round_end, r);
        r.some_number(&mut self.tie_break);
        r.some_number(&mut self.actions);
        r.some(&mut self.out_of_fight);
        r.some(&mut self.hooks_if);
        r.some(&mut self.more);
        // An action never offered stays in the list: the list is what `dump` and the
        // hooks see, and its guard is now a constant.
        for action in &mut self.choices {
            r.some(&mut action.guard);
            r.some(&mut action.targets);
            for option in &mut action.options {
                r.some(&mut option.guard);
            }
        }
        for (_, options) in &mut self.decisions {
            for option in options {
                r.some(&mut option.guard);
            }
        }
    }
}

impl TestKind {
    fn fold(&mut self, r: &mut Rewrite<'_>) {
        r.number(&mut self.roll);
        r.some_number(&mut self.total);
        r.number(&mut self.target);
        r.some_number(&mut self.target_min);
        for modifier in &mut self.modifiers {
            r.condition(&mut modifier.guard);
        }
        self.modifiers
            .retain(|modifier| modifier.guard != Condition::Const(false));
        for level in &mut self.levels {
            r.condition(&mut level.guard);
        }
        if let Some(grades) = &mut self.grades {
            r.some_number(&mut grades.shift);
        }
        if let super::Compare::Margin(margin) = &mut self.compare {
            r.some_number(margin);
        }
        if let Some(reroll) = &mut self.reroll {
            r.condition(&mut reroll.guard);
        }
        self.levels_by_roll = self.rolls_to_look_up(r.reads);
    }

    /// The rolls whose levels a table may hold: those of a roll of plain dice, where
    /// the total and every level's guard read the test alone (its roll, total and
    /// target) and roll no die, so that a roll and a target always give the same level.
    fn rolls_to_look_up(&self, reads: &[Read]) -> Option<std::ops::RangeInclusive<i64>> {
        /// Tables longer than this are not worth their making (a d100 has 100 rows).
        const MOST_ROLLS: i64 = 1_000;
        let dice = match &self.roll {
            Number::Roll(dice) => dice,
            Number::Native(native) => match &native.tree {
                Number::Roll(dice) => dice,
                _ => return None,
            },
            _ => return None,
        };
        let test_alone = |slot: Slot| {
            matches!(
                reads[slot.0 as usize],
                Read::TestRoll | Read::TestTotal | Read::TestTarget
            )
        };
        let reads_else = |slot: Slot| !test_alone(slot);
        let pure_total = self
            .total
            .as_ref()
            .is_none_or(|total| !total.rolls() && !total.reads_any(&reads_else));
        let pure_levels = self
            .levels
            .iter()
            .all(|level| !level.guard.rolls() && !level.guard.reads_any(&reads_else));
        let (least, most) = (dice.min(), dice.max());
        (pure_total && pure_levels && most - least < MOST_ROLLS).then_some(least..=most)
    }
}

impl Reaction {
    fn fold(&mut self, r: &mut Rewrite<'_>) {
        r.some(&mut self.guard);
        r.some(&mut self.free);
        r.some(&mut self.withdraw);
        r.some(&mut self.again);
    }
}

impl EffectsStage {
    fn fold(&mut self, r: &mut Rewrite<'_>) {
        r.some_number(&mut self.count);
        r.some_number(&mut self.bonus);
        for effect in &mut self.effects {
            r.some(&mut effect.offered);
            r.some(&mut effect.guard);
            for case in &mut effect.cases {
                r.some(&mut case.guard);
            }
        }
    }
}

impl Exchange {
    fn fold(&mut self, r: &mut Rewrite<'_>) {
        for reaction in &mut self.reactions {
            reaction.fold(r);
        }
        r.some(&mut self.reactions_after);
        if let Some(effects) = &mut self.effects {
            effects.fold(r);
        }
        r.condition(&mut self.hits);
        r.some_number(&mut self.damage);
        r.some_number(&mut self.reduction);
        r.some(&mut self.choose_location);
        r.some(&mut self.redirect_location);
        r.some_number(&mut self.armour);
        r.some(&mut self.take);
        r.some_number(&mut self.injury);
        for wound in &mut self.wounds {
            r.condition(&mut wound.guard);
        }
        for after in &mut self.after {
            r.condition(&mut after.guard);
            r.some_number(&mut after.repeat);
            for option in &mut after.options {
                r.some(&mut option.guard);
            }
        }
        self.after
            .retain(|after| after.guard != Condition::Const(false));
        if let Some(knockback) = &mut self.knockback {
            r.condition(&mut knockback.guard);
            r.number(&mut knockback.metres);
        }
        if let Some(instead) = &mut self.instead {
            r.condition(&mut instead.guard);
            for option in &mut instead.options {
                r.some(&mut option.guard);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn condition(who: Who, bit: u64) -> Read {
        Read::Condition(who, Name::new("c"), bit)
    }

    fn read(slot: u32) -> Condition {
        Condition::Read(Slot(slot))
    }

    fn not(condition: Condition) -> Condition {
        Condition::Not(Box::new(condition))
    }

    #[test]
    fn bits_of_one_combatant_side_by_side_are_read_as_one_mask() {
        let mut reads = vec![
            condition(Who::Me, 1),
            condition(Who::Me, 4),
            condition(Who::Other, 2),
            Read::Holds(Who::Me, Name::new("t"), 8),
            Read::Holds(Who::Me, Name::new("u"), 16),
        ];
        // `self.a or other.b or self.c`: the two of `self` fused where the first was.
        let mut members = vec![read(0), read(2), read(1)];
        fuse_bits(&mut members, false, &mut reads);
        assert_eq!(members, vec![read(5), read(2)]);
        assert_eq!(
            reads[5],
            Read::Bits {
                who: Who::Me,
                of: BitsOf::Conditions,
                mask: 5,
                every: false
            }
        );
        // `not self.holds.t and not self.holds.u`: none of the two bits set.
        let mut members = vec![not(read(3)), not(read(4))];
        fuse_bits(&mut members, true, &mut reads);
        assert_eq!(members, vec![not(read(6))]);
        assert_eq!(
            reads[6],
            Read::Bits {
                who: Who::Me,
                of: BitsOf::InHand,
                mask: 24,
                every: false
            }
        );
        // `self.a and self.c`: every bit set; the same fused read is found again.
        let mut members = vec![read(0), read(1)];
        fuse_bits(&mut members, true, &mut reads);
        assert_eq!(members, vec![read(7)]);
        assert!(matches!(
            reads[7],
            Read::Bits {
                mask: 5,
                every: true,
                ..
            }
        ));
        let mut again = vec![read(1), read(0)];
        fuse_bits(&mut again, true, &mut reads);
        assert_eq!(again, vec![read(7)]);
        // A bit read with a negation and one without stay apart.
        let mut members = vec![read(0), not(read(1))];
        fuse_bits(&mut members, true, &mut reads);
        assert_eq!(members, vec![read(0), not(read(1))]);
    }

    fn is_zero(slot: u32) -> Condition {
        Condition::Compare(
            Comparison::Equal,
            Box::new(Number::Read(Slot(slot))),
            Box::new(Number::Const(0)),
        )
    }

    #[test]
    fn values_of_one_combatant_compared_with_zero_are_read_at_once() {
        let (a, b, c) = (Name::new("a"), Name::new("b"), Name::new("c"));
        let mut reads = vec![
            Read::Value(Who::Me, a),
            Read::Value(Who::Other, b),
            Read::Value(Who::Me, c),
            condition(Who::Me, 1),
        ];
        // `self.value.a == 0 and other.value.b == 0 and self.c and 0 == self.value.c`:
        // the two of `self` fused where the first was.
        let zero_c = Condition::Compare(
            Comparison::Equal,
            Box::new(Number::Const(0)),
            Box::new(Number::Read(Slot(2))),
        );
        let mut members = vec![is_zero(0), is_zero(1), read(3), zero_c];
        fuse_zero_values(&mut members, true, &mut reads);
        assert_eq!(members, vec![read(4), is_zero(1), read(3)]);
        let Read::NoValues { who, names, mask } = &reads[4] else {
            panic!("a fused read: {:?}", reads[4]);
        };
        assert_eq!((*who, &names[..]), (Who::Me, &[a, c][..]));
        assert_eq!(*mask, NameList::<i64>::bit(&a) | NameList::<i64>::bit(&c));
        // What the fused read answers: none set, one set to 0, one set to 3.
        let mut values = NameList::default();
        assert!(values.none_of(names, *mask));
        values.insert(c, 0);
        assert!(values.none_of(names, *mask));
        values.insert(a, 3);
        assert!(!values.none_of(names, *mask));
        // In an `or` list they stay apart.
        let list = vec![is_zero(0), is_zero(2)];
        let mut members = list.clone();
        fuse_zero_values(&mut members, false, &mut reads);
        assert_eq!(members, list);
    }

    #[test]
    fn a_list_that_rolls_a_die_keeps_its_reads_where_they_are() {
        let mut reads = vec![condition(Who::Me, 1), condition(Who::Me, 2)];
        // `self.a or weapon.damage > 3 or self.b`: the die rolls only where `a` is not set.
        let rolled = Condition::Compare(
            crate::expr::Comparison::Greater,
            Box::new(Number::RollSlot(Slot(9))),
            Box::new(Number::Const(3)),
        );
        let list = vec![read(0), rolled, read(1)];
        let mut members = list.clone();
        fuse_bits(&mut members, false, &mut reads);
        assert_eq!(members, list);
        assert_eq!(reads.len(), 2);
    }
}
