//! `affray fight <scenario>`

use std::path::Path;
use std::sync::Arc;

use affray::dice::{DiceSource, GivenDie, read_given_dice};
use affray::engine::{FightHandle, FightSetup, Log, ScriptedChooser};
use affray::log::render_text;
use affray::ruleset::{self, Problems};
use affray::scenario;
use affray::script::TacticsChooser;
use miette::Severity;

pub struct FightArgs<'a> {
    pub scenario: &'a Path,
    pub ruleset: Option<&'a Path>,
    pub seed: Option<u64>,
    pub dice: Option<&'a Path>,
    pub json: bool,
    /// Also write the fight's input record to this file (for `--replay`).
    pub record: Option<&'a Path>,
    /// Write the dice the fight rolled, labelled, to this file.
    pub emit_dice: Option<&'a Path>,
}

pub fn run(args: FightArgs<'_>) -> Result<(), Problems> {
    let (ruleset, scenario) = scenario::load(args.scenario, args.ruleset)?;
    let ruleset = Arc::new(ruleset);
    let (dice, seed, chosen) = match (args.dice, args.seed) {
        (Some(path), None) => (DiceSource::given(given_dice(path)?), None, false),
        (Some(path), Some(seed)) => (
            DiceSource::given_then_seeded(given_dice(path)?, seed),
            Some(seed),
            false,
        ),
        (None, Some(seed)) => (DiceSource::seeded(seed), Some(seed), false),
        (None, None) => {
            let seed = super::fresh_seed();
            (DiceSource::seeded(seed), Some(seed), true)
        }
    };
    // Only a fight whose dice are written keeps them (and reads their purposes).
    let dice = if args.emit_dice.is_some() {
        dice.traced()
    } else {
        dice
    };
    let (fight, recording) = match args.record {
        Some(path) => {
            let (fight, session) = super::play::recorded(
                &ruleset,
                &scenario,
                args.scenario,
                args.ruleset,
                seed.unwrap_or(1),
                path,
            )?;
            (fight, Some(session))
        }
        None => {
            let chooser =
                ScriptedChooser::new(&scenario.choices, TacticsChooser::new(&ruleset.rules));
            let setup = FightSetup {
                dice,
                chooser: Box::new(chooser),
                log: Log::Full,
                observer: None,
            };
            let fight = FightHandle::new(Arc::clone(&ruleset.rules), &scenario, setup)
                .map_err(|e| vec![miette::Report::new(e)])?;
            (fight, None)
        }
    };
    let result = fight.run();
    if let Some(session) = &recording {
        super::play::finish_recorded(session, result.is_ok());
    }
    // The dice up to the point of failure too: they show which roll went wrong.
    if let Some(path) = args.emit_dice {
        let text = affray::dice::emitted(&fight.dice_trace());
        if let Err(error) = std::fs::write(path, text) {
            return Err(vec![miette::miette!(
                code = "affray::io::write",
                "cannot write the dice to {}: {error}",
                path.display()
            )]);
        }
    }
    // The log up to the point of failure is printed either way: it shows where it stopped.
    let events = fight.take_events();
    let mut out = String::new();
    if args.json {
        for event in &events {
            out.push_str(&serde_json::to_string(event).unwrap_or_default());
            out.push('\n');
        }
    } else {
        match seed {
            Some(seed) if chosen => out.push_str(&format!(
                "seed {seed} (chosen at random: add --seed {seed} to fight it again)\n"
            )),
            Some(seed) => out.push_str(&format!("seed {seed}\n")),
            None => {}
        }
        for event in &events {
            render_text(event, &mut out);
        }
    }
    let written = super::output::print(out);
    // Scripted choices never used: a fight with given dice is a test, and fails; a
    // seeded fight may go another way than the one the choices were written for.
    let unused = match (&result, &recording) {
        (Ok(_), None) => fight.unused_choices(),
        _ => Vec::new(),
    };
    let unused_are_errors = args.dice.is_some();
    if !unused.is_empty() && !unused_are_errors {
        super::report::print_warnings(&scenario.unused_choices(&unused, Severity::Warning));
    }
    // A fight that went wrong says so first; the output that could not be written next.
    match (result, written) {
        (Ok(_), Ok(())) if !unused.is_empty() && unused_are_errors => {
            Err(scenario.unused_choices(&unused, Severity::Error))
        }
        (Ok(_), written) => written,
        (Err(error), Ok(())) => Err(vec![miette::Report::new(error)]),
        (Err(error), Err(mut problems)) => {
            problems.insert(0, miette::Report::new(error));
            Err(problems)
        }
    }
}

fn given_dice(path: &Path) -> Result<Vec<GivenDie>, Problems> {
    let file = ruleset::read_source(path).map_err(|error| vec![error])?;
    read_given_dice(&file)
        .map_err(|problems| problems.into_iter().map(miette::Report::new).collect())
}
