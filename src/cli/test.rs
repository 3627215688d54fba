//! `labgrade test`: specs, fixtures, the reference and the samples, for CI.

use std::path::Path;

use super::common::{CliError, Context};
use crate::exit_codes;
use crate::report::github;
use crate::selftest::{self, default_reference, test_problem, ProblemResult, Progress};
use indicatif::{ProgressBar, ProgressStyle};

fn paint(ctx: &Context, code: &str, text: &str) -> String {
    if ctx.color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The lines under a problem's heading (printed when the problem began); with `verbose`,
/// each build's compiler output and every mismatch's whole message.
fn print_result(ctx: &Context, r: &ProblemResult, verbose: bool) -> (usize, usize) {
    if let Some(e) = &r.error {
        println!("  {} spec/fixtures: {e}", paint(ctx, "31", "FAIL"));
        return (0, 1);
    }
    let (mut passed, mut failed) = (0, 0);
    for s in &r.samples {
        let cases = s.report.as_ref().map_or(0, |r| r.cases.len());
        if s.ok() {
            passed += 1;
            println!(
                "  {} {} ({cases} cases as declared)",
                paint(ctx, "32", "ok  "),
                s.name
            );
        } else {
            failed += 1;
            println!("  {} {}", paint(ctx, "31", "FAIL"), s.name);
        }
        if verbose {
            print_build_output(s);
        }
        if s.ok() {
            continue;
        }
        if let Some(e) = &s.error {
            println!("       {e}");
        }
        for m in s.mismatches.iter().take(20) {
            println!("       {}: {}", m.case, m.declared_got());
            let shown = if verbose { usize::MAX } else { 1 };
            for line in m.message.lines().take(shown) {
                println!("         {line}");
            }
        }
        if s.mismatches.len() > 20 {
            println!("       ... and {} more", s.mismatches.len() - 20);
        }
    }
    (passed, failed)
}

/// A sample's build, as the compiler said it (`-v`), or that it said nothing.
fn print_build_output(s: &selftest::SampleResult) {
    let Some(build) = s.report.as_ref().and_then(|r| r.build.as_ref()) else {
        return;
    };
    let output = build.output.trim_end();
    if output.is_empty() {
        println!("       build ({}): no compiler output", build.kind);
        return;
    }
    println!("       build ({}), the compiler said:", build.kind);
    for line in output.lines() {
        println!("         {line}");
    }
}

/// A package with nothing but its reference: `labgrade test` proves nothing about how it
/// grades students.
fn warn_without_samples(ctx: &Context, r: &ProblemResult) {
    let package = crate::package::get(&r.problem);
    if r.error.is_some() || r.samples.iter().any(|s| s.name != "reference") {
        return;
    }
    if let Some(p) = package {
        println!(
            "  {} no samples: add {}/<name>/ with a submission and its expect.toml (a correct \
             one, and one per mistake you expect), or labgrade test checks only the \
             reference and never how students are graded",
            paint(ctx, "33", "warning:"),
            p.dir.join("samples").display()
        );
    }
}

/// Writes each sample's JSON report as `<dir>/<sample>.json`.
fn write_reports(dir: &Path, r: &ProblemResult) -> Result<(), CliError> {
    let cannot = |path: &Path, e: std::io::Error| {
        CliError(format!("cannot write `{}`: {e}", path.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| cannot(dir, e))?;
    for s in &r.samples {
        if let Some(report) = &s.report {
            // A sample's name may hold a `/` (a sample beside its own notes folder).
            let path = dir.join(format!("{}.json", s.name.replace('/', "_")));
            std::fs::write(&path, crate::report::json::to_json(report))
                .map_err(|e| cannot(&path, e))?;
        }
    }
    Ok(())
}

/// What `labgrade test` writes besides its lines.
pub struct Outputs<'a> {
    /// `--junit FILE`.
    pub junit: Option<&'a Path>,
    /// `--reports DIR`.
    pub reports: Option<&'a Path>,
    /// `-v`: each build's compiler output, whole messages.
    pub verbose: bool,
}

/// Tests the named problems (all when none); exit 0 iff everything is as declared, 2 when a
/// spec or fixture is invalid (as `check` and `grade` exit on the same input).
pub fn run(
    ctx: &Context,
    problems: &[String],
    reference: Option<&Path>,
    outputs: Outputs<'_>,
) -> Result<i32, CliError> {
    let (junit_out, reports_out) = (outputs.junit, outputs.reports);
    let root = ctx.root()?;
    let options = ctx.session_options()?;
    let names = if problems.is_empty() && !crate::package::all().is_empty() {
        // With --problems, an instructor tests their packages.
        crate::package::all()
            .iter()
            .map(|p| p.name.clone())
            .collect()
    } else if problems.is_empty() {
        root.problem_names()
    } else {
        for p in problems {
            root.load_spec(p)?;
        }
        problems.to_vec()
    };
    // The catalogue's references are the cdylib; a problem package's is its own sources.
    let needs_cdylib = names.iter().any(|n| crate::package::get(n).is_none());
    let reference = match reference {
        Some(p) => p.to_path_buf(),
        None if !needs_cdylib => std::path::PathBuf::new(),
        None => default_reference(&options.worker_exe).ok_or_else(|| {
            CliError(
                "cannot find the reference cdylib (liblabgrade_reference.so) next to labgrade: \
                 run `cargo build --workspace`, or pass --reference <file>"
                    .into(),
            )
        })?,
    };
    let (mut passed, mut failed) = (0, 0);
    let mut results = Vec::new();
    let mut invalid = false;
    for name in &names {
        println!("{}", paint(ctx, "1", &format!("problem {name}")));
        // On a terminal, a bar on standard error while the samples are graded (a problem
        // with many takes a minute); nothing of it stays, and nothing is drawn elsewhere.
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("  {bar:24} {pos}/{len} samples graded  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let r = test_problem(&root, name, &options, &reference, &|p| match p {
            Progress::Total(n) => bar.set_length(n as u64),
            Progress::Graded(sample) => {
                bar.set_message(sample.to_string());
                bar.inc(1);
            }
        });
        bar.finish_and_clear();
        invalid |= r.error.is_some();
        if let Some(dir) = reports_out {
            write_reports(&dir.join(name), &r)?;
        }
        let (p, f) = print_result(ctx, &r, outputs.verbose);
        warn_without_samples(ctx, &r);
        passed += p;
        failed += f;
        results.push(r);
    }
    if let Some(path) = junit_out {
        std::fs::write(path, selftest::junit::to_junit(&results))
            .map_err(|e| CliError(format!("cannot write `{}`: {e}", path.display())))?;
    }
    if github::enabled() {
        for line in selftest::github::annotations(&results) {
            println!("{line}");
        }
        if let Err(e) = github::append_summary(&selftest::github::summary(&results)) {
            eprintln!("warning: cannot write the job summary (GITHUB_STEP_SUMMARY): {e}");
        }
    }
    println!("{passed} passed, {failed} failed");
    // An invalid spec or fixture is bad input, as for every other command: 2, not 1.
    Ok(if invalid {
        exit_codes::CANNOT_GRADE
    } else if failed == 0 {
        exit_codes::OK
    } else {
        exit_codes::FAILED
    })
}
