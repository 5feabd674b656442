//! Showing again what a user wrote: the whole lines a span covers.

use super::Text;
use crate::source::{SourceFile, Span};

/// The lines covering `span` in `file`, shown under the file's `relative` name: the
/// common indentation removed, trailing blank or comment-only lines (which a grammar may
/// keep inside a span) left out.
pub fn written(file: &SourceFile, relative: &str, span: Span) -> Text {
    // Spacing a grammar keeps after the last token would reach into the next line.
    let kept = file
        .text()
        .get(span.start..span.end)
        .map_or(0, |written| written.trim_end().len());
    let first = file.line_of(span.start);
    let last = file.line_of((span.start + kept).saturating_sub(1).max(span.start));
    let mut lines: Vec<&str> = file
        .text()
        .lines()
        .skip(first - 1)
        .take(last + 1 - first)
        .map(str::trim_end)
        .collect();
    while lines.len() > 1
        && lines
            .last()
            .is_some_and(|line| line.trim().is_empty() || line.trim_start().starts_with('#'))
    {
        lines.pop();
    }
    Text {
        file: relative.to_string(),
        line: Some(first),
        text: dedent(&lines),
    }
}

/// Lines already picked out, with the number of the first.
pub fn lines(relative: &str, numbered: &[(usize, String)]) -> Option<Text> {
    let first = numbered.first()?.0;
    let lines: Vec<&str> = numbered.iter().map(|(_, line)| line.as_str()).collect();
    Some(Text {
        file: relative.to_string(),
        line: Some(first),
        text: dedent(&lines),
    })
}

/// A value the file does not write (left to its default), shown as `key = value`.
pub fn unwritten(relative: &str, key: &str, value: &serde_json::Value) -> Text {
    Text {
        file: relative.to_string(),
        line: None,
        text: format!("{key} = {value}"),
    }
}

fn dedent(lines: &[&str]) -> String {
    let indent = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|line| line.get(indent..).unwrap_or_else(|| line.trim_start()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_lines_dedented_without_trailing_comments() {
        let file = SourceFile::new("t", "a {\n  04  x \"X\"\n      \"more\"\n  # next\n\n}\n");
        let start = file.text().find("04").unwrap();
        let end = file.text().find('}').unwrap();
        let text = written(&file, "t", Span::new(start, end));
        assert_eq!(text.line, Some(2));
        assert_eq!(text.text, "04  x \"X\"\n    \"more\"");
    }
}
