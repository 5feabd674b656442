//! End-to-end checks of the command line itself: help, usage errors and exit codes.

use std::path::Path;
use std::process::{Command, Output};

fn affray(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_affray"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("the affray binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn help_exits_0_and_shows_an_example() {
    let output = affray(&["--help"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("affray check rulesets/legend"), "{stdout}");
    for command in ["check", "roll", "dump"] {
        assert!(
            stdout.contains(command),
            "--help lists `{command}`:\n{stdout}"
        );
    }
}

#[test]
fn check_help_exits_0() {
    let output = affray(&["check", "--help"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("affray check rulesets/legend"));
}

#[test]
fn an_unknown_subcommand_is_a_usage_error() {
    let output = affray(&["chek", "rulesets/legend"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = text(&output.stderr);
    assert!(stderr.contains("chek"), "{stderr}");
}

#[test]
fn check_without_a_directory_is_a_usage_error() {
    let output = affray(&["check"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_broken_ruleset_exits_1_with_its_problem_on_stderr() {
    let output = affray(&["check", "tests/fixtures/broken/fumble_range_gap"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "{}", text(&output.stdout));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("affray::table::range_gap"), "{stderr}");
    assert!(
        stderr.contains("tests/fixtures/broken/fumble_range_gap/tables/fumbles.tables:2:54"),
        "{stderr}"
    );
    assert!(stderr.ends_with("1 problem found\n"), "{stderr}");
}

#[test]
fn check_of_one_scenario_checks_it_and_its_ruleset() {
    let output = affray(&[
        "check",
        "rulesets/legend/scenarios/sword_and_shield_duel.toml",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with(
            "rulesets/legend/scenarios/sword_and_shield_duel.toml is valid; rulesets/legend: Legend is valid:"
        ),
        "{stdout}"
    );
    let help = text(&affray(&["check", "--help"]).stdout);
    assert!(
        help.contains("affray check rulesets/legend/scenarios/sword_and_shield_duel.toml"),
        "{help}"
    );

    // The scenario's problem and its ruleset's, in one run.
    let output = affray(&[
        "check",
        "tests/fixtures/broken/table_and_scenario_broken/scenarios/duel.toml",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("affray::table::range_gap"), "{stderr}");
    assert!(
        stderr.contains("affray::scenario::unknown_weapon"),
        "{stderr}"
    );
    assert!(stderr.contains("2 problems found"), "{stderr}");
}

#[test]
fn check_fights_each_scenario_unless_told_not_to() {
    let fixture = "tests/fixtures/broken/script_fails_in_a_fight";
    let output = affray(&["check", fixture]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("affray::check::fight"), "{stderr}");
    assert!(stderr.contains("scripts/tactics.rhai:4:14"), "{stderr}");

    let output = affray(&["check", "--no-fights", fixture]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let scenario = format!("{fixture}/scenarios/duel.toml");
    assert_eq!(affray(&["check", &scenario]).status.code(), Some(1));
    assert_eq!(
        affray(&["check", "--no-fights", &scenario]).status.code(),
        Some(0)
    );
}

#[test]
fn a_missing_directory_exits_1() {
    let output = affray(&["check", "tests/fixtures/broken/no_such_ruleset"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("no such directory"));
}

/// affray started in `dir` (below the project) with `args`.
fn affray_in(dir: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_affray"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
        .output()
        .expect("the affray binary runs")
}

/// A scenario's ruleset is found from the scenario file, wherever affray is started:
/// inside the ruleset, inside its `scenarios/`, or above both, the fight is the same.
#[test]
fn a_scenario_finds_its_ruleset_from_any_folder() {
    let from_root = affray_in(
        ".",
        &[
            "fight",
            "rulesets/legend/scenarios/sword_and_shield_duel.toml",
            "--seed",
            "3",
        ],
    );
    assert_eq!(
        from_root.status.code(),
        Some(0),
        "{}",
        text(&from_root.stderr)
    );
    for (dir, scenario) in [
        ("rulesets/legend", "scenarios/sword_and_shield_duel.toml"),
        ("rulesets/legend/scenarios", "sword_and_shield_duel.toml"),
        ("rulesets/legend/scenarios", "./sword_and_shield_duel.toml"),
    ] {
        let output = affray_in(dir, &["fight", scenario, "--seed", "3"]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{dir}: {}",
            text(&output.stderr)
        );
        assert_eq!(output.stdout, from_root.stdout, "{dir}");
    }
    for args in [
        &["simulate", "sword_and_shield_duel.toml", "--fights", "10"][..],
        &["odds", "sword_and_shield_duel.toml"][..],
    ] {
        let output = affray_in("rulesets/legend/scenarios", args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
}

/// A fight without --seed is not always the same fight: a seed is chosen, printed, and
/// fighting with it again gives the same log.
#[test]
fn an_unseeded_fight_chooses_a_seed_and_says_how_to_fight_it_again() {
    let duel = "rulesets/legend/scenarios/sword_and_shield_duel.toml";
    let unseeded = affray(&["fight", duel]);
    assert_eq!(
        unseeded.status.code(),
        Some(0),
        "{}",
        text(&unseeded.stderr)
    );
    let log = text(&unseeded.stdout);
    let (first, rest) = log.split_once('\n').expect("a log");
    let seed = first
        .strip_prefix("seed ")
        .and_then(|s| s.split(' ').next())
        .expect("the log starts with its seed");
    assert_eq!(
        first,
        format!("seed {seed} (chosen at random: add --seed {seed} to fight it again)")
    );
    let again = affray(&["fight", duel, "--seed", seed]);
    let again = text(&again.stdout);
    assert_eq!(again.split_once('\n').map(|(_, rest)| rest), Some(rest));
}

/// `odds` without --seed samples its remainder from a seed chosen at random, says which
/// on the error stream (stdout stays the report, or one JSON document), and that seed
/// samples the same dice again.
#[test]
fn odds_chooses_a_seed_for_its_sampled_dice_and_says_how_to_sample_them_again() {
    let duel = "rulesets/legend/scenarios/sword_and_shield_duel.toml";
    let output = affray(&["odds", duel, "--branches", "50"]);
    assert_eq!(output.status.code(), Some(0));
    let stderr = text(&output.stderr);
    let seed = stderr
        .strip_prefix("seed ")
        .and_then(|rest| rest.split(' ').next())
        .expect("the seed chosen is said")
        .to_string();
    assert!(
        stderr.contains(&format!("add --seed {seed} to sample them again")),
        "{stderr}"
    );
    let report = text(&output.stdout);
    assert!(report.contains(&format!("seed {seed}, ")), "{report}");
    let again = affray(&["odds", duel, "--branches", "50", "--seed", &seed]);
    assert_eq!(text(&again.stdout), report);
    assert_eq!(text(&again.stderr), "", "a seed given is not announced");
}

/// A name given on the command line that the files do not have is a usage error: exit
/// 2, as the README says, with the diagnostic.
#[test]
fn a_wrong_name_on_the_command_line_exits_2() {
    let duel = "rulesets/legend/scenarios/sword_and_shield_duel.toml";
    for (args, says) in [
        (
            vec!["roll", "rulesets/legend", "pnig"],
            "affray::usage::unknown_table",
        ),
        (
            vec!["odds", duel, "--attacker", "Nobody"],
            "affray::usage::unknown_combatant",
        ),
        (
            vec!["odds", duel, "--action", "nonsense"],
            "--action nonsense: Brannoc is offered only attack, defend",
        ),
        // Charts are SVG: a PNG's name is refused before anything is written to it.
        (
            vec!["simulate", duel, "--fights", "10", "--plot", "duel.png"],
            "`duel.png`: charts are drawn as SVG; name the file with .svg",
        ),
    ] {
        let output = affray(&args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// Shell completions and the manual page come from the same definitions as --help.
#[test]
fn completions_and_the_man_page_know_every_command() {
    for shell in ["bash", "zsh", "fish"] {
        let output = affray(&["completions", shell]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let script = text(&output.stdout);
        for command in ["simulate", "compare", "odds", "fight"] {
            assert!(script.contains(command), "{shell}: no `{command}`");
        }
    }
    let page = affray(&["man"]);
    assert_eq!(page.status.code(), Some(0), "{}", text(&page.stderr));
    let page = text(&page.stdout);
    assert!(page.contains(".TH affray 1"), "{page}");
    assert!(page.contains("simulate"), "{page}");
    assert_eq!(affray(&["completions", "nosh"]).status.code(), Some(2));
}

/// `simulate` and `compare` without --seed choose one too, and say so.
#[test]
fn an_unseeded_run_chooses_a_seed_and_says_how_to_repeat_it() {
    let duel = "rulesets/legend/scenarios/sword_and_shield_duel.toml";
    let output = affray(&["simulate", duel, "--fights", "20"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = text(&output.stdout);
    let seed = report
        .lines()
        .find_map(|l| l.strip_prefix("(seed chosen at random: add --seed "))
        .and_then(|rest| rest.split(' ').next())
        .expect("the seed chosen is said")
        .to_string();
    assert!(
        report.contains(&format!("20 fights, seed {seed}")),
        "{report}"
    );
    let again = affray(&["simulate", duel, "--fights", "20", "--seed", &seed]);
    let again = text(&again.stdout);
    let body = |r: &str| {
        r.lines()
            .take_while(|l| !l.starts_with("(seed"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&again), body(&report));
}

/// `affray ARGS`, run from the project's root, not started yet.
fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_affray"));
    command.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// `affray ARGS` with its standard output sent to `stdout` (a file, a pipe's end).
fn affray_into(args: &[&str], stdout: std::process::Stdio) -> Output {
    command(args)
        .stdout(stdout)
        .output()
        .expect("the affray binary runs")
}

/// A full disk (Linux's `/dev/full` refuses every write): each command that prints says
/// it could not write, and exits 1, rather than panic (101) or exit 0 having written
/// nothing.
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_an_error_not_a_panic() {
    let duel = "rulesets/legend/scenarios/sword_and_shield_duel.toml";
    let commands: [&[&str]; 5] = [
        &["check", "rulesets/legend"],
        &["dump", "rulesets/legend"],
        &["fight", duel, "--seed", "1"],
        &["simulate", duel, "--fights", "20", "--seed", "1"],
        &[
            "roll",
            "rulesets/legend",
            "close_combat_fumble",
            "--seed",
            "1",
        ],
    ];
    for args in commands {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let output = affray_into(args, full.into());
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write the output: No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// A reader that stops reading (`affray dump ... | head`): the command ends quietly,
/// as a program stopped by SIGPIPE (141), never with a panic (101).
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    let mut child = command(&["dump", "rulesets/legend"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the affray binary runs");
    // Closed before anything is read: the dump (about 100 kB) cannot all go into the pipe.
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("affray ends");
    assert_eq!(output.status.code(), Some(141), "{}", text(&output.stderr));
    assert_eq!(text(&output.stderr), "");
}

/// `--action` naming an action the attacker is not offered is a mistake of the command
/// line: the diagnostic names the option and lists the actions offered, whatever the
/// scenario's `[[choices]]` hold (OpenD6's knockout scripts the Thug's actions), and
/// where the action offered is the only one. An action given where the turn asks for none
/// is said too, not ignored.
#[test]
fn odds_with_an_action_the_attacker_cannot_take_blames_the_command_line() {
    for (name, scenario) in [
        (
            "odds_action_not_offered",
            "rulesets/legend/scenarios/sword_and_shield_duel.toml",
        ),
        (
            "odds_action_not_offered_beside_scripted_choices",
            "rulesets/opend6/scenarios/knockout.toml",
        ),
        // One action offered: the fight takes it without asking.
        (
            "odds_action_offered_alone",
            "tests/fixtures/d20_skirmish/scenarios/skirmish.toml",
        ),
        // The Guard is caught from behind: his turn asks for no action.
        (
            "odds_action_not_asked",
            "rulesets/3d6-hex/scenarios/ambush_from_behind.toml",
        ),
    ] {
        let output = affray(&["odds", scenario, "--action", "charge", "--seed", "1"]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert!(!stderr.contains("[[choices]]"), "{name}: {stderr}");
        assert!(stderr.contains("--action charge"), "{name}: {stderr}");
        insta::with_settings!({ snapshot_path => "../snapshots/cli", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(name, stderr);
        });
    }
}
