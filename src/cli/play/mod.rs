//! GM mode: `affray fight --interactive` runs a fight at the table. Decisions are asked
//! of the person at the terminal, dice are typed in or rolled by affray (the automation
//! dial says which), and the fight's input record is saved after every resolved turn
//! and round so that it can be resumed, undone, or replayed under a house rule.
//!
//! - `prompt.rs`: the terminal, and the commands every prompt knows;
//! - `dial.rs`: the automation dial (manual, suggest, auto per step and combatant);
//! - `status.rs`: the status view;
//! - `record.rs`: the state file (the input record), written atomically;
//! - `session.rs`: the dice source, chooser and observer the engine is given;
//! - `replay.rs`: replaying a record under another ruleset, and the first divergence.

mod dial;
mod prompt;
mod record;
mod replay;
mod session;
mod status;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use affray::engine::{FightHandle, FightSetup, Log, ScriptedChooser};
use affray::ruleset::{Problems, Ruleset};
use affray::scenario::{self, Scenario};
use affray::source::excerpt;

pub use record::Record;
pub use replay::run as replay;
use session::{Session, SessionSetup, Shared, Stop};

fn problem(message: String) -> Problems {
    vec![miette::miette!("{message}")]
}

fn problem_with_help(message: String, help: String) -> Problems {
    vec![miette::miette!(help = help, "{message}")]
}

/// A `--dial` setting, checked when the command line is read.
pub fn parse_dial(setting: &str) -> Result<String, String> {
    dial::Dials::default()
        .set(setting, None)
        .map_err(|error| error.to_string())?;
    Ok(setting.to_string())
}

/// What `affray fight --interactive` or `--resume` was given.
pub struct PlayArgs<'a> {
    pub scenario: Option<&'a Path>,
    pub ruleset: Option<&'a Path>,
    pub seed: Option<u64>,
    pub resume: Option<&'a Path>,
    pub state: Option<&'a Path>,
    pub dials: &'a [String],
}

/// Run a fight at the table, from its start or from a state file.
pub fn run(args: PlayArgs<'_>) -> Result<(), Problems> {
    let (mut record, state) = match args.resume {
        Some(path) => (Record::load(path).map_err(problem)?, path.to_path_buf()),
        None => {
            let scenario = args
                .scenario
                .expect("clap requires a scenario without --resume");
            let absolute = std::path::absolute(scenario).unwrap_or(scenario.to_path_buf());
            let ruleset = args
                .ruleset
                .map(|r| std::path::absolute(r).unwrap_or(r.to_path_buf()));
            let record = Record::new(absolute, ruleset, args.seed.unwrap_or(1));
            let state = state_file(scenario, args.state, &record)?;
            (record, state)
        }
    };
    let (ruleset, scenario) = scenario::load(&record.scenario, record.ruleset.as_deref())?;
    // Checked against the fight: a misspelt name would otherwise dial nothing.
    let decisions = ruleset.known_decisions();
    let known = dial::Known::new(
        decisions.clone(),
        scenario
            .combatants
            .iter()
            .map(|c| c.name.to_string())
            .collect(),
    );
    let mut dials = dial::Dials::default();
    for setting in record.dials.iter().chain(args.dials) {
        dials.set(setting, Some(&known)).map_err(|error| {
            let message = format!("--dial {}: {}", excerpt(setting), error.reason);
            vec![match error.help {
                Some(help) => {
                    miette::miette!(code = "affray::usage::dial", help = help, "{message}")
                }
                None => miette::miette!(code = "affray::usage::dial", "{message}"),
            }]
        })?;
    }
    let ruleset = Arc::new(ruleset);
    let terminal = prompt::Terminal::stdin();
    terminal.say(&format!(
        "GM mode: {} — the fight is saved to {} after every action; ? for help at any prompt",
        scenario.title,
        state.display()
    ));
    if args.resume.is_none() {
        record.save(&state).map_err(|e| {
            problem(format!(
                "cannot write the state file {}: {e}",
                state.display()
            ))
        })?;
    }
    let mut terminal = Some(terminal);
    loop {
        let setup = SessionSetup {
            replay: record.completed().to_vec(),
            silent: record.resolved.len(),
            record: record.clone(),
            dials: dials.clone(),
            terminal: terminal.take(),
            continue_after_mismatch: false,
            state: Some(state.clone()),
            names: scenario
                .combatants
                .iter()
                .map(|c| c.name.to_string())
                .collect(),
            decisions: decisions.clone(),
        };
        let shared = Session::new(setup);
        let result = fight(&ruleset, &scenario, &shared, false)?.run();
        let mut session = shared.lock().unwrap_or_else(|p| p.into_inner());
        let resume = format!("affray fight --resume {}", state.display());
        match session.stop.clone() {
            Some(Stop::Quit) => {
                // The action in progress is dropped: a resume plays it again.
                let completed = session.record.completed().len();
                session.record.inputs.truncate(completed);
                session.save(None);
                let resolved = session.record.resolved.len();
                let actions = if resolved == 1 { "action" } else { "actions" };
                session.say(&format!(
                    "Fight saved to {} after {resolved} resolved {actions}. To go on: {resume}",
                    state.display(),
                ));
                session.fight = None;
                return Ok(());
            }
            Some(Stop::Undo) => {
                let taken_back = session.record.undo().unwrap_or_default();
                // The status is saved again once the replay reaches the undone point.
                session.record.status.clear();
                session.save(None);
                session.say(&undone(&taken_back));
                if session.record.resolved.is_empty() {
                    session.say("(back to the start of the fight)");
                }
                record = session.record.clone();
                dials = session.dials.clone();
                session.fight = None;
                terminal = session.take_terminal();
                continue;
            }
            Some(Stop::Mismatch(reason)) => {
                session.fight = None;
                return Err(problem(format!(
                    "{} no longer matches its fight: {reason}. The scenario or the ruleset changed since it was saved; compare with `affray fight --replay {} --ruleset DIR`",
                    state.display(),
                    state.display()
                )));
            }
            None => {}
        }
        session.record.finished = result.is_ok();
        let fight = session.fight.clone();
        session.save(fight.as_ref());
        if let Some(fight) = &fight {
            session.say(&status::view(fight).join("\n"));
        }
        if result.is_ok() {
            session.say(&format!(
                "The fight is over; its record is in {} (replay it under a house rule with `affray fight --replay {} --ruleset DIR`).",
                state.display(),
                state.display()
            ));
        }
        session.fight = None;
        return result
            .map(|_| ())
            .map_err(|error| vec![miette::Report::new(error)]);
    }
}

/// A fight whose dice, choices and progress go through `session`.
fn fight(
    ruleset: &Arc<Ruleset>,
    scenario: &Scenario,
    session: &Shared,
    log: bool,
) -> Result<FightHandle, Problems> {
    let (dice, chooser, observer) = Session::hooks(session);
    let setup = FightSetup {
        dice,
        chooser: Box::new(ScriptedChooser::new(&scenario.choices, chooser)),
        log: if log { Log::Full } else { Log::Off },
        observer: Some(observer),
    };
    FightHandle::new(Arc::clone(&ruleset.rules), scenario, setup)
        .map_err(|error| vec![miette::Report::new(error)])
}

/// The state file of a new fight: `--state FILE`, or `<scenario-stem>.fight.json` here.
/// An existing file is never overwritten unless it was named for this very fight.
fn state_file(scenario: &Path, named: Option<&Path>, record: &Record) -> Result<PathBuf, Problems> {
    let path = match named {
        Some(path) => path.to_path_buf(),
        None => {
            let stem = scenario
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "fight".into());
            PathBuf::from(format!("{stem}.fight.json"))
        }
    };
    if !path.exists() {
        return Ok(path);
    }
    match Record::load(&path) {
        Ok(saved) if saved.scenario == record.scenario && named.is_some() => Ok(path),
        Ok(_) => Err(problem_with_help(
            format!("{} already holds a saved fight", path.display()),
            format!(
                "go on with it: affray fight --resume {}\nor name another state file with --state FILE",
                path.display()
            ),
        )),
        Err(_) => Err(problem_with_help(
            format!(
                "{} already exists and is not an affray state file",
                path.display()
            ),
            "affray does not overwrite it: name another state file with --state FILE".into(),
        )),
    }
}

/// A seeded fight with no one asked, writing its record to `path` (`fight --record`).
pub fn recorded(
    ruleset: &Arc<Ruleset>,
    scenario: &Scenario,
    scenario_path: &Path,
    ruleset_path: Option<&Path>,
    seed: u64,
    path: &Path,
) -> Result<(FightHandle, Shared), Problems> {
    let absolute = std::path::absolute(scenario_path).unwrap_or(scenario_path.to_path_buf());
    let ruleset_dir = ruleset_path.map(|r| std::path::absolute(r).unwrap_or(r.to_path_buf()));
    let record = Record::new(absolute, ruleset_dir, seed);
    let session = Session::new(SessionSetup {
        record,
        replay: Vec::new(),
        silent: 0,
        dials: dial::Dials::default(),
        terminal: None,
        continue_after_mismatch: false,
        state: Some(path.to_path_buf()),
        names: Vec::new(),
        decisions: Vec::new(),
    });
    Ok((fight(ruleset, scenario, &session, true)?, session))
}

/// Save a recorded fight once it has ended, and let go of it.
pub fn finish_recorded(session: &Shared, finished: bool) {
    let mut session = session.lock().unwrap_or_else(|p| p.into_inner());
    session.record.finished = finished;
    let fight = session.fight.take();
    session.save(fight.as_ref());
}

/// What `undo` says it took back: the action's first input (its choice, mostly) and
/// how many more.
fn undone(taken_back: &[record::Input]) -> String {
    match taken_back {
        [] => "(undone: the last resolved action is taken back)".into(),
        [only] => format!("(undone: {})", only.describe()),
        [first, second] => format!(
            "(undone: {}, and after it {})",
            first.describe(),
            second.describe()
        ),
        [first, rest @ ..] => format!(
            "(undone: {}, and the {} dice and choices after it)",
            first.describe(),
            rest.len()
        ),
    }
}
