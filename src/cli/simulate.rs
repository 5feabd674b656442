//! `affray simulate <scenario> --fights N`

use std::path::Path;
use std::sync::Arc;

use affray::analysis::exchange::Exchange;
use affray::analysis::run::{self, Accumulate, Plan};
use affray::analysis::simulate::{Report, RunInfo, Tally};
use affray::dice::DiceSource;
use affray::ruleset::Problems;
use affray::scenario;

use super::plot;
use super::progress::run_with_progress;

pub struct SimulateArgs<'a> {
    pub scenario: &'a Path,
    pub ruleset: Option<&'a Path>,
    pub run: Plan,
    pub until_error: Option<f64>,
    pub json: bool,
    pub plot: Option<&'a Path>,
    /// Single exchanges between these two (attacker, defender, action) instead of fights.
    pub exchange: Option<ExchangeArgs<'a>>,
}

pub struct ExchangeArgs<'a> {
    pub attacker: Option<&'a str>,
    pub defender: Option<&'a str>,
    pub action: Option<String>,
}

pub fn run(args: SimulateArgs<'_>) -> Result<(), Problems> {
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
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print!("{}", report.render());
        if args.until_error.is_some() && tally.fights() < args.run.fights {
            println!(
                "\nstopped after {} fights: every win-rate interval is narrower than asked",
                tally.fights()
            );
        }
        if report.info.exchange.is_some() {
            return Ok(());
        }
        println!(
            "\none fight of this run with its log: affray fight {} --seed {}",
            args.scenario.display(),
            run::fight_seed(args.run.seed, 0)
        );
    }
    Ok(())
}

/// The scenario's sides, in the order they first appear.
pub fn sides_of(scenario: &affray::scenario::Scenario) -> Vec<String> {
    let mut sides: Vec<String> = Vec::new();
    for combatant in &scenario.combatants {
        if !sides.contains(&combatant.side) {
            sides.push(combatant.side.clone());
        }
    }
    sides
}
