//! Statistical snapshots (../shared/PORTING.md): `snapshots/statistics/<ruleset>/` holds,
//! for every scenario of a ruleset, the `affray simulate <scenario> --fights 20000
//! --seed 1 --json` report recorded before a change of how the ruleset is written. Each
//! scenario is fought again here with another seed (a fixed one: the test gives the
//! same verdict every run), and no figure may differ from the record significantly (all
//! the figures of all the ruleset's scenarios decided at once, with the false-discovery
//! control of `compare`). A change of behaviour must be made on purpose: record the snapshot again and
//! say why in the ruleset's README.
//!
//! `AFFRAY_STATISTICS_FIGHTS` sets how many fights each scenario gets here (default
//! below); a maintainer checking a port runs 20,000. `AFFRAY_STATISTICS_RULESETS` (names
//! of `snapshots/statistics/`, comma-separated) holds only those rulesets to their
//! snapshots, for one who changed only them; every one otherwise.

mod common;

use std::fs;

use affray::analysis::simulate::Report;
use affray::analysis::snapshot::drift_all;
use common::{affray, root, text};

/// Fights per scenario in a plain `cargo test`: enough to catch a rule gone wrong (a
/// win rate moved by five points, a table row never rolled), few enough for CI while the
/// rulesets run in rhai.
const DEFAULT_FIGHTS: &str = "500";

#[test]
fn every_scenario_plays_as_its_statistical_snapshot() {
    let fights = std::env::var("AFFRAY_STATISTICS_FIGHTS").unwrap_or(DEFAULT_FIGHTS.into());
    let snapshots = root().join("snapshots/statistics");
    let mut rulesets: Vec<_> = fs::read_dir(&snapshots)
        .expect("snapshots/statistics exists")
        .map(|entry| {
            entry
                .expect("a readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    rulesets.sort();
    if let Ok(only) = std::env::var("AFFRAY_STATISTICS_RULESETS") {
        let only: Vec<&str> = only.split(',').map(str::trim).collect();
        for name in &only {
            assert!(
                rulesets.iter().any(|r| r == name),
                "AFFRAY_STATISTICS_RULESETS: no snapshot {name} in {rulesets:?}"
            );
        }
        rulesets.retain(|r| only.contains(&r.as_str()));
    }
    assert!(!rulesets.is_empty());
    let mut failures = Vec::new();
    for ruleset in &rulesets {
        // Every scenario of the ruleset has its record.
        let scenarios = root().join("rulesets").join(ruleset).join("scenarios");
        let mut names: Vec<String> = fs::read_dir(&scenarios)
            .expect("the ruleset's scenarios")
            .map(|entry| entry.expect("a readable entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "toml"))
            .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut reports = Vec::new();
        for name in &names {
            let record = snapshots.join(ruleset).join(format!("{name}.json"));
            let Ok(recorded) = fs::read_to_string(&record) else {
                failures.push(format!(
                    "{ruleset}/{name}: no statistical snapshot at {}",
                    record.display()
                ));
                continue;
            };
            let recorded: Report =
                serde_json::from_str(&recorded).expect("a simulate --json report");
            let scenario = format!("rulesets/{ruleset}/scenarios/{name}.toml");
            let output = affray(
                root(),
                &[
                    "simulate", &scenario, "--fights", &fights, "--seed", "2", "--json",
                ],
            );
            assert!(
                output.status.success(),
                "{scenario}: {}",
                text(&output.stderr)
            );
            let now: Report =
                serde_json::from_slice(&output.stdout).expect("a simulate --json report");
            reports.push((name.clone(), recorded, now));
        }
        let pairs: Vec<(String, &Report, &Report)> = reports
            .iter()
            .map(|(name, a, b)| (name.clone(), a, b))
            .collect();
        for moved in drift_all(&pairs).into_iter().filter(|d| d.moved) {
            failures.push(format!(
                "{ruleset}/{}: was {:.4} per fight, now {:.4} (p = {:.2e})",
                moved.figure, moved.recorded, moved.now, moved.p_value
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "figures differ from the statistical snapshots:\n{}",
        failures.join("\n")
    );
}
