//! What each fuzz target does with its input, in one place. The fuzzers
//! (`fuzz_targets/*.rs`) call these functions, and the main crate's
//! `tests/fuzz_corpora.rs` includes this file and calls the same ones on every file of the
//! corpora and regressions, so that `cargo test` on the stable toolchain replays them.
//!
//! Each function takes any bytes. A mistake in them is a diagnostic, rendered as the
//! command line renders it; a panic anywhere is the bug a fuzzer looks for. A file that
//! is not UTF-8 is refused by every reader before it is parsed, so the targets that take
//! one file leave such input out.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use affray::dice::{DiceSource, TermKind, read_given_dice};
use affray::parse::{parse_dice, parse_tables};
use affray::source::SourceFile;
use affray::tables::{roll_on_table, validate_file};
use affray::{ruleset, scenario};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

/// A `.tables` file: parsed, lowered and checked as one file of a ruleset is.
pub fn tables(data: &[u8]) {
    let Some(file) = source("fuzz.tables", data) else {
        return;
    };
    match parse_tables(&file) {
        Ok(tables) => {
            let problems = validate_file(&file, &tables);
            render_all(problems.iter().map(|problem| problem as &dyn Diagnostic));
        }
        Err(error) => render(&error),
    }
}

/// A dice expression standing alone (a weapon's damage, `fight.roll("2D6+1")`): parsed,
/// then what is promised of an expression the parser accepts — its spelling reads back
/// as itself, its exact distribution spans its minimum to its maximum and adds up to 1,
/// and a roll lands between them with one face per die.
pub fn dice(data: &[u8]) {
    let Some(file) = source("dice", data) else {
        return;
    };
    let dice = match parse_dice(&file, file.text(), 0) {
        Ok(dice) => dice.value,
        Err(error) => {
            render(&error);
            return;
        }
    };
    // `dump`, `diff` and the log show an expression by this spelling.
    let shown = dice.to_string();
    match parse_dice(&SourceFile::new("shown", shown.clone()), &shown, 0) {
        Ok(again) => assert_eq!(again.value, dice, "`{shown}` reads back as another"),
        Err(error) => panic!("`{shown}`, the spelling of an expression, is refused: {error}"),
    }
    let (min, max) = (dice.min(), dice.max());
    let distribution = dice.distribution();
    assert_eq!((distribution.min, distribution.max()), (min, max));
    let total: f64 = distribution.probabilities.iter().sum();
    assert!(
        (total - 1.0).abs() < 1e-6,
        "probabilities add up to {total}"
    );
    let mean = dice.mean();
    assert!(
        (distribution.mean() - mean).abs() <= 1e-6 * mean.abs().max(1.0),
        "mean {mean}, the distribution's {}",
        distribution.mean()
    );
    let rolled = dice
        .roll(&mut DiceSource::seeded(data.len() as u64), "fuzz")
        .expect("a seeded source rolls every die");
    assert!((min..=max).contains(&rolled.total), "{rolled:?} of {shown}");
    let count: u32 = dice
        .terms()
        .iter()
        .map(|term| match term.kind {
            TermKind::Dice { count, .. } => count,
            TermKind::Constant(_) => 0,
        })
        .sum();
    assert_eq!(rolled.faces.len(), count as usize);
}

/// A file of given dice (`--dice FILE`): read, then replayed on a 1D100 each, as a fight
/// would roll them; a value the die cannot show and the run running out are diagnostics.
pub fn given_dice(data: &[u8]) {
    let Some(file) = source("dice.txt", data) else {
        return;
    };
    let values = match read_given_dice(&file) {
        Ok(values) => values,
        Err(problems) => {
            render_all(problems.iter().map(|problem| problem as &dyn Diagnostic));
            return;
        }
    };
    let mut dice = DiceSource::given(values.clone());
    for given in &values {
        match dice.roll_die(100, "fuzz") {
            Ok(value) => assert_eq!(value, given.value),
            Err(error) => {
                assert!(given.value > 100, "{} refused on a 1D100", given.value);
                render(&error);
            }
        }
    }
    match dice.roll_die(100, "fuzz") {
        Ok(value) => panic!("{value} rolled after the last given value"),
        Err(error) => render(&error),
    }
}

/// A whole ruleset directory, loaded and checked as `affray check` does, then every table
/// rolled once and the ruleset dumped. The input holds its files: each is a path on a
/// line of its own followed by its text, and a NUL byte separates one file from the
/// next (see [`files`] for the paths taken).
pub fn ruleset(data: &[u8]) {
    let dir = scratch_dir();
    for (path, text) in files(data) {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("the scratch folder can be written");
        }
        fs::write(&path, text).expect("the scratch folder can be written");
    }
    check_ruleset(&dir);
    let _ = fs::remove_dir_all(&dir);
}

fn check_ruleset(dir: &Path) {
    let ruleset = match ruleset::load(dir) {
        Ok(ruleset) => ruleset,
        Err(problems) => {
            render_all(
                problems
                    .iter()
                    .map(|problem| problem.as_ref() as &dyn Diagnostic),
            );
            return;
        }
    };
    let (_, problems) = scenario::check_all(&ruleset, dir);
    render_all(
        problems
            .iter()
            .map(|problem| problem.as_ref() as &dyn Diagnostic),
    );
    let _ = ruleset.summary();
    serde_json::to_string(&ruleset.dump()).expect("a loaded ruleset dumps as JSON");
    let find = |name: &str| ruleset.table(name);
    for table in &ruleset.rules.tables {
        if let Err(error) = roll_on_table(table, &find, &mut DiceSource::seeded(0)) {
            render(&error);
        }
    }
}

/// The files of a ruleset input whose path is one a ruleset reads: its four top-level
/// files, and a plain name in `tables/`, `scripts/`, `tactics/` or `scenarios/`. Other
/// paths are left out, so that nothing is written outside the scratch folder.
fn files(data: &[u8]) -> Vec<(String, &[u8])> {
    const TOP: [&str; 4] = [
        "ruleset.toml",
        "equipment.toml",
        "combat.toml",
        "tactics.toml",
    ];
    const FOLDERS: [(&str, &str); 4] = [
        ("tables", ".tables"),
        ("scripts", ".rhai"),
        ("tactics", ".toml"),
        ("scenarios", ".toml"),
    ];
    let plain = |stem: &str| {
        !stem.is_empty()
            && stem.len() <= 40
            && stem
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    let mut found = Vec::new();
    for part in data.split(|&byte| byte == 0) {
        let (line, text) = match part.iter().position(|&byte| byte == b'\n') {
            Some(end) => (&part[..end], &part[end + 1..]),
            None => (part, &[][..]),
        };
        let Ok(path) = std::str::from_utf8(line) else {
            continue;
        };
        let taken = TOP.contains(&path)
            || FOLDERS.iter().any(|(folder, extension)| {
                path.strip_prefix(folder)
                    .and_then(|rest| rest.strip_prefix('/'))
                    .and_then(|rest| rest.strip_suffix(extension))
                    .is_some_and(plain)
            });
        if taken {
            found.push((path.to_string(), text));
        }
    }
    found
}

/// A fresh folder for one input, in memory where the system has `/dev/shm` (a fuzzer
/// writes one for every input it tries), unique to the process and the call (the replay
/// test runs targets on several threads).
fn scratch_dir() -> PathBuf {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let dir = base.join(format!("affray-fuzz-{}-{call}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("the scratch folder can be made");
    dir
}

/// The input as the text of a file named `name`, if it is UTF-8.
fn source(name: &str, data: &[u8]) -> Option<SourceFile> {
    let text = std::str::from_utf8(data).ok()?;
    Some(SourceFile::new(name, text.to_string()))
}

/// Problems past this many are not rendered, only their labels checked against their
/// file: rendering is most of the time of an input with hundreds of mistakes, and each
/// is rendered by the same code.
const RENDERED: usize = 4;

fn render_all<'p>(problems: impl Iterator<Item = &'p dyn Diagnostic>) {
    for (index, problem) in problems.enumerate() {
        if index < RENDERED {
            render(problem);
        } else if let (Some(source), Some(labels)) = (problem.source_code(), problem.labels()) {
            for label in labels {
                assert!(
                    source.read_span(label.inner(), 0, 0).is_ok(),
                    "the problem `{problem}` has a label outside its file"
                );
            }
        }
    }
}

/// Render a problem as the command line does when its output is not a terminal. A
/// problem that cannot be shown with its labels in its file is a bug too: the command
/// line would fall back to its bare message and lose the place.
fn render(problem: &dyn Diagnostic) {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .with_links(false);
    let mut out = String::new();
    if handler.render_report(&mut out, problem).is_err() {
        panic!("the problem `{problem}` cannot be rendered");
    }
}
