//! The person at the terminal: questions, answers, and the commands every prompt knows.
//! In a pipe (tests, a script feeding answers) each answer is echoed after its prompt so
//! that the output reads like the session; the end of the input means `quit`.

use std::io::{self, BufRead, IsTerminal, Write};

pub const HELP: &str = "\
At any prompt:
  a number, or an option's name   choose it; at a die, the value rolled at the table
  Enter                           take the default shown (the suggestion, or affray's roll)
  r                               let affray roll this die
  status                          initiative order, actions left, hit points, armour,
                                  conditions with their time left, weapons
  undo                            take back the last resolved action (and the one in progress)
  dial STEP=LEVEL                 change the automation dial from now on: STEP is a decision
                                  (action, manoeuvre, ...), choices, dice or dice:WORD (the
                                  first word of the roll's purpose: dice:damage); NAME:STEP
                                  for one combatant; LEVEL is manual, suggest or auto
  quit                            stop here; the state file keeps the fight for --resume
  ? or help                       this help";

/// What a person answered, once the commands every prompt knows are set apart.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// Anything else: a number, a name, `r`, or nothing (Enter).
    Text(String),
    Status,
    Undo,
    Dial(String),
    Help,
    /// `quit`, or the end of the input.
    Quit,
}

pub struct Terminal {
    input: Box<dyn BufRead + Send>,
    /// Input that is not a terminal: answers are echoed.
    piped: bool,
}

impl Terminal {
    pub fn stdin() -> Self {
        let stdin = io::stdin();
        let piped = !stdin.is_terminal();
        Terminal {
            input: Box::new(io::BufReader::new(stdin)),
            piped,
        }
    }

    /// Print lines (the log, a status, a reason).
    pub fn say(&self, text: &str) {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    /// Ask and read one answer.
    pub fn ask(&mut self, prompt: &str) -> Answer {
        {
            let mut out = io::stdout().lock();
            let _ = write!(out, "{prompt} ");
            let _ = out.flush();
        }
        let mut line = String::new();
        let read = self.input.read_line(&mut line);
        if !matches!(read, Ok(n) if n > 0) {
            self.say("(end of input)");
            return Answer::Quit;
        }
        let answer = line.trim().to_string();
        if self.piped {
            // Cut: an answer is a number or a name, and a pasted megabyte is not echoed.
            self.say(&affray::source::excerpt(&answer));
        }
        match answer.as_str() {
            "?" | "help" => Answer::Help,
            "status" => Answer::Status,
            "undo" => Answer::Undo,
            "quit" | "q" => Answer::Quit,
            _ => match answer.strip_prefix("dial ") {
                Some(setting) => Answer::Dial(setting.trim().to_string()),
                None => Answer::Text(answer),
            },
        }
    }
}
