//! `affray check <ruleset>`: the ruleset, then every scenario in its `scenarios/`, in
//! one run: a scenario is checked against as much of the ruleset as loaded.
//! `affray check <scenario.toml>`: that scenario and its ruleset. When all is sound,
//! each scenario is fought for a few seeds (log off), so that a script error that only
//! a fight meets is reported with its file and line.

use std::path::Path;
use std::sync::Arc;

use affray::analysis::run::seeded_fight;
use affray::engine::{FightError, Log};
use affray::ruleset::{self, Problems, Ruleset};
use affray::scenario::{self, Scenario};

/// The seeds each scenario is fought with: `affray fight <scenario> --seed N` replays one.
const SMOKE_SEEDS: [u64; 3] = [1, 2, 3];

pub fn run(path: &Path, fights: bool) -> Result<(), Problems> {
    if path.is_file() {
        return run_scenario(path, fights);
    }
    let loaded = ruleset::load_all(path);
    let mut problems = loaded.problems;
    let Some(ruleset) = loaded.ruleset else {
        problems.extend(scenario::not_checked(path));
        return Err(problems);
    };
    let (count, scenarios, found) = scenario::check_all_within(&ruleset, path, &loaded.incomplete);
    problems.extend(found);
    if !problems.is_empty() {
        return Err(problems);
    }
    let ruleset = Arc::new(ruleset);
    if fights {
        smoke(&ruleset, &scenarios)?;
    }
    let plural = if count == 1 { "" } else { "s" };
    super::output::print(format!("{}, {count} scenario{plural}\n", ruleset.summary()))?;
    Ok(())
}

fn run_scenario(path: &Path, fights: bool) -> Result<(), Problems> {
    let (ruleset, scenario, problems) = scenario::check_file(path);
    match (ruleset, scenario) {
        (Some(ruleset), Some(scenario)) if problems.is_empty() => {
            let ruleset = Arc::new(ruleset);
            if fights {
                smoke(&ruleset, std::slice::from_ref(&scenario))?;
            }
            super::output::print(format!(
                "{} is valid; {}\n",
                path.display(),
                ruleset.summary()
            ))?;
            Ok(())
        }
        _ => Err(problems),
    }
}

/// A fight of `check`'s smoke test that stopped with an error: which scenario and
/// seed, then the error with its file and line.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error(
    "{scenario} stopped when fought with --seed {seed} (`affray fight {scenario} --seed {seed}` shows it)"
)]
#[diagnostic(
    code(affray::check::fight),
    help("check fights each scenario with seeds 1, 2 and 3; `--no-fights` leaves them out")
)]
struct StoppedFight {
    scenario: String,
    seed: u64,
    #[source]
    #[diagnostic_source]
    error: FightError,
}

/// Every scenario fought with each of `SMOKE_SEEDS`: the first error of each scenario.
/// A ruleset that says no turn (neither combat.toml nor hooks) is checked, not fought.
fn smoke(ruleset: &Arc<Ruleset>, scenarios: &[Scenario]) -> Result<(), Problems> {
    let mut problems = Problems::new();
    for scenario in scenarios {
        for seed in SMOKE_SEEDS {
            let result = seeded_fight(ruleset, scenario, seed, Log::Off)
                .and_then(|fight| fight.run().map(|_| ()));
            match result {
                Ok(()) => {}
                Err(FightError::MissingHook { .. }) => return Ok(()),
                Err(error) => {
                    let shown = scenario.file.as_ref().map_or("a scenario", |f| f.name());
                    problems.push(
                        StoppedFight {
                            scenario: shown.to_string(),
                            seed,
                            error,
                        }
                        .into(),
                    );
                    break;
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}
