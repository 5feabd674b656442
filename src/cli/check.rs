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
use affray::scenario::{self, Scenario, ScriptedChoice};

/// The seeds each scenario is fought with: `affray fight <scenario> --seed N` replays one.
const SMOKE_SEEDS: [u64; 3] = [1, 2, 3];
const SMOKE_SEEDS_TEXT: &str = "1, 2 and 3";

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
        smoke(&ruleset, &scenarios).report()?;
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
                smoke(&ruleset, std::slice::from_ref(&scenario)).report()?;
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

/// Every scenario fought with each of `SMOKE_SEEDS`: the first error of each scenario,
/// as problems; its scripted choices that no fight used, as warnings.
/// A ruleset that says no turn (neither combat.toml nor hooks) is checked, not fought.
fn smoke(ruleset: &Arc<Ruleset>, scenarios: &[Scenario]) -> Smoked {
    let mut smoked = Smoked::default();
    for scenario in scenarios {
        // The entries no fight so far has used: at first, every one.
        let mut unused: Vec<ScriptedChoice> = scenario.choices.clone();
        for seed in SMOKE_SEEDS {
            let fought = seeded_fight(ruleset, scenario, seed, Log::Off)
                .and_then(|fight| fight.run().map(|_| fight.unused_choices()));
            match fought {
                Ok(left) => unused.retain(|choice| left.iter().any(|l| l.span == choice.span)),
                Err(FightError::MissingHook { .. }) => return Smoked::default(),
                Err(error) => {
                    let shown = scenario.file.as_ref().map_or("a scenario", |f| f.name());
                    smoked.problems.push(
                        StoppedFight {
                            scenario: shown.to_string(),
                            seed,
                            error,
                        }
                        .into(),
                    );
                    unused.clear();
                    break;
                }
            }
        }
        smoked
            .warnings
            .extend(scenario.unused_in_check(&unused, SMOKE_SEEDS_TEXT));
    }
    smoked
}

/// What `smoke` found.
#[derive(Default)]
struct Smoked {
    problems: Problems,
    warnings: Problems,
}

impl Smoked {
    /// The problems (with the warnings) when there are any; else the warnings printed.
    fn report(self) -> Result<(), Problems> {
        if !self.problems.is_empty() {
            let mut all = self.problems;
            all.extend(self.warnings);
            return Err(all);
        }
        if !self.warnings.is_empty() {
            super::report::print_warnings(&self.warnings);
        }
        Ok(())
    }
}
