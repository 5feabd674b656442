//! Running many fights: each fight from its own seed, derived from the run's seed and the
//! fight's number, so that fight 17 is the same fight whatever the number of threads;
//! the results are added up by an accumulator whose sums are exact (whole numbers), so
//! the report is the same whatever order the threads finish in.

use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;

use crate::dice::DiceSource;
use crate::engine::{FightError, FightHandle, FightSetup, Log, ScriptedChooser};
use crate::ruleset::Ruleset;
use crate::scenario::Scenario;
use crate::script::TacticsChooser;

use super::figures::FightFigures;

/// The seed of fight `index` of a run seeded with `run_seed`: the index-th output of
/// SplitMix64, so neighbouring fights and neighbouring run seeds are unrelated. `affray
/// fight --seed <this>` replays that one fight with its log.
pub fn fight_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A fight of the scenario set up with a seed, its scripted choices and the ruleset's
/// tactics, keeping `log`; not run yet.
pub fn seeded_fight(
    ruleset: &Arc<Ruleset>,
    scenario: &Scenario,
    seed: u64,
    log: Log,
) -> Result<FightHandle, FightError> {
    let chooser = ScriptedChooser::new(&scenario.choices, TacticsChooser::new(&ruleset.rules));
    let setup = FightSetup {
        dice: DiceSource::seeded(seed),
        chooser: Box::new(chooser),
        log,
        observer: None,
    };
    FightHandle::new(Arc::clone(&ruleset.rules), scenario, setup)
}

/// One seeded fight with the scenario's scripted choices and the ruleset's tactics,
/// counted. The log is kept only for the length of the fight, then counted and dropped.
pub fn fight_figures(
    ruleset: &Arc<Ruleset>,
    scenario: &Scenario,
    seed: u64,
) -> Result<FightFigures, FightError> {
    let fight = seeded_fight(ruleset, scenario, seed, Log::Outcomes)?;
    let outcome = fight.run()?;
    Ok(FightFigures::count(&outcome, &fight.take_events()))
}

/// Adds up what fights amount to. `merge` must not depend on order (exact sums do not).
pub trait Accumulate: Default + Send {
    type Item: Send;
    fn add(&mut self, item: Self::Item);
    fn merge(&mut self, other: Self);
    /// How many fights were added.
    fn fights(&self) -> u64;
}

/// How many fights, from which seed, on how many threads.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub fights: u64,
    pub seed: u64,
    pub threads: usize,
}

/// Fights run between two checks of the stopping rule; fixed, so that where a run stops
/// does not depend on the number of threads.
pub const BATCH: u64 = 1000;

/// A fight that stopped with an error: the first one by number, with its seed.
#[derive(Debug)]
pub struct Failed {
    pub index: u64,
    pub seed: u64,
    pub error: FightError,
}

/// Run the plan's fights in parallel, in batches, until all are done or `enough` says
/// the figures are precise enough. `one` runs the fight with the given seed; `progress`
/// is told of every fight done.
pub fn run<A: Accumulate>(
    plan: Plan,
    one: impl Fn(u64) -> Result<A::Item, FightError> + Sync,
    progress: &(dyn Fn(u64) + Sync),
    enough: impl Fn(&A) -> bool,
) -> Result<A, RunError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads.max(1))
        .build()
        .map_err(|error| RunError::Threads(error.to_string()))?;
    let mut total = A::default();
    let mut start = 0;
    while start < plan.fights {
        let end = (start + BATCH).min(plan.fights);
        let batch = pool.install(|| run_batch::<A>(start..end, plan.seed, &one, progress));
        total.merge(batch.map_err(|failed| RunError::Fight {
            number: failed.index + 1,
            seed: failed.seed,
            error: failed.error,
        })?);
        start = end;
        if enough(&total) {
            break;
        }
    }
    Ok(total)
}

fn run_batch<A: Accumulate>(
    range: Range<u64>,
    run_seed: u64,
    one: &(impl Fn(u64) -> Result<A::Item, FightError> + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<A, Failed> {
    range
        .into_par_iter()
        .fold(
            || Ok(A::default()),
            |acc: Result<A, Failed>, index| {
                let seed = fight_seed(run_seed, index);
                let result = one(seed);
                progress(1);
                match (acc, result) {
                    (Ok(mut acc), Ok(item)) => {
                        acc.add(item);
                        Ok(acc)
                    }
                    (Err(failed), _) => Err(failed),
                    (Ok(_), Err(error)) => Err(Failed { index, seed, error }),
                }
            },
        )
        .reduce(
            || Ok(A::default()),
            |a, b| match (a, b) {
                (Ok(mut a), Ok(b)) => {
                    a.merge(b);
                    Ok(a)
                }
                // The first failing fight by number, whichever thread saw it first.
                (Err(a), Err(b)) => Err(if a.index <= b.index { a } else { b }),
                (Err(failed), Ok(_)) | (Ok(_), Err(failed)) => Err(failed),
            },
        )
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum RunError {
    #[error("could not start the threads: {0}")]
    #[diagnostic(code(affray::simulate::threads))]
    Threads(String),
    #[error("fight {number} of the run (seed {seed}) stopped")]
    #[diagnostic(
        code(affray::simulate::fight_failed),
        help("`affray fight <scenario> --seed {seed}` replays that fight with its log")
    )]
    Fight {
        number: u64,
        seed: u64,
        #[source]
        #[diagnostic_source]
        error: FightError,
    },
}
