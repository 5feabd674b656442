//! The expressions of a specialised `combat.toml` compiled to native code: each node a
//! closure over the fight's environment, each read of the state resolved to the field
//! it loads when the combat is specialised, so that a guard such as `self.prone or
//! roll <= target` runs as a few calls and loads rather than a walk of its tree with a
//! match on every node and on every read ([`crate::expr::Native`]).
//!
//! The code does exactly what the tree does, in the same order (a die rolled where the
//! tree rolls it, a collection gone through member by member); reads it does not
//! resolve here, and the rarer nodes, it leaves to the tree's own evaluation. In an
//! enumeration (`affray odds`) a read of a test's roll goes through
//! [`FightEnv`]'s reads, which draw a roll drawn by its level alone first.

use std::sync::Arc;

use crate::expr::{Comparison, Condition, Env, Native, Number, Slot, Symbol, divide};
use crate::names::Name;

use super::super::Core;
use super::super::reads::{
    BitsOf, Bound, Read, TestField, Vocabulary, Who, World, bit_at, bits_hold, location_figure,
    side_count,
};
use super::super::state::Combatant;
use super::env::FightEnv;

/// Compiled code giving a `T`.
type Code<T> = Box<dyn for<'e, 'f> Fn(&'e mut FightEnv<'f>) -> T + Send + Sync>;
/// A compiled condition.
type Flag = Code<bool>;
/// A compiled symbol.
type Place = Code<u32>;
/// A compiled number.
type Count = Code<i64>;

/// The code of a specialised combat's expressions, by [`Native::code`]: kept with the
/// combat whose `reads` they were compiled against, as its slots are.
#[derive(Clone, Default)]
pub struct Codes(Arc<Made>);

/// The code made so far while a combat is specialised.
#[derive(Default)]
pub(super) struct Made {
    flags: Vec<Flag>,
    numbers: Vec<Count>,
    /// The reads of a combatant's figures that cannot change while a fight runs, as
    /// read of `self`: each fight looks them up once ([`Codes::fixed`]), and the code
    /// reads [`Combatant::fixed`].
    fixed: Vec<Read>,
}

impl Made {
    pub fn done(self) -> Codes {
        Codes(Arc::new(self))
    }

    fn compiler<'c>(&'c mut self, reads: &'c [Read], vocabulary: &'c Vocabulary) -> Compiler<'c> {
        Compiler {
            reads,
            vocabulary,
            fixed: &mut self.fixed,
        }
    }
}

impl std::fmt::Debug for Codes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Codes({} conditions, {} numbers)",
            self.0.flags.len(),
            self.0.numbers.len()
        )
    }
}

impl Codes {
    /// Each combatant's figures the code reads ([`Combatant::fixed`]), looked up once
    /// for the fight whose state `world` is.
    pub(crate) fn fixed(&self, world: &World<'_>, combatant: usize) -> Vec<i64> {
        let bound = Bound {
            me: combatant,
            other: Some(combatant),
            ..Bound::default()
        };
        self.0
            .fixed
            .iter()
            .map(|read| world.number(&bound, read))
            .collect()
    }

    /// Run `native`'s code; evaluate its tree where there is none (an expression
    /// compiled for another combat, which no fight should meet).
    #[inline]
    pub(super) fn flag(&self, native: &Native<Condition>, env: &mut FightEnv<'_>) -> bool {
        run(&self.0.flags, native, env)
    }

    #[inline]
    pub(super) fn number(&self, native: &Native<Number>, env: &mut FightEnv<'_>) -> i64 {
        run(&self.0.numbers, native, env)
    }
}

#[inline]
fn run<T, V>(codes: &[Code<V>], native: &Native<T>, env: &mut FightEnv<'_>) -> V
where
    T: Tree<V> + std::fmt::Debug,
    V: PartialEq + std::fmt::Debug,
{
    match codes.get(native.code as usize) {
        Some(code) => {
            let value = code(env);
            #[cfg(debug_assertions)]
            same_as_tree(native, env, &value);
            value
        }
        None => native.tree.evaluate(env),
    }
}

/// What the tests check at every evaluation of a debug build: the code gives what the
/// tree gives. Only where evaluating again changes nothing (no die rolled, no roll
/// drawn in an enumeration).
#[cfg(debug_assertions)]
fn same_as_tree<T, V>(native: &Native<T>, env: &mut FightEnv<'_>, value: &V)
where
    T: Tree<V> + std::fmt::Debug,
    V: PartialEq + std::fmt::Debug,
{
    if !env.merging && !native.tree.rolls() {
        let tree = native.tree.evaluate(env);
        assert_eq!(
            *value, tree,
            "compiled code against its tree {:?}",
            native.tree
        );
    }
}

/// An expression's tree, evaluated as the tree.
trait Tree<V> {
    #[cfg(debug_assertions)]
    fn rolls(&self) -> bool;
    fn evaluate(&self, env: &mut FightEnv<'_>) -> V;
}

impl Tree<bool> for Condition {
    #[cfg(debug_assertions)]
    fn rolls(&self) -> bool {
        Condition::rolls(self)
    }
    fn evaluate(&self, env: &mut FightEnv<'_>) -> bool {
        self.eval(env)
    }
}

impl Tree<i64> for Number {
    #[cfg(debug_assertions)]
    fn rolls(&self) -> bool {
        Number::rolls(self)
    }
    fn evaluate(&self, env: &mut FightEnv<'_>) -> i64 {
        self.eval(env)
    }
}

/// `condition` compiled in its place, where that saves anything (a constant stays one:
/// the stages test for it).
pub(super) fn compile_condition(
    condition: &mut Condition,
    reads: &[Read],
    vocabulary: &Vocabulary,
    made: &mut Made,
) {
    if matches!(condition, Condition::Const(_) | Condition::Native(_)) {
        return;
    }
    let code = flag(condition, &mut made.compiler(reads, vocabulary));
    made.flags.push(code);
    *condition = Condition::Native(Box::new(Native {
        tree: condition.clone(),
        code: (made.flags.len() - 1) as u32,
    }));
}

/// `number` compiled in its place, where that saves anything (a constant or plain dice
/// stay as they are: the stages and an enumeration look for them).
pub(super) fn compile_number(
    number: &mut Number,
    reads: &[Read],
    vocabulary: &Vocabulary,
    made: &mut Made,
) {
    if matches!(
        number,
        Number::Const(_) | Number::Roll(_) | Number::RollSlot(_) | Number::Native(_)
    ) {
        return;
    }
    let code = count(number, &mut made.compiler(reads, vocabulary));
    made.numbers.push(code);
    *number = Number::Native(Box::new(Native {
        tree: number.clone(),
        code: (made.numbers.len() - 1) as u32,
    }));
}

/// What compiling reads: the combat's reads, and the fixed reads found so far.
struct Compiler<'c> {
    reads: &'c [Read],
    /// The names the ruleset declares, as the fight reads them.
    vocabulary: &'c Vocabulary,
    fixed: &'c mut Vec<Read>,
}

impl Compiler<'_> {
    /// The place of `read` (of `self`) among the fixed reads, added if new.
    fn fixed(&mut self, read: Read) -> usize {
        match self.fixed.iter().position(|known| *known == read) {
            Some(at) => at,
            None => {
                self.fixed.push(read);
                self.fixed.len() - 1
            }
        }
    }
}

/// The code of a condition.
fn flag(condition: &Condition, c: &mut Compiler<'_>) -> Flag {
    match condition {
        &Condition::Const(holds) => Box::new(move |_| holds),
        Condition::Read(slot) => flag_read(*slot, c),
        Condition::Not(inner) => {
            let inner = flag(inner, c);
            Box::new(move |env| !inner(env))
        }
        // A list of one (what specialising leaves of `a or b` fused into one read) is
        // its member.
        Condition::AllOf(members) | Condition::AnyOf(members) if members.len() == 1 => {
            flag(&members[0], c)
        }
        Condition::AllOf(members) => match &members[..] {
            [a, b] => {
                let (a, b) = (flag(a, c), flag(b, c));
                Box::new(move |env| a(env) && b(env))
            }
            _ => {
                let members: Box<[Flag]> = members.iter().map(|m| flag(m, c)).collect();
                Box::new(move |env| members.iter().all(|member| member(env)))
            }
        },
        Condition::AnyOf(members) => match &members[..] {
            [a, b] => {
                let (a, b) = (flag(a, c), flag(b, c));
                Box::new(move |env| a(env) || b(env))
            }
            _ => {
                let members: Box<[Flag]> = members.iter().map(|m| flag(m, c)).collect();
                Box::new(move |env| members.iter().any(|member| member(env)))
            }
        },
        Condition::Compare(comparison, a, b) => compare(*comparison, a, b, c),
        Condition::Equal(same, a, b) => {
            let (a, b, same) = (flag(a, c), flag(b, c), *same);
            Box::new(move |env| (a(env) == b(env)) == same)
        }
        Condition::If(condition, then, otherwise) => {
            either(flag(condition, c), flag(then, c), flag(otherwise, c))
        }
        Condition::Any(over, body) => through(*over, flag(body, c), true),
        Condition::All(over, body) => through(*over, flag(body, c), false),
        Condition::Native(native) => flag(&native.tree, c),
        Condition::Same(same, a, b) => {
            let (a, b, same) = (symbol(a, c), symbol(b, c), *same);
            Box::new(move |env| (a(env) == b(env)) == same)
        }
    }
}

/// The code of a symbol: a member's place in its domain (`u32::MAX`: none).
fn symbol(symbol: &Symbol, c: &mut Compiler<'_>) -> Place {
    match symbol {
        &Symbol::Const(member) => Box::new(move |_| member),
        Symbol::Read(slot) => symbol_read(*slot, c),
        Symbol::If(condition, then, otherwise) => either(
            flag(condition, c),
            self::symbol(then, c),
            self::symbol(otherwise, c),
        ),
    }
}

/// A symbol read resolved to what it loads: a test's level, or a name bound found in
/// its domain by comparing interned names ([`Bound::symbol`] compares texts).
fn symbol_read(slot: Slot, c: &mut Compiler<'_>) -> Place {
    let interned = |list: &[String]| -> Box<[Name]> { list.iter().map(|n| Name::new(n)).collect() };
    let place = |list: &[Name], name: Option<Name>| {
        name.and_then(|name| list.iter().position(|n| *n == name))
            .map_or(u32::MAX, |at| at as u32)
    };
    let vocabulary = c.vocabulary;
    match c.reads[slot.0 as usize] {
        Read::Attack(TestField::Level) => {
            Box::new(|env| env.bound.attack.map_or(u32::MAX, |test| test.level))
        }
        Read::Defence(TestField::Level) => {
            Box::new(|env| env.bound.defence.map_or(u32::MAX, |test| test.level))
        }
        Read::AgainstLevel => Box::new(|env| env.bound.against_level.unwrap_or(u32::MAX)),
        Read::Wound => Box::new(|env| env.bound.wound.unwrap_or(u32::MAX)),
        Read::Location => {
            let list = interned(&vocabulary.locations);
            Box::new(move |env| place(&list, env.bound.location))
        }
        Read::ItemSize => {
            let list = interned(&vocabulary.weapon_sizes);
            Box::new(move |env| place(&list, env.bound.item.and_then(|w| w.size)))
        }
        Read::ParrySize => {
            let list = interned(&vocabulary.weapon_sizes);
            Box::new(move |env| place(&list, env.bound.parry.and_then(|w| w.size)))
        }
        _ => Box::new(move |env| env.symbol(slot)),
    }
}

/// The code of a comparison, with a constant side folded into the closure.
fn compare(comparison: Comparison, a: &Number, b: &Number, c: &mut Compiler<'_>) -> Flag {
    match comparison {
        Comparison::Equal => both(a, b, c, |x, y| x == y),
        Comparison::NotEqual => both(a, b, c, |x, y| x != y),
        Comparison::Less => both(a, b, c, |x, y| x < y),
        Comparison::LessOrEqual => both(a, b, c, |x, y| x <= y),
        Comparison::Greater => both(a, b, c, |x, y| x > y),
        Comparison::GreaterOrEqual => both(a, b, c, |x, y| x >= y),
    }
}

/// The code of a number.
fn count(number: &Number, c: &mut Compiler<'_>) -> Count {
    match number {
        &Number::Const(value) => Box::new(move |_| value),
        Number::Read(slot) => number_read(*slot, c),
        Number::Roll(dice) => {
            let dice = dice.as_ref().clone();
            Box::new(move |env| env.roll(&dice))
        }
        &Number::RollSlot(slot) => Box::new(move |env| env.roll_slot(slot)),
        Number::Negate(a) => {
            let a = count(a, c);
            Box::new(move |env| a(env).saturating_neg())
        }
        Number::Abs(a) => {
            let a = count(a, c);
            Box::new(move |env| a(env).saturating_abs())
        }
        Number::Add(a, b) => both(a, b, c, i64::saturating_add),
        Number::Subtract(a, b) => both(a, b, c, i64::saturating_sub),
        Number::Multiply(a, b) => both(a, b, c, i64::saturating_mul),
        Number::Divide(a, b, rounding) => {
            let rounding = *rounding;
            both(a, b, c, move |x, y| divide(x, y, rounding))
        }
        Number::Min(all) => {
            let all: Box<[Count]> = all.iter().map(|a| count(a, c)).collect();
            Box::new(move |env| all.iter().map(|a| a(env)).min().unwrap_or(0))
        }
        Number::Max(all) => {
            let all: Box<[Count]> = all.iter().map(|a| count(a, c)).collect();
            Box::new(move |env| all.iter().map(|a| a(env)).max().unwrap_or(0))
        }
        Number::If(condition, then, otherwise) => {
            either(flag(condition, c), count(then, c), count(otherwise, c))
        }
        Number::Lookup(rows, key) => {
            let (rows, key) = (rows.clone(), count(key, c));
            Box::new(move |env| {
                let key = key(env);
                rows.iter()
                    .find(|(low, high, _)| {
                        low.is_none_or(|low| low <= key) && high.is_none_or(|high| key <= high)
                    })
                    .map_or(0, |row| row.2)
            })
        }
        Number::Native(native) => count(&native.tree, c),
        // The rarer nodes (symbols, counts over a collection, dice bounds, maximised
        // dice) are evaluated as the tree.
        Number::DiceBound(..)
        | Number::DiceCount(_)
        | Number::DicePips(_)
        | Number::Pool(_)
        | Number::Rank(_)
        | Number::Count(..)
        | Number::LookupMember(..)
        | Number::Maximise(..) => {
            let tree = number.clone();
            Box::new(move |env| tree.eval(env))
        }
    }
}

/// `any(over, body)` (`decides` true: the first member the body holds for decides) or
/// `all(over, body)` (false), going through the collection as the tree does: the
/// binding before it put back after the last member.
fn through(over: Slot, body: Flag, decides: bool) -> Flag {
    Box::new(move |env| {
        env.enter(over);
        let mut index = 0;
        let mut answer = !decides;
        while env.bind(over, index) {
            answer = body(env);
            if answer == decides {
                break;
            }
            index += 1;
        }
        env.leave(over);
        answer
    })
}

/// `if condition { then } else { otherwise }`.
fn either<T: 'static>(condition: Flag, then: Code<T>, otherwise: Code<T>) -> Code<T> {
    Box::new(move |env| {
        if condition(env) {
            then(env)
        } else {
            otherwise(env)
        }
    })
}

/// Two numbers combined (added, compared, ...), `a` worked out first as the tree does,
/// a constant side folded into the closure.
fn both<T: 'static>(
    a: &Number,
    b: &Number,
    c: &mut Compiler<'_>,
    combine: impl Fn(i64, i64) -> T + Copy + Send + Sync + 'static,
) -> Code<T> {
    match (a, b) {
        (_, &Number::Const(b)) => {
            let a = count(a, c);
            Box::new(move |env| combine(a(env), b))
        }
        (&Number::Const(a), _) => {
            let b = count(b, c);
            Box::new(move |env| combine(a, b(env)))
        }
        _ => {
            let (a, b) = (count(a, c), count(b, c));
            Box::new(move |env| {
                let a = a(env);
                combine(a, b(env))
            })
        }
    }
}

/// A flag read resolved to what it loads; the others through the environment's reads.
fn flag_read(slot: Slot, c: &mut Compiler<'_>) -> Flag {
    match c.reads[slot.0 as usize] {
        Read::Condition(who, _, bit) if bit != 0 => {
            of_combatant(who, move |c| bits_hold(c, BitsOf::Conditions, bit, false))
        }
        Read::Holds(who, _, bit) if bit != 0 => {
            of_combatant(who, move |c| bits_hold(c, BitsOf::InHand, bit, false))
        }
        Read::Bits {
            who,
            of,
            mask,
            every,
        } => of_combatant(who, move |c| bits_hold(c, of, mask, every)),
        Read::Out(who) => of_combatant(who, |c| c.out),
        Read::NoValues {
            who,
            ref names,
            mask,
        } => {
            let names = names.clone();
            // No one: none of the values is held.
            of_combatant_or(who, true, move |c| c.values.none_of(&names, mask))
        }
        // A weapon's traits are bits where the ruleset declares them
        // ([`crate::engine::model::Weapon::trait_bits`]).
        Read::ItemTrait(name) => match weapon_trait_bit(c.vocabulary, name) {
            0 => Box::new(move |env| env.bound.item.is_some_and(|w| w.traits.contains(&name))),
            bit => Box::new(move |env| env.bound.item.is_some_and(|w| w.trait_bits & bit != 0)),
        },
        Read::ParryTrait(name) => match weapon_trait_bit(c.vocabulary, name) {
            0 => Box::new(move |env| env.bound.parry.is_some_and(|w| w.traits.contains(&name))),
            bit => Box::new(move |env| env.bound.parry.is_some_and(|w| w.trait_bits & bit != 0)),
        },
        Read::Attacking => Box::new(|env| env.bound.attacking),
        Read::Reaction(index) => Box::new(move |env| env.bound.reaction == index),
        Read::OutcomeWon(attacker) => {
            Box::new(move |env| env.bound.outcome.is_some_and(|(won, _)| won == attacker))
        }
        _ => Box::new(move |env| env.flag(slot)),
    }
}

/// The bit of the weapon trait `name` among the ruleset's (0: not one of the first 64).
fn weapon_trait_bit(vocabulary: &Vocabulary, name: Name) -> u64 {
    bit_at(vocabulary.weapon_traits.iter().position(|t| *t == *name))
}

/// What `read` gives of the fight's state and the place of the combatant `who` names;
/// 0 when it names no one.
fn of_place(who: Who, read: impl Fn(&Core, usize) -> i64 + Send + Sync + 'static) -> Count {
    Box::new(move |env| match who.of(&env.bound) {
        Some(at) => env.with_core(|core| read(core, at)),
        None => 0,
    })
}

/// What `read` gives of the combatant `who` names; false or 0 when it names no one.
fn of_combatant<T: Default + Copy + Send + Sync + 'static>(
    who: Who,
    read: impl Fn(&Combatant) -> T + Send + Sync + 'static,
) -> Code<T> {
    of_combatant_or(who, T::default(), read)
}

/// What `read` gives of the combatant `who` names; `nobody` when it names no one.
fn of_combatant_or<T: Copy + Send + Sync + 'static>(
    who: Who,
    nobody: T,
    read: impl Fn(&Combatant) -> T + Send + Sync + 'static,
) -> Code<T> {
    match who {
        Who::Me => Box::new(move |env| {
            let me = env.bound.me;
            env.with_core(|core| read(&core.combatants[me]))
        }),
        _ => Box::new(move |env| match who.of(&env.bound) {
            Some(at) => env.with_core(|core| read(&core.combatants[at])),
            None => nobody,
        }),
    }
}

/// The figure at `place` among the fixed reads of the combatant `who` names (0 when it
/// names no one), read through the environment where the fight did not look it up.
fn fixed(slot: Slot, who: Who, place: usize) -> Count {
    Box::new(move |env| {
        let Some(at) = who.of(&env.bound) else {
            return 0;
        };
        match env.with_core(|core| core.combatants[at].fixed.get(place).copied()) {
            Some(value) => value,
            None => env.number(slot),
        }
    })
}

/// A number read resolved to what it loads; the others through the environment's
/// reads. A test's roll or total is read through them in an enumeration, where a roll
/// drawn by its level alone is drawn when read.
fn number_read(slot: Slot, c: &mut Compiler<'_>) -> Count {
    match c.reads[slot.0 as usize] {
        Read::Value(who, name) => {
            of_combatant(who, move |c| c.values.get(&name).copied().unwrap_or(0))
        }
        Read::ActionsLeft(who) => of_combatant(who, |c| c.actions_left),
        // A figure of the scenario: looked up once a fight.
        Read::Skill(who, name) => fixed(slot, who, c.fixed(Read::Skill(Who::Me, name))),
        Read::Characteristic(who, name) => {
            fixed(slot, who, c.fixed(Read::Characteristic(Who::Me, name)))
        }
        Read::Statistic(who, name) => fixed(slot, who, c.fixed(Read::Statistic(Who::Me, name))),
        Read::SkillOf(who, name) => fixed(slot, who, c.fixed(Read::SkillOf(Who::Me, name))),
        Read::Round => Box::new(|env| env.with_core(|core| i64::from(core.round))),
        Read::Opponents(who) => of_place(who, |core, at| side_count(core, at, false, false)),
        Read::Allies(who) => of_place(who, |core, at| side_count(core, at, true, false)),
        Read::Engaged(who) => of_place(who, |core, at| side_count(core, at, false, true)),
        Read::Distance => Box::new(|env| match env.bound.other {
            Some(other) => {
                env.with_core(|core| core.distances[env.bound.me * core.combatants.len() + other])
            }
            None => 0,
        }),
        Read::ItemHands => {
            Box::new(|env| env.bound.item.map_or(0, |w| w.hands.map_or(1, i64::from)))
        }
        Read::LocationArmour => {
            Box::new(|env| env.with_core(|core| location_figure(core, &env.bound, |l| l.armour)))
        }
        Read::LocationHitPoints => Box::new(|env| {
            env.with_core(|core| location_figure(core, &env.bound, |l| l.hit_points))
        }),
        Read::LocationMaxHitPoints => Box::new(|env| {
            env.with_core(|core| location_figure(core, &env.bound, |l| l.max_hit_points))
        }),
        Read::Chosen(index) => Box::new(move |env| i64::from(env.bound.chosen[index as usize])),
        Read::Damage => Box::new(|env| env.bound.damage),
        Read::Rolled => Box::new(|env| env.bound.rolled),
        Read::TestTarget => Box::new(|env| env.bound.test.target),
        Read::TestRoll => Box::new(move |env| {
            if env.merging {
                env.number(slot)
            } else {
                env.bound.test.roll
            }
        }),
        Read::TestTotal => Box::new(move |env| {
            if env.merging {
                env.number(slot)
            } else {
                env.bound.test.total
            }
        }),
        Read::Attack(field) => Box::new(move |env| {
            if env.merging {
                env.number(slot)
            } else {
                env.bound.test_field(false, field)
            }
        }),
        Read::Defence(field) => Box::new(move |env| {
            if env.merging {
                env.number(slot)
            } else {
                env.bound.test_field(true, field)
            }
        }),
        _ => Box::new(move |env| env.number(slot)),
    }
}
