//! `affray sweep <scenario> --vary WHAT=FROM..TO[:STEP]`

use std::path::Path;
use std::sync::Arc;

use affray::analysis::run::{self, Plan};
use affray::analysis::simulate::RunInfo;
use affray::analysis::sweep::{SweepReport, SweepTally};
use affray::ruleset::Problems;
use affray::scenario::vary::load_varied;

use super::output;
use super::plot;
use super::progress::Progress;
use super::simulate::sides_of;

pub struct SweepArgs<'a> {
    pub scenario: &'a Path,
    pub ruleset: Option<&'a Path>,
    pub vary: &'a str,
    pub run: Plan,
    /// The seed was chosen, not given: said, so that the run can be repeated.
    pub seed_chosen: bool,
    pub json: bool,
    pub plot: Option<&'a Path>,
    pub report: Option<&'a Path>,
    /// The command as typed, for the HTML report.
    pub command: String,
}

pub fn run(args: SweepArgs<'_>) -> Result<(), Problems> {
    let (ruleset, variation, scenarios) = load_varied(args.scenario, args.ruleset, args.vary)?;
    let ruleset = Arc::new(ruleset);
    let Some(first) = scenarios.first() else {
        return Ok(());
    };
    let info = RunInfo {
        scenario: first.title.clone(),
        ruleset: ruleset.settings.title.clone(),
        seed: args.run.seed,
        sides: sides_of(first),
        exchange: None,
    };
    // Fight `i` at every value from the same seed: one bar over the whole sweep.
    let progress = Progress::new(
        args.run.fights,
        &format!("fights at each of {} values", scenarios.len()),
    );
    let tally: Result<SweepTally, _> = run::run(
        args.run,
        |seed| {
            scenarios
                .iter()
                .map(|scenario| run::fight_figures(&ruleset, scenario, seed))
                .collect()
        },
        &|done| progress.advance(done),
        |_: &SweepTally| false,
    );
    progress.finish();
    let tally = tally.map_err(|error| vec![miette::Report::new(error)])?;
    let report = SweepReport::new(info, variation.what.clone(), &variation.values, &tally);
    if let Some(path) = args.plot {
        plot::sweep(&report, path)?;
    }
    if let Some(path) = args.report {
        super::html::sweep(&report, &args.command, path)?;
    }
    if args.json {
        let json = serde_json::to_string_pretty(&report).unwrap_or_default();
        output::print(format!("{json}\n"))?;
    } else {
        let mut text = report.render();
        if args.seed_chosen {
            text.push_str(&format!(
                "(seed chosen at random: add --seed {} to repeat this run)\n",
                args.run.seed
            ));
        }
        output::print(text)?;
    }
    Ok(())
}
