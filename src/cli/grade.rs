//! `labgrade grade`: a whole class, in parallel, into a gradebook.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};

use super::common::{CliError, Context};
use crate::exit_codes;
use crate::report::{
    csv, github, gradescope, json, junit, names, HandedIn, Partner, SubmissionReport,
};
use crate::runner::{read_class, CaseFilter, Class, Event, Roster, Session};

/// Writes one submission's reports (JSON, and Gradescope's with `all_formats`), each through
/// a temporary file renamed into place, so no report is ever half written.
fn write_reports(
    out: &Path,
    stem: &str,
    report: &SubmissionReport,
    all_formats: bool,
) -> Result<(), CliError> {
    let put = |name: String, text: String| -> Result<(), CliError> {
        super::common::write_atomically(&out.join(name), text.as_bytes())
    };
    put(format!("{stem}.json"), json::to_json(report))?;
    if all_formats {
        let gs = serde_json::to_string_pretty(&gradescope::to_gradescope(report))
            .map_err(|e| CliError(e.to_string()))?;
        put(format!("{stem}.gradescope.json"), gs)?;
    }
    Ok(())
}

/// How grading shows its progress: on a terminal, a bar with the time so far and an
/// estimate of the rest, naming the last submission prepared (builds and runs overlap: a
/// wave runs while the next builds); elsewhere (a CI log, a file), a line per submission as
/// it finishes.
struct Progress {
    bar: ProgressBar,
    terminal: bool,
    started: std::time::Instant,
    total: usize,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
        let bar = if terminal {
            ProgressBar::new(total as u64)
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>9} [{bar:30}] {pos}/{len}  {elapsed} elapsed, about {eta} left  {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix("grading");
        Progress {
            bar,
            terminal,
            started: std::time::Instant::now(),
            total,
        }
    }

    fn prepared(&self, name: &str) {
        self.bar.set_message(names::printable(name));
    }

    fn graded(&self, report: &SubmissionReport) {
        self.bar.inc(1);
        if self.terminal {
            return;
        }
        let score = if report.is_unresolved() {
            "unresolved (labgrade's failure: graded again next run)".to_string()
        } else {
            format!(
                "{}/{}",
                crate::report::points(report.score),
                crate::report::points(report.max_score)
            )
        };
        eprintln!(
            "graded {}/{} after {:.0} s: {} {score}",
            self.bar.position(),
            self.total,
            self.started.elapsed().as_secs_f64(),
            names::printable(&report.submission),
        );
    }

    fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// The words a stop (Ctrl-C) prints: what was kept and how to go on.
static STOP_MESSAGE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();

/// On Ctrl-C (SIGINT) or SIGTERM, says that every report finished so far is kept in `out`
/// and that the same command grades the rest, then ends as the signal would (exit 130).
fn say_what_a_stop_keeps(out: &Path) {
    let _ = STOP_MESSAGE.set(
        format!(
            "\nlabgrade: stopped. Every submission graded so far has its report in {} (and its \
             result in the cache): run the same command again to grade only the rest.\n",
            out.display()
        )
        .into_bytes(),
    );
    extern "C" fn stop(_: libc::c_int) {
        if let Some(m) = STOP_MESSAGE.get() {
            // SAFETY: write(2) and _exit(2) are async-signal-safe; the message is never
            // changed once set.
            unsafe { libc::write(2, m.as_ptr().cast(), m.len()) };
        }
        // SAFETY: as above.
        unsafe { libc::_exit(130) };
    }
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: installing a handler that only calls async-signal-safe functions.
        unsafe {
            libc::signal(
                signal,
                stop as extern "C" fn(libc::c_int) as libc::sighandler_t,
            )
        };
    }
}

/// What `grade` was asked to do besides the problem and the class.
#[derive(Debug, Clone, Default)]
pub struct GradeOptions {
    /// Also write Gradescope results and junit.xml.
    pub all_formats: bool,
    /// The course roster.
    pub roster: Option<PathBuf>,
    /// Grade every submission again, reusing no earlier result.
    pub force: bool,
    /// `--csv-cases`: a column per case in grades.csv.
    pub csv_cases: bool,
    /// `--shard I/N`: grade only this share of the class (see `labgrade merge`).
    pub shard: Option<super::shard::Shard>,
    /// `--fix-hints`: look for each failing submission's smallest fix (every case counts).
    pub fix_hints: bool,
}

/// Who a submission's student is, and whether the roster knows them.
struct Identity {
    id: String,
    name: Option<String>,
    on_roster: bool,
    /// What the export says of the hand-in (lateness, when).
    late: Option<bool>,
    submitted_at: Option<String>,
    /// The group's other members, and whether the roster knows each.
    partners: Vec<(Partner, bool)>,
}

fn identities(class: &Class, roster: Option<&Roster>) -> BTreeMap<String, Identity> {
    class
        .submissions
        .iter()
        .map(|s| {
            let found = roster.and_then(|r| r.find(s));
            let partners = s
                .partners
                .iter()
                .map(|p| {
                    let keys = std::iter::once(&p.id).chain(&p.aliases);
                    match roster.and_then(|r| r.find_any(keys)) {
                        Some(student) => (
                            Partner {
                                id: student.id.clone(),
                                name: student.name.clone().or_else(|| p.name.clone()),
                            },
                            true,
                        ),
                        None => (
                            Partner {
                                id: p.id.clone(),
                                name: p.name.clone(),
                            },
                            false,
                        ),
                    }
                })
                .collect();
            let identity = match found {
                Some(student) => Identity {
                    id: student.id.clone(),
                    name: student.name.clone().or_else(|| s.student_name.clone()),
                    on_roster: true,
                    late: s.late,
                    submitted_at: s.submitted_at.clone(),
                    partners,
                },
                None => Identity {
                    id: s.student_id.clone(),
                    name: s.student_name.clone(),
                    on_roster: false,
                    late: s.late,
                    submitted_at: s.submitted_at.clone(),
                    partners,
                },
            };
            (s.name.clone(), identity)
        })
        .collect()
}

/// Writes `class.csv`: every entry of the class directory and every roster student, with
/// what became of them: `graded`, `reused` (an earlier run's result), `skipped` (with the
/// reason), `missing` (on the roster, no submission).
fn write_class_csv(
    path: &Path,
    class: &Class,
    who: &BTreeMap<String, Identity>,
    stems: &BTreeMap<String, String>,
    reused: &BTreeSet<String>,
    roster: Option<&Roster>,
    fixes: &BTreeMap<String, String>,
) -> Result<(), CliError> {
    let fail = |e: ::csv::Error| CliError(format!("writing class.csv: {e}"));
    let mut w = ::csv::Writer::from_path(path).map_err(fail)?;
    // The smallest fix of each submission, when `--fix-hints` looked for them.
    let fix_column = !fixes.is_empty();
    let mut header = vec![
        "submission",
        "student_id",
        "name",
        "status",
        "report",
        "reason",
    ];
    if fix_column {
        header.push("smallest_fix");
    }
    w.write_record(&header).map_err(fail)?;
    let with_fix = |mut row: Vec<String>, name: &str| {
        if fix_column {
            row.push(fixes.get(name).cloned().unwrap_or_default());
        }
        row
    };
    let text = |s: &str| names::spreadsheet_text(s);
    for s in class
        .submissions
        .iter()
        .filter(|s| stems.contains_key(&s.name))
    {
        let i = &who[&s.name];
        let status = if reused.contains(&s.name) {
            "reused"
        } else {
            "graded"
        };
        let reason = if roster.is_some() && !i.on_roster {
            "not on the roster"
        } else {
            ""
        };
        let row = vec![
            text(&s.name),
            text(&i.id),
            text(i.name.as_deref().unwrap_or("")),
            status.into(),
            format!("{}.json", stems[&s.name]),
            reason.into(),
        ];
        w.write_record(with_fix(row, &s.name)).map_err(fail)?;
        // A group's other members: the same submission, a row each.
        for (p, on_roster) in &i.partners {
            let reason = if roster.is_some() && !on_roster {
                "in a group; not on the roster"
            } else {
                "in a group"
            };
            let row = vec![
                text(&s.name),
                text(&p.id),
                text(p.name.as_deref().unwrap_or("")),
                status.into(),
                format!("{}.json", stems[&s.name]),
                reason.into(),
            ];
            w.write_record(with_fix(row, &s.name)).map_err(fail)?;
        }
    }
    for s in &class.skipped {
        let row = vec![
            text(&s.name),
            String::new(),
            String::new(),
            "skipped".into(),
            String::new(),
            text(&s.reason),
        ];
        w.write_record(with_fix(row, "")).map_err(fail)?;
    }
    let present: BTreeSet<&str> = who
        .values()
        .filter(|i| i.on_roster)
        .map(|i| i.id.as_str())
        .chain(
            who.values()
                .flat_map(|i| &i.partners)
                .filter(|(_, on_roster)| *on_roster)
                .map(|(p, _)| p.id.as_str()),
        )
        .collect();
    for student in roster.map_or(&[][..], |r| &r.students[..]) {
        if !present.contains(student.id.as_str()) {
            let row = vec![
                String::new(),
                text(&student.id),
                text(student.name.as_deref().unwrap_or("")),
                "missing".into(),
                String::new(),
                "on the roster, no submission".into(),
            ];
            w.write_record(with_fix(row, "")).map_err(fail)?;
        }
    }
    w.flush()?;
    Ok(())
}

/// Each submission's smallest fix, as class.csv says it (`a constant in IsBadPosition
/// (nim.cpp:219)`), for those `--fix-hints` found one for.
fn fixes_of(reports: &[SubmissionReport]) -> BTreeMap<String, String> {
    reports
        .iter()
        .filter_map(|r| {
            let f = r.fix.as_ref()?;
            let said = format!("{} ({})", f.cluster(), f.at);
            Some((r.submission.clone(), names::spreadsheet_text(&said)))
        })
        .collect()
}

/// Makes the output directory (one labgrade may write into) and removes a shard's manifest
/// from an earlier run: the manifest says a shard finished, and this run has not yet.
fn open_output(out: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(out)
        .map_err(|e| CliError(format!("cannot create `{}`: {e}", out.display())))?;
    crate::owned_dir::check(out, crate::owned_dir::OUTPUT).map_err(CliError)?;
    match std::fs::remove_file(out.join(super::shard::MANIFEST)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CliError(format!(
            "cannot remove `{}`: {e}",
            out.join(super::shard::MANIFEST).display()
        ))),
        _ => Ok(()),
    }
}

/// The class's own outputs: grades.csv, junit.xml (with every format), the CI job summary
/// and report.html.
fn write_class_outputs(
    problem: &str,
    out: &Path,
    options: &GradeOptions,
    reports: &[SubmissionReport],
) -> Result<(), CliError> {
    let file = std::fs::File::create(out.join("grades.csv"))?;
    let columns = csv::GradebookColumns {
        cases: options.csv_cases,
    };
    csv::write_gradebook(reports, columns, file)
        .map_err(|e| CliError(format!("writing grades.csv: {e}")))?;
    if options.all_formats {
        std::fs::write(out.join("junit.xml"), junit::to_junit(reports))?;
    }
    if github::enabled() {
        if let Err(e) = github::append_summary(&github::grade_summary(problem, reports)) {
            eprintln!("warning: cannot write the job summary (GITHUB_STEP_SUMMARY): {e}");
        }
    }
    super::report::write_class_report(&out.join(super::report::REPORT_HTML), reports)?;
    Ok(())
}

/// A shard's manifest: each report it graded, sealed as written, so that merge takes it
/// only unchanged.
fn write_shard_manifest(
    problem: &str,
    out: &Path,
    options: &GradeOptions,
    shard: super::shard::Shard,
    all_names: &[String],
    stems: &BTreeMap<String, String>,
) -> Result<(), CliError> {
    let key = crate::submission::cache_secret::secret(out).map_err(CliError)?;
    let class = super::shard::fingerprint(all_names.iter().map(String::as_str));
    let mut graded = Vec::with_capacity(stems.len());
    for (name, stem) in stems {
        let bytes = std::fs::read(out.join(format!("{stem}.json")))?;
        graded.push(super::shard::Graded {
            submission: name.clone(),
            report: stem.clone(),
            seal: super::shard::seal(&key, problem, &class, shard.index, name, &bytes),
        });
    }
    super::shard::Manifest {
        shard: shard.index,
        of: shard.count,
        problem: problem.to_string(),
        class,
        submissions: all_names.len(),
        csv_cases: options.csv_cases,
        all_formats: options.all_formats,
        graded,
    }
    .write(out)?;
    Ok(())
}

/// Grades `subs`, writing each submission's reports as soon as it is graded (a grader
/// stopped midway keeps every finished report, and the next run grades only the rest);
/// the reports, stamped with who handed each in, and which were reused.
#[allow(clippy::too_many_arguments)]
fn grade_and_write(
    session: &Session,
    subs: &[(String, PathBuf)],
    out: &Path,
    options: &GradeOptions,
    stems: &BTreeMap<String, String>,
    who: &BTreeMap<String, Identity>,
    results: &crate::runner::ResultCache,
) -> Result<(Vec<SubmissionReport>, Vec<bool>), CliError> {
    let progress = Mutex::new(Progress::new(subs.len()));
    let stamp = |report: &mut SubmissionReport| {
        let identity = who.get(&report.submission);
        report.student_id = identity.map(|i| i.id.clone());
        report.handed_in = identity.map_or_else(Default::default, |i| HandedIn {
            student_name: i.name.clone(),
            late: i.late,
            submitted_at: i.submitted_at.clone(),
            partners: i.partners.iter().map(|(p, _)| p.clone()).collect(),
        });
    };
    // Each report is written as soon as its submission is graded (and its result kept in the
    // result cache): a grader stopped midway keeps every finished report, and the next run
    // grades only the rest.
    let write_errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let (mut reports, reused) = session.grade_class(subs, Some(results), &|event| {
        // Builds and runs overlap (a wave runs while the next builds): the bar counts
        // submissions graded, and names the last one prepared.
        match event {
            Event::Graded { report, .. } => {
                let mut report = *report;
                stamp(&mut report);
                if let Err(e) = write_reports(
                    out,
                    &stems[&report.submission],
                    &report,
                    options.all_formats,
                ) {
                    write_errors.lock().expect("errors").push(e.0);
                }
                progress.lock().expect("progress").graded(&report);
            }
            Event::Prepared { name } => progress.lock().expect("progress").prepared(&name),
        }
    });
    progress.into_inner().expect("progress").finish();
    if let Some(e) = write_errors.into_inner().expect("errors").first() {
        return Err(CliError(e.clone()));
    }
    for r in &mut reports {
        stamp(r);
    }
    if options.fix_hints {
        add_fix_hints(session, subs, &mut reports, out, options, stems)?;
    }
    Ok((reports, reused))
}

/// Looks for each failing submission's smallest fix, judged on every case (the instructor's
/// view), and writes its report again with it. One submission at a time, in the class's
/// order (each search builds and runs its candidates in parallel).
fn add_fix_hints(
    session: &Session,
    subs: &[(String, PathBuf)],
    reports: &mut [SubmissionReport],
    out: &Path,
    options: &GradeOptions,
    stems: &BTreeMap<String, String>,
) -> Result<(), CliError> {
    let budget = crate::fix::Budget::default();
    let failing = reports
        .iter()
        .filter(|r| !r.is_unresolved() && r.cases.iter().any(|c| !c.passed))
        .count();
    println!(
        "looking for the smallest fix of {failing} submission(s) (at most {} each)",
        budget.said()
    );
    for report in reports.iter_mut() {
        if report.is_unresolved() || report.cases.iter().all(|c| c.passed) {
            continue;
        }
        let Some((_, path)) = subs.iter().find(|(n, _)| *n == report.submission) else {
            continue;
        };
        let outcome = crate::fix::search(session, path, report, budget, CaseFilter::All);
        report.fix = crate::fix::report_of(&outcome);
        if report.fix.is_some() {
            write_reports(out, &stems[&report.submission], report, options.all_formats)?;
        }
    }
    Ok(())
}

/// Grades the class and writes the gradebook; exit 0 iff every submission passed everything.
pub fn run(
    ctx: &Context,
    problem: &str,
    dir: &Path,
    out: &Path,
    options: &GradeOptions,
) -> Result<i32, CliError> {
    let root = ctx.root()?;
    let roster = options
        .roster
        .as_deref()
        .map(Roster::load)
        .transpose()
        .map_err(CliError)?;
    let session = Session::open(&root, problem, ctx.session_options()?)?;
    open_output(out)?;
    let class = read_class(dir, out, &out.join(".labgrade").join("assembled")).map_err(CliError)?;
    let listed = |skipped: &[crate::runner::Skipped]| -> String {
        skipped
            .iter()
            .map(|s| format!("skipped: {} ({})\n", names::printable(&s.name), s.reason))
            .collect()
    };
    if class.submissions.is_empty() {
        return Err(CliError(format!(
            "`{}` holds no submission: put one submission (a directory, source file, library, \
             executable or archive) per entry\n{}",
            dir.display(),
            listed(&class.skipped).trim_end()
        )));
    }
    println!(
        "grading {}: {} submission(s), {} other entr{} skipped",
        class.layout.describe(),
        class.submissions.len(),
        class.skipped.len(),
        if class.skipped.len() == 1 { "y" } else { "ies" }
    );
    let who = identities(&class, roster.as_ref());
    // Report names are those of the whole class, so that a shard's reports are named as one
    // run over the class would name them.
    let all_names: Vec<String> = class.submissions.iter().map(|s| s.name.clone()).collect();
    let mut stems = names::file_stems(&all_names);
    if let Some(shard) = options.shard {
        stems.retain(|name, _| shard.holds(name));
        println!(
            "shard {shard}: {} of the {} submission(s)",
            stems.len(),
            class.submissions.len()
        );
    }
    let subs: Vec<(String, PathBuf)> = class
        .submissions
        .iter()
        .filter(|s| stems.contains_key(&s.name))
        .map(|s| (s.name.clone(), s.path.clone()))
        .collect();
    say_what_a_stop_keeps(out);
    let results = session.result_cache(ctx.cache.dir().join("results"), options.force);
    let (reports, reused) = grade_and_write(&session, &subs, out, options, &stems, &who, &results)?;
    let reused_names: BTreeSet<String> = subs
        .iter()
        .zip(&reused)
        .filter(|(_, r)| **r)
        .map(|((name, _), _)| name.clone())
        .collect();
    let reused = reused_names.len();
    write_class_outputs(problem, out, options, &reports)?;
    write_class_csv(
        &out.join("class.csv"),
        &class,
        &who,
        &stems,
        &reused_names,
        roster.as_ref(),
        &fixes_of(&reports),
    )?;
    println!("{}", csv::summary_table(&reports, ctx.color).trim_end());
    print!("{}", listed(&class.skipped));
    if roster.is_some() {
        let unknown: Vec<String> = class
            .submissions
            .iter()
            .filter(|s| stems.contains_key(&s.name) && !who[&s.name].on_roster)
            .map(|s| names::printable(&s.name))
            .collect();
        if !unknown.is_empty() {
            println!("not on the roster: {}", unknown.join(", "));
        }
    }
    if reused > 0 {
        println!(
            "reused {reused} of {} result(s) from an earlier run (--force grades all again)",
            reports.len()
        );
    }
    if let Some(shard) = options.shard {
        // Written last: a shard directory with its manifest is a finished shard.
        write_shard_manifest(problem, out, options, shard, &all_names, &stems)?;
    }
    println!(
        "wrote {} report(s), grades.csv, class.csv and report.html{} to {}",
        reports.len(),
        if options.shard.is_some() {
            " and shard.json"
        } else {
            ""
        },
        out.display()
    );
    if let Some(line) = csv::unresolved_line(&reports, csv::GRADE_AGAIN) {
        println!("{line}");
    }
    Ok(exit_codes::of_reports(&reports))
}
