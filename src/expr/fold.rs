//! Folding what a fight already knows into its expressions: a read whose value cannot
//! change while the fight runs (a scenario's option, a skill nobody in the fight has)
//! becomes a constant, and what is left constant is worked out once. The folded
//! expression evaluates exactly as the original would, dice rolled in the same order:
//! only parts that read nothing and roll nothing are worked out ahead.

use super::Slot;
use super::eval::{Condition, Env, Number, Pool, Symbol};

/// The value a slot is known to read for a whole fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Known {
    Flag(bool),
    Number(i64),
}

/// Answers the slots a fight knows; `None` for those it reads as it goes.
pub type Knows<'k> = &'k dyn Fn(Slot) -> Option<Known>;

/// The environment of a part that reads nothing: never asked for a value.
struct Nothing;

impl Env for Nothing {
    fn number(&mut self, _: Slot) -> i64 {
        0
    }
    fn flag(&mut self, _: Slot) -> bool {
        false
    }
}

impl Number {
    /// This number with what `knows` answers folded in.
    pub fn fold(&self, knows: Knows<'_>) -> Number {
        let folded = match self {
            Number::Read(slot) => match knows(*slot) {
                Some(Known::Number(n)) => return Number::Const(n),
                _ => Number::Read(*slot),
            },
            Number::Const(_)
            | Number::Roll(_)
            | Number::RollSlot(_)
            | Number::DiceBound(..)
            | Number::DiceCount(_)
            | Number::DicePips(_) => return self.clone(),
            Number::Pool(pool) => Number::Pool(Box::new(Pool {
                count: pool.count.fold(knows),
                one_subtracts: pool.one_subtracts.as_ref().map(|c| c.fold(knows)),
                ..pool.as_ref().clone()
            })),
            // Folded as its tree: the code compiled from it no longer holds.
            Number::Native(native) => return native.tree.fold(knows),
            Number::Negate(a) => Number::Negate(a.fold_boxed(knows)),
            Number::Abs(a) => Number::Abs(a.fold_boxed(knows)),
            Number::Add(a, b) => Number::Add(a.fold_boxed(knows), b.fold_boxed(knows)),
            Number::Subtract(a, b) => Number::Subtract(a.fold_boxed(knows), b.fold_boxed(knows)),
            Number::Multiply(a, b) => Number::Multiply(a.fold_boxed(knows), b.fold_boxed(knows)),
            Number::Divide(a, b, rounding) => {
                Number::Divide(a.fold_boxed(knows), b.fold_boxed(knows), *rounding)
            }
            Number::Min(all) => Number::Min(all.iter().map(|a| a.fold(knows)).collect()),
            Number::Max(all) => Number::Max(all.iter().map(|a| a.fold(knows)).collect()),
            Number::Rank(symbol) => Number::Rank(Box::new(symbol.fold(knows))),
            Number::Lookup(rows, key) => Number::Lookup(rows.clone(), key.fold_boxed(knows)),
            Number::LookupMember(values, key) => {
                Number::LookupMember(values.clone(), Box::new(key.fold(knows)))
            }
            Number::Maximise(dice, count) => {
                Number::Maximise(dice.fold_boxed(knows), count.fold_boxed(knows))
            }
            Number::Count(over, body) => match body.fold(knows) {
                // Nobody counts: no member need be looked at.
                Condition::Const(false) => return Number::Const(0),
                body => Number::Count(*over, Box::new(body)),
            },
            Number::If(condition, then, otherwise) => match condition.fold(knows) {
                Condition::Const(true) => return then.fold(knows),
                Condition::Const(false) => return otherwise.fold(knows),
                condition => Number::If(
                    Box::new(condition),
                    then.fold_boxed(knows),
                    otherwise.fold_boxed(knows),
                ),
            },
        };
        if folded.reads_nothing() {
            Number::Const(folded.eval(&mut Nothing))
        } else {
            folded
        }
    }

    fn fold_boxed(&self, knows: Knows<'_>) -> Box<Number> {
        Box::new(self.fold(knows))
    }

    /// Whether every part of this node is a constant (so that it reads nothing and
    /// rolls nothing).
    fn reads_nothing(&self) -> bool {
        let constant = |n: &Number| matches!(n, Number::Const(_));
        match self {
            Number::Const(_) => true,
            Number::Negate(a) | Number::Abs(a) | Number::Lookup(_, a) => constant(a),
            Number::Add(a, b)
            | Number::Subtract(a, b)
            | Number::Multiply(a, b)
            | Number::Divide(a, b, _) => constant(a) && constant(b),
            Number::Min(all) | Number::Max(all) => all.iter().all(constant),
            Number::Rank(symbol) | Number::LookupMember(_, symbol) => {
                matches!(symbol.as_ref(), Symbol::Const(_))
            }
            _ => false,
        }
    }
}

impl Condition {
    /// This condition with what `knows` answers folded in.
    pub fn fold(&self, knows: Knows<'_>) -> Condition {
        match self {
            Condition::Const(_) => self.clone(),
            Condition::Read(slot) => match knows(*slot) {
                Some(Known::Flag(b)) => Condition::Const(b),
                _ => Condition::Read(*slot),
            },
            Condition::Not(a) => match a.fold(knows) {
                Condition::Const(b) => Condition::Const(!b),
                a => Condition::Not(Box::new(a)),
            },
            Condition::AllOf(all) => Self::fold_list(all, knows, true),
            Condition::AnyOf(some) => Self::fold_list(some, knows, false),
            Condition::Compare(comparison, a, b) => {
                let (a, b) = (a.fold(knows), b.fold(knows));
                let folded = Condition::Compare(*comparison, Box::new(a), Box::new(b));
                match &folded {
                    Condition::Compare(_, a, b)
                        if matches!(
                            (a.as_ref(), b.as_ref()),
                            (Number::Const(_), Number::Const(_))
                        ) =>
                    {
                        Condition::Const(folded.eval(&mut Nothing))
                    }
                    _ => folded,
                }
            }
            Condition::Same(same, a, b) => match (a.fold(knows), b.fold(knows)) {
                (Symbol::Const(a), Symbol::Const(b)) => Condition::Const((a == b) == *same),
                (a, b) => Condition::Same(*same, Box::new(a), Box::new(b)),
            },
            Condition::Equal(same, a, b) => match (a.fold(knows), b.fold(knows)) {
                (Condition::Const(a), Condition::Const(b)) => Condition::Const((a == b) == *same),
                (a, b) => Condition::Equal(*same, Box::new(a), Box::new(b)),
            },
            Condition::If(condition, then, otherwise) => match condition.fold(knows) {
                Condition::Const(true) => then.fold(knows),
                Condition::Const(false) => otherwise.fold(knows),
                condition => Condition::If(
                    Box::new(condition),
                    Box::new(then.fold(knows)),
                    Box::new(otherwise.fold(knows)),
                ),
            },
            // A body that never holds holds for no member; one that always holds, for
            // every member.
            Condition::Any(over, body) => match body.fold(knows) {
                Condition::Const(false) => Condition::Const(false),
                body => Condition::Any(*over, Box::new(body)),
            },
            Condition::All(over, body) => match body.fold(knows) {
                Condition::Const(true) => Condition::Const(true),
                body => Condition::All(*over, Box::new(body)),
            },
            Condition::Native(native) => native.tree.fold(knows),
        }
    }

    /// `a and b and ...` (`all`) or `a or b or ...`: a member that cannot change the
    /// answer is dropped; one that decides it ends the list, the members before it
    /// kept if one of them may roll a die (they are evaluated first). Members that only
    /// read change nothing, so a list of them before the decider is the decider alone.
    fn fold_list(members: &[Condition], knows: Knows<'_>, all: bool) -> Condition {
        let mut kept: Vec<Condition> = Vec::with_capacity(members.len());
        for member in members {
            match member.fold(knows) {
                Condition::Const(b) if b == all => {}
                Condition::Const(decides) => {
                    if !kept.iter().any(Condition::rolls) {
                        return Condition::Const(decides);
                    }
                    kept.push(Condition::Const(decides));
                    break;
                }
                member => kept.push(member),
            }
        }
        match kept.len() {
            0 => Condition::Const(all),
            1 => kept.pop().unwrap_or(Condition::Const(all)),
            _ if all => Condition::AllOf(kept),
            _ => Condition::AnyOf(kept),
        }
    }
}

impl Symbol {
    /// This symbol with what `knows` answers folded in.
    pub fn fold(&self, knows: Knows<'_>) -> Symbol {
        match self {
            Symbol::Const(_) | Symbol::Read(_) => self.clone(),
            Symbol::If(condition, then, otherwise) => match condition.fold(knows) {
                Condition::Const(true) => then.fold(knows),
                Condition::Const(false) => otherwise.fold(knows),
                condition => Symbol::If(
                    Box::new(condition),
                    Box::new(then.fold(knows)),
                    Box::new(otherwise.fold(knows)),
                ),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{DiceExpr, DiceTerm, TermKind};
    use crate::expr::eval::Comparison;

    /// Slot 0 is a known flag (false), slot 1 a known number (3), slot 2 unknown.
    fn knows(slot: Slot) -> Option<Known> {
        match slot.0 {
            0 => Some(Known::Flag(false)),
            1 => Some(Known::Number(3)),
            _ => None,
        }
    }

    fn unknown() -> Condition {
        Condition::Read(Slot(2))
    }

    #[test]
    fn a_list_keeps_what_is_evaluated_before_the_member_that_decides_it() {
        let roll = Condition::Compare(
            Comparison::Less,
            Box::new(Number::Roll(Box::new(
                DiceExpr::new(vec![DiceTerm {
                    negative: false,
                    kind: TermKind::Dice { count: 1, sides: 6 },
                }])
                .unwrap(),
            ))),
            Box::new(Number::Const(4)),
        );
        let list = Condition::AllOf(vec![roll.clone(), Condition::Read(Slot(0)), unknown()]);
        assert_eq!(
            list.fold(&knows),
            Condition::AllOf(vec![roll, Condition::Const(false)])
        );
        let first = Condition::AllOf(vec![Condition::Read(Slot(0)), unknown()]);
        assert_eq!(first.fold(&knows), Condition::Const(false));
        // A read before the member that decides it changes nothing: dropped.
        let read_first = Condition::AllOf(vec![unknown(), Condition::Read(Slot(0))]);
        assert_eq!(read_first.fold(&knows), Condition::Const(false));
        let any_true = Condition::AnyOf(vec![
            unknown(),
            Condition::Not(Box::new(Condition::Read(Slot(0)))),
        ]);
        assert_eq!(any_true.fold(&knows), Condition::Const(true));
        let any = Condition::AnyOf(vec![Condition::Read(Slot(0)), unknown()]);
        assert_eq!(any.fold(&knows), unknown());
    }

    #[test]
    fn numbers_known_are_worked_out_once() {
        let sum = Number::Add(
            Box::new(Number::Read(Slot(1))),
            Box::new(Number::Multiply(
                Box::new(Number::Const(2)),
                Box::new(Number::Read(Slot(1))),
            )),
        );
        assert_eq!(sum.fold(&knows), Number::Const(9));
        let compare = Condition::Compare(
            Comparison::GreaterOrEqual,
            Box::new(sum),
            Box::new(Number::Const(9)),
        );
        assert_eq!(compare.fold(&knows), Condition::Const(true));
        let guarded = Number::If(
            Box::new(Condition::Not(Box::new(Condition::Read(Slot(0))))),
            Box::new(Number::Read(Slot(2))),
            Box::new(Number::Const(1)),
        );
        assert_eq!(guarded.fold(&knows), Number::Read(Slot(2)));
    }

    #[test]
    fn a_body_that_never_holds_needs_no_member() {
        let any = Condition::Any(Slot(5), Box::new(Condition::Read(Slot(0))));
        assert_eq!(any.fold(&knows), Condition::Const(false));
        let count = Number::Count(Slot(5), Box::new(Condition::Read(Slot(0))));
        assert_eq!(count.fold(&knows), Number::Const(0));
        let all = Condition::All(
            Slot(5),
            Box::new(Condition::Not(Box::new(Condition::Read(Slot(0))))),
        );
        assert_eq!(all.fold(&knows), Condition::Const(true));
    }
}
