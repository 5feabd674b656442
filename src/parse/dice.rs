//! Lowering of `grammar/dice.pest`: pairs → [`DiceExpr`].

use pest::Parser;
use pest::iterators::Pair;

use super::{Grammar, Origin, ParseError, Rule};
use crate::dice::{DiceExpr, DiceTerm, TermKind};
use crate::source::{SourceFile, Span, Spanned};

/// Parse a dice expression that stands alone, e.g. a weapon's damage in `equipment.toml`.
/// `offset` is where `text` starts in `file`, so that errors point into the file.
pub fn parse_dice(
    file: &SourceFile,
    text: &str,
    offset: usize,
) -> Result<Spanned<DiceExpr>, ParseError> {
    // A TOML string with escapes (`"\t1D6"`) does not appear in the file as decoded: its
    // positions cannot be mapped back, so such a value is shown on its own.
    if file.text().get(offset..offset + text.len()) != Some(text) {
        let alone = SourceFile::new(format!("{} (a dice value)", file.name()), text.to_string());
        return parse_dice(&alone, text, 0);
    }
    let origin = Origin { file, offset };
    let mut pairs =
        Grammar::parse(Rule::dice_expression, text).map_err(|e| origin.syntax_error(e, text))?;
    let whole = pairs
        .next()
        .ok_or_else(|| origin.internal(Span::new(offset, offset), "a dice expression", "dice"))?;
    let span = origin.span(whole.as_span());
    let dice = whole
        .into_inner()
        .find(|pair| pair.as_rule() == Rule::dice)
        .ok_or_else(|| origin.internal(span, "a dice expression", "dice"))?;
    lower_dice(origin, dice)
}

pub(super) fn lower_dice(
    origin: Origin<'_>,
    pair: Pair<'_, Rule>,
) -> Result<Spanned<DiceExpr>, ParseError> {
    let span = origin.span(pair.as_span());
    let text = pair.as_str().to_string();
    let mut terms = Vec::new();
    let mut negative = false;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::dice_sign => negative = part.as_str() != "+",
            Rule::dice_term => {
                terms.push(DiceTerm {
                    negative,
                    kind: lower_term(origin, part)?,
                });
                negative = false;
            }
            _ => {
                return Err(origin.internal(
                    origin.span(part.as_span()),
                    "a sign or a term",
                    "a dice expression",
                ));
            }
        }
    }
    DiceExpr::new(terms)
        .map(|expr| Spanned::new(expr, span))
        .map_err(|limit| ParseError::DiceLimit {
            src: origin.file.named(),
            span: span.into(),
            text,
            reason: limit.to_string(),
        })
}

fn lower_term(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<TermKind, ParseError> {
    let span = origin.span(pair.as_span());
    let inner = pair
        .into_inner()
        .next()
        .ok_or_else(|| origin.internal(span, "dice or a number", "a dice term"))?;
    match inner.as_rule() {
        Rule::dice_constant => Ok(TermKind::Constant(number(&inner))),
        Rule::dice_roll => {
            // Count omitted: one die (`d100`). Sides omitted: a d6 (`4D`, the pool
            // notation). `%` is a d100.
            let mut count = 1;
            let mut sides = 6;
            for part in inner.into_inner() {
                match part.as_rule() {
                    Rule::dice_count => count = number(&part),
                    Rule::dice_sides => sides = number(&part),
                    Rule::dice_percent => sides = 100,
                    _ => {
                        return Err(origin.internal(
                            origin.span(part.as_span()),
                            "a count or sides",
                            "dice",
                        ));
                    }
                }
            }
            Ok(TermKind::Dice { count, sides })
        }
        _ => Err(origin.internal(span, "dice or a number", "a dice term")),
    }
}

/// A number that fits a die count or constant; larger ones are clamped to a value that the
/// dice limits then refuse with a clear message.
fn number(pair: &Pair<'_, Rule>) -> u32 {
    pair.as_str()
        .parse::<u64>()
        .map_or(u32::MAX, |n| n.min(u64::from(u32::MAX)) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<DiceExpr, ParseError> {
        let file = SourceFile::new("test", text);
        parse_dice(&file, text, 0).map(|spanned| spanned.value)
    }

    #[test]
    fn the_books_spellings() {
        for (text, canonical, min, max) in [
            ("1D20", "1D20", 1, 20),
            ("2d8+1", "2D8+1", 3, 17),
            ("1D8+1D2", "1D8+1D2", 2, 10),
            ("1D10+10", "1D10+10", 11, 20),
            ("d100", "1D100", 1, 100),
            ("D%", "1D100", 1, 100),
            ("3d6", "3D6", 3, 18),
            ("1D3", "1D3", 1, 3),
            ("1D6-1", "1D6-1", 0, 5),
            ("1D6–1", "1D6-1", 0, 5),
            ("4D+2", "4D6+2", 6, 26),
            ("D", "1D6", 1, 6),
            ("-1D8", "-1D8", -8, -1),
            ("7", "7", 7, 7),
        ] {
            let expr = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(expr.to_string(), canonical, "{text}");
            assert_eq!((expr.min(), expr.max()), (min, max), "{text}");
        }
    }

    #[test]
    fn absurd_and_broken_expressions_are_errors() {
        assert!(matches!(
            parse("1000000d1000000"),
            Err(ParseError::DiceLimit { .. })
        ));
        let thousands = vec!["1d6"; 2000].join("+");
        assert!(matches!(
            parse(&thousands),
            Err(ParseError::DiceLimit { .. })
        ));
        assert!(matches!(
            parse("99999999999999999999999d6"),
            Err(ParseError::DiceLimit { .. })
        ));
        for broken in ["", "2d6+", "d6 + 1", "1e6", "1d6x", "++1"] {
            assert!(
                matches!(parse(broken), Err(ParseError::Syntax { .. })),
                "{broken:?}"
            );
        }
    }
}
