//! Lowering of `grammar/tables.pest`: pairs → [`TableFile`]. One `lower_<rule>` function
//! per grammar rule; a shape the grammar makes impossible is an internal error with a
//! location, never a panic.

use std::iter::Peekable;

use pest::Parser;
use pest::iterators::{Pair, Pairs};

use super::dice::lower_dice;
use super::{Grammar, Origin, ParseError, Rule};
use crate::source::{SourceFile, Span, Spanned};
use crate::tables::model::*;

/// Parse and lower a whole `.tables` file.
pub fn parse_tables(file: &SourceFile) -> Result<TableFile, ParseError> {
    let origin = Origin { file, offset: 0 };
    let pairs =
        Grammar::parse(Rule::file, file.text()).map_err(|e| origin.syntax_error(e, file.text()))?;
    let mut tables = Vec::new();
    for pair in pairs.flatten().filter(|p| is_table(p.as_rule())) {
        tables.push(lower_table(origin, pair)?);
    }
    Ok(TableFile { tables })
}

fn is_table(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::roll_table | Rule::matrix | Rule::modifier_list | Rule::lookup | Rule::effect_list
    )
}

/// The children of a pair, keywords left out, read in order.
struct Children<'o, 'i> {
    origin: Origin<'o>,
    span: Span,
    context: &'static str,
    pairs: Peekable<Pairs<'i, Rule>>,
}

impl<'o, 'i> Children<'o, 'i> {
    fn of(origin: Origin<'o>, pair: Pair<'i, Rule>, context: &'static str) -> Self {
        Children {
            origin,
            span: origin.span(pair.as_span()),
            context,
            pairs: pair.into_inner().peekable(),
        }
    }

    fn skip_keywords(&mut self) {
        while self.pairs.peek().is_some_and(|p| is_keyword(p.as_rule())) {
            self.pairs.next();
        }
    }

    /// The next child, which the grammar promises is a `rule`.
    fn expect(&mut self, rule: Rule, expected: &'static str) -> Result<Pair<'i, Rule>, ParseError> {
        self.optional(rule)
            .ok_or_else(|| self.origin.internal(self.span, expected, self.context))
    }

    fn optional(&mut self, rule: Rule) -> Option<Pair<'i, Rule>> {
        self.skip_keywords();
        if self.pairs.peek().is_some_and(|p| p.as_rule() == rule) {
            self.pairs.next()
        } else {
            None
        }
    }

    /// Every remaining child that is a `rule`.
    fn all(&mut self, rule: Rule) -> Vec<Pair<'i, Rule>> {
        let mut found = Vec::new();
        while let Some(pair) = self.optional(rule) {
            found.push(pair);
        }
        found
    }

    fn remaining(mut self) -> impl Iterator<Item = Pair<'i, Rule>> {
        self.skip_keywords();
        self.pairs.filter(|p| !is_keyword(p.as_rule()))
    }
}

fn is_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::kw_table
            | Rule::kw_matrix
            | Rule::kw_modifiers
            | Rule::kw_lookup
            | Rule::kw_effects
            | Rule::kw_roll
            | Rule::kw_rows
            | Rule::kw_cols
            | Rule::kw_by
            | Rule::kw_group
            | Rule::kw_nonstacking
            | Rule::kw_auto
            | Rule::kw_grade
            | Rule::kw_cap
            | Rule::kw_per
            | Rule::kw_below
            | Rule::kw_above
            | Rule::kw_of
            | Rule::kw_offensive
            | Rule::kw_defensive
            | Rule::kw_stackable
            | Rule::kw_requires
            | Rule::kw_opponent
            | Rule::kw_weapon
            | Rule::kw_or
            | Rule::kw_script
            | Rule::kw_lose
            | Rule::kw_reroll
            | Rule::kw_ignoring
            | Rule::kw_condition
            | Rule::kw_resist
            | Rule::kw_test
            | Rule::kw_contest
            | Rule::kw_against
            | Rule::kw_clear
            | Rule::kw_set
            | Rule::kw_drop
            | Rule::kw_spend
            | Rule::kw_hurt
            | Rule::kw_toward
            | Rule::kw_lodge
            | Rule::kw_strike
            | Rule::kw_decide
            | Rule::kw_then
            | Rule::kw_if
            | Rule::kw_hand
            | Rule::kw_ready
            | Rule::kw_for
            | Rule::kw_times
    )
}

fn lower_table(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Table, ParseError> {
    let rule = pair.as_rule();
    let mut children = Children::of(origin, pair, "a table");
    let span = children.span;
    let name = lower_name(origin, children.expect(Rule::name, "the table's name")?);
    let title = children.optional(Rule::title).map(lower_text);
    let kind = match rule {
        Rule::roll_table => TableKind::Roll(lower_roll_table(origin, children)?),
        Rule::matrix => TableKind::Matrix(lower_matrix(origin, children)?),
        Rule::modifier_list => TableKind::Modifiers(lower_modifier_list(origin, children)?),
        Rule::lookup => TableKind::Lookup(lower_lookup(origin, children)?),
        Rule::effect_list => TableKind::Effects(lower_effect_list(origin, children)?),
        _ => return Err(origin.internal(span, "a kind of table", "a tables file")),
    };
    Ok(Table {
        name,
        title,
        kind,
        span,
    })
}

// ------------------------------------------------------------------ words

/// Where a row was written: from its first token to the end of its last. A rule's own span
/// (and its last child's) also holds the whitespace and comments skipped after its last
/// token, so the end is that of the innermost last pair.
fn written_span(origin: Origin<'_>, pair: &Pair<'_, Rule>) -> Span {
    let whole = origin.span(pair.as_span());
    let mut last = pair.clone();
    while let Some(inner) = last.clone().into_inner().last() {
        last = inner;
    }
    Span::new(
        whole.start,
        origin.span(last.as_span()).end.max(whole.start),
    )
}

fn lower_name(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Spanned<String> {
    Spanned::new(pair.as_str().to_string(), origin.span(pair.as_span()))
}

/// `(EXPR)` in an action: the expression's text, compiled with combat.toml.
fn lower_action_expr(origin: Origin<'_>, pair: Pair<'_, Rule>) -> ActionExpr {
    let whole = pair.as_span();
    // The grammar puts one `expr` inside the parentheses.
    let at = pair
        .into_inner()
        .next()
        .map_or(whole, |expr| expr.as_span());
    ActionExpr {
        text: Spanned::new(at.as_str().to_string(), origin.span(at)),
        compiled: None,
    }
}

/// `(CONDITION)` in an `if` action: the condition's text, compiled with combat.toml.
fn lower_action_guard(origin: Origin<'_>, pair: Pair<'_, Rule>) -> ActionGuard {
    let ActionExpr { text, .. } = lower_action_expr(origin, pair);
    ActionGuard {
        text,
        compiled: None,
    }
}

/// A name the fight compares often (a condition, a value, a trait): interned.
fn lower_interned(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Spanned<crate::names::Name> {
    Spanned::new(
        crate::names::Name::new(pair.as_str()),
        origin.span(pair.as_span()),
    )
}

/// The text of a string (or of a rule wrapping one), unescaped, with line breaks and the
/// indentation after them folded into single spaces so that long texts can be wrapped.
fn lower_text(pair: Pair<'_, Rule>) -> String {
    let raw = pair
        .into_inner()
        .flatten()
        .find(|p| p.as_rule() == Rule::string_text)
        .map_or("", |p| p.as_str());
    let mut text = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => text.push('\n'),
                Some(other) => text.push(other),
                None => {}
            },
            '\n' | '\r' => {
                while text.ends_with([' ', '\t']) {
                    text.pop();
                }
                if !text.ends_with(' ') && !text.is_empty() {
                    text.push(' ');
                }
                // The indentation of the next line is folded too.
                let rest = chars.as_str().trim_start_matches([' ', '\t', '\n', '\r']);
                chars = rest.chars();
            }
            other => text.push(other),
        }
    }
    text
}

fn lower_integer(origin: Origin<'_>, pair: &Pair<'_, Rule>) -> Result<i64, ParseError> {
    let text: String = pair
        .as_str()
        .chars()
        .map(|c| if matches!(c, '–' | '−') { '-' } else { c })
        .filter(|c| !c.is_whitespace() && *c != '+')
        .collect();
    text.parse::<i64>()
        .ok()
        .filter(|n| n.unsigned_abs() < 1_000_000_000_000_000_000)
        .ok_or_else(|| ParseError::Number {
            src: origin.file.named(),
            span: origin.span(pair.as_span()).into(),
            text: pair.as_str().to_string(),
        })
}

fn lower_u32(origin: Origin<'_>, pair: &Pair<'_, Rule>) -> Result<u32, ParseError> {
    let value = lower_integer(origin, pair)?;
    u32::try_from(value).map_err(|_| ParseError::Number {
        src: origin.file.named(),
        span: origin.span(pair.as_span()).into(),
        text: pair.as_str().to_string(),
    })
}

/// `01-03`, `19`, `96-00`. On a die whose highest result is 100, the book's `00` is 100.
fn lower_range(
    origin: Origin<'_>,
    pair: Pair<'_, Rule>,
    hundred: bool,
) -> Result<Spanned<DieRange>, ParseError> {
    let span = origin.span(pair.as_span());
    let mut bounds = Vec::new();
    let parts: Vec<_> = pair.into_inner().collect();
    let is_range = parts.len() == 2;
    for (index, part) in parts.into_iter().enumerate() {
        let value = lower_integer(origin, &part)?;
        let is_double_zero = part.as_str().len() >= 2 && value == 0;
        // `00` alone, or ending a range, is 100 on a d100; starting a range it is not.
        if is_double_zero && (!hundred || (is_range && index == 0)) {
            // On a d100 `00` is the top result, so it can only end a range (`96-00`);
            // on other dice it means nothing the books print.
            return Err(ParseError::DoubleZero {
                src: origin.file.named(),
                span: origin.span(part.as_span()).into(),
                advice: if hundred {
                    "on a die rolling 1-100, 00 reads as 100 and can only end a range, as in \
                     96-00; the lowest results are written 01-..."
                } else {
                    "00 reads as 100 only on a die rolling 1-100; on this die write the number \
                     you mean, such as 20"
                },
            });
        }
        bounds.push(if is_double_zero { 100 } else { value });
    }
    match bounds.as_slice() {
        [single] => Ok(Spanned::new(
            DieRange {
                low: *single,
                high: *single,
            },
            span,
        )),
        [low, high] => Ok(Spanned::new(
            DieRange {
                low: *low,
                high: *high,
            },
            span,
        )),
        _ => Err(origin.internal(span, "one or two numbers", "a die range")),
    }
}

fn lower_value(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Spanned<Value>, ParseError> {
    let span = origin.span(pair.as_span());
    let value = match pair.as_rule() {
        Rule::percent => {
            let number = pair
                .clone()
                .into_inner()
                .find(|p| p.as_rule() == Rule::integer)
                .ok_or_else(|| origin.internal(span, "a number", "a percentage"))?;
            let magnitude = lower_integer(origin, &number)?;
            let negative = pair.as_str().starts_with(['-', '–', '−']);
            Value::Percent(Percent {
                percent: if negative { -magnitude } else { magnitude },
            })
        }
        Rule::dice => {
            let dice = lower_dice(origin, pair)?;
            match dice.as_constant() {
                Some(constant) => Value::Integer(constant),
                None => Value::Dice(dice.value),
            }
        }
        Rule::signed_int => Value::Integer(lower_integer(origin, &pair)?),
        Rule::string => Value::Text(lower_text(pair)),
        Rule::name => Value::Name(Name {
            name: pair.as_str().to_string(),
        }),
        _ => return Err(origin.internal(span, "a value", "a cell")),
    };
    Ok(Spanned::new(value, span))
}

// ------------------------------------------------------------------ actions

/// Actions written in a TOML string of `file` (`combat.toml`'s `do = "roll fumble"`):
/// `offset` is where `text` starts in the file, so that every span points into it.
pub fn parse_actions(
    file: &SourceFile,
    text: &str,
    offset: usize,
) -> Result<Vec<Spanned<Action>>, ParseError> {
    // A TOML string with escapes does not appear in the file as decoded: shown alone.
    if file.text().get(offset..offset + text.len()) != Some(text) {
        let alone = SourceFile::new(format!("{} (actions)", file.name()), text.to_string());
        return parse_actions(&alone, text, 0);
    }
    let origin = Origin { file, offset };
    let whole = Grammar::parse(Rule::action_list, text)
        .map_err(|error| origin.syntax_error(error, text))?
        .next()
        .ok_or_else(|| origin.internal(Span::new(offset, offset), "actions", "actions"))?;
    whole
        .into_inner()
        .filter(|pair| pair.as_rule() != Rule::EOI)
        .map(|action| lower_action(origin, action, false))
        .collect()
}

fn lower_actions(
    origin: Origin<'_>,
    pair: Option<Pair<'_, Rule>>,
    hundred: bool,
) -> Result<Vec<Spanned<Action>>, ParseError> {
    let Some(pair) = pair else {
        return Ok(Vec::new());
    };
    pair.into_inner()
        .map(|action| lower_action(origin, action, hundred))
        .collect()
}

fn lower_action(
    origin: Origin<'_>,
    pair: Pair<'_, Rule>,
    hundred: bool,
) -> Result<Spanned<Action>, ParseError> {
    let rule = pair.as_rule();
    let mut children = Children::of(origin, pair, "an action");
    let span = children.span;
    let action = match rule {
        Rule::script_action => {
            let target = children.expect(Rule::script_name, "a script function")?;
            let mut parts = target.into_inner();
            let (Some(module), Some(function)) = (parts.next(), parts.next()) else {
                return Err(origin.internal(span, "module::function", "a script action"));
            };
            let args = match children.optional(Rule::script_args) {
                Some(args) => args
                    .into_inner()
                    .map(|arg| lower_value(origin, arg))
                    .collect::<Result<_, _>>()?,
                None => Vec::new(),
            };
            Action::Script {
                module: lower_name(origin, module),
                function: lower_name(origin, function),
                args,
            }
        }
        Rule::lose_action => Action::LoseActions {
            count: lower_dice(origin, children.expect(Rule::dice, "a number of actions")?)?,
        },
        Rule::reroll_action => {
            let times = lower_u32(
                origin,
                &children.expect(Rule::integer, "a number of rolls")?,
            )?;
            let ignoring = lower_range(
                origin,
                children.expect(Rule::range, "a range to ignore")?,
                hundred,
            )?;
            Action::Reroll { times, ignoring }
        }
        Rule::roll_action => Action::RollTable {
            table: lower_name(origin, children.expect(Rule::name, "a table name")?),
        },
        Rule::condition_action => {
            let condition = lower_interned(origin, children.expect(Rule::name, "a condition")?);
            let duration = match children.optional(Rule::duration) {
                Some(duration) => {
                    let mut parts = Children::of(origin, duration, "a duration");
                    let length = match parts.optional(Rule::action_expr) {
                        Some(expr) => Length::Expr(lower_action_expr(origin, expr)),
                        None => {
                            Length::Dice(lower_dice(origin, parts.expect(Rule::dice, "a length")?)?)
                        }
                    };
                    let unit = match parts.remaining().next().map(|unit| unit.as_rule()) {
                        Some(Rule::kw_rounds) => DurationUnit::Rounds,
                        Some(Rule::kw_turns) => DurationUnit::Turns,
                        _ => DurationUnit::Actions,
                    };
                    Some(Duration { length, unit })
                }
                None => None,
            };
            Action::Condition {
                condition,
                duration,
            }
        }
        Rule::set_action => Action::Set {
            value: lower_interned(origin, children.expect(Rule::name, "a value's name")?),
            to: match children.optional(Rule::action_expr) {
                Some(expr) => Amount::Expr(lower_action_expr(origin, expr)),
                None => Amount::Number(lower_integer(
                    origin,
                    &children.expect(Rule::signed_int, "a number")?,
                )?),
            },
        },
        Rule::set_toward_action => Action::Toward {
            value: lower_interned(origin, children.expect(Rule::name, "a value's name")?),
            to: lower_action_expr(origin, children.expect(Rule::action_expr, "an expression")?),
            index: 0,
        },
        Rule::drop_action => match children.optional(Rule::drop_hand) {
            Some(hand) => {
                let mut parts = Children::of(origin, hand, "a hand");
                let hand = lower_u32(origin, &parts.expect(Rule::integer, "a hand's number")?)?;
                Action::DropHand { hand }
            }
            None => {
                let (not, which) = lower_weapon_kind(origin, &mut children)?;
                Action::Drop { not, which }
            }
        },
        Rule::clear_action => Action::Clear {
            condition: lower_interned(origin, children.expect(Rule::name, "a condition")?),
        },
        Rule::resist_action | Rule::test_action => {
            let test = lower_name(origin, children.expect(Rule::name, "a test")?);
            let branch = |group: Option<Pair<'_, Rule>>| {
                group.map_or(Ok(Vec::new()), |group| {
                    lower_actions_in(origin, group, hundred)
                })
            };
            let then = branch(children.optional(Rule::then_branch))?;
            let otherwise = branch(children.optional(Rule::otherwise))?;
            if rule == Rule::resist_action {
                Action::Resist {
                    test,
                    then,
                    otherwise,
                }
            } else {
                Action::Test {
                    test,
                    then,
                    otherwise,
                }
            }
        }
        Rule::contest_action => {
            let test = lower_name(origin, children.expect(Rule::name, "a test")?);
            let against = lower_name(origin, children.expect(Rule::name, "a test")?);
            let of = lower_interned(origin, children.expect(Rule::name, "a value")?);
            let branch = |group: Option<Pair<'_, Rule>>| {
                group.map_or(Ok(Vec::new()), |group| {
                    lower_actions_in(origin, group, hundred)
                })
            };
            Action::Contest {
                test,
                against,
                of,
                then: branch(children.optional(Rule::then_branch))?,
                otherwise: branch(children.optional(Rule::otherwise))?,
            }
        }
        Rule::if_action => {
            let condition = lower_action_guard(
                origin,
                children.expect(Rule::action_expr, "a condition in parentheses")?,
            );
            let branch = |group: Option<Pair<'_, Rule>>| {
                group.map_or(Ok(Vec::new()), |group| {
                    lower_actions_in(origin, group, hundred)
                })
            };
            Action::If {
                condition,
                then: branch(children.optional(Rule::then_branch))?,
                otherwise: branch(children.optional(Rule::otherwise))?,
            }
        }
        Rule::spend_action => Action::Spend {
            count: lower_u32(
                origin,
                &children.expect(Rule::integer, "a number of actions")?,
            )?,
            // After `action` or `actions`.
            on: children
                .remaining()
                .find(|pair| pair.as_rule() == Rule::string)
                .map(lower_text),
        },
        Rule::ready_action => {
            let (not, which) = lower_weapon_kind(origin, &mut children)?;
            Action::Ready { not, which }
        }
        Rule::hurt_action => Action::Hurt {
            amount: lower_action_expr(
                origin,
                children.expect(Rule::action_expr, "an amount in parentheses")?,
            ),
        },
        Rule::lodge_action => Action::Lodge,
        Rule::strike_action => Action::Strike {
            exchange: lower_interned(
                origin,
                children.expect(Rule::name, "the name of an exchange")?,
            ),
            // What the log names the exchange for (its name without one).
            why: children
                .remaining()
                .find(|pair| pair.as_rule() == Rule::string)
                .map(lower_text),
        },
        Rule::decide_action => Action::Decide {
            decision: lower_interned(
                origin,
                children.expect(Rule::name, "the name of a decision")?,
            ),
        },
        Rule::party_action => {
            let party = match children.expect(Rule::party, "a party")?.as_str() {
                "attacker" => Party::Attacker,
                "defender" => Party::Defender,
                "winner" => Party::Winner,
                "engaged_foes" => Party::EngagedFoes,
                _ => Party::Loser,
            };
            let actions = children
                .remaining()
                .map(|action| lower_action(origin, action, hundred))
                .collect::<Result<Vec<_>, _>>()?;
            Action::Party { party, actions }
        }
        _ => return Err(origin.internal(span, "an action", "a row")),
    };
    Ok(Spanned::new(action, span))
}

/// Which weapons `drop` and `ready` mean: `weapon` (any), a trait, or `not` a trait.
fn lower_weapon_kind(
    origin: Origin<'_>,
    children: &mut Children<'_, '_>,
) -> Result<(bool, Spanned<crate::names::Name>), ParseError> {
    let not = children.optional(Rule::drop_not).is_some();
    let which = match children.optional(Rule::drop_weapon) {
        Some(weapon) => lower_interned(origin, weapon),
        None => lower_interned(origin, children.expect(Rule::name, "a weapon trait")?),
    };
    Ok((not, which))
}

/// The actions of a group (`then (...)`, `or (...)`), its keyword left out.
fn lower_actions_in(
    origin: Origin<'_>,
    group: Pair<'_, Rule>,
    hundred: bool,
) -> Result<Vec<Spanned<Action>>, ParseError> {
    group
        .into_inner()
        .filter(|pair| !is_keyword(pair.as_rule()))
        .map(|action| lower_action(origin, action, hundred))
        .collect()
}

// ------------------------------------------------------------------ roll tables

fn lower_roll_table(
    origin: Origin<'_>,
    mut children: Children<'_, '_>,
) -> Result<RollTable, ParseError> {
    let die = lower_dice(origin, children.expect(Rule::dice, "the die")?)?;
    let hundred = die.max() == 100;
    let rows = children
        .all(Rule::roll_row)
        .into_iter()
        .map(|row| lower_roll_row(origin, row, hundred))
        .collect::<Result<_, _>>()?;
    Ok(RollTable { die, rows })
}

fn lower_roll_row(
    origin: Origin<'_>,
    pair: Pair<'_, Rule>,
    hundred: bool,
) -> Result<RollRow, ParseError> {
    let span = written_span(origin, &pair);
    let mut children = Children::of(origin, pair, "a row");
    let range = lower_range(
        origin,
        children.expect(Rule::range, "a die range")?,
        hundred,
    )?;
    let name = lower_name(origin, children.expect(Rule::name, "the row's name")?);
    let label = children.optional(Rule::label).map(lower_text);
    let description = children.optional(Rule::description).map(lower_text);
    let actions = lower_actions(origin, children.optional(Rule::actions), hundred)?;
    Ok(RollRow {
        range,
        name,
        label,
        description,
        actions,
        span,
    })
}

// ------------------------------------------------------------------ matrices

fn lower_matrix(origin: Origin<'_>, mut children: Children<'_, '_>) -> Result<Matrix, ParseError> {
    let rows_axis = lower_axis(origin, children.expect(Rule::axis, "the rows axis")?)?;
    let cols_axis = lower_axis(origin, children.expect(Rule::axis, "the columns axis")?)?;
    let header = children.expect(Rule::matrix_header, "the header row")?;
    let columns = header
        .into_inner()
        .map(|key| lower_key(origin, key))
        .collect::<Result<_, _>>()?;
    let rows = children
        .all(Rule::matrix_row)
        .into_iter()
        .map(|row| lower_matrix_row(origin, row))
        .collect::<Result<_, _>>()?;
    Ok(Matrix {
        rows_axis,
        cols_axis,
        columns,
        rows,
    })
}

fn lower_axis(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Axis, ParseError> {
    let mut children = Children::of(origin, pair, "an axis");
    let name = lower_name(origin, children.expect(Rule::name, "the axis's name")?);
    let domain = children.optional(Rule::name).map(|n| lower_name(origin, n));
    Ok(Axis { name, domain })
}

fn lower_key(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Spanned<Key>, ParseError> {
    let span = origin.span(pair.as_span());
    let inner = pair
        .into_inner()
        .next()
        .ok_or_else(|| origin.internal(span, "a key", "a header or row"))?;
    let numbers = |pair: Pair<'_, Rule>| -> Result<Vec<i64>, ParseError> {
        pair.into_inner()
            .filter(|p| p.as_rule() == Rule::signed_int)
            .map(|p| lower_integer(origin, &p))
            .collect()
    };
    let key = match inner.as_rule() {
        Rule::name => Key::Name(inner.as_str().to_string()),
        Rule::at_least => {
            let low = numbers(inner)?.first().copied();
            Key::Range(KeyRange { low, high: None })
        }
        Rule::at_most => {
            let high = numbers(inner)?.first().copied();
            Key::Range(KeyRange { low: None, high })
        }
        Rule::range_key => match numbers(inner)?.as_slice() {
            [single] => Key::Range(KeyRange {
                low: Some(*single),
                high: Some(*single),
            }),
            [low, high] => Key::Range(KeyRange {
                low: Some(*low),
                high: Some(*high),
            }),
            _ => return Err(origin.internal(span, "one or two numbers", "a key")),
        },
        _ => return Err(origin.internal(span, "a key", "a header or row")),
    };
    Ok(Spanned::new(key, span))
}

fn lower_matrix_row(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<MatrixRow, ParseError> {
    let span = written_span(origin, &pair);
    let mut children = Children::of(origin, pair, "a matrix row");
    let key = lower_key(origin, children.expect(Rule::key, "the row's key")?)?;
    let cells = children
        .remaining()
        .map(|cell| lower_cell(origin, cell))
        .collect::<Result<_, _>>()?;
    Ok(MatrixRow { key, cells, span })
}

fn lower_cell(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Spanned<Cell>, ParseError> {
    let span = origin.span(pair.as_span());
    let inner = pair
        .into_inner()
        .next()
        .ok_or_else(|| origin.internal(span, "a cell", "a matrix row"))?;
    let span = origin.span(inner.as_span());
    let cell = match inner.as_rule() {
        Rule::cell_empty => Cell::Empty,
        Rule::cell_wins => {
            let mut children = Children::of(origin, inner, "a winner cell");
            let side = lower_name(origin, children.expect(Rule::name, "a side")?);
            let levels = lower_u32(
                origin,
                &children.expect(Rule::integer, "a number of levels")?,
            )?;
            Cell::Wins { side, levels }
        }
        Rule::cell_result => {
            let mut values = Vec::new();
            let mut actions = Vec::new();
            for part in inner.into_inner() {
                if part.as_rule() == Rule::actions {
                    actions = lower_actions(origin, Some(part), false)?;
                } else {
                    values.push(lower_value(origin, part)?);
                }
            }
            Cell::Result { values, actions }
        }
        _ => return Err(origin.internal(span, "a cell", "a matrix row")),
    };
    Ok(Spanned::new(cell, span))
}

// ------------------------------------------------------------------ modifier lists

fn lower_modifier_list(
    origin: Origin<'_>,
    children: Children<'_, '_>,
) -> Result<ModifierList, ParseError> {
    let mut items = Vec::new();
    for pair in children.remaining() {
        items.push(match pair.as_rule() {
            Rule::modifier_group => ModifierItem::Group(lower_modifier_group(origin, pair)?),
            _ => ModifierItem::Single(lower_modifier(origin, pair)?),
        });
    }
    Ok(ModifierList { items })
}

fn lower_modifier_group(
    origin: Origin<'_>,
    pair: Pair<'_, Rule>,
) -> Result<ModifierGroup, ParseError> {
    let mut children = Children::of(origin, pair, "a group of modifiers");
    let group = lower_name(origin, children.expect(Rule::name, "the group's name")?);
    let title = children.optional(Rule::title).map(lower_text);
    let stacking = children.optional(Rule::nonstacking).is_none();
    let modifiers = children
        .all(Rule::modifier)
        .into_iter()
        .map(|m| lower_modifier(origin, m))
        .collect::<Result<_, _>>()?;
    Ok(ModifierGroup {
        group,
        title,
        stacking,
        modifiers,
    })
}

fn lower_modifier(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Modifier, ParseError> {
    let span = written_span(origin, &pair);
    let mut children = Children::of(origin, pair, "a modifier");
    let name = lower_name(origin, children.expect(Rule::name, "the modifier's name")?);
    let label = children.optional(Rule::label).map(lower_text);
    let value = lower_modifier_value(origin, children.expect(Rule::modifier_value, "a value")?)?;
    let scale = match children.optional(Rule::scale) {
        Some(scale) => Some(lower_scale(origin, scale)?),
        None => None,
    };
    Ok(Modifier {
        name,
        label,
        value,
        scale,
        span,
    })
}

fn lower_modifier_value(
    origin: Origin<'_>,
    pair: Pair<'_, Rule>,
) -> Result<Spanned<ModifierValue>, ParseError> {
    let span = origin.span(pair.as_span());
    let inner = pair
        .into_inner()
        .next()
        .ok_or_else(|| origin.internal(span, "a modifier value", "a modifier"))?;
    let rule = inner.as_rule();
    let value = match rule {
        Rule::percent => match lower_value(origin, inner)?.value {
            Value::Percent(Percent { percent }) => ModifierValue::Percent { percent },
            _ => return Err(origin.internal(span, "a percentage", "a modifier")),
        },
        Rule::flat => ModifierValue::Flat {
            amount: lower_integer(origin, &inner)?,
        },
        Rule::auto_value | Rule::grade_value | Rule::cap_value => {
            let mut children = Children::of(origin, inner, "a modifier");
            let word = lower_name(origin, children.expect(Rule::name, "a name")?);
            match rule {
                Rule::auto_value => ModifierValue::Automatic { level: word },
                Rule::grade_value => ModifierValue::Grade { grade: word },
                _ => ModifierValue::Cap { skill: word },
            }
        }
        Rule::multiply_value => {
            let numbers: Vec<u32> = inner
                .into_inner()
                .map(|n| lower_u32(origin, &n))
                .collect::<Result<_, _>>()?;
            match numbers.as_slice() {
                [numerator] => ModifierValue::Multiply {
                    numerator: *numerator,
                    denominator: 1,
                },
                [numerator, denominator] => ModifierValue::Multiply {
                    numerator: *numerator,
                    denominator: *denominator,
                },
                _ => return Err(origin.internal(span, "one or two numbers", "a multiplier")),
            }
        }
        Rule::dice_value => {
            let mut children = Children::of(origin, inner, "dice with a standard value");
            let dice = lower_dice(origin, children.expect(Rule::dice, "dice")?)?;
            let standard = lower_integer(
                origin,
                &children.expect(Rule::signed_int, "a standard value")?,
            )?;
            ModifierValue::Dice {
                dice: dice.value,
                standard,
            }
        }
        _ => return Err(origin.internal(span, "a modifier value", "a modifier")),
    };
    Ok(Spanned::new(value, span))
}

fn lower_scale(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Scale, ParseError> {
    let mut children = Children::of(origin, pair.clone(), "a scale");
    let step = lower_u32(origin, &children.expect(Rule::integer, "a step")?)?;
    let direction = if pair.into_inner().any(|p| p.as_rule() == Rule::kw_below) {
        ScaleDirection::Below
    } else {
        ScaleDirection::Above
    };
    // `below` and `above` are keywords, skipped by `children`.
    let threshold = lower_integer(origin, &children.expect(Rule::signed_int, "a threshold")?)?;
    let quantity = lower_name(origin, children.expect(Rule::name, "a quantity")?);
    Ok(Scale {
        step,
        direction,
        threshold,
        quantity,
    })
}

// ------------------------------------------------------------------ look-ups

fn lower_lookup(origin: Origin<'_>, mut children: Children<'_, '_>) -> Result<Lookup, ParseError> {
    let header = children.expect(Rule::lookup_header, "the header row")?;
    let header_span = origin.span(header.as_span());
    let mut names = header.into_inner().map(|n| lower_name(origin, n));
    let key = names
        .next()
        .ok_or_else(|| origin.internal(header_span, "the key's name", "a look-up header"))?;
    let columns = names.collect();
    let rows = children
        .all(Rule::lookup_row)
        .into_iter()
        .map(|row| lower_lookup_row(origin, row))
        .collect::<Result<_, _>>()?;
    Ok(Lookup {
        key,
        columns,
        rows,
        header_span,
    })
}

fn lower_lookup_row(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<LookupRow, ParseError> {
    let mut children = Children::of(origin, pair, "a look-up row");
    let span = children.span;
    let key = lower_key(origin, children.expect(Rule::key, "the row's key")?)?;
    let mut cells = Vec::new();
    for cell in children.remaining() {
        let cell_span = origin.span(cell.as_span());
        let inner = cell
            .into_inner()
            .next()
            .ok_or_else(|| origin.internal(cell_span, "a value", "a look-up row"))?;
        cells.push(match inner.as_rule() {
            Rule::cell_empty => Spanned::new(None, cell_span),
            _ => {
                let value = lower_value(origin, inner)?;
                Spanned::new(Some(value.value), value.span)
            }
        });
    }
    Ok(LookupRow { key, cells, span })
}

// ------------------------------------------------------------------ effect lists

fn lower_effect_list(
    origin: Origin<'_>,
    mut children: Children<'_, '_>,
) -> Result<EffectList, ParseError> {
    let effects = children
        .all(Rule::effect)
        .into_iter()
        .map(|effect| lower_effect(origin, effect))
        .collect::<Result<_, _>>()?;
    Ok(EffectList { effects })
}

fn lower_effect(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Effect, ParseError> {
    let span = written_span(origin, &pair);
    let mut children = Children::of(origin, pair, "an effect");
    let name = lower_name(origin, children.expect(Rule::name, "the effect's name")?);
    let label = children.optional(Rule::label).map(lower_text);
    let description = children.optional(Rule::description).map(lower_text);
    let mut effect = Effect {
        name,
        label,
        description,
        offensive: false,
        defensive: false,
        stackable: false,
        requires: None,
        weapons: Vec::new(),
        actions: Vec::new(),
        span,
    };
    for flag in children.remaining() {
        match flag.as_rule() {
            Rule::offensive => effect.offensive = true,
            Rule::defensive => effect.defensive = true,
            Rule::stackable => effect.stackable = true,
            Rule::requires => {
                let mut parts = Children::of(origin, flag, "a requirement");
                let opponent = parts.optional(Rule::opponent).is_some();
                let level = lower_name(origin, parts.expect(Rule::name, "a result")?);
                effect.requires = Some(Requirement { opponent, level });
            }
            Rule::weapon_types => {
                effect.weapons = flag
                    .into_inner()
                    .filter(|p| p.as_rule() == Rule::name)
                    .map(|p| lower_name(origin, p))
                    .collect();
            }
            Rule::actions => effect.actions = lower_actions(origin, Some(flag), false)?,
            _ => return Err(origin.internal(origin.span(flag.as_span()), "a flag", "an effect")),
        }
    }
    Ok(effect)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actions(text: &str) -> Vec<Action> {
        let file = SourceFile::new("combat.toml".to_string(), text.to_string());
        parse_actions(&file, text, 0)
            .expect("the actions parse")
            .into_iter()
            .map(|a| a.value)
            .collect()
    }

    #[test]
    fn a_spend_says_what_it_is_spent_on() {
        assert!(matches!(
            &actions(r#"spend 1 action "yanking the weapon free""#)[..],
            [Action::Spend { count: 1, on: Some(on) }] if on == "yanking the weapon free"
        ));
        assert!(matches!(
            &actions("spend 2 actions")[..],
            [Action::Spend { count: 2, on: None }]
        ));
    }

    #[test]
    fn a_test_has_branches_for_success_and_failure_and_a_party_its_own_actions() {
        let parsed = actions("winner (test strength then loser (lodge weapon) or clear prone)");
        let [
            Action::Party {
                party,
                actions: done,
            },
        ] = &parsed[..]
        else {
            panic!("{parsed:?}");
        };
        assert_eq!(*party, Party::Winner);
        let [branches] = &done[..] else {
            panic!("{done:?}");
        };
        let [then, otherwise] = branches.value.branches();
        assert_eq!(then.len(), 1);
        assert_eq!(otherwise[0].value.to_string(), "clear prone");
        assert_eq!(
            parsed[0].to_string(),
            "winner (test strength then loser (lodge weapon) or clear prone)"
        );
        assert!(matches!(
            &actions("test strength then hurt (weapon.damage)")[..],
            [Action::Test { then, otherwise, .. }] if then.len() == 1 && otherwise.is_empty()
        ));
    }
}
