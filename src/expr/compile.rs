//! Names → slots, and types checked: the untyped tree becomes a typed one, or every
//! problem of the expression is reported at once.

use crate::names::suggest;
use crate::parse::parse_expression;
use crate::source::{SourceFile, Span, Spanned};

use super::ast::{BinaryOp, Node, NodeKind, UnaryOp};
use super::eval::{Comparison, Condition, Number, Pool, Rounding, Symbol, dice_count, dice_pips};
use super::{DomainId, ExprProblem, Resolution, Scope, Slot, Type};
use crate::dice::{DiceExpr, Limits};

/// A number read from the dice behind a slot, and the same figure of dice written out.
type SlotRead = fn(Slot) -> Number;
type DiceFigure = fn(&DiceExpr) -> i64;

/// Compile `text`, written at byte `offset` of `file`, as a number.
pub fn compile_number(
    file: &SourceFile,
    text: &str,
    offset: usize,
    scope: &mut dyn Scope,
) -> Result<Number, Vec<ExprProblem>> {
    compile(file, text, offset, scope, |compiler, node| {
        compiler.number(node)
    })
}

/// Compile `text` as a condition (a guard).
pub fn compile_bool(
    file: &SourceFile,
    text: &str,
    offset: usize,
    scope: &mut dyn Scope,
) -> Result<Condition, Vec<ExprProblem>> {
    compile(file, text, offset, scope, |compiler, node| {
        compiler.condition(node)
    })
}

/// Compile `text` as a member of `domain` (a look-up key, a level).
pub fn compile_symbol(
    file: &SourceFile,
    text: &str,
    offset: usize,
    scope: &mut dyn Scope,
    domain: DomainId,
) -> Result<Symbol, Vec<ExprProblem>> {
    compile(file, text, offset, scope, |compiler, node| {
        compiler.symbol(node, domain)
    })
}

fn compile<T>(
    file: &SourceFile,
    text: &str,
    offset: usize,
    scope: &mut dyn Scope,
    root: impl FnOnce(&mut Compiler<'_>, &Node) -> Option<T>,
) -> Result<T, Vec<ExprProblem>> {
    let node = parse_expression(file, text, offset).map_err(|e| vec![ExprProblem::from(e)])?;
    // A value whose text is shown on its own (escapes in the TOML string) has its spans
    // in that text; the problems then point at the whole value.
    let shown = if file.text().get(offset..offset + text.len()) == Some(text) {
        file.clone()
    } else {
        SourceFile::new(format!("{} (an expression)", file.name()), text.to_string())
    };
    let mut compiler = Compiler {
        file: &shown,
        scope,
        problems: Vec::new(),
    };
    let compiled = root(&mut compiler, &node);
    match compiled {
        Some(compiled) if compiler.problems.is_empty() => Ok(compiled),
        _ => Err(compiler.problems),
    }
}

/// A sub-expression with its type found.
enum Typed {
    Number(Number),
    Bool(Condition),
    /// Dice, not yet rolled (a number once it is used as one).
    Dice(Number),
    Symbol(Symbol, DomainId),
    /// A quoted name, checked once it meets the domain it is compared with.
    Text(String, Span),
}

struct Compiler<'c> {
    file: &'c SourceFile,
    scope: &'c mut dyn Scope,
    problems: Vec<ExprProblem>,
}

impl Compiler<'_> {
    fn typed(&mut self, node: &Node) -> Option<Typed> {
        match &node.kind {
            NodeKind::Number(n) => Some(Typed::Number(Number::Const(*n))),
            NodeKind::Bool(b) => Some(Typed::Bool(Condition::Const(*b))),
            NodeKind::Text(text) => Some(Typed::Text(text.clone(), node.span)),
            NodeKind::Dice(dice) => Some(Typed::Dice(Number::Roll(Box::new(dice.clone())))),
            NodeKind::Path(path) => match self.scope.resolve(path) {
                Resolution::Found(slot, ty) => Some(match ty {
                    Type::Number => Typed::Number(Number::Read(slot)),
                    Type::Bool => Typed::Bool(Condition::Read(slot)),
                    Type::Dice => Typed::Dice(Number::RollSlot(slot)),
                    Type::Symbol(domain) => Typed::Symbol(Symbol::Read(slot), domain),
                }),
                Resolution::Unknown { at, known } => {
                    let at = at.min(path.len() - 1);
                    let word = &path[at].value;
                    let name = path[..=at]
                        .iter()
                        .map(|w| w.value.as_str())
                        .collect::<Vec<_>>()
                        .join(".");
                    let help = match (suggest(word, &known), known.is_empty()) {
                        (Some(close), _) => format!("did you mean `{close}`?"),
                        (None, false) => format!("known here: {}", known.join(", ")),
                        (None, true) => "nothing more can follow here".to_string(),
                    };
                    self.problems.push(ExprProblem::UnknownName {
                        src: self.file.named(),
                        span: path[at].span.into(),
                        place: self.scope.place(),
                        name,
                        help,
                    });
                    None
                }
            },
            NodeKind::Call {
                function,
                arguments,
            } => self.call(node, function, arguments),
            NodeKind::Unary { op, operand } => match op {
                // A negative dice literal is rolled as the negative dice (`-1D4`, logged
                // so, its total negative), as a dice text such as a statistic's is.
                UnaryOp::Negate => match &operand.kind {
                    NodeKind::Dice(dice) => {
                        Some(Typed::Dice(Number::Roll(Box::new(dice.negative()))))
                    }
                    _ => Some(Typed::Number(Number::Negate(Box::new(
                        self.number(operand)?,
                    )))),
                },
                UnaryOp::Not => Some(Typed::Bool(Condition::Not(Box::new(
                    self.condition(operand)?,
                )))),
            },
            NodeKind::Binary { op, left, right } => self.binary(*op, left, right),
            NodeKind::If {
                condition,
                then,
                otherwise,
            } => self.if_else(condition, then, otherwise),
        }
    }

    fn number(&mut self, node: &Node) -> Option<Number> {
        match self.typed(node)? {
            Typed::Number(number) => Some(number),
            Typed::Dice(dice) => {
                if self.scope.may_roll() {
                    Some(dice)
                } else {
                    self.problems.push(ExprProblem::DiceNotRolled {
                        src: self.file.named(),
                        span: node.span.into(),
                        place: self.scope.place(),
                        help: "a formula or a guard is computed without rolling: roll the dice \
                               where the rule rolls them and pass the total in"
                            .into(),
                    });
                    None
                }
            }
            other => self.mismatch(node, "a number", &other),
        }
    }

    fn condition(&mut self, node: &Node) -> Option<Condition> {
        match self.typed(node)? {
            Typed::Bool(condition) => Some(condition),
            other => self.mismatch(node, "a condition (true or false)", &other),
        }
    }

    fn symbol(&mut self, node: &Node, domain: DomainId) -> Option<Symbol> {
        let typed = self.typed(node)?;
        self.as_symbol(node, typed, domain)
    }

    fn as_symbol(&mut self, node: &Node, typed: Typed, domain: DomainId) -> Option<Symbol> {
        match typed {
            Typed::Symbol(symbol, found) if found == domain => Some(symbol),
            Typed::Text(text, span) => self.member(&text, span, domain).map(Symbol::Const),
            other => {
                let expected = format!("a {}", self.scope.domain(domain).what);
                self.mismatch(node, &expected, &other)
            }
        }
    }

    /// A quoted name as a member of `domain`.
    fn member(&mut self, text: &str, span: Span, domain: DomainId) -> Option<u32> {
        let domain = self.scope.domain(domain);
        if let Some(index) = domain.members.iter().position(|m| m == text) {
            return Some(index as u32);
        }
        let help = match suggest(text, &domain.members) {
            Some(close) => format!("did you mean \"{close}\"?"),
            None => format!("the ruleset declares: {}", domain.members.join(", ")),
        };
        self.problems.push(ExprProblem::UnknownMember {
            src: self.file.named(),
            span: span.into(),
            text: text.to_string(),
            what: domain.what.clone(),
            help,
        });
        None
    }

    fn describe(&self, typed: &Typed) -> String {
        match typed {
            Typed::Number(_) => "a number".into(),
            Typed::Bool(_) => "a condition (true or false)".into(),
            Typed::Dice(_) => "dice".into(),
            Typed::Symbol(_, domain) => format!("a {}", self.scope.domain(*domain).what),
            Typed::Text(..) => "a quoted name".into(),
        }
    }

    fn mismatch<T>(&mut self, node: &Node, expected: &str, found: &Typed) -> Option<T> {
        let found_text = self.describe(found);
        let help = match found {
            Typed::Text(..) => "a quoted name is compared with a value the ruleset names, as in \
                 attack.level == \"critical\""
                .to_string(),
            Typed::Bool(_) => "a comparison or a condition gives true or false, not a number; \
                               use if c { a } else { b } to choose a number"
                .to_string(),
            Typed::Symbol(..) => {
                "compare it with == \"name\", or take its place in the list with rank(...)"
                    .to_string()
            }
            _ => format!("write {expected} here"),
        };
        self.problems.push(ExprProblem::TypeMismatch {
            src: self.file.named(),
            span: node.span.into(),
            place: self.scope.place(),
            expected: expected.to_string(),
            found: found_text,
            help,
        });
        None
    }

    fn binary(&mut self, op: BinaryOp, left: &Node, right: &Node) -> Option<Typed> {
        let arithmetic = |op: BinaryOp, a: Number, b: Number| {
            let (a, b) = (Box::new(a), Box::new(b));
            match op {
                BinaryOp::Add => Number::Add(a, b),
                BinaryOp::Subtract => Number::Subtract(a, b),
                BinaryOp::Multiply => Number::Multiply(a, b),
                _ => Number::Divide(a, b, Rounding::Down),
            }
        };
        match op {
            BinaryOp::Add | BinaryOp::Subtract | BinaryOp::Multiply | BinaryOp::Divide => {
                let (a, b) = (self.number(left), self.number(right));
                Some(Typed::Number(arithmetic(op, a?, b?)))
            }
            BinaryOp::Or => {
                let (a, b) = (self.typed(left), self.typed(right));
                let (a, b) = (a?, b?);
                match (a, b) {
                    (Typed::Bool(a), Typed::Bool(b)) => Some(Typed::Bool(Condition::or(a, b))),
                    // The first of two skills' die codes that the combatant has.
                    (Typed::Dice(a), Typed::Dice(b)) => {
                        let joined = match (a, b) {
                            (Number::RollSlot(a), Number::RollSlot(b)) => self.scope.either(a, b),
                            _ => None,
                        };
                        match joined {
                            Some(slot) => Some(Typed::Dice(Number::RollSlot(slot))),
                            None => self.function_problem(
                                left,
                                "or",
                                "joins two conditions, or two skills' die codes of one combatant"
                                    .into(),
                                "self.dice.climbing or self.dice.dexterity reads the first die code the combatant has".into(),
                            ),
                        }
                    }
                    (Typed::Dice(_), other) => {
                        self.mismatch(right, "a skill's die code (self.dice.NAME)", &other)
                    }
                    (other, Typed::Dice(_)) => {
                        self.mismatch(left, "a skill's die code (self.dice.NAME)", &other)
                    }
                    (a, b) => {
                        if !matches!(a, Typed::Bool(_)) {
                            self.mismatch::<()>(left, "a condition (true or false)", &a);
                        }
                        if !matches!(b, Typed::Bool(_)) {
                            self.mismatch::<()>(right, "a condition (true or false)", &b);
                        }
                        None
                    }
                }
            }
            BinaryOp::And => {
                let (a, b) = (self.condition(left), self.condition(right));
                Some(Typed::Bool(Condition::and(a?, b?)))
            }
            BinaryOp::Less
            | BinaryOp::LessOrEqual
            | BinaryOp::Greater
            | BinaryOp::GreaterOrEqual => {
                let (a, b) = (self.number(left), self.number(right));
                Some(Typed::Bool(Condition::Compare(
                    comparison(op),
                    Box::new(a?),
                    Box::new(b?),
                )))
            }
            BinaryOp::Equal | BinaryOp::NotEqual => self.equality(op, left, right),
        }
    }

    /// `==` and `!=`: numbers, conditions, or members of one domain.
    fn equality(&mut self, op: BinaryOp, left: &Node, right: &Node) -> Option<Typed> {
        let same = op == BinaryOp::Equal;
        let (a, b) = (self.typed(left), self.typed(right));
        let (a, b) = (a?, b?);
        let domain = match (&a, &b) {
            (Typed::Symbol(_, domain), _) | (_, Typed::Symbol(_, domain)) => Some(*domain),
            _ => None,
        };
        if let Some(domain) = domain {
            let (a, b) = (
                self.as_symbol(left, a, domain),
                self.as_symbol(right, b, domain),
            );
            return Some(Typed::Bool(Condition::Same(
                same,
                Box::new(a?),
                Box::new(b?),
            )));
        }
        match (a, b) {
            (Typed::Bool(a), Typed::Bool(b)) => Some(Typed::Bool(Condition::Equal(
                same,
                Box::new(a),
                Box::new(b),
            ))),
            (a @ Typed::Text(..), _) => self.mismatch(left, "a value the ruleset names", &a),
            (_, b @ Typed::Text(..)) => self.mismatch(right, "a value the ruleset names", &b),
            (a, b) => {
                let a = self.coerce_number(left, a);
                let b = self.coerce_number(right, b);
                let comparison = if same {
                    Comparison::Equal
                } else {
                    Comparison::NotEqual
                };
                Some(Typed::Bool(Condition::Compare(
                    comparison,
                    Box::new(a?),
                    Box::new(b?),
                )))
            }
        }
    }

    /// A value already typed, as a number.
    fn coerce_number(&mut self, node: &Node, typed: Typed) -> Option<Number> {
        match typed {
            Typed::Number(n) => Some(n),
            Typed::Dice(_) => self.number(node),
            other => self.mismatch(node, "a number", &other),
        }
    }

    fn if_else(&mut self, condition: &Node, then: &Node, otherwise: &Node) -> Option<Typed> {
        let condition = self.condition(condition);
        let (a, b) = (self.typed(then), self.typed(otherwise));
        let (condition, a, b) = (Box::new(condition?), a?, b?);
        let domain = match (&a, &b) {
            (Typed::Symbol(_, domain), _) | (_, Typed::Symbol(_, domain)) => Some(*domain),
            _ => None,
        };
        if let Some(domain) = domain {
            let (a, b) = (
                self.as_symbol(then, a, domain),
                self.as_symbol(otherwise, b, domain),
            );
            return Some(Typed::Symbol(
                Symbol::If(condition, Box::new(a?), Box::new(b?)),
                domain,
            ));
        }
        match (a, b) {
            (Typed::Bool(a), Typed::Bool(b)) => Some(Typed::Bool(Condition::If(
                condition,
                Box::new(a),
                Box::new(b),
            ))),
            (a, b) => {
                let a = self.coerce_number(then, a);
                let b = self.coerce_number(otherwise, b);
                Some(Typed::Number(Number::If(
                    condition,
                    Box::new(a?),
                    Box::new(b?),
                )))
            }
        }
    }

    fn call(&mut self, node: &Node, name: &Spanned<String>, arguments: &[Node]) -> Option<Typed> {
        let function = name.value.as_str();
        let arity = |wanted: &str| format!("takes {wanted}, not {}", arguments.len());
        match function {
            "min" | "max" => {
                if arguments.len() < 2 {
                    return self.function_problem(
                        node,
                        function,
                        arity("two or more numbers"),
                        format!(
                            "{function}(a, b) gives the {}er of a and b",
                            if function == "min" { "small" } else { "larg" }
                        ),
                    );
                }
                let all: Vec<Option<Number>> = arguments.iter().map(|a| self.number(a)).collect();
                let all: Vec<Number> = all.into_iter().collect::<Option<_>>()?;
                Some(Typed::Number(if function == "min" {
                    Number::Min(all)
                } else {
                    Number::Max(all)
                }))
            }
            "lookup" => {
                let help = "lookup(\"parry_reduction\", rank(parry.size) - rank(weapon.size)) reads a look-up table's first column; a third argument names another: lookup(\"table\", key, \"column\")";
                let (table, key, column) = match arguments {
                    [table, key] => (table, key, None),
                    [table, key, column] => (table, key, Some(column)),
                    _ => {
                        return self.function_problem(
                            node,
                            function,
                            arity("a table, a key and perhaps a column"),
                            help.into(),
                        );
                    }
                };
                let quoted = |node: &Node| match &node.kind {
                    NodeKind::Text(text) => Some(text.clone()),
                    _ => None,
                };
                let (Some(name), Some(column)) = (
                    quoted(table),
                    column.map_or(Some(None), |c| quoted(c).map(Some)),
                ) else {
                    return self.function_problem(
                        node,
                        function,
                        "names its table (and column) in quotes".into(),
                        help.into(),
                    );
                };
                let rows = match self.scope.lookup(&name, column.as_deref()) {
                    Ok(rows) => rows,
                    Err(message) => {
                        return self.function_problem(table, function, message, help.into());
                    }
                };
                match self.typed(key)? {
                    Typed::Number(number) => Some(Typed::Number(Number::Lookup(
                        rows.numbered.into_boxed_slice(),
                        Box::new(number),
                    ))),
                    Typed::Symbol(symbol, domain) => {
                        let members = &self.scope.domain(domain).members;
                        let values: Vec<i64> = members
                            .iter()
                            .map(|member| {
                                rows.named
                                    .iter()
                                    .find(|(name, _)| name == member)
                                    .map_or(0, |row| row.1)
                            })
                            .collect();
                        Some(Typed::Number(Number::LookupMember(
                            values.into_boxed_slice(),
                            Box::new(symbol),
                        )))
                    }
                    other => self.mismatch(key, "a number or a value the ruleset names", &other),
                }
            }
            "maximum" | "minimum" => {
                let most = function == "maximum";
                let [argument] = arguments else {
                    return self.function_problem(
                        node,
                        function,
                        arity("dice"),
                        format!(
                            "{function}(weapon.damage) is the {} the dice can roll, without rolling them",
                            if most { "most" } else { "least" }
                        ),
                    );
                };
                match self.typed(argument)? {
                    Typed::Dice(Number::RollSlot(slot)) => {
                        Some(Typed::Number(Number::DiceBound(slot, most)))
                    }
                    Typed::Dice(Number::Roll(dice)) => {
                        Some(Typed::Number(Number::Const(if most {
                            dice.max()
                        } else {
                            dice.min()
                        })))
                    }
                    other => self.mismatch(argument, "dice", &other),
                }
            }
            "maximise" => {
                let [dice, count] = arguments else {
                    return self.function_problem(
                        node,
                        function,
                        arity("dice and a number"),
                        "maximise(weapon.damage, 1) rolls the dice with one of them at its most"
                            .into(),
                    );
                };
                let dice = match self.typed(dice)? {
                    Typed::Dice(dice) => dice,
                    other => return self.mismatch(dice, "dice", &other),
                };
                let count = self.number(count)?;
                Some(Typed::Number(Number::Maximise(
                    Box::new(dice),
                    Box::new(count),
                )))
            }
            // What dice are made of, without rolling them: how many dice, or the
            // number they add besides.
            "dice" | "pips" => {
                let (help, slot_read, count): (_, SlotRead, DiceFigure) = if function == "dice" {
                    (
                        "dice(weapon.damage) is how many dice it rolls (2 for 2D8+1)",
                        Number::DiceCount,
                        dice_count,
                    )
                } else {
                    (
                        "pips(self.dice.fighting) is what the dice add besides their dice (2 for 4D6+2)",
                        Number::DicePips,
                        dice_pips,
                    )
                };
                let [argument] = arguments else {
                    return self.function_problem(node, function, arity("dice"), help.into());
                };
                match self.typed(argument)? {
                    Typed::Dice(Number::RollSlot(slot)) => Some(Typed::Number(slot_read(slot))),
                    Typed::Dice(Number::Roll(dice)) => {
                        Some(Typed::Number(Number::Const(count(&dice))))
                    }
                    other => self.mismatch(argument, "dice", &other),
                }
            }
            "pool" | "exploding" => {
                let exploding = function == "exploding";
                let help = if exploding {
                    "exploding(dice(self.dice.fighting), 6) rolls that many six-sided dice, the last on its own and again while it shows 6; a third argument names that die in the log: exploding(n, 6, \"bonus die\"); a fourth, a condition, makes a first 1 on it take itself and the highest other die away where it holds: exploding(n, 6, \"bonus die\", fight.option.one_subtracts)"
                } else {
                    "pool(dice(self.dice.fighting) - 1, 6) rolls as many six-sided dice as the number says"
                };
                let (count, sides, label, subtracts) = match arguments {
                    [count, sides] => (count, sides, None, None),
                    [count, sides, label] if exploding => (count, sides, Some(label), None),
                    [count, sides, label, subtracts] if exploding => {
                        (count, sides, Some(label), Some(subtracts))
                    }
                    _ => {
                        return self.function_problem(
                            node,
                            function,
                            arity(if exploding {
                                "a number of dice, their sides, and perhaps a name and a condition"
                            } else {
                                "a number of dice and their sides"
                            }),
                            help.into(),
                        );
                    }
                };
                let count = self.number(count)?;
                let sides = match &sides.kind {
                    NodeKind::Number(n) if (1..=i64::from(Limits::MAX_SIDES)).contains(n) => {
                        *n as u32
                    }
                    _ => {
                        return self.function_problem(
                            sides,
                            function,
                            format!(
                                "the sides of the dice are a number from 1 to {}, written out",
                                Limits::MAX_SIDES
                            ),
                            help.into(),
                        );
                    }
                };
                let label = match label.map(|label| &label.kind) {
                    None => "exploding die".to_string(),
                    Some(NodeKind::Text(text)) => text.clone(),
                    Some(_) => {
                        let label = label.unwrap_or(node);
                        return self.function_problem(
                            label,
                            function,
                            "names the exploding die in quotes".into(),
                            help.into(),
                        );
                    }
                };
                let one_subtracts = match subtracts {
                    None => None,
                    Some(node) => {
                        let condition = self.condition(node)?;
                        if condition.rolls() {
                            return self.function_problem(
                                node,
                                function,
                                "takes as its fourth argument a condition that rolls no dice (where it holds, a 1 takes the highest die away)".into(),
                                help.into(),
                            );
                        }
                        Some(condition)
                    }
                };
                let mut pool = Pool::new(count, sides, exploding.then_some(label.as_str()));
                pool.one_subtracts = one_subtracts;
                Some(Typed::Number(Number::Pool(Box::new(pool))))
            }
            "abs" => {
                let [argument] = arguments else {
                    return self.function_problem(
                        node,
                        function,
                        arity("one number"),
                        "abs(a - b) is the distance between a and b".into(),
                    );
                };
                Some(Typed::Number(Number::Abs(Box::new(self.number(argument)?))))
            }
            "ceil" | "floor" | "round" => {
                let rounding = match function {
                    "ceil" => Rounding::Up,
                    "floor" => Rounding::Down,
                    _ => Rounding::Nearest,
                };
                let division = match arguments {
                    [
                        Node {
                            kind:
                                NodeKind::Binary {
                                    op: BinaryOp::Divide,
                                    left,
                                    right,
                                },
                            ..
                        },
                    ] => Some((left, right)),
                    _ => None,
                };
                let Some((left, right)) = division else {
                    return self.function_problem(
                        node,
                        function,
                        "rounds one division".into(),
                        format!(
                            "numbers are whole: write {function}(a / b), as in ceil(skill / 10)"
                        ),
                    );
                };
                let (a, b) = (self.number(left), self.number(right));
                Some(Typed::Number(Number::Divide(
                    Box::new(a?),
                    Box::new(b?),
                    rounding,
                )))
            }
            "rank" => {
                let [argument] = arguments else {
                    return self.function_problem(
                        node,
                        function,
                        arity("one value"),
                        "rank(weapon.size) is the size's place in weapon_sizes, the first 0".into(),
                    );
                };
                match self.typed(argument)? {
                    Typed::Symbol(symbol, _) => Some(Typed::Number(Number::Rank(Box::new(symbol)))),
                    other => self.mismatch(
                        argument,
                        "a value the ruleset names (a size, a level, ...)",
                        &other,
                    ),
                }
            }
            "any" | "all" | "count" => {
                let collection = match arguments {
                    [
                        Node {
                            kind: NodeKind::Path(words),
                            ..
                        },
                        _,
                    ] if words.len() == 1 => self.scope.collection(&words[0].value),
                    _ => None,
                };
                let Some(over) = collection else {
                    let known = self.scope.collections();
                    let help = if known.is_empty() {
                        "nothing here can be gone through".to_string()
                    } else {
                        format!(
                            "write {function}(COLLECTION, condition), COLLECTION one of: {}",
                            known.join(", ")
                        )
                    };
                    return self.function_problem(
                        node,
                        function,
                        "needs a collection and a condition".into(),
                        help,
                    );
                };
                let body = Box::new(self.condition(&arguments[1])?);
                Some(match function {
                    "any" => Typed::Bool(Condition::Any(over, body)),
                    "all" => Typed::Bool(Condition::All(over, body)),
                    _ => Typed::Number(Number::Count(over, body)),
                })
            }
            _ => {
                let known: Vec<String> = [
                    "min",
                    "max",
                    "abs",
                    "ceil",
                    "floor",
                    "round",
                    "rank",
                    "any",
                    "all",
                    "count",
                    "maximum",
                    "minimum",
                    "maximise",
                    "dice",
                    "pips",
                    "pool",
                    "exploding",
                    "lookup",
                ]
                .map(String::from)
                .to_vec();
                let help = match suggest(function, &known) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => format!("the functions are {}", known.join(", ")),
                };
                let at = Node {
                    kind: NodeKind::Bool(false),
                    span: name.span,
                };
                self.function_problem(&at, function, "is not a function".into(), help)
            }
        }
    }

    fn function_problem<T>(
        &mut self,
        node: &Node,
        function: &str,
        problem: String,
        help: String,
    ) -> Option<T> {
        self.problems.push(ExprProblem::Function {
            src: self.file.named(),
            span: node.span.into(),
            function: function.to_string(),
            problem,
            help,
        });
        None
    }
}

fn comparison(op: BinaryOp) -> Comparison {
    match op {
        BinaryOp::Less => Comparison::Less,
        BinaryOp::LessOrEqual => Comparison::LessOrEqual,
        BinaryOp::Greater => Comparison::Greater,
        BinaryOp::GreaterOrEqual => Comparison::GreaterOrEqual,
        BinaryOp::NotEqual => Comparison::NotEqual,
        _ => Comparison::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceExpr;
    use crate::expr::{Domain, Env, Slot};

    /// A scope like a stage's: `attacker.siz` and `defender.siz` (numbers),
    /// `defender.prone` (a condition), `attack.level` (a success level), `weapon.damage`
    /// (dice).
    struct Stage {
        levels: Domain,
        may_roll: bool,
    }

    const SIZ_A: Slot = Slot(0);
    const SIZ_D: Slot = Slot(1);
    const PRONE: Slot = Slot(2);
    const LEVEL: Slot = Slot(3);
    const DAMAGE: Slot = Slot(4);

    impl Scope for Stage {
        fn resolve(&mut self, path: &[Spanned<String>]) -> Resolution {
            let words: Vec<&str> = path.iter().map(|w| w.value.as_str()).collect();
            let found = match words.as_slice() {
                ["attacker", "siz"] => (SIZ_A, Type::Number),
                ["defender", "siz"] => (SIZ_D, Type::Number),
                ["defender", "prone"] => (PRONE, Type::Bool),
                ["attack", "level"] => (LEVEL, Type::Symbol(DomainId(0))),
                ["weapon", "damage"] => (DAMAGE, Type::Dice),
                ["attacker" | "defender", _] => {
                    return Resolution::Unknown {
                        at: 1,
                        known: vec!["siz".into(), "prone".into()],
                    };
                }
                _ => {
                    return Resolution::Unknown {
                        at: 0,
                        known: ["attacker", "defender", "attack", "weapon"]
                            .map(String::from)
                            .to_vec(),
                    };
                }
            };
            Resolution::Found(found.0, found.1)
        }
        fn domain(&self, _: DomainId) -> &Domain {
            &self.levels
        }
        fn may_roll(&self) -> bool {
            self.may_roll
        }
        fn place(&self) -> String {
            "the test".into()
        }
        fn collection(&mut self, name: &str) -> Option<Slot> {
            (name == "foes").then_some(FOES)
        }
    }

    const FOES: Slot = Slot(9);

    /// Values for the slots above; every die rolls its maximum. `defender.siz` is, inside
    /// `any(foes, ...)`, each foe's in turn.
    struct Values {
        siz: [i64; 2],
        prone: bool,
        level: u32,
        rolled: Vec<i64>,
        foes: Vec<i64>,
        bound: Option<usize>,
        saved: Vec<Option<usize>>,
    }

    impl Env for Values {
        fn number(&mut self, slot: Slot) -> i64 {
            match (slot, self.bound) {
                (SIZ_D, Some(foe)) => self.foes[foe],
                _ => self.siz[slot.0 as usize],
            }
        }
        fn bind(&mut self, _: Slot, index: usize) -> bool {
            self.bound = (index < self.foes.len()).then_some(index);
            self.bound.is_some()
        }
        fn enter(&mut self, _: Slot) {
            self.saved.push(self.bound);
        }
        fn leave(&mut self, _: Slot) {
            self.bound = self.saved.pop().flatten();
        }
        fn flag(&mut self, _: Slot) -> bool {
            self.prone
        }
        fn symbol(&self, _: Slot) -> u32 {
            self.level
        }
        fn roll_slot(&mut self, _: Slot) -> i64 {
            self.rolled.push(8);
            8
        }
        fn roll(&mut self, dice: &DiceExpr) -> i64 {
            self.rolled.push(dice.max());
            dice.max()
        }
        /// `weapon.damage` is 2D8+1.
        fn slot_dice(&self, _: Slot) -> Option<DiceExpr> {
            DiceExpr::new(vec![
                crate::dice::DiceTerm {
                    negative: false,
                    kind: crate::dice::TermKind::Dice { count: 2, sides: 8 },
                },
                crate::dice::DiceTerm {
                    negative: false,
                    kind: crate::dice::TermKind::Constant(1),
                },
            ])
            .ok()
        }
    }

    fn stage(may_roll: bool) -> Stage {
        Stage {
            levels: Domain {
                what: "success level".into(),
                members: ["critical", "success", "failure", "fumble"]
                    .map(String::from)
                    .to_vec(),
            },
            may_roll,
        }
    }

    fn values() -> Values {
        Values {
            siz: [14, 9],
            prone: true,
            level: 1,
            rolled: Vec::new(),
            foes: vec![6, 15, 9],
            bound: None,
            saved: Vec::new(),
        }
    }

    fn problems_of(result: Result<impl std::fmt::Debug, Vec<ExprProblem>>) -> Vec<String> {
        result
            .expect_err("the expression is refused")
            .iter()
            .map(|problem| {
                let code = miette::Diagnostic::code(problem).map(|c| c.to_string());
                format!("{}: {problem}", code.unwrap_or_default())
            })
            .collect()
    }

    fn file(text: &str) -> SourceFile {
        SourceFile::new("test", text)
    }

    #[test]
    fn guards_read_conditions_levels_and_numbers() {
        for (text, expected) in [
            ("attack.level == \"success\"", true),
            ("attack.level != \"success\"", false),
            ("\"critical\" == attack.level or defender.prone", true),
            ("defender.prone and attacker.siz > 2 * defender.siz", false),
            ("not defender.prone == false", true),
            ("rank(attack.level) == 1", true),
            (
                "if defender.prone { attack.level } else { \"fumble\" } == \"success\"",
                true,
            ),
        ] {
            let guard = compile_bool(&file(text), text, 0, &mut stage(false))
                .unwrap_or_else(|p| panic!("{text}: {p:?}"));
            assert_eq!(guard.eval(&mut values()), expected, "{text}");
        }
    }

    #[test]
    fn maximised_dice_roll_only_the_rest() {
        // 2D8+1 with one die at its most: 8, and 1D8+1 rolled (the test's dice roll
        // their maximum, 9); two maximised: 16 and the 1 rolled; none: the slot rolled.
        for (text, total, rolled) in [
            ("maximise(weapon.damage, 1)", 17, vec![9]),
            ("maximise(weapon.damage, 2)", 17, vec![1]),
            ("maximise(weapon.damage, 0)", 8, vec![8]),
            ("maximise(3d6, 2)", 18, vec![6]),
            ("dice(weapon.damage)", 2, vec![]),
            ("dice(2d6)", 2, vec![]),
        ] {
            let number = compile_number(&file(text), text, 0, &mut stage(true))
                .unwrap_or_else(|p| panic!("{text}: {p:?}"));
            let mut env = values();
            assert_eq!(number.eval(&mut env), total, "{text}");
            assert_eq!(env.rolled, rolled, "{text}");
        }
    }

    #[test]
    fn collections_are_gone_through_member_by_member() {
        for (text, expected) in [
            ("any(foes, defender.siz > attacker.siz)", true),
            ("all(foes, defender.siz > 5)", true),
            ("all(foes, defender.siz > 6)", false),
            // Inside and after a nested collection, the outer binding is back.
            (
                "any(foes, any(foes, defender.siz == 15) and defender.siz == 6)",
                true,
            ),
            ("any(foes, defender.siz == 15) and defender.siz == 9", true),
        ] {
            let guard = compile_bool(&file(text), text, 0, &mut stage(false))
                .unwrap_or_else(|p| panic!("{text}: {p:?}"));
            assert_eq!(guard.eval(&mut values()), expected, "{text}");
        }
        let text = "count(foes, defender.siz >= 9)";
        let count = compile_number(&file(text), text, 0, &mut stage(false)).unwrap();
        assert_eq!(count.eval(&mut values()), 2);
        let text = "any(enemies, defender.prone)";
        let found = problems_of(compile_bool(&file(text), text, 0, &mut stage(false)));
        assert_eq!(
            found,
            ["affray::expr::function: `any` needs a collection and a condition"]
        );
    }

    #[test]
    fn a_key_is_a_member_of_its_domain() {
        let text = "if defender.prone { \"fumble\" } else { attack.level }";
        let key = compile_symbol(&file(text), text, 0, &mut stage(false), DomainId(0)).unwrap();
        assert_eq!(key.eval(&mut values()), 3);
        let text = "attacker.siz";
        let found = problems_of(compile_symbol(
            &file(text),
            text,
            0,
            &mut stage(false),
            DomainId(0),
        ));
        assert_eq!(
            found,
            ["affray::expr::type_mismatch: the test: expected a success level, found a number"]
        );
    }

    #[test]
    fn dice_roll_where_a_number_is_needed() {
        let text = "weapon.damage + 1d4 + attacker.siz / 4";
        let damage = compile_number(&file(text), text, 0, &mut stage(true)).unwrap();
        let mut env = values();
        assert_eq!(damage.eval(&mut env), 8 + 4 + 3);
        assert_eq!(env.rolled, [8, 4]);
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let text = "attacker.sz + defender.prone + max(1) + 1d6";
        let found = problems_of(compile_number(&file(text), text, 0, &mut stage(false)));
        assert_eq!(
            found,
            [
                "affray::expr::unknown_name: the test uses `attacker.sz`, which is not known there",
                "affray::expr::type_mismatch: the test: expected a number, found a condition (true or false)",
                "affray::expr::function: `max` takes two or more numbers, not 1",
                "affray::expr::dice_not_rolled: the test cannot roll dice",
            ]
        );
    }

    #[test]
    fn a_misspelt_member_is_named_with_the_closest() {
        let text = "attack.level == \"critcal\"";
        let problems = compile_bool(&file(text), text, 0, &mut stage(false)).unwrap_err();
        let [ExprProblem::UnknownMember { help, what, .. }] = problems.as_slice() else {
            panic!("{problems:?}")
        };
        assert_eq!(what, "success level");
        assert_eq!(help, "did you mean \"critical\"?");
    }

    #[test]
    fn a_misspelt_name_is_named_with_the_closest() {
        let text = "defender.prone or defendr.prone";
        let problems = compile_bool(&file(text), text, 0, &mut stage(false)).unwrap_err();
        let [
            ExprProblem::UnknownName {
                name, help, span, ..
            },
        ] = problems.as_slice()
        else {
            panic!("{problems:?}")
        };
        assert_eq!(name, "defendr");
        assert_eq!(help, "did you mean `defender`?");
        assert_eq!((span.offset(), span.len()), (18, 7));
    }

    #[test]
    fn types_must_agree() {
        for text in [
            "attack.level == 1",
            "attack.level + 1",
            "\"success\"",
            "\"a\" == \"b\"",
            "if defender.prone { 1 } else { defender.prone }",
        ] {
            let found = problems_of(
                compile_number(&file(text), text, 0, &mut stage(false))
                    .map(|_| ())
                    .or_else(|_| compile_bool(&file(text), text, 0, &mut stage(false)).map(|_| ())),
            );
            assert!(!found.is_empty(), "{text}");
        }
    }
}
