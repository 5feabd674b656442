//! `affray odds <scenario>`

use std::path::Path;
use std::sync::Arc;

use affray::analysis::exchange::Exchange;
use affray::analysis::fight_odds::{FightOddsPlan, fight_odds};
use affray::analysis::odds::odds;
use affray::analysis::run::Plan;
use affray::ruleset::Problems;
use affray::scenario;

use super::plot;

pub struct OddsArgs<'a> {
    pub scenario: &'a Path,
    pub ruleset: Option<&'a Path>,
    pub attacker: Option<&'a str>,
    pub defender: Option<&'a str>,
    pub action: Option<String>,
    pub branches: u64,
    pub seed: u64,
    /// The seed was chosen at random: say how to sample the same dice again.
    pub seed_chosen: bool,
    pub json: bool,
    pub plot: Option<&'a Path>,
    /// The whole fight's odds instead of one exchange's.
    pub fight: Option<FightArgs>,
}

/// `--fight`: how many states to walk, how many fights to simulate past them.
pub struct FightArgs {
    pub states: u64,
    pub fights: u64,
}

pub fn run(args: OddsArgs<'_>) -> Result<(), Problems> {
    if let Some(fight) = &args.fight {
        return whole_fight(&args, fight);
    }
    let exchange = exchange(
        args.scenario,
        args.ruleset,
        args.attacker,
        args.defender,
        args.action,
    )?;
    let odds =
        odds(&exchange, args.branches, args.seed).map_err(|e| vec![miette::Report::new(e)])?;
    if args.seed_chosen && !odds.exact {
        // On the error stream, so that --json stays one JSON document.
        eprintln!(
            "seed {} chosen at random for the sampled dice: add --seed {} to sample them again",
            args.seed, args.seed
        );
    }
    if let Some(path) = args.plot {
        plot::damage(&odds, path)?;
    }
    if args.json {
        let json = serde_json::to_string_pretty(&odds).unwrap_or_default();
        super::output::print(format!("{json}\n"))?;
    } else {
        super::output::print(odds.render())?;
    }
    Ok(())
}

/// The scenario's exchange between the named combatants.
pub fn exchange(
    path: &Path,
    ruleset: Option<&Path>,
    attacker: Option<&str>,
    defender: Option<&str>,
    action: Option<String>,
) -> Result<Exchange, Problems> {
    let (ruleset, scenario) = scenario::load(path, ruleset)?;
    Exchange::new(Arc::new(ruleset), scenario, attacker, defender, action)
        .map_err(|e| vec![miette::Report::new(e)])
}

/// `--fight`: each side's chance to win the whole fight.
fn whole_fight(args: &OddsArgs<'_>, fight: &FightArgs) -> Result<(), Problems> {
    let (ruleset, scenario) = scenario::load(args.scenario, args.ruleset)?;
    let ruleset = Arc::new(ruleset);
    let plan = FightOddsPlan {
        max_states: fight.states,
        fallback: Plan {
            fights: fight.fights,
            seed: args.seed,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        },
    };
    let odds = fight_odds(&ruleset, &scenario, plan).map_err(|e| vec![miette::Report::new(e)])?;
    if args.seed_chosen && !odds.exact {
        eprintln!(
            "seed {} chosen at random for the simulated fights: add --seed {} to run them again",
            args.seed, args.seed
        );
    }
    if args.json {
        let json = serde_json::to_string_pretty(&odds).unwrap_or_default();
        super::output::print(format!("{json}\n"))
    } else {
        super::output::print(odds.render())
    }
}
