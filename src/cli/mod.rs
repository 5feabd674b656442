//! Subcommands, one module each, and the one exit path that renders problems.

mod check;
mod diff;
mod dump;
mod fight;
mod report;
mod roll;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  affray check rulesets/legend
      Check every file of the Legend ruleset and list every problem.
  affray roll rulesets/legend close_combat_fumble --seed 7
      Roll once on the Close Combat Fumble table; the same seed gives the same roll.
  affray roll rulesets/legend humanoid_hit_location --times 5
      Roll five hit locations.
  affray dump rulesets/legend > legend.json
      Write the whole checked ruleset as JSON.
  affray fight tests/fixtures/d20_skirmish/scenarios/skirmish.toml --seed 3
      Fight a scenario and print the log; the same seed gives the same log.
  affray diff rulesets/legend my-legend
      List every table row, script function, equipment field and setting a
      house-ruled copy changes.";

/// affray runs tabletop role-playing combat from rule files: tables, rhai scripts and
/// TOML. A game system is a ruleset directory; edit its tables to house-rule it.
#[derive(Debug, Parser)]
#[command(name = "affray", version, about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check a ruleset directory: every table, script, formula and equipment entry.
    ///
    /// Prints every problem at once, with file, line and column, and exits 1 if there is
    /// any; otherwise prints a one-line summary and exits 0.
    #[command(after_help = "Example:\n  affray check rulesets/legend")]
    Check {
        /// The ruleset directory (the one holding ruleset.toml).
        ruleset: PathBuf,
    },
    /// Roll on a roll table of a ruleset and show the row, what it means, and any rerolls.
    #[command(
        after_help = "Examples:\n  affray roll rulesets/legend close_combat_fumble --seed 7\n  affray roll rulesets/legend npc_critical_wound --times 3"
    )]
    Roll {
        /// The ruleset directory.
        ruleset: PathBuf,
        /// The table's name, e.g. close_combat_fumble.
        table: String,
        /// Seed of the dice: the same seed gives the same rolls on every machine.
        /// Without it a seed is chosen and printed.
        #[arg(long)]
        seed: Option<u64>,
        /// How many times to roll.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        times: u32,
    },
    /// Fight a scenario and print the log: initiative, every roll with its purpose, every
    /// choice, damage and conditions, and the outcome.
    #[command(
        after_help = "Examples:\n  affray fight tests/fixtures/d20_skirmish/scenarios/skirmish.toml --seed 1\n  affray fight duel.toml --dice book-dice.txt\n  affray fight duel.toml --seed 7 --json > fight.jsonl"
    )]
    Fight {
        /// The scenario file (in a ruleset's scenarios/ folder, or naming its ruleset).
        scenario: PathBuf,
        /// Seed of the dice (1 when neither --seed nor --dice is given).
        #[arg(long, conflicts_with = "dice")]
        seed: Option<u64>,
        /// Read the dice from a file, in the order they are rolled: whole numbers
        /// separated by spaces, commas or lines; # starts a comment.
        #[arg(long, value_name = "FILE")]
        dice: Option<PathBuf>,
        /// Print the typed events as JSON lines instead of the readable log.
        #[arg(long)]
        json: bool,
        /// Fight under another ruleset directory (a house-ruled copy) than the scenario's own.
        #[arg(long, value_name = "DIR")]
        ruleset: Option<PathBuf>,
    },
    /// List what differs between two ruleset directories, row by row: table rows, whole
    /// tables, script functions, equipment entries and fields, settings.
    ///
    /// Both are checked first (problems are reported as `affray check` does). Rows are
    /// matched by name within their table and compared by meaning: spacing, comments and
    /// re-wrapped text are not differences. Exits 0 whether or not anything differs.
    #[command(
        after_help = "Examples:\n  affray diff rulesets/legend my-legend\n      What my-legend, a copy of Legend, changes.\n  affray diff rulesets/legend my-legend --json > changes.json"
    )]
    Diff {
        /// The original ruleset directory.
        #[arg(value_name = "A_DIR")]
        before: PathBuf,
        /// The changed copy, compared with A_DIR.
        #[arg(value_name = "B_DIR")]
        after: PathBuf,
        /// Print the differences as JSON, for a program.
        #[arg(long)]
        json: bool,
    },
    /// Print the checked ruleset (settings, tables, scripts, equipment) as JSON.
    #[command(after_help = "Example:\n  affray dump rulesets/legend > legend.json")]
    Dump {
        /// The ruleset directory.
        ruleset: PathBuf,
    },
}

/// Run the command line; usage errors exit 2 (clap's own exit code for them).
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Check { ruleset } => check::run(&ruleset),
        Command::Roll {
            ruleset,
            table,
            seed,
            times,
        } => roll::run(&ruleset, &table, seed, times),
        Command::Dump { ruleset } => dump::run(&ruleset),
        Command::Diff {
            before,
            after,
            json,
        } => diff::run(&before, &after, json),
        Command::Fight {
            scenario,
            seed,
            dice,
            json,
            ruleset,
        } => fight::run(fight::FightArgs {
            scenario: &scenario,
            ruleset: ruleset.as_deref(),
            seed,
            dice: dice.as_deref(),
            json,
        }),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(problems) => {
            report::print(&problems);
            ExitCode::from(1)
        }
    }
}
