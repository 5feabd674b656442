//! `--report FILE.html`: one self-contained page (inline CSS and SVG, no script, nothing
//! fetched) with the verdict, the charts and every figure. Written with `std::fmt::Write`;
//! every text that comes from the files (names of scenarios, sides, rulesets, figures) is
//! escaped, since the files are the user's.

use std::fmt::Write;
use std::path::Path;

use affray::analysis::compare::Comparison;
use affray::analysis::simulate::{Report, RunInfo, percent};
use affray::analysis::sweep::SweepReport;
use affray::analysis::verdict;
use affray::names::Words;
use affray::ruleset::Problems;

use super::plot;

const STYLE: &str = "\
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ccc}\
.meta{color:#555}.verdict{font-size:1.1em;background:#f3f7fb;border-left:4px solid #0072b2;padding:.6em 1em}\
code,pre{font-family:ui-monospace,monospace;background:#f4f4f4;padding:.1em .3em}pre{padding:.6em;overflow-x:auto}\
figure{margin:1em 0}figure svg{max-width:100%;height:auto}figcaption{color:#555;font-size:.95em}\
table{border-collapse:collapse;font-size:.92em}th,td{padding:.2em .7em;text-align:right;border-bottom:1px solid #eee}\
th:first-child,td:first-child{text-align:left}thead th{border-bottom:2px solid #999}\
tr.section th{text-align:left;padding-top:1em;border-bottom:1px solid #999}.star{color:#d55e00;font-weight:bold}";

/// Text made safe for HTML, inside elements and attributes alike.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A page: its head, `body` and the end.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// The heading and what was run: scenario, ruleset, fights, seed, the command.
fn heading(out: &mut String, title: &str, info: &RunInfo, fights: &str, command: &str) {
    let _ = writeln!(out, "<h1>{}</h1>", escape(title));
    let _ = writeln!(
        out,
        "<p class=\"meta\">Scenario <b>{}</b>, ruleset <b>{}</b>; {fights}, seed {}.<br>\
         The same command gives the same report: <code>{}</code></p>",
        escape(&info.scenario),
        escape(&info.ruleset),
        info.seed,
        escape(command)
    );
}

/// The verdict's paragraphs (its lines wrapped for a terminal joined again).
fn verdict_block(out: &mut String, text: &str) {
    let _ = writeln!(out, "<h2>Verdict</h2>");
    for paragraph in text.split("\n\n").filter(|p| !p.trim().is_empty()) {
        let joined: Vec<&str> = paragraph.lines().map(str::trim).collect();
        let _ = writeln!(
            out,
            "<p class=\"verdict\">{}</p>",
            escape(&joined.join(" "))
        );
    }
}

fn figure(
    out: &mut String,
    svg: Result<String, String>,
    caption: &str,
    path: &Path,
) -> Result<(), Problems> {
    let svg = svg.map_err(|error| plot::plot_failed(path, &error))?;
    // The SVG's own XML declaration has no place inside HTML.
    let svg = match svg.find("<svg") {
        Some(start) => &svg[start..],
        None => svg.as_str(),
    };
    let _ = writeln!(
        out,
        "<figure>\n{svg}\n<figcaption>{}</figcaption>\n</figure>",
        escape(caption)
    );
    Ok(())
}

fn write(path: &Path, html: String) -> Result<(), Problems> {
    std::fs::write(path, html).map_err(|error| {
        vec![miette::miette!(
            code = "affray::report::failed",
            help = "check that the folder exists and can be written to",
            "could not write the report {}: {error}",
            path.display()
        )]
    })
}

fn interval(low: f64, high: f64) -> String {
    format!("{} – {}", percent(low), percent(high))
}

/// The report of `simulate`.
pub fn simulation(report: &Report, command: &str, path: &Path) -> Result<(), Problems> {
    let mut out = String::new();
    let title = format!("{}: {} fights", report.info.scenario, report.fights);
    heading(
        &mut out,
        &title,
        &report.info,
        &format!("{} fights", report.fights),
        command,
    );
    verdict_block(&mut out, &verdict::of_report(report));
    let _ = writeln!(out, "<h2>Charts</h2>");
    figure(
        &mut out,
        plot::simulation_svg(report),
        "Left: each side's share of the fights won, with its 95% interval (the true rate \
         lies there, given the fights run). Right: how many fights ended in each round.",
        path,
    )?;
    let _ = writeln!(out, "<h2>Every figure</h2>\n<table>");
    let _ = writeln!(
        out,
        "<thead><tr><th>wins</th><th>fights</th><th>rate</th><th>95% interval</th></tr></thead><tbody>"
    );
    for line in &report.wins {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&line.side),
            line.wins,
            percent(line.rate),
            interval(line.interval.low, line.interval.high)
        );
    }
    let r = &report.rounds;
    let _ = writeln!(
        out,
        "<tr class=\"section\"><th colspan=\"4\">rounds to the end</th></tr>\
         <tr><td>mean {:.2}, median {}, 90% within {}, 99% within {}, longest {}</td><td></td><td></td><td></td></tr>",
        r.mean, r.median, r.p90, r.p99, r.longest
    );
    let mut section = None;
    for line in &report.figures {
        if section != Some(line.section) {
            section = Some(line.section);
            let _ = writeln!(
                out,
                "<tr class=\"section\"><th>{}</th><th>total</th><th>per fight</th><th>95% interval</th></tr>",
                escape(line.section.title())
            );
        }
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{:.4}</td><td>{:.4} – {:.4}</td></tr>",
            escape(&Words(&line.name).to_string()),
            line.total,
            line.per_fight,
            line.interval.low,
            line.interval.high
        );
    }
    let _ = writeln!(out, "</tbody></table>");
    write(path, page(&title, &out))
}

/// The report of `compare`: one part per ruleset compared with the first, each with its
/// differences as `affray diff` lists them (`changes`, in the same order).
pub fn comparison(
    reports: &[Comparison],
    changes: &[String],
    command: &str,
    path: &Path,
) -> Result<(), Problems> {
    let Some(first) = reports.first() else {
        return Ok(());
    };
    let mut out = String::new();
    let title = format!(
        "{}: the same fights under two rulesets",
        first.info.scenario
    );
    heading(
        &mut out,
        &title,
        &first.info,
        &format!(
            "{} fights under each ruleset, the same seeds under both",
            first.fights
        ),
        command,
    );
    let _ = writeln!(out, "<h2>Charts</h2>");
    figure(
        &mut out,
        plot::comparison_svg(reports),
        "Each side's share of the fights won under A (the first ruleset) and under B, \
         with each rate's 95% interval.",
        path,
    )?;
    for (report, change) in reports.iter().zip(changes) {
        let _ = writeln!(
            out,
            "<h2>A = {}, B = {}</h2>",
            escape(&report.before),
            escape(&report.after)
        );
        verdict_block(&mut out, &verdict::of_comparison(report));
        let _ = writeln!(
            out,
            "<h3>What B changes</h3>\n<pre>{}</pre>",
            escape(change.trim_end())
        );
        let _ = writeln!(
            out,
            "<h3>Every figure</h3>\n<p>B − A with its 95% interval; <span class=\"star\">*</span> \
             where the difference holds up with all {} figures tested at once \
             (Benjamini–Hochberg: at most 5% of the marked ones are expected to be chance).</p>\n<table>",
            report.wins.len() + 1 + report.figures.len()
        );
        let _ = writeln!(
            out,
            "<thead><tr><th>win rate</th><th>A</th><th>B</th><th>B − A</th><th>95% interval of B − A</th><th></th></tr></thead><tbody>"
        );
        for line in &report.wins {
            compare_row(&mut out, line, true);
        }
        let _ = writeln!(
            out,
            "<tr class=\"section\"><th colspan=\"6\">rounds to the end (mean)</th></tr>"
        );
        compare_row(&mut out, &report.rounds, false);
        let mut section = None;
        for line in &report.figures {
            if section != Some(line.section) {
                section = Some(line.section);
                let _ = writeln!(
                    out,
                    "<tr class=\"section\"><th colspan=\"6\">{} (per fight)</th></tr>",
                    escape(line.section.title())
                );
            }
            compare_row(&mut out, line, false);
        }
        let _ = writeln!(out, "</tbody></table>");
    }
    write(path, page(&title, &out))
}

fn compare_row(out: &mut String, line: &affray::analysis::compare::CompareLine, rate: bool) {
    let number = |value: f64, signed: bool| match (rate, signed) {
        (true, false) => percent(value),
        (true, true) => format!("{:+.1}%", value * 100.0),
        (false, false) => format!("{value:.4}"),
        (false, true) => format!("{value:+.4}"),
    };
    let _ = writeln!(
        out,
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} … {}</td><td class=\"star\">{}</td></tr>",
        escape(&Words(&line.name).to_string()),
        number(line.before, false),
        number(line.after, false),
        number(line.difference, true),
        number(line.interval.low, true),
        number(line.interval.high, true),
        if line.significant { "*" } else { "" }
    );
}

/// The report of `sweep`.
pub fn sweep(report: &SweepReport, command: &str, path: &Path) -> Result<(), Problems> {
    let mut out = String::new();
    let title = format!("{}: sweeping {}", report.info.scenario, report.vary);
    heading(
        &mut out,
        &title,
        &report.info,
        &format!(
            "{} fights at each of {} values of {}, the same seeds at every value",
            report.fights,
            report.points.len(),
            report.vary
        ),
        command,
    );
    verdict_block(&mut out, &verdict::of_sweep(report));
    let _ = writeln!(out, "<h2>Charts</h2>");
    figure(
        &mut out,
        plot::sweep_svg(report),
        "Each side's share of the fights won at each value, with its 95% interval; the \
         grey line is 50%, an even fight.",
        path,
    )?;
    let _ = writeln!(
        out,
        "<h2>Every figure</h2>\n<table>\n<thead><tr><th>{}</th>",
        escape(&report.vary)
    );
    let sides: Vec<&str> = report
        .points
        .first()
        .map(|p| p.wins.iter().map(|w| w.side.as_str()).collect())
        .unwrap_or_default();
    for side in &sides {
        let _ = write!(out, "<th>{} wins</th><th>95% interval</th>", escape(side));
    }
    let _ = writeln!(out, "<th>rounds (mean)</th></tr></thead><tbody>");
    for point in &report.points {
        let _ = write!(out, "<tr><td>{}</td>", point.value);
        for line in &point.wins {
            let _ = write!(
                out,
                "<td>{}</td><td>{}</td>",
                percent(line.rate),
                interval(line.interval.low, line.interval.high)
            );
        }
        let _ = writeln!(out, "<td>{:.1}</td></tr>", point.mean_rounds);
    }
    let _ = writeln!(out, "</tbody></table>");
    write(path, page(&title, &out))
}

/// The command that makes this report again: the arguments as given, with the seed when
/// it was chosen, each quoted for a POSIX shell where it needs it.
pub fn command_line(seed: Option<u64>) -> String {
    let mut words: Vec<String> = std::env::args()
        .skip(1)
        .map(|word| {
            if !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+%@".contains(c))
            {
                word
            } else {
                format!("'{}'", word.replace('\'', r"'\''"))
            }
        })
        .collect();
    words.insert(0, "affray".into());
    if let Some(seed) = seed {
        words.push(format!("--seed {seed}"));
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_text_is_escaped() {
        assert_eq!(
            escape(r#"<b>"Tom" & 'Jerry'</b>"#),
            "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"
        );
    }
}
