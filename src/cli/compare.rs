//! `affray compare <scenario> --ruleset A --ruleset B`

use std::path::{Path, PathBuf};
use std::sync::Arc;

use affray::analysis::compare::{Comparison, PairedTally};
use affray::analysis::diff::ruleset_differences;
use affray::analysis::run::{self, Plan};
use affray::analysis::simulate::RunInfo;
use affray::ruleset::{Problems, Ruleset};
use affray::scenario::{self, Scenario};

use super::diff;
use super::plot;
use super::progress::run_with_progress;
use super::simulate::sides_of;

pub struct CompareArgs<'a> {
    pub scenario: &'a Path,
    pub rulesets: &'a [PathBuf],
    pub run: Plan,
    /// The seed was chosen, not given: said, so that the run can be repeated.
    pub seed_chosen: bool,
    pub until_error: Option<f64>,
    /// Stop once every difference in win rate is beyond chance or within ± this.
    pub until_settled: Option<f64>,
    pub json: bool,
    pub all: bool,
    pub plot: Option<&'a Path>,
    pub report: Option<&'a Path>,
    /// The command as typed, for the HTML report.
    pub command: String,
}

/// The scenario set up under one ruleset directory.
struct Variant {
    dir: String,
    ruleset: Arc<Ruleset>,
    scenario: Scenario,
}

pub fn run(args: CompareArgs<'_>) -> Result<(), Problems> {
    let mut variants = Vec::new();
    let mut problems = Vec::new();
    for dir in args.rulesets {
        match scenario::load(args.scenario, Some(dir)) {
            Ok((ruleset, scenario)) => variants.push(Variant {
                dir: dir.display().to_string(),
                ruleset: Arc::new(ruleset),
                scenario,
            }),
            Err(mut found) => problems.append(&mut found),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let Some((base, others)) = variants.split_first() else {
        return Ok(());
    };
    let mut reports = Vec::new();
    let mut changes = Vec::new();
    for other in others {
        let comparison = compare_two(&args, base, other)?;
        changes.push(diff::render(&comparison.differences));
        if !args.json {
            let mut text = String::new();
            if !reports.is_empty() {
                text.push_str(&format!("\n{}\n\n", "─".repeat(80)));
            }
            text.push_str("what B changes (as `affray diff` lists it):\n\n");
            text.push_str(&diff::render(&comparison.differences));
            text.push('\n');
            text.push_str(&comparison.render(!args.all));
            if let Some(margin) = args.until_settled {
                text.push_str(&settled_note(&comparison, margin));
            }
            super::output::print(text)?;
        }
        reports.push(comparison);
    }
    if let Some(path) = args.plot {
        plot::comparison(&reports, path)?;
    }
    if let Some(path) = args.report {
        super::html::comparison(&reports, &changes, &args.command, path)?;
    }
    if args.json {
        let value = if reports.len() == 1 {
            serde_json::to_string_pretty(&reports[0])
        } else {
            serde_json::to_string_pretty(&reports)
        };
        super::output::print(format!("{}\n", value.unwrap_or_default()))?;
    } else if args.seed_chosen {
        super::output::print(format!(
            "\n(seed chosen at random: add --seed {} to repeat this run)\n",
            args.run.seed
        ))?;
    }
    Ok(())
}

fn compare_two(
    args: &CompareArgs<'_>,
    before: &Variant,
    after: &Variant,
) -> Result<Comparison, Problems> {
    let info = RunInfo {
        scenario: before.scenario.title.clone(),
        ruleset: before.ruleset.settings.title.clone(),
        seed: args.run.seed,
        sides: sides_of(&before.scenario),
        exchange: None,
    };
    let sides = info.sides.clone();
    let tally: PairedTally = run_with_progress(
        args.run,
        "pairs of fights",
        |seed| {
            let a = run::fight_figures(&before.ruleset, &before.scenario, seed)?;
            let b = run::fight_figures(&after.ruleset, &after.scenario, seed)?;
            Ok((a, b))
        },
        |tally: &PairedTally| {
            args.until_error
                .is_some_and(|error| tally.widest_win_interval(&sides) < error)
                || args
                    .until_settled
                    .is_some_and(|margin| tally.settled(&sides, margin))
        },
    )?;
    let differences = ruleset_differences(&before.ruleset, &after.ruleset);
    Ok(Comparison::new(
        info,
        (before.dir.clone(), after.dir.clone()),
        differences,
        &tally,
    ))
}

/// What `--until-settled` did: where it stopped, and by which rule.
fn settled_note(comparison: &Comparison, margin: f64) -> String {
    let fights = comparison.fights;
    let settled = comparison.wins.iter().all(|line| {
        line.interval.excludes_zero()
            || (line.interval.low >= -margin && line.interval.high <= margin)
    });
    let rule = format!(
        "each side's difference in win rate is either beyond chance (its 95% interval leaves \
         out zero) or within ±{:.1} points (no difference that matters)",
        margin * 100.0
    );
    if settled {
        format!(
            "\n{}",
            wrapped(&format!("settled after {fights} fights: {rule}."))
        )
    } else {
        format!(
            "\n{}",
            wrapped(&format!(
                "not settled after {fights} fights (the most --fights allows): it is not yet \
                 true that {rule}; give more --fights, or a wider margin (--until-settled=2%)."
            ))
        )
    }
}

fn wrapped(text: &str) -> String {
    let mut out = textwrap::fill(text, 90);
    out.push('\n');
    out
}
