//! Reading a file of given dice (`--dice FILE`): the values of a book example, or of the
//! dice rolled at the table, in the order the fight rolls them.
//!
//! ```text
//! # Alaric's Tale: initiative
//! 6 1 10 3
//! 55, 12      # Lilina attacks, the goblin parries
//! ```
//! Values are whole numbers separated by spaces, commas or line breaks; `#` starts a
//! comment. A value may be preceded, on its line, by a word saying what it is for
//! (`attack 39`, `location 13`, `damage 5`): the roll it feeds must have that word (or
//! those words, `hit_location`) in its purpose (see [`DieLabel::fits`]). Whether a value
//! fits its die is checked when it is rolled.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use super::{DieLabel, GivenDie};
use crate::source::{SourceFile, Span};

#[derive(Debug, Error, Diagnostic)]
#[error("`{text}` is not a die value")]
#[diagnostic(
    code(affray::dice::not_a_value),
    help(
        "a dice file holds whole numbers from 1 up, each perhaps after a word saying what it is for (attack 39), separated by spaces, commas or lines; # starts a comment"
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
        let mut label: Option<(usize, &str)> = None;
        for (start, token) in tokens(content) {
            match token.parse::<u32>() {
                Ok(value) if value > 0 => values.push(GivenDie {
                    value,
                    origin: format!("{} line {}", file.name(), index + 1),
                    label: label.take().map(|(at, word)| DieLabel {
                        word: word.to_string(),
                        src: file.named(),
                        span: Span::new(offset + at, offset + at + word.len()),
                    }),
                }),
                _ if label.is_none() && is_label(token) => label = Some((start, token)),
                _ => problems.push(NotADieValue {
                    src: file.named(),
                    span: Span::new(offset + start, offset + start + token.len()).into(),
                    text: token.to_string(),
                }),
            }
        }
        // A word with no value after it on its line.
        if let Some((start, token)) = label {
            problems.push(NotADieValue {
                src: file.named(),
                span: Span::new(offset + start, offset + start + token.len()).into(),
                text: token.to_string(),
            });
        }
        offset += line.len();
    }
    if problems.is_empty() {
        Ok(values)
    } else {
        Err(problems)
    }
}

/// A word that may label a value: a letter, then letters, digits, `_` or `-`.
fn is_label(token: &str) -> bool {
    token.starts_with(char::is_alphabetic)
        && token
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
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

    #[test]
    fn a_word_labels_the_value_after_it() {
        let file = SourceFile::new("dice.txt", "attack 39, 12 hit_location 13\ndamage\n5\n");
        let problems = read_given_dice(&file).unwrap_err();
        let found: Vec<(&str, usize)> = problems
            .iter()
            .map(|p| (p.text.as_str(), p.span.offset()))
            .collect();
        assert_eq!(found, [("damage", 30)]);
        let file = SourceFile::new("dice.txt", "attack 39, 12 hit_location 13\n");
        let values = read_given_dice(&file).unwrap();
        let labels: Vec<(u32, Option<&str>)> = values
            .iter()
            .map(|v| (v.value, v.label.as_ref().map(|l| l.word.as_str())))
            .collect();
        assert_eq!(
            labels,
            [(39, Some("attack")), (12, None), (13, Some("hit_location"))]
        );
        let location = values[2].label.as_ref().unwrap();
        assert!(location.fits("humanoid hit location for Bryn"));
        assert!(!location.fits("location for Bryn"));
        assert!(
            values[0]
                .label
                .as_ref()
                .unwrap()
                .fits("Attack with Sword for Ann")
        );
        assert!(!values[0].label.as_ref().unwrap().fits("attacker's damage"));
    }
}
