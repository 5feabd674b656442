//! The turn's steps from `[turn]`: initiative, the action budget, the actions offered
//! and who is out. A step `combat.toml` leaves out is asked of the ruleset's hook.

use super::super::reads::weapon as weapon_of;
use super::super::state::WeaponPlace;
use super::super::{FightError, FightHandle, HookArgument};
use super::env::FightEnv;
use super::{Combat, Hands, TurnRule};
use crate::engine::model::Weapon;
use crate::names::Name;
use crate::source::Spanned;
use crate::tables::Action;

impl FightHandle {
    /// `combat.toml` specialised to this fight.
    pub(in crate::engine) fn combat(&self) -> Option<&Combat> {
        self.0.combat.as_deref()
    }

    /// Evaluate an expression of `combat.toml` with `who` as `self`; a die that could not
    /// be rolled stops the fight here.
    pub(super) fn evaluate<T>(
        &self,
        who: usize,
        purpose: &str,
        expression: impl FnOnce(&mut FightEnv<'_>) -> T,
    ) -> Result<T, FightError> {
        let mut env = FightEnv::new(self, who);
        env.purpose = purpose;
        let value = expression(&mut env);
        self.fatal()?;
        Ok(value)
    }

    /// The error a primitive recorded, if one must stop the fight.
    pub(in crate::engine) fn fatal(&self) -> Result<(), FightError> {
        match self.take_fatal() {
            Some(fatal) => Err(fatal),
            None => Ok(()),
        }
    }

    /// `who`'s initiative this round: `[turn] initiative` rolled (or kept, where
    /// `keep_initiative` holds after the first round) plus `initiative_modifier`; or
    /// the hook.
    pub(in crate::engine) fn roll_initiative(&self, who: usize) -> Result<i64, FightError> {
        let turn = self.combat().map(|c| &c.turn);
        let Some((turn, initiative)) = turn.and_then(|t| t.initiative.as_ref().map(|i| (t, i)))
        else {
            return self.hook_number("initiative", &[HookArgument::Who(who)]);
        };
        let kept = self.core().combatants[who].rolled_initiative;
        let rolled = match (kept, &turn.keep_initiative) {
            (Some(kept), Some(keep)) if self.evaluate(who, "", |env| env.holds(keep))? => kept,
            _ => {
                let label = turn.initiative_label.map_or("initiative", |l| l.as_str());
                let rolled = self.evaluate(who, label, |env| env.number_of(initiative))?;
                self.core().combatants[who].rolled_initiative = Some(rolled);
                rolled
            }
        };
        let modifier = match &turn.initiative_modifier {
            Some(modifier) => {
                let label = turn.initiative_label.map_or("initiative", |l| l.as_str());
                self.evaluate(who, label, |env| env.number_of(modifier))?
            }
            None => 0,
        };
        Ok(rolled.saturating_add(modifier))
    }

    /// `who` at the start of the fight: what it holds in hand (`[hands]`), then the
    /// `[[setup]]` rules; the `setup` hook comes after.
    pub(in crate::engine) fn set_up(&self, who: usize) -> Result<(), FightError> {
        let Some(combat) = self.combat() else {
            return Ok(());
        };
        if let Some(hands) = &combat.turn.hands {
            self.take_in_hand(hands, who)?;
        }
        self.turn_rules(&combat.turn.setup, who)
    }

    /// Hold the weapons the scenario lists, in order, each while the hands it needs are
    /// free; stow the rest.
    fn take_in_hand(&self, hands: &Hands, who: usize) -> Result<(), FightError> {
        let mut free = hands.count;
        for id in self.weapons(who) {
            let Ok(weapon) = self.weapon(id) else {
                continue;
            };
            let needs = self.hands_needed(hands, who, weapon)?;
            if needs <= free {
                free -= needs;
            } else {
                self.stow_weapon(who, id)
                    .map_err(|message| FightError::Combat { message })?;
            }
        }
        Ok(())
    }

    /// How many hands `weapon` needs (`[hands] needs`, with it as `item`).
    pub(in crate::engine) fn hands_needed(
        &self,
        hands: &Hands,
        who: usize,
        weapon: &Weapon,
    ) -> Result<i64, FightError> {
        let mut env = FightEnv::new(self, who);
        env.bound.item = Some(weapon);
        let needs = env.number_of(&hands.needs);
        self.fatal()?;
        Ok(needs)
    }

    /// `ready TRAIT`: `who` chooses (decision `weapon_to_ready`) among the weapons it
    /// carries, then those it dropped within reach, that have the trait (`not`: that
    /// lack it; `weapon`: any); a dropped one costs `[hands] pick_up` more actions
    /// (spent now, or lost from the next); what no longer fits in the hands is stowed,
    /// the last taken up first; then the weapon is in hand.
    pub(super) fn ready(&self, who: usize, not: bool, which: Name) -> Result<(), FightError> {
        let options: Vec<Name> = {
            let core = self.core();
            let equipment = &self.ruleset().equipment;
            let mut options = Vec::new();
            for place in [WeaponPlace::Carried, WeaponPlace::Dropped] {
                for held in core.combatants[who]
                    .weapons
                    .iter()
                    .filter(|w| w.place == place)
                {
                    let fits = weapon_of(equipment, held.id).is_some_and(|weapon| {
                        which == "weapon" || weapon.traits.contains(&which) != not
                    });
                    if fits && !options.contains(&held.id) {
                        options.push(held.id);
                    }
                }
            }
            options
        };
        if options.is_empty() {
            return Ok(());
        }
        let id = self.choose(who, crate::name!("weapon_to_ready"), options)?;
        let combat_error = |message| FightError::Combat { message };
        let weapon = self.weapon(id).map_err(combat_error)?;
        let hands = self.combat().and_then(|c| c.turn.hands.as_ref());
        let dropped = self.core().combatants[who]
            .weapons
            .iter()
            .any(|w| w.id == id && w.place == WeaponPlace::Dropped);
        if dropped {
            for _ in 0..hands.map_or(0, |h| h.pick_up) {
                if !self.spend_action(who, "picking up a dropped weapon") {
                    self.lose_actions(who, 1);
                }
            }
        }
        if let Some(hands) = hands {
            let mut held = Vec::new();
            for id in self.weapons(who) {
                if let Ok(other) = self.weapon(id) {
                    held.push((id, self.hands_needed(hands, who, other)?));
                }
            }
            let mut needed = self.hands_needed(hands, who, weapon)?
                + held.iter().map(|(_, needs)| needs).sum::<i64>();
            while needed > hands.count {
                let Some((last, needs)) = held.pop() else {
                    break;
                };
                self.stow_weapon(who, last).map_err(combat_error)?;
                needed -= needs;
            }
        }
        self.ready_weapon(who, id).map_err(combat_error)
    }

    /// The `[[round_start]]` rules, done to `who` as its initiative is about to be rolled.
    pub(in crate::engine) fn round_start(&self, who: usize) -> Result<(), FightError> {
        let Some(combat) = self.combat() else {
            return Ok(());
        };
        self.turn_rules(&combat.turn.round_start, who)
    }

    /// The `[[round_end]]` rules, rule by rule, to each combatant in scenario order.
    pub(in crate::engine) fn round_end(&self) -> Result<(), FightError> {
        let Some(combat) = self.combat() else {
            return Ok(());
        };
        let count = self.core().combatants.len();
        for rule in &combat.turn.round_end {
            for who in 0..count {
                self.turn_rules(std::slice::from_ref(rule), who)?;
            }
        }
        Ok(())
    }

    fn turn_rules(&self, rules: &[TurnRule], who: usize) -> Result<(), FightError> {
        for rule in rules {
            let holds = match &rule.guard {
                Some(guard) => self.evaluate(who, "", |env| env.holds(guard))?,
                None => true,
            };
            if !holds {
                continue;
            }
            self.turn_actions(who, &rule.actions)?;
            if let Some(decision) = rule.decision {
                let mut env = FightEnv::new(self, who);
                if let Some(option) = self.chosen_case(&rule.options, decision, who, &mut env)? {
                    self.turn_actions(who, &option.actions)?;
                }
            }
        }
        Ok(())
    }

    /// What breaks a tie of initiative, highest first (then scenario order): `[turn]
    /// tie_break`, or the hook, or nothing.
    pub(in crate::engine) fn tie_break(&self, who: usize) -> Result<i64, FightError> {
        match self.combat().and_then(|c| c.turn.tie_break.as_ref()) {
            Some(tie_break) => self.evaluate(who, "tie break", |env| env.number_of(tie_break)),
            None if self.has_hook("tie_break") => {
                self.hook_number("tie_break", &[HookArgument::Who(who)])
            }
            None => Ok(0),
        }
    }

    pub(in crate::engine) fn action_budget(&self, who: usize) -> Result<i64, FightError> {
        match self.combat().and_then(|c| c.turn.actions.as_ref()) {
            Some(actions) => self.evaluate(who, "actions", |env| env.number_of(actions)),
            None => self.hook_number("actions", &[HookArgument::Who(who)]),
        }
    }

    pub(in crate::engine) fn is_out_of_fight(&self, who: usize) -> Result<bool, FightError> {
        match self.combat().and_then(|c| c.turn.out_of_fight.as_ref()) {
            Some(out) => self.evaluate(who, "", |env| env.holds(out)),
            None => self.hook_flag("out_of_fight", &[HookArgument::Who(who)]),
        }
    }

    /// Judge everyone still in the fight, in scenario order, by `[turn] out_of_fight`
    /// (or the hook): each it holds for is put out before the next is judged. One
    /// environment for them all, since this is asked after every turn.
    pub(in crate::engine) fn judge_out_of_fight(&self) -> Result<(), FightError> {
        let count = self.core().combatants.len();
        let Some(out) = self.combat().and_then(|c| c.turn.out_of_fight.as_ref()) else {
            for who in 0..count {
                if !self.is_out(who) && self.is_out_of_fight(who)? {
                    self.put_out(who);
                }
            }
            return Ok(());
        };
        let mut env = FightEnv::new(self, 0);
        for who in 0..count {
            env.bound.me = who;
            let judged = env
                .holding(|env| !env.with_core(|core| core.combatants[who].out) && env.holds(out));
            self.fatal()?;
            if judged {
                self.put_out(who);
            }
        }
        Ok(())
    }

    /// The actions `who` may choose now, in the order `combat.toml` lists them; a
    /// ruleset that keeps its `choices` hook offers them there (where its `hooks_if`
    /// holds, if it has one).
    /// `hooks_play` is [`Self::hooks_play`] for this turn.
    pub(in crate::engine) fn offered_actions(
        &self,
        who: usize,
        hooks_play: bool,
    ) -> Result<Vec<Name>, FightError> {
        let native = match self.combat().filter(|c| !c.turn.choices.is_empty()) {
            Some(combat) if !hooks_play => Some(combat),
            _ => None,
        };
        let Some(combat) = native else {
            return self.hook_names("choices", &[HookArgument::Who(who)]);
        };
        // Every guard read under one hold of the fight's state.
        let mut offered = Vec::with_capacity(combat.turn.choices.len());
        self.evaluate(who, "", |env| {
            env.holding(|env| {
                offered.extend(
                    combat
                        .turn
                        .choices
                        .iter()
                        .filter(|action| action.guard.as_ref().is_none_or(|guard| env.holds(guard)))
                        .map(|action| action.name),
                )
            })
        })?;
        Ok(offered)
    }

    /// Whether the ruleset's `choices` and `act` hooks play `who`'s turn now: always
    /// when it has them and no `hooks_if`, where `hooks_if` holds when it has one.
    pub(in crate::engine) fn hooks_play(&self, who: usize) -> Result<bool, FightError> {
        if !self.has_choices_hook() {
            return Ok(false);
        }
        match self.combat().and_then(|c| c.turn.hooks_if.as_ref()) {
            Some(hooks_if) => self.evaluate(who, "", |env| env.holds(hooks_if)),
            None => Ok(true),
        }
    }

    /// The rest of a turn whose first action combat.toml did, where `[turn] more`
    /// holds: while `who` is in the fight, has an action left and a foe still standing
    /// (neither put out nor out of the fight by `out_of_fight` yet), and `more` holds,
    /// it chooses another action and does it, each spent as it is chosen; one that
    /// `ends_turn` (waiting) ends the turn, neither done nor spent. Once the `act` hook
    /// does one, the turn is the hook's: it plays the rest of it.
    pub(in crate::engine) fn more_actions(&self, who: usize) -> Result<(), FightError> {
        let Some(more) = self.combat().and_then(|c| c.turn.more.as_ref()) else {
            return Ok(());
        };
        loop {
            let standing = |at: usize| -> Result<bool, FightError> {
                Ok(!self.is_out(at) && !self.is_out_of_fight(at)?)
            };
            if !standing(who)?
                || self.core().combatants[who].actions_left <= 0
                || self.is_waiting(who)
            {
                return Ok(());
            }
            let mut foe_standing = false;
            for foe in self.opponents(who) {
                if standing(foe)? {
                    foe_standing = true;
                    break;
                }
            }
            if !foe_standing || !self.evaluate(who, "", |env| env.holds(more))? {
                return Ok(());
            }
            let hooks_play = self.hooks_play(who)?;
            let options = self.offered_actions(who, hooks_play)?;
            if options.is_empty() {
                return Ok(());
            }
            let action = self.choose(who, crate::name!("action"), options)?;
            // Waiting (`ends_turn`) after the first action: the turn ends here.
            if self.ends_turn(action) {
                return Ok(());
            }
            self.spend_action(who, action.as_str());
            if !self.act(who, action, hooks_play, false)? {
                return Ok(());
            }
        }
    }

    /// Whether `action` is one of combat.toml's that ends the turn (`ends_turn`): the
    /// turn's first action, done, ends it; a later one ends it undone.
    pub(in crate::engine) fn ends_turn(&self, action: Name) -> bool {
        self.combat().is_some_and(|c| {
            c.turn
                .choices
                .iter()
                .any(|a| a.name == action && a.ends_turn)
        })
    }

    /// A turn action's own actions (`before`, `after`), done to the actor.
    fn turn_actions(&self, who: usize, actions: &[Spanned<Action>]) -> Result<(), FightError> {
        if actions.is_empty() {
            return Ok(());
        }
        let mut env = FightEnv::new(self, who);
        self.perform(who, actions, "turn", &mut env)
    }

    /// Do the action `who` chose: the exchange `combat.toml` names for it, or the `act`
    /// hook. Where the ruleset's hooks play the turn (`hooks_if`), the hook does it;
    /// with a `choices` hook and no `hooks_if`, an action combat.toml names is done
    /// natively where its `if` holds, and by the hook where it does not.
    /// `hooks_play` is [`Self::hooks_play`] for this turn; `first`, whether it is the
    /// turn's first action (combat.toml doing it does `[turn] before_first` first).
    /// Returns whether combat.toml did it: where the hook did, the hook also played the
    /// rest of the turn.
    pub(in crate::engine) fn act(
        &self,
        who: usize,
        action: Name,
        hooks_play: bool,
        first: bool,
    ) -> Result<bool, FightError> {
        let named = self
            .combat()
            .and_then(|c| c.turn.choices.iter().find(|a| a.name == action));
        let by_hooks = self.has_choices_hook();
        let hooks_if = self.combat().is_some_and(|c| c.turn.hooks_if.is_some());
        let native = match named {
            Some(_) if by_hooks && hooks_if && hooks_play => None,
            Some(native) if by_hooks && !hooks_if => match &native.guard {
                Some(guard) => self
                    .evaluate(who, "", |env| env.holds(guard))?
                    .then_some(native),
                None => Some(native),
            },
            named => named,
        };
        match native {
            Some(action) => {
                if first && let Some(combat) = self.combat() {
                    self.turn_actions(who, &combat.turn.before_first)?;
                }
                self.turn_actions(who, &action.before)?;
                if let Some(decision) = action.decision {
                    let mut env = FightEnv::new(self, who);
                    if let Some(option) =
                        self.chosen_case(&action.options, decision, who, &mut env)?
                    {
                        self.turn_actions(who, &option.actions)?;
                    }
                }
                if let Some(exchange) = action.exchange {
                    self.run_exchange(who, exchange, action.targets.as_ref(), &action.locations)?;
                }
                self.turn_actions(who, &action.after)?;
                Ok(true)
            }
            None => self
                .hook(
                    "act",
                    &[
                        HookArgument::Who(who),
                        HookArgument::Text(action.to_string()),
                    ],
                )
                .map(|_| false),
        }
    }
}
