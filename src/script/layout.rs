//! Where things are written in a script's text, read as rhai reads it as far as a
//! comparison needs: strings, comments, words and brackets. The compiled `AST` keeps no
//! span for a whole function, so `affray diff` finds each `fn` here, and compares texts
//! through [`meaning`], which leaves out comments and spacing.

use std::ops::Range;

use crate::source::Span;

/// A function as written: `private fn name(a, b) { ... }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionText {
    pub name: String,
    pub arity: usize,
    /// From `fn` (or `private`) to the closing brace of the body.
    pub span: Span,
}

/// Every function defined at the top level of a script, in the order written.
pub fn functions_in(text: &str) -> Vec<FunctionText> {
    let tokens: Vec<Token> = tokens(text)
        .filter(|t| !matches!(t.kind, Kind::Space | Kind::Comment))
        .collect();
    let mut functions = Vec::new();
    let mut depth = 0usize;
    let mut index = 0;
    while index < tokens.len() {
        let token = &tokens[index];
        match token.kind {
            Kind::Punct('{') => depth += 1,
            Kind::Punct('}') => depth = depth.saturating_sub(1),
            Kind::Word if depth == 0 && &text[token.range.clone()] == "fn" => {
                if let Some((function, next)) = function_at(text, &tokens, index) {
                    functions.push(function);
                    index = next;
                    continue;
                }
            }
            _ => {}
        }
        index += 1;
    }
    functions
}

/// The function whose `fn` keyword is `tokens[at]`, and the index of the token after it.
fn function_at(text: &str, tokens: &[Token], at: usize) -> Option<(FunctionText, usize)> {
    let word = |i: usize| -> Option<&str> {
        let token = tokens.get(i)?;
        (token.kind == Kind::Word).then(|| &text[token.range.clone()])
    };
    let start = match at.checked_sub(1).and_then(word) {
        Some("private") => tokens[at - 1].range.start,
        _ => tokens[at].range.start,
    };
    let name = word(at + 1)?.to_string();
    if tokens.get(at + 2)?.kind != Kind::Punct('(') {
        return None;
    }
    let mut index = at + 3;
    let mut arity = 0;
    while tokens.get(index)?.kind != Kind::Punct(')') {
        if tokens[index].kind == Kind::Word {
            arity += 1;
        }
        index += 1;
    }
    index += 1;
    if tokens.get(index)?.kind != Kind::Punct('{') {
        return None;
    }
    let mut depth = 0usize;
    while let Some(token) = tokens.get(index) {
        match token.kind {
            Kind::Punct('{') => depth += 1,
            Kind::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    let span = Span::new(start, token.range.end);
                    return Some((FunctionText { name, arity, span }, index + 1));
                }
            }
            _ => {}
        }
        index += 1;
    }
    None
}

/// The text as rhai means it: comments left out, and spacing kept only where it
/// separates two words (or two operator characters), so that re-indenting, re-wrapping
/// or commenting code does not change it. Strings are kept exactly.
pub fn meaning(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut spaced = false;
    for token in tokens(text) {
        let piece = &text[token.range.clone()];
        match token.kind {
            Kind::Space | Kind::Comment => spaced = true,
            _ => {
                let first = piece.chars().next().unwrap_or(' ');
                if spaced && out.chars().last().is_some_and(|last| joins(last, first)) {
                    out.push(' ');
                }
                out.push_str(piece);
                spaced = false;
            }
        }
    }
    out
}

/// Whether a space between these two characters is needed to keep them apart.
fn joins(left: char, right: char) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let operator = |c: char| "+-*/%=<>!&|^.:?".contains(c);
    (word(left) && word(right)) || (operator(left) && operator(right))
}

/// The lines of a script outside its functions that hold code (not only comments or
/// blanks), each with its 1-based number, trimmed at the end.
pub fn top_level_lines(text: &str, functions: &[FunctionText]) -> Vec<(usize, String)> {
    let mut code = vec![false; text.len() + 1];
    for token in tokens(text) {
        if matches!(token.kind, Kind::Space | Kind::Comment) {
            continue;
        }
        if functions
            .iter()
            .any(|f| f.span.start <= token.range.start && token.range.start < f.span.end)
        {
            continue;
        }
        code[token.range.start] = true;
    }
    let mut lines = Vec::new();
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if code[offset..offset + line.len()].iter().any(|&c| c) {
            lines.push((index + 1, line.trim_end().to_string()));
        }
        offset += line.len();
    }
    lines
}

/// The text outside the functions, as [`meaning`] reads it.
pub fn top_level_meaning(text: &str, functions: &[FunctionText]) -> String {
    let mut outside = String::with_capacity(text.len());
    let mut at = 0;
    for function in functions {
        outside.push_str(&text[at..function.span.start]);
        // A space keeps the code on either side apart, as the function did.
        outside.push(' ');
        at = function.span.end;
    }
    outside.push_str(&text[at..]);
    meaning(&outside)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Space,
    Comment,
    /// A string or character literal, quotes included.
    Literal,
    /// Letters, digits and underscores.
    Word,
    Punct(char),
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    range: Range<usize>,
}

fn tokens(text: &str) -> impl Iterator<Item = Token> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &text[at..];
        let first = rest.chars().next()?;
        let (kind, len) = if first.is_whitespace() {
            (Kind::Space, run(rest, char::is_whitespace))
        } else if rest.starts_with("//") {
            (Kind::Comment, rest.find('\n').unwrap_or(rest.len()))
        } else if rest.starts_with("/*") {
            (Kind::Comment, block_comment(rest))
        } else if matches!(first, '"' | '\'' | '`') {
            (Kind::Literal, literal(rest, first))
        } else if first.is_alphanumeric() || first == '_' {
            (Kind::Word, run(rest, |c| c.is_alphanumeric() || c == '_'))
        } else {
            (Kind::Punct(first), first.len_utf8())
        };
        let range = at..at + len;
        at += len;
        Some(Token { kind, range })
    })
}

fn run(text: &str, keep: impl Fn(char) -> bool) -> usize {
    text.find(|c: char| !keep(c)).unwrap_or(text.len())
}

/// rhai's block comments nest.
fn block_comment(text: &str) -> usize {
    let mut depth = 0usize;
    let mut index = 0;
    let bytes = text.as_bytes();
    while index + 1 < bytes.len() {
        match &bytes[index..index + 2] {
            b"/*" => {
                depth += 1;
                index += 2;
            }
            b"*/" => {
                depth -= 1;
                index += 2;
                if depth == 0 {
                    return index;
                }
            }
            _ => index += 1,
        }
    }
    text.len()
}

/// A literal opened by `quote`, up to its closing quote (backslash escapes skipped).
fn literal(text: &str, quote: char) -> usize {
    let mut chars = text.char_indices().skip(1);
    while let Some((index, c)) = chars.next() {
        if c == '\\' {
            chars.next();
        } else if c == quote {
            return index + c.len_utf8();
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "// a comment { not a brace\nconst LIMIT = 3;\n\n/// Doc.\nfn first(a, b) {\n    let m = #{ x: \"}\" };\n    a + b\n}\n\nprivate fn second() { `${LIMIT}` }\nlet tail = 1;\n";

    #[test]
    fn finds_each_function_with_its_arity_and_text() {
        let found = functions_in(SCRIPT);
        let summary: Vec<(&str, usize, &str)> = found
            .iter()
            .map(|f| (f.name.as_str(), f.arity, &SCRIPT[f.span.start..f.span.end]))
            .collect();
        assert_eq!(
            summary,
            vec![
                (
                    "first",
                    2,
                    "fn first(a, b) {\n    let m = #{ x: \"}\" };\n    a + b\n}"
                ),
                ("second", 0, "private fn second() { `${LIMIT}` }"),
            ]
        );
    }

    #[test]
    fn meaning_ignores_spacing_and_comments_but_not_strings() {
        assert_eq!(
            meaning("let a = b +  1; // why\n/* more */ f( a )"),
            meaning("let a=b+1;\n\n   f(a)")
        );
        assert_ne!(meaning("print(\"a  b\")"), meaning("print(\"a b\")"));
        assert_ne!(meaning("let ab = 1"), meaning("let a b = 1"));
        assert_eq!(meaning("a - -b"), "a- -b");
    }

    #[test]
    fn the_top_level_is_what_lies_outside_functions() {
        let functions = functions_in(SCRIPT);
        assert_eq!(
            top_level_lines(SCRIPT, &functions),
            vec![
                (2, "const LIMIT = 3;".to_string()),
                (11, "let tail = 1;".to_string())
            ]
        );
        assert_eq!(
            top_level_meaning(SCRIPT, &functions),
            "const LIMIT=3;let tail=1;"
        );
    }
}
