//! The decisions a fight under a ruleset is known to ask, and the names its options may
//! have: what a scenario's scripted choices and the automation dial are checked against.

use super::Ruleset;
use crate::engine::pipeline::{Case, Combat};
use crate::names::Name;
use crate::tables::TableKind;

/// Every decision a rule of combat.toml asks with options of its own (the round's
/// rules, the turn's actions, the exchanges' `after` rules, the tests' rerolls,
/// `[decisions]`), with those options.
fn rule_decisions(combat: &Combat) -> impl Iterator<Item = (Name, &[Case])> {
    let round = combat
        .turn
        .round_rules()
        .map(|r| (r.decision, &r.options[..]));
    let actions = combat
        .turn
        .choices
        .iter()
        .map(|a| (a.decision, &a.options[..]));
    let after = combat
        .exchanges
        .iter()
        .flat_map(|e| e.after.iter().map(|r| (r.decision, &r.options[..])));
    let rerolls = combat.tests.iter().filter_map(|test| {
        let reroll = test.reroll.as_ref()?;
        Some((Some(reroll.decision), &reroll.options[..]))
    });
    let named = combat
        .turn
        .decisions
        .iter()
        .map(|(d, options)| (Some(*d), &options[..]));
    round
        .chain(actions)
        .chain(after)
        .chain(rerolls)
        .chain(named)
        .filter_map(|(decision, options)| decision.map(|d| (d, options)))
}

/// The names of `options`.
fn option_names(options: &[Case]) -> impl Iterator<Item = String> + '_ {
    options.iter().filter_map(|o| o.name.map(|n| n.to_string()))
}

impl Ruleset {
    /// The decisions a fight under this ruleset is known to ask: the engine's own,
    /// combat.toml's, those tactics.toml and its styles answer, those the tactics module
    /// answers (`choose_NAME`), and those its scripts ask by a written name
    /// (`fight.choose(who, "reaction", ...)`). A script may also ask one by a name it
    /// works out, which no list holds. Sorted, without repeats.
    pub fn known_decisions(&self) -> Vec<String> {
        let mut found: Vec<String> = [
            "action",
            "target",
            "reaction",
            "weapon",
            "location",
            "redirect_location",
            "weapon_to_ready",
        ]
        .map(String::from)
        .to_vec();
        if let Some(combat) = &self.rules.combat {
            found.extend(rule_decisions(combat).map(|(d, _)| d.to_string()));
            for exchange in &combat.exchanges {
                found.extend(
                    exchange
                        .reactions
                        .iter()
                        .map(|r| r.withdraw_decision.to_string()),
                );
                if !exchange.reactions.is_empty() {
                    found.push(exchange.reaction_decision.to_string());
                }
                if let Some(effects) = &exchange.effects {
                    found.push(effects.decision.to_string());
                    found.extend(
                        effects
                            .effects
                            .iter()
                            .filter_map(|effect| effect.decision.map(|d| d.to_string())),
                    );
                }
                if let Some(instead) = &exchange.instead {
                    found.push(instead.decision.to_string());
                }
            }
        }
        let tactics = &self.rules.tactics;
        found.extend(tactics.decisions.keys().map(|d| d.to_string()));
        for style in tactics.styles.values() {
            found.extend(style.keys().map(|d| d.to_string()));
        }
        for script in &self.scripts {
            found.extend(
                script
                    .functions
                    .iter()
                    .filter_map(|(name, _)| name.strip_prefix("choose_").map(String::from)),
            );
            found.extend(chosen_in(script.file.text()));
        }
        found.sort();
        found.dedup();
        found
    }

    /// The names an option may have, whatever the decision: combat.toml's actions,
    /// reactions, effects and their cases, hit locations, equipment, the rows of the
    /// tables, the engine's own (`none`, `damage`, `complete`, `withdraw`, `bare_hands`)
    /// and every word a script writes between quotes. A scenario adds its combatants
    /// (a `target`). Sorted, without repeats.
    pub fn known_option_names(&self) -> Vec<String> {
        let mut found: Vec<String> = ["none", "damage", "complete", "withdraw", "bare_hands"]
            .map(String::from)
            .to_vec();
        if let Some(combat) = &self.rules.combat {
            found.extend(combat.turn.choices.iter().map(|a| a.name.to_string()));
            for action in &combat.turn.choices {
                found.extend(action.locations.iter().map(|l| l.to_string()));
            }
            for (_, options) in rule_decisions(combat) {
                found.extend(option_names(options));
            }
            for exchange in &combat.exchanges {
                found.push(exchange.name.to_string());
                found.extend(exchange.reactions.iter().map(|r| r.name.to_string()));
                found.extend(exchange.locations.iter().map(|l| l.to_string()));
                if let Some(effects) = &exchange.effects {
                    for effect in &effects.effects {
                        found.push(effect.name.to_string());
                        found.extend(
                            effect
                                .cases
                                .iter()
                                .filter_map(|c| c.name.map(|n| n.to_string())),
                        );
                    }
                }
                if let Some(instead) = &exchange.instead {
                    found.extend(instead.options.iter().map(|o| o.name.to_string()));
                }
            }
        }
        for table in &self.rules.tables {
            match &table.kind {
                TableKind::Roll(roll) => {
                    found.extend(roll.rows.iter().map(|r| r.name.value.clone()))
                }
                TableKind::Effects(list) => {
                    found.extend(list.effects.iter().map(|e| e.name.value.clone()));
                }
                _ => {}
            }
        }
        let equipment = &self.rules.equipment;
        found.extend(equipment.weapons.keys().map(|id| id.to_string()));
        found.extend(equipment.shields.keys().map(|id| id.to_string()));
        found.extend(equipment.armour.keys().cloned());
        for script in &self.scripts {
            found.extend(quoted_words(script.file.text()));
        }
        found.sort();
        found.dedup();
        found
    }
}

impl Ruleset {
    /// The options the decision `decision` may offer, where every one is known before
    /// a fight: a decision the engine asks from combat.toml alone (a round rule's
    /// options, the reactions and
    /// `none` of `reaction`, the effects of an effect list's decision, the cases of an
    /// effect's own, `complete` and `withdraw`, `damage` and the `instead` options, the
    /// hit locations of `location` and `redirect_location` (and the rows the turn's
    /// actions aim at, of `location`), the weapons and shields of `weapon` and
    /// `weapon_to_ready`, the opponents of `target`, the turn's actions of `action`). `None` where no such list is known: a decision only the scripts ask,
    /// or one a script names between quotes (it may ask it with options it works out),
    /// or `action` where the `choices` hook offers the turn's actions. `combatants`
    /// are the scenario's, the options of `target`. Sorted, without repeats.
    pub fn decision_options(&self, decision: &str, combatants: &[String]) -> Option<Vec<String>> {
        let combat = self.rules.combat.as_ref()?;
        if self.scripts.iter().any(|script| {
            quoted_words(script.file.text())
                .iter()
                .any(|w| w == decision)
        }) {
            return None;
        }
        let mut found: Vec<String> = Vec::new();
        let mut asked = false;
        let mut add = |names: &mut dyn Iterator<Item = String>| {
            asked = true;
            found.extend(names);
        };
        let equipment = &self.rules.equipment;
        let weapons = || {
            equipment
                .weapons
                .keys()
                .chain(equipment.shields.keys())
                .map(|id| id.to_string())
        };
        let exchanges = &combat.exchanges;
        match decision {
            "action" if !self.settings.hooks.contains_key("choices") => {
                add(&mut combat.turn.choices.iter().map(|a| a.name.to_string()));
            }
            "target" if !exchanges.is_empty() => add(&mut combatants.iter().cloned()),

            "weapon" if exchanges.iter().any(|e| e.bare_hands.is_some()) => {
                add(&mut weapons().chain(std::iter::once("bare_hands".to_string())));
            }
            "weapon_to_ready" => add(&mut weapons()),
            "location" | "redirect_location"
                if exchanges.iter().any(|e| !e.locations.is_empty())
                    || (decision == "location"
                        && combat.turn.choices.iter().any(|a| !a.locations.is_empty())) =>
            {
                add(&mut exchanges
                    .iter()
                    .flat_map(|e| e.locations.iter().map(|l| l.to_string())));
                // The rows the turn's actions aim at (a called location).
                if decision == "location" {
                    add(&mut combat
                        .turn
                        .choices
                        .iter()
                        .flat_map(|a| a.locations.iter().map(|l| l.to_string())));
                }
            }
            _ => {}
        }
        for (asks, options) in rule_decisions(combat) {
            if asks.as_str() == decision {
                add(&mut option_names(options));
            }
        }
        // The reactions and `none`, of the decision each exchange declares them by.
        let reacting = exchanges
            .iter()
            .filter(|e| !e.reactions.is_empty() && e.reaction_decision.as_str() == decision);
        let mut reacting = reacting.peekable();
        if reacting.peek().is_some() {
            add(&mut reacting
                .flat_map(|e| e.reactions.iter().map(|r| r.name.to_string()))
                .chain(std::iter::once("none".to_string())));
        }
        for exchange in exchanges {
            for reaction in &exchange.reactions {
                if reaction.withdraw.is_some() && reaction.withdraw_decision.as_str() == decision {
                    add(&mut ["complete", "withdraw"].into_iter().map(String::from));
                }
            }
            if let Some(effects) = &exchange.effects {
                if effects.decision.as_str() == decision {
                    add(&mut effects.effects.iter().map(|e| e.name.to_string()));
                }
                for effect in &effects.effects {
                    if effect.decision.is_some_and(|d| d.as_str() == decision) {
                        add(&mut effect
                            .cases
                            .iter()
                            .filter_map(|c| c.name.map(|n| n.to_string())));
                    }
                }
            }
            if let Some(instead) = exchange
                .instead
                .as_ref()
                .filter(|i| i.decision.as_str() == decision)
            {
                add(&mut std::iter::once("damage".to_string())
                    .chain(instead.options.iter().map(|o| o.name.to_string())));
            }
        }
        if !asked {
            return None;
        }
        found.sort();
        found.dedup();
        Some(found)
    }
}

/// The decisions a script's text asks by a written name: `choose(WHO, "NAME"`.
fn chosen_in(text: &str) -> Vec<String> {
    text.match_indices("choose(")
        .filter_map(|(at, call)| {
            let rest = &text[at + call.len()..];
            let (_, after) = rest.split_once(',')?;
            let name = after.trim_start().strip_prefix('"')?;
            let (name, _) = name.split_once('"')?;
            is_word(name).then(|| name.to_string())
        })
        .collect()
}

/// Every word a script's text writes between double quotes (`"strike_weapon"`).
fn quoted_words(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|inside| is_word(inside))
        .map(String::from)
        .collect()
}

fn is_word(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}
