//! `affray fight --replay STATE --ruleset DIR`: the recorded dice and choices of a fight,
//! played again under its own ruleset and under another (a house rule); the two logs are
//! compared and shown up to their first difference.

use std::path::Path;
use std::sync::Arc;

use affray::log::{Event, render_text};
use affray::ruleset::Problems;
use affray::scenario;

use super::dial::Dials;
use super::record::Record;
use super::session::{Session, SessionSetup};
use super::{fight, problem};

/// One replayed run.
struct Run {
    ruleset: String,
    events: Vec<Event>,
    /// Why it stopped before its end, if it did.
    error: Option<String>,
    /// Where the record stopped matching what this run asked for.
    divergence: Option<String>,
}

pub fn run(state: &Path, house: &Path) -> Result<(), Problems> {
    let record = Record::load(state).map_err(problem)?;
    let original = replay(&record, record.ruleset.as_deref())?;
    let changed = replay(&record, Some(house))?;
    let mut out = format!(
        "Replaying {} ({} recorded dice and choices) under {} and under {}.\n",
        state.display(),
        record.inputs.len(),
        original.ruleset,
        changed.ruleset
    );
    let same = original
        .events
        .iter()
        .zip(&changed.events)
        .take_while(|(a, b)| a == b)
        .count();
    if same == original.events.len() && same == changed.events.len() {
        out.push_str("The two runs are the same, event for event:\n");
    } else {
        out.push_str(&format!(
            "The runs agree for {same} events, then differ at event {}:\n",
            same + 1
        ));
    }
    render_shared(&original.events[..same], &mut out);
    if same < original.events.len().max(changed.events.len()) {
        for (label, run) in [("original", &original), ("house rule", &changed)] {
            out.push_str(&format!("── {label} ({}):\n", run.ruleset));
            match run.events.get(same) {
                Some(event) => render_text(event, &mut out),
                None => out.push_str("  (the log ends here)\n"),
            }
        }
    }
    out.push('\n');
    let seed = record.seed;
    for (label, run) in [("original", &original), ("house rule", &changed)] {
        if let Some(divergence) = &run.divergence {
            out.push_str(&format!(
                "The {label} run left the record: {divergence}; from there it went on with affray's dice (seed {seed}) and the tactics script.\n"
            ));
        }
    }
    for (label, run) in [("original", &original), ("house rule", &changed)] {
        out.push_str(&format!("The {label} run ended: {}", ending(run)));
    }
    crate::cli::output::print(out)?;
    Ok(())
}

fn replay(record: &Record, ruleset: Option<&Path>) -> Result<Run, Problems> {
    let (ruleset, scenario) = scenario::load(&record.scenario, ruleset)?;
    let ruleset = Arc::new(ruleset);
    let mut dials = Dials::default();
    for setting in &record.dials {
        let _ = dials.set(setting, None);
    }
    let session = Session::new(SessionSetup {
        record: record.clone(),
        replay: record.inputs.clone(),
        silent: 0,
        dials,
        terminal: None,
        continue_after_mismatch: true,
        state: None,
        names: scenario
            .combatants
            .iter()
            .map(|c| c.name.to_string())
            .collect(),
        decisions: ruleset.known_decisions(),
    });
    let fight = fight(&ruleset, &scenario, &session, true)?;
    let result = fight.run();
    let events = fight.take_events();
    let mut session = session.lock().unwrap_or_else(|p| p.into_inner());
    session.fight = None;
    Ok(Run {
        ruleset: ruleset.dir.clone(),
        events,
        error: result.err().map(|e| e.to_string()),
        divergence: session.divergence.take(),
    })
}

/// The events both runs share, from the start of the round where they part (a long fight
/// would bury the difference): the fight's heading, a line for what is left out, then
/// that round.
fn render_shared(shared: &[Event], out: &mut String) {
    let round_start = shared
        .iter()
        .rposition(|event| matches!(event, Event::RoundStarted { .. }))
        .unwrap_or(0);
    let heading = usize::from(matches!(shared.first(), Some(Event::FightStarted { .. })));
    for event in &shared[..heading.min(round_start)] {
        render_text(event, out);
    }
    let left_out = round_start.saturating_sub(heading);
    if left_out > 0 {
        out.push_str(&format!(
            "\n  ({left_out} events of the rounds before, the same in both runs, are left out)\n"
        ));
    }
    for event in &shared[round_start..] {
        render_text(event, out);
    }
}

/// How a run ended: its last line (the outcome), or why it stopped.
fn ending(run: &Run) -> String {
    if let Some(error) = &run.error {
        return format!("stopped: {error}\n");
    }
    let ended = run
        .events
        .iter()
        .rev()
        .find(|e| matches!(e, Event::FightEnded { .. }));
    let mut text = String::new();
    match ended {
        Some(event) => render_text(event, &mut text),
        None => text.push_str("without an outcome\n"),
    }
    // Mid-sentence: "ended: won by blue after 6 rounds".
    let text = text.trim_start();
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}
