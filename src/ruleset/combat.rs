//! `combat.toml`: the turn and the exchange as data, decoded and compiled into the
//! engine's [`Combat`]. Every expression is compiled against the scope of its place, so
//! a misspelt name, a wrong type or a die rolled in a guard is a `check` diagnostic.
//!
//! ```toml
//! [turn]
//! initiative = "1d20 + (self.DEX - 10) / 2"
//! actions = "1"
//! out_of_fight = "self.hit_points <= 0"
//!
//! [[action]]                     # offered on a combatant's turn while `if` holds
//! name = "attack"
//! exchange = "melee"
//!
//! [tests.attack]
//! roll = "1d20"
//! total = "roll + self.statistic.attack_bonus"
//! target = "other.statistic.defence"
//! [tests.attack.levels]          # the first that holds, in this order
//! fumble = "roll == 1"
//! hit = "total >= target"
//! miss = "true"
//!
//! [exchanges.melee]
//! test = "attack"
//! hits = "attack.level == \"hit\""
//! damage = "weapon.damage"
//! [[exchanges.melee.after]]
//! if = "attack.level == \"fumble\""
//! do = "roll fumble"
//! ```

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned as TomlSpanned;

use super::Problems;
use super::problem::{RulesetProblem, UnknownName};
use super::resolve::Names;
use crate::engine::pipeline::{After, Combat, Exchange, Level, Role, TestKind, Turn, TurnAction};
use crate::engine::reads::{FightScope, Place, Vocabulary};
use crate::expr::{Condition, Number, compile_bool, compile_number};
use crate::parse::parse_actions;
use crate::source::{SourceFile, Span};

type Text = TomlSpanned<String>;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CombatFile {
    #[serde(default)]
    turn: TurnEntry,
    #[serde(default)]
    action: Vec<ActionEntry>,
    #[serde(default)]
    tests: IndexMap<String, TestEntry>,
    #[serde(default)]
    exchanges: IndexMap<String, ExchangeEntry>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnEntry {
    initiative: Option<Text>,
    actions: Option<Text>,
    out_of_fight: Option<Text>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionEntry {
    name: Text,
    #[serde(rename = "if")]
    guard: Option<Text>,
    exchange: Text,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TestEntry {
    roll: Text,
    total: Option<Text>,
    target: Text,
    levels: IndexMap<String, Text>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExchangeEntry {
    label: Option<String>,
    test: Text,
    hits: Text,
    damage: Option<Text>,
    #[serde(default)]
    after: Vec<AfterEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AfterEntry {
    #[serde(rename = "if")]
    guard: Text,
    to: Option<Text>,
    #[serde(rename = "do")]
    actions: Text,
}

/// The content of a TOML string, without its quotes.
fn content(text: &Text) -> Span {
    let range = text.span();
    Span::new(
        range.start + 1,
        range.end.saturating_sub(1).max(range.start + 1),
    )
}

/// Compiles the expressions of one file against one scope, collecting every problem.
struct Compiler<'a> {
    file: &'a SourceFile,
    scope: FightScope<'a>,
    problems: &'a mut Problems,
}

impl<'a> Compiler<'a> {
    /// Move to the place the next expressions are written at.
    fn at(&mut self, place: Place, may_roll: bool, described: String) {
        self.scope.at = place;
        self.scope.may_roll = may_roll;
        self.scope.hidden = &[];
        self.scope.place = described;
    }

    fn number(&mut self, text: &Text) -> Option<Number> {
        compile_number(
            self.file,
            text.get_ref(),
            content(text).start,
            &mut self.scope,
        )
        .map_err(|found| self.problems.extend(found.into_iter().map(Into::into)))
        .ok()
    }

    fn condition(&mut self, text: &Text) -> Option<Condition> {
        compile_bool(
            self.file,
            text.get_ref(),
            content(text).start,
            &mut self.scope,
        )
        .map_err(|found| self.problems.extend(found.into_iter().map(Into::into)))
        .ok()
    }

    fn unknown(&mut self, code: &'static str, kind: &'static str, text: &Text, known: Vec<String>) {
        self.problems.push(
            UnknownName::new(
                code,
                kind,
                self.file,
                text.get_ref(),
                content(text),
                "in combat.toml",
                known,
            )
            .into(),
        );
    }

    fn rule(&mut self, span: Span, label: &str, message: String, help: &str) {
        self.problems.push(
            RulesetProblem::Toml {
                src: self.file.named(),
                span: Some(span.into()),
                file: self.file.name().to_string(),
                label: label.into(),
                message,
                help: help.into(),
            }
            .into(),
        );
    }
}

/// Compile `combat.toml`; `None` when any part of it has a problem (each is reported).
pub(super) fn compile_combat(
    decoded: &CombatFile,
    vocabulary: &Vocabulary,
    names: &Names<'_>,
    file: &SourceFile,
    problems: &mut Problems,
) -> Option<Combat> {
    let before = problems.len();
    let mut compiler = Compiler {
        file,
        scope: FightScope::new(vocabulary, Place::Turn, String::new()),
        problems,
    };

    let turn_entry = &decoded.turn;
    compiler.at(Place::Turn, true, "the turn's `initiative`".into());
    let initiative = turn_entry
        .initiative
        .as_ref()
        .and_then(|t| compiler.number(t));
    compiler.at(Place::Turn, true, "the turn's `actions`".into());
    let actions = turn_entry.actions.as_ref().and_then(|t| compiler.number(t));
    compiler.at(Place::Turn, false, "the turn's `out_of_fight`".into());
    let out_of_fight = turn_entry
        .out_of_fight
        .as_ref()
        .and_then(|t| compiler.condition(t));

    let test_names: Vec<String> = decoded.tests.keys().cloned().collect();
    let mut tests = Vec::new();
    for (name, entry) in &decoded.tests {
        compiler.at(Place::Test, true, format!("the test `{name}`"));
        let roll = compiler.number(&entry.roll);
        compiler.scope.hidden = &["total"];
        let total = entry.total.as_ref().and_then(|t| compiler.number(t));
        compiler.scope.hidden = &["total", "target"];
        let target = compiler.number(&entry.target);
        compiler.at(Place::Test, false, format!("a level of the test `{name}`"));
        let mut levels = Vec::new();
        for (level, guard) in &entry.levels {
            let condition = compiler.condition(guard);
            match vocabulary.success_levels.iter().position(|l| l == level) {
                Some(at) => levels.extend(condition.map(|guard| Level {
                    level: at as u32,
                    guard,
                })),
                None => {
                    let before = &file.text()[..guard.span().start];
                    let span = before
                        .rfind(level.as_str())
                        .map_or(content(guard), |at| Span::new(at, at + level.len()));
                    compiler.problems.push(
                        UnknownName::new(
                            "affray::combat::unknown_level",
                            "success level",
                            file,
                            level,
                            span,
                            "in ruleset.toml `success_levels`",
                            vocabulary.success_levels.clone(),
                        )
                        .into(),
                    );
                }
            }
        }
        if entry.levels.is_empty() {
            compiler.rule(
                content(&entry.roll),
                "a test with no levels",
                format!("the test `{name}` gives no level"),
                "add [tests.NAME.levels] with one `level = \"condition\"` per success level, best first",
            );
        }
        if let (Some(roll), Some(target)) = (roll, target) {
            tests.push(TestKind {
                name: name.clone(),
                roll,
                total,
                target,
                levels,
            });
        }
    }

    let exchange_names: Vec<String> = decoded.exchanges.keys().cloned().collect();
    let mut exchanges = Vec::new();
    for (name, entry) in &decoded.exchanges {
        let test = test_names.iter().position(|t| t == entry.test.get_ref());
        if test.is_none() {
            compiler.unknown(
                "affray::combat::unknown_test",
                "test",
                &entry.test,
                test_names.clone(),
            );
        }
        compiler.at(
            Place::Exchange,
            false,
            format!("the exchange `{name}`'s `hits`"),
        );
        let hits = compiler.condition(&entry.hits);
        compiler.at(
            Place::Exchange,
            true,
            format!("the exchange `{name}`'s `damage`"),
        );
        let damage = entry.damage.as_ref().and_then(|t| compiler.number(t));
        let mut after = Vec::new();
        for rule in &entry.after {
            compiler.at(
                Place::Exchange,
                false,
                format!("an `after` rule of `{name}`"),
            );
            let guard = compiler.condition(&rule.guard);
            let to = match rule.to.as_ref().map(|t| t.get_ref().as_str()) {
                None | Some("attacker") => Some(Role::Attacker),
                Some("defender") => Some(Role::Defender),
                Some(other) => {
                    compiler.rule(
                        content(rule.to.as_ref().expect("matched Some")),
                        "not a part in the exchange",
                        format!("`to = \"{other}\"`: an `after` rule befalls the attacker or the defender"),
                        "write `to = \"attacker\"` (the default) or `to = \"defender\"`",
                    );
                    None
                }
            };
            let actions =
                match parse_actions(file, rule.actions.get_ref(), content(&rule.actions).start) {
                    Ok(actions) => {
                        names.check_actions(&actions, file, compiler.problems);
                        Some(actions)
                    }
                    Err(error) => {
                        compiler.problems.push(error.into());
                        None
                    }
                };
            if let (Some(guard), Some(to), Some(actions)) = (guard, to, actions) {
                after.push(After { guard, to, actions });
            }
        }
        if let (Some(test), Some(hits)) = (test, hits)
            && (entry.damage.is_none() || damage.is_some())
        {
            exchanges.push(Exchange {
                name: name.clone(),
                label: entry.label.clone().unwrap_or_else(|| name.clone()),
                test,
                hits,
                damage,
                after,
            });
        }
    }

    let mut choices = Vec::new();
    for entry in &decoded.action {
        let exchange = exchange_names
            .iter()
            .position(|e| e == entry.exchange.get_ref());
        if exchange.is_none() {
            compiler.unknown(
                "affray::combat::unknown_exchange",
                "exchange",
                &entry.exchange,
                exchange_names.clone(),
            );
        }
        compiler.at(
            Place::Turn,
            false,
            format!("the action `{}`'s `if`", entry.name.get_ref()),
        );
        let guard = entry.guard.as_ref().and_then(|t| compiler.condition(t));
        if let Some(exchange) = exchange
            && (entry.guard.is_none() || guard.is_some())
        {
            choices.push(TurnAction {
                name: entry.name.get_ref().clone(),
                guard,
                exchange,
            });
        }
    }

    let reads = compiler.scope.reads;
    (problems.len() == before).then(|| Combat {
        vocabulary: vocabulary.clone(),
        reads,
        turn: Turn {
            initiative,
            actions,
            out_of_fight,
            choices,
        },
        tests,
        exchanges,
    })
}
