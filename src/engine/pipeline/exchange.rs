//! An exchange's stages, in order: the target, the attacker's test, whether the blow
//! hits, its damage to the defender, and the `after` rules.

use std::slice;

use super::super::reads::held;
use super::super::{FightError, FightHandle, ScriptCall};
use super::env::FightEnv;
use super::test::roll_test;
use super::{Exchange, Role};
use crate::source::Spanned;
use crate::tables::Action;

impl FightHandle {
    /// `attacker` runs the exchange `index` of `combat.toml` against a target it chooses.
    pub(in crate::engine) fn run_exchange(
        &self,
        attacker: usize,
        index: usize,
    ) -> Result<(), FightError> {
        let Some(combat) = self.ruleset().combat.as_ref() else {
            return Ok(());
        };
        let exchange: &Exchange = &combat.exchanges[index];
        let foes = self.opponents(attacker);
        if foes.is_empty() {
            return Ok(());
        }
        let names: Vec<String> = foes.iter().map(|&foe| self.name(foe)).collect();
        let chosen = self.choose(attacker, "target", names.clone())?;
        let defender = names
            .iter()
            .position(|name| *name == chosen)
            .map_or(foes[0], |at| foes[at]);

        let mut env = FightEnv::new(self, attacker);
        env.bound.other = Some(defender);
        env.bound.item = held(&self.core(), &self.ruleset().equipment, attacker, 0);
        let test = &combat.tests[exchange.test];
        env.purpose = &test.name;
        let attack = roll_test(test, &mut env);
        self.fatal()?;
        let level = &combat.vocabulary.success_levels[attack.level as usize];
        self.log_test(
            attacker,
            &exchange.label,
            attack.target,
            attack.total,
            level,
        );
        env.bound.attack = Some(attack);

        if exchange.hits.eval(&mut env)
            && let Some(damage) = &exchange.damage
        {
            env.purpose = "damage";
            let amount = damage.eval(&mut env);
            self.fatal()?;
            let pool = self
                .locations(defender)
                .into_iter()
                .next()
                .unwrap_or_default();
            self.damage(defender, &pool, amount)
                .map_err(|message| self.combat_error(message))?;
        }

        for rule in &exchange.after {
            if rule.guard.eval(&mut env) {
                let whom = match rule.to {
                    Role::Attacker => attacker,
                    Role::Defender => defender,
                };
                self.perform(whom, &rule.actions, &exchange.name)?;
            }
        }
        Ok(())
    }

    /// Do the actions of a rule of `combat.toml` to `who`: a table rolled with its
    /// rows' actions, a condition, actions lost, a script function.
    fn perform(
        &self,
        who: usize,
        actions: &[Spanned<Action>],
        place: &str,
    ) -> Result<(), FightError> {
        for action in actions {
            let mut calls: Vec<ScriptCall> = Vec::new();
            let (table, row) = match &action.value {
                Action::RollTable { table } => {
                    let rolled = self.roll_table(Some(who), &table.value, 0);
                    self.fatal()?;
                    let (row, found) = rolled.map_err(|message| self.combat_error(message))?;
                    calls = found;
                    (table.value.as_str(), row.row)
                }
                _ => {
                    let applied =
                        self.apply_actions(Some(who), slice::from_ref(action), &mut calls);
                    self.fatal()?;
                    applied.map_err(|message| self.combat_error(message))?;
                    ("combat", place.to_string())
                }
            };
            for call in &calls {
                self.0
                    .hooks
                    .call_row(self, Some(who), table, &row, call)
                    .map_err(|failure| FightError::Script(Box::new(failure)))?;
                self.fatal()?;
            }
        }
        Ok(())
    }

    /// A rule of `combat.toml` that a fight cannot follow.
    fn combat_error(&self, message: String) -> FightError {
        FightError::Combat { message }
    }
}
