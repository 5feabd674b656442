//! Problems of a scenario that are not unknown names (those are `ruleset::UnknownName`).

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use crate::ruleset::Ruleset;
use crate::source::{SourceFile, Span};

#[derive(Debug, Error, Diagnostic)]
pub enum ScenarioProblem {
    /// `ruleset = "legnd"` in rulesets/legend/scenarios/duel.toml.
    #[error("this scenario names the ruleset `{named}`, but lies in {dir} (`{actual}`)")]
    #[diagnostic(
        code(affray::scenario::wrong_ruleset),
        help(
            "write ruleset = \"{actual}\", or give a path to the ruleset directory, such as \"../../{named}\""
        )
    )]
    WrongRuleset {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("not the ruleset this file belongs to")]
        span: SourceSpan,
        named: String,
        actual: String,
        dir: String,
    },

    /// All combatants on one side: nobody to fight.
    #[error("every combatant is on the side `{side}`: a fight needs at least two sides")]
    #[diagnostic(
        code(affray::scenario::one_side),
        help("give the opponents another `side`")
    )]
    OneSide {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("the only side")]
        span: SourceSpan,
        side: String,
    },

    /// Two combatants with one name (after numbering a `count`).
    #[error("two combatants are called `{name}`")]
    #[diagnostic(
        code(affray::scenario::duplicate_combatant),
        help("names tell combatants apart in the log and in scripted choices: rename one")
    )]
    DuplicateCombatant {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("again here")]
        span: SourceSpan,
        #[label("first here")]
        first: SourceSpan,
        name: String,
    },

    /// `name = ""`, `name = "\u001b[31mRed"`, `side = "a\nb"`: what the log prints on
    /// every line must be printable.
    #[error("a combatant's {what} {shown}{reason}")]
    #[diagnostic(
        code(affray::scenario::unprintable),
        help(
            "names and sides are printed in every line of the log: write them with letters, digits, spaces and punctuation"
        )
    )]
    Unprintable {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{label}")]
        span: SourceSpan,
        label: &'static str,
        what: &'static str,
        /// The text as a message may show it (cut, escapes written out), quoted; empty
        /// for an empty one.
        shown: String,
        reason: &'static str,
    },

    /// `hit_points = { head = 0 }`: a location with no hit points left at the start.
    #[error("the hit points of `{location}` are {value}: a combatant starts with 1 or more")]
    #[diagnostic(
        code(affray::scenario::hit_points),
        help(
            "give every location 1 hit point or more; a location the combatant lacks is left out"
        )
    )]
    HitPoints {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{value} hit points")]
        span: SourceSpan,
        location: String,
        value: i64,
    },

    /// `initiative = "fast"`, `initiative = 2.5`, `initiative = 5000000`: a start
    /// initiative is a whole number the log can print.
    #[error("a start initiative of {shown}: it must be a whole number from -{max} to {max}")]
    #[diagnostic(
        code(affray::scenario::initiative),
        help(
            "`initiative = N` sets the combatant's initiative in the first round, instead of the one the rules roll: a whole number such as `initiative = 15`"
        )
    )]
    Initiative {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{label}")]
        span: SourceSpan,
        shown: String,
        label: &'static str,
        max: i64,
    },

    /// `engaged = ["Ann"]` in Ann's own entry.
    #[error("`{name}` is engaged with itself")]
    #[diagnostic(
        code(affray::scenario::engaged_with_itself),
        help("`engaged` names combatants of other sides this one starts in close combat with")
    )]
    EngagedWithItself {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("this combatant itself")]
        span: SourceSpan,
        name: String,
    },

    /// `round = 2` without `who`; `by` and `who` in one `[[choices]]` entry; `round = 0`.
    #[error("a scripted choice with {label}")]
    #[diagnostic(code(affray::scenario::choice_keys), help("{help}"))]
    ChoiceShape {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{label}")]
        span: SourceSpan,
        label: &'static str,
        help: &'static str,
    },

    /// `decision = "reaction"` with `choose = "trip"`: an option of another decision,
    /// which this one never offers.
    #[error("`{choose}` is not an option of the decision `{decision}`")]
    #[diagnostic(code(affray::scenario::wrong_option), help("{help}"))]
    WrongOption {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("`{decision}` never offers this")]
        span: SourceSpan,
        #[label("this decision")]
        decision_span: SourceSpan,
        choose: String,
        decision: String,
        help: String,
    },

    /// `strike_rank = "fast"` where the ruleset declares a number; `armour = { head = true }`.
    #[error("the {what} `{name}` has a value of the wrong kind")]
    #[diagnostic(code(affray::scenario::wrong_type), help("expected {expected}"))]
    WrongType {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("not what a {what} takes")]
        span: SourceSpan,
        name: String,
        what: &'static str,
        expected: String,
    },

    /// equipment.toml does not decode: the weapons a scenario names cannot be checked.
    #[error("the {names} of the scenarios were not checked: {files} did not load")]
    #[diagnostic(
        code(affray::scenario::not_checked),
        severity(Warning),
        help("fix the problems above and check again")
    )]
    NotChecked { names: String, files: String },
}

impl ScenarioProblem {
    pub(super) fn wrong_ruleset(
        file: &SourceFile,
        named: &toml::Spanned<String>,
        ruleset: &Ruleset,
    ) -> Self {
        let range = named.span();
        ScenarioProblem::WrongRuleset {
            src: file.named(),
            span: Span::new(range.start, range.end).into(),
            named: named.get_ref().clone(),
            actual: ruleset.settings.name.clone(),
            dir: ruleset.dir.clone(),
        }
    }
}

/// A `[[choices]]` entry the fight never used: its decision never came for its
/// combatant (in its round), or never offered its choice, or (without `who`) an entry
/// before it in the queue was never used either. An error when the fight is a test
/// (`--dice`), a warning otherwise (a seeded fight may go another way).
/// In `affray check`, where the scenario was fought with a few seeds, an entry none of
/// those fights used: a warning (a fight of another seed may go another way).
#[derive(Debug, Error)]
#[error("the scripted choice `{choose}` for {whose}`{decision}` was never used{fought}")]
pub struct UnusedChoice {
    pub src: NamedSource<Arc<str>>,
    pub span: Span,
    pub decision: String,
    pub choose: String,
    /// "Ann's " or "".
    pub whose: String,
    pub keyed: bool,
    pub severity: miette::Severity,
    /// Where `check` fought the scenario: the seeds (`1, 2 and 3`).
    pub seeds: Option<String>,
    /// " in the fights with seeds 1, 2 and 3" in `check`, else "".
    fought: String,
}

impl UnusedChoice {
    pub fn new(
        file: &SourceFile,
        choice: &super::ScriptedChoice,
        severity: miette::Severity,
    ) -> Self {
        let whose = choice.who.or(choice.by).map_or(String::new(), |who| {
            format!("{}'s ", crate::source::excerpt(&who))
        });
        UnusedChoice {
            src: file.named(),
            span: choice.span,
            decision: choice.decision.to_string(),
            choose: choice.choose.to_string(),
            whose,
            keyed: choice.who.is_some(),
            severity,
            seeds: None,
            fought: String::new(),
        }
    }

    /// The entry as `check` reports it: none of its fights, with `seeds`, used it.
    pub fn in_check(mut self, seeds: &str) -> Self {
        self.fought = format!(" in the fights with seeds {seeds}");
        self.seeds = Some(seeds.to_string());
        self.severity = miette::Severity::Warning;
        self
    }
}

impl Diagnostic for UnusedChoice {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(if self.seeds.is_some() {
            "affray::check::unused_choice"
        } else {
            "affray::fight::unused_choice"
        }))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        if let Some(seeds) = &self.seeds {
            let why = if self.keyed {
                "did this combatant's decision come (in this round) with this option offered"
            } else {
                "did this entry stand at the head of the queue when its decision came: entries without `who` are used in order; give it `who` (and `round`) to match it wherever it comes"
            };
            return Some(Box::new(format!(
                "check fights each scenario with seeds {seeds} (`affray fight` with one of them shows the log), and in none of them {why}. A fight of another seed may go another way: leave an entry meant for such a fight"
            )));
        }
        Some(Box::new(if self.keyed {
            "the decision never came for this combatant (in this round) with this option offered: look in the log for its `chooses` lines"
        } else {
            "entries without `who` are used in order, each waiting at the head of the queue until its decision comes: an entry that never comes blocks every later one; give it `who` (and `round`) to match it wherever it comes"
        }))
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_with_span(
                Some("never chosen".into()),
                SourceSpan::from(self.span),
            ),
        )))
    }
}
