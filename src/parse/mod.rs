//! The parse and lower stages: text → pest pairs → typed models. This module is the only
//! one that sees pest; its errors are miette diagnostics with human names for the rules
//! of `grammar/dice.pest` and `grammar/tables.pest`.

// Errors are the cold path of a parse that runs once per file; boxing them would cost
// clarity for nothing measurable.
#![allow(clippy::result_large_err)]

mod dice;
mod expr;
mod tables;

use miette::{Diagnostic, NamedSource, SourceSpan};
use pest::error::{ErrorVariant, InputLocation};
use pest_derive::Parser;
use std::sync::Arc;
use thiserror::Error;

use crate::source::{SourceFile, Span};

pub use dice::parse_dice;
pub use expr::parse_expression;
pub use tables::{parse_actions, parse_tables};

#[derive(Parser)]
#[grammar = "../grammar/dice.pest"]
#[grammar = "../grammar/tables.pest"]
#[grammar = "../grammar/expressions.pest"]
struct Grammar;

/// An error found while reading a file's text into its model.
#[derive(Debug, Error, Diagnostic)]
pub enum ParseError {
    /// The text does not follow the grammar, e.g. `table t roll 1d20 { 01-03 }` (a row
    /// without a name).
    #[error("{message}")]
    #[diagnostic(code(affray::syntax))]
    Syntax {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{label}")]
        span: SourceSpan,
        message: String,
        label: String,
        #[help]
        help: Option<String>,
    },

    /// A dice expression beyond the limits, e.g. `1000000d1000000`.
    #[error("the dice expression `{}` is refused: {reason}", crate::source::excerpt(.text))]
    #[diagnostic(
        code(affray::dice::limit),
        help(
            "affray rolls at most 100 dice of up to 1000 sides per term, 32 terms, and 10000 sides in all"
        )
    )]
    DiceLimit {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("this expression")]
        span: SourceSpan,
        text: String,
        reason: String,
    },

    /// A number too large to hold, e.g. a range `1-99999999999999999999`.
    #[error("the number `{}` is too large", crate::source::excerpt(.text))]
    #[diagnostic(
        code(affray::number::too_large),
        help("numbers in tables are whole numbers of at most 18 digits")
    )]
    Number {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("this number")]
        span: SourceSpan,
        text: String,
    },

    /// `00-09` on a 1D100 (00 is 100, the top), or `11-00` on a 1D20.
    #[error("`00` cannot stand here")]
    #[diagnostic(code(affray::table::double_zero), help("{advice}"))]
    DoubleZero {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("00")]
        span: SourceSpan,
        advice: &'static str,
    },

    /// The grammar accepted a shape the lowering code does not expect: a bug in affray.
    #[error("internal error: expected {expected} while reading {context}")]
    #[diagnostic(
        code(affray::internal),
        help(
            "this is a bug in affray, not in your file; please report it with this file attached"
        )
    )]
    Internal {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("here")]
        span: SourceSpan,
        expected: &'static str,
        context: &'static str,
    },
}

/// Where the text being lowered sits: its file, and the byte offset of the parsed text in
/// that file (non-zero for a dice string inside a TOML value).
#[derive(Clone, Copy)]
struct Origin<'f> {
    file: &'f SourceFile,
    offset: usize,
}

impl Origin<'_> {
    fn span(&self, span: pest::Span<'_>) -> Span {
        Span::from(span).shifted(self.offset)
    }

    /// `input` is the text that was parsed: the whole file, or one value inside it.
    fn syntax_error(&self, error: pest::error::Error<Rule>, input: &str) -> ParseError {
        let (start, end) = match error.location {
            InputLocation::Pos(at) => (at, at),
            InputLocation::Span((start, end)) => (start, end),
        };
        let text = input;
        let embedded = self.offset > 0 || input.len() < self.file.text().len();
        let found = describe_found(text, start, embedded);
        let (message, label, help) = match &error.variant {
            ErrorVariant::ParsingError {
                positives,
                negatives,
            } => {
                let expression = positives.iter().any(|rule| is_expression_rule(*rule));
                let operators_only = !positives.is_empty()
                    && positives.iter().all(|rule| {
                        matches!(
                            rule,
                            Rule::op_or
                                | Rule::op_and
                                | Rule::op_compare
                                | Rule::op_add
                                | Rule::op_multiply
                                | Rule::EOI
                        )
                    });
                let mut expected = if operators_only {
                    let closing =
                        text[..start].matches('(').count() > text[..start].matches(')').count();
                    if closing {
                        "`)` or an operator (+, -, *, /, a comparison, and, or)".to_string()
                    } else {
                        "an operator (+, -, *, /, a comparison, and, or)".to_string()
                    }
                } else {
                    human_list(positives)
                };
                if embedded {
                    let end = if expression {
                        "the end of the expression"
                    } else {
                        "the end of the dice"
                    };
                    expected = expected.replace("the end of the file", end);
                }
                let unexpected = human_list(negatives);
                let message = match (expected.is_empty(), unexpected.is_empty()) {
                    (false, _) => format!("expected {expected}, found {found}"),
                    (true, false) => format!("unexpected {unexpected}"),
                    (true, true) => format!("unexpected {found}"),
                };
                let label = if expected.is_empty() {
                    "not expected here".to_string()
                } else {
                    format!("expected {expected}")
                };
                let help = if expression {
                    expression_hint(positives, text, start)
                } else if embedded && text.trim().contains(' ') {
                    Some("write dice without spaces, as in 1D8+1".to_string())
                } else if embedded {
                    None
                } else {
                    hint(positives, text, start)
                };
                (message, label, help)
            }
            ErrorVariant::CustomError { message } => (message.clone(), message.clone(), None),
        };
        let span = Span::new(start, end.max(start + found_len(text, start))).shifted(self.offset);
        ParseError::Syntax {
            src: self.file.named(),
            span: span.into(),
            message,
            label,
            help,
        }
    }

    fn internal(&self, span: Span, expected: &'static str, context: &'static str) -> ParseError {
        ParseError::Internal {
            src: self.file.named(),
            span: span.into(),
            expected,
            context,
        }
    }
}

/// Whether a rule belongs to `grammar/expressions.pest`.
fn is_expression_rule(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::expression
            | Rule::expr
            | Rule::disjunction
            | Rule::conjunction
            | Rule::negation
            | Rule::comparison
            | Rule::sum
            | Rule::product
            | Rule::signed
            | Rule::if_else
            | Rule::call
            | Rule::path
            | Rule::expr_dice
            | Rule::expr_number
            | Rule::expr_bool
            | Rule::expr_text
            | Rule::expr_word
            | Rule::op_or
            | Rule::op_and
            | Rule::op_not
            | Rule::op_compare
            | Rule::op_add
            | Rule::op_multiply
            | Rule::op_minus
            | Rule::kw_else
    )
}

/// A help line for the common mistakes in an expression.
fn expression_hint(expected: &[Rule], text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..).unwrap_or_default();
    let before = text.get(..at).unwrap_or_default();
    let unclosed = before
        .matches('(')
        .count()
        .saturating_sub(before.matches(')').count());
    if unclosed > 0 && !rest.starts_with(')') && expected.contains(&Rule::op_add) {
        return Some(if unclosed == 1 {
            "a `(` is never closed: add `)` where the bracketed part ends".to_string()
        } else {
            format!("{unclosed} `(` are never closed: add a `)` for each")
        });
    }
    if expected.contains(&Rule::kw_else) {
        return Some("an `if` needs both branches: if a > b { a } else { b }".into());
    }
    if rest.starts_with('=') && !rest.starts_with("==") {
        return Some("compare with `==`; an expression cannot assign".into());
    }
    if rest.starts_with(|c: char| c.is_alphabetic() || c == '_' || c.is_ascii_digit()) {
        return Some(
            "two values stand side by side: join them with an operator such as + or and".into(),
        );
    }
    None
}

/// The text at `at`, as a user would name it.
fn describe_found(text: &str, at: usize, embedded: bool) -> String {
    let rest = text.get(at..).unwrap_or_default();
    match rest.chars().next() {
        None if embedded => "the end of the value".to_string(),
        None => "the end of the file".to_string(),
        Some('\n' | '\r') => "the end of the line".to_string(),
        Some(' ' | '\t') => "a space".to_string(),
        // Cut: the token may be a whole line of a generated file.
        Some(_) => format!("`{}`", crate::source::excerpt(&rest[..found_len(text, at)])),
    }
}

/// The length of the token at `at`: a word, or one character.
fn found_len(text: &str, at: usize) -> usize {
    let rest = text.get(at..).unwrap_or_default();
    let word = rest
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
        .map_or(rest.len(), |(i, _)| i);
    if word > 0 {
        word
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    }
}

fn human_list(rules: &[Rule]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for rule in rules {
        if let Some(name) = human_name(*rule)
            && !names.contains(&name)
        {
            names.push(name);
        }
    }
    match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// A letter right after dice (`1d2O`): most likely a letter typed for a digit.
fn dice_letter_hint(text: &str, at: usize) -> Option<String> {
    let before = text.get(..at)?;
    let letter = text
        .get(at..)?
        .chars()
        .next()
        .filter(|c| c.is_alphabetic())?;
    let token = before.rsplit(char::is_whitespace).next()?;
    let (count, sides) = token.split_once(['d', 'D'])?;
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if !digits(count) || sides.is_empty() || !digits(sides) {
        return None;
    }
    let meant = match letter {
        'O' | 'o' => " (`0`, the digit, for the letter `O`?)",
        'l' | 'I' => " (`1`, the digit, for the letter?)",
        _ => "",
    };
    Some(format!(
        "dice are a count, D and the sides in digits, as in 1D20 or 2D6+1; `{letter}` is a letter{meant}"
    ))
}

/// A help line for the common mistakes.
fn hint(expected: &[Rule], text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..).unwrap_or_default();
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if let Some(help) = unclosed_quote_hint(text, at) {
        return Some(help);
    }
    if expected.contains(&Rule::matrix_header) && rest.starts_with('|') {
        return Some(
            "a matrix's header row starts with an empty corner cell: | | critical | success |"
                .into(),
        );
    }
    // A keyword where a name goes (a row, a column): before the cell check below.
    if expected.contains(&Rule::name) && is_keyword(&word) {
        return Some(format!(
            "`{word}` is a keyword of the table language; choose another name, such as `{word}_1`"
        ));
    }
    let line_start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    if text[line_start..].trim_start().starts_with('|') && !rest.starts_with('|') {
        return Some(
            "in a row of a matrix or look-up, every cell ends with `|`; write - for an empty cell"
                .into(),
        );
    }
    if let Some(help) = dice_letter_hint(text, at) {
        return Some(help);
    }
    if expected.contains(&Rule::dice_sign)
        && text[..at]
            .trim_end()
            .ends_with(|c: char| c.is_ascii_digit())
    {
        return Some(
            "a modifier is a percentage such as +20% or a signed number such as +2".into(),
        );
    }
    if rest.starts_with('%') && text[..at].ends_with([' ', '\t']) {
        return Some("write a percentage without a space before %, as in +20%".into());
    }
    if expected.contains(&Rule::name) && rest.starts_with(|c: char| c.is_ascii_digit()) {
        return Some("names start with a letter or _; write e.g. `row_1` rather than `1`".into());
    }
    if expected.contains(&Rule::range) {
        return Some(
            "each row starts with the die results it covers, such as `01-03` or `19`".into(),
        );
    }
    if expected.contains(&Rule::modifier_value) {
        return Some(
            "a modifier is a percentage (+20%), a flat number (-4), `grade hard`, dice with a \
             standard value (+2D (+6)), `auto critical`, a multiplier (x1/2) or `cap ride`"
                .into(),
        );
    }
    if [Rule::offensive, Rule::effect_flag, Rule::kw_offensive]
        .iter()
        .any(|rule| expected.contains(rule))
    {
        return Some(
            "after its name and texts, an effect says `offensive`, `defensive`, `stackable`, \
             `requires critical` or `weapon cutting`"
                .into(),
        );
    }
    None
}

/// When a syntax error follows a quoted text that runs over a line end, or sits on a
/// quote that never closes, the likely mistake is a missing closing quote.
fn unclosed_quote_hint(text: &str, at: usize) -> Option<String> {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut open: Option<usize> = None;
    let mut last_string: Option<(usize, usize)> = None;
    let mut chars = text.char_indices();
    while let Some((index, c)) = chars.next() {
        match (open, c) {
            (None, _) if index >= at => break,
            (None, '#') => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            (None, '"') => open = Some(index),
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(start), '"') => {
                last_string = Some((start, index));
                open = None;
            }
            _ => {}
        }
    }
    if text.get(at..).is_some_and(|rest| rest.starts_with('"')) && !text[at + 1..].contains('"') {
        return Some(format!(
            "the text opened at line {} has no closing quote",
            line_of(at)
        ));
    }
    let (start, end) = last_string?;
    if open.is_none() && text[start..end].contains('\n') {
        return Some(format!(
            "the text opened at line {} runs on to line {}: is a closing quote missing?",
            line_of(start),
            line_of(end)
        ));
    }
    None
}

fn is_keyword(word: &str) -> bool {
    use pest::Parser;
    Grammar::parse(Rule::keyword, word).is_ok_and(|pairs| pairs.as_str() == word)
}

/// What each grammar rule is called in an error message.
fn human_name(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "the end of the file",
        Rule::dice | Rule::dice_expression | Rule::dice_term => {
            "a dice expression such as 1D20, 2d8+1 or 4D+2"
        }
        Rule::dice_roll => "dice such as 1D6",
        Rule::dice_count | Rule::dice_sides | Rule::dice_constant | Rule::integer => {
            "a whole number"
        }
        Rule::dice_percent => "`%`",
        Rule::dice_sign => "`+` or `-`",
        Rule::table_def | Rule::file => {
            "a table (`table`, `matrix`, `modifiers`, `lookup` or `effects`)"
        }
        Rule::roll_table | Rule::kw_table => "`table`",
        Rule::matrix | Rule::kw_matrix => "`matrix`",
        Rule::modifier_list | Rule::kw_modifiers => "`modifiers`",
        Rule::lookup | Rule::kw_lookup => "`lookup`",
        Rule::effect_list | Rule::kw_effects => "`effects`",
        Rule::name => "a name such as drop_weapon (letters, digits and _)",
        Rule::script_name => "a script function such as fumbles::drop_weapon",
        Rule::string | Rule::title | Rule::label | Rule::description => "a \"quoted text\"",
        Rule::string_text => "the text of a string",
        Rule::signed_int => "a number such as 3 or -2",
        Rule::percent => "a percentage such as +20% or -10%",
        Rule::flat => "a flat modifier such as +2 or -4",
        Rule::keyword => "a keyword",
        Rule::kw_roll => "`roll`",
        Rule::kw_rows => "`rows`",
        Rule::kw_cols => "`cols`",
        Rule::kw_by => "`by`",
        Rule::kw_group | Rule::modifier_group => "`group`",
        Rule::kw_nonstacking | Rule::nonstacking => "`nonstacking`",
        Rule::kw_auto | Rule::auto_value => "`auto` with a result, such as auto critical",
        Rule::kw_grade | Rule::grade_value => "`grade` with a Difficulty Grade, such as grade hard",
        Rule::kw_cap | Rule::cap_value => "`cap` with a skill, such as cap ride",
        Rule::kw_per | Rule::scale => "`per`, as in `per 1 below 5 of target_siz`",
        Rule::kw_below | Rule::kw_above => "`below` or `above`",
        Rule::kw_of => "`of`",
        Rule::kw_offensive | Rule::offensive => "`offensive`",
        Rule::kw_defensive | Rule::defensive => "`defensive`",
        Rule::kw_stackable | Rule::stackable => "`stackable`",
        Rule::kw_requires | Rule::requires => "`requires`, as in `requires critical`",
        Rule::kw_opponent | Rule::opponent => "`opponent`",
        Rule::kw_weapon | Rule::weapon_types => "`weapon`, as in `weapon cutting or thrusting`",
        Rule::kw_or => "`or`",
        Rule::kw_script | Rule::script_action => "`script`",
        Rule::kw_lose | Rule::lose_action => "`lose`, as in `lose 1d3 actions`",
        Rule::kw_reroll | Rule::reroll_action => "`reroll`, as in `reroll 2 times ignoring 19-20`",
        Rule::kw_ignoring => "`ignoring`",
        Rule::kw_condition | Rule::condition_action => "`condition`, as in `condition prone`",
        Rule::kw_clear | Rule::clear_action => "`clear`, as in `clear prone`",
        Rule::kw_set | Rule::set_action => "`set`, as in `set ready 1`",
        Rule::kw_toward | Rule::set_toward_action => "`set toward`, as in `set toward guard (2)`",
        Rule::kw_drop | Rule::drop_action => "`drop`, as in `drop not shield`",
        Rule::drop_weapon => "`weapon`",
        Rule::kw_hand | Rule::drop_hand => "`hand` and a number, as in `drop hand 2`",
        Rule::kw_not | Rule::drop_not => "`not`",
        Rule::kw_resist | Rule::resist_action => {
            "`resist`, as in `resist evade or condition prone`"
        }
        Rule::kw_test | Rule::test_action => "`test`, as in `test athletics or condition prone`",
        Rule::kw_contest | Rule::contest_action => {
            "`contest`, as in `contest break_free against hold of held_by then clear held`"
        }
        Rule::if_action => "`if`, as in `if (not defender.prone) then condition prone`",
        Rule::kw_against => "`against` and the test the other combatant rolls",
        Rule::kw_for | Rule::duration => "`for`, as in `for 1d3 actions`",
        Rule::action_expr => "an expression in parentheses, as in `(damage)`",
        Rule::otherwise | Rule::branch => "an action, or several in parentheses",
        Rule::outcomes => "`then` or `or` and an action",
        Rule::kw_then | Rule::then_branch => {
            "`then`, as in `test strength then hurt (weapon.damage)`"
        }
        Rule::kw_spend | Rule::spend_action => "`spend`, as in `spend 1 action`",
        Rule::kw_hurt | Rule::hurt_action => "`hurt`, as in `hurt (weapon.damage)`",
        Rule::kw_ready | Rule::ready_action => "`ready`, as in `ready not shield`",
        Rule::kw_lodge | Rule::lodge_action => "`lodge weapon`",
        Rule::kw_strike | Rule::strike_action => "`strike` and an exchange, as in `strike melee`",
        Rule::kw_decide | Rule::decide_action => {
            "`decide` and a decision of combat.toml, as in `decide free_attack`"
        }
        Rule::party_action | Rule::party => {
            "a party of the exchange (attacker, defender, winner or loser), as in `winner (spend 1 action)`"
        }
        Rule::kw_actions => "`actions`",
        Rule::kw_rounds => "`rounds`",
        Rule::kw_turns => "`turns`",
        Rule::kw_times => "`times`",
        Rule::roll_action => "`roll` with a table name",
        Rule::range | Rule::range_key => "a die range such as 01-03 or 19",
        Rule::actions => "`=>` and an action",
        Rule::action_list => "actions such as `roll fumble` or `condition prone for 1 round`",
        Rule::script_args => "`(` and arguments",
        Rule::roll_row => "a row such as `01-03 falter \"Falter\"`",
        Rule::axis => "an axis such as `defender by success_level`",
        Rule::matrix_header => "a header row such as `| | critical | success |`",
        Rule::matrix_row => "a row such as `| critical | - | defender 1 |`",
        Rule::key => "a key: a name, a number, a range such as 1-10, 21+ or <=-2",
        Rule::at_least => "a key such as 21+",
        Rule::at_most => "a key such as <=-2",
        Rule::cell | Rule::cell_result => "a cell value",
        Rule::cell_empty => "`-`",
        Rule::cell_wins => "a winner such as `attacker 2`",
        Rule::modifier => "a modifier such as `target_surprised \"Target surprised\" +20%`",
        Rule::modifier_value => "a modifier value such as +20%, -4, grade hard or +2D (+6)",
        Rule::multiply_value => "a multiplier such as x1/2",
        Rule::dice_value => "dice with a standard value, such as +2D (+6)",
        Rule::lookup_header => "a header row such as `| st | thrust | swing |`",
        Rule::lookup_row => "a row such as `| 4 | 1d6-5 | 1d6-5 |`",
        Rule::lookup_cell => "a value",
        Rule::effect => "an effect such as `impale \"Impale\" offensive`",
        Rule::action => {
            "an action: script, lose, reroll, roll, condition, clear, set, drop, resist, test, spend, ready, hurt, lodge or a party's"
        }
        Rule::script_arg | Rule::value => {
            "a value: a number, a percentage, dice, a \"text\" or a name"
        }
        Rule::effect_flag => "`offensive`, `defensive`, `stackable`, `requires` or `weapon`",
        Rule::expression | Rule::expr | Rule::disjunction | Rule::conjunction => {
            "an expression such as (skill + 9) / 10"
        }
        Rule::negation | Rule::comparison | Rule::sum | Rule::product | Rule::signed => {
            "a value: a number, a name, a call such as max(a, b), or ( )"
        }
        Rule::atom => "a value: a number, a name, a call such as max(a, b), or ( )",
        Rule::if_else | Rule::kw_if => "`if`, as in if a > b { a } else { b }",
        Rule::kw_else => "`else` and the other branch",
        Rule::call => "a call such as max(a, b)",
        Rule::path => "a name such as skill or attacker.siz",
        Rule::expr_dice => "dice such as 1d10",
        Rule::expr_number => "a number",
        Rule::expr_bool => "true or false",
        Rule::expr_text | Rule::expr_text_inner => "a \"quoted name\"",
        Rule::expr_word => "a name",
        Rule::expr_keyword => "a keyword",
        Rule::op_or => "`or`",
        Rule::op_and => "`and`",
        Rule::op_not => "`not`",
        Rule::op_compare => "a comparison (==, !=, <, <=, >, >=)",
        Rule::op_add => "`+` or `-`",
        Rule::op_multiply => "`*` or `/`",
        Rule::op_minus => "`-`",
        Rule::WHITESPACE | Rule::COMMENT | Rule::ident_char | Rule::range_dash => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_recognised_whole() {
        assert!(is_keyword("table"));
        assert!(is_keyword("actions"));
        assert!(!is_keyword("tables"));
        assert!(!is_keyword("drop_weapon"));
    }

    #[test]
    fn lists_read_as_english() {
        assert_eq!(human_list(&[Rule::name]), human_name(Rule::name).unwrap());
        assert_eq!(
            human_list(&[Rule::kw_below, Rule::kw_above, Rule::kw_of]),
            "`below` or `above` or `of`"
        );
    }
}
