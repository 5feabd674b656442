//! Rendering problems for a person: colours and the terminal's width on a terminal,
//! plain Unicode at a fixed width otherwise (pipes, files, tests).

use std::io::{IsTerminal, Write};

use miette::{GraphicalReportHandler, GraphicalTheme};

/// Width used when stderr is not a terminal, so that output is the same everywhere.
const PLAIN_WIDTH: usize = 100;

pub fn print(problems: &[miette::Report]) {
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
        if handler
            .render_report(&mut rendered, problem.as_ref())
            .is_err()
        {
            rendered = format!("{problem}\n");
        }
        out.push_str(&rendered);
        out.push('\n');
    }
    let count = problems.len();
    out.push_str(&format!(
        "{count} problem{} found\n",
        if count == 1 { "" } else { "s" }
    ));
    let _ = std::io::stderr().write_all(out.as_bytes());
}
