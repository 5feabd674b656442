//! Helpers shared by the integration tests: run the real binary, copy a ruleset to a
//! scratch folder to break or house-rule it.

// Each test file uses some of these helpers, not all.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The rulesets the project ships, under `rulesets/`. Tests that go through every
/// ruleset go through these, not every folder: a game master's house-rule copy
/// (`cp -r rulesets/legend rulesets/my-legend`, as the README says) is not the project's
/// to snapshot.
pub const SHIPPED: [&str; 5] = [
    "3d6-hex",
    "classic-fantasy",
    "legend",
    "opend6",
    "runequest-srd",
];

/// The project's root, where relative paths in the tests start.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Run `affray` with `args` from `dir`.
pub fn affray(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_affray"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the affray binary runs")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh, empty folder for one test (tests of a file run in parallel), under the
/// build's own scratch space (`target/tmp`, which `cargo clean` empties), not the
/// system's temporary folder, which no test would empty.
pub fn scratch(case: &str) -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, Ordering::SeqCst);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("affray-{case}-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Replace the first `from` in a file by `to`, insisting that `from` is there.
pub fn edit(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} holds {from:?}", path.display());
    fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// A scenario's `ruleset` key naming a shipped ruleset by its absolute path (the scenario
/// is written to a scratch folder).
pub fn ruleset_path(name: &str) -> String {
    root()
        .join("rulesets")
        .join(name)
        .display()
        .to_string()
        .replace('\\', "/")
}

/// Fight `scenario` with the given `dice` in a scratch folder; the log (stdout). A fight
/// that runs out of dice stops there: the log shows what happened until then.
pub fn fight_with_dice(case: &str, scenario: &str, dice: &str) -> String {
    let dir = scratch(case);
    fs::write(dir.join("exchange.toml"), scenario).unwrap();
    fs::write(dir.join("dice.txt"), dice).unwrap();
    let output = affray(&dir, &["fight", "exchange.toml", "--dice", "dice.txt"]);
    let _ = fs::remove_dir_all(&dir);
    text(&output.stdout)
}

/// Run `affray` with `args` from `dir`, its standard input read from `input` (a scripted
/// session at the table: one answer per line).
pub fn affray_with_input(dir: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_affray"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the affray binary runs");
    // A fight that ends before reading every answer closes its end of the pipe.
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("the affray binary ends")
}

/// Run affray from the repository's root; it must succeed. What it printed.
pub fn run_ok(args: &[&str]) -> String {
    let output = affray(root(), args);
    assert!(
        output.status.success(),
        "affray {args:?} failed:\n{}",
        text(&output.stderr)
    );
    text(&output.stdout)
}
