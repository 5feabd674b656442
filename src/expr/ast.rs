//! The syntax tree of an expression, as written: names are still words, nothing is typed.
//! Every node keeps its span, so that the compiler can point at what it blames.

use crate::dice::DiceExpr;
use crate::source::{Span, Spanned};

/// One node of an expression and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// `12`, `20%` (a percentage is its number).
    Number(i64),
    /// `true`, `false`.
    Bool(bool),
    /// `"critical"`: a name of something the ruleset declares, compared with a value.
    Text(String),
    /// `1d10`: rolled where a number is needed.
    Dice(DiceExpr),
    /// `attacker.skill.evade`: words joined by dots, resolved by the place's scope.
    Path(Vec<Spanned<String>>),
    /// `max(a, b)`, `ceil(skill / 10)`.
    Call {
        function: Spanned<String>,
        arguments: Vec<Node>,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Node>,
    },
    Binary {
        op: BinaryOp,
        left: Box<Node>,
        right: Box<Node>,
    },
    /// `if c { a } else { b }`.
    If {
        condition: Box<Node>,
        then: Box<Node>,
        otherwise: Box<Node>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Negate,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    And,
    Or,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Subtract => "-",
            BinaryOp::Multiply => "*",
            BinaryOp::Divide => "/",
            BinaryOp::Equal => "==",
            BinaryOp::NotEqual => "!=",
            BinaryOp::Less => "<",
            BinaryOp::LessOrEqual => "<=",
            BinaryOp::Greater => ">",
            BinaryOp::GreaterOrEqual => ">=",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
        }
    }
}
