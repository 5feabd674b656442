//! A progress bar on standard error for long runs; drawn only when standard error is a
//! terminal, so pipes and tests see nothing of it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress(ProgressBar);

impl Progress {
    pub fn new(length: u64, unit: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr());
        let template = format!("{{bar:40}} {{pos}}/{{len}} {unit} ({{per_sec}}, {{eta}} left)");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        Progress(bar)
    }

    pub fn advance(&self, by: u64) {
        self.0.inc(by);
    }

    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}
