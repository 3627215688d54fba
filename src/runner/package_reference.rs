//! A package's reference, run: the instructor's C or C++ solution is built with the same
//! recipes and instrumentation as a student's and run in the same sandbox, once per distinct
//! input; what it returns, writes back, prints, and how often and how deep its counted
//! functions run become every case's expectation. It is never loaded into labgrade's own
//! process. A reference that does not build, crashes, runs out of time or cannot be counted
//! where a case compares counts is the instructor's error, named with the file and the case.

use std::collections::BTreeMap;

use serde_json::Value;

use super::plan::{plan, Step};
use super::SessionOptions;
use crate::package::{checker, mistakes, Package};
use crate::problems::precomputed::{case_key, Entry, Precomputed};
use crate::problems::{self, Expected, Params, Problem, RefOutcome, TraceStep};
use crate::sandbox::{Ending, Observation, RunInput, RunRequest, WorkerPool};
use crate::spec::{Case, CompareItem, ProblemSpec, SpecError};

/// Builds `package`'s reference and runs it on every case's input: the expectations, in
/// the form a student bundle's precomputed ones take (read the same way, one code path).
/// They are kept in the build cache, keyed by everything they depend on and sealed with
/// the user's cache key, so a package is run once until its reference, spec, cases or
/// labgrade change (and its cases' time limits, derived from the reference's CPU time,
/// stay the same from one grading to the next).
pub fn expectations(
    package: &Package,
    code: &'static dyn Problem,
    spec: &ProblemSpec,
    cases: &[Case],
    params: &Params,
    options: &SessionOptions,
    pool: &WorkerPool,
) -> Result<Precomputed, SpecError> {
    // The reference calls the package's world as students' code does; its answers are shown
    // to the package's checker.
    super::package_build::build_libraries(package, code, spec, options)?;
    let job = Job {
        package,
        code,
        spec,
        cases,
        params,
        options,
    };
    let key = cache_key(&job)?;
    let kept = Kept::new(options, &key);
    let found = match kept.as_ref().and_then(Kept::read) {
        Some(found) => found,
        None => {
            let ran = run(&job, pool)?;
            checker_accepts_the_reference(&job, &ran)?;
            if let Some(kept) = kept {
                kept.write(&ran);
            }
            ran
        }
    };
    // Kept or fresh, what a fixture states literally must be what the reference does.
    for case in cases {
        let input = problems::run_input(code, case)?;
        if let Some(entry) = found.entries.get(&case_key(&input)) {
            agrees_with_the_fixture(case, &entry.expected)?;
        }
    }
    Ok(found)
}

/// A package's cases, to give expectations for.
#[derive(Clone, Copy)]
struct Job<'a> {
    package: &'a Package,
    code: &'static dyn Problem,
    spec: &'a ProblemSpec,
    cases: &'a [Case],
    params: &'a Params,
    options: &'a SessionOptions,
}

impl Job<'_> {
    /// The run of `artifact` (the reference's, a mistake's) on `input`, `case`'s.
    fn request(
        &self,
        id: usize,
        artifact: crate::sandbox::Artifact,
        input: RunInput,
        case: &Case,
    ) -> RunRequest {
        RunRequest {
            id: id as u64,
            problem: self.code.name().to_string(),
            artifact,
            input,
            limits: case.limits,
            shares_child: false,
            package: Some(self.package.interface()),
        }
    }

    /// The cases a named mistake runs: those that compare what a call returns.
    fn answered(&self) -> impl Iterator<Item = &Case> {
        self.cases
            .iter()
            .filter(|c| c.compare.contains(&CompareItem::Return))
    }
}

/// A mistake and the index in the requests of its run on each input (by [`case_key`]).
type MistakeRuns = Vec<(mistakes::Mistake, BTreeMap<String, usize>)>;

/// Builds each named mistake and adds its runs, one per distinct input of the cases that
/// compare a return, to `requests` (a case the mistake cannot run, lacking a function, gets
/// no answer of it).
fn plan_mistakes(job: &Job<'_>, requests: &mut Vec<RunRequest>) -> Result<MistakeRuns, SpecError> {
    let mut planned = Vec::new();
    for mistake in mistakes::all(job.package)? {
        // Known by its evidence alone: nothing to build or run.
        if mistake.evidence.is_some() {
            continue;
        }
        let what = format!("mistake `{}`", mistake.name);
        let prepared =
            super::package_build::prepare(job.code, job.spec, job.options, &mistake.dir, &what)?;
        let mut runs = BTreeMap::new();
        for case in job.answered() {
            let input = problems::run_input(job.code, case)?;
            let key = case_key(&input);
            if runs.contains_key(&key) {
                continue;
            }
            if let Step::Run(artifact) = plan(job.code, &prepared, &input) {
                runs.insert(key, requests.len());
                requests.push(job.request(requests.len(), artifact, input, case));
            }
        }
        planned.push((mistake, runs));
    }
    Ok(planned)
}

/// Every case's evidence of the named mistakes: each one's answers, by case.
fn mistakes_evidence(
    job: &Job<'_>,
    planned: &MistakeRuns,
    observations: &[crate::sandbox::Observation],
    reference_calls: BTreeMap<String, BTreeMap<String, u64>>,
) -> Result<serde_json::Map<String, Value>, SpecError> {
    let mut answers = BTreeMap::new();
    for (mistake, runs) in planned {
        let mut known = mistakes::Answers {
            says: mistake.says.clone(),
            ..Default::default()
        };
        for case in job.answered() {
            let key = case_key(&problems::run_input(job.code, case)?);
            let Some(obs) = runs.get(&key).map(|&run| &observations[run]) else {
                continue;
            };
            if let Some(answer) = mistakes::answer_of(&obs.ending, obs.value.as_ref()) {
                known.answers.insert(case.name().to_string(), answer);
            }
        }
        answers.insert(mistake.name.clone(), known);
    }
    let by_evidence = mistakes::ByEvidence {
        mistakes: mistakes::all(job.package)?
            .into_iter()
            .filter_map(|m| m.evidence.map(|e| (m.name, (m.says, e))))
            .collect(),
        reference_calls,
    };
    Ok(mistakes::evidence(&answers, &by_evidence))
}

/// What a package's expectations depend on: labgrade (its version, its own executable and
/// the worker's), the package's spec, headers and reference, labgrade's libraries, every
/// case's input and limits, and the parameters in force.
fn cache_key(job: &Job<'_>) -> Result<String, SpecError> {
    use super::results::add_bytes;
    use sha2::Digest;
    let (package, spec) = (job.package, job.spec);
    let mut h = sha2::Sha256::new();
    super::results::add_grader(&mut h, &job.options.worker_exe);
    add_bytes(&mut h, "spec", package.spec_text.as_bytes());
    let trees = [
        ("reference", package.reference_dir()),
        ("world", package.world_dir()),
        ("checker", package.checker_dir()),
        ("mistakes", package.dir.join(mistakes::DIR)),
        ("headers", spec.include_dir.clone()),
        ("lib", spec.lib_dir.clone()),
    ];
    for (name, tree) in &trees {
        for rel in crate::submission::build::tree_files(tree) {
            let data = std::fs::read(tree.join(&rel)).unwrap_or_default();
            add_bytes(&mut h, &format!("{name}:{}", rel.display()), &data);
        }
    }
    for case in job.cases {
        let input = problems::run_input(job.code, case)?;
        add_bytes(&mut h, "input", case_key(&input).as_bytes());
        add_bytes(&mut h, "limits", format!("{:?}", case.limits).as_bytes());
        add_bytes(&mut h, "compare", format!("{:?}", case.compare).as_bytes());
    }
    add_bytes(&mut h, "params", format!("{:?}", job.params).as_bytes());
    Ok(super::results::hex(&h.finalize()))
}

/// A package's expectations kept in the cache, sealed.
struct Kept {
    path: std::path::PathBuf,
    key: String,
    secret: Vec<u8>,
}

/// A kept record: the expectations' JSON text and its seal.
#[derive(serde::Serialize, serde::Deserialize)]
struct Record {
    key: String,
    expectations: String,
    mac: String,
}

impl Kept {
    /// Where `key`'s expectations are kept; None without a cache key (nothing is kept then).
    fn new(options: &SessionOptions, key: &str) -> Option<Kept> {
        let dir = options.cache.dir().join("package-expectations");
        Some(Kept {
            secret: crate::submission::cache_secret::secret(&dir).ok()?,
            path: dir.join(format!("{key}.json")),
            key: key.to_string(),
        })
    }

    /// What the seal covers: the key and the expectations' exact text.
    fn sealed(&self, text: &str) -> Vec<u8> {
        format!("{}\n{text}", self.key).into_bytes()
    }

    /// The kept expectations, when there are and their seal holds (a record someone without
    /// the cache key wrote or changed is run again).
    fn read(&self) -> Option<Precomputed> {
        let record: Record =
            serde_json::from_str(&std::fs::read_to_string(&self.path).ok()?).ok()?;
        let sealed = self.sealed(&record.expectations);
        if record.key != self.key
            || !crate::submission::cache_secret::verify(&self.secret, &sealed, &record.mac)
        {
            eprintln!(
                "labgrade: the kept expectations `{}` failed their authentication (written or \
                 changed by someone without your cache key): the reference is run again",
                self.path.display()
            );
            return None;
        }
        serde_json::from_str(&record.expectations).ok()
    }

    /// Keeps `expectations` (a failure to write only means running them again next time).
    fn write(&self, expectations: &Precomputed) {
        let Some(parent) = self.path.parent() else {
            return;
        };
        let Ok(text) = serde_json::to_string(expectations) else {
            return;
        };
        let record = Record {
            key: self.key.clone(),
            mac: crate::submission::cache_secret::mac(&self.secret, &self.sealed(&text)),
            expectations: text,
        };
        let Ok(json) = serde_json::to_string(&record) else {
            return;
        };
        if std::fs::create_dir_all(parent).is_ok() {
            if let Ok(mut tmp) = tempfile::NamedTempFile::new_in(parent) {
                if std::io::Write::write_all(&mut tmp, json.as_bytes()).is_ok() {
                    let _ = tmp.persist(&self.path);
                }
            }
        }
    }
}

/// Builds and runs the reference (see [`expectations`]).
fn run(job: &Job<'_>, pool: &WorkerPool) -> Result<Precomputed, SpecError> {
    let Job {
        package,
        code,
        spec,
        cases,
        params,
        options,
    } = *job;
    let dir = package.reference_dir();
    if !dir.is_dir() {
        return Err(SpecError::Invalid {
            path: dir,
            line: 0,
            message: "the package has no reference/ directory: put the instructor's solution \
                      there (C or C++, exporting the graded functions)"
                .into(),
        });
    }
    let prepared = super::package_build::prepare(code, spec, options, &dir, "reference")?;
    // One run per distinct input, under the case's own limits (not yet derived from the
    // reference's time: that is what this measures).
    let mut requests: Vec<RunRequest> = Vec::new();
    // Each run's index, and what the cases that share it compare (one expectation serves
    // them all: it holds what any of them needs).
    let mut run_of: BTreeMap<String, (usize, Wants)> = BTreeMap::new();
    for case in cases {
        let input = problems::run_input(code, case)?;
        let key = case_key(&input);
        let wants = Wants::of(case);
        if let Some((_, shared)) = run_of.get_mut(&key) {
            shared.add(wants);
        } else {
            let artifact = match plan(code, &prepared, &input) {
                Step::Run(a) => a,
                Step::Settled(_, message) => {
                    return Err(case.invalid(format!(
                        "the reference cannot run this case: {}",
                        message.replace("your submission", "the reference")
                    )))
                }
            };
            run_of.insert(key, (requests.len(), wants));
            requests.push(job.request(requests.len(), artifact, input, case));
        }
    }
    let mistakes = plan_mistakes(job, &mut requests)?;
    let observations = pool.run_all(&requests, &|_, _| {});
    // The reference's calls on every case that compares them: what a mistake known by its
    // evidence is judged on, across the submission's runs.
    let mut reference_calls = BTreeMap::new();
    for case in cases
        .iter()
        .filter(|c| c.compare.contains(&CompareItem::Calls))
    {
        let key = case_key(&problems::run_input(code, case)?);
        if let Some(counts) = run_of
            .get(&key)
            .and_then(|(run, _)| observations[*run].counts.as_ref())
        {
            reference_calls.insert(case.name().to_string(), counts.calls.clone());
        }
    }
    let evidence = mistakes_evidence(job, &mistakes, &observations, reference_calls)?;
    let mut entries = BTreeMap::new();
    for case in cases {
        let key = case_key(&problems::run_input(code, case)?);
        if entries.contains_key(&key) {
            continue;
        }
        let (run, wants) = run_of[&key];
        let (request, obs) = (&requests[run], &observations[run]);
        let mut expected = expected_of(&request.input, obs, wants, code.counted())
            .map_err(|m| case.invalid(format!("the reference {m}")))?;
        expected.evidence.extend(evidence.clone());
        entries.insert(
            key,
            Entry {
                expected,
                reference_ms: super::reference_time::on_grid(obs.cpu_ms),
                shared: Vec::new(),
            },
        );
    }
    // The mistakes' answers are the same in every entry: kept once.
    let shared = crate::problems::precomputed::share_alike_facts(&mut entries);
    Ok(Precomputed {
        problem: code.name().to_string(),
        labgrade: env!("CARGO_PKG_VERSION").to_string(),
        params: params.clone(),
        entries,
        shared,
    })
}

/// Where any valid answer is accepted, the package's checker must accept the reference's
/// own: otherwise the checker (or the reference) is wrong, and the instructor is told which
/// case and what the checker said.
fn checker_accepts_the_reference(job: &Job<'_>, ran: &Precomputed) -> Result<(), SpecError> {
    let Some(abi) = crate::problems::kit::abi(job.code.name()) else {
        return Ok(());
    };
    for case in job.cases {
        let checked = case.compare.contains(&CompareItem::Return)
            && !case
                .tags
                .iter()
                .any(|t| t == crate::problems::kit::judge::EXACT_TAG);
        let input = problems::run_input(job.code, case)?;
        let RunInput::Call { function, args } = &input else {
            continue;
        };
        let Some(f) = abi.def().function.iter().find(|f| &f.name == function) else {
            continue;
        };
        let Some(entry) = ran.entries.get(&case_key(&input)) else {
            continue;
        };
        let RefOutcome::Returns(Value::Object(answer)) = &entry.expected.outcome else {
            continue;
        };
        if !(checked && f.any_valid) {
            continue;
        }
        let (own, _, _) = crate::problems::kit::call::split_args(f, args);
        let verdict = checker::check(&crate::problems::kit::CheckCall {
            problem: job.code.name(),
            function,
            args: own,
            params: job.params,
            expected: answer,
            got: answer,
            tags: &case.tags,
        });
        if let Err(why) = verdict {
            return Err(case.invalid(format!(
                "the package's checker rejects the reference's own answer ({why}): correct the \
                 one that is wrong"
            )));
        }
    }
    Ok(())
}

/// What the cases that share one run compare, beyond its value.
#[derive(Clone, Copy)]
struct Wants {
    /// What a call printed.
    stdout: bool,
    /// The counted functions' calls or depth.
    counts: bool,
}

impl Wants {
    fn of(case: &Case) -> Wants {
        Wants {
            stdout: case.compare.contains(&CompareItem::Stdout),
            counts: case
                .compare
                .iter()
                .any(|c| matches!(c, CompareItem::Calls | CompareItem::MaxDepth)),
        }
    }

    fn add(&mut self, other: Wants) {
        self.stdout |= other.stdout;
        self.counts |= other.counts;
    }
}

/// A case that compares calls or depth needs a counted function, and every counted name
/// must be a function the reference defines: otherwise both sides count nothing, `{}` is
/// compared with `{}`, and every submission passes.
fn counts_something(obs: &Observation, counted: &[&str]) -> Result<(), String> {
    if counted.is_empty() {
        return Err(
            "is compared on its calls or depth, but the spec's [kit] counted names no \
                    function: name the reference's recursive functions there"
                .into(),
        );
    }
    let Some(counts) = &obs.counts else {
        return Ok(()); // said below, with why no counts came back
    };
    let missing: Vec<&str> = counted
        .iter()
        .copied()
        .filter(|n| !counts.calls.contains_key(*n))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "defines no function {} that the spec's [kit] counted names, so its calls cannot be \
         counted: counted must name the reference's own functions, spelt as it spells them",
        missing
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// What the reference did on `input` (observed as `obs`) as the expectation of the cases
/// that share the run, which compare what `wants` says; Err says what went wrong, after
/// "the reference".
fn expected_of(
    input: &RunInput,
    obs: &Observation,
    wants: Wants,
    counted: &[&str],
) -> Result<Expected, String> {
    let whole_program = matches!(input, RunInput::Program { .. });
    match (&obs.ending, whole_program) {
        (Ending::Returned, _) | (Ending::Exited { .. }, true) => {}
        (ending, _) => {
            let why = obs.stderr.lines().last().unwrap_or_default();
            return Err(format!(
                "{} on this case{}: the expectations come from the reference, so it must run \
                 every case to its end within the case's limits",
                words(ending),
                if why.is_empty() {
                    String::new()
                } else {
                    format!(" ({why})")
                }
            ));
        }
    }
    if wants.counts {
        counts_something(obs, counted)?;
    }
    let (calls, max_depth, trace) = match &obs.counts {
        Some(c) => (
            c.calls.clone(),
            c.max_depth.clone(),
            c.trace
                .steps()
                .filter_map(|(name, depth)| {
                    Some(TraceStep {
                        function: name?.to_string(),
                        arg: "...".into(),
                        depth,
                    })
                })
                .collect(),
        ),
        None if wants.counts => {
            return Err(format!(
                "could not be counted: {} (the counted functions must be the reference's own, \
                 with the names the spec's [kit] counted gives)",
                obs.counts_note.as_deref().unwrap_or("no counts came back")
            ))
        }
        None => Default::default(),
    };
    let mut value = obs.value.clone().unwrap_or(Value::Null);
    let world = value.as_object_mut().and_then(|m| m.remove("world"));
    if world
        .as_ref()
        .is_some_and(|w| w.get("lost") == Some(&Value::Bool(true)))
    {
        return Err(format!(
            "lost its channel to the package's world on this case (every answer after that \
             was -1): neither the reference nor the world library may write to or close \
             descriptors {} and {}",
            crate::problems::kit::remote_world::FROM_HOST_FD,
            crate::problems::kit::remote_world::TO_HOST_FD
        ));
    }
    let (outcome, stdout, exit_status) = if whole_program {
        let status = obs.exit_status.unwrap_or(0);
        (
            RefOutcome::Returns(Value::from(status)),
            Some(obs.stdout.clone()),
            Some(status),
        )
    } else {
        (
            RefOutcome::Returns(value),
            wants.stdout.then(|| obs.stdout.clone()),
            None,
        )
    };
    Ok(Expected {
        outcome,
        calls,
        max_depth,
        trace,
        stdout,
        exit_status,
        world,
        evidence: Default::default(),
    })
}

/// A case that states its expectation literally (`expect = { ... }`) must say what the
/// reference does: otherwise the fixture or the reference is wrong, and the instructor is
/// told which case and what each says.
fn agrees_with_the_fixture(case: &Case, reference: &Expected) -> Result<(), SpecError> {
    let stated = super::literal_overrides(case, reference.clone())?;
    let shown = |e: &Expected| match &e.outcome {
        RefOutcome::Returns(v) => v.to_string(),
        RefOutcome::Diverges => "a stack overflow".into(),
    };
    let differs = [
        (stated.outcome != reference.outcome).then(|| {
            format!(
                "return: the fixture says {}, the reference gives {}",
                shown(&stated),
                shown(reference)
            )
        }),
        (stated.stdout != reference.stdout).then(|| {
            format!(
                "stdout: the fixture says {:?}, the reference prints {:?}",
                stated.stdout.as_deref().unwrap_or_default(),
                reference.stdout.as_deref().unwrap_or_default()
            )
        }),
        (stated.exit_status != reference.exit_status).then(|| {
            format!(
                "exit_status: the fixture says {:?}, the reference ends with {:?}",
                stated.exit_status, reference.exit_status
            )
        }),
        (stated.calls != reference.calls).then(|| {
            format!(
                "calls: the fixture says {:?}, the reference makes {:?}",
                stated.calls, reference.calls
            )
        }),
        (stated.max_depth != reference.max_depth).then(|| {
            format!(
                "max_depth: the fixture says {:?}, the reference reaches {:?}",
                stated.max_depth, reference.max_depth
            )
        }),
    ];
    let differs: Vec<String> = differs.into_iter().flatten().collect();
    if differs.is_empty() {
        return Ok(());
    }
    Err(case.invalid(format!(
        "the fixture's `expect` and the reference disagree ({}): correct the one that is wrong",
        differs.join("; ")
    )))
}

/// How a run of the reference ended, in words, after "the reference".
fn words(ending: &Ending) -> String {
    match ending {
        Ending::Returned => "returned".into(),
        Ending::Exited { code } => format!("exited with status {code}"),
        Ending::Signaled { name, .. } => format!("was killed by {name}"),
        Ending::StackOverflow => "overflowed the stack".into(),
        Ending::WallTimeout => "ran out of time (the case's wall_ms)".into(),
        Ending::CpuTimeout => "ran out of CPU time (the case's cpu_seconds)".into(),
        Ending::MemoryLimit => "ran out of memory (the case's memory_mb)".into(),
        Ending::OutputLimit => "printed more than the case's output_kb".into(),
        Ending::Forbidden { syscall } => format!(
            "made a system call the sandbox forbids{}",
            syscall
                .as_deref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default()
        ),
        Ending::NoReport => "ended without its report (it closed labgrade's channel)".into(),
        Ending::MissingSymbol { name } => format!("has no `{name}`"),
        Ending::LoadError { message } => format!("could not be loaded: {message}"),
        Ending::Crashed { message } => format!("crashed: {message}"),
        Ending::Skipped { .. } => "was not run".into(),
        Ending::InternalError { message } => format!("could not be run by labgrade: {message}"),
    }
}
