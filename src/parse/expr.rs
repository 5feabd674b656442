//! Lowering of `grammar/expressions.pest`: pairs → [`Node`], the untyped syntax tree.

use pest::Parser;
use pest::iterators::Pair;

use super::{Grammar, Origin, ParseError, Rule};
use crate::dice::{DiceExpr, DiceTerm, TermKind};
use crate::expr::ast::{BinaryOp, Node, NodeKind, UnaryOp};
use crate::source::{SourceFile, Span, Spanned};

/// Parse an expression written inside a TOML string of `file`: `offset` is where `text`
/// starts in the file, so that every span points into the file.
pub fn parse_expression(file: &SourceFile, text: &str, offset: usize) -> Result<Node, ParseError> {
    // A TOML string with escapes does not appear in the file as decoded: its positions
    // cannot be mapped back, so such a value is shown on its own.
    if file.text().get(offset..offset + text.len()) != Some(text) {
        let alone = SourceFile::new(format!("{} (an expression)", file.name()), text.to_string());
        return parse_expression(&alone, text, 0);
    }
    let origin = Origin { file, offset };
    let whole = Grammar::parse(Rule::expression, text)
        .map_err(|error| origin.syntax_error(error, text))?
        .next()
        .ok_or_else(|| {
            origin.internal(Span::new(offset, offset), "an expression", "an expression")
        })?;
    let span = origin.span(whole.as_span());
    let expr = whole
        .into_inner()
        .find(|pair| pair.as_rule() == Rule::expr)
        .ok_or_else(|| origin.internal(span, "an expression", "an expression"))?;
    lower_expr(origin, expr)
}

fn lower_expr(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Node, ParseError> {
    let span = origin.span(pair.as_span());
    match pair.as_rule() {
        Rule::expr => {
            let inner = only_child(origin, pair, "an expression")?;
            lower_expr(origin, inner)
        }
        Rule::disjunction | Rule::conjunction | Rule::sum | Rule::product | Rule::comparison => {
            lower_chain(origin, pair)
        }
        Rule::negation => lower_prefixed(origin, pair, Rule::op_not, UnaryOp::Not),
        Rule::signed => lower_prefixed(origin, pair, Rule::op_minus, UnaryOp::Negate),
        Rule::if_else => lower_if(origin, pair),
        Rule::call => lower_call(origin, pair),
        Rule::path => Ok(Node {
            kind: NodeKind::Path(
                pair.into_inner()
                    .map(|word| {
                        Spanned::new(word.as_str().to_string(), origin.span(word.as_span()))
                    })
                    .collect(),
            ),
            span,
        }),
        Rule::expr_number => {
            let digits = pair.as_str().trim_end_matches('%');
            let value = digits.parse::<i64>().map_err(|_| ParseError::Number {
                src: origin.file.named(),
                span: span.into(),
                text: digits.to_string(),
            })?;
            Ok(Node {
                kind: NodeKind::Number(value),
                span,
            })
        }
        Rule::expr_bool => Ok(Node {
            kind: NodeKind::Bool(pair.as_str() == "true"),
            span,
        }),
        Rule::expr_text => {
            let text = pair.into_inner().next().map_or("", |inner| inner.as_str());
            Ok(Node {
                kind: NodeKind::Text(text.to_string()),
                span,
            })
        }
        Rule::expr_dice => lower_dice(origin, pair),
        _ => Err(origin.internal(span, "a part of an expression", "an expression")),
    }
}

fn only_child<'i>(
    origin: Origin<'_>,
    pair: Pair<'i, Rule>,
    expected: &'static str,
) -> Result<Pair<'i, Rule>, ParseError> {
    let span = origin.span(pair.as_span());
    pair.into_inner()
        .next()
        .ok_or_else(|| origin.internal(span, expected, "an expression"))
}

/// `a op b op c ...`, left to right; a comparison has at most one operator.
fn lower_chain(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Node, ParseError> {
    let span = origin.span(pair.as_span());
    let mut parts = pair.into_inner();
    let first = parts
        .next()
        .ok_or_else(|| origin.internal(span, "an operand", "an expression"))?;
    let mut left = lower_expr(origin, first)?;
    while let Some(op) = parts.next() {
        let op = binary_op(op.as_str()).ok_or_else(|| {
            origin.internal(origin.span(op.as_span()), "an operator", "an expression")
        })?;
        let operand = parts
            .next()
            .ok_or_else(|| origin.internal(span, "an operand", "an expression"))?;
        let right = lower_expr(origin, operand)?;
        let span = Span::new(left.span.start, right.span.end);
        left = Node {
            kind: NodeKind::Binary {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
            span,
        };
    }
    Ok(left)
}

fn binary_op(text: &str) -> Option<BinaryOp> {
    Some(match text {
        "+" => BinaryOp::Add,
        "-" | "–" | "−" => BinaryOp::Subtract,
        "*" => BinaryOp::Multiply,
        "/" => BinaryOp::Divide,
        "==" => BinaryOp::Equal,
        "!=" => BinaryOp::NotEqual,
        "<" => BinaryOp::Less,
        "<=" => BinaryOp::LessOrEqual,
        ">" => BinaryOp::Greater,
        ">=" => BinaryOp::GreaterOrEqual,
        "and" | "&&" => BinaryOp::And,
        "or" | "||" => BinaryOp::Or,
        _ => return None,
    })
}

/// `not not x`, `- - x`: prefix operators, innermost last.
fn lower_prefixed(
    origin: Origin<'_>,
    pair: Pair<'_, Rule>,
    prefix: Rule,
    op: UnaryOp,
) -> Result<Node, ParseError> {
    let span = origin.span(pair.as_span());
    let mut starts = Vec::new();
    let mut operand = None;
    for part in pair.into_inner() {
        if part.as_rule() == prefix {
            starts.push(origin.span(part.as_span()).start);
        } else {
            operand = Some(lower_expr(origin, part)?);
        }
    }
    let mut node = operand.ok_or_else(|| origin.internal(span, "an operand", "an expression"))?;
    for start in starts.into_iter().rev() {
        let span = Span::new(start, node.span.end);
        // `-3` is the number -3, not a negation to compute at every use.
        node = match node.kind {
            NodeKind::Number(n) if op == UnaryOp::Negate => Node {
                kind: NodeKind::Number(-n),
                span,
            },
            _ => Node {
                kind: NodeKind::Unary {
                    op,
                    operand: Box::new(node),
                },
                span,
            },
        };
    }
    Ok(node)
}

fn lower_if(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Node, ParseError> {
    let span = origin.span(pair.as_span());
    let mut parts = pair
        .into_inner()
        .filter(|part| !matches!(part.as_rule(), Rule::kw_if | Rule::kw_else));
    let mut next = || {
        parts
            .next()
            .ok_or_else(|| origin.internal(span, "a condition and two branches", "`if`"))
            .and_then(|part| lower_expr(origin, part))
    };
    let condition = next()?;
    let then = next()?;
    let otherwise = next()?;
    Ok(Node {
        kind: NodeKind::If {
            condition: Box::new(condition),
            then: Box::new(then),
            otherwise: Box::new(otherwise),
        },
        span,
    })
}

fn lower_call(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Node, ParseError> {
    let span = origin.span(pair.as_span());
    let mut parts = pair.into_inner();
    let name = parts
        .next()
        .ok_or_else(|| origin.internal(span, "a function name", "a call"))?;
    let function = Spanned::new(name.as_str().to_string(), origin.span(name.as_span()));
    let arguments = parts
        .map(|argument| lower_expr(origin, argument))
        .collect::<Result<_, _>>()?;
    Ok(Node {
        kind: NodeKind::Call {
            function,
            arguments,
        },
        span,
    })
}

fn lower_dice(origin: Origin<'_>, pair: Pair<'_, Rule>) -> Result<Node, ParseError> {
    let span = origin.span(pair.as_span());
    let text = pair.as_str().to_string();
    let mut count = 1;
    let mut sides = 6;
    for part in pair.into_inner() {
        let number = || {
            part.as_str()
                .parse::<u64>()
                .map_or(u32::MAX, |n| n.min(u64::from(u32::MAX)) as u32)
        };
        match part.as_rule() {
            Rule::dice_count => count = number(),
            Rule::dice_sides => sides = number(),
            Rule::dice_percent => sides = 100,
            _ => return Err(origin.internal(span, "a count or sides", "dice")),
        }
    }
    let term = DiceTerm {
        negative: false,
        kind: TermKind::Dice { count, sides },
    };
    let dice = DiceExpr::new(vec![term]).map_err(|limit| ParseError::DiceLimit {
        src: origin.file.named(),
        span: span.into(),
        text,
        reason: limit.to_string(),
    })?;
    Ok(Node {
        kind: NodeKind::Dice(dice),
        span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Node, ParseError> {
        parse_expression(&SourceFile::new("test", text), text, 0)
    }

    /// The tree written back with every operation in brackets.
    fn shape(node: &Node) -> String {
        match &node.kind {
            NodeKind::Number(n) => n.to_string(),
            NodeKind::Bool(b) => b.to_string(),
            NodeKind::Text(t) => format!("{t:?}"),
            NodeKind::Dice(d) => d.to_string(),
            NodeKind::Path(words) => words
                .iter()
                .map(|w| w.value.as_str())
                .collect::<Vec<_>>()
                .join("."),
            NodeKind::Call {
                function,
                arguments,
            } => format!(
                "{}({})",
                function.value,
                arguments.iter().map(shape).collect::<Vec<_>>().join(", ")
            ),
            NodeKind::Unary { op, operand } => match op {
                UnaryOp::Negate => format!("(-{})", shape(operand)),
                UnaryOp::Not => format!("(not {})", shape(operand)),
            },
            NodeKind::Binary { op, left, right } => {
                format!("({} {} {})", shape(left), op.symbol(), shape(right))
            }
            NodeKind::If {
                condition,
                then,
                otherwise,
            } => format!(
                "if {} {{ {} }} else {{ {} }}",
                shape(condition),
                shape(then),
                shape(otherwise)
            ),
        }
    }

    #[test]
    fn precedence_and_associativity() {
        for (text, expected) in [
            (
                "(total_armour_points + 4) / 5",
                "((total_armour_points + 4) / 5)",
            ),
            ("a - b - c", "((a - b) - c)"),
            ("a + b * c", "(a + (b * c))"),
            ("-a * 2", "((-a) * 2)"),
            ("-3", "-3"),
            ("20%", "20"),
            ("skill - 20%", "(skill - 20)"),
            ("a < b and not c or d", "(((a < b) and (not c)) or d)"),
            ("!x && y || z", "(((not x) and y) or z)"),
            ("a != b", "(a != b)"),
            (
                "attack.level == \"critical\"",
                "(attack.level == \"critical\")",
            ),
            ("ceil(skill / 10)", "ceil((skill / 10))"),
            ("max(damage - siz, 0)", "max((damage - siz), 0)"),
            ("1d10 + 1D%", "(1D10 + 1D100)"),
            (
                "if dex <= 6 { 1 } else if dex <= 12 { 2 } else { 3 }",
                "if (dex <= 6) { 1 } else { if (dex <= 12) { 2 } else { 3 } }",
            ),
            ("d6 + x", "(d6 + x)"),
            ("android or notable", "(android or notable)"),
            ("a – b", "(a - b)"),
        ] {
            let node = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(shape(&node), expected, "{text}");
        }
    }

    #[test]
    fn spans_point_into_the_file() {
        let file = SourceFile::new("ruleset.toml", "x = \"a + bb.cc\"");
        let node = parse_expression(&file, "a + bb.cc", 5).unwrap();
        let NodeKind::Binary { right, .. } = node.kind else {
            panic!("not a sum")
        };
        assert_eq!(right.span, Span::new(9, 14));
        let NodeKind::Path(words) = right.kind else {
            panic!("not a path")
        };
        assert_eq!(words[1].span, Span::new(12, 14));
    }

    #[test]
    fn broken_expressions_are_syntax_errors() {
        for broken in [
            "",
            "a +",
            "(a",
            "a b",
            "if a { 1 }",
            "a == b == c",
            "f(,)",
            "1d",
            "a.",
            "\"x",
        ] {
            assert!(
                matches!(parse(broken), Err(ParseError::Syntax { .. })),
                "{broken:?}"
            );
        }
    }
}
