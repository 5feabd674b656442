//! The distribution of a number whose dice are rolled independently: each value it can
//! come to with the number of ways, as an enumeration draws it in one outcome (`affray
//! odds`: a blow's `max(1D8, 1D8) + 1D4`, the better of two damage rolls and a bonus, is its
//! eleven totals, not 256 faces).

use crate::dice::DiceExpr;

use super::eval::{Env, Number, divide, maximised};

/// Values with their ways, lowest first.
pub type Ways = Vec<(i64, u64)>;

/// The most values a distribution keeps before it is given up (then the dice are rolled
/// one by one).
const MOST_VALUES: usize = 10_000;

impl Number {
    /// Each value this number can come to with its ways, its dice rolled independently
    /// and everything else read once from `env`; `None` where that cannot be said (a
    /// condition or a count that rolls, too many values, ways past 64 bits). Nothing is
    /// rolled.
    pub fn distribution<E: Env + ?Sized>(&self, env: &mut E) -> Option<Ways> {
        let point = |value: i64| Some(vec![(value, 1)]);
        match self {
            Number::Const(n) => point(*n),
            Number::Read(slot) => point(env.number(*slot)),
            Number::Roll(dice) => dice.totals(),
            Number::RollSlot(slot) => match env.slot_dice(*slot) {
                Some(dice) => dice.totals(),
                // A number given where dice may be: read, not rolled.
                None => point(env.roll_slot(*slot)),
            },
            Number::DiceBound(..) | Number::DiceCount(_) | Number::DicePips(_) => {
                point(self.eval(env))
            }
            Number::Pool(pool) if pool.exploding.is_none() && !pool.count.rolls() => {
                match usize::try_from(pool.count.eval(env)) {
                    Ok(0) | Err(_) => point(0),
                    Ok(n) => pool.dice.get((n - 1).min(pool.dice.len() - 1))?.totals(),
                }
            }
            Number::Native(native) => native.tree.distribution(env),
            Number::Negate(a) => map(a.distribution(env)?, i64::saturating_neg),
            Number::Abs(a) => map(a.distribution(env)?, i64::saturating_abs),
            Number::Add(a, b) => both(a, b, env, i64::saturating_add),
            Number::Subtract(a, b) => both(a, b, env, i64::saturating_sub),
            Number::Multiply(a, b) => both(a, b, env, i64::saturating_mul),
            Number::Divide(a, b, rounding) => both(a, b, env, |x, y| divide(x, y, *rounding)),
            Number::Min(all) => each(all, env, i64::min),
            Number::Max(all) => each(all, env, i64::max),
            Number::Maximise(dice, count) if !count.rolls() => {
                let count = count.eval(env);
                let dice: Option<DiceExpr> = match dice.as_ref() {
                    Number::Roll(expr) => Some(expr.as_ref().clone()),
                    Number::RollSlot(slot) => env.slot_dice(*slot),
                    _ => None,
                };
                match dice {
                    Some(dice) if count > 0 => match maximised(&dice, count) {
                        (fixed, Some(rest)) => map(rest.totals()?, |t| t.saturating_add(fixed)),
                        (fixed, None) => point(fixed),
                    },
                    Some(dice) => dice.totals(),
                    // Not dice: the number as it is.
                    None => match self {
                        Number::Maximise(inner, _) => inner.distribution(env),
                        _ => None,
                    },
                }
            }
            Number::If(condition, then, otherwise) if !condition.rolls() => {
                if condition.eval(env) {
                    then.distribution(env)
                } else {
                    otherwise.distribution(env)
                }
            }
            Number::Lookup(_, key) if key.rolls() => None,
            Number::Rank(_) | Number::LookupMember(..) | Number::Lookup(..) | Number::Count(..)
                if !self.rolls() =>
            {
                point(self.eval(env))
            }
            _ => None,
        }
    }
}

fn map(ways: Ways, f: impl Fn(i64) -> i64) -> Option<Ways> {
    gather(ways.into_iter().map(|(value, w)| Some((f(value), w))))
}

fn both<E: Env + ?Sized>(
    a: &Number,
    b: &Number,
    env: &mut E,
    f: impl Fn(i64, i64) -> i64,
) -> Option<Ways> {
    let a = a.distribution(env)?;
    let b = b.distribution(env)?;
    combine(&a, &b, &f)
}

fn each<E: Env + ?Sized>(all: &[Number], env: &mut E, f: impl Fn(i64, i64) -> i64) -> Option<Ways> {
    let mut parts = all.iter();
    let mut ways = parts.next()?.distribution(env)?;
    for part in parts {
        ways = combine(&ways, &part.distribution(env)?, &f)?;
    }
    Some(ways)
}

/// Every pair of values of two independent numbers, combined by `f`.
fn combine(a: &Ways, b: &Ways, f: &dyn Fn(i64, i64) -> i64) -> Option<Ways> {
    if a.len().saturating_mul(b.len()) > MOST_VALUES * 10 {
        return None;
    }
    gather(
        a.iter()
            .flat_map(|x| b.iter().map(move |y| (x, y)))
            .map(|(x, y)| Some((f(x.0, y.0), x.1.checked_mul(y.1)?))),
    )
}

/// Values with their ways added up where they repeat, lowest first.
fn gather(values: impl Iterator<Item = Option<(i64, u64)>>) -> Option<Ways> {
    let mut all: Ways = values.collect::<Option<_>>()?;
    all.sort_unstable_by_key(|(value, _)| *value);
    let mut gathered: Ways = Vec::with_capacity(all.len());
    for (value, ways) in all {
        match gathered.last_mut() {
            Some(last) if last.0 == value => last.1 = last.1.checked_add(ways)?,
            _ => gathered.push((value, ways)),
        }
    }
    (gathered.len() <= MOST_VALUES).then_some(gathered)
}
