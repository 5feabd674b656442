//! The typed model of a tables file, as lowered from the grammar. Every node a later stage
//! may blame keeps its span; names that refer to other things stay names here and are
//! checked by `tables::validate` and the ruleset resolver.

use std::fmt;

use serde::Serialize;

use crate::dice::DiceExpr;
use crate::source::{Span, Spanned};

/// One `.tables` file.
#[derive(Clone, Debug, Serialize)]
pub struct TableFile {
    pub tables: Vec<Table>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Table {
    pub name: Spanned<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(flatten)]
    pub kind: TableKind,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableKind {
    Roll(RollTable),
    Matrix(Matrix),
    Modifiers(ModifierList),
    Lookup(Lookup),
    Effects(EffectList),
}

impl TableKind {
    /// The keyword that starts this kind of table, for messages.
    pub fn keyword(&self) -> &'static str {
        match self {
            TableKind::Roll(_) => "table",
            TableKind::Matrix(_) => "matrix",
            TableKind::Modifiers(_) => "modifiers",
            TableKind::Lookup(_) => "lookup",
            TableKind::Effects(_) => "effects",
        }
    }
}

// ------------------------------------------------------------------ roll tables

#[derive(Clone, Debug, Serialize)]
pub struct RollTable {
    pub die: Spanned<DiceExpr>,
    pub rows: Vec<RollRow>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RollRow {
    pub range: Spanned<DieRange>,
    pub name: Spanned<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Spanned<Action>>,
    /// The whole row as written, for showing it again.
    #[serde(skip)]
    pub span: Span,
}

impl RollRow {
    /// The label, or the name when the row has none.
    pub fn display_label(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.name.value)
    }
}

/// An inclusive range of die results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DieRange {
    pub low: i64,
    pub high: i64,
}

impl DieRange {
    pub fn contains(self, value: i64) -> bool {
        self.low <= value && value <= self.high
    }
}

impl std::fmt::Display for DieRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.low == self.high {
            write!(f, "{}", self.low)
        } else {
            write!(f, "{}-{}", self.low, self.high)
        }
    }
}

/// What a row (or a matrix cell, or an effect) does when it comes up.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// `script fumbles::drop_weapon(1d4)`: call a function of `scripts/fumbles.rhai`.
    Script {
        module: Spanned<String>,
        function: Spanned<String>,
        args: Vec<Spanned<Value>>,
    },
    /// `lose 1d3 actions`
    LoseActions { count: Spanned<DiceExpr> },
    /// `reroll 2 times ignoring 19-20`
    Reroll {
        times: u32,
        ignoring: Spanned<DieRange>,
    },
    /// `roll humanoid_hit_location`
    RollTable { table: Spanned<String> },
    /// `resist evade or condition prone`: the combatant rolls a test kind of
    /// combat.toml against its opponent's original roll; the action when it fails.
    Resist {
        test: Spanned<String>,
        /// What it does when it resists (`then`); usually nothing.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        then: Vec<Spanned<Action>>,
        otherwise: Vec<Spanned<Action>>,
    },
    /// `test athletics or condition prone`: the combatant rolls a test kind of
    /// combat.toml on its own; the action when it does not pass (and, written `then`,
    /// the action when it does).
    Test {
        test: Spanned<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        then: Vec<Spanned<Action>>,
        otherwise: Vec<Spanned<Action>>,
    },
    /// `contest break_free against hold of held_by then (clear held)`:
    /// the combatant rolls the test kind `test` of combat.toml and the combatant whose
    /// number its value `of` holds (`set held_by (winner.number)`) rolls `against`,
    /// both now; the actions when the combatant wins (`then`) and when it does not.
    Contest {
        test: Spanned<String>,
        against: Spanned<String>,
        of: Spanned<crate::names::Name>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        then: Vec<Spanned<Action>>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        otherwise: Vec<Spanned<Action>>,
    },
    /// `if (not defender.prone) then (condition prone)`: the actions done where a
    /// condition of combat.toml holds (`then`), and where it does not (`or`).
    If {
        condition: ActionGuard,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        then: Vec<Spanned<Action>>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        otherwise: Vec<Spanned<Action>>,
    },
    /// `spend 1 action "yanking the weapon free"`: actions spent now, as many as
    /// the combatant has left, on what the text says (the rule's name without one).
    Spend {
        count: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        on: Option<String>,
    },
    /// `ready not shield`: the combatant chooses (decision `weapon_to_ready`) a weapon it
    /// carries or dropped within reach (`weapon`: any; a trait: with it; `not` a trait:
    /// without it) and takes it in hand, stowing what no longer fits (combat.toml
    /// `[hands]`).
    Ready {
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        not: bool,
        which: Spanned<crate::names::Name>,
    },
    /// `hurt (weapon.damage)`: hit points lost at the blow's location, no armour
    /// counted (combat.toml's exchanges).
    Hurt { amount: ActionExpr },
    /// `lodge weapon`: the exchange's weapon stays in the combatant's wound, out of its
    /// wielder's hand (combat.toml's exchanges).
    Lodge,
    /// `strike melee`: the combatant runs the exchange `melee` of combat.toml now,
    /// nested, as its attacker, against the other party of the exchange the rule belongs
    /// to (combat.toml's exchanges); `strike melee "a blow back"`: the log names it by the
    /// text given rather than by the exchange's name.
    Strike {
        exchange: Spanned<crate::names::Name>,
        #[serde(skip_serializing_if = "Option::is_none")]
        why: Option<String>,
    },
    /// `decide free_attack`: the combatant chooses among the options of combat.toml's
    /// `[decisions.free_attack]` whose `if` holds (read with it as `self`), and the
    /// chosen one's actions befall it (combat.toml only).
    Decide {
        decision: Spanned<crate::names::Name>,
    },
    /// `winner (spend 1 action, ...)`: actions done by another party of the exchange
    /// than the rule's own (combat.toml's exchanges).
    Party {
        party: Party,
        actions: Vec<Spanned<Action>>,
    },
    /// `clear prone`: the condition ends.
    Clear {
        condition: Spanned<crate::names::Name>,
    },
    /// `set ready 1`: a value the combatant keeps, set without a log line; in
    /// combat.toml `set penalty (self.value.penalty + 10)`.
    Set {
        value: Spanned<crate::names::Name>,
        to: Amount,
    },
    /// `set toward guard (2)`: a value the combatant keeps toward the other party of
    /// the exchange (one per opponent), read as `self.toward.NAME` (combat.toml's
    /// exchanges). `index` is the name's place among combat.toml's `toward` names, found
    /// when combat.toml is compiled.
    Toward {
        value: Spanned<crate::names::Name>,
        to: ActionExpr,
        #[serde(skip)]
        index: u32,
    },
    /// `drop weapon`, `drop shield`, `drop not shield`: the combatant drops the first
    /// weapon in hand (with the trait; without it, else the first); `drop last` the last
    /// one in hand.
    Drop {
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        not: bool,
        which: Spanned<crate::names::Name>,
    },
    /// `drop hand 2`: the combatant drops what its `hand`th hand holds (the first 1), the
    /// weapons in hand filling the hands in order, each as many as combat.toml's `[hands]
    /// needs` says (one without `[hands]`).
    DropHand { hand: u32 },
    /// `condition prone`, `condition cannot_attack for 1d3 actions`
    Condition {
        condition: Spanned<crate::names::Name>,
        #[serde(skip_serializing_if = "Option::is_none")]
        duration: Option<Duration>,
    },
}

/// A party of an exchange, as actions name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Party {
    Attacker,
    Defender,
    Winner,
    Loser,
    /// Each foe at hand (at no distance, still in the fight) of the combatant whose
    /// turn it is, in scenario order: a turn rule's, not an exchange's.
    EngagedFoes,
}

impl Party {
    pub fn word(self) -> &'static str {
        match self {
            Party::Attacker => "attacker",
            Party::Defender => "defender",
            Party::Winner => "winner",
            Party::Loser => "loser",
            Party::EngagedFoes => "engaged_foes",
        }
    }
}

impl Action {
    /// Whether the action needs an exchange of combat.toml to be done in: its blow, its
    /// weapon, its parties (`hurt`, `lodge`, `strike`, `winner (...)`).
    pub fn needs_exchange(&self) -> bool {
        match self {
            Action::Party { party, .. } => *party != Party::EngagedFoes,
            _ => matches!(
                self,
                Action::Hurt { .. } | Action::Lodge | Action::Strike { .. } | Action::Toward { .. }
            ),
        }
    }

    /// Whether the action is a turn rule's alone (`engaged_foes (...)`: the foes of the
    /// combatant whose turn it is).
    pub fn needs_turn(&self) -> bool {
        matches!(
            self,
            Action::Party {
                party: Party::EngagedFoes,
                ..
            }
        )
    }

    /// Whether only combat.toml may do the action (those of an exchange, `spend` and
    /// `ready`, which read a turn's or an exchange's action budget and `[hands]`, and
    /// `if`, whose condition is an expression of combat.toml), not a table file's row.
    pub fn combat_only(&self) -> bool {
        self.needs_exchange()
            || self.needs_turn()
            || matches!(
                self,
                Action::Spend { .. }
                    | Action::Ready { .. }
                    | Action::If { .. }
                    | Action::Decide { .. }
            )
    }

    /// The expression written where a number goes (`set NAME (EXPR)`, `for (EXPR)
    /// actions`, `hurt (EXPR)`; combat.toml only), if this action has one.
    pub fn expression(&self) -> Option<&ActionExpr> {
        match self {
            Action::Hurt { amount } | Action::Toward { to: amount, .. } => Some(amount),
            Action::Set {
                to: Amount::Expr(expr),
                ..
            }
            | Action::Condition {
                duration:
                    Some(Duration {
                        length: Length::Expr(expr),
                        ..
                    }),
                ..
            } => Some(expr),
            _ => None,
        }
    }

    /// The same, to compile it.
    pub fn expression_mut(&mut self) -> Option<&mut ActionExpr> {
        match self {
            Action::Hurt { amount } | Action::Toward { to: amount, .. } => Some(amount),
            Action::Set {
                to: Amount::Expr(expr),
                ..
            }
            | Action::Condition {
                duration:
                    Some(Duration {
                        length: Length::Expr(expr),
                        ..
                    }),
                ..
            } => Some(expr),
            _ => None,
        }
    }

    /// The word an action begins with (`test`, `contest`, ...).
    pub fn verb(&self) -> &'static str {
        match self {
            Action::Script { .. } => "script",
            Action::LoseActions { .. } => "lose",
            Action::Reroll { .. } => "reroll",
            Action::RollTable { .. } => "roll",
            Action::Resist { .. } => "resist",
            Action::Test { .. } => "test",
            Action::Contest { .. } => "contest",
            Action::If { .. } => "if",
            Action::Spend { .. } => "spend",
            Action::Ready { .. } => "ready",
            Action::Hurt { .. } => "hurt",
            Action::Lodge => "lodge",
            Action::Strike { .. } => "strike",
            Action::Decide { .. } => "decide",
            Action::Party { party, .. } => party.word(),
            Action::Clear { .. } => "clear",
            Action::Set { .. } | Action::Toward { .. } => "set",
            Action::Drop { .. } | Action::DropHand { .. } => "drop",
            Action::Condition { .. } => "condition",
        }
    }

    /// The actions within this one: what `resist`, `test` and `contest` do on a success
    /// and on a failure, what a party does (none for the other actions).
    pub fn branches_mut(&mut self) -> [&mut [Spanned<Action>]; 2] {
        match self {
            Action::Resist {
                then, otherwise, ..
            }
            | Action::Test {
                then, otherwise, ..
            }
            | Action::Contest {
                then, otherwise, ..
            }
            | Action::If {
                then, otherwise, ..
            } => [then, otherwise],
            Action::Party { actions, .. } => [actions, &mut []],
            _ => [&mut [], &mut []],
        }
    }

    /// The same, to read.
    pub fn branches(&self) -> [&[Spanned<Action>]; 2] {
        match self {
            Action::Resist {
                then, otherwise, ..
            }
            | Action::Test {
                then, otherwise, ..
            }
            | Action::Contest {
                then, otherwise, ..
            }
            | Action::If {
                then, otherwise, ..
            } => [then, otherwise],
            Action::Party { actions, .. } => [actions, &[]],
            _ => [&[], &[]],
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Duration {
    pub length: Length,
    pub unit: DurationUnit,
}

/// How long a condition lasts: dice, or (in combat.toml) an expression.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Length {
    Dice(Spanned<DiceExpr>),
    Expr(ActionExpr),
}

/// The number an action sets: written, or (in combat.toml) an expression.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Amount {
    Number(i64),
    Expr(ActionExpr),
}

/// An expression written in an action of combat.toml, `(self.value.penalty + 10)`: its
/// text, and once combat.toml is compiled, the number it evaluates to there. An action
/// of a table file has none (`affray check` says so).
#[derive(Clone, Debug)]
pub struct ActionExpr {
    pub text: Spanned<String>,
    pub compiled: Option<crate::expr::Number>,
}

impl Serialize for ActionExpr {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format!("({})", self.text.value))
    }
}

impl fmt::Display for ActionExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({})", self.text.value)
    }
}

/// The condition of an `if` action of combat.toml, `(not defender.prone)`: its text, and
/// once combat.toml is compiled, the condition it evaluates to there. A table file's
/// action has none (`affray check` refuses an `if` there).
#[derive(Clone, Debug)]
pub struct ActionGuard {
    pub text: Spanned<String>,
    pub compiled: Option<crate::expr::Condition>,
}

impl Serialize for ActionGuard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format!("({})", self.text.value))
    }
}

impl fmt::Display for ActionGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({})", self.text.value)
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Amount::Number(n) => write!(f, "{n}"),
            Amount::Expr(expr) => write!(f, "{expr}"),
        }
    }
}

impl fmt::Display for Length {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Length::Dice(dice) => write!(f, "{}", dice.value),
            Length::Expr(expr) => write!(f, "{expr}"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DurationUnit {
    Actions,
    Rounds,
    /// The combatant's own turns, counted at the end of each.
    Turns,
}

/// A plain value in a cell, an argument or a look-up.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Integer(i64),
    Percent(Percent),
    Dice(DiceExpr),
    Text(String),
    Name(Name),
}

/// A percentage such as `-20%`, kept apart from plain numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Percent {
    pub percent: i64,
}

/// A bare word such as `half` or `prone`, kept apart from quoted text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Name {
    pub name: String,
}

// ------------------------------------------------------------------ matrices

#[derive(Clone, Debug, Serialize)]
pub struct Matrix {
    pub rows_axis: Axis,
    pub cols_axis: Axis,
    pub columns: Vec<Spanned<Key>>,
    pub rows: Vec<MatrixRow>,
}

/// `defender by success_level`: the axis is named after a side and may be bound to a
/// domain whose keys the resolver checks.
#[derive(Clone, Debug, Serialize)]
pub struct Axis {
    pub name: Spanned<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<Spanned<String>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct MatrixRow {
    pub key: Spanned<Key>,
    pub cells: Vec<Spanned<Cell>>,
    /// The whole row as written, for showing it again.
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "cell", rename_all = "snake_case")]
pub enum Cell {
    /// `-`: nothing happens.
    Empty,
    /// `attacker 2`: that side wins so many levels.
    Wins { side: Spanned<String>, levels: u32 },
    /// Anything else: values and actions for the ruleset to interpret.
    Result {
        values: Vec<Spanned<Value>>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        actions: Vec<Spanned<Action>>,
    },
}

/// A row or column key of a matrix, or the key of a look-up row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Key {
    Name(String),
    Range(KeyRange),
}

/// Numeric keys: `5`, `1-10`, `21+` (no upper bound), `<=-2` (no lower bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KeyRange {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high: Option<i64>,
}

impl KeyRange {
    pub fn contains(self, value: i64) -> bool {
        self.low.is_none_or(|low| low <= value) && self.high.is_none_or(|high| value <= high)
    }

    pub fn overlaps(self, other: KeyRange) -> bool {
        let low = self.low.max(other.low);
        let high = match (self.high, other.high) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match (low, high) {
            (Some(low), Some(high)) => low <= high,
            _ => true,
        }
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Name(name) => f.write_str(name),
            Key::Range(KeyRange {
                low: Some(low),
                high: Some(high),
            }) if low == high => write!(f, "{low}"),
            Key::Range(KeyRange { low, high }) => match (low, high) {
                (Some(low), Some(high)) => write!(f, "{low}-{high}"),
                (Some(low), None) => write!(f, "{low}+"),
                (None, Some(high)) => write!(f, "<={high}"),
                (None, None) => f.write_str("any"),
            },
        }
    }
}

// ------------------------------------------------------------------ modifier lists

#[derive(Clone, Debug, Serialize)]
pub struct ModifierList {
    pub items: Vec<ModifierItem>,
}

impl ModifierList {
    /// Every modifier, in the groups or not.
    pub fn modifiers(&self) -> impl Iterator<Item = &Modifier> {
        self.items.iter().flat_map(|item| match item {
            ModifierItem::Single(modifier) => std::slice::from_ref(modifier),
            ModifierItem::Group(group) => group.modifiers.as_slice(),
        })
    }
}

#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum ModifierItem {
    Single(Modifier),
    Group(ModifierGroup),
}

/// A section of modifiers; in a `nonstacking` group only the largest applies.
#[derive(Clone, Debug, Serialize)]
pub struct ModifierGroup {
    pub group: Spanned<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub stacking: bool,
    pub modifiers: Vec<Modifier>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Modifier {
    pub name: Spanned<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub value: Spanned<ModifierValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<Scale>,
    /// The whole modifier as written, for showing it again.
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ModifierValue {
    /// `+20%`
    Percent { percent: i64 },
    /// `-4`
    Flat { amount: i64 },
    /// `grade hard`: a Difficulty Grade declared by the ruleset.
    Grade { grade: Spanned<String> },
    /// `+2D (+6)`: dice, with the standard value used when dice are not rolled.
    Dice { dice: DiceExpr, standard: i64 },
    /// `auto critical`: the test has this result, whatever the roll.
    Automatic { level: Spanned<String> },
    /// `x1/2`: the skill is multiplied.
    Multiply { numerator: u32, denominator: u32 },
    /// `cap ride`: the skill cannot exceed another skill.
    Cap { skill: Spanned<String> },
}

/// `per 1 below 5 of target_siz`: the value applies once per step past a threshold.
#[derive(Clone, Debug, Serialize)]
pub struct Scale {
    pub step: u32,
    pub direction: ScaleDirection,
    pub threshold: i64,
    pub quantity: Spanned<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScaleDirection {
    Below,
    Above,
}

// ------------------------------------------------------------------ look-ups

#[derive(Clone, Debug, Serialize)]
pub struct Lookup {
    pub key: Spanned<String>,
    pub columns: Vec<Spanned<String>>,
    pub rows: Vec<LookupRow>,
    #[serde(skip)]
    pub header_span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct LookupRow {
    pub key: Spanned<Key>,
    /// One per column; `None` where the book prints a dash.
    pub cells: Vec<Spanned<Option<Value>>>,
    #[serde(skip)]
    pub span: Span,
}

// ------------------------------------------------------------------ effect lists

#[derive(Clone, Debug, Serialize)]
pub struct EffectList {
    pub effects: Vec<Effect>,
}

/// Something a winner may choose with a won level: offensive or defensive, perhaps only
/// on a given result, perhaps only with some weapons, perhaps more than once.
#[derive(Clone, Debug, Serialize)]
pub struct Effect {
    pub name: Spanned<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub offensive: bool,
    pub defensive: bool,
    pub stackable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requires: Option<Requirement>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<Spanned<String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Spanned<Action>>,
    /// The whole effect as written, for showing it again.
    #[serde(skip)]
    pub span: Span,
}

/// `requires critical` (the chooser's own result) or `requires opponent fumble`.
#[derive(Clone, Debug, Serialize)]
pub struct Requirement {
    pub opponent: bool,
    pub level: Spanned<String>,
}

// ------------------------------------------------------------------ display, in the
// table language's own spelling, for logs and `affray roll`.

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Integer(n) => write!(f, "{n}"),
            Value::Percent(Percent { percent }) => write!(f, "{percent:+}%"),
            Value::Dice(dice) => write!(f, "{dice}"),
            Value::Text(text) => write!(f, "{text:?}"),
            Value::Name(Name { name }) => f.write_str(name),
        }
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Script {
                module,
                function,
                args,
            } => {
                write!(f, "script {module}::{function}")?;
                if !args.is_empty() {
                    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                    write!(f, "({})", args.join(", "))?;
                }
                Ok(())
            }
            Action::LoseActions { count } => write!(f, "lose {count} actions"),
            Action::Reroll { times, ignoring } => {
                write!(f, "reroll {times} times ignoring {ignoring}")
            }
            Action::RollTable { table } => write!(f, "roll {table}"),
            Action::Clear { condition } => write!(f, "clear {condition}"),
            Action::Set { value, to } => write!(f, "set {value} {to}"),
            Action::Toward { value, to, .. } => write!(f, "set toward {value} {to}"),
            Action::Drop { not: true, which } => write!(f, "drop not {which}"),
            Action::Drop { not: false, which } => write!(f, "drop {which}"),
            Action::DropHand { hand } => write!(f, "drop hand {hand}"),
            Action::Resist {
                test,
                then,
                otherwise,
            } => {
                write!(f, "resist {test}")?;
                outcomes(f, then, otherwise)
            }
            Action::Test {
                test,
                then,
                otherwise,
            } => {
                write!(f, "test {test}")?;
                outcomes(f, then, otherwise)
            }
            Action::Contest {
                test,
                against,
                of,
                then,
                otherwise,
            } => {
                write!(f, "contest {test} against {against} of {of}")?;
                outcomes(f, then, otherwise)
            }
            Action::If {
                condition,
                then,
                otherwise,
            } => {
                write!(f, "if {condition}")?;
                outcomes(f, then, otherwise)
            }
            Action::Spend { count, on } => {
                let unit = if *count == 1 { "action" } else { "actions" };
                write!(f, "spend {count} {unit}")?;
                match on {
                    Some(on) => write!(f, " {on:?}"),
                    None => Ok(()),
                }
            }
            Action::Ready { not: true, which } => write!(f, "ready not {which}"),
            Action::Ready { not: false, which } => write!(f, "ready {which}"),
            Action::Hurt { amount } => write!(f, "hurt {amount}"),
            Action::Lodge => f.write_str("lodge weapon"),
            Action::Strike { exchange, why } => {
                write!(f, "strike {exchange}")?;
                match why {
                    Some(why) => write!(f, " {why:?}"),
                    None => Ok(()),
                }
            }
            Action::Decide { decision } => write!(f, "decide {decision}"),
            Action::Party { party, actions } => {
                let all: Vec<String> = actions.iter().map(|a| a.to_string()).collect();
                write!(f, "{} ({})", party.word(), all.join(", "))
            }
            Action::Condition {
                condition,
                duration,
            } => {
                write!(f, "condition {condition}")?;
                if let Some(Duration { length, unit }) = duration {
                    let unit = match unit {
                        DurationUnit::Actions => "actions",
                        DurationUnit::Rounds => "rounds",
                        DurationUnit::Turns => "turns",
                    };
                    write!(f, " for {length} {unit}")?;
                }
                Ok(())
            }
        }
    }
}

/// What `resist` and `test` do, as written: ` then ...` on a success, ` or ...` on a
/// failure.
fn outcomes(
    f: &mut fmt::Formatter<'_>,
    then: &[Spanned<Action>],
    otherwise: &[Spanned<Action>],
) -> fmt::Result {
    if !then.is_empty() {
        write!(f, " then {}", Otherwise(then))?;
    }
    if !otherwise.is_empty() {
        write!(f, " or {}", Otherwise(otherwise))?;
    }
    Ok(())
}

/// What `resist` and `test` do on a success or a failure, as written: one action, or
/// several in parentheses.
struct Otherwise<'a>(&'a [Spanned<Action>]);

impl fmt::Display for Otherwise<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [one] => write!(f, "{one}"),
            several => {
                let all: Vec<String> = several.iter().map(|a| a.to_string()).collect();
                write!(f, "({})", all.join(", "))
            }
        }
    }
}
