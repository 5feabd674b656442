//! Every ruleset under tests/fixtures/broken is valid except for one deliberate problem (a
//! few have two or three, to show that every problem is collected in one run). `affray
//! check` must exit 1 without panicking, and its report is snapshotted in snapshots/broken/.

use std::fs;
use std::path::Path;
use std::process::Command;

const FIXTURES: &str = "tests/fixtures/broken";

#[test]
fn every_broken_ruleset_is_reported() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = fs::read_dir(root.join(FIXTURES))
        .expect("tests/fixtures/broken exists")
        .map(|entry| entry.expect("a readable directory entry"))
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 24, "only {} fixtures", names.len());

    for name in &names {
        let fixture = format!("{FIXTURES}/{name}");
        let output = Command::new(env!("CARGO_BIN_EXE_affray"))
            .args(["check", &fixture])
            .current_dir(root)
            .output()
            .expect("the affray binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(
            output.status.code(),
            Some(1),
            "{fixture}: expected exit code 1\n{stderr}"
        );
        assert!(
            !stderr.contains("panicked"),
            "{fixture} panicked:\n{stderr}"
        );
        assert!(
            !stderr.contains(root.to_string_lossy().as_ref()),
            "{fixture}: the report holds an absolute path:\n{stderr}"
        );
        insta::with_settings!({
            snapshot_path => "../snapshots/broken",
            prepend_module_to_snapshot => false,
            description => fixture.as_str(),
        }, {
            insta::assert_snapshot!(name.as_str(), stderr);
        });
    }
}
