//! Checking every name of a scenario against its ruleset.

use std::collections::HashMap;

use indexmap::IndexMap;
use toml::Spanned;

use super::file::{ChoiceEntry, CombatantEntry, ScenarioFile};
use super::{CombatantSpec, Scenario, ScenarioProblem, ScriptedChoice, Skill, Statistic};
use crate::engine::pipeline::SkillLabel;
use crate::names::{Name, NameMap};
use crate::parse::parse_dice;
use crate::ruleset::{Problems, Ruleset, RulesetProblem, StatisticKind, UnknownName};
use crate::source::{SourceFile, Span};

pub(super) fn decode(file: &SourceFile) -> Result<ScenarioFile, Problems> {
    toml::from_str::<ScenarioFile>(file.text()).map_err(|error| {
        vec![
            RulesetProblem::Toml {
                src: file.named(),
                span: error.span().map(|r| Span::from(r).into()),
                file: file.name().to_string(),
                label: crate::source::shorten(error.message().lines().next().unwrap_or_default()),
                message: crate::source::shorten(error.message().trim_end()),
                help: "a scenario is TOML; rulesets/README.md lists its keys".into(),
            }
            .into(),
        ]
    })
}

/// The span of a TOML string's content, inside its quotes.
fn inside(spanned: &Spanned<String>) -> Span {
    let range = spanned.span();
    Span::new(
        range.start + 1,
        range.end.saturating_sub(1).max(range.start + 1),
    )
}

/// The span of a TOML value, inside its quotes when it is a string.
fn inside_value(value: &Spanned<toml::Value>) -> Span {
    let range = value.span();
    match value.get_ref() {
        toml::Value::String(_) => Span::new(
            range.start + 1,
            range.end.saturating_sub(1).max(range.start + 1),
        ),
        _ => Span::new(range.start, range.end),
    }
}

/// The span of a TOML key (keys are written bare or quoted).
fn key_span(file: &SourceFile, key: &Spanned<String>) -> Span {
    let range = key.span();
    let raw = &file.text()[range.clone()];
    if raw.starts_with(['"', '\'']) {
        inside(key)
    } else {
        Span::new(range.start, range.end)
    }
}

/// How far from 0 a start initiative may be: far beyond any shipped rule's (the largest
/// is a surprise bonus of 1000), short of what the sums of a round could overflow.
const MAX_INITIATIVE: i64 = 100_000;

struct Known {
    weapons: Vec<String>,
    armour: Vec<String>,
    locations: Vec<String>,
    characteristics: Vec<String>,
    statistics: Vec<String>,
    modifiers: Vec<String>,
    fight_options: Vec<String>,
    combatant_options: Vec<String>,
    styles: Vec<String>,
}

pub(super) fn resolve(
    file: &SourceFile,
    decoded: ScenarioFile,
    ruleset: &Ruleset,
) -> Result<Scenario, Problems> {
    let settings = &ruleset.settings;
    let equipment = &ruleset.rules.equipment;
    let mut locations = ruleset.hit_location_names();
    if locations.is_empty() {
        locations.push("total".into());
    }
    let known = Known {
        weapons: equipment
            .weapons
            .keys()
            .chain(equipment.shields.keys())
            .map(|id| id.to_string())
            .collect(),
        armour: equipment.armour.keys().cloned().collect(),
        locations,
        characteristics: settings
            .characteristics
            .iter()
            .map(|c| c.get_ref().clone())
            .collect(),
        statistics: settings.statistics.keys().cloned().collect(),
        modifiers: ruleset.modifier_names(),
        fight_options: settings.fight_options.keys().cloned().collect(),
        combatant_options: settings.combatant_options.keys().cloned().collect(),
        styles: ruleset
            .rules
            .tactics
            .styles
            .keys()
            .map(|s| s.to_string())
            .collect(),
    };
    let mut check = Check {
        file,
        ruleset,
        known: &known,
        problems: Problems::new(),
    };
    let modifiers = check.names(
        &decoded.modifiers,
        &known.modifiers,
        "modifier",
        "affray::scenario::unknown_modifier",
        "of the ruleset's modifier lists",
    );
    let options = check.names(
        &decoded.options,
        &known.fight_options,
        "option",
        "affray::scenario::unknown_option",
        "declared as fight_options in ruleset.toml",
    );
    // Tactics styles by side: a combatant's own style comes first.
    let mut side_styles: HashMap<&str, String> = HashMap::new();
    for (side, style) in &decoded.tactics {
        let span = key_span(file, side);
        let side = side.get_ref();
        if !decoded.combatants.iter().any(|c| c.side.get_ref() == side) {
            check.problems.push(
                UnknownName::new(
                    "affray::scenario::unknown_side",
                    "side",
                    file,
                    side,
                    span,
                    "of this scenario's combatants",
                    decoded
                        .combatants
                        .iter()
                        .map(|c| c.side.get_ref().clone())
                        .collect(),
                )
                .into(),
            );
        }
        if let Some(style) = check.style(Some(style)) {
            side_styles.insert(side.as_str(), style.to_string());
        }
    }
    let mut combatants = Vec::new();
    let mut first_of: HashMap<String, Span> = HashMap::new();
    for entry in &decoded.combatants {
        check.printable(&entry.name, "name");
        check.printable(&entry.side, "side");
        for mut spec in check.combatant(entry) {
            if spec.tactics.is_none() {
                spec.tactics = side_styles.get(spec.side.as_str()).map(Name::from);
            }
            let span = key_span(file, &entry.name);
            match first_of.get(spec.name.as_str()) {
                Some(first) => check.problems.push(
                    ScenarioProblem::DuplicateCombatant {
                        src: file.named(),
                        span: span.into(),
                        first: (*first).into(),
                        name: spec.name.to_string(),
                    }
                    .into(),
                ),
                None => {
                    first_of.insert(spec.name.to_string(), span);
                }
            }
            combatants.push(std::sync::Arc::new(spec));
        }
    }
    let names: Vec<String> = combatants.iter().map(|c| c.name.to_string()).collect();
    for entry in &decoded.combatants {
        let own: Vec<String> = match &entry.count {
            None => vec![entry.name.get_ref().clone()],
            Some(count) => (1..=*count.get_ref())
                .map(|n| format!("{} {n}", entry.name.get_ref()))
                .collect(),
        };
        for engaged in &entry.engaged {
            if own.contains(engaged.get_ref()) {
                check.problems.push(
                    ScenarioProblem::EngagedWithItself {
                        src: file.named(),
                        span: inside(engaged).into(),
                        name: crate::source::excerpt(engaged.get_ref()),
                    }
                    .into(),
                );
            }
        }
        check.names(
            &entry.engaged,
            &names,
            "combatant",
            "affray::scenario::unknown_combatant",
            "of this scenario",
        );
    }
    let mut sides: Vec<&str> = decoded
        .combatants
        .iter()
        .map(|c| c.side.get_ref().as_str())
        .collect();
    sides.sort_unstable();
    sides.dedup();
    if let (Some(first), true) = (
        decoded.combatants.first(),
        sides.len() < 2 && !decoded.combatants.is_empty(),
    ) {
        check.problems.push(
            ScenarioProblem::OneSide {
                src: file.named(),
                span: key_span(file, &first.name).into(),
                side: first.side.get_ref().clone(),
            }
            .into(),
        );
    }
    let choices = check.choices(&decoded.choices, &names);
    if !check.problems.is_empty() {
        return Err(check.problems);
    }
    Ok(Scenario {
        title: decoded.title,
        description: decoded.description,
        source: decoded.source,
        distance: decoded.distance,
        modifiers,
        options,
        combatants,
        choices,
        file: Some(file.clone()),
    })
}

struct Check<'a> {
    file: &'a SourceFile,
    ruleset: &'a Ruleset,
    known: &'a Known,
    problems: Problems,
}

impl Check<'_> {
    /// The `[[choices]]`: who decides must be a combatant; a decision or an option
    /// the ruleset does not know is refused when it is a letter or two off one it knows
    /// (a misspelling), or always when the ruleset has no script (a script may ask a
    /// decision, or offer an option, by a name it works out).
    fn choices(&mut self, entries: &[ChoiceEntry], combatants: &[String]) -> Vec<ScriptedChoice> {
        let decisions = self.ruleset.known_decisions();
        let mut options = self.ruleset.known_option_names();
        options.extend(combatants.iter().cloned());
        let complete = self.ruleset.scripts.is_empty();
        let mut choices = Vec::new();
        for entry in entries {
            let mut fine = self.known_word(
                &entry.decision,
                &decisions,
                complete,
                "decision",
                "affray::scenario::unknown_decision",
                "asked by the engine, combat.toml, tactics.toml or the scripts",
            );
            fine &= self.known_word(
                &entry.choose,
                &options,
                complete,
                "option",
                "affray::scenario::unknown_choice",
                "offered by combat.toml, the tables, the equipment or the scripts",
            );
            if fine {
                fine &= self.offered_by(entry, combatants);
            }
            for who in entry.by.iter().chain(&entry.who) {
                fine &= self.known_name(
                    who,
                    inside(who),
                    combatants,
                    "combatant",
                    "affray::scenario::unknown_combatant",
                    "of this scenario",
                );
            }
            let shape = match (&entry.by, &entry.who, &entry.round) {
                (Some(by), Some(_), _) => Some((
                    inside(by),
                    "`by` beside `who`",
                    "write `who` alone: `by` waits at the head of the queue, `who` is matched wherever the decision comes",
                )),
                (_, None, Some(round)) => Some((
                    Span::from(round.span()),
                    "`round` without `who`",
                    "give the entry `who = \"NAME\"`: a round is matched only for a named combatant",
                )),
                (_, _, Some(round)) if *round.get_ref() == 0 => {
                    Some((Span::from(round.span()), "round 0", "rounds count from 1"))
                }
                _ => None,
            };
            if let Some((span, label, help)) = shape {
                self.problems.push(
                    ScenarioProblem::ChoiceShape {
                        src: self.file.named(),
                        span: span.into(),
                        label,
                        help,
                    }
                    .into(),
                );
                fine = false;
            }
            if !fine {
                continue;
            }
            choices.push(ScriptedChoice {
                decision: Name::new(entry.decision.get_ref()),
                by: entry.by.as_ref().map(|by| Name::new(by.get_ref())),
                who: entry.who.as_ref().map(|who| Name::new(who.get_ref())),
                round: entry.round.as_ref().map(|r| *r.get_ref()),
                choose: Name::new(entry.choose.get_ref()),
                span: inside(&entry.choose),
            });
        }
        choices
    }

    /// An entry's option among those its decision may offer, where the ruleset knows
    /// them all before a fight (`Ruleset::decision_options`): `trip` is an option of
    /// `manoeuvre`, never of `reaction`.
    fn offered_by(&mut self, entry: &ChoiceEntry, combatants: &[String]) -> bool {
        let decision = entry.decision.get_ref();
        let Some(options) = self.ruleset.decision_options(decision, combatants) else {
            return true;
        };
        let choose = entry.choose.get_ref();
        if options.iter().any(|option| option == choose) {
            return true;
        }
        let shown: Vec<String> = options.iter().map(|o| crate::source::excerpt(o)).collect();
        let list = if shown.is_empty() {
            "none".to_string()
        } else {
            shown.join(", ")
        };
        let close = crate::names::suggest(choose, &options).map_or(String::new(), |close| {
            format!("did you mean `{}`? ", crate::source::excerpt(close))
        });
        self.problems.push(
            ScenarioProblem::WrongOption {
                src: self.file.named(),
                span: inside(&entry.choose).into(),
                decision_span: inside(&entry.decision).into(),
                choose: crate::source::excerpt(choose),
                decision: crate::source::excerpt(decision),
                help: format!(
                    "{close}the options `{}` may offer: {list}",
                    crate::source::excerpt(decision)
                ),
            }
            .into(),
        );
        false
    }

    /// A name of a decision or an option: see `choices`.
    fn known_word(
        &mut self,
        name: &Spanned<String>,
        known: &[String],
        complete: bool,
        kind: &'static str,
        code: &'static str,
        from: &str,
    ) -> bool {
        let value = name.get_ref();
        if known.contains(value) || !(complete || crate::names::suggest(value, known).is_some()) {
            return true;
        }
        self.known_name(name, inside(name), known, kind, code, from)
    }

    /// Names that must be among `known`; the known ones, in order.
    fn names(
        &mut self,
        names: &[Spanned<String>],
        known: &[String],
        kind: &'static str,
        code: &'static str,
        from: &str,
    ) -> Vec<String> {
        names
            .iter()
            .filter(|name| self.known_name(name, inside(name), known, kind, code, from))
            .map(|name| name.get_ref().clone())
            .collect()
    }

    /// Whether `name` is a location of the ruleset's hit location table; a problem if not.
    fn known_location(&mut self, name: &Spanned<String>, span: Span) -> bool {
        let known = self.known;
        self.known_name(
            name,
            span,
            &known.locations,
            "hit location",
            "affray::scenario::unknown_location",
            "of the ruleset's hit location table",
        )
    }

    fn known_name(
        &mut self,
        name: &Spanned<String>,
        span: Span,
        known: &[String],
        kind: &'static str,
        code: &'static str,
        from: &str,
    ) -> bool {
        if known.contains(name.get_ref()) {
            return true;
        }
        self.problems.push(
            UnknownName::new(
                code,
                kind,
                self.file,
                name.get_ref(),
                span,
                from,
                known.to_vec(),
            )
            .into(),
        );
        false
    }

    /// A text statistic that a test of combat.toml reads a skill by (`skill_of =
    /// "combat_style"`) must name one of the combatant's skills: else the test fails in
    /// the middle of a fight.
    fn skills_named(&mut self, entry: &CombatantEntry, skills: &IndexMap<String, Skill>) {
        let Some(combat) = &self.ruleset.rules.combat else {
            return;
        };
        for (name, value) in &entry.statistics {
            let names_a_skill = combat
                .tests
                .iter()
                .any(|test| {
                    matches!(test.skill_of, Some(SkillLabel::Statistic(s)) if s.as_str() == name.get_ref())
                });
            let toml::Value::String(text) = value.get_ref() else {
                continue;
            };
            if !names_a_skill || skills.contains_key(text) {
                continue;
            }
            let from = format!(
                "of this combatant (`{}` names the one a test of combat.toml reads)",
                name.get_ref()
            );
            self.problems.push(
                UnknownName::new(
                    "affray::scenario::unknown_skill",
                    "skill",
                    self.file,
                    text,
                    inside_value(value),
                    from,
                    skills.keys().cloned().collect(),
                )
                .into(),
            );
        }
    }

    /// A combatant's name or side, which every line of the log prints: refused when empty
    /// or holding a control character (an escape would drive the terminal, a line end
    /// would forge a line of the log).
    fn printable(&mut self, text: &Spanned<String>, what: &'static str) {
        let value = text.get_ref();
        let (reason, label) = if value.trim().is_empty() {
            ("is empty", "empty")
        } else if value.chars().any(char::is_control) {
            (
                "holds a control character (an escape, a line end, a tab)",
                "a control character in it",
            )
        } else {
            return;
        };
        let range = text.span();
        self.problems.push(
            ScenarioProblem::Unprintable {
                src: self.file.named(),
                span: Span::new(range.start, range.end).into(),
                label,
                what,
                shown: if value.is_empty() {
                    String::new()
                } else {
                    format!("`{}` ", crate::source::excerpt(value))
                },
                reason,
            }
            .into(),
        );
    }

    /// A tactics style the ruleset has, or `None` (reported) for an unknown one.
    fn style(&mut self, style: Option<&Spanned<String>>) -> Option<Name> {
        let style = style?;
        let span = Span::from(style.span());
        let known = &self.known.styles;
        self.known_name(
            style,
            span,
            known,
            "tactics style",
            "affray::scenario::unknown_tactics",
            "of the ruleset's tactics/ folder",
        )
        .then(|| Name::new(style.get_ref()))
    }

    /// One entry, expanded to `count` combatants.
    fn combatant(&mut self, entry: &CombatantEntry) -> Vec<CombatantSpec> {
        let known = self.known;
        let mut characteristics = IndexMap::new();
        for (name, value) in &entry.characteristics {
            let span = key_span(self.file, name);
            if known.characteristics.is_empty()
                || self.known_name(
                    name,
                    span,
                    &known.characteristics,
                    "characteristic",
                    "affray::scenario::unknown_characteristic",
                    "declared in ruleset.toml",
                )
            {
                characteristics.insert(name.get_ref().clone(), *value);
            }
        }
        let mut skills = IndexMap::new();
        for (name, value) in &entry.skills {
            let skill = match value.get_ref() {
                toml::Value::Integer(n) => Some(Skill::Number(*n)),
                toml::Value::String(text) => parse_dice(self.file, text, inside_value(value).start)
                    .map(|dice| Skill::Dice(dice.value))
                    .map_err(|e| self.problems.push(e.into()))
                    .ok(),
                _ => {
                    self.wrong_type(
                        value,
                        name,
                        "skill",
                        "a number such as 65, or a dice code such as \"4D+2\"",
                    );
                    None
                }
            };
            if let Some(skill) = skill {
                skills.insert(name.clone(), skill);
            }
        }
        let mut statistics = IndexMap::new();
        for (name, value) in &entry.statistics {
            let span = key_span(self.file, name);
            if !self.known_name(
                name,
                span,
                &known.statistics,
                "statistic",
                "affray::scenario::unknown_statistic",
                "declared in ruleset.toml",
            ) {
                continue;
            }
            let kind = self.ruleset.settings.statistics[name.get_ref()];
            if let Some(statistic) = self.statistic(name.get_ref(), kind, value) {
                statistics.insert(name.get_ref().clone(), statistic);
            }
        }
        self.skills_named(entry, &skills);
        let weapons = self.names(
            &entry.weapons,
            &known.weapons,
            "weapon",
            "affray::scenario::unknown_weapon",
            "in equipment.toml (weapons and shields)",
        );
        let mut armour = IndexMap::new();
        let mut armour_items = IndexMap::new();
        let mut everywhere = None;
        let mut everywhere_item = None;
        for (location, value) in &entry.armour {
            let span = key_span(self.file, location);
            let is_all = location.get_ref() == "all";
            if !is_all && !self.known_location(location, span) {
                continue;
            }
            let points = match value.get_ref() {
                toml::Value::Integer(points) if *points >= 0 => Some(*points as u32),
                toml::Value::String(item) => {
                    let item = Spanned::new(value.span(), item.clone());
                    self.known_name(
                        &item,
                        inside(&item),
                        &known.armour,
                        "armour",
                        "affray::scenario::unknown_armour",
                        "in equipment.toml",
                    )
                    .then(|| {
                        if is_all {
                            everywhere_item = Some(item.get_ref().clone());
                        } else {
                            armour_items.insert(location.get_ref().clone(), item.get_ref().clone());
                        }
                        self.ruleset.rules.equipment.armour[item.get_ref()].ap
                    })
                }
                _ => {
                    self.wrong_type(value, location.get_ref(), "armour", "Armour Points such as 2, or an armour of equipment.toml such as \"soft_leather\"");
                    None
                }
            };
            match (points, is_all) {
                (Some(points), true) => everywhere = Some(points),
                (Some(points), false) => {
                    armour.insert(location.get_ref().clone(), points);
                }
                (None, _) => {}
            }
        }
        if let Some(points) = everywhere {
            for location in &known.locations {
                if !armour.contains_key(location) {
                    armour.insert(location.clone(), points);
                    if let Some(item) = &everywhere_item {
                        armour_items.insert(location.clone(), item.clone());
                    }
                }
            }
        }
        let mut hit_points = IndexMap::new();
        let mut everywhere = None;
        for (location, value) in &entry.hit_points {
            let span = key_span(self.file, location);
            // A location with none left is out of the fight before it starts.
            if *value <= 0 {
                self.problems.push(
                    ScenarioProblem::HitPoints {
                        src: self.file.named(),
                        span: span.into(),
                        location: crate::source::excerpt(location.get_ref()),
                        value: *value,
                    }
                    .into(),
                );
                continue;
            }
            // `all`: every location not named (the pool, for a ruleset without locations).
            if location.get_ref() == "all" {
                everywhere = Some(*value);
                continue;
            }
            // `total`: one pool of hit points beside the hit locations (systems whose
            // locations only decide armour and effects).
            if location.get_ref() == "total" || self.known_location(location, span) {
                hit_points.insert(location.get_ref().clone(), *value);
            }
        }
        // In the table's order, as if every location were written out; `total` after.
        if let Some(value) = everywhere {
            let mut ordered: IndexMap<String, i64> = known
                .locations
                .iter()
                .map(|location| {
                    (
                        location.clone(),
                        *hit_points.get(location).unwrap_or(&value),
                    )
                })
                .collect();
            for (location, value) in hit_points {
                ordered.entry(location).or_insert(value);
            }
            hit_points = ordered;
        }
        let options = self.names(
            &entry.options,
            &known.combatant_options,
            "combatant option",
            "affray::scenario::unknown_option",
            "declared as combatant_options in ruleset.toml",
        );
        let modifiers = self.names(
            &entry.modifiers,
            &known.modifiers,
            "modifier",
            "affray::scenario::unknown_modifier",
            "of the ruleset's modifier lists",
        );
        let conditions = self.names(
            &entry.conditions,
            &self
                .ruleset
                .settings
                .conditions
                .keys()
                .cloned()
                .collect::<Vec<_>>(),
            "condition",
            "affray::scenario::unknown_condition",
            "declared in ruleset.toml ([conditions])",
        );
        let mut damage_taken = IndexMap::new();
        for (location, amount) in &entry.damage_taken {
            let span = key_span(self.file, location);
            if location.get_ref() == "total" || self.known_location(location, span) {
                damage_taken.insert(location.get_ref().clone(), *amount);
            }
        }
        let own_weapons: Vec<String> = entry.weapons.iter().map(|w| w.get_ref().clone()).collect();
        let dropped = self.names(
            &entry.dropped,
            &own_weapons,
            "weapon",
            "affray::scenario::unknown_weapon",
            "of this combatant's `weapons`",
        );
        let initiative = entry
            .initiative
            .as_ref()
            .and_then(|value| self.initiative(value));
        let count = entry.count.as_ref().map_or(1, |c| *c.get_ref());
        let base = CombatantSpec {
            name: Name::new(entry.name.get_ref()),
            side: Name::new(entry.side.get_ref()),
            characteristics: named(characteristics),
            skills: named(skills),
            statistics: named(statistics),
            weapons: weapons.iter().map(Name::from).collect(),
            armour,
            armour_items,
            hit_points,
            options: options.iter().map(Name::from).collect(),
            modifiers: modifiers.iter().map(Name::from).collect(),
            engaged: entry.engaged.iter().map(|e| e.get_ref().clone()).collect(),
            tactics: self.style(entry.tactics.as_ref()),
            conditions: conditions.iter().map(Name::from).collect(),
            actions_spent: entry.actions_spent.unwrap_or(0),
            initiative,
            damage_taken,
            dropped: dropped.iter().map(Name::from).collect(),
        };
        if entry.count.is_none() {
            return vec![base];
        }
        (1..=count)
            .map(|n| CombatantSpec {
                name: Name::new(&format!("{} {n}", base.name)),
                ..base.clone()
            })
            .collect()
    }

    /// A start initiative: a whole number within [`MAX_INITIATIVE`] either way.
    fn initiative(&mut self, value: &Spanned<toml::Value>) -> Option<i64> {
        let label = match value.get_ref() {
            toml::Value::Integer(n) if n.unsigned_abs() <= MAX_INITIATIVE.unsigned_abs() => {
                return Some(*n);
            }
            toml::Value::Integer(_) => "too far from 0",
            _ => "not a whole number",
        };
        let range = value.span();
        self.problems.push(
            ScenarioProblem::Initiative {
                src: self.file.named(),
                span: Span::new(range.start, range.end).into(),
                shown: crate::source::excerpt(&self.file.text()[range]),
                label,
                max: MAX_INITIATIVE,
            }
            .into(),
        );
        None
    }

    fn statistic(
        &mut self,
        name: &str,
        kind: StatisticKind,
        value: &Spanned<toml::Value>,
    ) -> Option<Statistic> {
        match (kind, value.get_ref()) {
            (StatisticKind::Number, toml::Value::Integer(n)) => Some(Statistic::Number(*n)),
            // A constant as dice holds no more than a written one may (it was cut to 32
            // bits: 5000000000 became 705032704).
            (StatisticKind::Dice, toml::Value::Integer(n))
                if n.unsigned_abs() <= u64::from(crate::dice::Limits::MAX_CONSTANT) =>
            {
                Some(Statistic::Dice(crate::dice::DiceExpr::constant(*n)))
            }
            (StatisticKind::Dice, toml::Value::Integer(_)) => {
                self.wrong_type(
                    value,
                    name,
                    "statistic",
                    &format!(
                        "dice, or a whole number from -{0} to {0}",
                        crate::dice::Limits::MAX_CONSTANT
                    ),
                );
                None
            }
            (StatisticKind::Dice, toml::Value::String(text)) => {
                // A damage bonus is printed "+1D2": the plus sign is the book's, not the dice's.
                let spelled = text.trim_start_matches('+');
                let skipped = text.len() - spelled.len();
                parse_dice(self.file, spelled, inside_value(value).start + skipped)
                    .map(|dice| Statistic::Dice(dice.value))
                    .map_err(|e| self.problems.push(e.into()))
                    .ok()
            }
            (StatisticKind::Text, toml::Value::String(text)) => {
                Some(Statistic::Text(Name::new(text)))
            }
            (StatisticKind::Text, toml::Value::Integer(n)) => {
                Some(Statistic::Text(Name::new(&n.to_string())))
            }
            (StatisticKind::Number, _) => {
                self.wrong_type(
                    value,
                    name,
                    "statistic",
                    &format!("a whole number: write {name} = 15, without quotes"),
                );
                None
            }
            (StatisticKind::Dice, _) => {
                self.wrong_type(
                    value,
                    name,
                    "statistic",
                    &format!("dice: write {name} = \"+1D4\""),
                );
                None
            }
            (StatisticKind::Text, _) => {
                self.wrong_type(
                    value,
                    name,
                    "statistic",
                    &format!("a text: write {name} = \"...\""),
                );
                None
            }
        }
    }

    fn wrong_type(
        &mut self,
        value: &Spanned<toml::Value>,
        name: &str,
        what: &'static str,
        expected: &str,
    ) {
        let range = value.span();
        self.problems.push(
            ScenarioProblem::WrongType {
                src: self.file.named(),
                span: Span::new(range.start, range.end).into(),
                name: name.to_string(),
                what,
                expected: expected.to_string(),
            }
            .into(),
        );
    }
}

/// A map keyed by texts as one keyed by names, in the same order.
fn named<V>(map: IndexMap<String, V>) -> NameMap<V> {
    map.into_iter().map(|(k, v)| (Name::new(&k), v)).collect()
}
