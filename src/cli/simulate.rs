//! `affray simulate <scenario> --fights N`

use std::path::Path;
use std::sync::Arc;

use affray::analysis::exchange::Exchange;
use affray::analysis::run::{self, Accumulate, Plan};
use affray::analysis::simulate::{Report, RunInfo, Tally};
use affray::analysis::snapshot::{Drift, drift};
use affray::dice::DiceSource;
use affray::ruleset::Problems;
use affray::scenario;

use super::output;
use super::plot;
use super::progress::run_with_progress;

pub struct SimulateArgs<'a> {
    pub scenario: &'a Path,
    pub ruleset: Option<&'a Path>,
    pub run: Plan,
    /// The seed was chosen, not given: said, so that the run can be repeated.
    pub seed_chosen: bool,
    pub until_error: Option<f64>,
    pub json: bool,
    pub plot: Option<&'a Path>,
    pub report: Option<&'a Path>,
    /// The command as typed, for the HTML report.
    pub command: String,
    /// Single exchanges between these two (attacker, defender, action) instead of fights.
    pub exchange: Option<ExchangeArgs<'a>>,
    /// A report recorded earlier (`--json`) to hold this one to.
    pub against: Option<&'a Path>,
}

pub struct ExchangeArgs<'a> {
    pub attacker: Option<&'a str>,
    pub defender: Option<&'a str>,
    pub action: Option<String>,
}

pub fn run(args: SimulateArgs<'_>) -> Result<(), Problems> {
    // Read the record first: a wrong path should not cost a whole run.
    let recorded = args.against.map(read_record).transpose()?;
    let (ruleset, scenario) = scenario::load(args.scenario, args.ruleset)?;
    let ruleset = Arc::new(ruleset);
    let exchange = match &args.exchange {
        Some(asked) => Some(
            Exchange::new(
                Arc::clone(&ruleset),
                scenario.clone(),
                asked.attacker,
                asked.defender,
                asked.action.clone(),
            )
            .map_err(|e| vec![miette::Report::new(e)])?,
        ),
        None => None,
    };
    let info = RunInfo {
        scenario: scenario.title.clone(),
        ruleset: ruleset.settings.title.clone(),
        seed: args.run.seed,
        sides: sides_of(&scenario),
        exchange: exchange
            .as_ref()
            .map(|e| format!("{} against {}", e.attacker_name(), e.defender_name())),
    };
    let sides = info.sides.clone();
    let tally: Tally = run_with_progress(
        args.run,
        "fights",
        |seed| match &exchange {
            Some(exchange) => exchange
                .run(DiceSource::seeded(seed))
                .map(|(figures, _)| figures),
            None => run::fight_figures(&ruleset, &scenario, seed),
        },
        |tally: &Tally| {
            args.until_error
                .is_some_and(|error| tally.widest_win_interval(&sides) < error)
        },
    )?;
    let report = Report::new(info, &tally);
    if let (Some(path), None) = (args.plot, &report.info.exchange) {
        plot::simulation(&report, path)?;
    }
    if let (Some(path), None) = (args.report, &report.info.exchange) {
        super::html::simulation(&report, &args.command, path)?;
    }
    if args.json {
        let json = serde_json::to_string_pretty(&report).unwrap_or_default();
        output::print(format!("{json}\n"))?;
    } else {
        let mut text = report.render();
        if args.until_error.is_some() && tally.fights() < args.run.fights {
            text.push_str(&format!(
                "\nstopped after {} fights: every win-rate interval is narrower than asked\n",
                tally.fights()
            ));
        }
        if report.info.exchange.is_none() {
            text.push_str(&format!(
                "\none fight of this run with its log: affray fight {} --seed {}\n",
                args.scenario.display(),
                run::fight_seed(args.run.seed, 0)
            ));
        }
        if args.seed_chosen {
            text.push_str(&format!(
                "(seed chosen at random: add --seed {} to repeat this run)\n",
                args.run.seed
            ));
        }
        output::print(text)?;
    }
    match (recorded, args.against) {
        (Some(recorded), Some(path)) => held_to(&recorded, &report, path, args.json),
        _ => Ok(()),
    }
}

fn read_record(path: &Path) -> Result<Report, Problems> {
    let problem = |reason: String| {
        vec![miette::miette!(
            code = "affray::snapshot::unreadable",
            help =
                "the record is the output of `affray simulate <scenario> --json`, saved to a file",
            "cannot read the record {}: {reason}",
            path.display()
        )]
    };
    let text = std::fs::read_to_string(path).map_err(|e| problem(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| problem(e.to_string()))
}

/// The figures of `report` that differ from the record beyond chance; an error (exit 1)
/// when any does. Printed to stderr with --json, so that stdout stays the report.
fn held_to(recorded: &Report, report: &Report, path: &Path, json: bool) -> Result<(), Problems> {
    let drifts = drift(recorded, report);
    let moved: Vec<&Drift> = drifts.iter().filter(|d| d.moved).collect();
    let mut text = format!(
        "\nagainst the record {} ({} fights, seed {}): ",
        path.display(),
        recorded.fights,
        recorded.info.seed
    );
    if moved.is_empty() {
        text.push_str(&format!(
            "no figure differs beyond chance ({} figures compared at once)\n",
            drifts.len()
        ));
        if json {
            eprint!("{text}");
        } else {
            output::print(text)?;
        }
        return Ok(());
    }
    let lines: Vec<String> = moved
        .iter()
        .map(|d| {
            format!(
                "  {}: {:.4} recorded, {:.4} now (p = {:.1e})",
                d.figure, d.recorded, d.now, d.p_value
            )
        })
        .collect();
    let help = format!(
        "a change of behaviour: if it is meant, record the report again and say why; {} \
         figures were compared at once (Benjamini–Hochberg, 5% false discoveries)",
        drifts.len()
    );
    Err(vec![miette::miette!(
        code = "affray::snapshot::moved",
        help = help,
        "{} figure{} of {} differ from the record {}:\n{}",
        moved.len(),
        if moved.len() == 1 { "" } else { "s" },
        report.info.scenario,
        path.display(),
        lines.join("\n")
    )])
}

/// The scenario's sides, in the order they first appear.
pub fn sides_of(scenario: &affray::scenario::Scenario) -> Vec<String> {
    let mut sides: Vec<String> = Vec::new();
    for combatant in &scenario.combatants {
        if !sides.iter().any(|side| combatant.side == *side) {
            sides.push(combatant.side.to_string());
        }
    }
    sides
}
