//! One problem, its cases and expectations, ready to grade any number of submissions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{json, Value};

use super::budget::TimeoutBudget;
use super::plan::{plan, Step};
use super::prepare::{prepare, Prepared};
use super::results::{ResultCache, SessionInputs};
use crate::compare::{judge, Hides};
use crate::problems::{self, Expected, Problem, RefOutcome};
use crate::report::{CaseReport, SubmissionReport, Verdict, Visibility};
use crate::sandbox::{Artifact, Ending, Observation, RunInput, RunRequest, WorkerPool};
use crate::spec::{load_fixtures, Case, Course, Isolation, Limits, ProblemSpec, Root, SpecError};
use crate::submission::BuildCache;

/// Which cases to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseFilter {
    /// Only cases students may see (`check` without `--all`).
    VisibleOnly,
    /// Every case.
    All,
}

/// Progress, for bars and logs.
#[derive(Debug, Clone)]
pub enum Event {
    /// A submission was prepared (built, or found unbuildable).
    Prepared {
        /// Its name.
        name: String,
    },
    /// A submission is graded: its report is final.
    Graded {
        /// Its position among the submissions graded.
        index: usize,
        /// The report.
        report: Box<SubmissionReport>,
    },
}

/// How a session runs things.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// The `labgrade-worker` binary (the sandbox; see [`crate::sandbox::pool::worker_next_to`]).
    pub worker_exe: PathBuf,
    /// Parallel slots (workers and builds).
    pub jobs: usize,
    /// Where builds are cached.
    pub cache: BuildCache,
    /// The instructor's course file, if any.
    pub course: Option<std::sync::Arc<Course>>,
}

/// A loaded problem.
pub struct Session {
    /// The problem's spec.
    pub spec: ProblemSpec,
    /// The problem's code.
    pub problem: &'static dyn Problem,
    /// Its cases, in fixture order.
    pub cases: Vec<Case>,
    inputs: Vec<RunInput>,
    expected: Vec<Expected>,
    options: SessionOptions,
    fixtures_dir: PathBuf,
    /// What every report's provenance shares, made on the first report.
    provenance: std::sync::OnceLock<Value>,
    /// The sandbox workers, kept from one grading to the next (a class is graded in waves).
    pool: WorkerPool,
}

/// At most this many submissions per parallel slot are graded together in a class
/// ([`Session::grade_class`]): as many as have been built by the time the previous group is
/// done, so that a quick class fills the slots and a slow build never holds up the runs.
const GROUP_PER_JOB: usize = 2;

/// One submission after intake: a result reused from the cache, or staged to be built.
enum Intake {
    Reused(Box<SubmissionReport>),
    Staged(StagedSubmission),
}

/// A submission of a class staged and to be built.
struct StagedSubmission {
    /// The handed-in path (resolved as intake resolves it).
    path: PathBuf,
    /// The staged copy, or why there is none.
    staged: Result<crate::submission::intake::Staged, crate::submission::intake::Refusal>,
    /// Its key in the result cache.
    key: Option<String>,
    /// [`super::prepare::build_cost`].
    cost: u64,
}

/// `e` with what the case's `expect` table states literally in its place.
pub fn literal_overrides(case: &Case, mut e: Expected) -> Result<Expected, SpecError> {
    let Some(table) = &case.def.expect else {
        return Ok(e);
    };
    for (key, value) in table {
        let v: Value = serde_json::to_value(value).unwrap_or(Value::Null);
        match key.as_str() {
            "return" => e.outcome = RefOutcome::Returns(v),
            "outcome" if v == "stack-overflow" => e.outcome = RefOutcome::Diverges,
            "stdout" => e.stdout = v.as_str().map(str::to_string),
            "exit_status" => e.exit_status = v.as_i64().map(|c| c as i32),
            "calls" | "max_depth" => {
                let map = serde_json::from_value(v).map_err(|_| {
                    case.invalid(format!("expect.{key} must map function names to counts"))
                })?;
                if key == "calls" {
                    e.calls = map;
                } else {
                    e.max_depth = map;
                }
            }
            // Read by the problem itself (accepted alternative readings).
            "accept" => {}
            other => {
                return Err(case.invalid(format!(
                    "unknown expect key `{other}` (known: return, outcome = \"stack-overflow\", \
                     stdout, exit_status, calls, max_depth, accept)"
                )))
            }
        }
    }
    Ok(e)
}

impl Session {
    /// Loads `problem` from `root` and computes every expectation.
    pub fn open(root: &Root, problem: &str, options: SessionOptions) -> Result<Session, SpecError> {
        let mut spec = root.load_spec(problem)?;
        let code = problems::get(problem).ok_or_else(|| SpecError::Invalid {
            path: spec.path.clone(),
            line: 0,
            message: format!(
                "this labgrade has no code for problem `{problem}` (it knows: {})",
                problems::all()
                    .iter()
                    .map(|p| p.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })?;
        let fixtures_dir = root.fixtures_dir(problem);
        let cases = load_fixtures(&fixtures_dir, spec.limits)?;
        let (cases, params) = match &options.course {
            Some(course) => super::course::apply(course, code, cases)?,
            None => (cases, problems::Params::new()),
        };
        if let Some(course) = &options.course {
            spec.build.course_forms =
                super::course_form::wrappers(course, code, &spec_headers(&spec.include_dir))?;
        }
        spec.build.declarations = bridgeable_declarations(code, &spec.build.course_forms);
        spec.build.member_class = options
            .course
            .as_deref()
            .and_then(|c| c.problems.get(problem))
            .and_then(|p| p.class.clone());
        let mut cases = cases;
        // A student bundle checks what students see: a case its course hides has no answer
        // in it.
        if crate::problems::precomputed::precomputed_only() {
            cases.retain(|c| c.visibility == Visibility::Visible);
        }
        let pool = WorkerPool::new(&options.worker_exe, options.jobs);
        // A student bundle's checker holds no solver: its expectations come precomputed (a
        // package's own world and checker are still built, to serve its runs and judge its
        // answers). A problem package's come from its reference, run in the sandbox (which
        // builds them first).
        let precomputed = if crate::problems::precomputed::precomputed_only() {
            if let Some(package) = crate::package::get(problem) {
                super::package_build::build_libraries(package, code, &spec, &options)?;
            }
            Some(
                crate::problems::precomputed::load(root, problem).map_err(|message| {
                    SpecError::Invalid {
                        path: root.expectations_file(problem),
                        line: 0,
                        message,
                    }
                })?,
            )
        } else if let Some(package) = crate::package::get(problem) {
            Some(super::package_reference::expectations(
                package, code, &spec, &cases, &params, &options, &pool,
            )?)
        } else {
            None
        };
        let reference = expectations(code, &cases, &params, precomputed.as_ref())?;
        let mut inputs = Vec::with_capacity(cases.len());
        let mut expected = Vec::with_capacity(cases.len());
        for (case, (input, e)) in cases.iter_mut().zip(reference.cases) {
            let ms = reference.ms[&input_key(code, &input)];
            case.limits = case.limits.derived(ms);
            expected.push(literal_overrides(case, e)?);
            inputs.push(input);
        }
        Ok(Session {
            spec,
            problem: code,
            cases,
            inputs,
            expected,
            pool,
            options,
            fixtures_dir,
            provenance: std::sync::OnceLock::new(),
        })
    }

    /// A result cache under `dir` for this session's `grade` (every case, no trusted
    /// self-counting): keyed on its spec, headers, libraries, fixtures and course file too.
    pub fn result_cache(&self, dir: PathBuf, force: bool) -> ResultCache {
        // A problem package's expectations come from its reference's sources.
        let reference = crate::package::get(self.problem.name()).map(|p| p.reference_dir());
        let mut trees = vec![
            self.spec.include_dir.as_path(),
            &self.spec.lib_dir,
            &self.fixtures_dir,
        ];
        let package = crate::package::get(self.problem.name());
        let own = package.map(|p| {
            [
                p.world_dir(),
                p.checker_dir(),
                p.dir.join(crate::package::mistakes::DIR),
            ]
        });
        trees.extend(reference.as_deref());
        trees.extend(own.iter().flatten().map(PathBuf::as_path));
        let inputs = SessionInputs {
            problem: self.problem.name(),
            spec_file: &self.spec.path,
            trees,
            course: self.options.course.as_deref().map(Course::text),
            worker: &self.options.worker_exe,
            options: format!("{:?} trust=false", CaseFilter::All),
        };
        ResultCache::new(dir, &inputs, force)
    }

    /// Grades a class on every case: a submission whose result `results` holds is not graded
    /// again. Each report is announced (`Event::Graded`, its `index` in `submissions`) as
    /// soon as it is final, and kept in `results` then. Returns the reports in the order of
    /// `submissions`, and for each whether it was reused.
    ///
    /// Every submission is staged first (a quick, parallel copy; a result reused from
    /// `results` is final then). The rest are built costliest first, so that the last build
    /// is a short one: each parallel slot takes the next as soon as it is free. Meanwhile
    /// the submissions built so far are graded, in groups of what has arrived (at most
    /// [`GROUP_PER_JOB`] per slot). Builds and runs so overlap with no barrier between them:
    /// a C++ build beside quick C ones, or a submission that spends its time limits, never
    /// leaves a core idle while there is work.
    pub fn grade_class(
        &self,
        submissions: &[(String, PathBuf)],
        results: Option<&ResultCache>,
        on_event: &(dyn Fn(Event) + Sync),
    ) -> (Vec<SubmissionReport>, Vec<bool>) {
        let n = submissions.len();
        let jobs = self.options.jobs.max(1);
        let group_max = jobs * GROUP_PER_JOB;
        let mut reports: Vec<Option<SubmissionReport>> = vec![None; n];
        let mut reused = vec![false; n];
        let mut to_build = Vec::new();
        let intakes = self.in_parallel(n, |i| {
            self.intake_one(i, &submissions[i], results, on_event)
        });
        for (i, intake) in intakes.into_iter().enumerate() {
            match intake {
                Intake::Reused(r) => {
                    reports[i] = Some(*r);
                    reused[i] = true;
                }
                Intake::Staged(staged) => to_build.push((i, staged)),
            }
        }
        to_build.sort_by_key(|(i, s)| (std::cmp::Reverse(s.cost), *i));
        // A regraded class may have nothing left to build: no builder is started then. At
        // most as many builds at once as the machine's memory holds, whatever -j says.
        let memory_slots =
            crate::submission::build_budget::concurrent_builds(self.options.cache.limits(), jobs);
        let builders = memory_slots.min(to_build.len());
        let queue = Mutex::new(to_build.into_iter());
        std::thread::scope(|s| {
            let (tx, rx) = std::sync::mpsc::channel();
            for _ in 0..builders {
                let tx = tx.clone();
                let queue = &queue;
                s.spawn(move || loop {
                    let Some((i, staged)) = queue.lock().expect("the build queue").next() else {
                        return;
                    };
                    let name = &submissions[i].0;
                    let p = super::prepare::prepare_staged(
                        self.problem,
                        &self.spec,
                        &self.options.cache,
                        name,
                        &staged.path,
                        staged.staged,
                        false,
                    );
                    on_event(Event::Prepared { name: name.clone() });
                    if tx.send((i, p, staged.key)).is_err() {
                        return;
                    }
                });
            }
            drop(tx);
            while let Ok(first) = rx.recv() {
                let mut group = vec![first];
                while group.len() < group_max {
                    match rx.try_recv() {
                        Ok(more) => group.push(more),
                        Err(_) => break,
                    }
                }
                let mut fresh = Vec::new();
                let mut fresh_at = Vec::new();
                let mut keys = Vec::new();
                for (i, p, key) in group {
                    fresh.push(p);
                    fresh_at.push(i);
                    keys.push(key);
                }
                let graded = self.grade_prepared(&fresh, CaseFilter::All, &|event| match event {
                    Event::Graded { index, report } => {
                        if let (Some(r), Some(key)) = (results, &keys[index]) {
                            r.store(key, &report);
                        }
                        on_event(Event::Graded {
                            index: fresh_at[index],
                            report,
                        });
                    }
                    other => on_event(other),
                });
                for (r, i) in graded.into_iter().zip(fresh_at) {
                    reports[i] = Some(r);
                }
            }
        });
        (
            reports
                .into_iter()
                .map(|r| r.expect("every submission is graded"))
                .collect(),
            reused,
        )
    }

    /// Takes in one submission of a class (at `index`): its report from `results` when the
    /// same files were graded before, else its staged copy, to be built.
    fn intake_one(
        &self,
        index: usize,
        (name, path): &(String, PathBuf),
        results: Option<&ResultCache>,
        on_event: &(dyn Fn(Event) + Sync),
    ) -> Intake {
        let (path, staged) = super::prepare::intake(
            &self.spec,
            &self.options.cache,
            &self.options.worker_exe,
            path,
        );
        let key = match (results, &staged) {
            (Some(r), Ok(staged)) => r.key(&path, staged),
            _ => None,
        };
        let reused = key
            .as_deref()
            .zip(results)
            .and_then(|(k, r)| r.load(k, name));
        match reused {
            Some(report) => {
                on_event(Event::Prepared { name: name.clone() });
                on_event(Event::Graded {
                    index,
                    report: Box::new(report.clone()),
                });
                Intake::Reused(Box::new(report))
            }
            None => Intake::Staged(StagedSubmission {
                cost: staged.as_ref().map_or(0, super::prepare::build_cost),
                path,
                staged,
                key,
            }),
        }
    }

    /// Prepares one submission (detect, build, read symbols).
    pub fn prepare(&self, name: &str, path: &Path, trust_self_counting: bool) -> Prepared {
        prepare(
            self.problem,
            &self.spec,
            &self.options.cache,
            &self.options.worker_exe,
            name,
            path,
            trust_self_counting,
        )
    }

    /// Prepares submissions (name, path, trusted to count its own calls) in parallel; the
    /// results in the same order.
    pub fn prepare_many(&self, submissions: &[(String, PathBuf, bool)]) -> Vec<Prepared> {
        self.in_parallel(submissions.len(), |i| {
            let (name, path, trust) = &submissions[i];
            self.prepare(name, path, *trust)
        })
    }

    /// Keeps only the cases `selection` chooses (a student's `check --case`); returns how
    /// many are kept.
    pub fn select(&mut self, selection: &super::Selection) -> usize {
        let keep: Vec<bool> = self.cases.iter().map(|c| selection.matches(c)).collect();
        let mut flags = keep.iter();
        self.cases
            .retain(|_| *flags.next().expect("one flag per case"));
        let mut flags = keep.iter();
        self.inputs
            .retain(|_| *flags.next().expect("one flag per input"));
        let mut flags = keep.iter();
        self.expected
            .retain(|_| *flags.next().expect("one flag per expectation"));
        self.cases.len()
    }

    /// The sandbox's worker binary this session runs (and starts jailed helpers with).
    pub fn worker_exe(&self) -> &Path {
        &self.options.worker_exe
    }

    /// How many submissions or runs it works on at once.
    pub fn jobs(&self) -> usize {
        self.options.jobs.max(1)
    }

    /// Number of cases `filter` leaves out.
    pub fn filtered_out(&self, filter: CaseFilter) -> usize {
        self.cases.iter().filter(|c| !included(c, filter)).count()
    }

    /// Prepares and grades `submissions` (name, path), in parallel.
    pub fn grade(
        &self,
        submissions: &[(String, PathBuf)],
        filter: CaseFilter,
        trust_self_counting: bool,
        on_event: &(dyn Fn(Event) + Sync),
    ) -> Vec<SubmissionReport> {
        let prepared = self.prepare_all(submissions, trust_self_counting, on_event);
        self.grade_prepared(&prepared, filter, on_event)
    }

    fn prepare_all(
        &self,
        submissions: &[(String, PathBuf)],
        trust: bool,
        on_event: &(dyn Fn(Event) + Sync),
    ) -> Vec<Prepared> {
        self.in_parallel(submissions.len(), |i| {
            let (name, path) = &submissions[i];
            let p = self.prepare(name, path, trust);
            on_event(Event::Prepared { name: name.clone() });
            p
        })
    }

    /// `work(0..n)` on the session's parallel slots, each index once, in any order; the
    /// results in index order.
    fn in_parallel<T: Send>(&self, n: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let out: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
        std::thread::scope(|s| {
            for _ in 0..self.options.jobs.max(1).min(n.max(1)) {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if i >= n {
                        break;
                    }
                    let done = work(i);
                    out.lock().expect("results")[i] = Some(done);
                });
            }
        });
        out.into_inner()
            .expect("results")
            .into_iter()
            .map(|r| r.expect("every index is done"))
            .collect()
    }

    /// Plans every (submission, case) of `prepared` and collects the runs they need: per
    /// submission, a row of its cases, each settled already or pending on a run (by id in
    /// the requests returned).
    fn plan_runs(&self, prepared: &[Prepared], filter: CaseFilter) -> (Vec<RunRequest>, Vec<Row>) {
        let mut requests = Vec::new();
        let mut slots: Vec<Row> = Vec::new();
        for p in prepared {
            let mut row = Vec::new();
            if let Some(c) = self.warnings_case(p) {
                row.push((usize::MAX, Slot::Done(c)));
            }
            self.plan_cases(p, filter, &mut requests, &mut row);
            slots.push(row);
        }
        (requests, slots)
    }

    /// Plans the cases `filter` keeps for submission `p` into `row`, adding the runs they
    /// need to `requests`: one run per distinct input, shared by the cases that grade other
    /// aspects of the same call.
    fn plan_cases(
        &self,
        p: &Prepared,
        filter: CaseFilter,
        requests: &mut Vec<RunRequest>,
        row: &mut Row,
    ) {
        // One run per distinct input of this submission: cases that grade other aspects
        // of the same call (its return, its calls, its depth) share its observation.
        let mut run_of: BTreeMap<String, usize> = BTreeMap::new();
        for (ci, case) in self.cases.iter().enumerate() {
            if !included(case, filter) {
                continue;
            }
            match plan(self.problem, p, &self.inputs[ci]) {
                Step::Settled(v, m) => row.push((ci, Slot::Done(settled(case, v, m)))),
                Step::Run(artifact) => {
                    let key = self.run_key(&artifact, &self.inputs[ci], &case.limits);
                    let id = *run_of.entry(key).or_insert_with(|| {
                        requests.push(RunRequest {
                            id: requests.len() as u64,
                            problem: self.problem.name().to_string(),
                            artifact,
                            input: self.inputs[ci].clone(),
                            limits: case.limits,
                            shares_child: self.spec.runs.isolation == Isolation::Call,
                            package: crate::package::interface_of(self.problem.name()),
                        });
                        requests.len() - 1
                    });
                    row.push((ci, Slot::Pending(id)));
                }
            }
        }
    }

    /// Judges submission `p`'s `row` on the `observations` of its runs (by run id): a case
    /// settled already is kept as it is.
    fn judged(
        &self,
        p: &Prepared,
        row: Row,
        observations: &BTreeMap<usize, Option<Observation>>,
    ) -> Vec<CaseReport> {
        // Every run of the submission, by reference (a shared run is one observation),
        // is the evidence an explanation about the whole submission needs.
        let never = Observation::not_run(Ending::InternalError {
            message: "the run was never scheduled".into(),
        });
        let obs_of = |id: usize| {
            observations
                .get(&id)
                .and_then(Option::as_ref)
                .unwrap_or(&never)
        };
        let runs: Vec<(&Case, &Observation)> = row
            .iter()
            .filter_map(|(ci, slot)| match slot {
                Slot::Pending(id) => Some((&self.cases[*ci], obs_of(*id))),
                Slot::Done(_) => None,
            })
            .collect();
        row.into_iter()
            .map(|(ci, slot)| match slot {
                Slot::Done(c) => c,
                Slot::Pending(id) => judge(
                    self.problem,
                    &self.cases[ci],
                    &self.inputs[ci],
                    &self.expected[ci],
                    obs_of(id),
                    &runs,
                    Hides {
                        uncounted: p.uncounted.as_deref(),
                        hints: Some(&p.missing_hints),
                        uninstrumented: &p.uninstrumented,
                        world: p.world_hidden.as_deref(),
                    },
                ),
            })
            .collect()
    }

    /// Which submission each of the `runs` runs belongs to, and the runs of each in case
    /// order, from the rows `slots` of the `submissions` submissions: the timeout budget and
    /// the moment a submission's report is made both go by them.
    fn run_owners(slots: &[Row], runs: usize, submissions: usize) -> (Vec<usize>, Vec<Vec<usize>>) {
        // Which submission each run belongs to, and the runs of each, in case order.
        let mut owner = vec![0; runs];
        let mut runs_of: Vec<Vec<usize>> = vec![Vec::new(); submissions];
        for (s, row) in slots.iter().enumerate() {
            for (_, slot) in row {
                // A run shared by several cases is one run of the submission.
                if let Slot::Pending(id) = slot {
                    if !runs_of[s].contains(id) {
                        owner[*id] = s;
                        runs_of[s].push(*id);
                    }
                }
            }
        }
        (owner, runs_of)
    }

    /// Grades submissions that are already prepared.
    pub fn grade_prepared(
        &self,
        prepared: &[Prepared],
        filter: CaseFilter,
        on_event: &(dyn Fn(Event) + Sync),
    ) -> Vec<SubmissionReport> {
        // Plan every (submission, case); collect the runs.
        let (requests, slots) = self.plan_runs(prepared, filter);
        let (owner, runs_of) = Self::run_owners(&slots, requests.len(), prepared.len());
        let budget = TimeoutBudget::new(owner.clone(), self.spec.limits.max_timeouts);
        let rows: Vec<Mutex<Option<Row>>> =
            slots.into_iter().map(|r| Mutex::new(Some(r))).collect();
        let store: Mutex<Vec<Option<Observation>>> = Mutex::new(vec![None; requests.len()]);
        let remaining: Mutex<Vec<usize>> = Mutex::new(runs_of.iter().map(Vec::len).collect());
        let reports: Mutex<Vec<Option<SubmissionReport>>> = Mutex::new(vec![None; prepared.len()]);
        // A submission's report is made, and announced, as soon as its last run is in: a
        // grader stopped midway keeps every report finished so far.
        let finish = |s: usize| {
            let row = rows[s].lock().expect("rows").take().unwrap_or_default();
            let observations = {
                let mut store = store.lock().expect("store");
                budget.settle(&runs_of[s], &mut store);
                runs_of[s]
                    .iter()
                    .map(|&id| (id, store[id].take()))
                    .collect::<BTreeMap<usize, Option<Observation>>>()
            };
            let cases = self.judged(&prepared[s], row, &observations);
            let report = self.report(&prepared[s], cases);
            on_event(Event::Graded {
                index: s,
                report: Box::new(report.clone()),
            });
            reports.lock().expect("reports")[s] = Some(report);
        };
        for (s, runs) in runs_of.iter().enumerate() {
            if runs.is_empty() {
                finish(s);
            }
        }
        self.pool
            .run_all_unless(&requests, &|i| budget.skip(i), &|i, obs| {
                budget.record(i, obs);
                store.lock().expect("store")[i] = Some(obs.clone().compacted(&requests[i].input));
                let s = owner[i];
                let left = {
                    let mut r = remaining.lock().expect("remaining");
                    r[s] -= 1;
                    r[s]
                };
                if left == 0 {
                    finish(s);
                }
            });
        reports
            .into_inner()
            .expect("reports")
            .into_iter()
            .zip(prepared)
            .map(|(r, p)| r.unwrap_or_else(|| self.report(p, Vec::new())))
            .collect()
    }

    /// What makes two runs of one submission the same run: the artifact, the problem's run
    /// key of the function with its arguments (or the whole program input), and the limits.
    fn run_key(&self, artifact: &Artifact, input: &RunInput, limits: &Limits) -> String {
        format!(
            "{}|{}|{limits:?}",
            artifact.path.display(),
            input_key(self.problem, input)
        )
    }

    fn warnings_case(&self, p: &Prepared) -> Option<CaseReport> {
        let points = self.spec.rubric.no_warnings;
        if points <= 0.0 || p.trusted {
            return None;
        }
        let built_here = matches!(p.build.kind.as_str(), "c" | "cpp" | "java" | "rust");
        let (verdict, passed, message) = if let Some((v, m)) = p.fatal.clone() {
            (v, false, m)
        } else if !built_here {
            (
                Verdict::NotObservable,
                false,
                "only sources built by labgrade can be checked for warnings".to_string(),
            )
        } else if p.build.warnings == 0 {
            (Verdict::Pass, true, String::new())
        } else {
            (
                Verdict::Fail,
                false,
                format!(
                    "the compiler printed {} warning(s); this assignment asks for none:\n{}",
                    p.build.warnings,
                    p.build.output.trim_end()
                ),
            )
        };
        Some(CaseReport {
            name: "build/no-warnings".into(),
            verdict,
            passed,
            score: if passed { points } else { 0.0 },
            max_score: points,
            observed: json!({ "warnings": p.build.warnings }),
            expected: json!({ "warnings": 0 }),
            message,
            visibility: Visibility::Visible,
            tags: vec!["build".into()],
            time_ms: 0.0,
            note: false,
            follows: None,
        })
    }

    fn report(&self, p: &Prepared, mut cases: Vec<CaseReport>) -> SubmissionReport {
        // What this submission cannot show: a failure where the student chose it (prebuilt
        // work), credited where labgrade cannot see it for anyone (a turnpike's own D); never
        // 0 of 0, so every student of the problem is graded out of the same maximum.
        // (labgrade's own reference library, `trusted`, is prebuilt by labgrade itself.)
        let accept_prebuilt = self.spec.rubric.accept_prebuilt || p.trusted;
        super::unobservable::settle(&mut cases, &p.build.kind, accept_prebuilt);
        // A case worth nothing in this course that did not pass is a note, not a failure.
        for c in &mut cases {
            c.settle_note();
        }
        // One diagnosed mistake costs once per function, unless the course says each case.
        let policy = self
            .options
            .course
            .as_deref()
            .and_then(|c| c.problems.get(self.problem.name()))
            .map(|p| p.repeated_mistakes)
            .unwrap_or_default();
        let function = |name: &str| {
            self.cases
                .iter()
                .find(|k| k.name() == name)
                .and_then(|k| k.def.call.as_deref())
                .map_or_else(|| "the program".to_string(), |f| self.problem.symbol_of(f))
        };
        crate::report::mistakes::mark_repeats(&mut cases, function, policy);
        // Cases labgrade failed to run stay in max_score with no points: say which, for the
        // instructor, so a withheld score is never mistaken for a grade.
        let unresolved: Vec<&str> = cases
            .iter()
            .filter(|c| c.verdict == Verdict::InternalError)
            .map(|c| c.name.as_str())
            .collect();
        let unresolved_note = (!unresolved.is_empty()).then(|| {
            format!(
                "labgrade failed to run {} case(s) even after retrying in a fresh worker \
                 (first: {}): the submission is unresolved and its score withheld; grade it \
                 again",
                unresolved.len(),
                cases
                    .iter()
                    .find(|c| c.verdict == Verdict::InternalError)
                    .map_or(String::new(), |c| c.message.clone())
            )
        });
        let session = self.provenance.get_or_init(|| {
            super::provenance::of_session(
                &self.spec,
                &self.fixtures_dir,
                self.options.course.as_deref(),
            )
        });
        let provenance = super::provenance::of_submission(
            session,
            p.submission_sha256.as_deref(),
            &p.build.kind,
        );
        let metadata = json!({
            "labgrade": env!("CARGO_PKG_VERSION"),
            "provenance": provenance,
            "sandbox": crate::sandbox::probe::layers_in_force(&self.options.worker_exe),
            "unresolved": unresolved,
            "unresolved_note": unresolved_note,
        });
        SubmissionReport {
            problem: self.problem.name().to_string(),
            submission: p.name.clone(),
            student_id: None,
            handed_in: Default::default(),
            score: cases.iter().map(|c| c.score).sum(),
            max_score: cases.iter().map(|c| c.max_score).sum(),
            status: crate::report::Status::of(&cases),
            cases,
            build: Some(p.build.clone()),
            metadata,
            fix: None,
        }
    }
}

enum Slot {
    Done(CaseReport),
    Pending(usize),
}

/// One submission's cases: (case index, or `usize::MAX` for the warnings case; its slot).
type Row = Vec<(usize, Slot)>;

/// The reference's side of a problem's cases: each case's input and what the reference does
/// on it (before a fixture's literal expectations), and the reference's CPU time on each
/// input, on the grid the limits are derived from.
pub struct Expectations {
    /// Per case, in order: its input and the reference's expectation.
    pub cases: Vec<(RunInput, Expected)>,
    /// By [`input_key`]: the reference's CPU time in ms, on the grid.
    pub ms: BTreeMap<String, f64>,
}

/// Computes the reference's expectation of each case under `params`, or reads it from
/// `precomputed` (a student bundle's, made by [`expectations`] at export).
pub fn expectations(
    code: &dyn Problem,
    cases: &[Case],
    params: &problems::Params,
    precomputed: Option<&crate::problems::precomputed::Precomputed>,
) -> Result<Expectations, SpecError> {
    let mut out = Expectations {
        cases: Vec::with_capacity(cases.len()),
        ms: BTreeMap::new(),
    };
    // The reference's CPU time on each input (the longest of the cases that share it: a
    // remembered reference answers the later ones at once), for the CPU limits: CPU time,
    // not wall time, so that a loaded machine does not raise the limits (see
    // [`super::reference_time`]).
    let mut raw_ms: BTreeMap<String, f64> = BTreeMap::new();
    for case in cases {
        let input = problems::run_input(code, case)?;
        let key = input_key(code, &input);
        let (e, ms) = match precomputed {
            Some(store) => store
                .get(&crate::problems::precomputed::case_key(&input), params)
                .map_err(|m| case.invalid(m))?,
            None => {
                let started = super::reference_time::process_cpu_ms();
                let e = code
                    .expected_with(&input, params)
                    .map_err(|m| case.invalid(m))?;
                (e, super::reference_time::process_cpu_ms() - started)
            }
        };
        let slot = raw_ms.entry(key).or_default();
        *slot = slot.max(ms);
        out.cases.push((input, e));
    }
    // (A bundle's times are on the grid already: putting them there again changes nothing.)
    out.ms = raw_ms
        .into_iter()
        .map(|(k, ms)| (k, super::reference_time::on_grid(ms)))
        .collect();
    Ok(out)
}

/// What makes two inputs one call: the problem's run key of the function with its
/// arguments, or the whole program input (the cases that share it run the reference once).
pub fn input_key(problem: &dyn Problem, input: &RunInput) -> String {
    match input {
        RunInput::Call { function, args } => {
            let args = serde_json::to_string(args).unwrap_or_default();
            format!("call {} {args}", problem.run_key(function))
        }
        other => format!("{other:?}"),
    }
}

fn included(case: &Case, filter: CaseFilter) -> bool {
    filter == CaseFilter::All || case.visibility == Visibility::Visible
}

fn settled(case: &Case, verdict: Verdict, message: String) -> CaseReport {
    CaseReport {
        name: case.name().to_string(),
        verdict,
        passed: false,
        score: 0.0,
        max_score: case.points,
        observed: json!({}),
        expected: json!({}),
        message,
        visibility: case.visibility,
        tags: case.tags.clone(),
        time_ms: 0.0,
        note: false,
        follows: None,
    }
}

/// The headers in a spec's include directory, by name: what a course form's wrapper
/// includes for the assignment's types.
/// The graded functions a C++ build may call through a bridge to a class member (see
/// `submission::members`): each case function with one plain C declaration, less those a
/// course's own form already wraps.
fn bridgeable_declarations(
    code: &dyn problems::Problem,
    forms: &[crate::spec::CourseWrapper],
) -> Vec<(String, String)> {
    code.functions()
        .iter()
        .filter(|f| !forms.iter().any(|w| w.function == f.name))
        .filter(|f| crate::submission::signature::declared(f.decl).is_some())
        .map(|f| (code.symbol_of(f.name), f.decl.to_string()))
        .collect()
}

fn spec_headers(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".h"))
        .collect();
    names.sort();
    names
}
