//! One run of a fight with a record: the dice source, the chooser and the observer the
//! engine is given all share this session. It replays recorded inputs first (checking
//! that the fight asks for the same die or decision), then asks the person at the
//! terminal — or, with no one there, rolls affray's dice and asks the tactics script —
//! and writes every input to the record.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use affray::dice::{AskDie, DiceSource, DieOf, RollError};
use affray::engine::{Chooser, Decision, FightError, FightHandle, FightObserver, Resolved};
use affray::log::{Event, render_text};
use affray::names::{self, Name};
use affray::script::TacticsChooser;
use affray::source::excerpt;

use super::dial::{Dials, Known, Level};
use super::prompt::{Answer, HELP, Terminal};
use super::record::{Input, Record};
use super::status;

/// Why a run was stopped from outside the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    Quit,
    Undo,
    /// The record no longer matches what the fight asks for.
    Mismatch(String),
}

pub struct Session {
    pub record: Record,
    /// Recorded inputs still to be replayed.
    replay: VecDeque<Input>,
    /// Resolved turns and rounds still to pass before the fight is shown live.
    silent: usize,
    pub dials: Dials,
    /// The person at the table; `None` when no one is asked (a recorded or replayed run).
    terminal: Option<Terminal>,
    /// affray's own dice, for `r`, `auto` and `suggest`.
    generator: DiceSource,
    pub stop: Option<Stop>,
    /// A record that stops matching is a divergence (replaying under a house rule): the
    /// run goes on with affray's dice and the tactics script instead of stopping.
    continue_after_mismatch: bool,
    pub divergence: Option<String>,
    /// Where the record is saved after every resolved turn and round.
    state: Option<PathBuf>,
    save_failed: bool,
    /// The fight, kept for `status` at a die prompt; cleared when the run ends.
    pub fight: Option<FightHandle>,
    names: Vec<String>,
    /// The decisions the ruleset is known to ask: what a dial set at a prompt is checked
    /// against, with `names`.
    decisions: Vec<String>,
    /// The last lines of the log while the record is replayed unseen (a resume, an
    /// undo): shown when the fight goes on, so the GM sees where it stands.
    recent: VecDeque<String>,
}

/// How many lines of the log a resumed fight shows of what came before.
const RECENT_LINES: usize = 12;

pub type Shared = Arc<Mutex<Session>>;

/// How a session is set up.
pub struct SessionSetup {
    pub record: Record,
    /// Replay `record`'s completed inputs (a resume or a replay) before going on.
    pub replay: Vec<Input>,
    pub silent: usize,
    pub dials: Dials,
    pub terminal: Option<Terminal>,
    pub continue_after_mismatch: bool,
    pub state: Option<PathBuf>,
    pub names: Vec<String>,
    /// The decisions the ruleset is known to ask
    /// ([`affray::ruleset::Ruleset::known_decisions`]).
    pub decisions: Vec<String>,
}

impl Session {
    pub fn new(setup: SessionSetup) -> Shared {
        let mut record = setup.record;
        let generator = DiceSource::seeded(record.seed);
        // The record is written again as the replay goes.
        record.inputs.clear();
        record.resolved.clear();
        record.finished = false;
        Arc::new(Mutex::new(Session {
            record,
            replay: setup.replay.into(),
            silent: setup.silent,
            dials: setup.dials,
            terminal: setup.terminal,
            generator,
            stop: None,
            continue_after_mismatch: setup.continue_after_mismatch,
            divergence: None,
            state: setup.state,
            save_failed: false,
            fight: None,
            names: setup.names,
            decisions: setup.decisions,
            recent: VecDeque::new(),
        }))
    }

    /// The engine's three hooks on this session: dice source, chooser, observer.
    pub fn hooks(shared: &Shared) -> (DiceSource, SessionChooser, Box<dyn FightObserver>) {
        (
            DiceSource::asked(Box::new(SessionDice(Arc::clone(shared)))),
            SessionChooser(Arc::clone(shared)),
            Box::new(SessionObserver(Arc::clone(shared))),
        )
    }

    /// The terminal, for the next run of the same fight (after an undo).
    pub fn take_terminal(&mut self) -> Option<Terminal> {
        self.terminal.take()
    }

    pub fn say(&self, text: &str) {
        if let Some(terminal) = &self.terminal {
            terminal.say(text);
        }
    }

    fn live(&self) -> bool {
        self.silent == 0
    }

    /// Save the record now (after a resolved action, on quit, at the end), with the
    /// status of `fight` as it stands, or else the status at the last resolved action.
    pub fn save(&mut self, fight: Option<&FightHandle>) {
        let Some(path) = self.state.clone() else {
            return;
        };
        self.record.dials = self.dials.written();
        if let Some(fight) = fight {
            self.record.status = status::view(fight);
        }
        if let Err(error) = self.record.save(&path) {
            if !self.save_failed {
                self.say(&format!(
                    "warning: cannot save the fight to {}: {error}",
                    path.display()
                ));
            }
            self.save_failed = true;
        }
    }

    /// The next recorded input, if it answers this question; on a mismatch, the stop or
    /// the divergence.
    fn replayed(&mut self, matches: impl Fn(&Input) -> bool, asked: &str) -> Replayed {
        let Some(recorded) = self.replay.front() else {
            return Replayed::None;
        };
        if matches(recorded) {
            let recorded = self.replay.pop_front().expect("looked at above");
            return Replayed::Input(recorded);
        }
        let reason = format!(
            "input {} of the record is {}, but the fight now asks for {asked}",
            self.record.inputs.len() + 1,
            recorded.describe()
        );
        self.replay.clear();
        if self.continue_after_mismatch {
            self.divergence = Some(reason);
            Replayed::None
        } else {
            self.stop = Some(Stop::Mismatch(reason.clone()));
            Replayed::Stop(reason)
        }
    }

    /// Who a die is for: the purpose ends `for NAME` when the engine knows.
    fn die_for(&self, purpose: &str) -> Option<String> {
        let (_, name) = purpose.rsplit_once(" for ")?;
        self.names.iter().find(|n| *n == name).cloned()
    }

    fn die(&mut self, sides: u32, purpose: &str, of: DieOf) -> Result<u32, RollError> {
        let stopped = |reason: String| RollError::Stopped {
            sides,
            purpose: purpose.to_string(),
            reason,
        };
        // The purpose in words, the combatant it ends with as named.
        let said = match purpose.rsplit_once(" for ") {
            Some((what, whom)) => format!("{} for {whom}", names::Words(what)),
            None => names::Words(purpose).to_string(),
        };
        let asked = if of.count > 1 {
            format!(
                "{}D{sides} {said}, die {} of {}",
                of.count, of.index, of.count
            )
        } else {
            format!("1D{sides} {said}")
        };
        // A die whose value its own die cannot show is refused like any other mismatch.
        let matches = |input: &Input| {
            matches!(input, Input::Die { sides: s, purpose: p, value, .. }
                if *s == sides && p == purpose && (1..=sides).contains(value))
        };
        match self.replayed(matches, &asked) {
            Replayed::Input(input) => {
                if let Input::Die {
                    value,
                    drawn: Some(_),
                    ..
                } = &input
                {
                    // Drawn again so that affray's later rolls are the same as before.
                    let _ = self.generator.roll_die(sides, purpose);
                    let value = *value;
                    self.record.inputs.push(input);
                    return Ok(value);
                }
                let Input::Die { value, .. } = &input else {
                    unreachable!("matched a die")
                };
                let value = *value;
                self.record.inputs.push(input);
                return Ok(value);
            }
            Replayed::Stop(reason) => return Err(stopped(reason)),
            Replayed::None => {}
        }
        let level = match &self.terminal {
            Some(_) => self
                .dials
                .for_die(self.die_for(purpose).as_deref(), purpose),
            None => Level::Auto,
        };
        let (value, by, drawn) = match level {
            Level::Auto => {
                let value = self.generator.roll_die(sides, purpose)?;
                (value, "affray", Some(value))
            }
            Level::Suggest => {
                let rolled = self.generator.roll_die(sides, purpose)?;
                match self.ask_die(sides, purpose, &asked, Some(rolled)) {
                    Ok(DieAnswer::Typed(value)) => (value, "table", Some(rolled)),
                    Ok(DieAnswer::Rolled(value)) => (value, "affray", Some(value)),
                    Err(reason) => return Err(stopped(reason)),
                }
            }
            Level::Manual => match self.ask_die(sides, purpose, &asked, None) {
                Ok(DieAnswer::Typed(value)) => (value, "table", None),
                Ok(DieAnswer::Rolled(value)) => (value, "affray", Some(value)),
                Err(reason) => return Err(stopped(reason)),
            },
        };
        self.record.inputs.push(Input::Die {
            sides,
            purpose: purpose.to_string(),
            value,
            by: by.into(),
            drawn,
        });
        Ok(value)
    }

    /// Ask for a die until a possible value comes; `suggested` is affray's roll.
    fn ask_die(
        &mut self,
        sides: u32,
        purpose: &str,
        asked: &str,
        suggested: Option<u32>,
    ) -> Result<DieAnswer, String> {
        // A d10 shows 0 for ten, percentile dice 00 for a hundred: typed as the dice read.
        let zero = match sides {
            10 => " (0 for 10)",
            100 => " (00 for 100)",
            _ => "",
        };
        let prompt = match suggested {
            Some(value) => {
                format!("{asked} — Enter for {value} (rolled by affray), or enter 1-{sides}{zero}:")
            }
            None => format!("{asked} — enter 1-{sides}{zero}, or r to roll:"),
        };
        loop {
            let auto = |session: &Self| {
                session
                    .dials
                    .for_die(session.die_for(purpose).as_deref(), purpose)
                    == Level::Auto
            };
            let text = match self.read_answer(&prompt, auto)? {
                Some(text) => text,
                // A die turned to `auto` at its own prompt is rolled at once.
                None => {
                    let value = match suggested {
                        Some(value) => value,
                        None => self
                            .generator
                            .roll_die(sides, purpose)
                            .map_err(|e| e.to_string())?,
                    };
                    return Ok(DieAnswer::Rolled(value));
                }
            };
            match (text.as_str(), suggested) {
                ("", Some(value)) => return Ok(DieAnswer::Rolled(value)),
                ("r", Some(value)) => return Ok(DieAnswer::Rolled(value)),
                ("r", None) => {
                    let value = self
                        .generator
                        .roll_die(sides, purpose)
                        .map_err(|e| e.to_string())?;
                    self.say(&format!("  affray rolls {value}"));
                    return Ok(DieAnswer::Rolled(value));
                }
                ("", None) => self.say(&format!(
                    "  type the number rolled at the table (1 to {sides}), or r to let affray roll; ? for help"
                )),
                (text, _) => match text.parse::<i64>() {
                    Ok(value) if (1..=i64::from(sides)).contains(&value) => {
                        return Ok(DieAnswer::Typed(value as u32));
                    }
                    // `0` on a d10, `00` on percentile dice: the ten, the hundred.
                    Ok(0) if (sides == 10 && text == "0") || (sides == 100 && text == "00") => {
                        return Ok(DieAnswer::Typed(sides));
                    }
                    Ok(value) => self.say(&format!(
                        "  {value} cannot be rolled on a 1D{sides}: enter 1 to {sides}"
                    )),
                    Err(_) => self.say(&format!(
                        "  `{}` is not a number: enter the value rolled, 1 to {sides}, or r to roll; ? for help",
                        excerpt(text)
                    )),
                },
            }
        }
    }

    /// Handle the commands every prompt knows; the text of any other answer. `Err` when
    /// the run must stop (quit, undo).
    /// Ask until an answer to the prompt itself comes: its text, or `None` once a `dial`
    /// command turned this very step to `auto` (`now_auto`). Other commands (help,
    /// status, dial of another step) are carried out and the prompt asked again.
    fn read_answer(
        &mut self,
        prompt: &str,
        now_auto: impl Fn(&Self) -> bool,
    ) -> Result<Option<String>, String> {
        loop {
            let answer = self
                .terminal
                .as_mut()
                .expect("asked with a terminal")
                .ask(prompt);
            let dialled = matches!(answer, Answer::Dial(_));
            match self.command(answer)? {
                Some(text) => return Ok(Some(text)),
                None if dialled && now_auto(self) => return Ok(None),
                None => {}
            }
        }
    }

    fn command(&mut self, answer: Answer) -> Result<Option<String>, String> {
        match answer {
            Answer::Text(text) => return Ok(Some(text)),
            Answer::Help => self.say(HELP),
            Answer::Status => {
                let lines = self.fight.as_ref().map(status::view).unwrap_or_default();
                self.say(&lines.join("\n"));
            }
            Answer::Dial(setting) => {
                let known = self
                    .fight
                    .as_ref()
                    .map(|_| Known::new(self.decisions.clone(), self.names.clone()));
                match self.dials.set(&setting, known.as_ref()) {
                    Ok(()) => self.say(&format!("  dial: {}", excerpt(&setting))),
                    Err(reason) => self.say(&format!("  {reason}")),
                }
            }
            Answer::Undo => {
                if self.record.resolved.is_empty() {
                    self.say("  nothing to undo yet: no action has been resolved");
                } else {
                    self.stop = Some(Stop::Undo);
                    return Err("undone at the table".into());
                }
            }
            Answer::Quit => {
                self.stop = Some(Stop::Quit);
                return Err("the GM quit".into());
            }
        }
        Ok(None)
    }

    /// Replay or plan a decision: its answer now, or the level to ask it at (the tactics
    /// script's suggestion is computed by the caller, without the session locked).
    fn plan_choice(&mut self, decision: &Decision) -> Result<Plan, FightError> {
        let asked = format!(
            "{}'s {} (of {})",
            decision.who_name,
            decision.name,
            names::join(&decision.options, ", ")
        );
        let matches = |input: &Input| {
            matches!(input, Input::Choice { who, decision: name, options, chosen, .. }
                if decision.who_name == *who && decision.name == *name
                    && options.len() == decision.options.len()
                    && decision.options.iter().zip(options).all(|(a, b)| a == b)
                    // A choice that is not among its own options is refused, never
                    // handed to the ruleset.
                    && options.contains(chosen))
        };
        match self.replayed(matches, &asked) {
            Replayed::Input(input) => {
                let Input::Choice { chosen, by, .. } = &input else {
                    unreachable!("matched a choice")
                };
                let answer = (Name::new(chosen), by_label(by));
                self.record.inputs.push(input);
                Ok(Plan::Answered(answer))
            }
            Replayed::Stop(reason) => Err(FightError::Stopped {
                who: decision.who_name.to_string(),
                decision: decision.name.to_string(),
                reason,
            }),
            Replayed::None => Ok(Plan::Ask(match &self.terminal {
                Some(_) => self.dials.for_decision(&decision.who_name, &decision.name),
                None => Level::Auto,
            })),
        }
    }

    fn choose(
        &mut self,
        decision: &Decision,
        level: Level,
        suggestion: (Name, &'static str),
    ) -> Result<(Name, &'static str), FightError> {
        let answer = match level {
            Level::Auto => suggestion,
            level => self
                .ask_choice(decision, level, suggestion)
                .map_err(|reason| FightError::Stopped {
                    who: decision.who_name.to_string(),
                    decision: decision.name.to_string(),
                    reason,
                })?,
        };
        self.record.inputs.push(Input::Choice {
            who: decision.who_name.to_string(),
            decision: decision.name.to_string(),
            options: decision.options.iter().map(|o| o.to_string()).collect(),
            chosen: answer.0.to_string(),
            by: answer.1.into(),
        });
        Ok(answer)
    }

    fn ask_choice(
        &mut self,
        decision: &Decision,
        level: Level,
        suggestion: (Name, &'static str),
    ) -> Result<(Name, &'static str), String> {
        let suggested = (level == Level::Suggest).then_some(suggestion.0);
        let options = &decision.options;
        let default = suggested
            .as_ref()
            .and_then(|s| options.iter().position(|o| o == s))
            .unwrap_or(0);
        let mut listing = format!(
            "{} chooses {}:",
            decision.who_name,
            names::Words(&decision.name)
        );
        for (index, option) in options.iter().enumerate() {
            let option = names::Words(option);
            let mark = if suggested.is_some() && index == default {
                "   ← tactics"
            } else {
                ""
            };
            listing.push_str(&format!("\n  {:>2} {option}{mark}", index + 1));
        }
        self.say(&listing);
        let prompt = format!(
            "{}'s {} — Enter for {} {}, or a number or name (? for help):",
            decision.who_name,
            names::Words(&decision.name),
            default + 1,
            names::Words(&options[default])
        );
        loop {
            let auto = |session: &Self| {
                session
                    .dials
                    .for_decision(&decision.who_name, &decision.name)
                    == Level::Auto
            };
            let Some(text) = self.read_answer(&prompt, auto)? else {
                // A decision turned to `auto` at its own prompt is the tactics script's.
                return Ok(suggestion);
            };
            if text.is_empty() {
                let by = if suggested.is_some() {
                    "tactics, accepted"
                } else {
                    "GM"
                };
                return Ok((options[default], by));
            }
            if let Ok(number) = text.parse::<usize>() {
                if (1..=options.len()).contains(&number) {
                    return Ok((options[number - 1], "GM"));
                }
                self.say(&format!(
                    "  there is no option {number}: choose 1 to {}",
                    options.len()
                ));
                continue;
            }
            // As listed (`keep watch`) or as the id (`keep_watch`).
            match options.iter().find(|o| names::typed_as(o, &text)) {
                Some(option) => return Ok((*option, "GM")),
                None => self.say(&format!(
                    "  `{}` is not one of the options: a number from 1 to {}, or a name as listed",
                    excerpt(&text),
                    options.len()
                )),
            }
        }
    }

    fn event(&mut self, fight: &FightHandle, event: &Event) {
        if self.fight.is_none() {
            self.fight = Some(fight.clone());
        }
        if self.terminal.is_none() {
            return;
        }
        let mut text = String::new();
        render_text(event, &mut text);
        let Some(text) = text.strip_suffix('\n') else {
            return;
        };
        if self.live() {
            self.say(text);
        } else {
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                if self.recent.len() == RECENT_LINES {
                    self.recent.pop_front();
                }
                self.recent.push_back(line.to_string());
            }
        }
    }

    fn resolved(&mut self, fight: &FightHandle, what: Resolved) {
        self.record.resolved.push(self.record.inputs.len());
        if self.silent > 0 {
            self.silent -= 1;
            if self.silent == 0 {
                self.save(Some(fight));
                if !self.recent.is_empty() {
                    let recent: Vec<String> = self.recent.drain(..).collect();
                    self.say(&format!(
                        "(the log so far ends with:)\n{}",
                        recent.join("\n")
                    ));
                }
                self.say(&format!(
                    "(replayed {} dice and choices; the fight goes on from here)",
                    self.record.inputs.len()
                ));
                self.say(&status::view(fight).join("\n"));
            }
            return;
        }
        self.save(Some(fight));
        if matches!(what, Resolved::Round(_)) && self.terminal.is_some() {
            self.say(&status::view(fight).join("\n"));
        }
    }
}

enum Replayed {
    Input(Input),
    Stop(String),
    None,
}

enum DieAnswer {
    Typed(u32),
    Rolled(u32),
}

enum Plan {
    Answered((Name, &'static str)),
    Ask(Level),
}

/// The log's `by` of a replayed choice, as the engine wants it (`&'static str`).
fn by_label(by: &str) -> &'static str {
    match by {
        "GM" => "GM",
        "tactics" => "tactics",
        "tactics, accepted" => "tactics, accepted",
        "first option" => "first option",
        "scenario" => "scenario",
        // A label of a newer affray: kept as written (once per replayed choice).
        other => Box::leak(other.to_string().into_boxed_str()),
    }
}

fn lock(shared: &Shared) -> MutexGuard<'_, Session> {
    shared.lock().unwrap_or_else(|p| p.into_inner())
}

struct SessionDice(Shared);

impl AskDie for SessionDice {
    fn die(&mut self, sides: u32, purpose: &str, of: DieOf) -> Result<u32, RollError> {
        lock(&self.0).die(sides, purpose, of)
    }
}

pub struct SessionChooser(Shared);

impl Chooser for SessionChooser {
    fn choose(
        &mut self,
        fight: &FightHandle,
        decision: &Decision,
    ) -> Result<(Name, &'static str), FightError> {
        let plan = {
            let mut session = lock(&self.0);
            if session.fight.is_none() {
                session.fight = Some(fight.clone());
            }
            session.plan_choice(decision)?
        };
        let level = match plan {
            Plan::Answered(answer) => return Ok(answer),
            Plan::Ask(level) => level,
        };
        // The tactics script runs with the session unlocked: it may log.
        // Asked even when not shown (manual): the dial may be turned to auto at the
        // prompt. Tactics scripts only read the fight, so asking them changes nothing.
        let suggestion = TacticsChooser::new(fight.ruleset()).choose(fight, decision)?;
        lock(&self.0).choose(decision, level, suggestion)
    }
}

struct SessionObserver(Shared);

impl FightObserver for SessionObserver {
    fn event(&mut self, fight: &FightHandle, event: &Event) {
        lock(&self.0).event(fight, event);
    }

    fn resolved(&mut self, fight: &FightHandle, what: Resolved) {
        lock(&self.0).resolved(fight, what);
    }
}
