//! An exchange's stages, in order: the target, the defender's reaction (declared before
//! the roll), the attack, the defence, the outcome, the effects the winner buys, the
//! strike (damage, parry reduction, location, armour, the wound), the effects' actions
//! and the `after` rules; and the tests an action makes within it (`resist`, `test`,
//! `contest`).

use std::slice;

use super::super::reads::TestResult;
use super::super::reads::{Who, held, weapon as weapon_of};
use super::super::state::WeaponPlace;
use super::super::{FightError, FightHandle, ScriptCall};
use super::env::FightEnv;
use super::test::roll_test;
use super::{
    AfterTime, BareHands, Case, Combat, Compare, EffectTime, EffectsStage, Exchange,
    ExchangeContext, Knockback, Party, Reaction, ReactionWeapon, Role, SkillLabel, TestKind,
};
use crate::engine::model::Weapon;
use crate::expr::{Condition, Number};
use crate::log::Event;
use crate::names::Name;
use crate::source::Spanned;
use crate::tables::{Action, ActionExpr, ActionGuard, Amount, Duration, Length};

impl FightHandle {
    /// `attacker` runs the exchange `index` of `combat.toml` against a target it chooses
    /// among its foes, those for which `targets` holds where the action has one (none
    /// left: the exchange is not run); with `locations` (a called location), it then
    /// chooses among them where the blow is aimed.
    pub(in crate::engine) fn run_exchange(
        &self,
        attacker: usize,
        index: usize,
        targets: Option<&Condition>,
        locations: &[Name],
    ) -> Result<(), FightError> {
        if self.combat().is_none() {
            return Ok(());
        }
        let mut foes = self.opponents(attacker);
        if let Some(targets) = targets {
            foes = self.evaluate(attacker, "", |env| {
                env.holding(|env| {
                    foes.into_iter()
                        .filter(|&foe| {
                            env.bound.other = Some(foe);
                            env.holds(targets)
                        })
                        .collect()
                })
            })?;
        }
        if foes.is_empty() {
            return Ok(());
        }
        let names: Vec<Name> = foes.iter().map(|&foe| self.name(foe)).collect();
        let chosen = self.choose(attacker, crate::name!("target"), names)?;
        let defender = foes
            .iter()
            .copied()
            .find(|&foe| self.name(foe) == chosen)
            .unwrap_or(foes[0]);
        let called = match locations {
            [] => None,
            _ => Some(self.choose(attacker, crate::name!("location"), locations.to_vec())?),
        };
        self.exchange_against(attacker, defender, index, 0, called)
    }

    /// `strike EXCHANGE`, done to `who` by a rule of the exchange `env` runs: `who` runs
    /// the exchange named now, as its attacker, against the other party of this one (no
    /// target chosen, no action spent), in an environment of its own, so that this
    /// exchange goes on as it was; one level deeper than this one, at most `[limits]
    /// nested_exchanges` deep.
    fn strike_within(
        &self,
        who: usize,
        exchange: Name,
        why: Option<&str>,
        env: &FightEnv<'_>,
    ) -> Result<(), FightError> {
        let Some(combat) = self.combat() else {
            return Ok(());
        };
        // Checked at load: the exchange is one of combat.toml's.
        let Some(index) = combat.exchanges.iter().position(|e| e.name == exchange) else {
            return Err(self.combat_error(format!(
                "`strike {exchange}`: combat.toml has no exchange `{exchange}`"
            )));
        };
        let (attacker, defender) = env.bound.parties();
        let target = if who == attacker { defender } else { attacker };
        if target == who {
            return Ok(());
        }
        let depth = env.depth + 1;
        let limit = self.0.ruleset.settings.limits.nested_exchanges;
        if depth > limit {
            return Err(FightError::Limit {
                what: "exchanges run one inside another",
                key: "nested_exchanges",
                limit,
                round: self.core().round,
            });
        }
        self.note(|| {
            format!(
                "{} strikes at {} ({})",
                self.name(who),
                self.name(target),
                why.unwrap_or(exchange.as_str())
            )
        });
        self.exchange_against(who, target, index, depth, None)
    }

    /// `attacker` runs the exchange `index` of `combat.toml` against `defender`, nested
    /// `depth` exchanges deep, aimed at the location `called` if one was called.
    fn exchange_against(
        &self,
        attacker: usize,
        defender: usize,
        index: usize,
        depth: u64,
        called: Option<Name>,
    ) -> Result<(), FightError> {
        let Some(combat) = self.combat() else {
            return Ok(());
        };
        let exchange: &Exchange = &combat.exchanges[index];
        let (weapon, bare_hands) = self.attacking_weapon(exchange, attacker)?;
        let mut env = FightEnv::new(self, attacker);
        env.depth = depth;
        env.bound.other = Some(defender);
        env.bound.item = weapon;
        env.bound.location_of = Some(defender);
        env.pool = exchange.pool;
        env.effects = exchange.effects.as_ref();
        // A called location is known from the start: the tests and the reactions read it.
        if called.is_some() {
            env.bound.location = called;
            env.called = true;
        }

        // What comes before the defence is declared (closing in on the target).
        self.after_rules(exchange, AfterTime::Target, &mut env)?;
        // "The intention to parry must be declared before any attack roll is made."
        // (Or, `reactions_after`, once the attack is rolled.)
        let declared = match exchange.reactions_after {
            None => self.react(exchange, defender, false, &mut env)?,
            Some(_) => None,
        };
        // A defence rolled as it is declared: its `do` may keep its total for the
        // attack's `target` to read.
        let defended_first = match declared {
            Some(reaction) if reaction.before_attack => {
                Some(self.defend(combat, reaction, defender, &mut env)?)
            }
            _ => None,
        };

        let test = &combat.tests[bare_hands.map_or(exchange.test, |bare| bare.test)];
        // Bare hands are tested as their own test kind, and logged under its name.
        let label = match bare_hands {
            Some(_) => test.name,
            None => self.test_label(test, attacker, weapon, exchange.label),
        };
        env.purpose = with_weapon_name(exchange.label, weapon).as_str();
        env.bound.attacking = true;
        let attack = self.rolled_test(combat, test, Some(label), &mut env);
        env.bound.attacking = false;
        let attack = attack?;
        env.bound.exploding_dice[0] = env.exploding_die;
        env.bound.attack = Some(attack);
        // Where the defence depends on where the blow falls, the location is found now,
        // before the defence, which may read it.
        if exchange.location_at_attack
            && !env.called
            && exchange
                .reactions_after
                .as_ref()
                .is_none_or(|after| env.holds(after))
        {
            env.bound.location = Some(self.locate(exchange, defender, &mut env)?);
        }
        // What comes once the attack is seen, before a reaction declared after it.
        self.after_rules(exchange, AfterTime::Attack, &mut env)?;

        let reaction = match &exchange.reactions_after {
            None => self.complete(declared, defender, &mut env)?,
            Some(after) if env.holds(after) => self.react(exchange, defender, true, &mut env)?,
            Some(_) => None,
        };
        env.bound.defence = match reaction {
            Some(_) if defended_first.is_some() => defended_first,
            Some(reaction) => Some(self.defend(combat, reaction, defender, &mut env)?),
            None => exchange.unopposed.map(|level| TestResult {
                level,
                ..TestResult::default()
            }),
        };
        // Targets over a test kind's `excess_over`: the attack and the defence rolled
        // against it are read again.
        if let (Some(reaction), Some(mut attack), Some(mut defence)) =
            (reaction, env.bound.attack, env.bound.defence)
            && (test.excess_over.is_some()
                || combat.tests[reaction.test].excess_over.is_some()
                || reaction
                    .bare_hands
                    .as_ref()
                    .is_some_and(|bare| combat.tests[bare.test].excess_over.is_some()))
        {
            let (_, kind, _) = self.defence_with(combat, reaction, defender);
            self.lower_excess(
                combat,
                (test, &mut attack, attacker),
                (kind, &mut defence, defender),
                &mut env,
            )?;
            (env.bound.attack, env.bound.defence) = (Some(attack), Some(defence));
        }
        let against = match reaction {
            Some(reaction) => self.roll_again(combat, test, reaction, defender, &mut env)?,
            None => attack,
        };
        env.bound.against_level = Some(against.level);
        if let (Some(outcome), Some(defence)) = (&exchange.outcome, env.bound.defence) {
            env.bound.outcome =
                outcome.cells[defence.level as usize * outcome.levels + against.level as usize];
        }
        if let (Some(results), Some(defence)) =
            (reaction.and_then(|r| r.results.as_ref()), env.bound.defence)
        {
            let cell =
                &results.cells[defence.level as usize * results.levels + against.level as usize];
            self.note(|| format!("{} table: {}", results.table, cell.text));
            env.bound.result = Some(cell);
        }

        if let Some(stage) = &exchange.effects {
            if let Some(bonus) = &stage.bonus {
                self.bonus_levels(bonus, attacker, &mut env)?;
            }
            self.choose_effects(stage, attacker, defender, &mut env)?;
        }
        self.after_rules(exchange, AfterTime::Outcome, &mut env)?;

        if env.holds(&exchange.hits) {
            self.strike(exchange, defender, &mut env)?;
        }

        self.effects_at(exchange, EffectTime::After, &mut env)?;
        // A wound judged at the blow, logged and done once the effects are.
        if let Some((found, seat)) = env.deferred_wound.take() {
            self.judged_wound(exchange, defender, found, seat, &mut env)?;
        }

        self.after_rules(exchange, AfterTime::End, &mut env)
    }

    /// The `after` rules done at `at`, in order, where their guards hold.
    fn after_rules<'f>(
        &'f self,
        exchange: &'f Exchange,
        at: AfterTime,
        env: &mut FightEnv<'f>,
    ) -> Result<(), FightError> {
        let (attacker, defender) = env.bound.parties();
        let mut rules = exchange.after.iter().filter(|rule| rule.at == at);
        // The guards up to the next that holds read under one hold of the state; the
        // actions change it, so it is let go for them.
        while let Some(rule) = env.holding(|env| rules.find(|rule| env.holds(&rule.guard))) {
            let whom = match rule.to {
                Role::Attacker => attacker,
                Role::Defender => defender,
            };
            // As many times as `repeat` says (read once), while the guard holds; each
            // time the actions, then the option the party chooses where it has a decision.
            let times = match &rule.repeat {
                None => 1,
                Some(repeat) => {
                    let times = env.number_of(repeat);
                    self.fatal()?;
                    times
                }
            };
            for time in 0..times {
                if time > 0 && !env.holds(&rule.guard) {
                    break;
                }
                self.perform(whom, &rule.actions, &exchange.name, env)?;
                if let Some(decision) = rule.decision
                    && let Some(option) = self.chosen_case(&rule.options, decision, whom, env)?
                {
                    self.perform(whom, &option.actions, &exchange.name, env)?;
                }
            }
        }
        Ok(())
    }

    /// The reaction stage: the reactions whose guard holds and whose cost the defender
    /// can pay are offered with `none`; the chosen one is paid for (one declared before
    /// the attack roll that may be withdrawn, once the attack is seen).
    fn react<'c>(
        &self,
        exchange: &'c Exchange,
        defender: usize,
        after_attack: bool,
        env: &mut FightEnv<'_>,
    ) -> Result<Option<&'c Reaction>, FightError> {
        if exchange.reactions.is_empty() {
            return Ok(None);
        }
        let left = self.actions_left(defender);
        // Room for `none` too: one allocation.
        let mut options: Vec<Name> = Vec::with_capacity(exchange.reactions.len() + 1);
        env.holding(|env| {
            options.extend(
                exchange
                    .reactions
                    .iter()
                    .filter(|reaction| {
                        let affordable = reaction.cost <= left
                            || reaction.free.as_ref().is_some_and(|free| env.holds(free));
                        affordable && reaction.guard.as_ref().is_none_or(|guard| env.holds(guard))
                    })
                    .map(|reaction| reaction.name),
            )
        });
        if options.is_empty() {
            return Ok(None);
        }
        options.push(crate::name!("none"));
        let chosen = self.choose(defender, exchange.reaction_decision, options)?;
        let Some(at) = exchange.reactions.iter().position(|r| r.name == chosen) else {
            return Ok(None);
        };
        let reaction = &exchange.reactions[at];
        // One the defender may withdraw is paid for once the attack is seen.
        if reaction.withdraw.is_none() || after_attack {
            self.pay(defender, reaction, env);
        }
        env.bound.reaction = Some(at as u32);
        Ok(Some(reaction))
    }

    /// Spend the reaction's cost, unless its `free` holds.
    fn pay(&self, defender: usize, reaction: &Reaction, env: &mut FightEnv<'_>) {
        if reaction.free.as_ref().is_some_and(|free| env.holds(free)) {
            return;
        }
        for _ in 0..reaction.cost {
            self.spend_action(defender, &reaction.name);
        }
    }

    /// Once the attack is rolled: whether the defender goes on with a reaction it may
    /// withdraw (where its `withdraw` holds, decision `withdraw_NAME`), paid for then.
    fn complete<'c>(
        &self,
        reaction: Option<&'c Reaction>,
        defender: usize,
        env: &mut FightEnv<'_>,
    ) -> Result<Option<&'c Reaction>, FightError> {
        let Some(reaction) = reaction else {
            return Ok(None);
        };
        let Some(withdraw) = &reaction.withdraw else {
            return Ok(Some(reaction));
        };
        if env.holds(withdraw) {
            let withdraw = crate::name!("withdraw");
            let options = vec![crate::name!("complete"), withdraw];
            if self.choose(defender, reaction.withdraw_decision, options)? == withdraw {
                env.bound.reaction = None;
                return Ok(None);
            }
        }
        self.pay(defender, reaction, env);
        Ok(Some(reaction))
    }

    /// The effects stage: the winner chooses, one at a time, among the effects its role,
    /// its result, its weapon and what it has chosen already make available.
    fn choose_effects(
        &self,
        stage: &EffectsStage,
        attacker: usize,
        defender: usize,
        env: &mut FightEnv<'_>,
    ) -> Result<(), FightError> {
        let Some((attacker_won, levels)) = env.bound.outcome else {
            return Ok(());
        };
        let count = match &stage.count {
            Some(count) => env.number_of(count),
            None => i64::from(levels),
        };
        let (winner, item) = if attacker_won {
            (attacker, env.bound.item)
        } else {
            (defender, env.bound.parry)
        };
        let level_of = |test: Option<TestResult>| test.map_or(u32::MAX, |t| t.level);
        let (own, theirs) = if attacker_won {
            (level_of(env.bound.attack), level_of(env.bound.defence))
        } else {
            (level_of(env.bound.defence), level_of(env.bound.attack))
        };
        for _ in 0..count {
            let chosen = env.bound.chosen;
            let mut options: Vec<Name> = Vec::with_capacity(stage.effects.len());
            env.holding(|env| {
                options.extend(
                    stage
                        .effects
                        .iter()
                        .enumerate()
                        .filter(|(_, e)| {
                            if attacker_won {
                                e.offensive
                            } else {
                                e.defensive
                            }
                        })
                        .filter(|(_, e)| {
                            e.requires.is_none_or(|(opponent, level)| {
                                level == if opponent { theirs } else { own }
                            })
                        })
                        .filter(|(_, e)| {
                            e.traits.is_empty()
                                || item
                                    .is_some_and(|w| e.traits.iter().any(|t| w.traits.contains(t)))
                        })
                        .filter(|(at, e)| e.stackable || chosen[*at] == 0)
                        .filter(|(_, e)| {
                            e.offered.as_ref().is_none_or(|offered| env.holds(offered))
                        })
                        .map(|(_, e)| e.name),
                )
            });
            if options.is_empty() {
                break;
            }
            let name = self.choose(winner, stage.decision, options)?;
            if let Some(at) = stage.effects.iter().position(|e| e.name == name) {
                env.bound.chosen[at] = env.bound.chosen[at].saturating_add(1);
            }
        }
        Ok(())
    }

    /// The effects' `bonus`: levels the attacker gains unless the defender won the
    /// outcome, which makes the attacker its winner.
    fn bonus_levels(
        &self,
        bonus: &Number,
        attacker: usize,
        env: &mut FightEnv<'_>,
    ) -> Result<(), FightError> {
        if matches!(env.bound.outcome, Some((false, _))) {
            return Ok(());
        }
        let gained = env.number_of(bonus);
        self.fatal()?;
        let Ok(gained) = u32::try_from(gained) else {
            return Ok(());
        };
        if gained == 0 {
            return Ok(());
        }
        let won = env.bound.outcome.map_or(0, |(_, levels)| levels);
        env.bound.outcome = Some((true, won.saturating_add(gained)));
        self.note(|| {
            let s = if gained == 1 { "" } else { "s" };
            format!("{} gains {gained} bonus level{s}", self.name(attacker))
        });
        Ok(())
    }

    /// The defender's test for its reaction, with itself as `self` and the weapon it
    /// reacts with; logged under the reaction's name.
    fn defend<'f>(
        &'f self,
        combat: &'f Combat,
        reaction: &'f Reaction,
        defender: usize,
        env: &mut FightEnv<'f>,
    ) -> Result<TestResult, FightError> {
        let (weapon, test, label) = self.defence_with(combat, reaction, defender);
        env.bound.parry = weapon;
        if !reaction.before.is_empty() {
            self.perform(defender, &reaction.before, &reaction.name, env)?;
        }
        let attacker = env.bound.me;
        let as_test = !reaction.total_only;
        let result = self.roll_for(
            combat,
            test,
            (defender, attacker),
            weapon,
            (label, as_test),
            env,
        )?;
        env.bound.exploding_dice[1] = env.exploding_die;
        if !reaction.actions.is_empty() {
            let saved = env.bound.defence.replace(result);
            self.perform(defender, &reaction.actions, &reaction.name, env)?;
            env.bound.defence = saved;
        }
        Ok(result)
    }

    /// What the defender makes its reaction with, the test kind, and what it is logged
    /// under: the weapon the reaction finds in hand; with nothing in hand, bare hands,
    /// tested as their own test kind and logged under its name.
    fn defence_with<'f>(
        &'f self,
        combat: &'f Combat,
        reaction: &'f Reaction,
        defender: usize,
    ) -> (Option<&'f Weapon>, &'f TestKind, Name) {
        let found = self.weapon_for(&reaction.weapon, defender);
        match (&reaction.bare_hands, found) {
            (Some(bare), None) if reaction.weapon != ReactionWeapon::Nothing => {
                let test = &combat.tests[bare.test];
                let weapon = self.ruleset().equipment.weapons.get(&bare.weapon);
                (weapon, test, test.name)
            }
            _ => (found, &combat.tests[reaction.test], reaction.label),
        }
    }

    /// Two tests rolled against each other whose higher target is over `excess_over`
    /// (of the first kind, else the second's): the excess comes off both targets, and
    /// each is read again ("skills over 100%": the rolls stand, the levels may not).
    fn lower_excess<'f>(
        &'f self,
        combat: &'f Combat,
        (kind, mine, who): (&'f TestKind, &mut TestResult, usize),
        (other_kind, theirs, other): (&'f TestKind, &mut TestResult, usize),
        env: &mut FightEnv<'f>,
    ) -> Result<(), FightError> {
        let Some(limit) = kind.excess_over.or(other_kind.excess_over) else {
            return Ok(());
        };
        let excess = mine.target.max(theirs.target) - limit;
        if excess <= 0 {
            return Ok(());
        }
        let saved = (env.bound.me, env.bound.other);
        for (kind, test, (me, them)) in [
            (kind, &mut *mine, (who, other)),
            (other_kind, &mut *theirs, (other, who)),
        ] {
            // The levels read the exact roll (an enumeration draws it now).
            self.core().refine(test)?;
            test.target -= excess;
            (env.bound.me, env.bound.other) = (me, Some(them));
            test.level = super::test::level_again(kind, *test, env);
        }
        (env.bound.me, env.bound.other) = saved;
        self.fatal()?;
        let levels = &combat.vocabulary.success_levels;
        self.note(|| {
            format!(
                "targets over {limit}: both lowered by {excess} ({} {}, {} {})",
                self.name(who),
                levels[mine.level as usize],
                self.name(other),
                levels[theirs.level as usize],
            )
        });
        Ok(())
    }

    /// The attacker's roll against the defence, where the reaction's
    /// `attacker_rolls_again` holds: its attack test again, logged as "against the
    /// REACTION"; else the attack roll itself.
    fn roll_again<'f>(
        &'f self,
        combat: &'f Combat,
        test: &'f TestKind,
        reaction: &'f Reaction,
        defender: usize,
        env: &mut FightEnv<'f>,
    ) -> Result<TestResult, FightError> {
        let attack = env.bound.attack.unwrap_or_default();
        if !reaction
            .again
            .as_ref()
            .is_some_and(|again| env.holds(again))
        {
            return Ok(attack);
        }
        let (attacker, weapon) = (env.bound.me, env.bound.item);
        env.bound.attacking = true;
        let result = self.roll_for(
            combat,
            test,
            (attacker, defender),
            weapon,
            (reaction.again_label, true),
            env,
        );
        env.bound.attacking = false;
        result
    }

    /// Roll the test kind `kind` for `who` against `opponent` (`self` and `other`) with
    /// `weapon`, its dice labelled `label` and the test logged under it (`as_test`; its
    /// dice only otherwise: a total the rules keep rather than a test); the exchange's
    /// own bindings are back afterwards.
    fn roll_for<'f>(
        &'f self,
        combat: &'f Combat,
        kind: &'f TestKind,
        (who, opponent): (usize, usize),
        weapon: Option<&'f Weapon>,
        (label, as_test): (Name, bool),
        env: &mut FightEnv<'f>,
    ) -> Result<TestResult, FightError> {
        let saved = (
            env.bound.me,
            env.bound.other,
            env.bound.item,
            env.bound.test,
        );
        env.bound.me = who;
        env.bound.other = Some(opponent);
        env.bound.item = weapon;
        let label = with_weapon_name(label, weapon);
        env.purpose = label.as_str();
        let logged = as_test.then(|| self.test_label(kind, who, weapon, label));
        let result = self.rolled_test(combat, kind, logged, env);
        (
            env.bound.me,
            env.bound.other,
            env.bound.item,
            env.bound.test,
        ) = saved;
        result
    }

    /// Roll a test of `kind` for the combatant `env` binds as `self`, logged under
    /// `label` (not logged as a test without one); then its `reroll`, where its guard holds of the roll and the tester
    /// takes it (decision): the option's actions first, then a second roll, which
    /// stands and is logged too.
    fn rolled_test<'f>(
        &'f self,
        combat: &'f Combat,
        kind: &'f TestKind,
        label: Option<Name>,
        env: &mut FightEnv<'f>,
    ) -> Result<TestResult, FightError> {
        let who = env.bound.me;
        let log = |result: &TestResult| {
            if let Some(label) = label {
                let level = combat.vocabulary.success_levels[result.level as usize];
                let margin = kind.log_margin.then(|| result.target - result.total);
                self.log_test_with_margin(who, label, result.target, result.total, level, margin);
            }
        };
        let mut result = roll_test(kind, env);
        self.fatal()?;
        // The margin logged is the roll's own: a roll drawn by its level alone (an
        // enumeration) is drawn first.
        if kind.log_margin && label.is_some() {
            self.core().refine(&mut result)?;
        }
        log(&result);
        let Some(reroll) = &kind.reroll else {
            return Ok(result);
        };
        env.bound.test = result;
        let holds = env.holds(&reroll.guard);
        self.fatal()?;
        if !holds {
            return Ok(result);
        }
        let purpose = env.purpose;
        let chosen = self.chosen_case(&reroll.options, reroll.decision, who, env)?;
        let Some(again) = chosen.filter(|case| std::ptr::eq(*case, &reroll.options[0])) else {
            return Ok(result);
        };
        self.perform(who, &again.actions, kind.name.as_str(), env)?;
        env.purpose = purpose;
        let result = roll_test(kind, env);
        self.fatal()?;
        log(&result);
        Ok(result)
    }

    /// The weapon `attacker` strikes with in `exchange`, and whether it is bare hands:
    /// the one `weapon` finds in hand; failing that, with `bare_hands`, a choice among
    /// what is in hand and bare hands (decision `weapon`), or bare hands when the hands
    /// are empty.
    fn attacking_weapon<'f>(
        &'f self,
        exchange: &'f Exchange,
        attacker: usize,
    ) -> Result<(Option<&'f Weapon>, Option<&'f BareHands>), FightError> {
        if exchange.choose_weapon
            && let Some(chosen) = self.chosen_weapon(&exchange.weapon, attacker)?
        {
            return Ok((Some(chosen), None));
        }
        let found = self.weapon_for(&exchange.weapon, attacker);
        let Some(bare) = &exchange.bare_hands else {
            return Ok((found, None));
        };
        if found.is_some_and(|weapon| exchange.weapon.fits(weapon)) {
            return Ok((found, None));
        }
        let equipment = &self.ruleset().equipment;
        let bare_weapon = equipment.weapons.get(&bare.weapon);
        let in_hand: Vec<Name> = self.weapons(attacker);
        if in_hand.is_empty() {
            return Ok((bare_weapon, Some(bare)));
        }
        let mut options = in_hand;
        // The option that stands for fighting with bare hands.
        options.push(crate::name!("bare_hands"));
        let chosen = self.choose(attacker, crate::name!("weapon"), options)?;
        if chosen == crate::name!("bare_hands") {
            return Ok((bare_weapon, Some(bare)));
        }
        let weapon = equipment
            .weapons
            .get(&chosen)
            .or_else(|| equipment.shields.get(&chosen));
        Ok((weapon.or(found), None))
    }

    /// What `who` makes a reaction or an attack with, as `choice` says.
    fn weapon_for<'f>(&'f self, choice: &ReactionWeapon, who: usize) -> Option<&'f Weapon> {
        let core = self.core();
        let equipment = &self.ruleset().equipment;
        let in_hand = |at| held(&core, equipment, who, at);
        match choice {
            ReactionWeapon::Nothing => None,
            _ => (0..)
                .map_while(in_hand)
                .find(|weapon| choice.fits(weapon))
                .or_else(|| in_hand(0)),
        }
    }

    /// With two or more weapons in hand that `choice` looks for, the one `who` chooses
    /// among them (decision `weapon`); `None` with fewer.
    fn chosen_weapon<'f>(
        &'f self,
        choice: &ReactionWeapon,
        who: usize,
    ) -> Result<Option<&'f Weapon>, FightError> {
        let equipment = &self.ruleset().equipment;
        // Counted first, so that the common case (one) makes no list.
        if fitting_in_hand(&self.core(), equipment, who, choice)
            .nth(1)
            .is_none()
        {
            return Ok(None);
        }
        let fitting: Vec<(Name, &'f Weapon)> = {
            let core = self.core();
            fitting_in_hand(&core, equipment, who, choice).collect()
        };
        let options = fitting.iter().map(|(id, _)| *id).collect();
        let chosen = self.choose(who, crate::name!("weapon"), options)?;
        Ok(fitting
            .iter()
            .find(|(id, _)| *id == chosen)
            .map(|(_, weapon)| *weapon))
    }

    /// What a test of `kind` by `who` with `weapon` is logged under: the skill its
    /// `skill_of` statistic names (the first skill listed when not given) or the
    /// weapon names, else `label`.
    fn test_label(
        &self,
        kind: &TestKind,
        who: usize,
        weapon: Option<&Weapon>,
        label: Name,
    ) -> Name {
        let statistic = match kind.skill_of {
            None => return with_weapon_name(label, weapon),
            Some(SkillLabel::Weapon) => return weapon.and_then(|w| w.skill).unwrap_or(label),
            Some(SkillLabel::Statistic(statistic)) => statistic,
        };
        let core = self.core();
        let combatant = &core.combatants[who];
        match combatant.statistic(statistic) {
            Some(crate::engine::model::Statistic::Text(skill)) => *skill,
            _ => combatant
                .spec
                .skills
                .keys()
                .next()
                .copied()
                .unwrap_or(label),
        }
    }

    /// A blow that lands: its damage, the location, armour, the damage taken and the
    /// first wound threshold it reaches.
    fn strike<'f>(
        &'f self,
        exchange: &'f Exchange,
        defender: usize,
        env: &mut FightEnv<'f>,
    ) -> Result<(), FightError> {
        let Some(damage) = &exchange.damage else {
            return Ok(());
        };
        if self.instead_of_damage(exchange, defender, env)? {
            return Ok(());
        }
        env.purpose = "damage";
        let rolled = env.number_of(damage);
        self.fatal()?;
        env.bound.rolled = rolled;
        if exchange.location_at_damage && !env.called {
            env.bound.location = Some(self.locate(exchange, defender, env)?);
        }
        let deflected = match &exchange.reduction {
            Some(reduction) => env.number_of(reduction).clamp(0, rolled.max(0)),
            None => 0,
        };
        if deflected > 0 {
            self.emit(|| Event::Deflected {
                who: self.name(defender),
                amount: deflected,
            });
        }
        // What reaches the location, for the armour to read as `damage`.
        env.bound.reached = (rolled - deflected).max(0);
        env.bound.damage = env.bound.reached;
        // A blow the defence takes whole lands nowhere; it may still force the defender
        // back (knockback counts the damage as rolled).
        if env.bound.reached > 0 {
            self.land(exchange, defender, env)?;
        } else {
            env.bound.damage = 0;
        }
        match &exchange.knockback {
            Some(knockback) if !knockback.before_armour => {
                self.knock_back(knockback, defender, env)
            }
            _ => Ok(()),
        }
    }

    /// Where its guard holds, the defender is forced back and the knockback's actions
    /// befall it.
    fn knock_back<'f>(
        &'f self,
        knockback: &'f Knockback,
        defender: usize,
        env: &mut FightEnv<'f>,
    ) -> Result<(), FightError> {
        if !env.holds(&knockback.guard) {
            return Ok(());
        }
        let metres = env.number_of(&knockback.metres);
        self.emit(|| Event::Knockback {
            who: self.name(defender),
            metres,
        });
        self.perform(defender, &knockback.actions, "knockback", env)
    }

    /// Where the exchange's `instead` holds, the attacker's choice between the damage
    /// and what its options do instead; whether one of them was done.
    fn instead_of_damage<'f>(
        &'f self,
        exchange: &'f Exchange,
        defender: usize,
        env: &mut FightEnv<'f>,
    ) -> Result<bool, FightError> {
        let Some(instead) = &exchange.instead else {
            return Ok(false);
        };
        if !env.holds(&instead.guard) {
            return Ok(false);
        }
        // The option that keeps the blow's damage.
        let mut options = vec![crate::name!("damage")];
        for option in &instead.options {
            if option.guard.as_ref().is_none_or(|guard| env.holds(guard)) {
                options.push(option.name);
            }
        }
        if options.len() == 1 {
            return Ok(false);
        }
        let chosen = self.choose(env.bound.me, instead.decision, options)?;
        let Some(option) = instead.options.iter().find(|o| o.name == chosen) else {
            return Ok(false);
        };
        if option.locate && !exchange.location_at_attack && !env.called {
            env.bound.location = Some(self.locate(exchange, defender, env)?);
        }
        self.perform(defender, &option.actions, &option.name, env)?;
        Ok(true)
    }

    /// Where a blow lands: chosen by the attacker (`choose_location`) or the defender
    /// (`redirect_location`), else rolled on the table; the pool `total` without a table.
    fn locate<'f>(
        &'f self,
        exchange: &'f Exchange,
        defender: usize,
        env: &mut FightEnv<'f>,
    ) -> Result<Name, FightError> {
        let holds = |guard: &Option<crate::expr::Condition>, env: &mut FightEnv<'f>| {
            guard.as_ref().is_some_and(|guard| env.holds(guard))
        };
        // Who picks where the blow lands: the attacker, else the defender, else the
        // table's die.
        let chooser = if holds(&exchange.choose_location, env) {
            Some((env.bound.me, crate::name!("location")))
        } else if holds(&exchange.redirect_location, env) {
            Some((defender, crate::name!("redirect_location")))
        } else {
            None
        };
        let location = match &exchange.location {
            Some(_) if chooser.is_some() => {
                let (who, decision) = chooser.unwrap_or((defender, crate::name!("location")));
                self.choose(who, decision, exchange.locations.clone())?
            }
            Some(table) => {
                let rolled = self.roll_table(Some(defender), table, 0);
                self.fatal()?;
                let (row, _) = rolled.map_err(|message| self.combat_error(message))?;
                self.location_named(defender, row.name())
            }
            // Without a location stage, a blow goes to the pool.
            None => crate::name!("total"),
        };
        Ok(location)
    }

    /// The part of a blow that gets past the defence: the location, the armour, the
    /// damage taken, the effects done at the blow, the wound and the `after` rules done
    /// once it is judged.
    fn land<'f>(
        &'f self,
        exchange: &'f Exchange,
        defender: usize,
        env: &mut FightEnv<'f>,
    ) -> Result<(), FightError> {
        // Found already once the attack was rolled, where the exchange says so, or
        // called with the action.
        let location =
            match env.bound.location.filter(|_| {
                exchange.location_at_attack || exchange.location_at_damage || env.called
            }) {
                Some(location) => location,
                None => self.locate(exchange, defender, env)?,
            };
        env.bound.location = Some(location);
        // Where its hit points and wounds are kept: a called location the exchange has
        // no table for is a place of the blow's rules alone (its damage, its effects),
        // and the blow goes to the pool, as it does without a location stage.
        let seat = if env.called && exchange.location.is_none() {
            crate::name!("total")
        } else {
            location
        };
        if let Some(knockback) = exchange.knockback.as_ref().filter(|k| k.before_armour) {
            self.knock_back(knockback, defender, env)?;
        }
        // The armour's dice, where it rolls some, are the defender's, for the armour.
        let absorbed = match &exchange.armour {
            Some(armour) => {
                let purpose = std::mem::replace(&mut env.purpose, "armour");
                env.roller = Some(defender);
                let absorbed = env.number_of(armour).max(0);
                (env.roller, env.purpose) = (None, purpose);
                absorbed
            }
            None => 0,
        };
        let mut taken = (env.bound.reached - absorbed).max(0);
        env.bound.damage = taken;
        // What the defender takes of what gets through the armour.
        if let Some(injury) = &exchange.injury {
            taken = env.number_of(injury).max(0);
            self.fatal()?;
            env.bound.damage = taken;
        }
        // Off the location's hit points (or the pool's), unless the exchange judges
        // wounds on what gets through alone (`take`): then what the blow did against
        // the armour is logged, as taking hit points would be.
        if exchange.take.as_ref().is_none_or(|take| env.holds(take)) {
            if taken > 0 {
                self.damage(defender, exchange.pool.unwrap_or(seat), taken)
                    .map_err(|message| self.combat_error(message))?;
            }
        } else {
            let (who, damage) = (self.name(defender), env.bound.reached);
            self.emit(|| Event::AgainstArmour {
                who,
                damage,
                armour: absorbed,
                through: taken,
            });
        }
        self.effects_at(exchange, EffectTime::Blow, env)?;
        // The armour took it all: no wound to judge (a location already hurt is not
        // hurt again).
        if taken == 0 {
            return Ok(());
        }
        let found = env.holding(|env| exchange.wounds.iter().position(|w| env.holds(&w.guard)));
        let found = found.filter(|&at| {
            !exchange.wounds_once_per_location || self.worsens(exchange, defender, seat, at)
        });
        if exchange.wounds_after_effects {
            env.deferred_wound = Some((found, seat));
            return Ok(());
        }
        self.judged_wound(exchange, defender, found, seat, env)
    }

    /// The wound `found` (a place in the exchange's `wounds`, if one holds) at `seat`:
    /// logged, its actions done to the defender; then the `after` rules at `wound`.
    fn judged_wound<'f>(
        &'f self,
        exchange: &'f Exchange,
        defender: usize,
        found: Option<usize>,
        seat: Name,
        env: &mut FightEnv<'f>,
    ) -> Result<(), FightError> {
        if let Some(at) = found {
            let wound = &exchange.wounds[at];
            env.bound.wound = Some(wound.symbol);
            // Without a location table the wound is the whole character's, as its
            // damage is the pool's.
            let wounded = exchange.location.is_some().then_some(seat);
            self.wound(defender, wounded, wound.level)
                .map_err(|message| self.combat_error(message))?;
            self.perform(defender, &wound.actions, &wound.level, env)?;
        }
        self.after_rules(exchange, AfterTime::Wound, env)
    }

    /// Whether the wound `at` (a place in the exchange's list, the first the worst) is
    /// worse than the worst `location` of `who` has had; if so, it is now the worst.
    fn worsens(&self, exchange: &Exchange, who: usize, location: Name, at: usize) -> bool {
        let mut core = self.core();
        let Some(place) = core.combatants[who].locations.get_mut(&location) else {
            return true;
        };
        let worst = place
            .worst_wound
            .and_then(|level| exchange.wounds.iter().position(|w| w.level == level));
        if worst.is_some_and(|worst| worst <= at) {
            return false;
        }
        place.worst_wound = Some(exchange.wounds[at].level);
        true
    }

    /// The chosen effects' actions whose time is `at`, in the list's order, once for
    /// each time an effect was chosen, to the party it names, where its guard holds.
    fn effects_at<'f>(
        &'f self,
        exchange: &'f Exchange,
        at: EffectTime,
        env: &mut FightEnv<'f>,
    ) -> Result<(), FightError> {
        let (Some(stage), Some((attacker_won, _))) = (&exchange.effects, env.bound.outcome) else {
            return Ok(());
        };
        let (attacker, defender) = env.bound.parties();
        let (winner, loser) = if attacker_won {
            (attacker, defender)
        } else {
            (defender, attacker)
        };
        let chosen = env.bound.chosen;
        for (effect, &times) in stage.effects.iter().zip(&chosen) {
            if effect.at != at || (effect.actions.is_empty() && effect.cases.is_empty()) {
                continue;
            }
            for _ in 0..times {
                if effect.guard.as_ref().is_some_and(|guard| !env.holds(guard)) {
                    continue;
                }
                let whom = match effect.to {
                    Party::Winner => winner,
                    Party::Loser => loser,
                    Party::Attacker => attacker,
                    Party::Defender => defender,
                    // Never an effect's: the loader gives it the winner or the loser.
                    Party::EngagedFoes => continue,
                };
                self.perform(whom, &effect.actions, &effect.name, env)?;
                let case = match effect.decision {
                    Some(decision) => self.chosen_case(&effect.cases, decision, winner, env)?,
                    None => effect
                        .cases
                        .iter()
                        .find(|case| case.guard.as_ref().is_none_or(|guard| env.holds(guard))),
                };
                if let Some(case) = case {
                    self.perform(whom, &case.actions, &effect.name, env)?;
                }
            }
        }
        Ok(())
    }

    /// The case `who` chooses (decision `decision`: an effect's, a round rule's) among
    /// `cases` whose guards hold, by name; one alone is taken without asking.
    pub(super) fn chosen_case<'e>(
        &self,
        cases: &'e [Case],
        decision: Name,
        who: usize,
        env: &mut FightEnv<'_>,
    ) -> Result<Option<&'e Case>, FightError> {
        let mut options: Vec<Name> = Vec::new();
        for case in cases {
            let holds = case.guard.as_ref().is_none_or(|guard| env.holds(guard));
            if let Some(name) = case.name.filter(|name| holds && !options.contains(name)) {
                options.push(name);
            }
        }
        let chosen = match options.as_slice() {
            [] => return Ok(None),
            [only] => *only,
            _ => self.choose(who, decision, options)?,
        };
        Ok(cases.iter().find(|case| {
            case.name == Some(chosen) && case.guard.as_ref().is_none_or(|guard| env.holds(guard))
        }))
    }

    /// Do the actions of a rule of `combat.toml` to `who`: a table rolled with its
    /// rows' actions, a condition, actions lost, a script function.
    pub(super) fn perform<'f>(
        &'f self,
        who: usize,
        actions: &'f [Spanned<Action>],
        place: &'f str,
        env: &mut FightEnv<'f>,
    ) -> Result<(), FightError> {
        for action in actions {
            let mut calls: Vec<ScriptCall> = Vec::new();
            let (table, row) = match &action.value {
                Action::Resist {
                    test,
                    then,
                    otherwise,
                } => {
                    let resisted = self.resist(who, &test.value, env)?;
                    self.perform(who, if resisted { then } else { otherwise }, place, env)?;
                    continue;
                }
                Action::Test {
                    test,
                    then,
                    otherwise,
                } => {
                    let passed = self.pass(who, &test.value, env)?;
                    self.perform(who, if passed { then } else { otherwise }, place, env)?;
                    continue;
                }
                Action::Contest {
                    test,
                    against,
                    of,
                    then,
                    otherwise,
                } => {
                    let won = self.contest(who, (&test.value, &against.value), of.value, env)?;
                    self.perform(who, if won { then } else { otherwise }, place, env)?;
                    continue;
                }
                Action::If {
                    condition,
                    then,
                    otherwise,
                } => {
                    let holds = self.action_holds(condition, env)?;
                    self.perform(who, if holds { then } else { otherwise }, place, env)?;
                    continue;
                }
                // A decision of `[decisions]`: `who` chooses among the options whose
                // guards hold (read with it as `self`), and the chosen one's actions
                // befall it, a `strike` aimed at the other party of where it is asked
                // (the exchange's, or the combatant whose turn it is).
                Action::Decide { decision } => {
                    let Some((_, options)) = self
                        .combat()
                        .and_then(|c| c.turn.decisions.iter().find(|(d, _)| *d == decision.value))
                    else {
                        return Err(self.combat_error(format!(
                            "`{}`: combat.toml has no decision `{}`",
                            action.value, decision.value
                        )));
                    };
                    let (attacker, defender) = env.bound.parties();
                    let other = if who == attacker { defender } else { attacker };
                    let mut own = FightEnv::new(self, who);
                    own.bound.other = (other != who).then_some(other);
                    own.depth = env.depth;
                    if let Some(option) =
                        self.chosen_case(options, decision.value, who, &mut own)?
                    {
                        self.perform(who, &option.actions, place, &mut own)?;
                    }
                    continue;
                }
                // Each foe at hand of the combatant whose turn it is, in scenario order,
                // while that combatant is still in the fight (a `strike` of theirs is
                // aimed at it: the turn's environment has no other party).
                Action::Party {
                    party: Party::EngagedFoes,
                    actions,
                } => {
                    for foe in self.opponents(who) {
                        if self.is_out(who) {
                            break;
                        }
                        if self.distance_between(who, foe) == 0 {
                            self.perform(foe, actions, place, env)?;
                        }
                    }
                    continue;
                }
                Action::Party { party, actions } => {
                    let bound = &env.bound;
                    let whom = match party {
                        Party::Attacker => Some(bound.me),
                        Party::Defender => bound.other,
                        Party::Winner => Who::Winner.of(bound),
                        Party::Loser => Who::Loser.of(bound),
                        Party::EngagedFoes => None,
                    };
                    let Some(whom) = whom else {
                        return Err(self.combat_error(format!(
                            "`{}`: the exchange has no {} yet",
                            action.value,
                            party.word()
                        )));
                    };
                    self.perform(whom, actions, place, env)?;
                    continue;
                }
                Action::Spend { count, on } => {
                    let on = on.as_deref().unwrap_or(place);
                    for _ in 0..*count {
                        if !self.spend_action(who, on) {
                            break;
                        }
                    }
                    continue;
                }
                Action::Ready { not, which } => {
                    self.ready(who, *not, which.value)?;
                    continue;
                }
                Action::Hurt { amount } => {
                    // Its dice are rolled for the rule that does it.
                    env.purpose = place;
                    let amount = self.action_number(amount, env)?;
                    let Some(location) = env.bound.location else {
                        return Err(self.combat_error(format!(
                            "`{}` is done before the blow has found a location",
                            action.value
                        )));
                    };
                    self.damage(who, env.pool.unwrap_or(location), amount)
                        .map_err(|message| self.combat_error(message))?;
                    continue;
                }
                Action::Lodge => {
                    self.lodge(who, env)?;
                    continue;
                }
                Action::Strike { exchange, why } => {
                    self.strike_within(who, exchange.value, why.as_deref(), env)?;
                    continue;
                }
                // An expression of combat.toml reads the exchange where it is done.
                Action::Set {
                    value,
                    to: Amount::Expr(expr),
                } => {
                    let to = self.action_number(expr, env)?;
                    self.set_value(who, value.value, to);
                    continue;
                }
                // Kept toward the other party of the exchange.
                Action::Toward { to, index, .. } => {
                    let to = self.action_number(to, env)?;
                    let (attacker, defender) = env.bound.parties();
                    let other = if who == attacker { defender } else { attacker };
                    let names = self.combat().map_or(0, |c| c.vocabulary.toward.len());
                    let mut core = self.core();
                    let count = core.combatants.len();
                    core.combatants[who].set_toward((*index, names), other, count, to);
                    continue;
                }
                Action::Condition {
                    condition,
                    duration:
                        Some(Duration {
                            length: Length::Expr(expr),
                            unit,
                        }),
                } => {
                    let length = self.action_number(expr, env)?;
                    self.set_condition(who, condition.value, length, *unit)
                        .map_err(|message| self.combat_error(message))?;
                    continue;
                }
                Action::RollTable { table } => {
                    let rolled = self.roll_table(Some(who), &table.value, 0);
                    self.fatal()?;
                    let (row, found) = rolled.map_err(|message| self.combat_error(message))?;
                    calls = found;
                    (table.value.as_str(), row.name())
                }
                _ => {
                    let applied =
                        self.apply_actions(Some(who), slice::from_ref(action), &mut calls);
                    self.fatal()?;
                    applied.map_err(|message| self.combat_error(message))?;
                    ("combat", place)
                }
            };
            if calls.is_empty() {
                continue;
            }
            // A script may read the rolls.
            if env.merging
                && calls
                    .iter()
                    .any(|call| self.0.hooks.may_read_tests(&call.module))
            {
                env.refine_tests(super::env::Tests::All);
                self.fatal()?;
            }
            let context = self.exchange_context(env);
            for call in &calls {
                let called =
                    self.0
                        .hooks
                        .call_row(self, Some(who), table, row, call, Some(&context));
                // A limit reached in the script is what stopped it.
                self.fatal()?;
                called.map_err(|failure| FightError::Script(Box::new(failure)))?;
            }
        }
        Ok(())
    }

    /// `lodge weapon`: the exchange's weapon stays in `victim`'s wound, out of the
    /// attacker's hand.
    fn lodge(&self, victim: usize, env: &FightEnv<'_>) -> Result<(), FightError> {
        let holder = env.bound.me;
        let Some(weapon) = env.bound.item else {
            return Err(self.combat_error("`lodge weapon`: the exchange has no weapon".into()));
        };
        // The weapon in the attacker's hand that the exchange is fought with.
        let id = {
            let core = self.core();
            let equipment = &self.ruleset().equipment;
            core.combatants[holder]
                .weapons
                .iter()
                .filter(|held| held.place == WeaponPlace::InHand)
                .map(|held| held.id)
                .find(|&id| weapon_of(equipment, id).is_some_and(|w| std::ptr::eq(w, weapon)))
        };
        // Bare hands, or a weapon already out of the hand: nothing stays in the wound.
        let Some(id) = id else {
            return Ok(());
        };
        self.lodge_weapon(holder, id, victim)
            .map_err(|message| self.combat_error(message))?;
        let location = env.bound.location;
        self.note(|| {
            let location = location.map_or(String::new(), |l| format!("'s {l}"));
            format!("{} stays in {}{location}", weapon.name, self.name(victim))
        });
        Ok(())
    }

    /// The number an expression of an action comes to, read where the action is done.
    fn action_number(&self, expr: &ActionExpr, env: &mut FightEnv<'_>) -> Result<i64, FightError> {
        let Some(number) = &expr.compiled else {
            return Err(self.combat_error(format!("`{expr}` was not compiled")));
        };
        let value = env.number_of(number);
        self.fatal()?;
        Ok(value)
    }

    /// Whether the condition of an `if` action holds, read where the action is done.
    fn action_holds(
        &self,
        guard: &ActionGuard,
        env: &mut FightEnv<'_>,
    ) -> Result<bool, FightError> {
        let Some(condition) = &guard.compiled else {
            return Err(self.combat_error(format!("`{guard}` was not compiled")));
        };
        let holds = env.holds(condition);
        self.fatal()?;
        Ok(holds)
    }

    /// What a script called by a rule sees of the exchange so far.
    fn exchange_context(&self, env: &FightEnv<'_>) -> ExchangeContext {
        let bound = &env.bound;
        let ruleset = self.ruleset();
        let equipment = &ruleset.equipment;
        let id = |weapon: Option<&Weapon>| {
            let weapon = weapon?;
            equipment
                .weapons
                .iter()
                .chain(&equipment.shields)
                .find(|(_, w)| std::ptr::eq(*w, weapon))
                .map(|(id, _)| *id)
        };
        let levels = &ruleset
            .combat
            .as_ref()
            .map_or(&[][..], |c| &c.vocabulary.success_levels[..]);
        let test = |result: Option<TestResult>| {
            result.map(|t| {
                let level = levels
                    .get(t.level as usize)
                    .copied()
                    .unwrap_or_else(|| Name::new(""));
                (level, t.roll)
            })
        };
        ExchangeContext {
            attacker: bound.me,
            defender: bound.parties().1,
            winner: Who::Winner.of(bound),
            weapon: id(bound.item),
            parry: id(bound.parry),
            location: bound.location,
            rolled: bound.rolled,
            reached: bound.reached,
            damage: bound.damage,
            attack: test(bound.attack),
            defence: test(bound.defence),
            chosen: env.effects.map_or_else(Vec::new, |stage| {
                stage
                    .effects
                    .iter()
                    .zip(&bound.chosen)
                    .flat_map(|(effect, &times)| std::iter::repeat_n(effect.name, times.into()))
                    .collect()
            }),
        }
    }

    /// An opposed test: `who` rolls the test kind `test` against the opponent's
    /// original roll of this exchange. It resists with a better level, or the same level
    /// and a higher roll; where its kind ties two failures (`failures_tie`), also when
    /// neither level passes. Where its kind compares by margin, it resists unless the
    /// original wins ([`FightHandle::by_margin`]): nobody winning leaves it unaffected.
    fn resist<'f>(
        &'f self,
        who: usize,
        test: &str,
        env: &mut FightEnv<'f>,
    ) -> Result<bool, FightError> {
        let original = if who == env.bound.me {
            env.bound.defence
        } else {
            env.bound.attack
        };
        let Some((kind, mut resisted)) = self.test_within(who, test, env)? else {
            return Ok(false);
        };
        let mut original = original;
        let resists = match original.as_mut() {
            None => false,
            Some(original) if matches!(kind.compare, Compare::Margin(_)) => {
                self.by_margin(kind, &mut resisted, original, env)? != Some(false)
            }
            // Nobody wins: the one resisting is unaffected.
            Some(original) if kind.failures_tie(resisted.level, original.level) => true,
            Some(original) if resisted.level == original.level => {
                self.core().rolled_higher(&mut resisted, original)?
            }
            Some(original) => resisted.level < original.level,
        };
        self.emit(|| Event::Resisted {
            who: self.name(who),
            resisted: resists,
            against: original.map(|original| original.roll),
            by_margin: matches!(kind.compare, Compare::Margin(_)),
        });
        Ok(resists)
    }

    /// `contest TEST against OTHER of VALUE`: `who` rolls the test kind `test`, the
    /// combatant whose number (its place from 1) `who`'s value `of` holds rolls
    /// `other`, both now. `who` wins with a better level, or the same level, one its
    /// test passes with, and a higher roll, but never where its kind ties two failures
    /// (`failures_tie`) and neither level passes; with nobody named, or the one named
    /// out of the fight, it wins without a roll.
    fn contest<'f>(
        &'f self,
        who: usize,
        (test, other): (&str, &str),
        of: Name,
        env: &mut FightEnv<'f>,
    ) -> Result<bool, FightError> {
        let named = self.value(who, of);
        let opponent = {
            let core = self.core();
            usize::try_from(named.saturating_sub(1))
                .ok()
                .filter(|&at| named > 0 && at < core.combatants.len() && at != who)
                .filter(|&at| !core.combatants[at].out)
        };
        let Some(opponent) = opponent else {
            self.emit(|| Event::Contested {
                who: self.name(who),
                against: None,
                won: true,
                by_margin: false,
            });
            return Ok(true);
        };
        let Some((kind, mut mine)) = self.test_between(who, opponent, test, env)? else {
            return Ok(false);
        };
        let Some((their_kind, mut theirs)) = self.test_between(opponent, who, other, env)? else {
            return Ok(true);
        };
        if kind.excess_over.or(their_kind.excess_over).is_some()
            && let Some(combat) = self.combat()
        {
            self.lower_excess(
                combat,
                (kind, &mut mine, who),
                (their_kind, &mut theirs, opponent),
                env,
            )?;
        }
        let won = if matches!(kind.compare, Compare::Margin(_)) {
            self.by_margin(kind, &mut mine, &mut theirs, env)? == Some(true)
        } else {
            !kind.failures_tie(mine.level, theirs.level)
                && (mine.level < theirs.level
                    || (mine.level == theirs.level
                        && kind.pass.contains(&mine.level)
                        && self.core().rolled_higher(&mut mine, &mut theirs)?))
        };
        self.emit(|| Event::Contested {
            who: self.name(who),
            against: Some(self.name(opponent)),
            won,
            by_margin: matches!(kind.compare, Compare::Margin(_)),
        });
        Ok(won)
    }

    /// Who wins of two tests compared by margin (`compare = "margin"` of `kind`):
    /// `Some(true)` for `mine`, `Some(false)` for `theirs`, `None` for nobody. A test that
    /// passes (a level of the kind's `pass`) beats one that does not; of two that pass,
    /// the one with the greater margin wins, and equal margins are nobody's win; two that
    /// do not pass are nobody's win.
    fn by_margin<'f>(
        &'f self,
        kind: &'f TestKind,
        mine: &mut TestResult,
        theirs: &mut TestResult,
        env: &mut FightEnv<'f>,
    ) -> Result<Option<bool>, FightError> {
        let passes = |test: &TestResult| kind.pass.contains(&test.level);
        Ok(match (passes(mine), passes(theirs)) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            (false, false) => None,
            (true, true) => {
                let mine = self.margin(kind, mine, env)?;
                let theirs = self.margin(kind, theirs, env)?;
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => Some(true),
                    std::cmp::Ordering::Less => Some(false),
                    std::cmp::Ordering::Equal => None,
                }
            }
        })
    }

    /// By how much `test` passes: the kind's `margin`, read of the test alone, or
    /// `target - total`. A roll drawn by its level alone (an enumeration) is drawn first.
    fn margin<'f>(
        &'f self,
        kind: &'f TestKind,
        test: &mut TestResult,
        env: &mut FightEnv<'f>,
    ) -> Result<i64, FightError> {
        self.core().refine(test)?;
        Ok(match &kind.compare {
            Compare::Margin(Some(margin)) => {
                let bound = env.bound.test;
                env.bound.test = *test;
                let margin = env.number_of(margin);
                env.bound.test = bound;
                margin
            }
            _ => test.target - test.total,
        })
    }

    /// A test on its own: `who` rolls the test kind `test`; it passes with one of the
    /// kind's `pass` levels.
    fn pass<'f>(
        &'f self,
        who: usize,
        test: &str,
        env: &mut FightEnv<'f>,
    ) -> Result<bool, FightError> {
        Ok(self
            .test_within(who, test, env)?
            .is_some_and(|(kind, result)| kind.pass.contains(&result.level)))
    }

    /// `who` rolls the test kind `test` within the exchange: itself `self`, its
    /// opponent in the exchange `other`, with its first weapon in hand.
    fn test_within<'f>(
        &'f self,
        who: usize,
        test: &str,
        env: &mut FightEnv<'f>,
    ) -> Result<Option<(&'f TestKind, TestResult)>, FightError> {
        let attacker = env.bound.me;
        let opponent = if who == attacker {
            env.bound.other.unwrap_or(attacker)
        } else {
            attacker
        };
        self.test_between(who, opponent, test, env)
    }

    /// `who` rolls the test kind `test` with `opponent` as its `other`, with its first
    /// weapon in hand.
    fn test_between<'f>(
        &'f self,
        who: usize,
        opponent: usize,
        test: &str,
        env: &mut FightEnv<'f>,
    ) -> Result<Option<(&'f TestKind, TestResult)>, FightError> {
        let Some(combat) = self.combat() else {
            return Ok(None);
        };
        // Checked at load: the test is one of combat.toml's.
        let Some(kind) = combat.tests.iter().find(|kind| kind.name == test) else {
            return Ok(None);
        };
        let weapon = held(&self.core(), &self.ruleset().equipment, who, 0);
        let result = self.roll_for(
            combat,
            kind,
            (who, opponent),
            weapon,
            (kind.name, true),
            env,
        )?;
        Ok(Some((kind, result)))
    }

    /// The location of `who` a table's row names (the row's text interned when `who`
    /// has no such location).
    fn location_named(&self, who: usize, row: &str) -> Name {
        let core = self.core();
        let known = core.combatants[who].locations.keys();
        known
            .copied()
            .find(|location| *location == row)
            .unwrap_or_else(|| Name::new(row))
    }

    /// A rule of `combat.toml` that a fight cannot follow.
    fn combat_error(&self, message: String) -> FightError {
        FightError::Combat { message }
    }
}

/// The weapons in `who`'s hands that `choice` looks for, with their ids, in the order
/// held.
fn fitting_in_hand<'c, 'e: 'c>(
    core: &'c super::super::Core,
    equipment: &'e crate::engine::model::Equipment,
    who: usize,
    choice: &'c ReactionWeapon,
) -> impl Iterator<Item = (Name, &'e Weapon)> + 'c {
    core.combatants[who]
        .weapons
        .iter()
        .filter(|state| state.place == WeaponPlace::InHand)
        .filter_map(move |state| {
            let weapon = equipment
                .weapons
                .get(&state.id)
                .or_else(|| equipment.shields.get(&state.id))?;
            choice.fits(weapon).then_some((state.id, weapon))
        })
}

/// A label that names the weapon a test is made with: `{weapon}` in it is the weapon's
/// name (`Parry with {weapon}`: "Parry with Broadsword"); any other label as it is.
fn with_weapon_name(label: Name, weapon: Option<&Weapon>) -> Name {
    match weapon {
        Some(weapon) if label.as_str().contains("{weapon}") => {
            Name::new(&label.as_str().replace("{weapon}", &weapon.name))
        }
        _ => label,
    }
}
