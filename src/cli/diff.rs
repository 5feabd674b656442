//! `affray diff <A_DIR> <B_DIR>`: what a house-ruled copy changes, row by row.

use std::path::Path;

use affray::analysis::diff::{Change, Difference, Text, ruleset_differences, summary};
use affray::ruleset::{self, Problems};
use serde::Serialize;
use similar::{ChangeTag, TextDiff};

/// Texts longer than this are shown as a line diff with context, not whole.
const WHOLE_LINES: usize = 6;
/// Unchanged lines shown around each changed one in a line diff.
const CONTEXT_LINES: usize = 2;

pub fn run(before_dir: &Path, after_dir: &Path, json: bool) -> Result<(), Problems> {
    // Both are loaded before either's problems are reported, so all are shown at once.
    let (before, after) = match (ruleset::load(before_dir), ruleset::load(after_dir)) {
        (Ok(before), Ok(after)) => (before, after),
        (before, after) => {
            let mut problems = before.err().unwrap_or_default();
            problems.extend(after.err().unwrap_or_default());
            return Err(problems);
        }
    };
    let differences = ruleset_differences(&before, &after);
    if json {
        #[derive(Serialize)]
        struct Report<'d> {
            before: &'d str,
            after: &'d str,
            summary: String,
            differences: &'d [Difference],
        }
        let report = Report {
            before: &before.dir,
            after: &after.dir,
            summary: summary(&differences),
            differences: &differences,
        };
        let text = serde_json::to_string_pretty(&report).map_err(|error| {
            vec![miette::miette!(
                "cannot write the differences as JSON: {error}"
            )]
        })?;
        super::output::print(format!("{text}\n"))?;
    } else {
        super::output::print(render(&differences))?;
    }
    Ok(())
}

/// The differences, file by file (they come sorted), each as `file:line  what` and its
/// text before (`-`) and after (`+`), then the summary.
pub fn render(differences: &[Difference]) -> String {
    let mut out = String::new();
    for difference in differences {
        out.push_str(&heading(difference));
        if difference.change != Change::Moved {
            out.push_str(&body(difference.before.as_ref(), difference.after.as_ref()));
        }
        out.push('\n');
    }
    out.push_str(&summary(differences));
    out.push('\n');
    out
}

fn heading(difference: &Difference) -> String {
    let shown = difference.after.as_ref().or(difference.before.as_ref());
    let place = match shown.and_then(|text| text.line) {
        Some(line) => format!("{}:{line}", difference.file),
        None => format!("{} (default)", difference.file),
    };
    let change = match difference.change {
        Change::Added => " (added)",
        Change::Removed => " (removed)",
        Change::Changed | Change::Moved => "",
    };
    format!("{place}  {}{change}\n", difference.title)
}

fn body(before: Option<&Text>, after: Option<&Text>) -> String {
    let mut out = String::new();
    let mut side = |sign: char, text: Option<&Text>| {
        for line in text.map_or("", |t| t.text.as_str()).lines() {
            out.push_str(&format!("  {sign} {line}\n"));
        }
    };
    match (before, after) {
        (Some(before), Some(after))
            if before.text.lines().count().max(after.text.lines().count()) > WHOLE_LINES =>
        {
            return line_diff(&before.text, &after.text);
        }
        _ => {
            side('-', before);
            side('+', after);
        }
    }
    out
}

/// Only the lines that changed, with a little context, for long texts such as functions.
fn line_diff(before: &str, after: &str) -> String {
    let diff = TextDiff::from_lines(before, after);
    let mut out = String::new();
    for (index, group) in diff.grouped_ops(CONTEXT_LINES).iter().enumerate() {
        if index > 0 {
            out.push_str("  ...\n");
        }
        for op in group {
            for change in diff.iter_changes(op) {
                let sign = match change.tag() {
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                    ChangeTag::Equal => ' ',
                };
                out.push_str(&format!("  {sign} {}\n", change.value().trim_end()));
            }
        }
    }
    out
}
