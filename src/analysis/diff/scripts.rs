//! Scripts compared function by function (module, name, arity), and their top level
//! as one piece, by their text without comments or spacing.

use indexmap::IndexMap;

use super::text::{lines, written};
use super::{Change, Found, Item};
use crate::ruleset::Ruleset;
use crate::script::Script;
use crate::script::layout::{
    FunctionText, functions_in, meaning, top_level_lines, top_level_meaning,
};

/// A script with its functions found in its text.
struct Read<'r> {
    script: &'r Script,
    relative: &'r str,
    functions: IndexMap<(String, usize), FunctionText>,
}

impl Read<'_> {
    fn function_meaning(&self, function: &FunctionText) -> String {
        let text = self.script.file.text();
        meaning(&text[function.span.start..function.span.end])
    }

    fn top_level(&self) -> String {
        let functions: Vec<FunctionText> = self.functions.values().cloned().collect();
        top_level_meaning(self.script.file.text(), &functions)
    }

    fn top_level_text(&self) -> Option<super::Text> {
        let functions: Vec<FunctionText> = self.functions.values().cloned().collect();
        lines(
            self.relative,
            &top_level_lines(self.script.file.text(), &functions),
        )
    }
}

pub(super) fn compare(before: &Ruleset, after: &Ruleset, found: &mut Found) {
    let old = read(before);
    let new = read(after);
    for (module, now) in &new {
        let was = old.get(module);
        compare_functions(module, was, Some(now), found);
        compare_top_level(module, was, Some(now), found);
    }
    for (module, was) in &old {
        if !new.contains_key(module) {
            compare_functions(module, Some(was), None, found);
            compare_top_level(module, Some(was), None, found);
        }
    }
}

fn read(ruleset: &Ruleset) -> IndexMap<String, Read<'_>> {
    ruleset
        .scripts
        .iter()
        .map(|script| {
            let functions = functions_in(script.file.text())
                .into_iter()
                .map(|f| ((f.name.clone(), f.arity), f))
                .collect();
            let read = Read {
                script,
                relative: ruleset.relative_name(&script.file),
                functions,
            };
            (script.module.clone(), read)
        })
        .collect()
}

fn compare_functions(
    module: &str,
    was: Option<&Read<'_>>,
    now: Option<&Read<'_>>,
    found: &mut Found,
) {
    let shown = |read: &Read<'_>, function: &FunctionText| {
        written(&read.script.file, read.relative, function.span)
    };
    let item = |(name, arity): &(String, usize)| Item::ScriptFunction {
        module: module.to_string(),
        function: name.clone(),
        arity: *arity,
    };
    let title = |(name, arity): &(String, usize)| format!("function {module}::{name}/{arity}");
    if let Some(now) = now {
        for (key, function) in &now.functions {
            let after = Some(shown(now, function));
            match was.and_then(|was| was.functions.get(key).map(|f| (was, f))) {
                None => found.push(item(key), title(key), Change::Added, None, after),
                Some((was, previous)) => {
                    if was.function_meaning(previous) != now.function_meaning(function) {
                        let before = Some(shown(was, previous));
                        found.push(item(key), title(key), Change::Changed, before, after);
                    }
                }
            }
        }
    }
    if let Some(was) = was {
        for (key, function) in &was.functions {
            if now.is_none_or(|now| !now.functions.contains_key(key)) {
                let before = Some(shown(was, function));
                found.push(item(key), title(key), Change::Removed, before, None);
            }
        }
    }
}

fn compare_top_level(
    module: &str,
    was: Option<&Read<'_>>,
    now: Option<&Read<'_>>,
    found: &mut Found,
) {
    let old = was.map(Read::top_level).unwrap_or_default();
    let new = now.map(Read::top_level).unwrap_or_default();
    if old == new {
        return;
    }
    let change = match (old.is_empty(), new.is_empty()) {
        (true, _) => Change::Added,
        (_, true) => Change::Removed,
        _ => Change::Changed,
    };
    let before = was.and_then(Read::top_level_text);
    let after = now.and_then(Read::top_level_text);
    let item = Item::ScriptTopLevel {
        module: module.to_string(),
    };
    found.push(
        item,
        format!("top level of script {module}"),
        change,
        before,
        after,
    );
}
