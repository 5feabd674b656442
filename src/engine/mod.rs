//! The combat engine: rounds, initiative order, action budgets, turns, condition timers
//! and the end of the fight. It knows no game: each step asks the ruleset, through the
//! hooks named in its ruleset.toml, and the hooks act on the fight through the primitives
//! of [`FightHandle`], every one of which logs what it does.
//!
//! It imports no loader and no script module: it defines what it runs, the model
//! ([`model`]: equipment, the scenario, the settings it reads), the rules of a ruleset
//! ([`Rules`]) and the hooks it calls ([`RulesetHooks`]); the loaders build them from
//! the files, and the script module implements the hooks.

mod chooser;
pub mod hooks;
mod lock;
mod merged;
pub mod model;
mod observer;
pub mod pipeline;
mod primitives;
pub mod reads;
mod rules;
mod state;
pub mod tactics;
mod walk;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;

use lock::{StateGuard, StateLock};

use miette::Diagnostic;
use thiserror::Error;

pub use chooser::{Chooser, Decision, FirstOption, ScriptedChooser};
pub use hooks::{HookArgument, HookError, HookFailure, RulesetHooks};
pub use observer::{FightObserver, Resolved};
pub use primitives::{Primitive, RowRolled, ScriptCall};
pub use rules::Rules;
pub use state::{ActiveCondition, Combatant, Location, Remaining, WeaponPlace, WeaponState};
pub use walk::KeyParts;

use crate::dice::{DiceSource, RollError};
use crate::log::{CombatantLine, Event, OrderEntry};
use crate::names::Name;
use model::Scenario;
use reads::TestResult;

/// Why a fight stopped before its end.
#[derive(Debug, Error, Diagnostic)]
pub enum FightError {
    /// A ruleset that says neither in combat.toml nor by a hook how a step of the turn
    /// goes can be checked and rolled on, but not fought.
    #[error(
        "the ruleset {ruleset} cannot run a fight: neither combat.toml nor a hook says its `{hook}`"
    )]
    #[diagnostic(
        code(affray::fight::missing_hook),
        help(
            "say it in combat.toml (`[turn]`, `[[action]]`), or name a script function as `{hook} = \"module::function\"` under [hooks] in ruleset.toml; rulesets/README.md lists both"
        )
    )]
    MissingHook { ruleset: String, hook: &'static str },

    #[error(transparent)]
    #[diagnostic(transparent)]
    Dice(#[from] RollError),

    /// A script failed while it ran: a hook, a row's script, the tactics module.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Script(Box<HookFailure>),

    /// A hook returned another type than the engine reads from it.
    #[error(transparent)]
    #[diagnostic(transparent)]
    WrongReturn(Box<HookFailure>),

    /// A rule of `combat.toml` that the fight cannot follow (what `check` cannot see,
    /// such as a table a script removed).
    #[error("combat.toml: {message}")]
    #[diagnostic(code(affray::fight::combat))]
    Combat { message: String },

    /// The fight reached a limit of `[limits]` in ruleset.toml.
    #[error("the fight was stopped in round {round}: it reached its limit of {limit} {what}")]
    #[diagnostic(
        code(affray::fight::limit),
        help(
            "a fight this long is most likely a runaway (a scenario's numbers, a script that does not end); if it is meant, raise `{key}` under [limits] in ruleset.toml"
        )
    )]
    Limit {
        what: &'static str,
        key: &'static str,
        limit: u64,
        round: u32,
    },

    /// A chooser stopped the fight (a person quit, or a replayed record no longer
    /// matches the fight).
    #[error("the fight was stopped at {who}'s {decision}: {reason}")]
    #[diagnostic(code(affray::fight::stopped))]
    Stopped {
        who: String,
        decision: String,
        reason: String,
    },

    /// A scenario's start state the fight cannot take (a condition the ruleset lost).
    #[error("{who}'s start state: {reason}")]
    #[diagnostic(code(affray::fight::start_state))]
    StartState { who: String, reason: String },

    /// A scenario's `[[choices]]` entry that is not a legal option when it comes up.
    #[error("the scripted choice `{chosen}` for {who}'s {decision} is not one of: {options}")]
    #[diagnostic(
        code(affray::fight::illegal_choice),
        help(
            "entries without `who` are used in order: check the order of [[choices]] in the scenario, or give the entry `who` (and `round`) so that it waits for that combatant's decision"
        )
    )]
    IllegalChoice {
        who: String,
        decision: String,
        chosen: String,
        options: String,
    },
    /// `--action` names an action the attacker is not offered (`odds`, `simulate
    /// --exchange`): a usage error.
    #[error("--action {chosen}: {who} is offered only {options}")]
    #[diagnostic(
        code(affray::usage::action_not_offered),
        help("name one of the actions offered, or leave --action out for the tactics' choice")
    )]
    ActionNotOffered {
        who: String,
        chosen: String,
        options: String,
    },
    /// `--action` given, but the attacker's turn never came to an action (caught by
    /// surprise, say, or the ruleset decides without asking).
    #[error("--action {chosen}: {who}'s turn asks for no action to choose")]
    #[diagnostic(
        code(affray::usage::action_not_asked),
        help("the ruleset decides {who}'s action without a choice here: leave --action out")
    )]
    ActionNotAsked { who: String, chosen: String },
}

/// The result of a fight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub rounds: u32,
    pub winner: Option<Name>,
    pub standing: Vec<Name>,
}

/// The mutable state of a fight.
pub struct Core {
    pub combatants: Vec<Combatant>,
    pub round: u32,
    /// This round's order of turns, best first, as initiative and the tie-break made it.
    pub order: Vec<usize>,
    dice: DiceSource,
    events: Option<Vec<Event>>,
    /// An error that must stop the fight, raised inside a primitive called by a script.
    fatal: Option<FightError>,
    dice_cache: std::collections::HashMap<String, crate::dice::DiceExpr>,
    /// Distance between every two combatants (row-major, `count` x `count`, symmetric):
    /// the scenario's starting distance between sides, 0 between allies.
    distances: Vec<i64>,
    /// Combatants holding their turn until another's (a delayed action), in the order
    /// they began to wait.
    waiting: Vec<Waiting>,
    /// Whose turn it is, while a turn runs.
    turn_of: Option<usize>,
    /// Whether a die rolled is an event someone reads (the full log, an observer):
    /// otherwise none is built.
    rolls_wanted: bool,
    /// Turns taken so far, against `[limits] turns`.
    turns: u64,
    /// Operations the ruleset's scripts have run in this fight, against `[limits]
    /// script_operations`.
    script_operations: u64,
    /// Bytes of free text the log keeps, against `[limits] log_bytes`.
    log_bytes: u64,
    /// In an enumeration, the tests drawn by their level alone, whose exact roll is drawn
    /// when something reads it ([`Core::refine`]); empty in a fight.
    merged: merged::MergedRolls,
}

impl Core {
    /// Keep the rolls of a test drawn by its level alone: its place for
    /// [`TestResult::merged`].
    pub(crate) fn merge_rolls(&mut self, rolls: Vec<(i64, i64, u64)>, purpose: String) -> u32 {
        self.merged.keep(rolls, purpose)
    }

    /// Make `result`'s roll and total exact ([`merged::MergedRolls::refine`]).
    pub(crate) fn refine(&mut self, result: &mut TestResult) -> Result<(), RollError> {
        self.merged.refine(&mut self.dice, result)
    }

    /// The index and rolls of `result`'s merged roll still to be drawn
    /// ([`merged::MergedRolls::candidates`]).
    pub(crate) fn merged_candidates(
        &self,
        result: &TestResult,
    ) -> Option<(usize, &[merged::RollWays])> {
        self.merged
            .candidates(result)
            .map(|(at, rolls)| (at, rolls.as_slice()))
    }

    /// Draw one of `groups` of the rolls of the merged rolls `at`
    /// ([`merged::MergedRolls::draw_group`]).
    pub(crate) fn draw_merged_group(
        &mut self,
        at: &[usize],
        groups: Vec<Vec<(usize, usize)>>,
    ) -> Result<usize, RollError> {
        self.merged.draw_group(&mut self.dice, at, groups)
    }

    /// Whether `mine` rolled higher than `theirs` ([`merged::MergedRolls::higher`]).
    pub(crate) fn rolled_higher(
        &mut self,
        mine: &mut TestResult,
        theirs: &mut TestResult,
    ) -> Result<bool, RollError> {
        self.merged.higher(&mut self.dice, mine, theirs)
    }

    /// Roll `expr` with the state held, where nobody reads the die: seeded dice (which
    /// neither read a purpose nor ask anyone) in a run that keeps no rolls. `None`
    /// otherwise: the caller rolls through [`FightHandle::roll_expr`], which lets go of
    /// the state around a die that may be asked of a person.
    pub(crate) fn roll_unseen(
        &mut self,
        expr: &crate::dice::DiceExpr,
    ) -> Option<Result<i64, crate::dice::RollError>> {
        self.dice_unseen()
            .then(|| expr.roll_total(&mut self.dice, ""))
    }

    /// Whether nobody reads what a die is for: neither the log (no rolls kept) nor the
    /// dice (seeded, not asked of a person).
    pub(crate) fn dice_unseen(&self) -> bool {
        !self.rolls_wanted && !self.dice.reads_purposes()
    }
}

/// A combatant holding its turn until `until` acts: then it acts right after, or, when
/// `interrupt`, tries to act right before (the `interrupt` hook decides).
#[derive(Clone, Copy, Debug)]
struct Waiting {
    who: usize,
    until: usize,
    interrupt: bool,
}

struct Shared {
    ruleset: Arc<Rules>,
    hooks: Arc<dyn RulesetHooks>,
    /// Whether the ruleset names a `choices` hook: asked twice a turn, looked up once.
    choices_hook: bool,
    /// Whether the dice are an enumeration's, which draws a test by its level alone
    /// (`merged`): looked up once.
    merging: bool,
    core: StateLock<Core>,
    /// Whether `Core::fatal` holds an error: read without taking the state.
    fatal_pending: AtomicBool,
    chooser: Mutex<Box<dyn Chooser>>,
    observer: Mutex<Option<Box<dyn FightObserver>>>,
    /// Whether there is an observer to tell: looked up once, not under its lock at
    /// every turn.
    observed: bool,
    /// `combat.toml` specialised to what this fight knows before its first turn.
    combat: Option<Arc<pipeline::Combat>>,
    /// Whether an event goes anywhere (the log keeps events, or an observer is told):
    /// otherwise none is built.
    logged: bool,
    title: String,
    modifiers: Vec<Name>,
    options: Vec<Name>,
    distance: Option<u32>,
}

/// The fight as scripts and choosers see it: cheap to clone, shared.
#[derive(Clone)]
pub struct FightHandle(Arc<Shared>);

impl std::fmt::Debug for FightHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Fight")
    }
}

/// Options of a run.
/// Which events a fight keeps (an observer is told of every one all the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Log {
    /// None: the fastest run.
    Off,
    /// Every event but the dice rolled: what a fight's figures are counted from.
    Outcomes,
    /// Everything, the dice too: a fight's log.
    Full,
}

pub struct FightSetup {
    pub dice: DiceSource,
    pub chooser: Box<dyn Chooser>,
    /// Which events to keep.
    pub log: Log,
    /// Told of every event as it happens and of every resolved turn and round (a live
    /// view, a state file kept up to date); `None` for a plain run.
    pub observer: Option<Box<dyn FightObserver>>,
}

impl FightHandle {
    pub fn new(
        ruleset: Arc<Rules>,
        scenario: &Scenario,
        setup: FightSetup,
    ) -> Result<Self, FightError> {
        let hooks = Arc::clone(&ruleset.hooks);
        let native = |hook: &str| ruleset.combat.as_ref().is_some_and(|c| c.provides(hook));
        for hook in self::hooks::REQUIRED {
            if !hooks.has(hook) && !native(hook) {
                return Err(FightError::MissingHook {
                    ruleset: ruleset.dir.clone(),
                    hook,
                });
            }
        }
        let locations = &ruleset.start_locations;
        let weapon = |id: Name| {
            let equipment = &ruleset.equipment;
            let index = equipment.index_of(id);
            index
                .and_then(|index| equipment.at(index))
                .map_or((0, 0, None), |w| (i64::from(w.hp), w.trait_bits, index))
        };
        let combatants: Vec<Combatant> = scenario
            .combatants
            .iter()
            .map(|spec| Combatant::new(Arc::clone(spec), locations, weapon))
            .collect();
        let start = i64::from(scenario.distance.unwrap_or(0));
        let engaged = |a: &Combatant, b: &Combatant| {
            a.spec.side == b.spec.side
                || a.spec.engaged.iter().any(|e| b.spec.name == *e)
                || b.spec.engaged.iter().any(|e| a.spec.name == *e)
        };
        let distances = combatants
            .iter()
            .flat_map(|a| {
                combatants
                    .iter()
                    .map(move |b| if engaged(a, b) { 0 } else { start })
            })
            .collect();
        let core = Core {
            combatants,
            round: 0,
            dice: setup.dice,
            events: (setup.log != Log::Off).then(Vec::new),
            rolls_wanted: setup.log == Log::Full || setup.observer.is_some(),
            fatal: None,
            dice_cache: std::collections::HashMap::new(),
            distances,
            waiting: Vec::new(),
            turn_of: None,
            order: Vec::new(),
            turns: 0,
            script_operations: 0,
            log_bytes: 0,
            merged: merged::MergedRolls::default(),
        };
        let logged = setup.log != Log::Off || setup.observer.is_some();
        let merging = core.dice.merges();
        let modifiers: Vec<Name> = scenario.modifiers.iter().map(Name::from).collect();
        let options: Vec<Name> = scenario.options.iter().map(Name::from).collect();
        let mut core = core;
        let world = pipeline::FightWorld {
            equipment: &ruleset.equipment,
            vocabulary: &ruleset.tactics.vocabulary,
            fight_options: &options,
            fight_modifiers: &modifiers,
        };
        let combat = ruleset
            .combat
            .as_ref()
            .map(|combat| ruleset.specialised.for_fight(combat, &mut core, &world));
        Ok(FightHandle(Arc::new(Shared {
            ruleset,
            choices_hook: hooks.has("choices"),
            hooks,
            logged,
            merging,
            combat,
            core: StateLock::new(core),
            fatal_pending: AtomicBool::new(false),
            chooser: Mutex::new(setup.chooser),
            observed: setup.observer.is_some(),
            observer: Mutex::new(setup.observer),
            title: scenario.title.clone(),
            modifiers,
            options,
            distance: scenario.distance,
        })))
    }

    /// The rules the fight runs.
    pub fn ruleset(&self) -> &Rules {
        &self.0.ruleset
    }

    /// Whether the fight's dice are an enumeration's ([`DiceSource::merges`]).
    pub(crate) fn merging(&self) -> bool {
        self.0.merging
    }

    /// The scenario's fight options.
    pub fn fight_options(&self) -> &[Name] {
        &self.0.options
    }

    /// The situational modifiers the scenario gives the whole fight.
    pub fn fight_modifiers(&self) -> &[Name] {
        &self.0.modifiers
    }

    /// The fight's state. Never held across a call into a script or a chooser.
    pub fn core(&self) -> StateGuard<'_, Core> {
        self.0.core.lock()
    }

    /// The events so far, taken out of the fight.
    pub fn take_events(&self) -> Vec<Event> {
        self.core()
            .events
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Every die rolled so far, when the fight's dice source is traced.
    pub fn dice_trace(&self) -> Vec<crate::dice::RolledDie> {
        self.core().dice.trace().to_vec()
    }

    /// Log the event `event` makes; a fight that logs nothing does not make it.
    fn emit(&self, event: impl FnOnce() -> Event) {
        if !self.0.logged {
            return;
        }
        let event = event();
        self.observe(|observer| observer.event(self, &event));
        let limits = &self.0.ruleset.settings.limits;
        let mut core = self.core();
        let Some(kept) = core.events.as_ref().map(Vec::len) else {
            return;
        };
        let full = kept as u64 >= limits.events;
        let bytes = core.log_bytes.saturating_add(event.text_bytes());
        if full || bytes > limits.log_bytes {
            // Kept no further; the fight stops at its next step.
            let (what, key, limit) = if full {
                ("events in its log", "events", limits.events)
            } else {
                ("bytes of text in its log", "log_bytes", limits.log_bytes)
            };
            let round = core.round;
            self.record_fatal(
                &mut core,
                FightError::Limit {
                    what,
                    key,
                    limit,
                    round,
                },
            );
            return;
        }
        if let Some(events) = core.events.as_mut() {
            events.push(event);
        }
        core.log_bytes = bytes;
    }

    /// Add the operations of one call of a script to the fight's; past `[limits]
    /// script_operations`, the fight stops at its next step.
    pub(crate) fn count_script_operations(&self, operations: u64) {
        let limit = self.0.ruleset.settings.limits.script_operations;
        let mut core = self.core();
        core.script_operations = core.script_operations.saturating_add(operations);
        if core.script_operations > limit {
            let round = core.round;
            self.record_fatal(
                &mut core,
                FightError::Limit {
                    what: "script operations",
                    key: "script_operations",
                    limit,
                    round,
                },
            );
        }
    }

    /// Whether a script may still run in this fight: not once it has spent its budget
    /// of operations (a script that called another, which went over, is stopped there).
    pub(crate) fn may_run_scripts(&self) -> primitives::Primitive<()> {
        let limit = self.0.ruleset.settings.limits.script_operations;
        if self.core().script_operations > limit {
            return Err(format!(
                "the fight has run its limit of {limit} script operations ([limits] script_operations in ruleset.toml)"
            ));
        }
        Ok(())
    }

    /// Whether an event goes anywhere: where it does not, one that takes work to build
    /// (a text, a name interned) is not built.
    pub(crate) fn logged(&self) -> bool {
        self.0.logged
    }

    /// Tell the observer, if there is one; the fight's state is not locked meanwhile.
    fn observe(&self, tell: impl FnOnce(&mut dyn FightObserver)) {
        if !self.0.observed {
            return;
        }
        let mut observer = self.0.observer.lock();
        if let Some(observer) = observer.as_mut() {
            tell(observer.as_mut());
        }
    }

    /// Run `roll` on the fight's dice source with the state unlocked: a die may be asked
    /// of a person, who may look at the fight meanwhile.
    fn with_dice<T>(&self, roll: impl FnOnce(&mut DiceSource) -> T) -> T {
        let mut dice = std::mem::replace(&mut self.core().dice, DiceSource::given([]));
        let result = roll(&mut dice);
        self.core().dice = dice;
        result
    }

    /// Record an error that must stop the fight; the script that called the primitive is
    /// unwound with a short message and the engine reports this error instead.
    pub(crate) fn stop(&self, error: FightError) -> String {
        let message = error.to_string();
        self.record_fatal(&mut self.core(), error);
        message
    }

    /// Keep `error` as the one that stops the fight, unless one is kept already.
    fn record_fatal(&self, core: &mut Core, error: FightError) {
        if core.fatal.is_none() {
            core.fatal = Some(error);
            self.0.fatal_pending.store(true, Ordering::Release);
        }
    }

    /// The error kept to stop the fight, taken out: the state is locked only when one
    /// was kept (asked after every expression and hook, it is nearly always none).
    fn take_fatal(&self) -> Option<FightError> {
        if !self.0.fatal_pending.load(Ordering::Acquire) {
            return None;
        }
        self.0.fatal_pending.store(false, Ordering::Release);
        self.core().fatal.take()
    }

    /// The ruleset's hooks, as the engine calls them; the script host finds itself in
    /// them.
    pub fn hooks(&self) -> &dyn RulesetHooks {
        &*self.0.hooks
    }

    /// Make a call of the ruleset's hooks; an error that must stop the fight, raised in
    /// a primitive the hook called, is the fight's error rather than the hook's.
    fn hooked<T>(
        &self,
        call: impl FnOnce(&dyn RulesetHooks) -> Result<T, HookError>,
    ) -> Result<T, FightError> {
        let result = call(&*self.0.hooks);
        if let Some(fatal) = self.take_fatal() {
            return Err(fatal);
        }
        result.map_err(FightError::from)
    }

    /// Call `hook` for what it does.
    fn hook(&self, hook: &str, args: &[HookArgument]) -> Result<(), FightError> {
        self.hooked(|hooks| hooks.call(self, hook, args))
    }

    /// Call `hook` for a whole number.
    fn hook_number(&self, hook: &str, args: &[HookArgument]) -> Result<i64, FightError> {
        self.hooked(|hooks| hooks.number(self, hook, args))
    }

    /// Call `hook` for `true` or `false`.
    fn hook_flag(&self, hook: &str, args: &[HookArgument]) -> Result<bool, FightError> {
        self.hooked(|hooks| hooks.flag(self, hook, args))
    }

    /// Call `hook` for a list of names.
    fn hook_names(&self, hook: &str, args: &[HookArgument]) -> Result<Vec<Name>, FightError> {
        self.hooked(|hooks| hooks.names(self, hook, args))
    }

    fn has_hook(&self, hook: &str) -> bool {
        self.0.hooks.has(hook)
    }

    /// Whether the ruleset names a `choices` hook.
    fn has_choices_hook(&self) -> bool {
        self.0.choices_hook
    }

    /// Run the fight to its end (one side left standing) or to the ruleset's round limit.
    pub fn run(&self) -> Result<Outcome, FightError> {
        let ruleset = &self.0.ruleset;
        let combatants: Vec<CombatantLine> = self
            .core()
            .combatants
            .iter()
            .map(|c| CombatantLine {
                name: c.spec.name,
                side: c.spec.side,
            })
            .collect();
        self.emit(|| Event::FightStarted {
            title: self.0.title.clone(),
            ruleset: ruleset.settings.title.clone(),
            combatants,
        });
        self.set_up_all()?;
        let max_rounds = ruleset.settings.max_rounds;
        for round in 1..=max_rounds {
            self.core().round = round;
            self.emit(|| Event::RoundStarted { round });
            let mut order = self.initiative_order()?;
            loop {
                let mut acted = false;
                let mut next = 0;
                while next < order.len() {
                    let who = order[next];
                    next += 1;
                    if self.is_out(who)
                        || self.core().combatants[who].actions_left <= 0
                        || self.is_waiting(who)
                    {
                        continue;
                    }
                    acted = true;
                    if let Some(outcome) = self.turn_with_waiters(who, &mut order, &mut next)? {
                        return Ok(outcome);
                    }
                }
                if !acted || !ruleset.settings.cycle {
                    break;
                }
            }
            // Whoever still waits when the round ends has let its turn pass.
            self.core().waiting.clear();
            self.round_end()?;
            if self.has_hook("round_end") {
                self.hook("round_end", &[])?;
            }
            self.tick_rounds();
            self.emit(|| Event::RoundEnded { round });
            self.observe(|observer| observer.resolved(self, Resolved::Round(round)));
            if let Some(outcome) = self.finished(round)? {
                return Ok(outcome);
            }
        }
        self.end(max_rounds)
    }

    /// One turn of `who` at the start of the fight, and nothing else: the set-up, every
    /// combatant's actions for round 1 (no initiative is rolled: order does not matter for
    /// one turn), then `who`'s turn with the action the chooser picks. What one exchange
    /// does, for exact odds and for sampling single exchanges.
    pub fn run_one_turn(&self, who: usize) -> Result<(), FightError> {
        self.set_up_all()?;
        let count = self.core().combatants.len();
        self.core().round = 1;
        self.emit(|| Event::RoundStarted { round: 1 });
        for each in 0..count {
            let budget = self.action_budget(each)?;
            self.core().combatants[each].actions_left = budget;
        }
        self.take_turn(who)
    }

    /// Everyone at the start of the fight, in scenario order: combat.toml's set-up, then
    /// the `setup` hook.
    fn set_up_all(&self) -> Result<(), FightError> {
        let count = self.core().combatants.len();
        for who in 0..count {
            self.set_up(who)?;
            if self.has_hook("setup") {
                self.hook("setup", &[HookArgument::Who(who)])?;
            }
        }
        // The scenario's start state, after the rules' own set-up.
        for who in 0..count {
            let (conditions, spent, damage, dropped) = {
                let core = self.core();
                let spec = &core.combatants[who].spec;
                (
                    spec.conditions.clone(),
                    spec.actions_spent,
                    spec.damage_taken.clone(),
                    spec.dropped.clone(),
                )
            };
            let refused = |reason| FightError::StartState {
                who: self.core().combatants[who].spec.name.to_string(),
                reason,
            };
            for id in dropped {
                self.drop_weapon(who, id).map_err(refused)?;
            }
            for (location, amount) in damage {
                self.damage(who, Name::new(&location), i64::from(amount))
                    .map_err(refused)?;
            }
            for condition in conditions {
                self.set_condition(who, condition, 0, crate::tables::DurationUnit::Actions)
                    .map_err(refused)?;
            }
            if spent > 0 {
                let mut core = self.core();
                let combatant = &mut core.combatants[who];
                combatant.actions_to_lose =
                    combatant.actions_to_lose.saturating_add(i64::from(spent));
            }
        }
        Ok(())
    }

    /// Initiative and actions for everyone still in the fight; the order, best first.
    fn initiative_order(&self) -> Result<Vec<usize>, FightError> {
        let count = self.core().combatants.len();
        let mut keys: Vec<(i64, i64, usize)> = Vec::new();
        for who in 0..count {
            if self.is_out(who) {
                continue;
            }
            self.round_start(who)?;
            let initiative = self.first_initiative(who)?;
            let budget = self.action_budget(who)?;
            let tie = self.tie_break(who)?;
            let (name, lost) = {
                let mut core = self.core();
                let combatant = &mut core.combatants[who];
                combatant.initiative = initiative;
                let lost = combatant.actions_to_lose.min(budget.max(0));
                combatant.actions_to_lose -= lost;
                combatant.actions_left = budget - lost;
                (combatant.spec.name, lost)
            };
            self.emit(|| Event::Initiative {
                who: name,
                value: initiative,
            });
            if lost > 0 {
                self.emit(|| Event::ActionsLost {
                    who: name,
                    count: lost,
                });
            }
            keys.push((initiative, tie, who));
        }
        // Highest initiative first, then the ruleset's tie-break, then scenario order.
        keys.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        let order: Vec<usize> = keys.iter().map(|k| k.2).collect();
        self.core().order.clone_from(&order);
        let listed = {
            let core = self.core();
            order
                .iter()
                .map(|&who| OrderEntry {
                    who: core.combatants[who].spec.name,
                    initiative: core.combatants[who].initiative,
                    actions: core.combatants[who].actions_left,
                })
                .collect()
        };
        self.emit(|| Event::TurnOrder { order: listed });
        Ok(order)
    }

    /// `who`'s initiative this round: rolled, unless the scenario sets it for the first
    /// round (`initiative = N`). A set initiative stands for the whole of it (no
    /// `initiative_modifier` is added) and, where the ruleset keeps the initiative rolled
    /// last, is kept as that. The expression of `[turn] initiative` is then not
    /// evaluated (no die is rolled); an `initiative` hook still runs, since a script may
    /// start the round in it (reset counts, roll for others), and its answer is set aside.
    fn first_initiative(&self, who: usize) -> Result<i64, FightError> {
        let set = {
            let core = self.core();
            core.combatants[who]
                .spec
                .initiative
                .filter(|_| core.round == 1)
        };
        let Some(set) = set else {
            return self.roll_initiative(who);
        };
        let native = self
            .combat()
            .is_some_and(|combat| combat.turn.initiative.is_some());
        if native {
            self.core().combatants[who].rolled_initiative = Some(set);
        } else {
            self.roll_initiative(who)?;
        }
        Ok(set)
    }

    fn is_waiting(&self, who: usize) -> bool {
        self.core().waiting.iter().any(|w| w.who == who)
    }

    /// Take those waiting for `until` (interrupting or not) off the waiting list.
    fn waiters(&self, until: usize, interrupt: bool) -> Vec<usize> {
        let mut core = self.core();
        let found = core
            .waiting
            .iter()
            .filter(|w| w.until == until && w.interrupt == interrupt)
            .map(|w| w.who)
            .collect();
        core.waiting
            .retain(|w| !(w.until == until && w.interrupt == interrupt));
        found
    }

    /// `who`'s turn, with those who wait for it: interrupters that win (the `interrupt`
    /// hook) act first, the rest right after it. Each delayed combatant moves in `order`
    /// next to `who` for the rest of the round; `next` stays past everyone who acted.
    fn turn_with_waiters(
        &self,
        who: usize,
        order: &mut Vec<usize>,
        next: &mut usize,
    ) -> Result<Option<Outcome>, FightError> {
        let round = self.core().round;
        let mut before = Vec::new();
        let mut after = Vec::new();
        for waiter in self.waiters(who, true) {
            let first = !self.has_hook("interrupt")
                || self.hook_flag(
                    "interrupt",
                    &[HookArgument::Who(waiter), HookArgument::Who(who)],
                )?;
            if first { &mut before } else { &mut after }.push(waiter);
        }
        for &waiter in &before {
            self.delayed_turn(waiter, who)?;
            if let Some(outcome) = self.finished(round)? {
                return Ok(Some(outcome));
            }
        }
        if !self.is_out(who) && self.core().combatants[who].actions_left > 0 {
            self.take_turn(who)?;
            if let Some(outcome) = self.finished(round)? {
                return Ok(Some(outcome));
            }
        }
        after.extend(self.waiters(who, false));
        for &waiter in &after {
            self.delayed_turn(waiter, who)?;
            if let Some(outcome) = self.finished(round)? {
                return Ok(Some(outcome));
            }
        }
        // The new places: interrupters before `who`, the others after it.
        let moved: Vec<usize> = before.iter().chain(&after).copied().collect();
        order.retain(|w| !moved.contains(w));
        let at = order.iter().position(|&w| w == who).unwrap_or(order.len());
        for (offset, &waiter) in after.iter().enumerate() {
            order.insert((at + 1 + offset).min(order.len()), waiter);
        }
        for &waiter in before.iter().rev() {
            order.insert(at, waiter);
        }
        let at = order.iter().position(|&w| w == who).unwrap_or(order.len());
        *next = (*next).max(at + 1 + after.len()).min(order.len());
        Ok(None)
    }

    /// The turn a delayed combatant takes next to `until`'s, at `until`'s initiative.
    fn delayed_turn(&self, who: usize, until: usize) -> Result<(), FightError> {
        if self.is_out(who) || self.core().combatants[who].actions_left <= 0 {
            return Ok(());
        }
        {
            let mut core = self.core();
            core.combatants[who].initiative = core.combatants[until].initiative;
        }
        self.take_turn(who)
    }

    fn take_turn(&self, who: usize) -> Result<(), FightError> {
        self.fatal()?;
        let (name, actions_left) = {
            let mut core = self.core();
            core.turns += 1;
            let limit = self.0.ruleset.settings.limits.turns;
            if core.turns > limit {
                return Err(FightError::Limit {
                    what: "turns",
                    key: "turns",
                    limit,
                    round: core.round,
                });
            }
            (
                core.combatants[who].spec.name,
                core.combatants[who].actions_left,
            )
        };
        self.emit(|| Event::Turn {
            who: name,
            actions_left,
        });
        // Asked once a turn: the same side (hooks or combat.toml) offers and does it.
        let hooks_play = self.hooks_play(who)?;
        let options = self.offered_actions(who, hooks_play)?;
        // Spending the action first: what the action does may depend on what is left.
        self.core().combatants[who].actions_left -= 1;
        if !options.is_empty() {
            let action = self.choose(who, crate::name!("action"), options)?;
            self.core().turn_of = Some(who);
            // The hooks play the rest of a turn they start themselves.
            let acted = self.act(who, action, hooks_play, true).and_then(|native| {
                if native && !self.ends_turn(action) {
                    self.more_actions(who)
                } else {
                    Ok(())
                }
            });
            self.core().turn_of = None;
            acted?;
        }
        // A combatant who chose to wait has not used its action yet.
        if !self.is_waiting(who) {
            self.tick_actions(who);
        }
        // A turn ends, whatever was done with it (waiting too).
        self.tick_turns(who);
        self.observe(|observer| observer.resolved(self, Resolved::Turn(who)));
        Ok(())
    }

    /// The scenario's scripted choices that the fight never used, in file order.
    pub fn unused_choices(&self) -> Vec<model::ScriptedChoice> {
        self.0.chooser.lock().unused()
    }

    /// Ask the chooser; log the choice.
    pub fn choose(
        &self,
        who: usize,
        decision: Name,
        options: Vec<Name>,
    ) -> Result<Name, FightError> {
        let who_name = self.core().combatants[who].spec.name;
        let decision = Decision {
            who,
            who_name,
            name: decision,
            options,
        };
        let (chosen, by) = if decision.options.len() == 1 {
            (decision.options[0], "only option")
        } else {
            let mut chooser = self.0.chooser.lock();
            let chosen = chooser.choose(self, &decision);
            // A limit the chooser's script reached stops the fight, whatever it answered.
            self.fatal()?;
            chosen?
        };
        self.emit(|| Event::Choice {
            who: who_name,
            decision: decision.name,
            options: decision.options,
            chosen,
            by,
        });
        Ok(chosen)
    }

    /// Count one of `who`'s actions off every condition timed in actions.
    fn tick_actions(&self, who: usize) {
        self.tick(
            |c| c == who,
            |remaining| match remaining {
                Remaining::Actions(n) => Remaining::Actions(n - 1),
                other => other,
            },
        );
    }

    /// Count the end of one of `who`'s turns off every condition timed in turns.
    fn tick_turns(&self, who: usize) {
        self.tick(
            |c| c == who,
            |remaining| match remaining {
                Remaining::Turns(n) => Remaining::Turns(n - 1),
                other => other,
            },
        );
    }

    fn tick_rounds(&self) {
        self.tick(
            |_| true,
            |remaining| match remaining {
                Remaining::Rounds(n) => Remaining::Rounds(n - 1),
                other => other,
            },
        );
    }

    fn tick(&self, whom: impl Fn(usize) -> bool, step: impl Fn(Remaining) -> Remaining) {
        let mut ended = Vec::new();
        {
            let mut core = self.core();
            for (index, combatant) in core.combatants.iter_mut().enumerate() {
                if !whom(index) {
                    continue;
                }
                let who = combatant.spec.name;
                combatant.tick_conditions(&step, |condition| ended.push((who, condition)));
            }
        }
        for (who, condition) in ended {
            self.emit(|| Event::ConditionEnded { who, condition });
        }
    }

    /// `who` is out of the fight from now on.
    fn put_out(&self, who: usize) {
        let name = {
            let mut core = self.core();
            core.combatants[who].out = true;
            core.combatants[who].spec.name
        };
        self.emit(|| Event::OutOfFight { who: name });
    }

    /// Ask the ruleset who is out; the outcome once at most one side stands.
    fn finished(&self, round: u32) -> Result<Option<Outcome>, FightError> {
        self.judge_out_of_fight()?;
        // Over once every combatant still standing is of one side (or none stands).
        let one_side = {
            let core = self.core();
            let mut standing = core.combatants.iter().filter(|c| !c.out);
            let first = standing.next().map(|c| c.spec.side);
            standing.all(|c| Some(c.spec.side) == first)
        };
        if one_side {
            self.end(round).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The outcome, then the ruleset's `after_fight` hook (the aftermath of a battle),
    /// which logs but no longer changes who won.
    fn end(&self, rounds: u32) -> Result<Outcome, FightError> {
        let (standing, sides) = {
            let core = self.core();
            let standing: Vec<Name> = core
                .combatants
                .iter()
                .filter(|c| !c.out)
                .map(|c| c.spec.name)
                .collect();
            let mut sides: Vec<Name> = core
                .combatants
                .iter()
                .filter(|c| !c.out)
                .map(|c| c.spec.side)
                .collect();
            sides.sort();
            sides.dedup();
            (standing, sides)
        };
        let winner = (sides.len() == 1).then(|| sides[0]);
        self.emit(|| Event::FightEnded {
            rounds,
            winner,
            standing: standing.clone(),
        });
        if self.has_hook("after_fight") {
            self.hook("after_fight", &[])?;
        }
        Ok(Outcome {
            rounds,
            winner,
            standing,
        })
    }
}
