//! The fuzzers' corpora, and every input that once made one crash, replayed through the
//! very functions the fuzz targets call (`fuzz/src/lib.rs`, included here), so that
//! `cargo test` on the stable toolchain catches a crash coming back. README.md,
//! "Fuzzing", says how to run the fuzzers themselves.

use std::fs;
use std::panic::catch_unwind;
use std::path::{Path, PathBuf};

#[path = "../fuzz/src/lib.rs"]
mod fuzz;

/// Run every file of `fuzz/corpus/<target>` and `fuzz/regressions/<target>` through
/// `run`, and name each file that panics.
fn replay(target: &str, run: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let corpus = files(&root.join("corpus").join(target));
    assert!(!corpus.is_empty(), "fuzz/corpus/{target} has no input");
    let regressions = files(&root.join("regressions").join(target));
    let crashed: Vec<String> = corpus
        .iter()
        .chain(&regressions)
        .filter(|path| {
            let data = fs::read(path).expect("a corpus file can be read");
            catch_unwind(|| run(&data)).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(crashed.is_empty(), "{target} panics on {crashed:#?}");
}

/// The files of `folder`, sorted; a folder not there holds none (a target that never
/// crashed has no regressions).
fn files(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a corpus folder can be listed").path())
        .filter(|path| path.is_file())
        .collect();
    paths.sort();
    paths
}

#[test]
fn tables() {
    replay("tables", fuzz::tables);
}

#[test]
fn dice() {
    replay("dice", fuzz::dice);
}

#[test]
fn given_dice() {
    replay("given_dice", fuzz::given_dice);
}

#[test]
fn ruleset() {
    replay("ruleset", fuzz::ruleset);
}
