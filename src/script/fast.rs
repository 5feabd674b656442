//! Native versions of standard-library functions that rulesets call in every exchange.
//! Each gives exactly the standard function's result; it only skips rhai's generic
//! path. Registered after the standard package, so an exact argument-type match picks
//! these first.

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, NativeCallContext};

/// `list.contains("text")` (and `"text" in list`): the standard version calls the `==`
/// operator through the script engine for every element, about a microsecond for a
/// list of four names; this compares strings directly.
fn array_contains_text(
    context: NativeCallContext,
    list: &mut Array,
    text: ImmutableString,
) -> Result<bool, Box<EvalAltResult>> {
    for item in list.iter_mut() {
        if let Some(item_text) = item.read_lock::<ImmutableString>() {
            if *item_text == text {
                return Ok(true);
            }
        } else if equals_by_operator(&context, item, &text)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// An element that is not a string, compared as the standard `contains` does: by a
/// registered `==` for the two types, else not equal.
fn equals_by_operator(
    context: &NativeCallContext,
    item: &mut Dynamic,
    text: &ImmutableString,
) -> Result<bool, Box<EvalAltResult>> {
    let mut text = Dynamic::from(text.clone());
    match context.call_native_fn_raw("==", true, &mut [item, &mut text]) {
        Ok(equal) => Ok(equal.as_bool().unwrap_or(false)),
        Err(error) if matches!(*error, EvalAltResult::ErrorFunctionNotFound(..)) => Ok(false),
        Err(error) => Err(error),
    }
}

pub fn register(engine: &mut Engine) {
    engine.register_fn("contains", array_contains_text);
}

#[cfg(test)]
mod tests {
    use rhai::Engine;

    /// Every case gives what rhai's own `contains` gives, with mixed element types.
    #[test]
    fn contains_agrees_with_the_standard_function() {
        let standard = Engine::new();
        let fast = super::super::new_engine();
        for expression in [
            r#"["attack", "defend"].contains("defend")"#,
            r#"["attack", "defend"].contains("move")"#,
            r#"[].contains("move")"#,
            r#"[1, 'm', (), #{a: 1}, "move"].contains("move")"#,
            r#"[1, 'm', ()].contains("m")"#,
            r#""defend" in ["attack", "defend"]"#,
            r#""mov" in ["attack", "move"]"#,
            r#"[1, 2].contains(2)"#,
        ] {
            let expected: bool = standard.eval(expression).unwrap();
            let got: bool = fast.eval(expression).unwrap();
            assert_eq!(got, expected, "{expression}");
        }
    }
}
