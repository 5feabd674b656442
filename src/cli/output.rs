//! What a command prints on standard output, written so that a failed write is never
//! lost: the bytes are flushed at once, a full disk or a closed file becomes a problem
//! with a message (exit 1), and a reader that stopped reading (`affray dump ... | head`)
//! ends the command quietly (exit 141, as a program stopped by SIGPIPE).

use std::io::{self, Write};
use std::process::ExitCode;

use affray::ruleset::Problems;

/// The code of the problem a closed pipe makes: [`closed`] finds it.
const CLOSED: &str = "affray::output::closed";

/// Write `text` to standard output and flush it.
pub fn print(text: impl AsRef<[u8]>) -> Result<(), Problems> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_ref())
        .and_then(|()| out.flush())
        .map_err(|error| vec![problem(&error)])
}

/// The problem a failed write to standard output makes.
pub fn problem(error: &io::Error) -> miette::Report {
    if error.kind() == io::ErrorKind::BrokenPipe {
        miette::miette!(
            code = CLOSED,
            "the output was closed before it was all written"
        )
    } else {
        miette::miette!(
            code = "affray::output::write",
            help = "check that the disk or the file the output goes to can take it",
            "cannot write the output: {error}"
        )
    }
}

/// Whether the problems are only that the reader stopped reading: then nothing is
/// reported and the command exits as a program stopped by SIGPIPE does.
pub fn closed(problems: &[miette::Report]) -> Option<ExitCode> {
    let closed = !problems.is_empty()
        && problems
            .iter()
            .all(|p| p.code().is_some_and(|code| code.to_string() == CLOSED));
    closed.then(|| ExitCode::from(141))
}
