//! `fixtures/<problem>/*.toml`: the cases.
//!
//! A fixture file holds optional `[defaults]` and a list of cases, written either as
//! `[[case]]` tables or as one inline table per line in `case = [ ... ]`. A case names what to
//! run (`call` and `args`, or `stdin` for the whole program), what to compare, and the expected
//! values: by default whatever the reference does, or literals under `expect`.
//!
//! One line may stand for many cases: `each = { n = "2..=22" }` names variables and their
//! values (an integer range as a string, `"2..=22"` inclusive or `"2..22"` without 22, or an
//! array of TOML values), and the line becomes one case per combination, the first variable
//! written varying slowest. `{n}` is replaced in `name` (which must use every variable),
//! `args`, `expect`, `stdin` and `argv`; in `args` and `expect` a string that is exactly
//! `"{n}"` becomes the value with its type (`args = ["{n}"]` passes the integer). Every case
//! made keeps the line's number for messages, and a line may make at most 10,000. See
//! [`super::each`].

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::each;
use super::error::{from_toml, line_col};
use super::problem_spec::Limits;
use super::SpecError;
use crate::transcript::{compile_patterns, OutputMode};

/// The most points one case may be worth.
pub const MAX_POINTS: f64 = 1_000_000.0;
/// What a case compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum CompareItem {
    /// The function's return value.
    Return,
    /// Calls of each counted function during one top-level call.
    Calls,
    /// Maximum recursion depth of each counted function.
    MaxDepth,
    /// Everything the program printed on standard output.
    Stdout,
    /// The program's exit status.
    ExitStatus,
    /// What AddressSanitizer/LeakSanitizer reported (nothing, for a pass).
    Sanitizer,
    /// The calls made into labgrade's library (a kit problem's world): how many of each,
    /// in which order, with which arguments.
    World,
}

/// One case as written in a fixture file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseDef {
    /// Unique within the problem; `/` groups (`FindGoodMove/7/calls`).
    pub name: String,
    /// The function to call (absent for whole-program cases).
    #[serde(default)]
    pub call: Option<String>,
    /// Its arguments.
    #[serde(default)]
    pub args: Vec<toml::Value>,
    /// Standard input of a whole-program case.
    #[serde(default)]
    pub stdin: Option<String>,
    /// Command-line arguments of a whole-program case (after the program's name).
    #[serde(default)]
    pub argv: Vec<String>,
    /// Which build a whole-program case runs: `program` (default) or `sanitizer` (the
    /// spec's sanitizer main under AddressSanitizer/LeakSanitizer).
    #[serde(default)]
    pub run: Option<String>,
    /// What to compare.
    #[serde(default)]
    pub compare: Option<Vec<CompareItem>>,
    /// Literal expected values, by the keys of the report's `expected` (`return`, `stdout`,
    /// `exit_status`, `outcome`); anything not given comes from the reference.
    #[serde(default)]
    pub expect: Option<toml::Table>,
    /// Points.
    #[serde(default)]
    pub points: Option<f64>,
    /// Who sees it.
    #[serde(default)]
    pub visibility: Option<Visibility>,
    /// Free-form labels.
    #[serde(default)]
    pub tags: Option<Vec<String>>,
    /// Limits for this case only.
    #[serde(default)]
    pub limits: Option<LimitsOverride>,
    /// How a whole-program case's transcript is compared (`exact`, `whitespace`, `lenient`,
    /// `substance`); see [`crate::transcript`].
    #[serde(default)]
    pub output: Option<OutputMode>,
    /// With `output = "substance"`: regular expressions matching the parts of the transcript
    /// that carry the substance (the computer's moves, the result).
    #[serde(default)]
    pub substance: Option<Vec<String>>,
    /// Why the case exists (shown to fixture authors, not students).
    #[serde(default)]
    pub note: Option<String>,
    /// Variables this line is expanded over (`each = { n = "2..=22" }`), in the order
    /// written; see [`super::each`]. Always `None` in a loaded [`Case`]: each case made from
    /// the line has its values substituted.
    #[serde(default, deserialize_with = "super::each::deserialize")]
    pub each: Option<each::Vars>,
}

/// Per-case changes to the spec's limits.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsOverride {
    /// See [`Limits::cpu_seconds`].
    pub cpu_seconds: Option<u64>,
    /// See [`Limits::wall_ms`].
    pub wall_ms: Option<u64>,
    /// See [`Limits::memory_mb`].
    pub memory_mb: Option<u64>,
    /// See [`Limits::stack_mb`].
    pub stack_mb: Option<u64>,
    /// See [`Limits::output_kb`].
    pub output_kb: Option<u64>,
    /// See [`Limits::cpu_ms`].
    pub cpu_ms: Option<u64>,
    /// See [`Limits::time_factor`].
    pub time_factor: Option<u64>,
    /// See [`Limits::cpu_floor_ms`].
    pub cpu_floor_ms: Option<u64>,
}

impl LimitsOverride {
    fn apply(&self, base: Limits) -> Limits {
        Limits {
            cpu_seconds: self.cpu_seconds.unwrap_or(base.cpu_seconds),
            wall_ms: self.wall_ms.unwrap_or(base.wall_ms),
            memory_mb: self.memory_mb.unwrap_or(base.memory_mb),
            stack_mb: self.stack_mb.unwrap_or(base.stack_mb),
            output_kb: self.output_kb.unwrap_or(base.output_kb),
            max_timeouts: base.max_timeouts,
            cpu_ms: self.cpu_ms.unwrap_or(base.cpu_ms),
            time_factor: self.time_factor.unwrap_or(base.time_factor),
            cpu_floor_ms: self.cpu_floor_ms.unwrap_or(base.cpu_floor_ms),
        }
    }
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Defaults {
    #[serde(default)]
    points: Option<f64>,
    #[serde(default)]
    visibility: Option<Visibility>,
    #[serde(default)]
    tags: Option<Vec<String>>,
    #[serde(default)]
    compare: Option<Vec<CompareItem>>,
    #[serde(default)]
    limits: Option<LimitsOverride>,
    #[serde(default)]
    output: Option<OutputMode>,
    #[serde(default)]
    substance: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FixtureFile {
    #[serde(default)]
    defaults: Defaults,
    #[serde(default)]
    case: Vec<Spanned<CaseDef>>,
}

/// A case with defaults applied, ready to run.
#[derive(Debug, Clone)]
pub struct Case {
    /// The case as written (defaults applied to its optional fields).
    pub def: CaseDef,
    /// Points.
    pub points: f64,
    /// Who sees it.
    pub visibility: Visibility,
    /// Labels.
    pub tags: Vec<String>,
    /// What to compare (never empty).
    pub compare: Vec<CompareItem>,
    /// Limits in force.
    pub limits: Limits,
    /// How the transcript is compared.
    pub output: OutputMode,
    /// The compiled substance patterns (empty unless `output = "substance"`).
    pub substance: Vec<regex::Regex>,
    /// The problem's parameters the expectations were computed with (a course's changes to
    /// the book's values; empty for the book's).
    pub params: Params,
    /// The fixture file.
    pub file: PathBuf,
    /// 1-based line of the case in that file.
    pub line: usize,
}

impl Case {
    /// The case's name.
    pub fn name(&self) -> &str {
        &self.def.name
    }

    /// `file:line` for messages.
    pub fn origin(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }

    /// An error about this case, pointing at its line.
    pub fn invalid(&self, message: impl Into<String>) -> SpecError {
        SpecError::Invalid {
            path: self.file.clone(),
            line: self.line,
            message: format!("case `{}`: {}", self.def.name, message.into()),
        }
    }
}

/// Loads every `*.toml` under `dir` (sorted by file name), applying defaults and `limits`,
/// and checks that case names are unique.
pub fn load_fixtures(dir: &Path, limits: Limits) -> Result<Vec<Case>, SpecError> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| SpecError::Read {
            path: dir.to_path_buf(),
            source,
        })?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    let mut seen = BTreeSet::new();
    for file in files {
        for case in load_file(&file, limits)? {
            if !seen.insert(case.def.name.clone()) {
                return Err(
                    case.invalid("another case already has this name: names must be unique")
                );
            }
            cases.push(case);
        }
    }
    Ok(cases)
}

fn load_file(path: &Path, limits: Limits) -> Result<Vec<Case>, SpecError> {
    let text = super::text_file::read(path).map_err(|source| SpecError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let file: FixtureFile = toml::from_str(&text).map_err(|e| {
        let mut err = from_toml(path, &text, e);
        if let SpecError::Syntax { message, .. } = &mut err {
            if message.contains("unknown field `case`") {
                message.push_str(
                    " (a `case = [...]` written after `[defaults]` belongs to that table: write \
                     `defaults = { ... }` inline, or use `[[case]]` tables)",
                );
            }
        }
        err
    })?;
    let d = file.defaults;
    let base_limits = d.limits.map_or(limits, |o| o.apply(limits));
    let mut out = Vec::new();
    let expanded = file.case.into_iter().map(|spanned| {
        let line = line_col(&text, spanned.span().start).0;
        let def = spanned.into_inner();
        let name = def.name.clone();
        expand_each(def)
            .map_err(|message| SpecError::Invalid {
                path: path.to_path_buf(),
                line,
                message: format!("case `{name}`: {message}"),
            })
            .map(|defs| defs.into_iter().map(move |def| (line, def)))
    });
    for (line, def) in expanded
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
    {
        let compare = def
            .compare
            .clone()
            .or_else(|| d.compare.clone())
            .unwrap_or_default();
        let case = Case {
            points: def.points.or(d.points).unwrap_or(1.0),
            visibility: def.visibility.or(d.visibility).unwrap_or_default(),
            tags: def
                .tags
                .clone()
                .or_else(|| d.tags.clone())
                .unwrap_or_default(),
            limits: debug_printing_allowance(
                &def,
                def.limits.map_or(base_limits, |o| o.apply(base_limits)),
            ),
            output: def.output.or(d.output).unwrap_or_default(),
            substance: Vec::new(),
            params: Default::default(),
            compare,
            file: path.to_path_buf(),
            line,
            def,
        };
        let mut case = case;
        let patterns = case
            .def
            .substance
            .clone()
            .or_else(|| d.substance.clone())
            .unwrap_or_default();
        case.substance = compile_patterns(&patterns).map_err(|m| case.invalid(m))?;
        validate(&case)?;
        out.push(case);
    }
    Ok(out)
}

/// The cases one line makes: itself, or with `each`, one per combination of its variables'
/// values, substituted (see [`super::each`]). Errors are messages for the line.
fn expand_each(mut def: CaseDef) -> Result<Vec<CaseDef>, String> {
    let Some(vars) = def.each.take() else {
        return Ok(vec![def]);
    };
    let known: Vec<&str> = vars.iter().map(|(name, _)| name.as_str()).collect();
    let used = each::placeholders(&def.name);
    if let Some(unknown) = used.iter().find(|p| !known.contains(p)) {
        return Err(format!(
            "the name has `{{{unknown}}}`, but `each` has no variable `{unknown}` (it has {})",
            list(&known)
        ));
    }
    let missing: Vec<&str> = known
        .iter()
        .copied()
        .filter(|v| !used.contains(v))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the name must contain every variable of `each`, so that the cases it makes have \
             different names: add {}",
            list(&missing)
        ));
    }
    let combinations = each::combinations(&vars)?;
    Ok(combinations
        .iter()
        .map(|binding| CaseDef {
            name: each::splice(&def.name, binding),
            call: def.call.as_ref().map(|c| each::splice(c, binding)),
            args: def
                .args
                .iter()
                .map(|a| each::substitute(a, binding))
                .collect(),
            stdin: def.stdin.as_ref().map(|s| each::splice(s, binding)),
            argv: def.argv.iter().map(|a| each::splice(a, binding)).collect(),
            expect: def
                .expect
                .as_ref()
                .map(|t| each::substitute_table(t, binding)),
            ..def.clone()
        })
        .collect())
}

/// `{n}`, `{m}` for messages.
fn list(vars: &[&str]) -> String {
    vars.iter()
        .map(|v| format!("`{{{v}}}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Output a graded function may print before it is stopped, unless the case sets its own
/// `output_kb`: real code prints while it searches (3 of 4 real turnpike files print inside
/// `place`), which is never graded, so it must not turn into an output-limit on a large case.
pub const CALL_OUTPUT_KB: u64 = 8 * 1024;

fn debug_printing_allowance(def: &CaseDef, limits: Limits) -> Limits {
    let own = def.limits.is_some_and(|l| l.output_kb.is_some());
    if def.call.is_some() && !own {
        Limits {
            output_kb: limits.output_kb.max(CALL_OUTPUT_KB),
            ..limits
        }
    } else {
        limits
    }
}

fn validate(case: &Case) -> Result<(), SpecError> {
    let def = &case.def;
    if def.name.trim().is_empty() {
        return Err(case.invalid("name is empty"));
    }
    match (&def.call, &def.stdin) {
        (Some(_), Some(_)) => {
            return Err(case.invalid(
                "give either `call` (a function case) or `stdin` (a whole-program case), not both",
            ))
        }
        (None, None) => {
            return Err(case.invalid(
                "give `call` and `args` for a function case, or `stdin` for a whole-program case",
            ))
        }
        _ => {}
    }
    if case.compare.is_empty() {
        return Err(case.invalid(
            "nothing to compare: add `compare = [\"return\"]` (or calls, max_depth, stdout, exit_status, world)",
        ));
    }
    if let Some(run) = def.run.as_deref() {
        if run != "program" && run != "sanitizer" {
            return Err(case.invalid(format!("run = `{run}`: choose `program` or `sanitizer`")));
        }
    }
    // What only a whole program shows, and what only a call does. A function's printing
    // (`stdout`) is graded in either where the assignment's function prints (permutations).
    let program_items = [CompareItem::ExitStatus, CompareItem::Sanitizer];
    let call_items = [
        CompareItem::Return,
        CompareItem::Calls,
        CompareItem::MaxDepth,
        CompareItem::World,
    ];
    for item in &case.compare {
        let wrong = if def.stdin.is_some() {
            call_items.contains(item)
        } else {
            program_items.contains(item)
        };
        if wrong {
            let what = if def.stdin.is_some() {
                "a whole-program case"
            } else {
                "a function case"
            };
            return Err(case.invalid(format!(
                "`{}` cannot be compared in {what}",
                serde_json::to_value(item)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            )));
        }
    }
    // A bound, so that no sum of a problem's points can overflow (`1e308` made scores `inf`).
    if !(0.0..=MAX_POINTS).contains(&case.points) {
        return Err(case.invalid("points must be a number from 0 to 1000000"));
    }
    if case.output == OutputMode::Substance && case.substance.is_empty() {
        return Err(case.invalid(
            "output = \"substance\" needs `substance = [\"pattern\", ...]`: regular expressions \
             for the lines that carry the moves and the result",
        ));
    }
    if case.output != OutputMode::Exact && !case.compare.contains(&CompareItem::Stdout) {
        return Err(case.invalid(format!(
            "output = \"{}\" says how a transcript is compared, but the case compares no `stdout`",
            case.output.as_str()
        )));
    }
    case.limits
        .check()
        .map_err(|m| case.invalid(format!("limits: {m}")))?;
    Ok(())
}

/// A problem's parameter values in force: the book's, with a course's changes.
pub type Params = std::collections::BTreeMap<String, i64>;

/// Who may see a case, in Gradescope's words: a fixture's or a course's choice, which the
/// reports carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Shown to the student (and run by `check` without `--all`).
    #[default]
    Visible,
    /// Never shown to the student.
    Hidden,
    /// Shown once the due date has passed.
    AfterDueDate,
    /// Shown once grades are published.
    AfterPublished,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap();
    }

    #[test]
    fn inline_cases_get_defaults_and_lines() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "a.toml",
            "defaults = { points = 2, compare = [\"return\"] }\n\n\ncase = [\n  { name = \"f/1\", call = \"f\", args = [1] },\n  { name = \"f/2\", call = \"f\", args = [2], points = 3 },\n]\n",
        );
        let cases = load_fixtures(dir.path(), Limits::default()).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].points, 2.0);
        assert_eq!(cases[1].points, 3.0);
        assert_eq!(cases[0].line, 5);
        assert_eq!(cases[1].line, 6);
        assert_eq!(cases[0].compare, vec![CompareItem::Return]);
    }

    #[test]
    fn points_too_large_to_add_up_are_refused_with_the_line() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "a.toml",
            "case = [\n  { name = \"f\", call = \"f\", compare = [\"return\"], points = 1e308 },\n]\n",
        );
        let err = load_fixtures(dir.path(), Limits::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("points must be a number from 0 to 1000000"),
            "{err}"
        );
        assert!(err.contains("a.toml"), "{err}");
    }

    #[test]
    fn cases_swallowed_by_defaults_get_a_hint() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "a.toml",
            "[defaults]\npoints = 2\ncase = [ { name = \"f\", call = \"f\" } ]\n",
        );
        let err = load_fixtures(dir.path(), Limits::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("a.toml:3:1") && err.contains("write `defaults = { ... }` inline"),
            "{err}"
        );
    }

    #[test]
    fn unknown_field_names_file_line_and_field() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "bad.toml",
            "[[case]]\nname = \"x\"\ncall = \"f\"\ncompre = [\"return\"]\n",
        );
        let err = load_fixtures(dir.path(), Limits::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("bad.toml:4:1"), "{err}");
        assert!(err.contains("compre"), "{err}");
    }

    #[test]
    fn duplicate_names_and_mixed_kinds_are_rejected() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "a.toml",
            "[[case]]\nname = \"x\"\ncall = \"f\"\ncompare = [\"return\"]\n[[case]]\nname = \"x\"\ncall = \"f\"\ncompare = [\"return\"]\n",
        );
        let err = load_fixtures(dir.path(), Limits::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("a.toml:5") && err.contains("unique"), "{err}");

        write(
            dir.path(),
            "a.toml",
            "[[case]]\nname = \"x\"\ncall = \"f\"\ncompare = [\"exit_status\"]\n",
        );
        let err = load_fixtures(dir.path(), Limits::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`exit_status` cannot be compared in a function case"),
            "{err}"
        );
        write(
            dir.path(),
            "a.toml",
            "[[case]]\nname = \"x\"\nstdin = \"\"\ncompare = [\"world\"]\n",
        );
        let err = load_fixtures(dir.path(), Limits::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`world` cannot be compared in a whole-program case"),
            "{err}"
        );
        // What a function prints is graded where the assignment's function prints.
        write(
            dir.path(),
            "a.toml",
            "[[case]]\nname = \"x\"\ncall = \"f\"\ncompare = [\"stdout\", \"return\"]\n",
        );
        assert_eq!(
            load_fixtures(dir.path(), Limits::default()).unwrap().len(),
            1
        );
    }

    #[test]
    fn limits_out_of_range_name_the_case_and_the_range() {
        let dir = tempfile::tempdir().unwrap();
        for (limits, needle) in [
            (
                "wall_ms = 0",
                "wall_ms = 0 is out of range: give 10 to 3600000",
            ),
            (
                "stack_mb = 18446744073709551615",
                "stack_mb = 18446744073709551615",
            ),
        ] {
            write(
                dir.path(),
                "a.toml",
                &format!(
                    "[[case]]\nname = \"x\"\ncall = \"f\"\ncompare = [\"return\"]\nlimits = {{ {limits} }}\n"
                ),
            );
            let err = load_fixtures(dir.path(), Limits::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("a.toml:1") && err.contains(needle), "{err}");
        }
    }

    #[test]
    fn function_cases_may_print_for_debugging_unless_they_set_their_own_cap() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "a.toml",
            "case = [\n { name = \"a\", call = \"f\", compare = [\"return\"] },\n { name = \"b\", call = \"f\", compare = [\"return\"], limits = { output_kb = 4 } },\n { name = \"c\", stdin = \"\", compare = [\"stdout\"] },\n]\n",
        );
        let cases = load_fixtures(dir.path(), Limits::default()).unwrap();
        assert_eq!(cases[0].limits.output_kb, CALL_OUTPUT_KB);
        assert_eq!(cases[1].limits.output_kb, 4);
        assert_eq!(cases[2].limits.output_kb, Limits::default().output_kb);
    }

    #[test]
    fn output_modes_need_stdout_and_substance_needs_patterns() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "a.toml",
            "[[case]]\nname = \"x\"\nstdin = \"\"\ncompare = [\"stdout\"]\noutput = \"substance\"\n",
        );
        let err = load_fixtures(dir.path(), Limits::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("needs `substance"), "{err}");
        write(
            dir.path(),
            "a.toml",
            "[[case]]\nname = \"x\"\nstdin = \"\"\ncompare = [\"stdout\"]\noutput = \"substance\"\nsubstance = [\"(\"]\n",
        );
        let err = load_fixtures(dir.path(), Limits::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a valid regex"), "{err}");
        write(
            dir.path(),
            "a.toml",
            "[defaults]\noutput = \"lenient\"\n[[case]]\nname = \"x\"\nstdin = \"\"\ncompare = [\"stdout\"]\n",
        );
        let cases = load_fixtures(dir.path(), Limits::default()).unwrap();
        assert_eq!(cases[0].output, OutputMode::Lenient);
    }

    #[test]
    fn malformed_toml_reports_position() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "a.toml", "[[case]]\nname = \"x\nstdin = 1\n");
        let err = load_fixtures(dir.path(), Limits::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(&format!("{}", dir.path().join("a.toml").display())),
            "{err}"
        );
        assert!(err.contains(":2:"), "{err}");
    }

    fn load_one(text: &str) -> Result<Vec<Case>, String> {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "a.toml", text);
        load_fixtures(dir.path(), Limits::default()).map_err(|e| e.to_string())
    }

    fn names(cases: &[Case]) -> Vec<&str> {
        cases.iter().map(Case::name).collect()
    }

    #[test]
    fn each_expands_a_range_keeping_the_line() {
        let cases = load_one(
            "defaults = { compare = [\"return\"] }\ncase = [\n  { name = \"f/0\", call = \"f\" },\n  { name = \"f/{n}/x\", each = { n = \"2..=4\" }, call = \"f\", args = [\"{n}\"], points = 2 },\n  { name = \"g/{n}\", each = { n = \"2..4\" }, call = \"g\", args = [\"{n}\"] },\n]\n",
        )
        .unwrap();
        assert_eq!(
            names(&cases),
            ["f/0", "f/2/x", "f/3/x", "f/4/x", "g/2", "g/3"]
        );
        assert_eq!(cases[2].def.args, [toml::Value::Integer(3)]);
        assert!(cases[1..4].iter().all(|c| c.line == 4 && c.points == 2.0));
        assert!(cases[4..].iter().all(|c| c.line == 5 && c.points == 1.0));
        assert!(cases.iter().all(|c| c.def.each.is_none()));
    }

    #[test]
    fn each_is_a_product_in_the_written_order() {
        // `size` is written first, so it varies slowest, though `n` sorts before it.
        let cases = load_one(
            "[[case]]\nname = \"{size}/{n}\"\ncall = \"f\"\nargs = [\"{size}\", \"{n}\"]\ncompare = [\"return\"]\n[case.each]\nsize = [\"small\", \"large\"]\nn = \"1..=3\"\n",
        )
        .unwrap();
        assert_eq!(
            names(&cases),
            ["small/1", "small/2", "small/3", "large/1", "large/2", "large/3"]
        );
        assert_eq!(
            cases[3].def.args,
            [toml::Value::from("large"), toml::Value::Integer(1)]
        );
        assert!(cases.iter().all(|c| c.line == 1));
        let cases = load_one(
            "case = [ { name = \"{b}{a}\", each = { b = [1, 2], a = [\"x\", \"y\"] }, call = \"f\", compare = [\"return\"] } ]\n",
        )
        .unwrap();
        assert_eq!(names(&cases), ["1x", "1y", "2x", "2y"]);
    }

    #[test]
    fn each_substitutes_keeping_types_and_splices_text() {
        let cases = load_one(
            "case = [\n{ name = \"f/{n}/{cells}/{s}/{b}\", each = { n = [7], cells = [[1, 2]], s = [\"a b\"], b = [true] }, call = \"f\", args = [\"{n}\", \"board-{n}\", { w = \"{n}\", list = [\"{n}\", \"{cells}\"], keep = \"{other}\" }, \"{cells}\", \"x{cells}\", \"{s}!\", \"{b}\"], expect = { return = \"{n}\", accept = [\"r-{s}\"] }, compare = [\"return\"] },\n{ name = \"p/{n}\", each = { n = [3] }, stdin = \"take {n}\\n{n}\\n\", argv = [\"{n}\", \"-{n}\"], compare = [\"stdout\"] },\n]\n",
        )
        .unwrap();
        use toml::Value::{Array, Boolean, Integer};
        let def = &cases[0].def;
        assert_eq!(def.name, "f/7/[1, 2]/a b/true");
        assert_eq!(def.args[0], Integer(7));
        assert_eq!(def.args[1], toml::Value::from("board-7"));
        let table = def.args[2].as_table().unwrap();
        assert_eq!(table["w"], Integer(7));
        assert_eq!(
            table["list"],
            Array(vec![Integer(7), Array(vec![Integer(1), Integer(2)])])
        );
        assert_eq!(table["keep"], toml::Value::from("{other}"));
        assert_eq!(def.args[3], Array(vec![Integer(1), Integer(2)]));
        assert_eq!(def.args[4], toml::Value::from("x[1, 2]"));
        assert_eq!(def.args[5], toml::Value::from("a b!"));
        assert_eq!(def.args[6], Boolean(true));
        let expect = def.expect.as_ref().unwrap();
        assert_eq!(expect["return"], Integer(7));
        assert_eq!(expect["accept"], Array(vec![toml::Value::from("r-a b")]));
        let program = &cases[1].def;
        assert_eq!(program.stdin.as_deref(), Some("take 3\n3\n"));
        assert_eq!(program.argv, ["3", "-3"]);
    }

    #[test]
    fn each_errors_name_the_line_and_what_to_do() {
        let line = |each: &str, name: &str| {
            format!(
                "defaults = {{ compare = [\"return\"] }}\ncase = [\n  {{ name = \"ok\", call = \"f\" }},\n  {{ name = \"{name}\", each = {each}, call = \"f\" }},\n]\n"
            )
        };
        for (each, name, needle) in [
            ("{ n = \"5..=2\" }", "f/{n}", "each.n = \"5..=2\" is an empty range"),
            ("{ n = \"5..5\" }", "f/{n}", "each.n = \"5..5\" is an empty range"),
            ("{ n = \"2-22\" }", "f/{n}", "each.n = \"2-22\" is not a range: write"),
            ("{ n = \"a..b\" }", "f/{n}", "each.n = \"a..b\" is not a range"),
            ("{ n = \"2..\" }", "f/{n}", "each.n = \"2..\" is not a range"),
            ("{ n = \"2...5\" }", "f/{n}", "each.n = \"2...5\" is not a range"),
            ("{ n = 7 }", "f/{n}", "each.n = 7 is neither a range nor an array"),
            ("{ n = { a = 1 } }", "f/{n}", "is neither a range nor an array"),
            ("{ n = [] }", "f/{n}", "each.n = [] has no values"),
            ("{}", "f", "`each = {}` has no variables"),
            (
                "{ a = \"0..200\", b = \"0..=100\" }",
                "f/{a}/{b}",
                "expands this line to 20200 cases, more than 10000: split it",
            ),
            (
                "{ a = \"-9223372036854775808..=9223372036854775807\", b = \"0..2\" }",
                "f/{a}/{b}",
                "expands this line to 36893488147419103232 cases",
            ),
            (
                "{ n = \"1..=3\", m = [1] }",
                "f/{n}",
                "the name must contain every variable of `each`, so that the cases it makes have different names: add `{m}`",
            ),
            (
                "{ n = \"1..=3\" }",
                "f/{n}/{k}",
                "the name has `{k}`, but `each` has no variable `k` (it has `{n}`)",
            ),
            (
                "{ n = [1, 2, 1] }",
                "f/{n}",
                "case `f/1`: another case already has this name",
            ),
            (
                "{ n = [\"ok\"] }",
                "{n}",
                "case `ok`: another case already has this name",
            ),
        ] {
            let err = load_one(&line(each, name)).unwrap_err();
            assert!(err.contains("a.toml:4: "), "{each}: {err}");
            assert!(err.contains(needle), "{each}: {err}");
        }
        // `each` must be a table: the parser's message, with line and column.
        let err = load_one(&line("\"2..=5\"", "f")).unwrap_err();
        assert!(err.contains("a.toml:4:"), "{err}");
        assert!(err.contains("a table of variables"), "{err}");
    }

    #[test]
    fn the_nim_fixtures_written_with_each_make_the_same_cases() {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/nim"));
        let cases = load_fixtures(dir, Limits::default()).unwrap();
        for (function, first) in [
            ("FindGoodMove", 2),
            ("IsBadPosition", 1),
            ("ChooseComputerMove", 2),
        ] {
            let ours: Vec<&Case> = cases
                .iter()
                .filter(|c| {
                    c.def.call.as_deref() == Some(function) && !c.name().starts_with("robustness/")
                })
                .collect();
            let mut expected = Vec::new();
            for what in ["return", "calls"] {
                for n in first..=22 {
                    expected.push(format!("{function}/{n}/{what}"));
                }
            }
            assert_eq!(
                ours.iter().map(|c| c.name()).collect::<Vec<_>>(),
                expected,
                "{function}"
            );
            for case in ours {
                let n = case.def.args[0].as_integer().unwrap();
                let calls = case.name().ends_with("/calls");
                assert!(case.name().starts_with(&format!("{function}/{n}/")));
                assert_eq!(case.def.args.len(), 1);
                assert_eq!(case.points, 1.0);
                let hidden = if n >= 16 {
                    Visibility::Hidden
                } else {
                    Visibility::Visible
                };
                assert_eq!(case.visibility, hidden, "{}", case.name());
                let (tags, compare) = if calls {
                    (
                        vec!["recursion"],
                        vec![CompareItem::Calls, CompareItem::MaxDepth],
                    )
                } else {
                    (vec!["strategy"], vec![CompareItem::Return])
                };
                assert_eq!(case.tags, tags, "{}", case.name());
                assert_eq!(case.compare, compare, "{}", case.name());
            }
        }
    }
}
