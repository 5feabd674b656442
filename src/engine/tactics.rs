//! The default chooser as data: for each decision, a priority list read from the top,
//! like a SimulationCraft action priority list. Each rule names an option to take when
//! it is offered and its guard holds, or takes the offered option that scores highest
//! (or lowest) by an expression. A list can only ever answer with an offered option.

use serde::Serialize;

use crate::expr::{Condition, Number};
use crate::names::{Name, NameMap};

use super::Core;
use super::chooser::Decision;
use super::reads::{Considers, DecisionView, Read, Vocabulary, World};
use crate::engine::model::Equipment;

/// The priority lists of a ruleset, by decision name (`action`, `target`, ...).
#[derive(Clone, Debug, Default)]
pub struct Tactics {
    /// `tactics.toml`: everyone's lists.
    pub decisions: NameMap<PriorityList>,
    /// `tactics/<style>.toml`: lists a scenario may give a side or a combatant; a
    /// decision a style does not list is answered by the lists everyone has.
    pub styles: NameMap<NameMap<PriorityList>>,
    /// The ruleset's names the lists were compiled against.
    pub vocabulary: Vocabulary,
}

/// One decision's rules, with the slots their expressions read.
#[derive(Clone, Debug, Default)]
pub struct PriorityList {
    pub reads: Vec<Read>,
    /// What the rules read of an option weighed.
    pub considers: Considers,
    pub rules: Vec<Rule>,
    /// The rules as written, for `dump` and `diff`.
    pub written: Vec<WrittenRule>,
}

/// A rule as tactics.toml writes it: its keys and their texts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WrittenRule {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choose: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub highest: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lowest: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script: Option<bool>,
    #[serde(rename = "if", skip_serializing_if = "Option::is_none")]
    pub guard: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub pick: Pick,
    /// `if`: the rule applies only where this holds (read for each option considered,
    /// with `other` the combatant the option names).
    pub guard: Option<Condition>,
}

#[derive(Clone, Debug)]
pub enum Pick {
    /// This option, when offered.
    Option(Name),
    /// The first offered option for which the condition holds.
    First(Condition),
    /// The offered option with the highest value (the first of equals).
    Highest(Number),
    /// The offered option with the lowest value (the first of equals).
    Lowest(Number),
    /// `script = true`: no option; the tactics script decides (as for a decision without
    /// a list), where the guard holds. The guard is read once, with no option considered.
    Script,
}

impl Tactics {
    /// The list's answer to `decision`, or `None` when the ruleset has no list for it,
    /// or a `script = true` rule of it applies (another chooser answers). Otherwise some
    /// offered option is always chosen: the first offered when no rule applies.
    pub fn choose(
        &self,
        core: &Core,
        equipment: &Equipment,
        fight_options: &[Name],
        fight_modifiers: &[Name],
        decision: &Decision,
    ) -> Option<Name> {
        let style = core.combatants[decision.who].spec.tactics;
        let list = style
            .and_then(|style| self.styles.get(&style))
            .and_then(|lists| lists.get(&decision.name))
            .or_else(|| self.decisions.get(&decision.name))?;
        let world = World {
            core,
            equipment,
            vocabulary: &self.vocabulary,
            fight_options,
            fight_modifiers,
            offered: &decision.options,
        };
        let mut view = DecisionView::new(world, &list.reads, list.considers, decision.who);
        let holds = |view: &mut DecisionView<'_>, guard: &Option<Condition>| {
            guard.as_ref().is_none_or(|guard| guard.eval(view))
        };
        // The offered options as bits ([`Name::bit`]): most rules name an option that is
        // not offered, told by one test rather than a look through the options.
        let offered = decision.options.iter().fold(0, |bits, o| bits | o.bit());
        for rule in &list.rules {
            match &rule.pick {
                Pick::Script => {
                    if holds(&mut view, &rule.guard) {
                        return None;
                    }
                }
                Pick::Option(option) => {
                    if offered & option.bit() == 0 || !decision.options.contains(option) {
                        continue;
                    }
                    view.consider(*option);
                    if holds(&mut view, &rule.guard) {
                        return Some(*option);
                    }
                }
                Pick::First(condition) => {
                    for &option in &decision.options {
                        view.consider(option);
                        if holds(&mut view, &rule.guard) && condition.eval(&mut view) {
                            return Some(option);
                        }
                    }
                }
                Pick::Highest(score) | Pick::Lowest(score) => {
                    let lowest = matches!(rule.pick, Pick::Lowest(_));
                    let mut best: Option<(i64, Name)> = None;
                    for &option in &decision.options {
                        view.consider(option);
                        if !holds(&mut view, &rule.guard) {
                            continue;
                        }
                        let value = score.eval(&mut view);
                        let better =
                            best.is_none_or(
                                |(known, _)| {
                                    if lowest { value < known } else { value > known }
                                },
                            );
                        if better {
                            best = Some((value, option));
                        }
                    }
                    if let Some((_, option)) = best {
                        return Some(option);
                    }
                }
            }
        }
        decision.options.first().copied()
    }
}
