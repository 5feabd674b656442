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
//! levels = [                     # the first that holds, in this order
//!   ["fumble", "roll == 1"],
//!   ["hit", "total >= target"],
//!   ["miss", "true"],
//! ]
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
use crate::engine::pipeline::{
    After, AfterTime, BareHands, Case, Combat, Compare, EffectRule, EffectTime, EffectsStage,
    Exchange, Grades, Hands, Instead, InsteadOption, Knockback, Level, MAX_GROUPS, OutcomeMatrix,
    Party, Reaction, ReactionWeapon, Reroll, ResultCell, ResultMatrix, Role, Rounding, SkillLabel,
    TestKind, TestModifier, Turn, TurnAction, TurnRule, WoundRule,
};
use crate::engine::reads::MAX_EFFECTS;
use crate::engine::reads::{FightScope, Place, Vocabulary};
use crate::expr::{Condition, Number, compile_bool, compile_number};
use crate::names::Name;
use crate::parse::parse_actions;
use crate::source::{SourceFile, Span, Spanned};
use crate::tables::{
    Action, ActionExpr, ActionGuard, Cell, Key, ModifierItem, ModifierValue, Table, TableKind,
    Value,
};

type Text = TomlSpanned<String>;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CombatFile {
    /// The values a combatant keeps toward each other combatant (`set toward NAME
    /// (EXPR)`, read as `self.toward.NAME`).
    #[serde(default)]
    toward: Vec<Text>,
    #[serde(default)]
    turn: TurnEntry,
    #[serde(default)]
    action: Vec<ActionEntry>,
    /// What each combatant holds in hand at the start.
    hands: Option<HandsEntry>,
    #[serde(default)]
    setup: Vec<RuleEntry>,
    #[serde(default)]
    round_start: Vec<RuleEntry>,
    #[serde(default)]
    round_end: Vec<RuleEntry>,
    /// Level lists that several test kinds share (`level_list = "NAME"`).
    #[serde(default)]
    level_lists: IndexMap<String, Vec<(Text, Text)>>,
    #[serde(default)]
    tests: IndexMap<String, TestEntry>,
    #[serde(default)]
    exchanges: IndexMap<String, ExchangeEntry>,
    /// Decisions that actions ask by name (`decide NAME`), each with its options.
    #[serde(default)]
    decisions: IndexMap<String, DecisionEntry>,
}

/// `[decisions.NAME]`: a decision the action `decide NAME` asks of the combatant it
/// befalls, among the options whose `if` holds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DecisionEntry {
    #[serde(default)]
    option: Vec<OptionEntry>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnEntry {
    initiative: Option<Text>,
    /// What the log calls the initiative's roll; `initiative` unless said.
    initiative_label: Option<String>,
    keep_initiative: Option<Text>,
    initiative_modifier: Option<Text>,
    tie_break: Option<Text>,
    actions: Option<Text>,
    out_of_fight: Option<Text>,
    /// Where this holds for whose turn it is, the ruleset's `choices` and `act` hooks
    /// play the turn; elsewhere combat.toml's actions.
    hooks_if: Option<Text>,
    /// After an action combat.toml played, where this holds, another in the same turn.
    more: Option<Text>,
    /// Done to the actor once a turn, before the first action combat.toml does in it.
    before_first: Option<Text>,
}

/// The names of combat.toml's `toward` list, each once, read before the rest of it is
/// (tactics lists read them); none when the file does not decode.
pub(super) fn toward_names(file: &SourceFile) -> Vec<String> {
    #[derive(Deserialize)]
    struct Toward {
        #[serde(default)]
        toward: Vec<String>,
    }
    let mut names: Vec<String> = toml::from_str::<Toward>(file.text())
        .map(|t| t.toward)
        .unwrap_or_default();
    let mut seen = Vec::new();
    names.retain(|name| {
        let first = !seen.contains(name);
        seen.push(name.clone());
        first
    });
    names
}

/// The tables combat.toml's actions name as called locations (`[[action]] location`),
/// each once, read before the rest of it is (their rows are what `location` may be
/// compared with); none when the file does not decode.
pub(super) fn called_location_tables(file: &SourceFile) -> Vec<String> {
    #[derive(Deserialize)]
    struct Called {
        #[serde(default)]
        action: Vec<CalledAction>,
    }
    #[derive(Deserialize)]
    struct CalledAction {
        location: Option<String>,
    }
    let mut names: Vec<String> = Vec::new();
    let actions = toml::from_str::<Called>(file.text()).map_or_else(|_| Vec::new(), |c| c.action);
    for name in actions.into_iter().filter_map(|a| a.location) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The rows of a table that a called location chooses among: a look-up's keys (each a
/// name), a roll table's rows; `Err` with what is wrong with any other table.
pub(super) fn called_location_rows(table: &Table) -> Result<Vec<String>, String> {
    match &table.kind {
        TableKind::Roll(roll) => Ok(roll.rows.iter().map(|r| r.name.value.clone()).collect()),
        TableKind::Lookup(lookup) => lookup
            .rows
            .iter()
            .map(|row| match &row.key.value {
                Key::Name(name) => Ok(name.clone()),
                Key::Range(_) => Err(format!(
                    "a row of `{}` is keyed by a number; the rows of a called location are names",
                    table.name.value
                )),
            })
            .collect::<Result<Vec<_>, _>>()
            .and_then(|rows| {
                if rows.is_empty() {
                    Err(format!("`{}` has no rows to aim at", table.name.value))
                } else {
                    Ok(rows)
                }
            }),
        other => Err(format!(
            "`{}` is a {} table; a called location needs a look-up table (or a roll table) whose rows name the locations",
            table.name.value,
            other.keyword()
        )),
    }
}

/// `[hands]`: how many hands a combatant has, and how many a weapon takes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HandsEntry {
    count: TomlSpanned<i64>,
    needs: Text,
    /// Actions a dropped weapon costs to pick up (`ready`), more than one carried.
    #[serde(default)]
    pick_up: u32,
}

/// `[[setup]]`, `[[round_start]]`, `[[round_end]]`: actions done to a combatant where
/// `if` holds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleEntry {
    #[serde(rename = "if")]
    guard: Option<Text>,
    #[serde(rename = "do")]
    actions: Option<Text>,
    /// The decision the combatant makes among the options.
    decision: Option<String>,
    #[serde(default)]
    option: Vec<OptionEntry>,
}

/// `[[round_start.option]]`, `[[exchanges.NAME.after.option]]`: an option of a rule's
/// decision, offered where `if` holds; its actions (none unless said) are done when chosen.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionEntry {
    name: Option<Text>,
    #[serde(rename = "if")]
    guard: Option<Text>,
    #[serde(rename = "do")]
    actions: Option<Text>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionEntry {
    name: Text,
    #[serde(rename = "if")]
    guard: Option<Text>,
    /// The exchange it runs; none: only its own actions.
    exchange: Option<Text>,
    /// Which foes the exchange may be run against (`other` each foe in turn): every
    /// foe still in the fight when absent.
    targets: Option<Text>,
    /// Done to the actor before the exchange, and after it.
    before: Option<Text>,
    after: Option<Text>,
    /// A decision the actor makes after `before` (`[[action.option]]`s), the chosen
    /// option's actions done to it before the exchange.
    decision: Option<String>,
    #[serde(default)]
    option: Vec<OptionEntry>,
    /// A called location: a table of tables/ (a look-up whose keys are names, or a
    /// roll table) whose rows are where the actor may aim the exchange's blow.
    location: Option<Text>,
    /// It ends the turn (waiting): done as the first action, undone after it.
    #[serde(default)]
    ends_turn: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TestEntry {
    roll: Text,
    total: Option<Text>,
    target: Text,
    /// A situational modifier's name (of a modifier list of tables/), and when it applies.
    #[serde(default)]
    modifiers: IndexMap<String, Text>,
    /// `[level, condition]` pairs, tried in the order written.
    #[serde(default)]
    levels: Vec<(Text, Text)>,
    /// A list of `[level_lists]` instead of `levels`.
    level_list: Option<Text>,
    /// The levels that pass it when it is made on its own (`test NAME or ...`).
    #[serde(default)]
    pass: Vec<Text>,
    /// A text statistic naming the skill the test is logged under.
    skill_of: Option<Text>,
    /// How the difficulty grades its modifiers name apply.
    grades: Option<GradesEntry>,
    /// Two levels outside `pass` tie in `resist` and `contest`: nobody wins.
    #[serde(default)]
    failures_tie: Option<TomlSpanned<bool>>,
    /// Where this holds, a modifier given in dice counts its standard value, unrolled.
    standard_modifiers: Option<Text>,
    /// The least a target its modifiers moved may be, a number that rolls no dice.
    target_min: Option<Text>,
    /// How `resist` and `contest` compare two tests of it: `levels` (the default: the
    /// better level, then the higher roll) or `margin` (who passes by more).
    compare: Option<Text>,
    /// Under `compare = "margin"`: by how much a test passes (`target - total` unless
    /// said), reading `roll`, `total` and `target`.
    margin: Option<Text>,
    /// A second roll the tester may choose once the first is known.
    reroll: Option<RerollEntry>,
    /// Of two tests rolled against each other, a target over this lowers both by the
    /// excess.
    excess_over: Option<i64>,
    /// The log gives the level with the test's margin (`target - total`): `success, by
    /// 3`, `failure, missed by 2`.
    #[serde(default)]
    log_margin: bool,
}

/// `[tests.NAME.reroll]`: when the tester may roll again.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RerollEntry {
    /// Read of the test just rolled: its `level`, `roll`, `total`, `target`.
    #[serde(rename = "if")]
    guard: Text,
    /// What the tester is asked.
    decision: Text,
    /// Two option names: the first rolls again, the second keeps the roll.
    options: TomlSpanned<Vec<String>>,
    /// Done to the tester before the second roll (what it costs).
    #[serde(rename = "do")]
    actions: Option<Text>,
}

/// `[tests.NAME.grades]`: the difficulty grades of ruleset.toml applied to a test.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GradesEntry {
    /// A look-up of tables/ whose rows are the grades, with `multiply` and `divide`.
    table: Text,
    /// The grade of a test no situation grades.
    standard: Text,
    /// `down` (the default), `up` or `nearest`: how a scaled target is rounded.
    round: Option<Text>,
    /// `[grade, level]` pairs: grades not rolled, and the level each gives.
    #[serde(default)]
    no_roll: Vec<(Text, Text)>,
    /// Steps harder (easier when negative), a number.
    shift: Option<Text>,
    /// `[easiest, hardest]`: the grades a shift moves within.
    shift_within: Option<(Text, Text)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExchangeEntry {
    label: Option<String>,
    test: Text,
    /// The attacker's weapon: `true` (the first in hand), a trait (the first in hand
    /// with it), `"not TRAIT"` (the first in hand without it); else the first in hand.
    weapon: Option<TomlSpanned<toml::Value>>,
    /// `{ weapon = ID, test = NAME }`: what the attacker fights with when `weapon`
    /// finds nothing in hand.
    bare_hands: Option<BareHandsEntry>,
    /// With two or more weapons in hand that `weapon` looks for, the attacker chooses
    /// among them (decision `weapon`) rather than striking with the first.
    #[serde(default)]
    choose_weapon: bool,
    #[serde(default)]
    reactions: Vec<ReactionEntry>,
    /// The decision the defender declares its reaction by (`reaction` unless said).
    reaction_decision: Option<String>,
    /// Reactions declared once the attack is rolled, where this holds.
    reactions_after: Option<Text>,
    unopposed: Option<Text>,
    outcome: Option<Text>,
    effects: Option<EffectsEntry>,
    /// What combat.toml adds to effects of the list, by name.
    #[serde(default)]
    effect: IndexMap<String, EffectEntry>,
    hits: Text,
    damage: Option<Text>,
    reduction: Option<Text>,
    location: Option<Text>,
    choose_location: Option<Text>,
    redirect_location: Option<Text>,
    /// When the location is found: `"blow"` (unless said: once the blow lands),
    /// `"attack"` (once the attack is rolled, before the defence) or `"damage"` (once the
    /// damage is rolled, before the reduction: a blow the defence takes whole is found
    /// one too).
    location_at: Option<Text>,
    armour: Option<Text>,
    /// Whether what gets past the armour is taken off hit points (a guard; always
    /// unless said).
    take: Option<Text>,
    /// What the defender takes of the damage past the armour (`damage`).
    injury: Option<Text>,
    /// The location whose hit points every blow takes (the location found still says
    /// the armour and the effects).
    pool: Option<Text>,
    #[serde(default)]
    wounds: Vec<WoundEntry>,
    /// A wound level comes once per location.
    #[serde(default)]
    wounds_once_per_location: bool,
    /// The wound is judged at the blow but logged, and its actions done, once the
    /// chosen effects' actions are.
    #[serde(default)]
    wounds_after_effects: bool,
    #[serde(default)]
    after: Vec<AfterEntry>,
    knockback: Option<KnockbackEntry>,
    instead: Option<InsteadEntry>,
}

/// `[exchanges.NAME.instead]`: what a blow that lands may do instead of damage.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InsteadEntry {
    decision: String,
    #[serde(rename = "if")]
    guard: Text,
    option: Vec<InsteadOptionEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InsteadOptionEntry {
    name: String,
    #[serde(rename = "if")]
    guard: Option<Text>,
    #[serde(default)]
    location: bool,
    #[serde(rename = "do")]
    actions: Text,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BareHandsEntry {
    /// A weapon of equipment.toml.
    weapon: Text,
    /// A test kind of combat.toml.
    test: Text,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KnockbackEntry {
    #[serde(rename = "if")]
    guard: Text,
    metres: Text,
    #[serde(rename = "do")]
    actions: Option<Text>,
    /// `wound` (the default: once the wound is judged) or `armour` (once the location
    /// is known, before the armour).
    at: Option<Text>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReactionEntry {
    name: Text,
    #[serde(rename = "if")]
    guard: Option<Text>,
    test: Text,
    /// Actions it costs: 1 unless said.
    cost: Option<u32>,
    /// `true`: the first weapon in hand (a parry); `false`: none (a dodge); a trait:
    /// the first weapon in hand with it, else the first.
    weapon: Option<TomlSpanned<toml::Value>>,
    /// `{ weapon = ID, test = NAME }`: what it is made with when `weapon` finds nothing
    /// in hand.
    bare_hands: Option<BareHandsEntry>,
    /// When the defender may withdraw it, once the attack is rolled.
    withdraw: Option<Text>,
    /// The name of that decision; `withdraw_NAME` unless said.
    withdraw_decision: Option<String>,
    /// When it costs no action.
    free: Option<Text>,
    /// Done to the defender once its test is rolled.
    #[serde(rename = "do")]
    actions: Option<Text>,
    /// Where the attacker rolls its test again against the defence.
    attacker_rolls_again: Option<Text>,
    /// The matrix of results the reaction reads.
    outcome: Option<Text>,
    /// Rolled as it is declared, before the attack roll.
    before_attack: Option<TomlSpanned<bool>>,
    /// Its roll is a total the rules keep, not a test: not logged as one.
    #[serde(default)]
    total_only: bool,
    /// What its test is logged under (its name unless said; `{weapon}` is the name of
    /// the weapon it is made with).
    label: Option<String>,
    /// Done to the defender once it is declared, before its test is rolled.
    before: Option<Text>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EffectsEntry {
    /// The effect list (`effects NAME { ... }` in tables/).
    list: Text,
    /// How many the winner chooses; `outcome.levels` unless said.
    count: Option<Text>,
    /// Levels the attacker gains before the effects, unless the defender won.
    bonus: Option<Text>,
    /// The decision's name; `effect` unless said.
    decision: Option<String>,
}

/// `[exchanges.NAME.effect.EFFECT]`: when an effect is offered, and what it does.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EffectEntry {
    offered: Option<Text>,
    #[serde(rename = "if")]
    guard: Option<Text>,
    #[serde(rename = "do")]
    actions: Option<Text>,
    /// `winner` or `loser` (the default).
    to: Option<Text>,
    /// `blow` or `after` (the default).
    at: Option<Text>,
    /// After `do`, the actions of the first case whose `if` holds.
    #[serde(default)]
    case: Vec<CaseEntry>,
    /// With a decision, the winner chooses among the named cases whose `if` holds.
    decision: Option<String>,
}

/// `[[exchanges.NAME.effect.EFFECT.case]]`: actions done where `if` holds (always
/// without one), when no case before it was; with the effect's `decision`, an option
/// the winner may choose by its name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseEntry {
    name: Option<Text>,
    #[serde(rename = "if")]
    guard: Option<Text>,
    #[serde(rename = "do")]
    actions: Text,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WoundEntry {
    level: String,
    #[serde(rename = "if")]
    guard: Text,
    #[serde(rename = "do")]
    actions: Option<Text>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AfterEntry {
    /// `outcome` (before the blow) or `end` (the default).
    at: Option<Text>,
    /// How many times the actions are done (once unless said).
    repeat: Option<Text>,
    #[serde(rename = "if")]
    guard: Text,
    to: Option<Text>,
    #[serde(rename = "do")]
    actions: Option<Text>,
    /// The decision the party the rule befalls makes among the options.
    decision: Option<String>,
    #[serde(default)]
    option: Vec<OptionEntry>,
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
    /// The test kinds, which `resist` names, and those that say their `pass` levels,
    /// which `test` names.
    tests: Vec<String>,
    passing: Vec<String>,
    /// The exchanges, which `strike` names.
    exchanges: Vec<String>,
    /// The decisions of `[decisions]`, which `decide` names.
    decisions: Vec<String>,
    /// Compiling the actions of `engaged_foes (...)` in a turn rule, where each foe may
    /// `strike` at the combatant whose turn it is.
    striking_from_turn: bool,
}

impl<'a> Compiler<'a> {
    /// Move to the place the next expressions are written at.
    fn at(&mut self, place: Place, may_roll: bool, described: String) {
        self.scope.at = place;
        self.scope.may_roll = may_roll;
        // A test's level is read only once it is known: by its `reroll`.
        self.scope.hidden = if place == Place::Test {
            &["level"]
        } else {
            &[]
        };
        self.scope.place = described;
    }

    /// Where the expression's text starts in the file: after the quotes, and after the
    /// newline a multi-line string (`'''`) begins with.
    fn offset(&self, text: &Text) -> usize {
        let range = text.span();
        let raw = self.file.text().get(range.start..range.end).unwrap_or("");
        match raw.find(text.get_ref().as_str()) {
            Some(at) if !text.get_ref().is_empty() => range.start + at,
            _ => content(text).start,
        }
    }

    fn number(&mut self, text: &Text) -> Option<Number> {
        let offset = self.offset(text);
        compile_number(self.file, text.get_ref(), offset, &mut self.scope)
            .map_err(|found| self.problems.extend(found.into_iter().map(Into::into)))
            .ok()
    }

    fn condition(&mut self, text: &Text) -> Option<Condition> {
        let offset = self.offset(text);
        compile_bool(self.file, text.get_ref(), offset, &mut self.scope)
            .map_err(|found| self.problems.extend(found.into_iter().map(Into::into)))
            .ok()
    }

    fn unknown(&mut self, code: &'static str, kind: &'static str, text: &Text, known: Vec<String>) {
        let from = match kind {
            "success level" => "in ruleset.toml `success_levels`",
            "weapon trait" => "in ruleset.toml `weapon_traits`",
            "text statistic" => "in ruleset.toml `[statistics]` as \"text\"",
            "difficulty grade" => "in ruleset.toml `difficulty_grades`",
            "table" => "of this ruleset",
            "weapon" => "in equipment.toml `[weapons]`",
            "comparison" => "a test kind may make",
            "stage" => "that `location_at` may name",
            "pool" => "that may hold the hit points (`total` or a location of the table)",
            _ => "in combat.toml",
        };
        self.problems.push(
            UnknownName::new(
                code,
                kind,
                self.file,
                text.get_ref(),
                content(text),
                from,
                known,
            )
            .into(),
        );
    }

    /// A test's levels, `[level, condition]` pairs in the order written; the place is
    /// set by the caller.
    fn levels(&mut self, written: &[(Text, Text)], success_levels: &[Name]) -> Vec<Level> {
        let mut levels = Vec::new();
        for (level, guard) in written {
            let condition = self.condition(guard);
            match success_levels.iter().position(|l| l == level.get_ref()) {
                Some(at) => levels.extend(condition.map(|guard| Level {
                    level: at as u32,
                    guard,
                })),
                None => self.unknown(
                    "affray::combat::unknown_level",
                    "success level",
                    level,
                    success_levels.iter().map(|l| l.to_string()).collect(),
                ),
            }
        }
        levels
    }

    /// Actions written in a TOML string, parsed and checked like a table row's.
    fn actions(&mut self, text: &Text, names: &Names<'_>) -> Option<Vec<Spanned<Action>>> {
        match parse_actions(self.file, text.get_ref(), self.offset(text)) {
            Ok(mut actions) => {
                names.check_actions(&actions, self.file, self.problems);
                let file = self.file;
                let tests = Some((self.tests.as_slice(), self.passing.as_slice()));
                check_resists(&actions, tests, file, self.problems);
                self.action_exprs(&mut actions);
                Some(actions)
            }
            Err(error) => {
                self.problems.push(error.into());
                None
            }
        }
    }

    /// Compile the expressions written in actions (`set NAME (EXPR)`, `for (EXPR)
    /// actions`) at the place the actions are written; they may roll dice.
    fn action_exprs(&mut self, actions: &mut [Spanned<Action>]) {
        for action in actions {
            // The foes at hand of the combatant whose turn it is are a turn rule's.
            if action.value.needs_turn() && self.scope.at != Place::Turn {
                self.rule(
                    action.span,
                    "only in a turn rule",
                    format!(
                        "`{}` is done by the foes at hand of the combatant whose turn it is: an exchange has its own parties",
                        action.value
                    ),
                    "in an exchange, name its parties (`attacker`, `defender`, `winner`, `loser`); move this to an `[[action]]`'s `before` or `after`",
                );
                continue;
            }
            // Each foe at hand may strike at the combatant whose turn it is.
            if let Action::Party {
                party: crate::tables::Party::EngagedFoes,
                actions,
            } = &mut action.value
            {
                let striking = std::mem::replace(&mut self.striking_from_turn, true);
                self.action_exprs(actions);
                self.striking_from_turn = striking;
                continue;
            }
            // The blow, the weapon and the parties are an exchange's.
            let strikes_from_turn =
                matches!(action.value, Action::Strike { .. }) && self.striking_from_turn;
            if action.value.needs_exchange()
                && self.scope.at != Place::Exchange
                && !strikes_from_turn
            {
                self.rule(
                    action.span,
                    "only in an exchange",
                    format!(
                        "`{}` is done to an exchange's blow, weapon or parties: a rule of the turn has none",
                        action.value
                    ),
                    "move the rule to an exchange: an effect, a wound or an `after` rule",
                );
                continue;
            }
            if let Some(expr) = action.value.expression_mut() {
                self.action_expr(expr);
            }
            if let Action::If { condition, .. } = &mut action.value {
                self.action_guard(condition);
            }
            if let Action::Toward { value, index, .. } = &mut action.value {
                let known = &self.scope.vocabulary.toward;
                match known.iter().position(|n| value.value == n.as_str()) {
                    Some(at) => *index = at as u32,
                    None => self.problems.push(
                        UnknownName::new(
                            "affray::combat::unknown_toward",
                            "toward value",
                            self.file,
                            value.value.as_str(),
                            value.span,
                            "in combat.toml's `toward` list",
                            known.clone(),
                        )
                        .into(),
                    ),
                }
            }
            if let Action::Strike { exchange, .. } = &action.value
                && !self.exchanges.iter().any(|e| exchange.value == e.as_str())
            {
                self.problems.push(
                    UnknownName::new(
                        "affray::combat::unknown_exchange",
                        "exchange",
                        self.file,
                        exchange.value.as_str(),
                        exchange.span,
                        "in combat.toml",
                        self.exchanges.clone(),
                    )
                    .into(),
                );
            }
            if let Action::Decide { decision } = &action.value
                && !self.decisions.iter().any(|d| decision.value == d.as_str())
            {
                self.problems.push(
                    UnknownName::new(
                        "affray::combat::unknown_decision",
                        "decision",
                        self.file,
                        decision.value.as_str(),
                        decision.span,
                        "in combat.toml's `[decisions]`",
                        self.decisions.clone(),
                    )
                    .into(),
                );
            }
            for branch in action.value.branches_mut() {
                self.action_exprs(branch);
            }
        }
    }

    /// Where an action's expression `text` stands for its diagnostics: in the file at
    /// `span`, or, since a TOML string with escapes does not appear in the file as
    /// decoded, alone in a file of its own (returned, with offset 0).
    fn located(&self, text: &str, start: usize, end: usize) -> (Option<SourceFile>, usize) {
        if self.file.text().get(start..end) == Some(text) {
            (None, start)
        } else {
            let alone = SourceFile::new(format!("{} (actions)", self.file.name()), text);
            (Some(alone), 0)
        }
    }

    fn action_expr(&mut self, expr: &mut ActionExpr) {
        let text = expr.text.value.clone();
        let span = expr.text.span;
        let (alone, offset) = self.located(&text, span.start, span.end);
        let file = alone.as_ref().unwrap_or(self.file);
        let may_roll = std::mem::replace(&mut self.scope.may_roll, true);
        expr.compiled = compile_number(file, &text, offset, &mut self.scope)
            .map_err(|found| self.problems.extend(found.into_iter().map(Into::into)))
            .ok();
        self.scope.may_roll = may_roll;
    }

    /// The condition of an `if` action, compiled at the place the action is written; as
    /// every guard, it rolls no dice.
    fn action_guard(&mut self, guard: &mut ActionGuard) {
        let text = guard.text.value.clone();
        let span = guard.text.span;
        let (alone, offset) = self.located(&text, span.start, span.end);
        let file = alone.as_ref().unwrap_or(self.file);
        guard.compiled = compile_bool(file, &text, offset, &mut self.scope)
            .map_err(|found| self.problems.extend(found.into_iter().map(Into::into)))
            .ok();
    }

    /// A table of the ruleset by the name written here, of the kind wanted.
    fn table<'t>(&mut self, text: &Text, names: &'t Names<'_>, kind: &str) -> Option<&'t Table> {
        let tables = names.tables;
        let Some((table, _)) = tables.iter().find(|(t, _)| t.name.value == *text.get_ref()) else {
            self.unknown(
                "affray::combat::unknown_table",
                "table",
                text,
                tables.iter().map(|(t, _)| t.name.value.clone()).collect(),
            );
            return None;
        };
        // A roll table is written `table NAME ... roll DICE`.
        let found = match table.kind.keyword() {
            "table" => "roll",
            other => other,
        };
        if found != kind {
            self.rule(
                content(text),
                &format!("a {found} table"),
                format!(
                    "`{}` is a {found} table; this needs a {kind} table",
                    text.get_ref(),
                ),
                "name a table of that kind, or write one in tables/",
            );
            return None;
        }
        Some(table)
    }

    /// A matrix whose axes are named `attacker` and `defender`, keyed by success level,
    /// read into (winner, levels) by level ids.
    fn outcome(
        &mut self,
        text: &Text,
        names: &Names<'_>,
        levels: &[Name],
    ) -> Option<OutcomeMatrix> {
        let cells = self.matrix_cells(text, names, levels, |cell| match cell {
            Cell::Empty => Ok(None),
            Cell::Wins { side, levels } => Ok(Some((side.value == "attacker", *levels))),
            Cell::Result { .. } => Err((
                "a cell that is not `attacker N`, `defender N` or `-`",
                "an outcome's cells say who wins how many levels: `attacker 1`, `defender 2`, or `-`",
            )),
        })?;
        Some(OutcomeMatrix {
            table: text.get_ref().clone().into(),
            levels: levels.len(),
            cells,
        })
    }

    /// The options of a rule's decision (a round rule's, an `after` rule's), each named,
    /// with its guard and actions, read at `place`; `None` where one is written wrong (or
    /// options come without a decision, or a decision without options). `what` names
    /// the rule's table (`round_start`, `exchanges.melee.after`); `fallback` is where a
    /// mistake is shown when no option says.
    #[allow(clippy::too_many_arguments)]
    /// A test's `reroll`: its guard reads the test's level too; two options, the first
    /// doing its actions and rolling again.
    fn reroll(&mut self, written: &RerollEntry, test: &str, names: &Names<'_>) -> Option<Reroll> {
        self.at(
            Place::Test,
            false,
            format!("the reroll of the test `{test}`"),
        );
        self.scope.hidden = &[];
        let guard = self.condition(&written.guard);
        let actions = match &written.actions {
            Some(text) => self.actions(text, names),
            None => Some(Vec::new()),
        };
        let [again, keep] = written.options.get_ref().as_slice() else {
            let span = written.options.span();
            self.rule(
                Span::new(span.start, span.end),
                "two options",
                format!(
                    "the reroll of the test `{test}` names {} option{}, not 2",
                    written.options.get_ref().len(),
                    if written.options.get_ref().len() == 1 { "" } else { "s" }
                ),
                "name two: the option that rolls again, then the one that keeps the roll (`options = [\"reroll\", \"accept\"]`)",
            );
            return None;
        };
        if again == keep {
            let span = written.options.span();
            self.rule(
                Span::new(span.start, span.end),
                "the same name twice",
                format!("the reroll of the test `{test}` names `{again}` for both options"),
                "name them apart: the decision answers with one of them",
            );
            return None;
        }
        let case = |name: &str, actions| Case {
            name: Some(Name::new(name)),
            guard: None,
            actions,
        };
        Some(Reroll {
            guard: guard?,
            decision: Name::new(written.decision.get_ref()),
            options: [case(again, actions?), case(keep, Vec::new())],
        })
    }

    fn rule_options(
        &mut self,
        decision: Option<&String>,
        entries: &[OptionEntry],
        fallback: Option<&Text>,
        what: &str,
        place: Place,
        names: &Names<'_>,
    ) -> Option<Vec<Case>> {
        let mut options = Vec::new();
        let mut complete = true;
        for option in entries {
            let Some(name) = &option.name else {
                if let Some(text) = option
                    .actions
                    .as_ref()
                    .or(option.guard.as_ref())
                    .or(fallback)
                {
                    self.rule(
                        content(text),
                        "an option with no name",
                        format!("an option of a `{what}` rule's decision has no `name`"),
                        "name the option (`name = \"extra_parry\"`): the decision offers it by that name",
                    );
                }
                complete = false;
                continue;
            };
            self.at(
                place,
                false,
                format!("the option `{}` of a `{what}` rule", name.get_ref()),
            );
            let guard = option.guard.as_ref().map(|t| self.condition(t));
            let actions = match &option.actions {
                Some(text) => self.actions(text, names),
                None => Some(Vec::new()),
            };
            match (guard, actions) {
                (Some(None), _) | (_, None) => complete = false,
                (guard, Some(actions)) => options.push(Case {
                    name: Some(Name::new(name.get_ref())),
                    guard: guard.flatten(),
                    actions,
                }),
            }
        }
        if decision.is_some() == entries.is_empty() {
            let text = entries
                .first()
                .and_then(|o| o.name.as_ref().or(o.actions.as_ref()))
                .or(fallback);
            if let Some(text) = text {
                self.rule(
                    content(text),
                    "a decision without options, or options without a decision",
                    format!("a `{what}` rule with a `decision` needs `[[{what}.option]]`s, and options need the `decision` they answer"),
                    "write both: `decision = \"off_hand\"` and an `[[{what}.option]]` (`name`, `if`, `do`) for each choice",
                );
            }
            complete = false;
        }
        complete.then_some(options)
    }

    /// A reaction's table of results (a Parry or a Dodge table): a matrix like
    /// an outcome's whose cells are words, each alone (`misses`) or followed by a number
    /// (`deduct_ap 200%`), read as `outcome.WORD` by `words`' places. A word is the same
    /// kind in every cell: a flag where always alone, else a number.
    fn results(
        &mut self,
        text: &Text,
        names: &Names<'_>,
        levels: &[Name],
        words: &mut Vec<(String, bool)>,
    ) -> Option<ResultMatrix> {
        let mut kinds_clash = None;
        let cells = self.matrix_cells(text, names, levels, |cell| {
            let Cell::Result { values, actions } = cell else {
                return match cell {
                    Cell::Empty => Ok(ResultCell::default()),
                    _ => Err((
                        "a cell that says who wins",
                        "a reaction's table of results has words in its cells: `misses`, `deduct_ap 200%`, or `-` for nothing",
                    )),
                };
            };
            if !actions.is_empty() {
                return Err((
                    "actions in a reaction's table of results",
                    "write the words the exchange reads (`outcome.WORD`) and do what they say in combat.toml's `after` rules",
                ));
            }
            let mut result = ResultCell {
                text: values
                    .iter()
                    .map(|v| match &v.value {
                        Value::Percent(p) => format!("{}%", p.percent),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                ..ResultCell::default()
            };
            let mut values = values.iter().peekable();
            while let Some(value) = values.next() {
                let Value::Name(word) = &value.value else {
                    return Err((
                        "a number with no word before it",
                        "write the word the number belongs to first: `deduct_ap 200%`",
                    ));
                };
                let number = match values.peek().map(|v| &v.value) {
                    Some(Value::Integer(n)) => Some(*n),
                    Some(Value::Percent(p)) => Some(p.percent),
                    _ => None,
                };
                if number.is_some() {
                    values.next();
                }
                let at = match words.iter().position(|(w, _)| *w == word.name) {
                    Some(at) => at,
                    None => {
                        words.push((word.name.clone(), number.is_some()));
                        words.len() - 1
                    }
                };
                if words[at].1 != number.is_some() {
                    kinds_clash = Some(word.name.clone());
                }
                if at >= 64 {
                    return Err((
                        "more than 64 words",
                        "the tables of results of one exchange use at most 64 different words",
                    ));
                }
                match number {
                    Some(number) => result.numbers.push((at as u8, number)),
                    None => result.words |= 1 << at,
                }
            }
            Ok(result)
        })?;
        if let Some(word) = kinds_clash {
            self.rule(
                content(text),
                "a word written both alone and with a number",
                format!(
                    "`{word}` has a number in one cell of the results and none in another (`{}`)",
                    text.get_ref()
                ),
                "give the word its number in every cell, or in none",
            );
            return None;
        }
        Some(ResultMatrix {
            table: text.get_ref().clone().into(),
            levels: levels.len(),
            cells,
        })
    }

    /// The cells of a matrix whose axes are `attacker` and `defender`, keyed by success
    /// level, at `[defence * levels + attack]`, each read by `read` (`Err`: the problem's
    /// label and help); the default where the matrix has no cell.
    fn matrix_cells<T: Clone + Default>(
        &mut self,
        text: &Text,
        names: &Names<'_>,
        levels: &[Name],
        mut read: impl FnMut(&Cell) -> Result<T, (&'static str, &'static str)>,
    ) -> Option<Vec<T>> {
        let table = self.table(text, names, "matrix")?;
        let TableKind::Matrix(matrix) = &table.kind else {
            return None;
        };
        let axes = [
            matrix.rows_axis.name.value.as_str(),
            matrix.cols_axis.name.value.as_str(),
        ];
        let defender_rows = match axes {
            ["defender", "attacker"] => true,
            ["attacker", "defender"] => false,
            _ => {
                self.rule(
                    content(text),
                    "axes not named attacker and defender",
                    format!(
                        "the matrix `{}` has axes `{}` and `{}`; an outcome reads a matrix whose axes are `attacker` and `defender`",
                        text.get_ref(),
                        axes[0],
                        axes[1]
                    ),
                    "write the matrix as `rows defender by success_level cols attacker by success_level`",
                );
                return None;
            }
        };
        let level = |key: &Key| match key {
            Key::Name(name) => levels.iter().position(|l| l == name),
            Key::Range(_) => None,
        };
        let count = levels.len();
        let mut cells = vec![T::default(); count * count];
        for row in &matrix.rows {
            let Some(row_level) = level(&row.key.value) else {
                continue;
            };
            for (column, cell) in matrix.columns.iter().zip(&row.cells) {
                let Some(column_level) = level(&column.value) else {
                    continue;
                };
                let (defence, attack) = if defender_rows {
                    (row_level, column_level)
                } else {
                    (column_level, row_level)
                };
                cells[defence * count + attack] = match read(&cell.value) {
                    Ok(value) => value,
                    Err((label, help)) => {
                        self.rule(
                            content(text),
                            label,
                            format!(
                                "the matrix `{}` has a cell an outcome cannot read (row `{}`, column `{}`)",
                                text.get_ref(),
                                row.key.value,
                                column.value
                            ),
                            help,
                        );
                        return None;
                    }
                };
            }
        }
        Some(cells)
    }

    /// A test's situational modifiers, each found in the modifier lists of tables/ with
    /// its value and non-stacking group, and its guard compiled.
    fn test_modifiers(
        &mut self,
        written: &IndexMap<String, Text>,
        names: &Names<'_>,
        graded: bool,
    ) -> Vec<TestModifier> {
        let grade_names = names.settings.grade_names();
        let mut groups: Vec<String> = Vec::new();
        let mut modifiers = Vec::new();
        for (name, guard_text) in written {
            let found = names
                .tables
                .iter()
                .find_map(|(table, _)| match &table.kind {
                    TableKind::Modifiers(list) => list.items.iter().find_map(|item| match item {
                        ModifierItem::Single(m) if m.name.value == *name => Some((m, None)),
                        ModifierItem::Group(g) => g
                            .modifiers
                            .iter()
                            .find(|m| m.name.value == *name)
                            .map(|m| (m, (!g.stacking).then(|| g.group.value.clone()))),
                        _ => None,
                    }),
                    _ => None,
                });
            let guard = self.condition(guard_text);
            let before = &self.file.text()[..guard_text.span().start];
            let key_span = before
                .rfind(name.as_str())
                .map_or(content(guard_text), |at| Span::new(at, at + name.len()));
            let Some((modifier, group)) = found else {
                self.problems.push(
                    UnknownName::new(
                        "affray::combat::unknown_modifier",
                        "modifier",
                        self.file,
                        name,
                        key_span,
                        "in the modifier lists of tables/",
                        self.scope.vocabulary.modifiers.clone(),
                    )
                    .into(),
                );
                continue;
            };
            let mut grade = None;
            let mut dice = None;
            let value = match (&modifier.value.value, &modifier.scale) {
                (ModifierValue::Percent { percent }, None) => *percent,
                (ModifierValue::Flat { amount }, None) => *amount,
                // Rolled where it applies, or its standard value (`standard_modifiers`).
                (
                    ModifierValue::Dice {
                        dice: rolled,
                        standard,
                    },
                    None,
                ) => {
                    dice = Some(Number::Roll(Box::new(rolled.clone())));
                    *standard
                }
                (ModifierValue::Grade { grade: named }, None) if graded => {
                    // An unknown grade is reported where the list names it.
                    let Some(at) = grade_names.iter().position(|g| *g == named.value) else {
                        continue;
                    };
                    grade = Some(at as u32);
                    0
                }
                (ModifierValue::Grade { .. }, None) => {
                    self.rule(
                        key_span,
                        "not a plain number",
                        format!(
                            "the modifier `{name}` is a difficulty grade, and the test does not apply grades"
                        ),
                        "give the test a `[tests.NAME.grades]` table, or use a plain percentage or number",
                    );
                    continue;
                }
                _ => {
                    self.rule(
                        key_span,
                        "not a plain number",
                        format!(
                            "the modifier `{name}` is not a plain percentage, number or dice: a test adds only those to its target"
                        ),
                        "apply it in the test's `target` expression instead, or in a script",
                    );
                    continue;
                }
            };
            let group = group.filter(|_| grade.is_none());
            let group = group.map(|group| match groups.iter().position(|g| *g == group) {
                Some(at) => at,
                None => {
                    groups.push(group);
                    groups.len() - 1
                }
            });
            if groups.len() > MAX_GROUPS {
                self.rule(
                    key_span,
                    "too many groups",
                    format!(
                        "a test's modifiers come from at most {MAX_GROUPS} non-stacking groups"
                    ),
                    "split the test",
                );
                continue;
            }
            if let Some(guard) = guard {
                modifiers.push(TestModifier {
                    name: name.clone().into(),
                    value,
                    dice,
                    group,
                    grade,
                    guard,
                });
            }
        }
        modifiers
    }

    /// `[tests.NAME.grades]`: the look-up's scale of each grade, the grades not rolled,
    /// the standard grade, the rounding and the shift.
    fn grades(
        &mut self,
        written: &GradesEntry,
        names: &Names<'_>,
        success_levels: &[Name],
    ) -> Option<Grades> {
        let grade_names = names.settings.grade_names();
        let before = self.problems.len();
        let grade = |compiler: &mut Self, text: &Text| {
            let found = grade_names.iter().position(|g| g == text.get_ref());
            if found.is_none() {
                compiler.unknown(
                    "affray::combat::unknown_grade",
                    "difficulty grade",
                    text,
                    grade_names.clone(),
                );
            }
            found.map(|at| at as u32)
        };
        if grade_names.is_empty() {
            self.rule(
                content(&written.table),
                "no grades",
                "the test applies difficulty grades, and ruleset.toml declares none".into(),
                "list them, easiest first, in ruleset.toml `difficulty_grades`",
            );
            return None;
        }
        let standard = grade(self, &written.standard);
        let mut no_roll = vec![None; grade_names.len()];
        for (named, level) in &written.no_roll {
            let at = grade(self, named);
            match success_levels.iter().position(|l| l == level.get_ref()) {
                Some(level) => {
                    if let Some(at) = at {
                        no_roll[at as usize] = Some(level as u32);
                    }
                }
                None => self.unknown(
                    "affray::combat::unknown_level",
                    "success level",
                    level,
                    success_levels.iter().map(|l| l.to_string()).collect(),
                ),
            }
        }
        let shift_within = match &written.shift_within {
            Some((easiest, hardest)) => {
                let (easiest, hardest) = (grade(self, easiest), grade(self, hardest));
                easiest.zip(hardest)
            }
            None => Some((0, grade_names.len() as u32 - 1)),
        };
        let round = match written.round.as_ref().map(|r| r.get_ref().as_str()) {
            None | Some("down") => Rounding::Down,
            Some("up") => Rounding::Up,
            Some("nearest") => Rounding::Nearest,
            Some(other) => {
                let text = written.round.as_ref().expect("a rounding");
                self.rule(
                    content(text),
                    "not a rounding",
                    format!("`round = \"{other}\"`: a scaled target is rounded `down`, `up` or `nearest`"),
                    "write `round = \"up\"` to round fractions up, or leave it out to round them down",
                );
                Rounding::Down
            }
        };
        let shift = written.shift.as_ref().and_then(|t| self.number(t));
        let scale = self.grade_scale(&written.table, names, &grade_names);
        if self.problems.len() > before {
            return None;
        }
        Some(Grades {
            scale: scale?,
            no_roll,
            standard: standard?,
            round,
            shift,
            shift_within: shift_within?,
        })
    }

    /// The `multiply` and `divide` of each grade, from the look-up `table` names.
    fn grade_scale(
        &mut self,
        table: &Text,
        names: &Names<'_>,
        grade_names: &[String],
    ) -> Option<Vec<(i64, i64)>> {
        let found = names
            .tables
            .iter()
            .find(|(t, _)| t.name.value == *table.get_ref());
        let lookup = match found.map(|(t, _)| &t.kind) {
            Some(TableKind::Lookup(lookup)) => lookup,
            Some(_) => {
                self.rule(
                    content(table),
                    "not a look-up",
                    format!("the table `{}` is not a look-up", table.get_ref()),
                    "name a look-up whose rows are the difficulty grades, with columns `multiply` and `divide`",
                );
                return None;
            }
            None => {
                let known = names
                    .tables
                    .iter()
                    .filter(|(t, _)| matches!(t.kind, TableKind::Lookup(_)))
                    .map(|(t, _)| t.name.value.clone())
                    .collect();
                self.unknown("affray::combat::unknown_table", "table", table, known);
                return None;
            }
        };
        let column = |name: &str| lookup.columns.iter().position(|c| c.value == name);
        let (Some(multiply), Some(divide)) = (column("multiply"), column("divide")) else {
            self.rule(
                content(table),
                "no `multiply` or `divide`",
                format!(
                    "the look-up `{}` lacks a column `multiply` or `divide`",
                    table.get_ref()
                ),
                "give each grade the numbers its target is multiplied and divided by",
            );
            return None;
        };
        let number = |row: &crate::tables::LookupRow, at: usize| match row
            .cells
            .get(at)
            .and_then(|c| c.value.as_ref())
        {
            Some(Value::Integer(n)) => Some(*n),
            _ => None,
        };
        let mut scale = Vec::new();
        for grade in grade_names {
            let row = lookup
                .rows
                .iter()
                .find(|row| matches!(&row.key.value, Key::Name(name) if name == grade));
            match row.map(|row| (number(row, multiply), number(row, divide))) {
                Some((Some(m), Some(d))) if d > 0 => scale.push((m, d)),
                _ => {
                    self.rule(
                        content(table),
                        "a grade without its scale",
                        format!(
                            "the look-up `{}` gives the grade `{grade}` no whole `multiply` and positive `divide`",
                            table.get_ref()
                        ),
                        "give every grade of ruleset.toml `difficulty_grades` a row with two whole numbers",
                    );
                    return None;
                }
            }
        }
        Some(scale)
    }

    /// `weapon = true` (the first in hand, the default), `false` (none), or a trait (the
    /// first in hand with it, else the first).
    fn reaction_weapon(
        &mut self,
        written: Option<&TomlSpanned<toml::Value>>,
        vocabulary: &Vocabulary,
    ) -> ReactionWeapon {
        let Some(written) = written else {
            return ReactionWeapon::First;
        };
        match written.get_ref() {
            toml::Value::Boolean(true) => ReactionWeapon::First,
            toml::Value::Boolean(false) => ReactionWeapon::Nothing,
            toml::Value::String(written_word) => {
                let (avoid, word) = match written_word.strip_prefix("not ") {
                    Some(word) => (true, word.trim().to_string()),
                    None => (false, written_word.clone()),
                };
                let word = &word;
                let text = TomlSpanned::new(written.span(), word.clone());
                if !vocabulary.weapon_traits.contains(word) {
                    self.unknown(
                        "affray::combat::unknown_trait",
                        "weapon trait",
                        &text,
                        vocabulary.weapon_traits.clone(),
                    );
                }
                if avoid {
                    ReactionWeapon::Avoid(word.clone().into())
                } else {
                    ReactionWeapon::Prefer(word.clone().into())
                }
            }
            _ => {
                let range = written.span();
                self.rule(
                    Span::new(range.start, range.end),
                    "not true, false or a trait",
                    "a reaction's `weapon` is true, false or a weapon trait".into(),
                    "`weapon = true`: the first weapon in hand; `false`: none (a dodge); `\"shield\"`: a shield if one is in hand",
                );
                ReactionWeapon::First
            }
        }
    }

    /// An effect list, its columns read by level ids.
    fn effects(
        &mut self,
        entry: &EffectsEntry,
        names: &Names<'_>,
        levels: &[Name],
    ) -> Option<EffectsStage> {
        let table = self.table(&entry.list, names, "effects")?;
        let TableKind::Effects(list) = &table.kind else {
            return None;
        };
        if list.effects.len() > MAX_EFFECTS {
            self.rule(
                content(&entry.list),
                "too many effects",
                format!(
                    "the effect list `{}` has {} effects; an exchange reads at most {MAX_EFFECTS}",
                    entry.list.get_ref(),
                    list.effects.len()
                ),
                "split the list",
            );
            return None;
        }
        let effects = list
            .effects
            .iter()
            .map(|effect| EffectRule {
                name: effect.name.value.clone().into(),
                offensive: effect.offensive,
                defensive: effect.defensive,
                stackable: effect.stackable,
                // The resolver has checked each required level against success_levels.
                requires: effect.requires.as_ref().and_then(|r| {
                    levels
                        .iter()
                        .position(|l| *l == r.level.value)
                        .map(|at| (r.opponent, at as u32))
                }),
                traits: effect.weapons.iter().map(|w| Name::new(&w.value)).collect(),
                actions: effect.actions.clone(),
                cases: Vec::new(),
                decision: None,
                offered: None,
                guard: None,
                to: Party::Loser,
                at: EffectTime::After,
            })
            .collect();
        Some(EffectsStage {
            table: entry.list.get_ref().clone().into(),
            decision: entry
                .decision
                .clone()
                .unwrap_or_else(|| "effect".into())
                .into(),
            count: None,
            bonus: None,
            effects,
        })
    }

    /// `[exchanges.NAME.effect.EFFECT]`: each named effect's guards, actions, party and
    /// time, compiled into `stage`; false when one has a problem.
    fn effect_rules(
        &mut self,
        entries: &IndexMap<String, EffectEntry>,
        mut stage: Option<&mut EffectsStage>,
        names: &Names<'_>,
        exchange: &str,
    ) -> bool {
        let mut sound = true;
        for (effect, entry) in entries {
            let rule = stage
                .as_mut()
                .and_then(|stage| stage.effects.iter_mut().find(|e| e.name == *effect));
            let Some(rule) = rule else {
                let span = [
                    &entry.offered,
                    &entry.guard,
                    &entry.actions,
                    &entry.to,
                    &entry.at,
                ]
                .into_iter()
                .flatten()
                .map(content)
                .next()
                .unwrap_or(Span::new(0, 0));
                let known: Vec<String> = stage
                    .as_ref()
                    .map(|s| s.effects.iter().map(|e| e.name.to_string()).collect())
                    .unwrap_or_default();
                self.rule(
                    span,
                    "not an effect of the list",
                    format!("`[exchanges.{exchange}.effect.{effect}]`: the exchange's effect list has no effect `{effect}`"),
                    &if stage.is_none() {
                        "give the exchange `effects = { list = \"...\" }` first".to_string()
                    } else {
                        format!("the effects are: {}", known.join(", "))
                    },
                );
                sound = false;
                continue;
            };
            self.at(
                Place::Exchange,
                false,
                format!("the effect `{effect}`'s `offered`"),
            );
            if let Some(text) = &entry.offered {
                rule.offered = self.condition(text);
                sound &= rule.offered.is_some();
            }
            self.at(
                Place::Exchange,
                false,
                format!("the effect `{effect}`'s `if`"),
            );
            if let Some(text) = &entry.guard {
                rule.guard = self.condition(text);
                sound &= rule.guard.is_some();
            }
            if let Some(text) = &entry.actions {
                match self.actions(text, names) {
                    Some(actions) => rule.actions.extend(actions),
                    None => sound = false,
                }
            }
            for (at, case) in entry.case.iter().enumerate() {
                self.at(
                    Place::Exchange,
                    false,
                    format!("case {} of the effect `{effect}`", at + 1),
                );
                let guard = case.guard.as_ref().map(|text| self.condition(text));
                let actions = self.actions(&case.actions, names);
                // With a decision each case is an option, named; without, none is.
                let name = match (&entry.decision, &case.name) {
                    (Some(_), Some(_)) | (None, None) => {
                        case.name.as_ref().map(|n| Name::new(n.get_ref()))
                    }
                    (Some(decision), None) => {
                        self.rule(
                            content(&case.actions),
                            "a case without a name",
                            format!("case {} of the effect `{effect}` is an option of the decision `{decision}`, and has no name", at + 1),
                            "give it `name = \"...\"`: the name the decision offers (and tactics.toml chooses)",
                        );
                        sound = false;
                        None
                    }
                    (None, Some(name)) => {
                        self.rule(
                            content(name),
                            "a name without a decision",
                            format!("case {} of the effect `{effect}` is named, and the effect asks no decision", at + 1),
                            "give the effect `decision = \"...\"` for the winner to choose among its cases, or remove the name (the first case that holds is done)",
                        );
                        sound = false;
                        None
                    }
                };
                match (guard, actions) {
                    (Some(None), _) | (_, None) => sound = false,
                    (guard, Some(actions)) => rule.cases.push(Case {
                        name,
                        guard: guard.flatten(),
                        actions,
                    }),
                }
            }
            rule.decision = entry.decision.as_deref().map(Name::new);
            match entry.to.as_ref().map(|t| t.get_ref().as_str()) {
                None | Some("loser") => rule.to = Party::Loser,
                Some("winner") => rule.to = Party::Winner,
                Some(other) => {
                    if let Some(text) = &entry.to {
                        self.rule(
                            content(text),
                            "not a party of the outcome",
                            format!(
                                "`to = \"{other}\"`: an effect befalls the winner or the loser"
                            ),
                            "write `to = \"loser\"` (the default) or `to = \"winner\"`",
                        );
                    }
                    sound = false;
                }
            }
            match entry.at.as_ref().map(|t| t.get_ref().as_str()) {
                None | Some("after") => rule.at = EffectTime::After,
                Some("blow") => rule.at = EffectTime::Blow,
                Some(other) => {
                    if let Some(text) = &entry.at {
                        self.rule(
                            content(text),
                            "not a time of the exchange",
                            format!("`at = \"{other}\"`: an effect's actions are done at the blow or after it"),
                            "write `at = \"after\"` (the default) or `at = \"blow\"` (once the damage is taken, before the wound is judged)",
                        );
                    }
                    sound = false;
                }
            }
        }
        sound
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
    weapons: &[String],
    file: &SourceFile,
    problems: &mut Problems,
) -> Option<Combat> {
    let before = problems.len();
    // The `toward` names are combat.toml's own.
    let with_toward;
    let vocabulary = if decoded.toward.is_empty() {
        vocabulary
    } else {
        let mut names: Vec<String> = Vec::new();
        for name in &decoded.toward {
            if names.contains(name.get_ref()) {
                problems.push(
                    RulesetProblem::Toml {
                        src: file.named(),
                        span: Some(content(name).into()),
                        file: file.name().to_string(),
                        label: "said twice".into(),
                        message: format!("`{}` is in `toward` twice", name.get_ref()),
                        help: "keep one".into(),
                    }
                    .into(),
                );
            } else {
                names.push(name.get_ref().clone());
            }
        }
        with_toward = Vocabulary {
            toward: names,
            ..vocabulary.clone()
        };
        &with_toward
    };
    let mut scope = FightScope::new(vocabulary, Place::Turn, String::new());
    scope.tables = names.tables.iter().map(|(table, _)| table).collect();
    let mut compiler = Compiler {
        file,
        scope,
        problems,
        tests: decoded.tests.keys().cloned().collect(),
        passing: passing_tests(decoded),
        exchanges: decoded.exchanges.keys().cloned().collect(),
        decisions: decoded.decisions.keys().cloned().collect(),
        striking_from_turn: false,
    };

    let turn_entry = &decoded.turn;
    // A step of `[turn]`: a number (which may roll dice) or a guard.
    let number = |compiler: &mut Compiler<'_>, key: &str, may_roll: bool, text: &Option<Text>| {
        compiler.at(Place::Turn, may_roll, format!("the turn's `{key}`"));
        text.as_ref().and_then(|t| compiler.number(t))
    };
    let condition = |compiler: &mut Compiler<'_>, key: &str, text: &Option<Text>| {
        compiler.at(Place::Turn, false, format!("the turn's `{key}`"));
        text.as_ref().and_then(|t| compiler.condition(t))
    };
    let initiative = number(&mut compiler, "initiative", true, &turn_entry.initiative);
    let keep_initiative = condition(
        &mut compiler,
        "keep_initiative",
        &turn_entry.keep_initiative,
    );
    let initiative_modifier = number(
        &mut compiler,
        "initiative_modifier",
        true,
        &turn_entry.initiative_modifier,
    );
    let tie_break = number(&mut compiler, "tie_break", false, &turn_entry.tie_break);
    let actions = number(&mut compiler, "actions", true, &turn_entry.actions);
    let out_of_fight = condition(&mut compiler, "out_of_fight", &turn_entry.out_of_fight);
    let hooks_if = condition(&mut compiler, "hooks_if", &turn_entry.hooks_if);
    let more = condition(&mut compiler, "more", &turn_entry.more);
    compiler.at(Place::Turn, false, "the turn's `before_first`".into());
    let before_first = match &turn_entry.before_first {
        Some(text) => compiler.actions(text, names),
        None => Some(Vec::new()),
    };
    let turn_rules = |compiler: &mut Compiler<'_>, entries: &[RuleEntry], what: &str| {
        let mut rules = Vec::new();
        for entry in entries {
            compiler.at(Place::Turn, false, format!("a `{what}` rule's `if`"));
            // `None` when not written, `Some(None)` when written wrong.
            let guard = entry.guard.as_ref().map(|t| compiler.condition(t));
            let actions = match &entry.actions {
                Some(text) => compiler.actions(text, names),
                None => Some(Vec::new()),
            };
            let options = compiler.rule_options(
                entry.decision.as_ref(),
                &entry.option,
                entry.guard.as_ref().or(entry.actions.as_ref()),
                what,
                Place::Turn,
                names,
            );
            if let (false, Some(actions), Some(options)) =
                (matches!(guard, Some(None)), actions, options)
            {
                rules.push(TurnRule {
                    guard: guard.flatten(),
                    actions,
                    decision: entry.decision.as_deref().map(Name::new),
                    options,
                });
            }
        }
        rules
    };
    let hands = decoded.hands.as_ref().and_then(|entry| {
        compiler.at(Place::Turn, false, "`[hands]` `needs`".into());
        let needs = compiler.number(&entry.needs)?;
        Some(Hands {
            count: *entry.count.get_ref(),
            needs,
            pick_up: entry.pick_up,
        })
    });
    let setup = turn_rules(&mut compiler, &decoded.setup, "setup");
    let round_start = turn_rules(&mut compiler, &decoded.round_start, "round_start");
    let round_end = turn_rules(&mut compiler, &decoded.round_end, "round_end");

    // A shared list is compiled once, so that a mistake in it is reported once.
    let mut shared_levels = IndexMap::new();
    for (name, written) in &decoded.level_lists {
        compiler.at(Place::Test, false, format!("a level of the list `{name}`"));
        let levels = compiler.levels(written, &vocabulary.success_levels);
        shared_levels.insert(name.clone(), levels);
    }

    let test_names: Vec<String> = decoded.tests.keys().cloned().collect();
    let mut tests = Vec::new();
    for (name, entry) in &decoded.tests {
        compiler.at(Place::Test, true, format!("the test `{name}`"));
        let roll = compiler.number(&entry.roll);
        compiler.scope.hidden = &["total", "level"];
        let total = entry.total.as_ref().and_then(|t| compiler.number(t));
        compiler.scope.hidden = &["total", "target", "level"];
        let target = compiler.number(&entry.target);
        compiler.at(
            Place::Test,
            false,
            format!("a modifier of the test `{name}`"),
        );
        let modifiers = compiler.test_modifiers(&entry.modifiers, names, entry.grades.is_some());
        let standard_modifiers = entry
            .standard_modifiers
            .as_ref()
            .map(|text| compiler.condition(text));
        compiler.at(
            Place::Test,
            false,
            format!("the `target_min` of the test `{name}`"),
        );
        compiler.scope.hidden = &["roll", "total", "target", "level"];
        // `None` when not written, `Some(None)` when written wrong.
        let target_min = entry.target_min.as_ref().map(|text| compiler.number(text));
        compiler.at(
            Place::Test,
            false,
            format!("the grades of the test `{name}`"),
        );
        let grades = entry
            .grades
            .as_ref()
            .map(|written| compiler.grades(written, names, &vocabulary.success_levels));
        if let (Some(list), false) = (&entry.level_list, entry.levels.is_empty()) {
            compiler.rule(
                content(list),
                "and `levels` too",
                format!("the test `{name}` has both `levels` and `level_list`"),
                "keep one: its own `levels`, or a shared list of `[level_lists]`",
            );
        }
        let levels = match &entry.level_list {
            Some(list) => match shared_levels.get(list.get_ref()) {
                Some(levels) => levels.clone(),
                None => {
                    compiler.unknown(
                        "affray::combat::unknown_level_list",
                        "level list",
                        list,
                        decoded.level_lists.keys().cloned().collect(),
                    );
                    continue;
                }
            },
            None => {
                compiler.at(Place::Test, false, format!("a level of the test `{name}`"));
                compiler.levels(&entry.levels, &vocabulary.success_levels)
            }
        };
        let no_levels = match &entry.level_list {
            Some(list) => decoded.level_lists[list.get_ref()].is_empty(),
            None => entry.levels.is_empty(),
        };
        if no_levels {
            compiler.rule(
                content(entry.level_list.as_ref().unwrap_or(&entry.roll)),
                "a test with no levels",
                format!("the test `{name}` gives no level"),
                "add `levels = [[\"LEVEL\", \"CONDITION\"], ...]`, tried in the order written",
            );
        }
        compiler.at(
            Place::Test,
            false,
            format!("the margin of the test `{name}`"),
        );
        // Of the test alone: both sides' margins are read under one binding.
        compiler.scope.hidden = &["self", "other", "weapon", "attacking", "location", "level"];
        let margin = entry.margin.as_ref().and_then(|text| compiler.number(text));
        let compare = match entry.compare.as_ref().map(|c| c.get_ref().as_str()) {
            None | Some("levels") => {
                if let Some(text) = &entry.margin {
                    compiler.rule(
                        content(text),
                        "not compared by margin",
                        format!("the test `{name}` has a `margin`, and does not compare by it"),
                        "add `compare = \"margin\"`, or remove `margin`",
                    );
                }
                Compare::Levels
            }
            Some("margin") => {
                if entry.pass.is_empty() {
                    let text = entry.compare.as_ref().expect("compare is written");
                    compiler.rule(
                        content(text),
                        "no `pass`",
                        format!(
                            "the test `{name}` compares by margin, and lists no `pass` levels"
                        ),
                        "list the levels that pass it: `pass = [\"critical\", \"success\"]`; only a test that passes wins",
                    );
                }
                Compare::Margin(margin)
            }
            Some(_) => {
                let text = entry.compare.as_ref().expect("compare is written");
                compiler.unknown(
                    "affray::combat::unknown_comparison",
                    "comparison",
                    text,
                    vec!["levels".into(), "margin".into()],
                );
                Compare::Levels
            }
        };
        let mut pass = Vec::new();
        for level in &entry.pass {
            match vocabulary
                .success_levels
                .iter()
                .position(|l| l == level.get_ref())
            {
                Some(at) => pass.push(at as u32),
                None => compiler.unknown(
                    "affray::combat::unknown_level",
                    "success level",
                    level,
                    vocabulary
                        .success_levels
                        .iter()
                        .map(|l| l.to_string())
                        .collect(),
                ),
            }
        }
        if let Some(tie) = &entry.failures_tie
            && *tie.get_ref()
            && entry.pass.is_empty()
        {
            let span = tie.span();
            compiler.rule(
                Span::new(span.start, span.end),
                "no `pass`",
                format!("the test `{name}` ties two failures, and lists no `pass` levels"),
                "list the levels that pass it: `pass = [\"critical\", \"success\"]`; the rest are failures",
            );
        }
        if let Some(statistic) = &entry.skill_of
            && statistic.get_ref() != "weapon"
            && !vocabulary.text_statistics.contains(statistic.get_ref())
        {
            compiler.unknown(
                "affray::combat::unknown_statistic",
                "text statistic",
                statistic,
                vocabulary.text_statistics.clone(),
            );
        }
        // `None` when not written, `Some(None)` when written wrong.
        let reroll = entry
            .reroll
            .as_ref()
            .map(|written| compiler.reroll(written, name, names));
        if let (Some(roll), Some(target), false) = (roll, target, matches!(reroll, Some(None))) {
            tests.push(TestKind {
                skill_of: entry.skill_of.as_ref().map(|s| match s.get_ref().as_str() {
                    "weapon" => SkillLabel::Weapon,
                    statistic => SkillLabel::Statistic(Name::new(statistic)),
                }),
                name: name.clone().into(),
                roll,
                total,
                target,
                modifiers,
                levels,
                pass,
                levels_by_roll: None,
                grades: grades.flatten(),
                failures_tie: entry.failures_tie.as_ref().is_some_and(|t| *t.get_ref()),
                standard_modifiers: standard_modifiers.flatten(),
                target_min: target_min.flatten(),
                compare,
                reroll: reroll.flatten(),
                excess_over: entry.excess_over,
                log_margin: entry.log_margin,
            });
        }
    }

    let exchange_names: Vec<String> = decoded.exchanges.keys().cloned().collect();
    let mut exchanges = Vec::new();
    for (name, entry) in &decoded.exchanges {
        // `wound` compares with this exchange's wound levels, in the order written.
        let mut wound_levels: Vec<String> = Vec::new();
        for wound in &entry.wounds {
            if !wound_levels.contains(&wound.level) {
                wound_levels.push(wound.level.clone());
            }
        }
        compiler.scope.set_wound_levels(wound_levels.clone());
        let test_of = |compiler: &mut Compiler<'_>, text: &Text| {
            let found = test_names.iter().position(|t| t == text.get_ref());
            if found.is_none() {
                compiler.unknown(
                    "affray::combat::unknown_test",
                    "test",
                    text,
                    test_names.clone(),
                );
            }
            found
        };
        let test = test_of(&mut compiler, &entry.test);
        let weapon = compiler.reaction_weapon(entry.weapon.as_ref(), vocabulary);
        // `None` when not written, `Some(None)` when written wrong.
        let bare_hands_of = |compiler: &mut Compiler<'_>, entry: Option<&BareHandsEntry>| {
            entry.map(|bare| {
                let known = weapons.contains(bare.weapon.get_ref());
                if !known {
                    compiler.unknown(
                        "affray::combat::unknown_weapon",
                        "weapon",
                        &bare.weapon,
                        weapons.to_vec(),
                    );
                }
                let test = test_of(compiler, &bare.test);
                test.filter(|_| known).map(|test| BareHands {
                    weapon: bare.weapon.get_ref().clone().into(),
                    test,
                })
            })
        };
        let bare_hands = bare_hands_of(&mut compiler, entry.bare_hands.as_ref());
        compiler.scope.reactions = entry
            .reactions
            .iter()
            .map(|r| r.name.get_ref().clone())
            .collect();
        // The reactions' tables of results first: every expression of the exchange may
        // read their words.
        let mut words = Vec::new();
        let results: Vec<Option<Option<ResultMatrix>>> = entry
            .reactions
            .iter()
            .map(|reaction| {
                reaction.outcome.as_ref().map(|text| {
                    compiler.results(text, names, &vocabulary.success_levels, &mut words)
                })
            })
            .collect();
        compiler.scope.results = words;
        let mut reactions = Vec::new();
        for (reaction, results) in entry.reactions.iter().zip(results) {
            let test = test_of(&mut compiler, &reaction.test);
            compiler.at(
                Place::Exchange,
                false,
                format!("the reaction `{}`'s `if`", reaction.name.get_ref()),
            );
            let guard = reaction.guard.as_ref().and_then(|t| compiler.condition(t));
            compiler.at(
                Place::Exchange,
                false,
                format!("the reaction `{}`'s `withdraw`", reaction.name.get_ref()),
            );
            let withdraw = reaction
                .withdraw
                .as_ref()
                .and_then(|t| compiler.condition(t));
            compiler.at(
                Place::Exchange,
                false,
                format!("the reaction `{}`'s `free`", reaction.name.get_ref()),
            );
            let free = reaction.free.as_ref().and_then(|t| compiler.condition(t));
            compiler.at(
                Place::Exchange,
                false,
                format!(
                    "the reaction `{}`'s `attacker_rolls_again`",
                    reaction.name.get_ref()
                ),
            );
            let again = reaction
                .attacker_rolls_again
                .as_ref()
                .and_then(|t| compiler.condition(t));
            let bare_hands = bare_hands_of(&mut compiler, reaction.bare_hands.as_ref());
            let actions = match &reaction.actions {
                Some(text) => compiler.actions(text, names),
                None => Some(Vec::new()),
            };
            let before = match &reaction.before {
                Some(text) => compiler.actions(text, names),
                None => Some(Vec::new()),
            };
            if let Some(test) = test
                && let Some(actions) = actions
                && let Some(before) = before
                && (reaction.guard.is_none() || guard.is_some())
                && (reaction.withdraw.is_none() || withdraw.is_some())
                && (reaction.free.is_none() || free.is_some())
                && (reaction.attacker_rolls_again.is_none() || again.is_some())
                && results.as_ref().is_none_or(Option::is_some)
                && bare_hands.as_ref().is_none_or(Option::is_some)
            {
                reactions.push(Reaction {
                    name: reaction.name.get_ref().clone().into(),
                    guard,
                    test,
                    cost: i64::from(reaction.cost.unwrap_or(1)),
                    weapon: compiler.reaction_weapon(reaction.weapon.as_ref(), vocabulary),
                    bare_hands: bare_hands.flatten(),
                    withdraw,
                    withdraw_decision: reaction
                        .withdraw_decision
                        .clone()
                        .unwrap_or_else(|| format!("withdraw_{}", reaction.name.get_ref()))
                        .into(),
                    free,
                    actions,
                    again,
                    again_label: format!("against the {}", reaction.name.get_ref()).into(),
                    results: results.flatten(),
                    before_attack: reaction
                        .before_attack
                        .as_ref()
                        .is_some_and(|b| *b.get_ref()),
                    total_only: reaction.total_only,
                    label: reaction
                        .label
                        .as_deref()
                        .unwrap_or(reaction.name.get_ref())
                        .into(),
                    before,
                });
            }
        }
        compiler.at(
            Place::Exchange,
            false,
            format!("the exchange `{name}`'s `reactions_after`"),
        );
        let reactions_after = entry
            .reactions_after
            .as_ref()
            .and_then(|t| compiler.condition(t));
        // A reaction rolled before the attack is seen cannot wait for it.
        for reaction in &entry.reactions {
            let Some(before) = reaction.before_attack.as_ref().filter(|b| *b.get_ref()) else {
                continue;
            };
            let waits = if entry.reactions_after.is_some() {
                Some(
                    "the exchange declares its reactions after the attack roll (`reactions_after`)",
                )
            } else if reaction.withdraw.is_some() {
                Some("it may be withdrawn once the attack is rolled (`withdraw`)")
            } else if reaction.attacker_rolls_again.is_some() {
                Some("the attacker rolls again against it (`attacker_rolls_again`)")
            } else {
                None
            };
            if let Some(waits) = waits {
                let span = before.span();
                compiler.rule(
                    Span::new(span.start, span.end),
                    "rolled before the attack",
                    format!(
                        "the reaction `{}` cannot be rolled before the attack: {waits}",
                        reaction.name.get_ref()
                    ),
                    "leave out `before_attack`, or the key that waits for the attack roll",
                );
            }
        }
        let unopposed = entry.unopposed.as_ref().and_then(|text| {
            let found = vocabulary
                .success_levels
                .iter()
                .position(|l| l == text.get_ref());
            if found.is_none() {
                compiler.unknown(
                    "affray::combat::unknown_level",
                    "success level",
                    text,
                    vocabulary
                        .success_levels
                        .iter()
                        .map(|l| l.to_string())
                        .collect(),
                );
            }
            found.map(|at| at as u32)
        });
        let outcome = entry
            .outcome
            .as_ref()
            .and_then(|text| compiler.outcome(text, names, &vocabulary.success_levels));
        let mut effects = entry
            .effects
            .as_ref()
            .and_then(|e| compiler.effects(e, names, &vocabulary.success_levels));
        compiler.scope.effects = effects
            .as_ref()
            .map(|stage| stage.effects.iter().map(|e| e.name.to_string()).collect())
            .unwrap_or_default();
        // The effects' numbers read of the exchange: how many, and the attacker's bonus.
        if let (Some(stage), Some(written)) = (effects.as_mut(), entry.effects.as_ref()) {
            let mut compiled = true;
            for (key, text, number) in [
                ("count", &written.count, &mut stage.count),
                ("bonus", &written.bonus, &mut stage.bonus),
            ] {
                let Some(text) = text else { continue };
                compiler.at(
                    Place::Exchange,
                    false,
                    format!("the effects' `{key}` of `{name}`"),
                );
                *number = compiler.number(text);
                compiled &= number.is_some();
            }
            if !compiled {
                effects = None;
            }
        }
        if !compiler.effect_rules(&entry.effect, effects.as_mut(), names, name) {
            effects = None;
        }
        let locations: Vec<String> = entry
            .location
            .as_ref()
            .and_then(|text| {
                names
                    .tables
                    .iter()
                    .find(|(t, _)| t.name.value == *text.get_ref())
            })
            .map(|(table, _)| match &table.kind {
                TableKind::Roll(roll) => roll.rows.iter().map(|r| r.name.value.clone()).collect(),
                _ => Vec::new(),
            })
            .unwrap_or_default();
        compiler.at(
            Place::Exchange,
            false,
            format!("the exchange `{name}`'s `choose_location`"),
        );
        let choose_location = entry
            .choose_location
            .as_ref()
            .and_then(|t| compiler.condition(t));
        compiler.at(
            Place::Exchange,
            false,
            format!("the exchange `{name}`'s `redirect_location`"),
        );
        let redirect_location = entry
            .redirect_location
            .as_ref()
            .and_then(|t| compiler.condition(t));
        let location = entry.location.as_ref().and_then(|text| {
            compiler
                .table(text, names, "roll")
                .map(|_| text.get_ref().clone())
        });
        // The pool is `total` or a location of the exchange's table.
        let pool = match entry.pool.as_ref() {
            Some(text) if text.get_ref() != "total" && !locations.contains(text.get_ref()) => {
                let known = std::iter::once("total".to_string())
                    .chain(locations.iter().cloned())
                    .collect();
                compiler.unknown("affray::combat::unknown_pool", "pool", text, known);
                None
            }
            pool => Some(pool.map(|pool| Name::new(pool.get_ref()))),
        };
        // (found once the attack is rolled, found once the damage is rolled)
        let location_at_attack = match entry.location_at.as_ref() {
            None => Some((false, false)),
            Some(text) => match text.get_ref().as_str() {
                "blow" => Some((false, false)),
                "attack" => Some((true, false)),
                "damage" => Some((false, true)),
                _ => {
                    compiler.unknown(
                        "affray::combat::unknown_stage",
                        "stage",
                        text,
                        vec!["attack".into(), "blow".into(), "damage".into()],
                    );
                    None
                }
            },
        };
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
        compiler.at(
            Place::Exchange,
            true,
            format!("the exchange `{name}`'s `reduction`"),
        );
        let reduction = entry.reduction.as_ref().and_then(|t| compiler.number(t));
        compiler.at(
            Place::Exchange,
            true,
            format!("the exchange `{name}`'s `armour`"),
        );
        let armour = entry.armour.as_ref().and_then(|t| compiler.number(t));
        compiler.at(
            Place::Exchange,
            false,
            format!("the exchange `{name}`'s `take`"),
        );
        let take = entry.take.as_ref().and_then(|t| compiler.condition(t));
        compiler.at(
            Place::Exchange,
            true,
            format!("the exchange `{name}`'s `injury`"),
        );
        let injury = entry.injury.as_ref().and_then(|t| compiler.number(t));
        let mut wounds = Vec::new();
        for wound in &entry.wounds {
            compiler.at(
                Place::Exchange,
                false,
                format!("the wound `{}` of `{name}`", wound.level),
            );
            let guard = compiler.condition(&wound.guard);
            let actions = match &wound.actions {
                Some(text) => compiler.actions(text, names),
                None => Some(Vec::new()),
            };
            if let (Some(guard), Some(actions)) = (guard, actions) {
                let symbol = wound_levels.iter().position(|l| *l == wound.level);
                wounds.push(WoundRule {
                    level: wound.level.clone().into(),
                    symbol: symbol.map_or(u32::MAX, |at| at as u32),
                    guard,
                    actions,
                });
            }
        }
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
                    if let Some(text) = &rule.to {
                        compiler.rule(
                            content(text),
                            "not a part in the exchange",
                            format!("`to = \"{other}\"`: an `after` rule befalls the attacker or the defender"),
                            "write `to = \"attacker\"` (the default) or `to = \"defender\"`",
                        );
                    }
                    None
                }
            };
            compiler.at(
                Place::Exchange,
                false,
                format!("the `repeat` of an `after` rule of `{name}`"),
            );
            let repeat = rule.repeat.as_ref().map(|text| compiler.number(text));
            compiler.at(
                Place::Exchange,
                false,
                format!("an `after` rule of `{name}`"),
            );
            let actions = match &rule.actions {
                Some(text) => compiler.actions(text, names),
                None => Some(Vec::new()),
            };
            let options = compiler.rule_options(
                rule.decision.as_ref(),
                &rule.option,
                Some(&rule.guard),
                &format!("exchanges.{name}.after"),
                Place::Exchange,
                names,
            );
            let at = match rule.at.as_ref().map(|t| t.get_ref().as_str()) {
                None | Some("end") => Some(AfterTime::End),
                Some("target") => Some(AfterTime::Target),
                Some("attack") => Some(AfterTime::Attack),
                Some("outcome") => Some(AfterTime::Outcome),
                Some("wound") => Some(AfterTime::Wound),
                Some(other) => {
                    if let Some(text) = &rule.at {
                        compiler.rule(
                            content(text),
                            "not a time of the exchange",
                            format!("`at = \"{other}\"`: an `after` rule is done once the target is found, once the attack is rolled, once the outcome is known, once the wound is judged, or at the end"),
                            "write `at = \"end\"` (the default), `at = \"target\"` (before the defence is declared), `at = \"attack\"` (once the attack is rolled), `at = \"outcome\"` (before the blow) or `at = \"wound\"` (after the wound, before the knockback)",
                        );
                    }
                    None
                }
            };
            if let (Some(guard), Some(to), Some(actions), Some(at), Some(repeat), Some(options)) = (
                guard,
                to,
                actions,
                at,
                repeat.map_or(Some(None), |r| r.map(Some)),
                options,
            ) {
                after.push(After {
                    at,
                    guard,
                    to,
                    actions,
                    repeat,
                    decision: rule.decision.as_deref().map(Name::new),
                    options,
                });
            }
        }
        let knockback = entry.knockback.as_ref().and_then(|entry| {
            compiler.at(Place::Exchange, false, format!("the knockback of `{name}`"));
            let guard = compiler.condition(&entry.guard);
            let metres = compiler.number(&entry.metres);
            let actions = match &entry.actions {
                Some(text) => compiler.actions(text, names),
                None => Some(Vec::new()),
            };
            let before_armour = match entry.at.as_ref().map(|t| t.get_ref().as_str()) {
                None | Some("wound") => Some(false),
                Some("armour") => Some(true),
                Some(other) => {
                    if let Some(text) = &entry.at {
                        compiler.rule(
                            content(text),
                            "not a time of the knockback",
                            format!("`at = \"{other}\"`: a knockback comes once the wound is judged, or before the armour"),
                            "write `at = \"wound\"` (the default) or `at = \"armour\"` (once the location is known, before the armour)",
                        );
                    }
                    None
                }
            };
            Some(Knockback {
                guard: guard?,
                metres: metres?,
                actions: actions?,
                before_armour: before_armour?,
            })
        });
        let instead = entry.instead.as_ref().map(|entry| {
            compiler.at(Place::Exchange, false, format!("the `instead` of `{name}`"));
            let guard = compiler.condition(&entry.guard);
            let mut options = Vec::new();
            let mut complete = guard.is_some();
            for option in &entry.option {
                compiler.at(
                    Place::Exchange,
                    false,
                    format!("the option `{}` of `{name}`'s `instead`", option.name),
                );
                let guard = option.guard.as_ref().map(|t| compiler.condition(t));
                let actions = compiler.actions(&option.actions, names);
                match (guard, actions) {
                    (Some(None), _) | (_, None) => complete = false,
                    (guard, Some(actions)) => options.push(InsteadOption {
                        name: option.name.clone().into(),
                        guard: guard.flatten(),
                        locate: option.location,
                        actions,
                    }),
                }
            }
            guard.filter(|_| complete).map(|guard| Instead {
                decision: entry.decision.clone().into(),
                guard,
                options,
            })
        });
        let written = |text: &Option<Text>, compiled: bool| text.is_none() || compiled;
        if let (Some(test), Some(hits)) = (test, hits)
            && instead.as_ref().is_none_or(Option::is_some)
            && bare_hands.as_ref().is_none_or(Option::is_some)
            && written(&entry.damage, damage.is_some())
            && written(&entry.armour, armour.is_some())
            && written(&entry.take, take.is_some())
            && written(&entry.injury, injury.is_some())
            && written(&entry.reduction, reduction.is_some())
            && written(&entry.choose_location, choose_location.is_some())
            && written(&entry.redirect_location, redirect_location.is_some())
            && written(&entry.outcome, outcome.is_some())
            && written(&entry.location, location.is_some())
            && let Some((location_at_attack, location_at_damage)) = location_at_attack
            && let Some(pool) = pool
            && written(&entry.unopposed, unopposed.is_some())
            && written(&entry.reactions_after, reactions_after.is_some())
            && (entry.effects.is_none() || effects.is_some())
            && (entry.knockback.is_none() || knockback.is_some())
        {
            exchanges.push(Exchange {
                name: name.clone().into(),
                label: entry.label.clone().unwrap_or_else(|| name.clone()).into(),
                test,
                weapon,
                choose_weapon: entry.choose_weapon,
                bare_hands: bare_hands.flatten(),
                reactions,
                reaction_decision: entry
                    .reaction_decision
                    .as_deref()
                    .map_or(crate::name!("reaction"), Name::new),
                reactions_after,
                unopposed,
                outcome,
                effects,
                hits,
                damage,
                reduction,
                location: location.map(Name::from),
                choose_location,
                redirect_location,
                location_at_attack,
                location_at_damage,
                locations: locations.iter().map(Name::from).collect(),
                armour,
                take,
                injury,
                pool,
                wounds,
                wounds_once_per_location: entry.wounds_once_per_location,
                wounds_after_effects: entry.wounds_after_effects,
                after,
                knockback,
                instead: instead.flatten(),
            });
        }
    }

    let mut choices = Vec::new();
    for entry in &decoded.action {
        let exchange = match &entry.exchange {
            Some(text) => {
                let found = exchange_names.iter().position(|e| e == text.get_ref());
                if found.is_none() {
                    compiler.unknown(
                        "affray::combat::unknown_exchange",
                        "exchange",
                        text,
                        exchange_names.clone(),
                    );
                }
                found.map(Some)
            }
            None => Some(None),
        };
        compiler.at(
            Place::Turn,
            false,
            format!("the action `{}`'s `if`", entry.name.get_ref()),
        );
        let guard = entry.guard.as_ref().and_then(|t| compiler.condition(t));
        compiler.at(
            Place::Turn,
            false,
            format!("the action `{}`'s `targets`", entry.name.get_ref()),
        );
        let targets = entry.targets.as_ref().and_then(|t| compiler.condition(t));
        let mut actions_of = |text: &Option<Text>| match text {
            Some(text) => compiler.actions(text, names),
            None => Some(Vec::new()),
        };
        let before = actions_of(&entry.before);
        let after = actions_of(&entry.after);
        let options = if entry.decision.is_none() && entry.option.is_empty() {
            Some(Vec::new())
        } else {
            compiler.rule_options(
                entry.decision.as_ref(),
                &entry.option,
                Some(&entry.name),
                "action",
                Place::Turn,
                names,
            )
        };
        let locations = called_locations(entry, exchange, &exchanges, &mut compiler, names);
        if let (Some(exchange), Some(before), Some(after), Some(options), Some(locations)) =
            (exchange, before, after, options, locations)
            && (entry.guard.is_none() || guard.is_some())
            && (entry.targets.is_none() || targets.is_some())
        {
            choices.push(TurnAction {
                name: entry.name.get_ref().clone().into(),
                guard,
                targets,
                decision: entry.decision.as_deref().map(Name::new),
                options,
                exchange,
                before,
                after,
                locations,
                ends_turn: entry.ends_turn,
            });
        }
    }

    // A decision `decide NAME` asks, read as a turn rule's options are (`self` the one
    // deciding); an option may `strike` at the other party where it is asked.
    let mut decisions = Vec::new();
    for (name, entry) in &decoded.decisions {
        let striking = std::mem::replace(&mut compiler.striking_from_turn, true);
        let what = format!("decisions.{name}");
        let options =
            compiler.rule_options(Some(name), &entry.option, None, &what, Place::Turn, names);
        compiler.striking_from_turn = striking;
        if let Some(options) = options {
            decisions.push((Name::new(name), options));
        }
    }

    let reads = compiler.scope.reads;
    (problems.len() == before).then(|| Combat {
        vocabulary: vocabulary.clone(),
        reads,
        turn: Turn {
            initiative,
            initiative_label: turn_entry.initiative_label.as_deref().map(Name::new),
            keep_initiative,
            initiative_modifier,
            hands,
            setup,
            round_start,
            round_end,
            tie_break,
            actions,
            out_of_fight,
            hooks_if,
            more,
            before_first: before_first.unwrap_or_default(),
            choices,
            decisions,
        },
        tests,
        exchanges,
        levels: Default::default(),
        level_tables: Default::default(),
        codes: Default::default(),
    })
}

/// The rows an action's called location chooses among (`[[action]] location`): empty
/// without one; `None` (reported) where the table is not one whose rows name
/// locations, the action runs no exchange, or its exchange rolls its locations on a
/// table that lacks one of them (`exchange`: the exchange found, `None` when unknown).
fn called_locations(
    entry: &ActionEntry,
    exchange: Option<Option<usize>>,
    exchanges: &[Exchange],
    compiler: &mut Compiler<'_>,
    names: &Names<'_>,
) -> Option<Vec<Name>> {
    let Some(text) = &entry.location else {
        return Some(Vec::new());
    };
    let action = entry.name.get_ref();
    let Some((table, _)) = names
        .tables
        .iter()
        .find(|(t, _)| t.name.value == *text.get_ref())
    else {
        compiler.unknown(
            "affray::combat::unknown_table",
            "table",
            text,
            names
                .tables
                .iter()
                .map(|(t, _)| t.name.value.clone())
                .collect(),
        );
        return None;
    };
    let rows = match called_location_rows(table) {
        Ok(rows) => rows,
        Err(message) => {
            compiler.rule(
                content(text),
                "not a table of locations",
                message,
                "name a look-up table whose first column names the locations (`| location | ... |`)",
            );
            return None;
        }
    };
    let exchange = match exchange {
        // Reported already: the exchange is unknown.
        None => return None,
        Some(None) => {
            compiler.rule(
                content(text),
                "no exchange to aim",
                format!("the action `{action}` names a called location but runs no exchange"),
                "give the action an `exchange`, or leave `location` out",
            );
            return None;
        }
        Some(Some(at)) => at,
    };
    let exchange_name = compiler
        .exchanges
        .get(exchange)
        .cloned()
        .unwrap_or_default();
    if let Some(found) = exchanges.iter().find(|e| e.name.as_str() == exchange_name)
        && found.location.is_some()
        && let Some(missing) = rows
            .iter()
            .find(|row| !found.locations.iter().any(|l| l.as_str() == row.as_str()))
    {
        compiler.rule(
            content(text),
            "not a location of the exchange",
            format!(
                "`{missing}`, a row of `{}`, is not a row of `{}`, where the exchange `{exchange_name}` lands its blows",
                text.get_ref(),
                found.location.map_or_else(String::new, |n| n.to_string())
            ),
            "aim at the rows of the exchange's own location table, or name that table",
        );
        return None;
    }
    Some(rows.iter().map(Name::from).collect())
}

/// The tests `resist` and `test` name in `actions` (and in what they do on a failure)
/// are test kinds of combat.toml (`tests`: all of them, and those that say their `pass`
/// levels; `None`: the ruleset has no combat.toml).
fn check_resists(
    actions: &[Spanned<Action>],
    tests: Option<(&[String], &[String])>,
    file: &SourceFile,
    problems: &mut Problems,
) {
    for action in actions {
        // The tests it rolls, and whether each must say its `pass` levels: a test on its
        // own passes by them, a contest breaks a tie of levels by them.
        let rolled = match &action.value {
            Action::Resist { test, .. } => vec![(test, false)],
            Action::Test { test, .. } => vec![(test, true)],
            Action::Contest { test, against, .. } => vec![(test, true), (against, false)],
            _ => Vec::new(),
        };
        for (test, alone) in rolled {
            check_rolled(action, test, alone, tests, file, problems);
        }
        for branch in action.value.branches() {
            check_resists(branch, tests, file, problems);
        }
    }
}

/// A test an action rolls (`test`) is a test kind of combat.toml, one that says its
/// `pass` levels where it must (`alone`).
fn check_rolled(
    action: &Spanned<Action>,
    test: &Spanned<String>,
    alone: bool,
    tests: Option<(&[String], &[String])>,
    file: &SourceFile,
    problems: &mut Problems,
) {
    match tests {
            Some((all, passing)) if !all.contains(&test.value) => problems.push(
                UnknownName::new(
                    "affray::combat::unknown_test",
                    "test",
                    file,
                    &test.value,
                    test.span,
                    "in combat.toml",
                    if alone { passing.to_vec() } else { all.to_vec() },
                )
                .into(),
            ),
            Some((_, passing)) if alone && !passing.contains(&test.value) => problems.push(
                RulesetProblem::Toml {
                    src: file.named(),
                    span: Some(test.span.into()),
                    file: file.name().to_string(),
                    label: "no `pass` levels".into(),
                    message: format!(
                        "`{} {}` needs to know which levels pass it: the test says no `pass`",
                        action.value.verb(),
                        test.value
                    ),
                    help: format!(
                        "add `pass = [\"critical\", \"success\"]` (the levels that pass) to [tests.{}] in combat.toml",
                        test.value
                    ),
                }
                .into(),
            ),
            Some(_) => {}
            None => problems.push(
                RulesetProblem::Toml {
                    src: file.named(),
                    span: Some(action.span.into()),
                    file: file.name().to_string(),
                    label: "needs combat.toml".into(),
                    message: format!(
                        "`{}` rolls a test of combat.toml, and this ruleset has none",
                        action.value
                    ),
                    help: "declare the test under [tests] in combat.toml, or write the rule as a script".into(),
                }
                .into(),
            ),
        }
}

/// The tests that say which levels pass them.
fn passing_tests(decoded: &CombatFile) -> Vec<String> {
    decoded
        .tests
        .iter()
        .filter(|(_, entry)| !entry.pass.is_empty())
        .map(|(name, _)| name.clone())
        .collect()
}

/// `resist` in the tables: only an effect list's effects may resist (they are done in an
/// exchange, which has the original roll); each names a test kind of combat.toml.
pub(super) fn check_table_resists(
    tables: &[(Table, &SourceFile)],
    combat: Option<&CombatFile>,
    problems: &mut Problems,
) {
    let tests: Option<(Vec<String>, Vec<String>)> =
        combat.map(|c| (c.tests.keys().cloned().collect(), passing_tests(c)));
    let tests = tests
        .as_ref()
        .map(|(all, passing)| (all.as_slice(), passing.as_slice()));
    for (table, file) in tables {
        let misplaced: Vec<&Spanned<Action>> = match &table.kind {
            TableKind::Effects(list) => {
                for effect in &list.effects {
                    check_resists(&effect.actions, tests, file, problems);
                }
                Vec::new()
            }
            TableKind::Roll(roll) => roll.rows.iter().flat_map(|r| &r.actions).collect(),
            TableKind::Matrix(matrix) => matrix
                .rows
                .iter()
                .flat_map(|row| &row.cells)
                .flat_map(|cell| match &cell.value {
                    Cell::Result { actions, .. } => actions.iter().collect::<Vec<_>>(),
                    _ => Vec::new(),
                })
                .collect(),
            _ => Vec::new(),
        };
        for action in misplaced {
            if let Action::Resist { .. } | Action::Test { .. } | Action::Contest { .. } =
                &action.value
            {
                problems.push(
                    RulesetProblem::Toml {
                        src: file.named(),
                        span: Some(action.span.into()),
                        file: file.name().to_string(),
                        label: "not in an effect list".into(),
                        message: format!(
                            "`{}` is a test made in an exchange: only an effect list's effects and combat.toml may make one",
                            action.value
                        ),
                        help: "move the rule to an effect of an effect list, or to combat.toml".into(),
                    }
                    .into(),
                );
            }
        }
    }
}
