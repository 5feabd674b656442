//! The `[formulas]` of ruleset.toml: named expressions whose plain names are numbers the
//! caller gives (`fight.formula("knockback_metres", #{ damage: 12, siz: 9 })`).

use serde::Serialize;

use crate::expr::{Arguments, ExprProblem, Number, Parameters, compile_number};
use crate::source::{SourceFile, Span};

#[derive(Clone, Debug, Serialize)]
pub struct Formula {
    pub name: String,
    pub text: String,
    /// The names it reads, in the order first written.
    pub parameters: Vec<String>,
    #[serde(skip)]
    pub expr: Number,
}

impl Formula {
    /// Compile the formula `name`, whose text is the TOML string at `span` of `file`.
    pub fn compile(
        name: &str,
        text: &str,
        file: &SourceFile,
        span: Span,
    ) -> Result<Formula, Vec<ExprProblem>> {
        let mut parameters = Parameters::new(name);
        let expr = compile_number(file, text, span.start, &mut parameters)?;
        Ok(Formula {
            name: name.to_string(),
            text: text.to_string(),
            parameters: parameters.names,
            expr,
        })
    }

    /// The value for these arguments, one per parameter in order.
    pub fn eval(&self, arguments: &[i64]) -> i64 {
        self.expr.eval(&mut Arguments(arguments))
    }

    /// The value with arguments given by name; the first parameter missing is an error.
    pub fn eval_named(&self, mut argument: impl FnMut(&str) -> Option<i64>) -> Result<i64, &str> {
        let mut values = Vec::with_capacity(self.parameters.len());
        for name in &self.parameters {
            values.push(argument(name).ok_or(name.as_str())?);
        }
        Ok(self.eval(&values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formula(text: &str) -> Formula {
        let file = SourceFile::new("ruleset.toml", text);
        Formula::compile("f", text, &file, Span::new(0, text.len()))
            .unwrap_or_else(|problems| panic!("{text}: {problems:?}"))
    }

    #[test]
    fn the_shipped_formulas_compute_as_the_books_round() {
        let knockback = formula("if damage > siz { (damage - siz + 4) / 5 } else { 0 }");
        assert_eq!(knockback.parameters, ["damage", "siz"]);
        assert_eq!(knockback.eval(&[20, 13]), 2);
        assert_eq!(knockback.eval(&[13, 13]), 0);
        assert_eq!(formula("(total_armour_points + 4) / 5").eval(&[36]), 8);
        // "rounded down": -1 for a score of 9, not 0.
        assert_eq!(formula("(score - 10) / 2").eval(&[9]), -1);
        let actions =
            formula("if dex <= 6 { 1 } else if dex <= 12 { 2 } else if dex <= 18 { 3 } else { 4 }");
        assert_eq!(
            [5, 6, 7, 12, 13, 19].map(|dex| actions.eval(&[dex])),
            [1, 1, 2, 2, 3, 4]
        );
        assert_eq!(formula("ceil(skill / 10)").eval(&[72]), 8);
        assert_eq!(formula("max(damage_modifier_roll, 0) * 3").eval(&[-2]), 0);
        let scale = formula(
            "if (a >= 0 && b >= 0) || (a <= 0 && b <= 0) { if a > b { a - b } else { b - a } } \
             else { (if a < 0 { -a } else { a }) + (if b < 0 { -b } else { b }) }",
        );
        assert_eq!(scale.eval(&[3, -2]), 5);
        assert_eq!(scale.eval(&[-1, -4]), 3);
    }

    #[test]
    fn a_missing_argument_is_named() {
        let knockback = formula("if damage > siz { damage - siz } else { 0 }");
        let given = |name: &str| (name == "damage").then_some(12);
        assert_eq!(knockback.eval_named(given), Err("siz"));
    }
}
