//! Source files and byte spans.
//!
//! Every file a user writes is read once into a [`SourceFile`] and shared (`Arc<str>`), so
//! that any later stage can point a diagnostic at the exact bytes it blames.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use miette::{NamedSource, SourceSpan};
use serde::{Serialize, Serializer};

/// A file as the user wrote it, with the name it is shown under in diagnostics
/// (the path as given on the command line, never made absolute).
#[derive(Clone, Debug)]
pub struct SourceFile {
    name: Arc<str>,
    text: Arc<str>,
}

impl SourceFile {
    /// A byte-order mark some editors put at the start of a UTF-8 file is not part of
    /// the text: it is dropped, and every position counts from after it.
    pub fn new(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> Self {
        let text: Arc<str> = text.into();
        let text = match text.strip_prefix('\u{feff}') {
            Some(rest) => Arc::from(rest),
            None => text,
        };
        SourceFile {
            name: name.into(),
            text,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The whole file, for a miette label.
    pub fn named(&self) -> NamedSource<Arc<str>> {
        NamedSource::new(&self.name, Arc::clone(&self.text))
    }

    /// The 1-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let before = &self.text.as_bytes()[..offset.min(self.text.len())];
        before.iter().filter(|&&byte| byte == b'\n').count() + 1
    }

    /// The byte offset of a 1-based line and 1-based character column, clamped to the file.
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let mut offset = 0;
        for (index, text) in self.text.split_inclusive('\n').enumerate() {
            if index + 1 == line {
                let within = text
                    .char_indices()
                    .nth(column.saturating_sub(1))
                    .map_or(text.trim_end_matches('\n').len(), |(at, _)| at);
                return offset + within;
            }
            offset += text.len();
        }
        self.text.len()
    }
}

/// How many characters of a user's text a message echoes at most.
pub const EXCERPT_CHARS: usize = 60;

/// User text a message echoes (a token, a name, a value) as it is safe to print: cut to
/// [`EXCERPT_CHARS`] characters with an ellipsis, control characters (escapes, line ends)
/// written as `\u{1b}`, `\n`, so that a file of one 50 MB line gives a short message and
/// a name cannot drive the terminal.
pub fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A library's message about a user's file (TOML's, which quotes a key or a value),
/// with every word longer than [`EXCERPT_CHARS`] cut as [`excerpt`] cuts it; its lines
/// are kept.
pub fn shorten(message: &str) -> String {
    message
        .split('\n')
        .map(|line| line.split(' ').map(excerpt).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// This span moved by `by` bytes: a span found inside a string value, made absolute.
    pub fn shifted(self, by: usize) -> Self {
        Span::new(self.start + by, self.end + by)
    }

    pub fn len(self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl From<Span> for SourceSpan {
    fn from(span: Span) -> Self {
        (span.start, span.len()).into()
    }
}

impl From<pest::Span<'_>> for Span {
    fn from(span: pest::Span<'_>) -> Self {
        Span::new(span.start(), span.end())
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(range: std::ops::Range<usize>) -> Self {
        Span::new(range.start, range.end)
    }
}

/// A value and where it was written. Serialises as the bare value: spans are for
/// diagnostics, not for the resolved model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: impl Into<Span>) -> Self {
        Spanned {
            value,
            span: span.into(),
        }
    }
}

impl<T> Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: fmt::Display> fmt::Display for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<T: Serialize> Serialize for Spanned<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_characters_not_bytes() {
        let file = SourceFile::new("t", "ab\n–x\nlast");
        assert_eq!(file.offset_of(1, 1), 0);
        assert_eq!(file.offset_of(2, 2), 6); // the dash is three bytes
        assert_eq!(file.offset_of(3, 3), 10);
        assert_eq!(file.offset_of(9, 1), 12);
    }

    #[test]
    fn an_excerpt_is_short_and_shows_control_characters() {
        assert_eq!(excerpt("sword"), "sword");
        assert_eq!(excerpt("\u{1b}[31mRed\nline"), "\\u{1b}[31mRed\\nline");
        let long = "a".repeat(5_000_000);
        assert_eq!(excerpt(&long), format!("{}…", "a".repeat(EXCERPT_CHARS)));
        assert_eq!(
            shorten(&format!("unknown key `{long}`\nexpected `a`")),
            format!(
                "unknown key `{}…\nexpected `a`",
                "a".repeat(EXCERPT_CHARS - 1)
            )
        );
    }
}
