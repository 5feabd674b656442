//! Compiled expressions and their evaluation. Each type of value has its own tree, so
//! that evaluation never checks a type: the compiler did.

use crate::dice::{DiceExpr, DiceTerm, TermKind};

use super::{NumberedRow, Slot};

/// What an expression reads while it is evaluated: the values behind the slots its scope
/// handed out, and the dice.
///
/// An environment reads only the slots its scope handed out: one whose scope hands out
/// no symbol and rolls no dice (a formula's, a tactics rule's) keeps the defaults, which
/// are never reached.
pub trait Env {
    fn number(&mut self, slot: Slot) -> i64;
    fn flag(&mut self, slot: Slot) -> bool;
    /// The member's place in its domain.
    fn symbol(&self, _slot: Slot) -> u32 {
        0
    }
    /// Roll the dice behind a slot of type dice.
    fn roll_slot(&mut self, _slot: Slot) -> i64 {
        0
    }
    /// The least and the most the dice behind a slot of type dice can roll.
    fn dice_bounds(&self, _slot: Slot) -> (i64, i64) {
        (0, 0)
    }
    /// The dice behind a slot of type dice, if there are any.
    fn slot_dice(&self, _slot: Slot) -> Option<DiceExpr> {
        None
    }
    /// Roll dice written in the expression.
    fn roll(&mut self, _dice: &DiceExpr) -> i64 {
        0
    }
    /// Roll dice that are part of a pool, `label` added to what they are for (`exploding
    /// die`); empty: as [`Env::roll`].
    fn roll_labelled(&mut self, dice: &DiceExpr, _label: &str) -> i64 {
        self.roll(dice)
    }
    /// The first face of an exploding die just rolled, for the test being rolled to keep.
    fn exploding_die(&mut self, _face: i64) {}
    /// An exploding die called `label` whose first face, a 1, took itself and the
    /// highest other die of its pool (`highest`, 0 when it was alone) away: for the log.
    fn exploding_one_subtracts(&mut self, _label: &str, _highest: i64) {}
    /// Bind the `index`-th member of a collection (`any(opponents, ...)`) for the body
    /// to read; false past the last. The binding before `enter` is back after `leave`.
    fn bind(&mut self, _collection: Slot, _index: usize) -> bool {
        false
    }
    fn enter(&mut self, _collection: Slot) {}
    fn leave(&mut self, _collection: Slot) {}
    /// A condition compiled to native code: run by the environment that compiled it,
    /// evaluated as a tree by any other.
    fn native_flag(&mut self, native: &Native<Condition>) -> bool {
        native.tree.eval(self)
    }
    /// A number compiled to native code, as [`Env::native_flag`].
    fn native_number(&mut self, native: &Native<Number>) -> i64 {
        native.tree.eval(self)
    }
}

/// An expression compiled to native code by the environment that runs it (the engine
/// compiles the guards and formulas of a combat it has specialised into closures over
/// the fight's state), kept beside the tree it was compiled from. That environment runs
/// its code number `code` ([`Env::native_flag`]); any other evaluates the tree, and
/// every question about the expression (what it reads, whether it rolls, its
/// distribution) is answered from the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Native<T> {
    pub tree: T,
    /// The place of the code among those the environment made, as a slot is the place
    /// of a read among those its scope handed out.
    pub code: u32,
}

/// Visit the members of a collection until `visit` says stop.
fn each<E: Env + ?Sized>(env: &mut E, over: Slot, mut visit: impl FnMut(&mut E) -> bool) {
    env.enter(over);
    let mut index = 0;
    while env.bind(over, index) && visit(env) {
        index += 1;
    }
    env.leave(over);
}

/// An expression whose value is a number.
#[derive(Clone, Debug, PartialEq)]
pub enum Number {
    Const(i64),
    Read(Slot),
    Roll(Box<DiceExpr>),
    RollSlot(Slot),
    /// The most (`true`) or the least the dice behind a slot can roll, not rolled.
    DiceBound(Slot, bool),
    Negate(Box<Number>),
    Add(Box<Number>, Box<Number>),
    Subtract(Box<Number>, Box<Number>),
    Multiply(Box<Number>, Box<Number>),
    /// Rounded down (towards minus infinity), as the books' "rounded down".
    Divide(Box<Number>, Box<Number>, Rounding),
    Min(Vec<Number>),
    Max(Vec<Number>),
    Abs(Box<Number>),
    /// The place of a symbol in its domain, first = 0.
    Rank(Box<Symbol>),
    /// How many members of a collection the condition holds for.
    Count(Slot, Box<Condition>),
    If(Box<Condition>, Box<Number>, Box<Number>),
    /// `lookup("table", key)` with a number key: the first row whose range holds it.
    Lookup(Box<[NumberedRow]>, Box<Number>),
    /// `lookup("table", weapon.size)`: the value of each member of the key's domain.
    LookupMember(Box<[i64]>, Box<Symbol>),
    /// `maximise(dice, n)`: the dice rolled with `n` of them (the first) at their most.
    Maximise(Box<Number>, Box<Number>),
    /// `dice(weapon.damage)`: how many dice the slot's dice roll.
    DiceCount(Slot),
    /// `pips(self.dice.fighting)`: what the slot's dice add besides their dice (2 for
    /// 4D6+2).
    DicePips(Slot),
    /// `pool(n, sides)` or `exploding(n, sides)`: as many dice as a number says,
    /// rolled together ([`Pool`]).
    Pool(Box<Pool>),
    /// The number compiled to native code ([`Native`]).
    Native(Box<Native<Number>>),
}

/// The most times an exploding die is rolled again.
const MOST_EXPLOSIONS: u32 = 100;

/// A pool of dice whose count an expression gives: `pool(n, 6)` rolls n six-sided dice
/// together; `exploding(n, 6)` rolls n - 1 of them together and the last on its own,
/// again and added each time it shows its highest face, and the test keeps that die's
/// first face (`attack.exploding_die`). No dice (a count of 0 or less) come to 0.
/// `exploding(n, 6, "bonus die", CONDITION)`: where the condition holds, the other dice
/// are rolled one by one, and a 1 as the exploding die's first face takes itself and
/// the highest of them away.
#[derive(Clone, Debug, PartialEq)]
pub struct Pool {
    pub count: Number,
    pub sides: u32,
    /// The last die rolled on its own and exploding: what the log calls it, and what it
    /// calls it rolled again (`exploding(n, 6, "bonus die")`: "bonus die", "bonus die
    /// explodes"); `None` for a plain pool.
    pub exploding: Option<(String, String)>,
    /// Where this holds (a guard: it rolls nothing), a first 1 on the exploding die takes
    /// itself and the highest other die away; `None` where it never does.
    pub one_subtracts: Option<Condition>,
    /// The dice of each count from 1 to [`Limits::MAX_COUNT`](crate::dice::Limits), made
    /// once when the expression is compiled, so that a roll builds none.
    pub dice: Box<[DiceExpr]>,
}

impl Pool {
    /// A plain pool, or one whose last die explodes, called `label` in the log.
    pub fn new(count: Number, sides: u32, exploding: Option<&str>) -> Pool {
        let dice = (1..=crate::dice::Limits::MAX_COUNT)
            .filter_map(|count| {
                DiceExpr::new(vec![DiceTerm {
                    negative: false,
                    kind: TermKind::Dice { count, sides },
                }])
                .ok()
            })
            .collect();
        Pool {
            count,
            sides,
            exploding: exploding.map(|label| (label.to_string(), format!("{label} explodes"))),
            one_subtracts: None,
            dice,
        }
    }

    /// `n` dice of the pool's sides (`n` from 1).
    fn of(&self, n: i64) -> Option<&DiceExpr> {
        let at = usize::try_from(n).ok()?.checked_sub(1)?;
        self.dice.get(at.min(self.dice.len().saturating_sub(1)))
    }

    fn roll<E: Env + ?Sized>(&self, env: &mut E) -> i64 {
        let count = self.count.eval(env);
        let Some((label, again)) = &self.exploding else {
            return self.of(count).map_or(0, |dice| env.roll(dice));
        };
        let Some(one) = self.of(1) else {
            return 0;
        };
        if count < 1 {
            return 0;
        }
        // Where a 1 may take the highest other die away, the others one by one, so that
        // the highest is known; else together. Then the exploding die on its own.
        let subtracts = self
            .one_subtracts
            .as_ref()
            .is_some_and(|condition| condition.eval(env));
        let mut highest = 0i64;
        let mut total = if subtracts {
            let mut total = 0i64;
            for _ in 0..(count - 1).min(i64::from(crate::dice::Limits::MAX_COUNT)) {
                let face = env.roll_labelled(one, "");
                highest = highest.max(face);
                total = total.saturating_add(face);
            }
            total
        } else {
            self.of(count - 1)
                .map_or(0, |others| env.roll_labelled(others, ""))
        };
        let first = env.roll_labelled(one, label);
        env.exploding_die(first);
        total = total.saturating_add(first);
        let mut face = first;
        // Again and added for as long as it shows its highest face; a die that cannot
        // be rolled reads 0 and ends it, and so does the hundredth explosion (a chance
        // of one in sides^100: a die that never stops is a broken source of dice, not a
        // roll).
        let mut explosions = 0;
        while face == i64::from(self.sides) && explosions < MOST_EXPLOSIONS {
            explosions += 1;
            face = env.roll_labelled(one, again);
            total = total.saturating_add(face);
        }
        if subtracts && first == 1 {
            total = total.saturating_sub(1 + highest);
            env.exploding_one_subtracts(label, highest);
        }
        total
    }
}

/// How many dice an expression rolls (`2D8+1D4+1`: 3).
pub fn dice_count(dice: &DiceExpr) -> i64 {
    dice.terms()
        .iter()
        .map(|term| match term.kind {
            TermKind::Dice { count, .. } => i64::from(count),
            TermKind::Constant(_) => 0,
        })
        .sum()
}

/// What an expression adds besides its dice (`4D6+2`: 2; `2D6-1`: -1).
pub fn dice_pips(dice: &DiceExpr) -> i64 {
    dice.terms()
        .iter()
        .map(|term| match term.kind {
            TermKind::Dice { .. } => 0,
            TermKind::Constant(n) if term.negative => -i64::from(n),
            TermKind::Constant(n) => i64::from(n),
        })
        .sum()
}

/// Roll `dice` with its first `count` dice (of the terms added) at their most.
fn roll_maximised<E: Env + ?Sized>(env: &mut E, dice: &DiceExpr, count: i64) -> i64 {
    let (fixed, rest) = maximised(dice, count);
    match rest {
        Some(rest) => fixed.saturating_add(env.roll(&rest)),
        None => fixed,
    }
}

/// `dice` with its first `count` dice (of the terms added) at their most: what those
/// come to, and the dice left to roll, if any.
pub(super) fn maximised(dice: &DiceExpr, count: i64) -> (i64, Option<DiceExpr>) {
    let mut left = count.max(0);
    let mut fixed = 0i64;
    let mut rest = Vec::new();
    for term in dice.terms() {
        match term.kind {
            TermKind::Dice { count, sides } if !term.negative && left > 0 => {
                let take = i64::from(count).min(left);
                left -= take;
                fixed = fixed.saturating_add(take.saturating_mul(i64::from(sides)));
                if i64::from(count) > take {
                    rest.push(DiceTerm {
                        negative: false,
                        kind: TermKind::Dice {
                            count: count - take as u32,
                            sides,
                        },
                    });
                }
            }
            _ => rest.push(*term),
        }
    }
    // Fewer terms than before: within the limits the whole expression kept.
    match DiceExpr::new(rest) {
        Ok(rest) if !rest.terms().is_empty() => (fixed, Some(rest)),
        _ => (fixed, None),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    Down,
    Up,
    /// To the nearest, halves up.
    Nearest,
}

/// An expression whose value is true or false: a guard.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    Const(bool),
    Read(Slot),
    Not(Box<Condition>),
    /// Every one holds (`a and b and c`, one list however long the chain), tried in
    /// order until one does not.
    AllOf(Vec<Condition>),
    /// Some one holds, tried in order.
    AnyOf(Vec<Condition>),
    Compare(Comparison, Box<Number>, Box<Number>),
    /// Two symbols of one domain are the same (`true`) or differ (`false`).
    Same(bool, Box<Symbol>, Box<Symbol>),
    /// Two conditions are equal (`true`) or differ (`false`).
    Equal(bool, Box<Condition>, Box<Condition>),
    If(Box<Condition>, Box<Condition>, Box<Condition>),
    /// The condition holds for some member of a collection.
    Any(Slot, Box<Condition>),
    /// The condition holds for every member of a collection (none: true).
    All(Slot, Box<Condition>),
    /// The condition compiled to native code ([`Native`]).
    Native(Box<Native<Condition>>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
}

/// An expression whose value is a member of a domain.
#[derive(Clone, Debug, PartialEq)]
pub enum Symbol {
    Const(u32),
    Read(Slot),
    If(Box<Condition>, Box<Symbol>, Box<Symbol>),
}

impl Number {
    pub fn eval<E: Env + ?Sized>(&self, env: &mut E) -> i64 {
        match self {
            Number::Const(n) => *n,
            Number::Read(slot) => env.number(*slot),
            Number::Roll(dice) => env.roll(dice),
            Number::RollSlot(slot) => env.roll_slot(*slot),
            Number::Lookup(rows, key) => {
                let key = key.eval(env);
                rows.iter()
                    .find(|(low, high, _)| {
                        low.is_none_or(|low| low <= key) && high.is_none_or(|high| key <= high)
                    })
                    .map_or(0, |row| row.2)
            }
            Number::LookupMember(values, key) => {
                let member = key.eval(env) as usize;
                values.get(member).copied().unwrap_or(0)
            }
            Number::Maximise(dice, count) => {
                let count = count.eval(env);
                if count <= 0 {
                    return dice.eval(env);
                }
                let expr = match dice.as_ref() {
                    Number::Roll(expr) => Some(expr.as_ref().clone()),
                    Number::RollSlot(slot) => env.slot_dice(*slot),
                    _ => None,
                };
                match expr {
                    Some(expr) => roll_maximised(env, &expr, count),
                    None => dice.eval(env),
                }
            }
            Number::DiceCount(slot) => env.slot_dice(*slot).map_or(0, |dice| dice_count(&dice)),
            Number::DicePips(slot) => env.slot_dice(*slot).map_or(0, |dice| dice_pips(&dice)),
            Number::Pool(pool) => pool.roll(env),
            Number::Native(native) => env.native_number(native),
            Number::DiceBound(slot, most) => {
                let (least, highest) = env.dice_bounds(*slot);
                if *most { highest } else { least }
            }
            Number::Negate(a) => a.eval(env).saturating_neg(),
            Number::Add(a, b) => a.eval(env).saturating_add(b.eval(env)),
            Number::Subtract(a, b) => a.eval(env).saturating_sub(b.eval(env)),
            Number::Multiply(a, b) => a.eval(env).saturating_mul(b.eval(env)),
            Number::Divide(a, b, rounding) => divide(a.eval(env), b.eval(env), *rounding),
            Number::Min(all) => all.iter().map(|a| a.eval(env)).min().unwrap_or(0),
            Number::Max(all) => all.iter().map(|a| a.eval(env)).max().unwrap_or(0),
            Number::Abs(a) => a.eval(env).saturating_abs(),
            Number::Rank(symbol) => i64::from(symbol.eval(env)),
            Number::Count(over, body) => {
                let mut count = 0;
                each(env, *over, |env| {
                    count += i64::from(body.eval(env));
                    true
                });
                count
            }
            Number::If(condition, then, otherwise) => {
                if condition.eval(env) {
                    then.eval(env)
                } else {
                    otherwise.eval(env)
                }
            }
        }
    }

    /// The value when it needs nothing from outside.
    pub fn as_constant(&self) -> Option<i64> {
        match self {
            Number::Const(n) => Some(*n),
            _ => None,
        }
    }
}

/// `a / b` rounded as asked; 0 when `b` is 0 (a rule divides by a count that may be
/// zero; the fight goes on rather than stop).
pub fn divide(a: i64, b: i64, rounding: Rounding) -> i64 {
    if b == 0 {
        return 0;
    }
    // In i128 nothing overflows (i64::MIN / -1 included); the result is clamped back.
    let (a, b) = (i128::from(a), i128::from(b));
    let floor = a.div_euclid(b) - i128::from(b < 0 && a.rem_euclid(b) != 0);
    let result = match rounding {
        Rounding::Down => floor,
        Rounding::Up => {
            if floor * b == a {
                floor
            } else {
                floor + 1
            }
        }
        // The nearest whole number, halves up: floor(a / b + 1/2) = floor((2a + b) / 2b).
        Rounding::Nearest => {
            let (n, d) = if b < 0 {
                (-2 * a - b, -2 * b)
            } else {
                (2 * a + b, 2 * b)
            };
            n.div_euclid(d)
        }
    };
    result.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

impl Condition {
    pub fn eval<E: Env + ?Sized>(&self, env: &mut E) -> bool {
        match self {
            Condition::Const(b) => *b,
            Condition::Read(slot) => env.flag(*slot),
            Condition::Not(a) => !a.eval(env),
            Condition::AllOf(all) => all.iter().all(|c| c.eval_leaf(env)),
            Condition::AnyOf(some) => some.iter().any(|c| c.eval_leaf(env)),
            Condition::Compare(comparison, a, b) => {
                compare(*comparison, a.eval_leaf(env), b.eval_leaf(env))
            }
            Condition::Any(over, body) => {
                let mut found = false;
                each(env, *over, |env| {
                    found = body.eval(env);
                    !found
                });
                found
            }
            Condition::All(over, body) => {
                let mut all = true;
                each(env, *over, |env| {
                    all = body.eval(env);
                    all
                });
                all
            }
            Condition::Same(same, a, b) => (a.eval(env) == b.eval(env)) == *same,
            Condition::Equal(same, a, b) => (a.eval(env) == b.eval(env)) == *same,
            Condition::Native(native) => env.native_flag(native),
            Condition::If(condition, then, otherwise) => {
                if condition.eval(env) {
                    then.eval(env)
                } else {
                    otherwise.eval(env)
                }
            }
        }
    }
}

impl Condition {
    /// `a` and `b` as one list: a chain of `and`s evaluates in a loop, not a recursion.
    pub fn and(a: Condition, b: Condition) -> Condition {
        Condition::AllOf(Self::joined(a, b, |c| match c {
            Condition::AllOf(list) => Ok(list),
            other => Err(other),
        }))
    }

    /// `a` or `b` as one list.
    pub fn or(a: Condition, b: Condition) -> Condition {
        Condition::AnyOf(Self::joined(a, b, |c| match c {
            Condition::AnyOf(list) => Ok(list),
            other => Err(other),
        }))
    }

    fn joined(
        a: Condition,
        b: Condition,
        open: impl Fn(Condition) -> Result<Vec<Condition>, Condition>,
    ) -> Vec<Condition> {
        let mut list = open(a).unwrap_or_else(|one| vec![one]);
        match open(b) {
            Ok(more) => list.extend(more),
            Err(one) => list.push(one),
        }
        list
    }

    /// The members of a list, with the commonest leaves (a read, its negation, a
    /// comparison of two plain numbers) read here rather than in a call of their own.
    #[inline(always)]
    fn eval_leaf<E: Env + ?Sized>(&self, env: &mut E) -> bool {
        match self {
            Condition::Read(slot) => env.flag(*slot),
            Condition::Not(inner) => match inner.as_ref() {
                Condition::Read(slot) => !env.flag(*slot),
                other => !other.eval(env),
            },
            Condition::Compare(comparison, a, b) => {
                compare(*comparison, a.eval_leaf(env), b.eval_leaf(env))
            }
            other => other.eval(env),
        }
    }
}

fn compare(comparison: Comparison, a: i64, b: i64) -> bool {
    match comparison {
        Comparison::Equal => a == b,
        Comparison::NotEqual => a != b,
        Comparison::Less => a < b,
        Comparison::LessOrEqual => a <= b,
        Comparison::Greater => a > b,
        Comparison::GreaterOrEqual => a >= b,
    }
}

impl Number {
    /// A plain number or read here; anything else by [`Number::eval`].
    #[inline(always)]
    fn eval_leaf<E: Env + ?Sized>(&self, env: &mut E) -> i64 {
        match self {
            Number::Const(n) => *n,
            Number::Read(slot) => env.number(*slot),
            other => other.eval(env),
        }
    }
}

impl Symbol {
    pub fn eval<E: Env + ?Sized>(&self, env: &mut E) -> u32 {
        match self {
            Symbol::Const(member) => *member,
            Symbol::Read(slot) => env.symbol(*slot),
            Symbol::If(condition, then, otherwise) => {
                if condition.eval(env) {
                    then.eval(env)
                } else {
                    otherwise.eval(env)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_rounds_as_asked() {
        use Rounding::*;
        for (a, b, down, up, nearest) in [
            (7, 2, 3, 4, 4),
            (6, 2, 3, 3, 3),
            (-7, 2, -4, -3, -3),
            (7, -2, -4, -3, -3),
            (-7, -2, 3, 4, 4),
            (5, 10, 0, 1, 1),
            (4, 10, 0, 1, 0),
            (0, 3, 0, 0, 0),
            (72, 10, 7, 8, 7),
        ] {
            assert_eq!(divide(a, b, Down), down, "{a} / {b} down");
            assert_eq!(divide(a, b, Up), up, "{a} / {b} up");
            assert_eq!(divide(a, b, Nearest), nearest, "{a} / {b} nearest");
        }
        assert_eq!(divide(5, 0, Down), 0);
        assert_eq!(divide(i64::MIN, -1, Down), i64::MAX);
    }
}
