//! Subcommands, one module each, and the one exit path that renders problems.

mod check;
mod compare;
mod diff;
mod dump;
mod fight;
mod html;
mod odds;
mod output;
mod play;
mod plot;
mod progress;
mod report;
mod roll;
mod simulate;
mod sweep;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  affray check rulesets/legend
      Check every file of the Legend ruleset and list every problem.
  affray check rulesets/legend/scenarios/sword_and_shield_duel.toml
      Check one scenario and its ruleset.
  affray roll rulesets/legend close_combat_fumble --seed 7
      Roll once on the Close Combat Fumble table; the same seed gives the same roll.
  affray roll rulesets/legend humanoid_hit_location --times 5
      Roll five hit locations.
  affray dump rulesets/legend > legend.json
      Write the whole checked ruleset as JSON.
  affray fight rulesets/legend/scenarios/sword_and_shield_duel.toml --seed 3
      Fight a scenario and print the log; the same seed gives the same log.
  affray simulate rulesets/legend/scenarios/sword_and_shield_duel.toml --fights 20000
      Fight it 20,000 times and report win rates, rounds, wounds and fumbles.
  affray compare rulesets/legend/scenarios/sword_and_shield_duel.toml \\
      --ruleset rulesets/legend --ruleset my-legend
      The same fights under the original rules and a house-ruled copy, side by side.
  affray sweep rulesets/classic-fantasy/scenarios/fighter_against_kobolds.toml \\
      --vary Kobold.count=1..6 --plot kobolds.svg
      How many kobolds make a fair fight: the win rates at 1 to 6 kobolds.
  affray diff rulesets/legend my-legend
      List every table row, script function, equipment field and setting a
      house-ruled copy changes.";

const FIGHT_EXAMPLES: &str = "\
Examples:
  affray fight rulesets/legend/scenarios/sword_and_shield_duel.toml --seed 1
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

const SWEEP_EXAMPLES: &str = "\
Examples:
  affray sweep rulesets/classic-fantasy/scenarios/fighter_against_kobolds.toml \\
      --vary Kobold.count=1..6 --seed 1
      How many kobolds make a fair fight for Brunhild.
  affray sweep rulesets/legend/scenarios/sword_and_shield_duel.toml \\
      --vary Ysolde.skills.sword_and_shield=40..90:10 --plot skill.svg
      Ysolde's chance against Brannoc as her skill goes from 40% to 90%.
  affray sweep duel.toml --vary Brannoc.armour=0..6 --fights 5000 --report armour.html
      Armour Points on every location of Brannoc, with a report to open in a browser.
  affray sweep duel.toml --vary Brannoc.statistics.combat_actions=1..3 --json";

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
    /// Check a ruleset directory: every table, script, formula and equipment entry, and
    /// every scenario of its scenarios/; or one scenario file and its ruleset.
    ///
    /// Prints every problem at once, with file, line and column, and exits 1 if there is
    /// any; otherwise prints a one-line summary and exits 0.
    #[command(
        after_help = "Examples:\n  affray check rulesets/legend\n  affray check rulesets/legend/scenarios/sword_and_shield_duel.toml"
    )]
    Check {
        /// The ruleset directory (the one holding ruleset.toml), or a scenario file.
        ruleset: PathBuf,
        /// Do not fight each scenario (seeds 1, 2 and 3, log off) after checking it.
        #[arg(long)]
        no_fights: bool,
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
    #[command(
        after_help = FIGHT_EXAMPLES,
        group(clap::ArgGroup::new("gm_mode").args(["interactive", "resume"]))
    )]
    Fight {
        /// The scenario file (in a ruleset's scenarios/ folder, or naming its ruleset).
        #[arg(required_unless_present_any = ["resume", "replay"])]
        scenario: Option<PathBuf>,
        /// Seed of the dice: the same seed gives the same fight on every machine. Without
        /// it (and without --dice) a seed is chosen and printed; in GM mode, where it seeds
        /// the dice affray rolls for you, it is 1. With --dice, it rolls the dice the file
        /// runs out of.
        #[arg(long)]
        seed: Option<u64>,
        /// Read the dice from a file, in the order they are rolled: whole numbers
        /// separated by spaces, commas or lines, each perhaps after a word saying what it
        /// is for (`attack 39`: the roll's purpose must hold that word); # starts a
        /// comment.
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
        #[arg(long = "dial", value_name = "STEP=LEVEL", value_parser = play::parse_dial, requires = "gm_mode")]
        dials: Vec<String>,
        /// Write the dice the fight rolled to FILE as a dice file, each labelled with what
        /// it is for (`attack 39`) and the roll in a comment: --dice FILE replays it.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["interactive", "record"])]
        emit_dice: Option<PathBuf>,
        /// Write the fight's record (its dice and choices) to FILE, as GM mode does, so
        /// that a seeded fight can be replayed under a house rule with --replay.
        #[arg(long, value_name = "FILE", conflicts_with = "dice")]
        record: Option<PathBuf>,
        /// Replay a saved fight (a state file) under its own ruleset and under --ruleset
        /// DIR, and show both logs up to their first difference.
        #[arg(long, value_name = "STATE_FILE", requires = "ruleset", conflicts_with_all = ["scenario", "seed", "dice", "json", "interactive", "record"])]
        replay: Option<PathBuf>,
    },
    /// Fight a scenario many times (log off, in parallel) and report: win rate per side
    /// with a 95% interval, rounds to the end, and per fight the wounds by level and
    /// location, hits and damage by location, test results (fumbles among them), table
    /// rows rolled, choices made and conditions set.
    ///
    /// Each fight has its own seed derived from --seed and its number, so the report is
    /// the same for any number of threads, and any fight can be replayed with its log.
    #[command(
        after_help = "Examples:\n  affray simulate rulesets/legend/scenarios/sword_and_shield_duel.toml --fights 20000 --seed 1\n  affray simulate duel.toml --until-error 0.01 --plot duel.svg\n  affray simulate duel.toml --fights 5000 --json > report.json\n  affray simulate rulesets/legend/scenarios/sword_and_shield_duel.toml --fights 20000 --seed 2 \\\n      --against snapshots/statistics/legend/sword_and_shield_duel.json"
    )]
    Simulate {
        /// The scenario file.
        scenario: PathBuf,
        #[command(flatten)]
        run: RunOptions,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Also draw win rates and the rounds histogram to this SVG file.
        #[arg(long, value_name = "FILE.svg", value_parser = svg_file)]
        plot: Option<PathBuf>,
        /// Also write a report to open in a browser: one self-contained HTML file with
        /// the verdict, the charts and every figure.
        #[arg(long, value_name = "FILE.html", conflicts_with = "exchange")]
        report: Option<PathBuf>,
        /// Fight under another ruleset directory than the scenario's own.
        #[arg(long, value_name = "DIR")]
        ruleset: Option<PathBuf>,
        /// Sample single exchanges (the attacker's first turn, as `affray odds` counts
        /// it) instead of whole fights.
        #[arg(long)]
        exchange: bool,
        /// With --exchange: who attacks (default: the first combatant).
        #[arg(long, value_name = "NAME", requires = "exchange")]
        attacker: Option<String>,
        /// With --exchange: who defends (default: the first combatant of another side).
        #[arg(long, value_name = "NAME", requires = "exchange")]
        defender: Option<String>,
        /// With --exchange: the attacker's action instead of the tactics' choice.
        #[arg(long, value_name = "ACTION", requires = "exchange")]
        action: Option<String>,
        /// Hold the run to a report recorded earlier with --json (a statistical
        /// snapshot): list every figure that differs from it beyond chance, decided over
        /// all figures at once; exit 1 if any does. Use another --seed than the record's.
        #[arg(long, value_name = "RECORD.json", conflicts_with = "exchange")]
        against: Option<PathBuf>,
    },
    /// Fight a scenario under two or more ruleset directories (the original and a
    /// house-ruled copy) and show every figure of the report side by side: A, B, the
    /// difference B − A and its 95% interval, marked * where the difference is not noise.
    /// The stars are decided over all figures at once (Benjamini–Hochberg): on average
    /// at most 5% of the marked figures are chance.
    ///
    /// Fight N of every ruleset starts from the same seed (common random numbers), so
    /// the runs differ only where the rules do and small changes show with few fights.
    /// With more than two directories, each is compared with the first.
    #[command(
        after_help = "Examples:\n  cp -r rulesets/legend my-legend    # then edit my-legend/tables/fumbles.tables\n  affray compare rulesets/legend/scenarios/sword_and_shield_duel.toml --ruleset rulesets/legend --ruleset my-legend\n  affray compare duel.toml --ruleset rulesets/legend --ruleset my-legend --fights 50000 --all --json\n  affray compare duel.toml --ruleset rulesets/legend --ruleset my-legend --fights 100000 --until-settled"
    )]
    Compare {
        /// The scenario file.
        scenario: PathBuf,
        /// A ruleset directory; give it two times or more (the first is A).
        #[arg(long = "ruleset", value_name = "DIR", required = true, num_args = 1)]
        rulesets: Vec<PathBuf>,
        #[command(flatten)]
        run: RunOptions,
        /// List every figure, not only the significant differences.
        #[arg(long)]
        all: bool,
        /// Stop as soon as each side's difference in win rate is settled: beyond chance
        /// (its 95% interval leaves out zero), or within ±MARGIN (1% unless given: no
        /// difference that matters); checked every 1,000 fights, --fights the most.
        #[arg(long, value_name = "MARGIN", num_args = 0..=1, require_equals = true,
              default_missing_value = "0.01", value_parser = parse_width, conflicts_with = "until_error")]
        until_settled: Option<f64>,
        /// Print the comparison as JSON (every figure).
        #[arg(long)]
        json: bool,
        /// Also draw paired win-rate bars to this SVG file.
        #[arg(long, value_name = "FILE.svg", value_parser = svg_file)]
        plot: Option<PathBuf>,
        /// Also write a report to open in a browser: one self-contained HTML file with
        /// the verdicts, the charts, what B changes and every figure.
        #[arg(long, value_name = "FILE.html")]
        report: Option<PathBuf>,
    },
    /// Fight a scenario at each value of one thing — how many copies of a combatant, a
    /// skill, a statistic, a characteristic, armour — and report each side's win rate
    /// (with its 95% interval) against the value, and where the fight becomes even.
    ///
    /// WHAT names a combatant of the scenario as its file does (an entry with `count`
    /// by its name, without the number) and what of it to vary: NAME.count,
    /// NAME.skills.SKILL, NAME.statistics.STAT, NAME.characteristics.CHAR, NAME.armour
    /// (Armour Points on every location), NAME.armour.LOCATION or
    /// NAME.hit_points.LOCATION. Fight N starts from the same seed at every value
    /// (common random numbers), so the curve moves only where the value moves it.
    #[command(after_help = SWEEP_EXAMPLES)]
    Sweep {
        /// The scenario file.
        scenario: PathBuf,
        /// What to vary and over which whole numbers: WHAT=FROM..TO or WHAT=FROM..TO:STEP.
        #[arg(long, value_name = "WHAT=FROM..TO[:STEP]")]
        vary: String,
        /// How many fights at each value.
        #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..))]
        fights: u64,
        /// Seed of the run: the same seed gives the same report. Without it a seed is
        /// chosen and printed.
        #[arg(long)]
        seed: Option<u64>,
        /// Threads to fight on (default: every core). The report does not depend on it.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Also draw the win rates against the value to this SVG file.
        #[arg(long, value_name = "FILE.svg", value_parser = svg_file)]
        plot: Option<PathBuf>,
        /// Also write a report to open in a browser: one self-contained HTML file.
        #[arg(long, value_name = "FILE.html")]
        report: Option<PathBuf>,
        /// Fight under another ruleset directory than the scenario's own.
        #[arg(long, value_name = "DIR")]
        ruleset: Option<PathBuf>,
    },
    /// The probabilities of one exchange: the attacker's first turn against the defender
    /// with the scenario's weapons, skills and modifiers — test results, the chance of a
    /// hit, the damage after defences and armour, wounds by level and location, table rows
    /// and choices.
    ///
    /// Every outcome of every die is walked while a branch weighs at least
    /// 1/--branches; dice below that are sampled (one seeded draw per branch), and the
    /// output says which, or `exact`. An outcome is what the rules can tell apart: the
    /// total of dice rolled together, the row of a table, the level of a test (its roll
    /// only where a rule reads it). The action is the tactics' choice unless --action
    /// names one.
    #[command(
        after_help = "Examples:\n  affray odds rulesets/legend/scenarios/sword_and_shield_duel.toml\n  affray odds duel.toml --attacker Brannoc --defender Ysolde --plot damage.svg\n  affray odds duel.toml --branches 1000000 --json\n  affray odds tests/fixtures/d20_duel/scenarios/duel.toml --fight\n      Each side's chance to win the whole fight, exact where its states are few."
    )]
    Odds {
        /// The scenario file.
        scenario: PathBuf,
        /// Who attacks (default: the first combatant).
        #[arg(long, value_name = "NAME")]
        attacker: Option<String>,
        /// Who defends (default: the first combatant of another side).
        #[arg(long, value_name = "NAME")]
        defender: Option<String>,
        /// The attacker's action (an option of its `action` decision), instead of the
        /// tactics' choice.
        #[arg(long, value_name = "ACTION")]
        action: Option<String>,
        /// Walk dice while a branch weighs at least 1/this; sample below.
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        branches: u64,
        /// Seed of the sampled dice (none are sampled when the odds are exact). Without
        /// it a seed is chosen and printed, as for `fight`.
        #[arg(long)]
        seed: Option<u64>,
        /// Print the odds as JSON.
        #[arg(long)]
        json: bool,
        /// Also draw the damage distribution to this SVG file.
        #[arg(long, value_name = "FILE.svg", value_parser = svg_file)]
        plot: Option<PathBuf>,
        /// Use another ruleset directory than the scenario's own.
        #[arg(long, value_name = "DIR")]
        ruleset: Option<PathBuf>,
        /// The whole fight instead of one exchange: each side's chance to win (and of
        /// no winner by the round limit), walked exactly over the fight's states, merged
        /// where equal; past --states the fight is simulated instead (--fights), and the
        /// output says so.
        #[arg(long, conflicts_with_all = ["attacker", "defender", "action", "branches", "plot"])]
        fight: bool,
        /// With --fight: the merged states past which the walk stops and simulates
        /// (it stops too past 50 dice replayed for each of them, in all).
        #[arg(long, default_value_t = 100_000, requires = "fight", value_parser = clap::value_parser!(u64).range(1..))]
        states: u64,
        /// With --fight: the fights simulated when the walk is too large.
        #[arg(long, default_value_t = 20_000, requires = "fight", value_parser = clap::value_parser!(u64).range(1..))]
        fights: u64,
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
    /// Print the completions of affray's commands and options for a shell.
    #[command(
        after_help = "Examples:\n  affray completions bash > ~/.local/share/bash-completion/completions/affray\n  affray completions zsh > ~/.zfunc/_affray\n  affray completions fish > ~/.config/fish/completions/affray.fish"
    )]
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Print affray's manual page (roff), for `man`.
    #[command(after_help = "Example:\n  affray man > affray.1 && man ./affray.1")]
    Man,
}

/// Run the command line; usage errors exit 2 (clap's own exit code for them).
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Check { ruleset, no_fights } => check::run(&ruleset, !no_fights),
        Command::Roll {
            ruleset,
            table,
            seed,
            times,
        } => roll::run(&ruleset, &table, seed, times),
        Command::Dump { ruleset } => dump::run(&ruleset),
        Command::Completions { shell } => {
            let mut command = Cli::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "affray", &mut script);
            output::print(script)
        }
        Command::Man => man(),
        Command::Odds {
            scenario,
            attacker,
            defender,
            action,
            branches,
            seed,
            json,
            plot,
            ruleset,
            fight,
            states,
            fights,
        } => odds::run(odds::OddsArgs {
            scenario: &scenario,
            ruleset: ruleset.as_deref(),
            attacker: attacker.as_deref(),
            defender: defender.as_deref(),
            action,
            branches,
            seed: seed.unwrap_or_else(fresh_seed),
            seed_chosen: seed.is_none(),
            json,
            plot: plot.as_deref(),
            fight: fight.then_some(odds::FightArgs { states, fights }),
        }),
        Command::Compare {
            scenario,
            rulesets,
            run,
            all,
            json,
            plot,
            report,
            until_settled,
        } => {
            if rulesets.len() < 2 {
                Err(vec![miette::miette!(
                    code = "affray::compare::one_ruleset",
                    help = "name the original and the copy: --ruleset rulesets/legend --ruleset my-legend",
                    "compare needs two ruleset directories or more; {} given",
                    rulesets.len()
                )])
            } else {
                let plan = run.plan();
                compare::run(compare::CompareArgs {
                    scenario: &scenario,
                    rulesets: &rulesets,
                    run: plan,
                    seed_chosen: run.seed.is_none(),
                    until_error: run.until_error,
                    until_settled,
                    json,
                    all,
                    plot: plot.as_deref(),
                    report: report.as_deref(),
                    command: html::command_line(run.seed.is_none().then_some(plan.seed)),
                })
            }
        }
        Command::Simulate {
            scenario,
            run,
            json,
            plot,
            report,
            ruleset,
            exchange,
            attacker,
            defender,
            action,
            against,
        } => {
            let plan = run.plan();
            simulate::run(simulate::SimulateArgs {
                scenario: &scenario,
                ruleset: ruleset.as_deref(),
                run: plan,
                seed_chosen: run.seed.is_none(),
                until_error: run.until_error,
                json,
                plot: plot.as_deref(),
                report: report.as_deref(),
                command: html::command_line(run.seed.is_none().then_some(plan.seed)),
                exchange: exchange.then_some(simulate::ExchangeArgs {
                    attacker: attacker.as_deref(),
                    defender: defender.as_deref(),
                    action,
                }),
                against: against.as_deref(),
            })
        }
        Command::Sweep {
            scenario,
            vary,
            fights,
            seed,
            threads,
            json,
            plot,
            report,
            ruleset,
        } => {
            let plan = affray::analysis::run::Plan {
                fights,
                seed: seed.unwrap_or_else(fresh_seed),
                threads: threads_or_cores(threads),
            };
            sweep::run(sweep::SweepArgs {
                scenario: &scenario,
                ruleset: ruleset.as_deref(),
                vary: &vary,
                run: plan,
                seed_chosen: seed.is_none(),
                json,
                plot: plot.as_deref(),
                report: report.as_deref(),
                command: html::command_line(seed.is_none().then_some(plan.seed)),
            })
        }
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
            interactive,
            resume,
            state,
            dials,
            emit_dice,
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
                    emit_dice: emit_dice.as_deref(),
                })
            }
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(problems) => {
            if let Some(closed) = output::closed(&problems) {
                return closed;
            }
            report::print(&problems);
            ExitCode::from(if is_usage(&problems) { 2 } else { 1 })
        }
    }
}

/// The manual page of affray (its commands listed), in roff.
fn man() -> Result<(), affray::ruleset::Problems> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|error| vec![miette::miette!("the manual page: {error}")])?;
    output::print(page)
}

/// Whether every problem is in how affray was called (a name on the command line that
/// the files do not have): exit 2, as clap's own usage errors, rather than 1.
fn is_usage(problems: &[miette::Report]) -> bool {
    !problems.is_empty()
        && problems.iter().all(|problem| {
            problem
                .code()
                .is_some_and(|code| code.to_string().starts_with("affray::usage::"))
        })
}

/// A seed for a run given none (`roll`, `fight`): from the clock, short enough to type
/// back with --seed, and printed so that the run can be repeated.
fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
}

/// How many fights, from which seed, on how many threads: `simulate` and `compare`.
#[derive(Debug, clap::Args)]
struct RunOptions {
    /// How many fights (under each ruleset, for compare); the most, with --until-error.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    fights: u64,
    /// Seed of the run: the same seed gives the same report. Without it a seed is
    /// chosen and printed.
    #[arg(long)]
    seed: Option<u64>,
    /// Threads to fight on (default: every core). The report does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Stop once every 95% interval of a win rate (for compare: of a difference in win
    /// rate) is narrower than this — 0.01 or 1% is one percentage point; checked every
    /// 1,000 fights.
    #[arg(long, value_name = "WIDTH", value_parser = parse_width)]
    until_error: Option<f64>,
}

impl RunOptions {
    /// The plan of the run; without --seed, with a seed chosen now.
    fn plan(&self) -> affray::analysis::run::Plan {
        affray::analysis::run::Plan {
            fights: self.fights,
            seed: self.seed.unwrap_or_else(fresh_seed),
            threads: threads_or_cores(self.threads),
        }
    }
}

/// Threads asked for, or one per core.
fn threads_or_cores(threads: Option<u32>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

/// A width of an interval: a fraction (0.01) or a percentage (1%), above 0 and below 1.
/// A chart's file: affray draws SVG, so a name that promises another format (`duel.png`)
/// is refused rather than filled with SVG.
fn svg_file(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    let svg = path
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("svg"));
    if svg {
        Ok(path)
    } else {
        Err(format!(
            "`{}`: charts are drawn as SVG; name the file with .svg (a browser opens it; \
             `rsvg-convert chart.svg -o chart.png` makes a PNG of it)",
            affray::source::excerpt(text)
        ))
    }
}

fn parse_width(text: &str) -> Result<f64, String> {
    let (number, scale) = match text.strip_suffix('%') {
        Some(number) => (number, 100.0),
        None => (text, 1.0),
    };
    let width = number
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("`{text}` is not a number (write 0.01 or 1%)"))?
        / scale;
    if width > 0.0 && width < 1.0 {
        Ok(width)
    } else {
        Err(format!("`{text}` must be above 0 and below 1 (100%)"))
    }
}
