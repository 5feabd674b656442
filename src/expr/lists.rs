//! The lists of `and`s and `or`s of an expression, for a rewrite that knows what its
//! slots read (the engine fuses reads of one combatant's bits into one read:
//! `src/engine/pipeline/specialise.rs`), whether a part rolls dice, which such a
//! rewrite must not move across, and whether it reads some slot (an enumeration asks
//! whether a test's target reads its roll).

use super::Slot;
use super::eval::{Condition, Number, Symbol};

/// A list of conditions to rewrite, and whether every member must hold (`and`) or some
/// one (`or`).
pub type Visit<'a> = &'a mut dyn FnMut(&mut Vec<Condition>, bool);

impl Condition {
    /// Visit every `and` and `or` list of this condition, the innermost first.
    pub fn visit_lists(&mut self, visit: Visit<'_>) {
        match self {
            Condition::Const(_) | Condition::Read(_) => {}
            Condition::Not(a) => a.visit_lists(visit),
            Condition::AllOf(members) | Condition::AnyOf(members) => {
                for member in members.iter_mut() {
                    member.visit_lists(visit);
                }
                let all = matches!(self, Condition::AllOf(_));
                if let Condition::AllOf(members) | Condition::AnyOf(members) = self {
                    visit(members, all);
                }
            }
            Condition::Compare(_, a, b) => {
                a.visit_lists(visit);
                b.visit_lists(visit);
            }
            Condition::Same(_, a, b) => {
                a.visit_lists(visit);
                b.visit_lists(visit);
            }
            Condition::Equal(_, a, b) => {
                a.visit_lists(visit);
                b.visit_lists(visit);
            }
            Condition::If(condition, then, otherwise) => {
                condition.visit_lists(visit);
                then.visit_lists(visit);
                otherwise.visit_lists(visit);
            }
            Condition::Any(_, body) | Condition::All(_, body) => body.visit_lists(visit),
            // A rewrite sees the tree; the code compiled from it no longer holds.
            Condition::Native(native) => {
                *self = native.tree.clone();
                self.visit_lists(visit);
            }
        }
    }

    /// Whether evaluating this may roll a die.
    pub fn rolls(&self) -> bool {
        match self {
            Condition::Const(_) | Condition::Read(_) => false,
            Condition::Not(a) => a.rolls(),
            Condition::AllOf(members) | Condition::AnyOf(members) => {
                members.iter().any(Condition::rolls)
            }
            Condition::Compare(_, a, b) => a.rolls() || b.rolls(),
            Condition::Same(_, a, b) => a.rolls() || b.rolls(),
            Condition::Equal(_, a, b) => a.rolls() || b.rolls(),
            Condition::If(condition, then, otherwise) => {
                condition.rolls() || then.rolls() || otherwise.rolls()
            }
            Condition::Any(_, body) | Condition::All(_, body) => body.rolls(),
            Condition::Native(native) => native.tree.rolls(),
        }
    }
}

impl Condition {
    /// Whether some slot this condition reads (a collection gone through included) is
    /// one `wanted` says yes to.
    pub fn reads_any(&self, wanted: &dyn Fn(Slot) -> bool) -> bool {
        match self {
            Condition::Const(_) => false,
            Condition::Read(slot) => wanted(*slot),
            Condition::Not(a) => a.reads_any(wanted),
            Condition::AllOf(members) | Condition::AnyOf(members) => {
                members.iter().any(|member| member.reads_any(wanted))
            }
            Condition::Compare(_, a, b) => a.reads_any(wanted) || b.reads_any(wanted),
            Condition::Same(_, a, b) => a.reads_any(wanted) || b.reads_any(wanted),
            Condition::Equal(_, a, b) => a.reads_any(wanted) || b.reads_any(wanted),
            Condition::If(condition, then, otherwise) => {
                condition.reads_any(wanted) || then.reads_any(wanted) || otherwise.reads_any(wanted)
            }
            Condition::Any(over, body) | Condition::All(over, body) => {
                wanted(*over) || body.reads_any(wanted)
            }
            Condition::Native(native) => native.tree.reads_any(wanted),
        }
    }
}

impl Number {
    /// Whether some slot this number reads is one `wanted` says yes to.
    pub fn reads_any(&self, wanted: &dyn Fn(Slot) -> bool) -> bool {
        match self {
            Number::Const(_) | Number::Roll(_) => false,
            Number::Read(slot)
            | Number::RollSlot(slot)
            | Number::DiceBound(slot, _)
            | Number::DiceCount(slot)
            | Number::DicePips(slot) => wanted(*slot),
            Number::Pool(pool) => {
                pool.count.reads_any(wanted)
                    || pool
                        .one_subtracts
                        .as_ref()
                        .is_some_and(|c| c.reads_any(wanted))
            }
            Number::Negate(a) | Number::Abs(a) | Number::Lookup(_, a) => a.reads_any(wanted),
            Number::Add(a, b)
            | Number::Subtract(a, b)
            | Number::Multiply(a, b)
            | Number::Divide(a, b, _)
            | Number::Maximise(a, b) => a.reads_any(wanted) || b.reads_any(wanted),
            Number::Min(all) | Number::Max(all) => all.iter().any(|a| a.reads_any(wanted)),
            Number::Rank(symbol) | Number::LookupMember(_, symbol) => symbol.reads_any(wanted),
            Number::Count(over, body) => wanted(*over) || body.reads_any(wanted),
            Number::Native(native) => native.tree.reads_any(wanted),
            Number::If(condition, then, otherwise) => {
                condition.reads_any(wanted) || then.reads_any(wanted) || otherwise.reads_any(wanted)
            }
        }
    }
}

impl Number {
    /// Visit every `and` and `or` list of the conditions in this number.
    pub fn visit_lists(&mut self, visit: Visit<'_>) {
        match self {
            Number::Const(_)
            | Number::Read(_)
            | Number::Roll(_)
            | Number::RollSlot(_)
            | Number::DiceBound(..)
            | Number::DiceCount(_)
            | Number::DicePips(_) => {}
            Number::Pool(pool) => {
                pool.count.visit_lists(visit);
                if let Some(condition) = &mut pool.one_subtracts {
                    condition.visit_lists(visit);
                }
            }
            Number::Negate(a) | Number::Abs(a) | Number::Lookup(_, a) => a.visit_lists(visit),
            Number::Add(a, b)
            | Number::Subtract(a, b)
            | Number::Multiply(a, b)
            | Number::Divide(a, b, _)
            | Number::Maximise(a, b) => {
                a.visit_lists(visit);
                b.visit_lists(visit);
            }
            Number::Min(all) | Number::Max(all) => {
                for a in all {
                    a.visit_lists(visit);
                }
            }
            Number::Rank(symbol) | Number::LookupMember(_, symbol) => symbol.visit_lists(visit),
            Number::Count(_, body) => body.visit_lists(visit),
            // A rewrite sees the tree; the code compiled from it no longer holds.
            Number::Native(native) => {
                *self = native.tree.clone();
                self.visit_lists(visit);
            }
            Number::If(condition, then, otherwise) => {
                condition.visit_lists(visit);
                then.visit_lists(visit);
                otherwise.visit_lists(visit);
            }
        }
    }

    /// Whether evaluating this may roll a die.
    pub fn rolls(&self) -> bool {
        match self {
            Number::Roll(_) | Number::RollSlot(_) | Number::Maximise(..) | Number::Pool(_) => true,
            Number::Const(_)
            | Number::Read(_)
            | Number::DiceBound(..)
            | Number::DiceCount(_)
            | Number::DicePips(_) => false,
            Number::Negate(a) | Number::Abs(a) | Number::Lookup(_, a) => a.rolls(),
            Number::Add(a, b) | Number::Subtract(a, b) | Number::Multiply(a, b) => {
                a.rolls() || b.rolls()
            }
            Number::Divide(a, b, _) => a.rolls() || b.rolls(),
            Number::Min(all) | Number::Max(all) => all.iter().any(Number::rolls),
            Number::Rank(symbol) | Number::LookupMember(_, symbol) => symbol.rolls(),
            Number::Count(_, body) => body.rolls(),
            Number::Native(native) => native.tree.rolls(),
            Number::If(condition, then, otherwise) => {
                condition.rolls() || then.rolls() || otherwise.rolls()
            }
        }
    }
}

impl Symbol {
    fn visit_lists(&mut self, visit: Visit<'_>) {
        if let Symbol::If(condition, then, otherwise) = self {
            condition.visit_lists(visit);
            then.visit_lists(visit);
            otherwise.visit_lists(visit);
        }
    }

    fn reads_any(&self, wanted: &dyn Fn(Slot) -> bool) -> bool {
        match self {
            Symbol::Const(_) => false,
            Symbol::Read(slot) => wanted(*slot),
            Symbol::If(condition, then, otherwise) => {
                condition.reads_any(wanted) || then.reads_any(wanted) || otherwise.reads_any(wanted)
            }
        }
    }

    fn rolls(&self) -> bool {
        match self {
            Symbol::Const(_) | Symbol::Read(_) => false,
            Symbol::If(condition, then, otherwise) => {
                condition.rolls() || then.rolls() || otherwise.rolls()
            }
        }
    }
}

/// What [`Condition::visit_reads`] hands each read: its slot, and the collections it is
/// read within (the innermost last), so that a caller can tell a name the collection
/// binds (`other` in `any(opponents, other.prone)`) from the same name bound outside.
pub type ReadVisit<'a> = &'a mut dyn FnMut(Slot, &[Slot]);

impl Condition {
    /// Visit every read of this condition, with the collections it is read within.
    pub fn visit_reads(&self, visit: ReadVisit<'_>, within: &mut Vec<Slot>) {
        match self {
            Condition::Const(_) => {}
            Condition::Read(slot) => visit(*slot, within),
            Condition::Not(a) => a.visit_reads(visit, within),
            Condition::AllOf(members) | Condition::AnyOf(members) => {
                for member in members {
                    member.visit_reads(visit, within);
                }
            }
            Condition::Compare(_, a, b) => {
                a.visit_reads(visit, within);
                b.visit_reads(visit, within);
            }
            Condition::Same(_, a, b) => {
                a.visit_reads(visit, within);
                b.visit_reads(visit, within);
            }
            Condition::Equal(_, a, b) => {
                a.visit_reads(visit, within);
                b.visit_reads(visit, within);
            }
            Condition::If(condition, then, otherwise) => {
                condition.visit_reads(visit, within);
                then.visit_reads(visit, within);
                otherwise.visit_reads(visit, within);
            }
            Condition::Any(over, body) | Condition::All(over, body) => {
                visit(*over, within);
                within.push(*over);
                body.visit_reads(visit, within);
                within.pop();
            }
            Condition::Native(native) => native.tree.visit_reads(visit, within),
        }
    }
}

impl Number {
    /// Visit every read of this number, with the collections it is read within.
    pub fn visit_reads(&self, visit: ReadVisit<'_>, within: &mut Vec<Slot>) {
        match self {
            Number::Const(_) | Number::Roll(_) => {}
            Number::Read(slot)
            | Number::RollSlot(slot)
            | Number::DiceBound(slot, _)
            | Number::DiceCount(slot)
            | Number::DicePips(slot) => visit(*slot, within),
            Number::Pool(pool) => {
                pool.count.visit_reads(visit, within);
                if let Some(condition) = &pool.one_subtracts {
                    condition.visit_reads(visit, within);
                }
            }
            Number::Negate(a) | Number::Abs(a) | Number::Lookup(_, a) => {
                a.visit_reads(visit, within)
            }
            Number::Add(a, b)
            | Number::Subtract(a, b)
            | Number::Multiply(a, b)
            | Number::Divide(a, b, _)
            | Number::Maximise(a, b) => {
                a.visit_reads(visit, within);
                b.visit_reads(visit, within);
            }
            Number::Min(all) | Number::Max(all) => {
                for a in all {
                    a.visit_reads(visit, within);
                }
            }
            Number::Rank(symbol) | Number::LookupMember(_, symbol) => {
                symbol.visit_reads(visit, within)
            }
            Number::Count(over, body) => {
                visit(*over, within);
                within.push(*over);
                body.visit_reads(visit, within);
                within.pop();
            }
            Number::Native(native) => native.tree.visit_reads(visit, within),
            Number::If(condition, then, otherwise) => {
                condition.visit_reads(visit, within);
                then.visit_reads(visit, within);
                otherwise.visit_reads(visit, within);
            }
        }
    }
}

impl Symbol {
    fn visit_reads(&self, visit: ReadVisit<'_>, within: &mut Vec<Slot>) {
        match self {
            Symbol::Const(_) => {}
            Symbol::Read(slot) => visit(*slot, within),
            Symbol::If(condition, then, otherwise) => {
                condition.visit_reads(visit, within);
                then.visit_reads(visit, within);
                otherwise.visit_reads(visit, within);
            }
        }
    }
}
