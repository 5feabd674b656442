//! Subcommands, one module each, and the one exit path that renders problems.

mod check;
mod dump;
mod fight;
mod play;
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
      Fight a scenario and print the log; the same seed gives the same log.";

const FIGHT_EXAMPLES: &str = "\
Examples:
  affray fight tests/fixtures/d20_skirmish/scenarios/skirmish.toml --seed 1
  affray fight duel.toml --dice book-dice.txt
  affray fight duel.toml --seed 7 --json > fight.jsonl
  affray fight duel.toml --interactive
      Run the duel at the table: type in the dice rolled, choose manoeuvres; saved to
      duel.fight.json after every action.
  affray fight duel.toml -i --dial dice:initiative=auto --dial Brannoc:choices=auto
      affray rolls initiative and plays Brannoc; the rest is asked.
  affray fight --resume duel.fight.json
      Go on with a saved fight (after `quit`, a crash or a closed terminal).
  affray fight duel.toml --seed 3 --record duel.fight.json
      Fight unattended and keep the record of its dice and choices.
  affray fight --replay duel.fight.json --ruleset my-legend
      Play the same dice and choices under a house-ruled copy; show where they differ.";

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
    ///
    /// With --interactive, run the fight at the table (GM mode): every decision is asked
    /// (the tactics script's choice is offered), every die can be typed in from the table
    /// or rolled by affray, and the fight is saved to a state file after every action, to
    /// be resumed (--resume), undone (`undo` at a prompt) or replayed under a house rule
    /// (--replay). `?` at any prompt lists the commands.
    #[command(after_help = FIGHT_EXAMPLES)]
    Fight {
        /// The scenario file (in a ruleset's scenarios/ folder, or naming its ruleset).
        #[arg(required_unless_present_any = ["resume", "replay"])]
        scenario: Option<PathBuf>,
        /// Seed of the dice (1 when neither --seed nor --dice is given). In GM mode, the
        /// dice affray rolls for you.
        #[arg(long, conflicts_with = "dice")]
        seed: Option<u64>,
        /// Read the dice from a file, in the order they are rolled: whole numbers
        /// separated by spaces, commas or lines; # starts a comment.
        #[arg(long, value_name = "FILE")]
        dice: Option<PathBuf>,
        /// Print the typed events as JSON lines instead of the readable log.
        #[arg(long)]
        json: bool,
        /// Fight under another ruleset directory (a house-ruled copy) than the scenario's
        /// own; with --replay, the ruleset to compare against.
        #[arg(long, value_name = "DIR")]
        ruleset: Option<PathBuf>,
        /// GM mode: ask the person at the terminal for decisions and dice (see --dial).
        #[arg(long, short = 'i', conflicts_with_all = ["dice", "json", "record"])]
        interactive: bool,
        /// Go on with a fight saved in a state file (GM mode).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["scenario", "seed", "dice", "json", "record", "state"])]
        resume: Option<PathBuf>,
        /// The state file of a GM-mode fight (default: <scenario-name>.fight.json here).
        /// An existing file is never overwritten unless it holds this scenario's fight.
        #[arg(long, value_name = "FILE", requires = "interactive")]
        state: Option<PathBuf>,
        /// Automation of one step in GM mode, repeatable: STEP=LEVEL or NAME:STEP=LEVEL.
        /// STEP is a decision (action, reaction, manoeuvre, ... as the ruleset asks),
        /// `choices` (every decision), `dice` (every die) or dice:WORD (dice whose purpose
        /// starts with WORD: dice:initiative, dice:damage; a table roll by its table's
        /// name). LEVEL: manual (ask), suggest (offer the tactics script's choice or
        /// affray's roll; Enter accepts), auto (no question). Defaults: choices=suggest,
        /// dice=manual.
        #[arg(long = "dial", value_name = "STEP=LEVEL", value_parser = play::parse_dial)]
        dials: Vec<String>,
        /// Write the fight's record (its dice and choices) to FILE, as GM mode does, so
        /// that a seeded fight can be replayed under a house rule with --replay.
        #[arg(long, value_name = "FILE", conflicts_with = "dice")]
        record: Option<PathBuf>,
        /// Replay a saved fight (a state file) under its own ruleset and under --ruleset
        /// DIR, and show both logs up to their first difference.
        #[arg(long, value_name = "STATE_FILE", requires = "ruleset", conflicts_with_all = ["scenario", "seed", "dice", "json", "interactive", "record"])]
        replay: Option<PathBuf>,
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
        Command::Fight {
            scenario,
            seed,
            dice,
            json,
            ruleset,
            interactive,
            resume,
            state,
            dials,
            record,
            replay,
        } => {
            if let Some(replay) = replay {
                let house = ruleset.expect("clap requires --ruleset with --replay");
                play::replay(&replay, &house)
            } else if interactive || resume.is_some() {
                play::run(play::PlayArgs {
                    scenario: scenario.as_deref(),
                    ruleset: ruleset.as_deref(),
                    seed,
                    resume: resume.as_deref(),
                    state: state.as_deref(),
                    dials: &dials,
                })
            } else {
                fight::run(fight::FightArgs {
                    scenario: &scenario.expect("clap requires a scenario"),
                    ruleset: ruleset.as_deref(),
                    seed,
                    dice: dice.as_deref(),
                    json,
                    record: record.as_deref(),
                })
            }
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(problems) => {
            report::print(&problems);
            ExitCode::from(1)
        }
    }
}
