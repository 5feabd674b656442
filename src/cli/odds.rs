//! `affray odds <scenario>`

use std::path::Path;
use std::sync::Arc;

use affray::analysis::exchange::Exchange;
use affray::analysis::odds::odds;
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
}

pub fn run(args: OddsArgs<'_>) -> Result<(), Problems> {
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
