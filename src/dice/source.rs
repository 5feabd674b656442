//! The one source of every random number in a run.
//!
//! Seeded runs draw from PCG-64 (`rand_pcg`), whose output stream is fixed by its
//! specification, and turn its 64-bit words into die faces with our own unbiased
//! reduction below, so that no change of a dependency's sampling code can change a seeded
//! fight. The golden vectors in the tests pin both.

use std::collections::VecDeque;

use std::sync::Arc;

use miette::NamedSource;
use rand::Rng;
use rand_pcg::Pcg64;

/// The PCG-64 stream (increment) affray always uses; the seed picks the state.
const STREAM: u128 = 0xa02b_dbf7_bb3c_0a7a_c28f_a16a_64ab_f96d;
/// Mixed into the seed so that small seeds do not start from small states.
const STATE_MIX: u128 = 0xcafe_f00d_d15e_a5e5_0123_4567_89ab_cdef;

/// A die value given in advance (from a book, or typed at the table), with where it was
/// written so that an impossible value can be pointed at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenDie {
    pub value: u32,
    pub origin: String,
    /// What the file says the die is for (`attack 39`), checked against the purpose of
    /// the roll it feeds.
    pub label: Option<DieLabel>,
}

/// The purpose a dice file gives a value, and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DieLabel {
    pub word: String,
    pub src: NamedSource<Arc<str>>,
    pub span: crate::source::Span,
}

impl DieLabel {
    /// Whether a roll for `purpose` is one this label names: the label's words (split at
    /// anything but letters and digits, `hit_location` is "hit location") stand together,
    /// in order, among the purpose's words, whatever their case. `attack` fits "attack with
    /// Broadsword for Aldric"; `location` and `hit_location` fit "humanoid hit location for
    /// Bryn"; `damage` fits both "damage for Bryn" and "1D4 damage modifier for Bryn".
    pub fn fits(&self, purpose: &str) -> bool {
        let label = words(&self.word);
        let purpose = words(purpose);
        !label.is_empty()
            && purpose
                .windows(label.len())
                .any(|run| run == label.as_slice())
    }
}

/// The words of a text, lower case: runs of letters and digits.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A dice file's value labelled for another roll than the one it feeds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("{origin}: the value {value} is labelled `{label}`, but the roll it feeds is {purpose}")]
#[diagnostic(
    code(affray::dice::wrong_purpose),
    help(
        "the dice file is out of step with the rolls: a roll was added or left out before this one (run with --emit-dice to see the rolls in order), or the label names another roll"
    )
)]
pub struct WrongPurpose {
    #[source_code]
    pub src: NamedSource<Arc<str>>,
    #[label("labelled `{label}`; the roll is {purpose}")]
    pub span: miette::SourceSpan,
    pub value: u32,
    pub label: String,
    pub purpose: String,
    pub origin: String,
}

/// Where dice come from when they come from outside the program: a person at the table
/// typing what they rolled, or a record being replayed. The source still counts every
/// die, so it stays the one source of every die of a run.
pub trait AskDie: Send {
    /// One die of `sides` faces (1 to `sides`) for `purpose`; `of` says which of the dice
    /// rolled together it is, so that a person typing in a 2D6 knows which one is asked.
    fn die(&mut self, sides: u32, purpose: &str, of: DieOf) -> Result<u32, RollError>;
}

/// Which die of a group rolled together: the second die of a 2D6 is die 2 of 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DieOf {
    pub index: u32,
    pub count: u32,
}

impl DieOf {
    /// A die rolled alone.
    pub const ALONE: DieOf = DieOf { index: 1, count: 1 };
}

enum Kind {
    Seeded(Pcg64),
    /// Given values in order; then seeded dice, if a seed is given, else none.
    Given(VecDeque<GivenDie>, Option<Pcg64>),
    Asked(Box<dyn AskDie>),
    /// Planned values first (a branch of an enumeration), then seeded ones; with no
    /// seed (a walk of whole fights), the first die past the plan is not rolled but
    /// kept as wanted, and the roll stops.
    Planned {
        planned: Vec<u32>,
        then: Option<Pcg64>,
        wanted: Option<RolledDie>,
    },
}

/// One die as it was rolled, for whoever needs the sequence afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RolledDie {
    pub sides: u32,
    pub value: u32,
    pub purpose: String,
    /// Empty for a die whose faces are equally likely. For an outcome of unequal chances
    /// drawn in an enumeration ([`DiceSource::branch`]): each outcome's weight, `sides`
    /// of them, and `value` is the place of the one drawn.
    pub weights: Vec<u64>,
}

impl std::fmt::Debug for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Kind::Seeded(rng) => f.debug_tuple("Seeded").field(rng).finish(),
            Kind::Given(values, _) => f.debug_tuple("Given").field(values).finish(),
            Kind::Asked(_) => f.write_str("Asked"),
            Kind::Planned { planned, .. } => f.debug_tuple("Planned").field(planned).finish(),
        }
    }
}

/// Seeded and portable, replaying given values in order, or asking outside.
#[derive(Debug)]
pub struct DiceSource {
    kind: Kind,
    rolls: u64,
    /// Every die rolled, when asked for with [`DiceSource::traced`].
    trace: Option<Vec<RolledDie>>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum RollError {
    #[error("the given dice ran out at roll {roll}: {purpose} needs a 1D{sides}")]
    #[diagnostic(
        code(affray::dice::given_ran_out),
        help("add more values to the dice file, or run with --seed to roll the rest")
    )]
    RanOut {
        roll: u64,
        sides: u32,
        purpose: String,
    },
    #[error("{origin}: {value} cannot be rolled on a 1D{sides} ({purpose})")]
    #[diagnostic(
        code(affray::dice::impossible_value),
        help(
            "a 1D{sides} shows 1 to {sides}; check that the dice file follows the order of the rolls"
        )
    )]
    Impossible {
        value: u32,
        sides: u32,
        purpose: String,
        origin: String,
    },
    /// A labelled value of a dice file fed a roll of another purpose.
    #[error(transparent)]
    #[diagnostic(transparent)]
    WrongPurpose(Box<WrongPurpose>),
    /// The die was not rolled because the run was stopped from outside (a person quit,
    /// or a replayed record no longer matches the fight).
    #[error("no value for the 1D{sides} ({purpose}): {reason}")]
    #[diagnostic(code(affray::dice::stopped))]
    Stopped {
        sides: u32,
        purpose: String,
        reason: String,
    },
}

impl DiceSource {
    pub fn seeded(seed: u64) -> Self {
        DiceSource {
            kind: Kind::Seeded(pcg(seed)),
            rolls: 0,
            trace: None,
        }
    }

    pub fn given(values: impl IntoIterator<Item = GivenDie>) -> Self {
        DiceSource {
            kind: Kind::Given(values.into_iter().collect(), None),
            rolls: 0,
            trace: None,
        }
    }

    /// The given values first, then dice seeded with `seed` once they run out: those the
    /// seed rolls at the same rolls (a die is drawn and set aside for each given value).
    pub fn given_then_seeded(values: impl IntoIterator<Item = GivenDie>, seed: u64) -> Self {
        DiceSource {
            kind: Kind::Given(values.into_iter().collect(), Some(pcg(seed))),
            rolls: 0,
            trace: None,
        }
    }

    /// The `planned` values first, in order, then dice seeded with `seed`: one branch of
    /// an enumeration of every die's faces. A planned value that does not fit its die is
    /// refused like a given one.
    ///
    /// Such a source [`merges`](DiceSource::merges): dice rolled together of which only
    /// the total is read are drawn as one outcome among their totals
    /// ([`DiceSource::branch`]), so that an enumeration walks 16 totals of 3D6, not 216
    /// faces.
    pub fn planned(planned: Vec<u32>, seed: u64) -> Self {
        DiceSource {
            kind: Kind::Planned {
                planned,
                then: Some(pcg(seed)),
                wanted: None,
            },
            rolls: 0,
            trace: None,
        }
    }

    /// The `planned` values, in order, and nothing past them: the first die the plan
    /// does not cover stops the roll ([`RollError::Stopped`]) and is kept as
    /// [`DiceSource::wanted`] (its faces, or its outcomes' weights), so that a walk
    /// knows which draw comes next. It merges outcomes as [`DiceSource::planned`] does.
    pub fn walked(planned: Vec<u32>) -> Self {
        DiceSource {
            kind: Kind::Planned {
                planned,
                then: None,
                wanted: None,
            },
            rolls: 0,
            trace: None,
        }
    }

    /// The die past the plan of a [`DiceSource::walked`] source, once one was wanted:
    /// `value` is 0.
    pub fn wanted(&self) -> Option<&RolledDie> {
        match &self.kind {
            Kind::Planned { wanted, .. } => wanted.as_ref(),
            _ => None,
        }
    }

    /// Dice from outside: each die is asked of `asker` (see [`AskDie`]).
    pub fn asked(asker: Box<dyn AskDie>) -> Self {
        DiceSource {
            kind: Kind::Asked(asker),
            rolls: 0,
            trace: None,
        }
    }

    /// The same source, keeping every die it rolls (see [`DiceSource::trace`]).
    pub fn traced(mut self) -> Self {
        self.trace = Some(Vec::new());
        self
    }

    /// Every die rolled so far, if the source is traced.
    pub fn trace(&self) -> &[RolledDie] {
        self.trace.as_deref().unwrap_or_default()
    }

    /// How many dice this source has rolled.
    pub fn rolls(&self) -> u64 {
        self.rolls
    }

    /// Whether the purpose of a die is read: by given or asked dice (to say which die is
    /// wanted), by a trace; a seeded die reads none.
    pub fn reads_purposes(&self) -> bool {
        !matches!(self.kind, Kind::Seeded(_)) || self.trace.is_some()
    }

    /// Whether outcomes that the rules cannot tell apart are drawn as one
    /// ([`DiceSource::branch`]): only in an enumeration, never in a fight, whose dice
    /// are drawn die by die as they always were.
    pub fn merges(&self) -> bool {
        matches!(self.kind, Kind::Planned { .. })
    }

    /// One of several outcomes of unequal chances, the `i`-th with the chance
    /// `weights[i]` / their sum: the place of the one drawn, the first 1. Only a source
    /// that [`merges`](DiceSource::merges) is asked this; a planned value is the place,
    /// and past the plan the seed draws by the weights.
    pub fn branch(&mut self, weights: &[u64], purpose: &str) -> Result<u32, RollError> {
        self.rolls += 1;
        let count = weights.len() as u32;
        let value = match &mut self.kind {
            Kind::Planned {
                planned,
                then,
                wanted,
            } => match planned.get(self.rolls as usize - 1) {
                None => match then {
                    Some(then) => weighted(then, weights),
                    None => return Err(past_the_plan(wanted, count, weights, purpose)),
                },
                Some(&value) if (1..=count).contains(&value) => value,
                Some(&value) => {
                    return Err(RollError::Impossible {
                        value,
                        sides: count,
                        purpose: purpose.to_string(),
                        origin: format!("planned die {}", self.rolls),
                    });
                }
            },
            // No other source merges outcomes, so none is asked this.
            Kind::Seeded(_) | Kind::Given(..) | Kind::Asked(_) => {
                return Err(RollError::Stopped {
                    sides: count,
                    purpose: purpose.to_string(),
                    reason: "outcomes of unequal chances are drawn only in an enumeration".into(),
                });
            }
        };
        if let Some(trace) = &mut self.trace {
            trace.push(RolledDie {
                sides: count,
                value,
                purpose: purpose.to_string(),
                weights: weights.to_vec(),
            });
        }
        Ok(value)
    }

    /// One die of `sides` faces, showing 1 to `sides`.
    pub fn roll_die(&mut self, sides: u32, purpose: &str) -> Result<u32, RollError> {
        self.roll_die_of(sides, purpose, DieOf::ALONE)
    }

    /// One die of a group rolled together (see [`DieOf`]).
    pub fn roll_die_of(&mut self, sides: u32, purpose: &str, of: DieOf) -> Result<u32, RollError> {
        let value = self.next_face(sides, purpose, of)?;
        if let Some(trace) = &mut self.trace {
            trace.push(RolledDie {
                sides,
                value,
                purpose: purpose.to_string(),
                weights: Vec::new(),
            });
        }
        Ok(value)
    }

    fn next_face(&mut self, sides: u32, purpose: &str, of: DieOf) -> Result<u32, RollError> {
        self.rolls += 1;
        match &mut self.kind {
            Kind::Seeded(rng) => Ok(uniform(rng, sides)),
            Kind::Planned {
                planned,
                then,
                wanted,
            } => match planned.get(self.rolls as usize - 1) {
                None => match then {
                    Some(then) => Ok(uniform(then, sides)),
                    None => Err(past_the_plan(wanted, sides, &[], purpose)),
                },
                Some(&value) if (1..=sides).contains(&value) => Ok(value),
                Some(&value) => Err(RollError::Impossible {
                    value,
                    sides,
                    purpose: purpose.to_string(),
                    origin: format!("planned die {}", self.rolls),
                }),
            },
            Kind::Given(values, then) => {
                let Some(given) = values.pop_front() else {
                    return match then {
                        Some(rng) => Ok(uniform(rng, sides)),
                        None => Err(RollError::RanOut {
                            roll: self.rolls,
                            sides,
                            purpose: purpose.to_string(),
                        }),
                    };
                };
                // The seeded dice keep step with the given ones: the die the seed rolls
                // here is set aside, so that a file cut from a seeded fight's dice goes on
                // with the dice that fight rolled.
                if let Some(rng) = then {
                    uniform(rng, sides);
                }
                if let Some(label) = &given.label
                    && !label.fits(purpose)
                {
                    return Err(RollError::WrongPurpose(Box::new(WrongPurpose {
                        src: label.src.clone(),
                        span: label.span.into(),
                        value: given.value,
                        label: label.word.clone(),
                        purpose: format!("{purpose} (a 1D{sides})"),
                        origin: given.origin,
                    })));
                }
                if given.value == 0 || given.value > sides {
                    return Err(RollError::Impossible {
                        value: given.value,
                        sides,
                        purpose: purpose.to_string(),
                        origin: given.origin,
                    });
                }
                Ok(given.value)
            }
            Kind::Asked(asker) => {
                let value = asker.die(sides, purpose, of)?;
                if value == 0 || value > sides {
                    return Err(RollError::Impossible {
                        value,
                        sides,
                        purpose: purpose.to_string(),
                        origin: "the value given".into(),
                    });
                }
                Ok(value)
            }
        }
    }
}

/// The first die past a walked plan: kept as wanted, and the roll stopped.
fn past_the_plan(
    wanted: &mut Option<RolledDie>,
    sides: u32,
    weights: &[u64],
    purpose: &str,
) -> RollError {
    if wanted.is_none() {
        *wanted = Some(RolledDie {
            sides,
            value: 0,
            purpose: purpose.to_string(),
            weights: weights.to_vec(),
        });
    }
    RollError::Stopped {
        sides,
        purpose: purpose.to_string(),
        reason: "the walk's planned dice end here".into(),
    }
}

/// The dice of a trace as a dice file: one value a line, labelled with the first word of
/// its purpose that is neither a number nor a little word such as "on" (`attack 39`), the whole purpose and the die in a
/// comment. Read back, it feeds the same rolls the same values.
pub fn emitted(trace: &[RolledDie]) -> String {
    let mut out = String::from(
        "# dice written by affray --emit-dice: LABEL VALUE, the roll in the comment\n",
    );
    for die in trace {
        let label = words(&die.purpose).into_iter().find(|word| {
            !word.starts_with(|c: char| c.is_ascii_digit())
                && ![
                    "on", "for", "with", "of", "the", "a", "an", "to", "at", "by",
                ]
                .contains(&word.as_str())
        });
        let purpose: String = die
            .purpose
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let value = match label {
            Some(label) => format!("{label} {}", die.value),
            None => die.value.to_string(),
        };
        out.push_str(&format!("{value:<16}# 1D{}: {purpose}\n", die.sides));
    }
    out
}

fn pcg(seed: u64) -> Pcg64 {
    Pcg64::new(u128::from(seed) ^ STATE_MIX, STREAM)
}

/// The place (the first 1) of an outcome drawn by `weights`: a number below their sum
/// drawn without bias, then the outcome whose share holds it.
fn weighted(rng: &mut Pcg64, weights: &[u64]) -> u32 {
    let sum = weights
        .iter()
        .fold(0u64, |sum, w| sum.saturating_add(*w))
        .max(1);
    let incomplete = (u64::MAX % sum + 1) % sum;
    let mut below = loop {
        let word = rng.next_u64();
        if word <= u64::MAX - incomplete {
            break word % sum;
        }
    };
    for (place, weight) in weights.iter().enumerate() {
        if below < *weight {
            return place as u32 + 1;
        }
        below -= weight;
    }
    weights.len() as u32
}

/// A face from 1 to `sides`, without modulo bias: words in the incomplete last block of
/// `sides` values are rejected and drawn again.
///
/// The common dice are each their own arm, so that the compiler divides by a constant
/// (a multiplication) rather than with a division instruction, some tens of cycles
/// twice a die: the same faces, faster.
fn uniform(rng: &mut Pcg64, sides: u32) -> u32 {
    match sides {
        4 => face::<4>(rng),
        6 => face::<6>(rng),
        8 => face::<8>(rng),
        10 => face::<10>(rng),
        12 => face::<12>(rng),
        20 => face::<20>(rng),
        100 => face::<100>(rng),
        _ => face_of(rng, u64::from(sides.max(1))),
    }
}

#[inline(always)]
fn face<const SIDES: u64>(rng: &mut Pcg64) -> u32 {
    face_of(rng, SIDES)
}

#[inline(always)]
fn face_of(rng: &mut Pcg64, sides: u64) -> u32 {
    // 2^64 mod sides, computed without overflow.
    let incomplete = (u64::MAX % sides + 1) % sides;
    loop {
        let word = rng.next_u64();
        if word <= u64::MAX - incomplete {
            return (word % sides) as u32 + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A person typing in a 2D6 + 1D4 is told which die of the 2D6 is asked.
    #[test]
    fn each_die_of_a_group_is_asked_with_its_place() {
        type Asked = std::sync::Arc<std::sync::Mutex<Vec<(u32, DieOf)>>>;
        struct Recorder(Asked);
        impl AskDie for Recorder {
            fn die(&mut self, sides: u32, _purpose: &str, of: DieOf) -> Result<u32, RollError> {
                self.0.lock().unwrap().push((sides, of));
                Ok(1)
            }
        }
        let asked = Asked::default();
        let file = crate::source::SourceFile::new("test", "2D6+1D4");
        let expr = crate::parse::parse_dice(&file, "2D6+1D4", 0).unwrap();
        let mut source = DiceSource::asked(Box::new(Recorder(asked.clone())));
        let rolled = expr.roll(&mut source, "damage").unwrap();
        assert_eq!(rolled.total, 3);
        let of = |index, count| DieOf { index, count };
        assert_eq!(
            *asked.lock().unwrap(),
            [(6, of(1, 2)), (6, of(2, 2)), (4, DieOf::ALONE)]
        );
    }

    fn rolls(seed: u64, sides: u32, n: usize) -> Vec<u32> {
        let mut source = DiceSource::seeded(seed);
        (0..n)
            .map(|_| source.roll_die(sides, "test").unwrap())
            .collect()
    }

    // Golden vectors: if one of these changes, every seeded fight and every snapshot
    // changes with it. That must never happen by accident (a dependency upgrade).
    #[test]
    fn golden_d20_seed_1() {
        assert_eq!(rolls(1, 20, 12), GOLDEN_D20_SEED_1);
    }

    #[test]
    fn golden_d100_seed_7() {
        assert_eq!(rolls(7, 100, 12), GOLDEN_D100_SEED_7);
    }

    #[test]
    fn golden_d6_seed_0() {
        assert_eq!(rolls(0, 6, 12), GOLDEN_D6_SEED_0);
    }

    const GOLDEN_D20_SEED_1: [u32; 12] = [19, 18, 19, 18, 5, 17, 3, 13, 17, 2, 18, 6];
    const GOLDEN_D100_SEED_7: [u32; 12] = [91, 78, 100, 43, 37, 25, 91, 89, 57, 37, 20, 38];
    const GOLDEN_D6_SEED_0: [u32; 12] = [2, 5, 5, 6, 5, 2, 2, 3, 5, 2, 3, 2];

    #[test]
    fn every_face_comes_up_and_none_outside() {
        let faces = rolls(3, 6, 6000);
        for face in 1..=6 {
            let count = faces.iter().filter(|&&f| f == face).count();
            // 1000 expected; 5 standard deviations is about 150.
            assert!((850..=1150).contains(&count), "face {face}: {count}");
        }
        assert!(faces.iter().all(|f| (1..=6).contains(f)));
    }

    #[test]
    fn given_dice_are_replayed_then_run_out() {
        let mut source = DiceSource::given([GivenDie {
            value: 13,
            origin: "line 1".into(),
            label: None,
        }]);
        assert_eq!(source.roll_die(20, "hit location"), Ok(13));
        assert_eq!(
            source.roll_die(20, "hit location"),
            Err(RollError::RanOut {
                roll: 2,
                sides: 20,
                purpose: "hit location".into()
            })
        );
    }

    #[test]
    fn an_impossible_given_value_is_refused() {
        let mut source = DiceSource::given([GivenDie {
            value: 21,
            origin: "dice.txt line 3".into(),
            label: None,
        }]);
        assert!(matches!(
            source.roll_die(20, "fumble"),
            Err(RollError::Impossible {
                value: 21,
                sides: 20,
                ..
            })
        ));
    }
}
