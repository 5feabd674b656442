//! `tactics.toml` (everyone's lists) and `tactics/<style>.toml` (lists a scenario may
//! give a side or a combatant): the default chooser's priority lists, decoded and
//! compiled. Both have the same form:
//!
//! ```toml
//! [[target]]                       # the decision, as the ruleset asks it
//! lowest = "other.hit_points"      # the offered target with the fewest hit points left
//!
//! [[action]]
//! choose = "stand_up"              # taken whenever offered
//! [[action]]
//! choose = "aim"
//! if = "self.value.aim == 0 and self.engaged == 0"
//! [[action]]
//! script = true                    # the tactics script decides from here, where `if`
//! if = "offered.ranged_attack"     # holds (read once, no option considered)
//! ```

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned as TomlSpanned;

use super::Problems;
use super::problem::RulesetProblem;
use crate::engine::reads::{Considers, FightScope, Place, Vocabulary};
use crate::engine::tactics::{Pick, PriorityList, Rule, WrittenRule};
use crate::expr::{compile_bool, compile_number};
use crate::names::{Name, NameMap};
use crate::source::{SourceFile, Span};

/// One entry of a list as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RuleEntry {
    choose: Option<TomlSpanned<String>>,
    highest: Option<TomlSpanned<String>>,
    lowest: Option<TomlSpanned<String>>,
    first: Option<TomlSpanned<String>>,
    /// `script = true`: leave the decision to the tactics script where `if` holds.
    script: Option<TomlSpanned<bool>>,
    #[serde(rename = "if")]
    guard: Option<TomlSpanned<String>>,
}

pub(super) type TacticsFile = IndexMap<String, Vec<TomlSpanned<RuleEntry>>>;

/// The content of a TOML string, without its quotes.
fn content(spanned: &TomlSpanned<String>) -> Span {
    let range = spanned.span();
    Span::new(
        range.start + 1,
        range.end.saturating_sub(1).max(range.start + 1),
    )
}

/// Compile every list of one file; every problem of every rule is reported.
pub(super) fn compile_lists(
    decoded: &TacticsFile,
    vocabulary: &Vocabulary,
    file: &SourceFile,
    problems: &mut Problems,
) -> NameMap<PriorityList> {
    let mut lists = NameMap::default();
    for (decision, entries) in decoded {
        let mut scope = FightScope::new(
            vocabulary,
            Place::Decision,
            format!("the tactics for `{decision}`"),
        );
        let mut rules = Vec::new();
        let mut written = Vec::new();
        for entry in entries {
            let rule = entry.get_ref();
            let text =
                |value: &Option<TomlSpanned<String>>| value.as_ref().map(|v| v.get_ref().clone());
            written.push(WrittenRule {
                choose: text(&rule.choose),
                first: text(&rule.first),
                highest: text(&rule.highest),
                lowest: text(&rule.lowest),
                script: rule.script.as_ref().map(|v| *v.get_ref()),
                guard: text(&rule.guard),
            });
            let picks = [&rule.choose, &rule.highest, &rule.lowest, &rule.first]
                .into_iter()
                .flatten()
                .count()
                + usize::from(rule.script.as_ref().is_some_and(|s| *s.get_ref()));
            if picks != 1 {
                let range = entry.span();
                problems.push(
                    RulesetProblem::TacticsRule {
                        src: file.named(),
                        span: Span::new(range.start, range.end).into(),
                        decision: decision.clone(),
                        found: picks,
                    }
                    .into(),
                );
                continue;
            }
            let mut compiled = true;
            let mut number = |text: &TomlSpanned<String>, scope: &mut FightScope<'_>| {
                compile_number(file, text.get_ref(), content(text).start, scope)
                    .map_err(|found| {
                        compiled = false;
                        problems.extend(found.into_iter().map(Into::into));
                    })
                    .ok()
            };
            let pick = match (&rule.choose, &rule.highest, &rule.lowest, &rule.first) {
                // `script = true`, the one pick left.
                (None, None, None, None) => Some(Pick::Script),
                (Some(option), ..) => Some(Pick::Option(Name::new(option.get_ref()))),
                (_, Some(score), ..) => number(score, &mut scope).map(Pick::Highest),
                (_, _, Some(score), _) => number(score, &mut scope).map(Pick::Lowest),
                (.., Some(condition)) => compile_bool(
                    file,
                    condition.get_ref(),
                    content(condition).start,
                    &mut scope,
                )
                .map_err(|found| problems.extend(found.into_iter().map(Into::into)))
                .ok()
                .map(Pick::First),
            };
            let guard = rule.guard.as_ref().and_then(|text| {
                compile_bool(file, text.get_ref(), content(text).start, &mut scope)
                    .map_err(|found| problems.extend(found.into_iter().map(Into::into)))
                    .ok()
            });
            if let Some(pick) = pick
                && (rule.guard.is_none() || guard.is_some())
            {
                rules.push(Rule { pick, guard });
            }
        }
        lists.insert(
            Name::new(decision),
            PriorityList {
                considers: Considers::of(&scope.reads, &rules),
                reads: scope.reads,
                rules,
                written,
            },
        );
    }
    lists
}
