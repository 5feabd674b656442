//! Reading a file of given dice (`--dice FILE`): the values of a book example, or of the
//! dice rolled at the table, in the order the fight rolls them.
//!
//! ```text
//! # Alaric's Tale: initiative
//! 6 1 10 3
//! 55, 12      # Lilina attacks, the goblin parries
//! ```
//! Values are whole numbers separated by spaces, commas or line breaks; `#` starts a
//! comment. Whether a value fits its die is checked when it is rolled.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use super::GivenDie;
use crate::source::{SourceFile, Span};

#[derive(Debug, Error, Diagnostic)]
#[error("`{text}` is not a die value")]
#[diagnostic(
    code(affray::dice::not_a_value),
    help(
        "a dice file holds whole numbers from 1 up, separated by spaces, commas or lines; # starts a comment"
    )
)]
pub struct NotADieValue {
    #[source_code]
    src: NamedSource<Arc<str>>,
    #[label("not a whole number from 1 up")]
    span: SourceSpan,
    text: String,
}

/// Every value of a dice file, or every token that is not one.
pub fn read_given_dice(file: &SourceFile) -> Result<Vec<GivenDie>, Vec<NotADieValue>> {
    let mut values = Vec::new();
    let mut problems = Vec::new();
    let mut offset = 0;
    for (index, line) in file.text().split_inclusive('\n').enumerate() {
        let content = line.split('#').next().unwrap_or_default();
        for (start, token) in tokens(content) {
            match token.parse::<u32>() {
                Ok(value) if value > 0 => values.push(GivenDie {
                    value,
                    origin: format!("{} line {}", file.name(), index + 1),
                }),
                _ => problems.push(NotADieValue {
                    src: file.named(),
                    span: Span::new(offset + start, offset + start + token.len()).into(),
                    text: token.to_string(),
                }),
            }
        }
        offset += line.len();
    }
    if problems.is_empty() {
        Ok(values)
    } else {
        Err(problems)
    }
}

/// The tokens of a line with their byte offsets; spaces and commas separate them.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line;
    let mut consumed = 0;
    std::iter::from_fn(move || {
        let skip = rest.find(|c: char| !(c.is_whitespace() || c == ','))?;
        let after_skip = &rest[skip..];
        let len = after_skip
            .find(|c: char| c.is_whitespace() || c == ',')
            .unwrap_or(after_skip.len());
        let start = consumed + skip;
        let token = &after_skip[..len];
        rest = &after_skip[len..];
        consumed = start + len;
        Some((start, token))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_keep_their_line() {
        let file = SourceFile::new("dice.txt", "# initiative\n6 1, 10\n\n55 # attack\n");
        let values = read_given_dice(&file).unwrap();
        let pairs: Vec<(u32, &str)> = values
            .iter()
            .map(|v| (v.value, v.origin.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                (6, "dice.txt line 2"),
                (1, "dice.txt line 2"),
                (10, "dice.txt line 2"),
                (55, "dice.txt line 4")
            ]
        );
    }

    #[test]
    fn bad_tokens_are_all_reported_with_their_span() {
        let file = SourceFile::new("dice.txt", "6 x\n0 -3 7\n");
        let problems = read_given_dice(&file).unwrap_err();
        let found: Vec<(&str, usize)> = problems
            .iter()
            .map(|p| (p.text.as_str(), p.span.offset()))
            .collect();
        assert_eq!(found, [("x", 2), ("0", 4), ("-3", 6)]);
    }
}
