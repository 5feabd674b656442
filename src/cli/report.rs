//! Rendering problems for a person: colours and the terminal's width on a terminal,
//! plain Unicode at a fixed width otherwise (pipes, files, tests).

use std::fmt;
use std::io::{IsTerminal, Write};

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError,
    MietteSpanContents, Severity, SourceCode, SourceSpan, SpanContents,
};

/// Width used when stderr is not a terminal, so that output is the same everywhere.
const PLAIN_WIDTH: usize = 100;

pub fn print(problems: &[miette::Report]) {
    print_counted(problems, "problem");
}

/// Warnings: drawn as problems are, counted as warnings (the command goes on).
pub fn print_warnings(warnings: &[miette::Report]) {
    print_counted(warnings, "warning");
}

fn print_counted(problems: &[miette::Report], what: &str) {
    let terminal = std::io::stderr().is_terminal();
    let handler = if terminal {
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode())
    } else {
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
            .with_width(PLAIN_WIDTH)
            .with_links(false)
    };
    let mut out = String::new();
    for problem in problems {
        let mut rendered = String::new();
        let clipped = Clipped::new(problem.as_ref());
        if handler.render_report(&mut rendered, &clipped).is_err() {
            rendered = format!("{problem}\n");
        }
        out.push_str(&rendered);
        out.push('\n');
    }
    let count = problems.len();
    out.push_str(&format!(
        "{count} {what}{} found\n",
        if count == 1 { "" } else { "s" }
    ));
    let _ = std::io::stderr().write_all(out.as_bytes());
}

/// A line longer than this (a generated table of one line, minified text) is not shown
/// whole: only [`WINDOW`] bytes either side of where a label starts.
const LONG_LINE: usize = 400;
const WINDOW: usize = 80;

/// A problem as it is drawn: the lines of its source cut round its labels where they are
/// too long to print, so that a file of one 50 MB line gives a report of a few lines (and
/// miette, which cannot draw an underline past column 65,535, does not panic).
struct Clipped<'a> {
    inner: &'a dyn Diagnostic,
    source: Option<ClippedSource<'a>>,
    related: Vec<Clipped<'a>>,
}

impl<'a> Clipped<'a> {
    fn new(inner: &'a dyn Diagnostic) -> Self {
        Clipped {
            inner,
            source: inner.source_code().map(ClippedSource),
            related: inner
                .related()
                .map(|related| related.map(Clipped::new).collect())
                .unwrap_or_default(),
        }
    }
}

impl fmt::Display for Clipped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.inner, f)
    }
}

impl fmt::Debug for Clipped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.inner, f)
    }
}

impl std::error::Error for Clipped<'_> {}

impl Diagnostic for Clipped<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.inner.code()
    }

    fn severity(&self) -> Option<Severity> {
        self.inner.severity()
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.inner.help()
    }

    fn url<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.inner.url()
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|source| source as &dyn SourceCode)
    }

    /// A label on a long line underlines at most [`WINDOW`] bytes.
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let labels = self.inner.labels()?;
        let source = self.inner.source_code();
        Some(Box::new(labels.map(move |label| {
            let long = source.is_some_and(|source| {
                source
                    .read_span(label.inner(), 0, 0)
                    .is_ok_and(|contents| longest_line(contents.data()) > LONG_LINE)
            });
            if !long || label.len() <= WINDOW {
                return label;
            }
            let span = SourceSpan::new(label.offset().into(), WINDOW);
            if label.primary() {
                LabeledSpan::new_primary_with_span(label.label().map(String::from), span)
            } else {
                LabeledSpan::new_with_span(label.label().map(String::from), span)
            }
        })))
    }

    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related
                .iter()
                .map(|related| related as &dyn Diagnostic),
        ))
    }

    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        self.inner.diagnostic_source()
    }
}

/// The source of a problem, read as miette reads it, but where the lines round a span
/// are too long, only a window of the line the span starts in (its real line and column
/// kept, so that the report's `file:line:column` stays true).
struct ClippedSource<'a>(&'a dyn SourceCode);

impl SourceCode for ClippedSource<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let contents = self
            .0
            .read_span(span, context_lines_before, context_lines_after)?;
        let data = contents.data();
        if longest_line(data) <= LONG_LINE {
            return Ok(contents);
        }
        let base = contents.span().offset();
        let at = span.offset().saturating_sub(base).min(data.len());
        let line_start = data[..at]
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map(|i| i + 1);
        let first = line_start.unwrap_or(0);
        let line_end = data[at..]
            .iter()
            .position(|&byte| matches!(byte, b'\n' | b'\r'))
            .map_or(data.len(), |i| at + i);
        let mut start = at.saturating_sub(WINDOW).max(first);
        let mut end = (at + span.len().min(WINDOW) + WINDOW).min(line_end);
        // Whole characters only.
        while start > first && is_continuation(data[start]) {
            start -= 1;
        }
        while end < line_end && is_continuation(data[end]) {
            end += 1;
        }
        let line = contents.line() + data[..start].iter().filter(|&&b| b == b'\n').count();
        let characters = |bytes: &[u8]| String::from_utf8_lossy(bytes).chars().count();
        let column = match line_start {
            Some(first) => characters(&data[first..start]),
            None => contents.column() + characters(&data[..start]),
        };
        let window = &data[start..end];
        let span = SourceSpan::new((base + start).into(), window.len());
        Ok(Box::new(match contents.name() {
            Some(name) => {
                MietteSpanContents::new_named(name.to_string(), window, span, line, column, 1)
            }
            None => MietteSpanContents::new(window, span, line, column, 1),
        }))
    }
}

fn longest_line(data: &[u8]) -> usize {
    data.split(|&byte| byte == b'\n')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0)
}

/// A byte inside a UTF-8 character, not its first.
fn is_continuation(byte: u8) -> bool {
    byte & 0b1100_0000 == 0b1000_0000
}
