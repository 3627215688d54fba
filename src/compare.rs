//! Observations against expectations: the verdict of one case and the words that explain it.
//!
//! Runs in the grader, never in the child. The order of judgement follows what contest
//! judges do: how the run ended first (a timeout is a timeout even if the output was right so
//! far), then each compared item. A case can compare several items; the first that differs
//! makes it `fail`, and an item this artifact cannot show (call counts of a prebuilt library)
//! makes it `not-observable`. A measurement the submission's own code hides (a counted
//! function it does not define, a function compiled without the counting hooks, hooks of its
//! own) is its failure: a student cannot make a case vanish.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::problems::{Expected, Mismatch, Problem, RefOutcome, Runs};
use crate::report::{CaseReport, Verdict};
use crate::sandbox::{Ending, Observation, RunInput};
use crate::spec::{Case, CompareItem};
use crate::transcript::{self, Comparison};

/// What a submission's build tells about measurements its code hides.
#[derive(Debug, Default, Clone, Copy)]
pub struct Hides<'a> {
    /// Why no call is counted in it, when its code is the reason (hooks of its own).
    pub uncounted: Option<&'a str>,
    /// For a function labgrade did not find: what the submission has instead (a near
    /// spelling) and what to do, by the assignment's name.
    pub hints: Option<&'a BTreeMap<String, String>>,
    /// Functions its source compiled without the counting hooks, as it spells them.
    pub uninstrumented: &'a [String],
    /// Why its calls into labgrade's library are not seen, when the course's form of the
    /// function takes the library's state itself (decided by the grader, never the run).
    pub world: Option<&'a str>,
}

/// Judges one run.
pub fn judge(
    problem: &dyn Problem,
    case: &Case,
    input: &RunInput,
    expected: &Expected,
    obs: &Observation,
    runs: &Runs<'_>,
    hides: Hides<'_>,
) -> CaseReport {
    let mut observed = Map::new();
    let mut want = Map::new();
    let call = problem
        .describe_call(input)
        .unwrap_or_else(|| describe_call(input));
    // A function called in another form a text gives is judged in that form's terms.
    let in_form = obs
        .value
        .as_ref()
        .and_then(|v| v.get(crate::problems::kit::FORM_KEY))
        .and_then(Value::as_str)
        .and_then(|form| problem.in_form(form, input, expected));
    let expected = in_form.as_ref().unwrap_or(expected);
    let (verdict, passed, message) = match &obs.ending {
        Ending::Returned | Ending::Exited { .. } if ended_normally(input, &obs.ending) => {
            if expected.outcome == RefOutcome::Diverges && matches!(input, RunInput::Call { .. }) {
                if let Some(v) = &obs.value {
                    observed.insert("return".into(), v.clone());
                }
                want.insert("outcome".into(), json!("stack-overflow"));
                (
                    Verdict::Pass,
                    true,
                    format!(
                        "the book's code never reaches a base case for {call} (it overflows the \
                         stack); yours returned {}, which is fine",
                        obs.value.clone().unwrap_or(Value::Null)
                    ),
                )
            } else {
                compare_items(
                    problem,
                    case,
                    input,
                    expected,
                    obs,
                    runs,
                    hides,
                    &mut observed,
                    &mut want,
                )
            }
        }
        Ending::StackOverflow if expected.outcome == RefOutcome::Diverges => {
            want.insert("outcome".into(), json!("stack-overflow"));
            observed.insert("outcome".into(), json!("stack-overflow"));
            (
                Verdict::StackOverflow,
                true,
                format!(
                    "{call} recursed until the stack overflowed, exactly as the book's code does \
                     (it never reaches its base case here); labgrade stopped it cleanly"
                ),
            )
        }
        ending => {
            let (v, m) = match ending {
                Ending::MissingSymbol { name } => {
                    match problem.missing_message(name, obs.value.as_ref()) {
                        Some(m) => (Verdict::MissingSymbol, m),
                        None => abnormal(ending, obs, &call, case),
                    }
                }
                _ => abnormal(ending, obs, &call, case),
            };
            observed.insert("outcome".into(), json!(v.as_str()));
            match &expected.outcome {
                RefOutcome::Returns(r) if case.compare.contains(&CompareItem::Return) => {
                    want.insert("return".into(), r.clone());
                }
                RefOutcome::Diverges => {
                    want.insert("outcome".into(), json!("stack-overflow"));
                }
                _ => {}
            }
            if let Some(s) = &expected.stdout {
                if case.compare.contains(&CompareItem::Stdout) {
                    want.insert("stdout".into(), json!(s));
                    observed.insert("stdout".into(), json!(obs.stdout));
                }
            }
            add_depth_reached(obs, &mut observed);
            (v, false, m)
        }
    };
    // labgrade's own failure is not the student's, but it never removes a case from the points
    // available either (a child that could declare one would drop the cases it fails): the
    // case is unresolved, scores nothing until it is run again, and the report says so.
    let max_score = case.points;
    CaseReport {
        name: case.name().to_string(),
        verdict,
        passed,
        score: if passed { max_score } else { 0.0 },
        max_score,
        observed: Value::Object(observed),
        expected: Value::Object(want),
        message,
        visibility: case.visibility,
        tags: case.tags.clone(),
        time_ms: obs.wall_ms,
        note: false,
        follows: None,
    }
}

fn ended_normally(input: &RunInput, ending: &Ending) -> bool {
    matches!(
        (input, ending),
        (_, Ending::Returned) | (RunInput::Program { .. }, Ending::Exited { .. })
    )
}

/// `FindGoodMove(7)` or `the program`.
pub fn describe_call(input: &RunInput) -> String {
    match input {
        RunInput::Call { function, args } => {
            let args: Vec<String> = args.iter().map(shown_arg).collect();
            format!("{function}({})", args.join(", "))
        }
        RunInput::Program { .. } => "the program".into(),
    }
}

/// An argument as a reader writes it: a case's named inputs (`{"n": 100, "seed": 4}`) as
/// `n = 100, seed = 4`, a long list as how many values it has.
fn shown_arg(arg: &Value) -> String {
    match arg {
        Value::Object(fields) => fields
            .iter()
            .map(|(k, v)| format!("{k} = {}", shown_arg(v)))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Array(items) if arg.to_string().len() > 40 => format!("{} values", items.len()),
        other => other.to_string(),
    }
}

/// The calls made and the depth reached by a run that did not return. Not for a run stopped
/// at a time limit: what it had counted by then depends on how fast the machine ran it, and a
/// report holds only what the submission decides.
fn add_depth_reached(obs: &Observation, observed: &mut Map<String, Value>) {
    if matches!(obs.ending, Ending::CpuTimeout | Ending::WallTimeout) {
        return;
    }
    if let Some(c) = &obs.counts {
        if !c.max_depth.is_empty() {
            observed.insert("max_depth".into(), json!(c.max_depth));
        }
        observed.insert("calls".into(), json!(c.calls));
    }
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Rust's words when a C++ exception reaches the worker's frames.
const FOREIGN_EXCEPTION: &str = "Rust cannot catch foreign exceptions";

/// C++'s words for an exception nothing caught (libstdc++'s, and labgrade's C++ helper's).
const TERMINATE_AFTER: &str = "terminate called after throwing an instance of '";

/// For a run that aborted because a C++ exception escaped the student's code (labgrade's
/// worker cannot catch one): what was thrown, from what labgrade's C++ helper wrote, as the
/// rest of a sentence about the call; None for any other abort.
fn uncaught_exception(stderr: &str) -> Option<String> {
    if !stderr.contains(FOREIGN_EXCEPTION) {
        return None;
    }
    let nothing_caught = "which nothing in your code caught (labgrade calls your function \
                          from outside C++, so an exception that leaves it ends the run)";
    let Some(at) = stderr.rfind(TERMINATE_AFTER) else {
        return Some(format!("threw a C++ exception, {nothing_caught}"));
    };
    let rest = &stderr[at + TERMINATE_AFTER.len()..];
    let ty = rest.split('\'').next().unwrap_or_default();
    let what = rest
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("what():"))
        .map(str::trim);
    Some(match what {
        Some(w) => format!("threw {ty} (what(): \"{w}\"), {nothing_caught}"),
        None => format!("threw {ty}, {nothing_caught}"),
    })
}

fn abnormal(ending: &Ending, obs: &Observation, call: &str, case: &Case) -> (Verdict, String) {
    let stderr = tail(&obs.stderr, 5);
    let with_stderr = |m: String| {
        if stderr.trim().is_empty() {
            m
        } else {
            format!("{m}\nlast lines of standard error:\n{stderr}")
        }
    };
    match ending {
        Ending::WallTimeout => (
            Verdict::Timeout,
            format!(
                "{call} did not finish within {} ms of wall time: an infinite loop, or waiting for \
                 input that never comes?",
                case.limits.wall_ms
            ),
        ),
        Ending::CpuTimeout => (
            Verdict::Timeout,
            format!(
                "{call} used more than {} of CPU time, its limit on this input: an infinite \
                 loop, or a search that never stops?",
                cpu_shown(case.limits.cpu_limit_ms())
            ),
        ),
        Ending::MemoryLimit => (
            Verdict::MemoryLimit,
            with_stderr(format!(
                "{call} ran out of memory (limit {} MiB)",
                case.limits.memory_mb
            )),
        ),
        Ending::StackOverflow => {
            let depth = obs
                .counts
                .as_ref()
                .map(|c| format!(" after reaching depth {}", c.total_max_depth))
                .unwrap_or_default();
            (
                Verdict::StackOverflow,
                format!(
                    "{call} overflowed its {} MiB stack{depth}: the recursion never reaches a base \
                     case (check the simple case, and that each call makes the problem smaller)",
                    case.limits.stack_mb
                ),
            )
        }
        // Only a whole program ends at the output cap: a graded function's writes past it
        // fail and the call goes on (the child ignores SIGXFSZ, as the JVM does itself).
        Ending::OutputLimit => (
            Verdict::OutputLimit,
            format!(
                "{call} printed more than {} KiB of output and was stopped (a loop that keeps \
                 printing, for instance asking again for input that has run out?)",
                case.limits.output_kb
            ),
        ),
        Ending::Signaled { name, .. } => match uncaught_exception(&obs.stderr) {
            Some(what) => (Verdict::Crash, format!("{call} {what}")),
            None => (
                Verdict::Crash,
                with_stderr(format!("{call} crashed with {name}")),
            ),
        },
        Ending::Exited { code } => (
            Verdict::Crash,
            with_stderr(format!(
                "{call} ended the whole process (exit status {code}) instead of returning"
            )),
        ),
        Ending::Forbidden { syscall } => (Verdict::Forbidden, forbidden(call, syscall.as_deref())),
        Ending::NoReport => (
            Verdict::Crash,
            format!(
                "{call} returned, but labgrade's result channel had been closed or overwritten \
                 by your code, so nothing it returned can be trusted"
            ),
        ),
        Ending::MissingSymbol { name } => (
            Verdict::MissingSymbol,
            format!("your submission does not export `{name}`"),
        ),
        Ending::LoadError { message } => (Verdict::LoadError, message.clone()),
        Ending::Crashed { message } => (
            Verdict::Crash,
            with_stderr(format!("{call} ended abnormally: {message}")),
        ),
        Ending::Skipped { timeouts } => (
            Verdict::Skipped,
            format!(
                "not run: {timeouts} earlier cases of this submission timed out, as many as the \
                 problem allows (`max_timeouts`), so its remaining runs were not started; fix \
                 what never ends first"
            ),
        ),
        Ending::InternalError { message } => (
            Verdict::InternalError,
            format!(
                "labgrade failed to run this case (not your fault): {message}. The case is \
                 unresolved: its points are withheld, not removed, until it is run again"
            ),
        ),
        Ending::Returned => (Verdict::InternalError, "unexpected end".into()),
    }
}

/// What a student reads of a system call the sandbox refused.
fn forbidden(call: &str, syscall: Option<&str>) -> String {
    match syscall {
        Some(s) => format!(
            "{call} attempted `{s}`, which the sandbox forbids (no new processes, no exec, no \
             sockets, no tracing): an assignment needs none of these"
        ),
        // A program's (or the JVM's) own handlers replace labgrade's, so the call is not
        // known: say what does this, not a name that may be wrong.
        None => format!(
            "{call} attempted a system call the sandbox forbids, inside a program whose calls \
             labgrade cannot name: starting a process (fork, Runtime.exec, ProcessBuilder), \
             exec, a network socket or tracing does this, and an assignment needs none of these"
        ),
    }
}

/// What comparing a case's items found.
#[derive(Default)]
struct Findings {
    failures: Vec<String>,
    unobservable: Vec<String>,
    /// What the submission's own code keeps labgrade from measuring: failures, said apart
    /// from the differences (no explanation is drawn from them).
    hidden: Vec<String>,
    counts_differ: bool,
    /// Remarks on items that matched (an accepted alternative reading, say).
    notes: Vec<String>,
}

/// The expected and observed values a case's report shows, by item.
struct Shown<'a> {
    observed: &'a mut Map<String, Value>,
    want: &'a mut Map<String, Value>,
}

#[allow(clippy::too_many_arguments)]
fn compare_items(
    problem: &dyn Problem,
    case: &Case,
    input: &RunInput,
    expected: &Expected,
    obs: &Observation,
    runs: &Runs<'_>,
    hides: Hides<'_>,
    observed: &mut Map<String, Value>,
    want: &mut Map<String, Value>,
) -> (Verdict, bool, String) {
    let call = problem
        .describe_call(input)
        .unwrap_or_else(|| describe_call(input));
    let mut f = Findings::default();
    let mut shown = Shown { observed, want };
    if let Some(note) = printed_in_call(input, obs, &call) {
        f.notes.push(note);
    }
    for item in &case.compare {
        match item {
            CompareItem::Return => {
                let judged = compare_return(
                    problem, case, expected, obs, runs, &call, &mut f, &mut shown,
                );
                if let Err(why) = judged {
                    // labgrade's failure, not the student's: unresolved.
                    return (Verdict::InternalError, false, why);
                }
            }
            CompareItem::MaxDepth if hides.world.is_some() && problem.depth_needs_world() => {
                f.notes.push(
                    "the recursion's depth is not compared: it depends on the order the \
                     choices are tried in, which labgrade's header fixes and your course's \
                     form of the function does not"
                        .into(),
                );
            }
            CompareItem::Calls | CompareItem::MaxDepth => {
                compare_counts(*item, input, expected, obs, hides, &mut f, &mut shown);
            }
            CompareItem::Stdout => {
                let exp = expected.stdout.clone().unwrap_or_default();
                shown.want.insert("stdout".into(), json!(exp));
                shown.observed.insert("stdout".into(), json!(obs.stdout));
                match transcript::compare(&exp, &obs.stdout, case.output, &case.substance) {
                    Comparison::Same => {}
                    Comparison::EqualInMode(note) => f.notes.push(note),
                    Comparison::Different(m) => f.failures.push(m),
                }
            }
            CompareItem::World => compare_world_item(
                problem, case, expected, obs, hides, &call, &mut f, &mut shown,
            ),
            CompareItem::Sanitizer => {
                let report = sanitizer_report(&obs.stderr);
                shown.observed.insert(
                    "sanitizer".into(),
                    json!(report.clone().unwrap_or_else(|| "clean".into())),
                );
                shown.want.insert("sanitizer".into(), json!("clean"));
                if let Some(r) = report {
                    f.failures
                        .push(format!("AddressSanitizer/LeakSanitizer reported:\n{r}"));
                }
            }
            CompareItem::ExitStatus => {
                let exp = expected.exit_status.unwrap_or(0);
                shown.want.insert("exit_status".into(), json!(exp));
                shown
                    .observed
                    .insert("exit_status".into(), json!(obs.exit_status));
                if obs.exit_status != Some(exp) {
                    f.failures.push(format!(
                        "the program's exit status was {}; the reference program exits with {exp}",
                        obs.exit_status.map_or("unknown".into(), |c| c.to_string())
                    ));
                }
            }
        }
    }
    verdict_of(problem, case, expected, obs, runs, f)
}

/// The `return` item: the value (and what the call wrote back) against the reference's,
/// by the problem's own judgement where it has one. Err: labgrade could not judge.
#[allow(clippy::too_many_arguments)]
fn compare_return(
    problem: &dyn Problem,
    case: &Case,
    expected: &Expected,
    obs: &Observation,
    runs: &Runs<'_>,
    call: &str,
    f: &mut Findings,
    shown: &mut Shown<'_>,
) -> Result<(), String> {
    let got = obs.value.clone().unwrap_or(Value::Null);
    shown.observed.insert("return".into(), got.clone());
    let RefOutcome::Returns(r) = &expected.outcome else {
        return Ok(());
    };
    shown.want.insert("return".into(), r.clone());
    let Some(own) = problem.compare_return(case, r, &got, runs) else {
        if !same_value(r, &got) {
            f.failures
                .push(format!("{call} returned {got}; the reference returns {r}"));
        }
        return Ok(());
    };
    if let Some(why) = own.unjudged {
        return Err(why);
    }
    if own.observed_shown.is_null() && own.expected_shown.is_null() {
        // The problem's message says it all (a whole game's record).
        shown.observed.remove("return");
        shown.want.remove("return");
    } else {
        shown.observed.insert("return".into(), own.observed_shown);
        shown.want.insert("return".into(), own.expected_shown);
    }
    if !own.ok {
        f.failures.push(own.message);
    } else if !own.message.is_empty() {
        f.notes.push(own.message);
    }
    Ok(())
}

/// The `calls` or `max_depth` item: each counted function's count against the reference's,
/// or why the submission keeps it from being seen.
fn compare_counts(
    item: CompareItem,
    input: &RunInput,
    expected: &Expected,
    obs: &Observation,
    hides: Hides<'_>,
    f: &mut Findings,
    shown: &mut Shown<'_>,
) {
    let calls = item == CompareItem::Calls;
    let (key, table) = if calls {
        ("calls", &expected.calls)
    } else {
        ("max_depth", &expected.max_depth)
    };
    shown.want.insert(key.into(), json!(table));
    if let Some(note) = opted_out_of_counting(input, obs) {
        f.hidden.push(note);
        return;
    }
    let Some(counts) = &obs.counts else {
        match hides.uncounted {
            Some(why) => f.hidden.push(format!("{why} (this case grades them)")),
            None => f.unobservable.push(
                obs.counts_note
                    .clone()
                    .unwrap_or_else(|| "call counts are not observable".into()),
            ),
        }
        return;
    };
    if counts.forged > 0 {
        f.hidden.push(format!(
            "your code calls the profiling hooks (`__cyg_profile_func_enter/exit`) itself ({} \
             in this run), so the counts are not its calls' and this case cannot pass: remove \
             those calls (labgrade counts every call for you)",
            times(counts.forged)
        ));
        return;
    }
    let got = if calls {
        &counts.calls
    } else {
        &counts.max_depth
    };
    shown.observed.insert(key.into(), json!(got));
    for (function, &exp) in table {
        if hides
            .uninstrumented
            .iter()
            .any(|u| crate::submission::symbols::near_spelling(u, function))
        {
            f.hidden.push(format!(
                "`{function}` is compiled without labgrade's counting hooks (your source keeps \
                 it out: `no_instrument_function`, a pragma or a `#line`), so the calls this \
                 case grades cannot be seen and it cannot pass: compile it like the rest of \
                 your code"
            ));
            continue;
        }
        match got.get(function) {
            None => f.hidden.push(not_found_to_count(function, hides)),
            Some(&g) if g != exp => {
                f.counts_differ = true;
                f.failures.push(if calls {
                    format!(
                        "{function} was called {} by the reference and {} by yours",
                        times(exp),
                        times(g)
                    )
                } else {
                    format!(
                        "{function} reached recursion depth {exp} in the reference and {g} in \
                         yours"
                    )
                });
            }
            Some(_) => {}
        }
    }
}

/// The `world` item: the calls into labgrade's library against the reference's.
#[allow(clippy::too_many_arguments)]
fn compare_world_item(
    problem: &dyn Problem,
    case: &Case,
    expected: &Expected,
    obs: &Observation,
    hides: Hides<'_>,
    call: &str,
    f: &mut Findings,
    shown: &mut Shown<'_>,
) {
    if let Some(why) = hides.world {
        f.unobservable.push(why.to_string());
        return;
    }
    let Some(exp) = expected.world.clone() else {
        f.unobservable
            .push("this problem has no library of labgrade's to call".into());
        return;
    };
    let got = obs
        .value
        .as_ref()
        .and_then(|v| v.get("world"))
        .cloned()
        .unwrap_or(Value::Null);
    shown
        .want
        .insert("world".into(), problem.world_as_compared(case, &exp));
    shown
        .observed
        .insert("world".into(), problem.world_as_compared(case, &got));
    if let Err(m) = problem.compare_world(case, call, &exp, &got) {
        f.failures.push(m);
    }
}

/// The case's verdict from what its items found: differences first (with the problem's
/// explanation), then what the submission hid, then what no submission of the kind shows.
fn verdict_of(
    problem: &dyn Problem,
    case: &Case,
    expected: &Expected,
    obs: &Observation,
    runs: &Runs<'_>,
    mut f: Findings,
) -> (Verdict, bool, String) {
    if f.counts_differ {
        if let Some(step) = first_trace_difference(expected, obs) {
            f.failures.push(step);
        }
    }
    f.hidden.dedup();
    if f.failures.is_empty() && !f.hidden.is_empty() {
        return (Verdict::Fail, false, f.hidden.join("\n"));
    }
    if !f.failures.is_empty() {
        f.failures.extend(f.hidden);
        let mut message = f.failures.join("\n");
        if let Some(extra) = problem.explain(&Mismatch {
            case,
            expected,
            observed: obs,
            params: &case.params,
            runs,
        }) {
            message.push('\n');
            message.push_str(&extra);
        }
        return (Verdict::Fail, false, message);
    }
    if !f.unobservable.is_empty() {
        f.unobservable.dedup();
        return (
            Verdict::NotObservable,
            false,
            format!(
                "not observable for this submission: {} (everything observable matched)",
                f.unobservable.join("; ")
            ),
        );
    }
    (Verdict::Pass, true, f.notes.join("\n"))
}

/// What a graded function printed while it ran: shown, never graded (debug printing is
/// common in real code, and the assignment grades what the function returns).
fn printed_in_call(input: &RunInput, obs: &Observation, call: &str) -> Option<String> {
    if !matches!(input, RunInput::Call { .. }) || obs.stdout.trim().is_empty() {
        return None;
    }
    let lines: Vec<&str> = obs.stdout.lines().collect();
    let total = obs.stdout_lines.unwrap_or(lines.len());
    // A line is shown up to 160 characters: a function may print one of megabytes.
    let shown: Vec<String> = lines
        .iter()
        .take(3)
        .map(|l| match l.char_indices().nth(160) {
            Some((end, _)) => format!(
                "    {}… ({} more characters)",
                &l[..end],
                l[end..].chars().count()
            ),
            None => format!("    {l}"),
        })
        .collect();
    let more = total.saturating_sub(shown.len());
    let cut = if obs.stdout_capped {
        " before labgrade's output cap, and more that was discarded (remove debug printing \
         from the graded functions: it costs them time)"
    } else {
        ""
    };
    Some(format!(
        "{call} printed {} line(s) on standard output (not graded){cut}{}:\n{}{}",
        total,
        if more > 0 { "; the first 3" } else { "" },
        shown.join("\n"),
        if more > 0 {
            format!("\n    ... {more} more")
        } else {
            String::new()
        }
    ))
}

/// A function that returned normally but was counted zero times opted out of instrumentation
/// (`__attribute__((no_instrument_function))`): its counts say nothing, so they are not
/// observable rather than "0 calls".
fn opted_out_of_counting(input: &RunInput, obs: &Observation) -> Option<String> {
    let RunInput::Call { function, .. } = input else {
        return None;
    };
    let counts = obs.counts.as_ref()?;
    (counts.calls.get(function) == Some(&0)).then(|| {
        format!(
            "`{function}` ran but was never counted: it opts out of instrumentation \
             (no_instrument_function?), so the calls this case grades cannot be seen and it \
             cannot pass: compile it like the rest of your code"
        )
    })
}

/// Why a counted function's calls are missing when the submission has no function of that
/// name: what labgrade found instead (a near spelling), or what to check.
fn not_found_to_count(function: &str, hides: Hides<'_>) -> String {
    let head = format!(
        "labgrade found no `{function}` in your submission, so it cannot count the calls \
         this case grades and the case cannot pass"
    );
    match hides.hints.and_then(|h| h.get(function)) {
        Some(hint) => format!("{head}: {hint}"),
        None => format!(
            "{head}: define it under that name (camelCase or snake_case is found too, and so is \
             a `static` one)"
        ),
    }
}

fn same_value(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// `1 time`, `3 times`.
fn times(n: u64) -> String {
    if n == 1 {
        "once".into()
    } else {
        format!("{n} times")
    }
}

/// The error and summary lines a sanitizer printed, if it printed any, without the
/// process id sanitizers put in front of an error (`==7110==ERROR: ...`): it differs from
/// run to run, and a report must not.
fn sanitizer_report(stderr: &str) -> Option<String> {
    let without_pid = |l: &str| -> String {
        let pid = l
            .strip_prefix("==")
            .and_then(|rest| rest.split_once("=="))
            .filter(|(pid, _)| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
        match pid {
            Some((_, rest)) => rest.to_string(),
            None => l.to_string(),
        }
    };
    let lines: Vec<String> = stderr
        .lines()
        .filter(|l| {
            l.contains("ERROR: AddressSanitizer")
                || l.contains("ERROR: LeakSanitizer")
                || l.starts_with("SUMMARY: ")
                || l.trim_start().starts_with("Direct leak of")
                || l.trim_start().starts_with("Indirect leak of")
        })
        .map(without_pid)
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The first call where the student's recursion departs from the reference's, as far as the
/// traces show: the function entered and its depth. The student's arguments are not recorded,
/// so a call with other arguments but the same function and depth is not seen, and the
/// message says "first difference seen".
fn first_trace_difference(expected: &Expected, obs: &Observation) -> Option<String> {
    let counts = obs.counts.as_ref()?;
    // The student's own helpers are instrumented too; the reference's trace holds the
    // counted functions only, so the two are compared on those.
    let theirs: Vec<(&str, u32)> = counts
        .trace
        .steps()
        .filter_map(|(name, depth)| name.map(|n| (n, depth)))
        .collect();
    if expected.trace.is_empty() || theirs.is_empty() {
        return None;
    }
    // Past the kept events the student's filtered trace may simply end early.
    let complete = counts.events as usize == counts.trace.len();
    for (i, step) in expected.trace.iter().enumerate() {
        let Some(&(name, depth)) = theirs.get(i) else {
            if !complete {
                return None;
            }
            return Some(format!(
                "your recursion ended after {i} call{}, where the reference went on with \
                 {}({}) at depth {}",
                if i == 1 { "" } else { "s" },
                step.function,
                step.arg,
                step.depth
            ));
        };
        if name != step.function || depth != step.depth {
            return Some(format!(
                "first difference seen at call #{} (by function and depth; arguments are not \
                 compared): the reference entered {}({}) at depth {}; yours entered {name} at \
                 depth {depth}",
                i + 1,
                step.function,
                step.arg,
                step.depth
            ));
        }
    }
    if theirs.len() > expected.trace.len() && expected.trace.len() < 4096 {
        let (name, depth) = theirs[expected.trace.len()];
        return Some(format!(
            "after the reference's last call (#{}), yours went on into {name} at depth {depth}",
            expected.trace.len(),
        ));
    }
    None
}

/// A CPU limit as people read it: `250 ms`, `2 s`, `1.5 s`.
fn cpu_shown(ms: u64) -> String {
    match ms {
        ms if ms < 1000 => format!("{ms} ms"),
        ms if ms % 1000 == 0 => format!("{} s", ms / 1000),
        ms => format!("{:.1} s", ms as f64 / 1000.0),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_escaped_exception_is_said_in_c_plus_plus_words_and_nothing_else_is() {
        let stderr = "fatal runtime error: Rust cannot catch foreign exceptions, aborting\n\
                      terminate called after throwing an instance of 'std::out_of_range'\n  \
                      what():  Grid: index out of range\n";
        let said = uncaught_exception(stderr).unwrap();
        assert!(
            said.starts_with(
                "threw std::out_of_range (what(): \"Grid: index out of range\"), which nothing"
            ),
            "{said}"
        );
        let bare = "fatal runtime error: Rust cannot catch foreign exceptions, aborting\n";
        assert!(uncaught_exception(bare)
            .unwrap()
            .starts_with("threw a C++ exception"));
        // A C++ program's own terminate (no worker frames) or an assert is not this.
        assert_eq!(
            uncaught_exception("nim.cpp:12: main: Assertion `x' failed.\n"),
            None
        );
    }

    use super::{sanitizer_report, uncaught_exception};

    #[test]
    fn a_sanitizer_report_is_the_same_from_run_to_run() {
        let run = |pid: u32| {
            format!(
                "hello\n=={pid}==ERROR: LeakSanitizer: detected memory leaks\n\nDirect leak of 9 \
                 byte(s) in 1 object(s) allocated from:\n    #0 0x7f in malloc\nSUMMARY: \
                 AddressSanitizer: 9 byte(s) leaked in 1 allocation(s).\n"
            )
        };
        let report = sanitizer_report(&run(7110)).unwrap();
        assert_eq!(report, sanitizer_report(&run(7165)).unwrap());
        assert!(
            report.starts_with("ERROR: LeakSanitizer: detected memory leaks\nDirect leak of 9"),
            "{report}"
        );
        assert!(report.ends_with("leaked in 1 allocation(s)."), "{report}");
        assert_eq!(sanitizer_report("all is well\n"), None);
    }
}
