//! A progress bar on standard error for long runs; drawn only when standard error is a
//! terminal, so pipes and tests see nothing of it.

use affray::analysis::run::{self, Accumulate, Plan};
use affray::engine::FightError;
use affray::ruleset::Problems;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress(ProgressBar);

impl Progress {
    pub fn new(length: u64, unit: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr());
        let template = format!("{{bar:40}} {{pos}}/{{len}} {unit} ({{rate}}, {{eta}} left)");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            // Whole fights a second: indicatif's own `per_sec` prints four decimals.
            bar.set_style(style.with_key(
                "rate",
                |state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{:.0}/s", state.per_sec());
                },
            ));
        }
        Progress(bar)
    }

    pub fn advance(&self, by: u64) {
        self.0.inc(by);
    }

    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// Run the plan's fights with a progress bar counting `unit`, until `enough`.
pub fn run_with_progress<A: Accumulate>(
    plan: Plan,
    unit: &str,
    one: impl Fn(u64) -> Result<A::Item, FightError> + Sync,
    enough: impl Fn(&A) -> bool,
) -> Result<A, Problems> {
    let progress = Progress::new(plan.fights, unit);
    let result = run::run(plan, one, &|done| progress.advance(done), enough);
    progress.finish();
    result.map_err(|error| vec![miette::Report::new(error)])
}
