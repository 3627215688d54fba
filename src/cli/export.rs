//! `labgrade export --student <problem> <dir>`: a local checker a course can hand students.
//!
//! The bundle holds labgrade and its sandbox (`bin/`), the problem's spec, the headers
//! students compile against and the course libraries (`specs/`), and the visible cases only
//! (`fixtures/<problem>/`): hidden cases are absent from it, not just skipped, so a student
//! with the bundle can neither read nor run them. `bin/labgrade` finds its data next to
//! itself, so it runs from anywhere. `bin/labgrade` is the checker built without any
//! reference solver ([`crate::student`]), and the visible cases' expectations come computed
//! in `expected/<problem>.json`.

use std::path::Path;

use super::common::{CliError, Context};
use crate::exit_codes;
use crate::report::Visibility;
use crate::spec::load_fixtures;
use crate::submission::build::copy_tree;

/// Writes the student bundle for `problem` into `dir` (new, or empty).
pub fn run(ctx: &Context, problem: &str, dir: &Path, student: bool) -> Result<i32, CliError> {
    if !student {
        return Err(CliError(format!(
            "say which bundle: `labgrade export --student {problem} {}` (the visible cases \
             only, for students), or `labgrade gradescope {problem} -o autograder.zip` (every \
             case, for the autograder)",
            dir.display()
        )));
    }
    let bundle = write_bundle(ctx, problem, dir, Cases::VisibleOnly)?;
    // The bundle's labgrade is the checker, which links no solver, with the visible
    // cases' expectations computed here.
    if !crate::student::has_judge(problem) && crate::package::get(problem).is_none() {
        return Err(CliError(format!(
            "labgrade has no student checker for {problem}: its bundle would hold the \
             reference solvers (a labgrade bug: every problem of the catalogue has one)"
        )));
    }
    let me = std::env::current_exe()
        .map_err(|e| CliError(format!("cannot find labgrade's own binary: {e}")))?;
    let checker = me.with_file_name("labgrade-check");
    if !checker.is_file() {
        return Err(CliError(format!(
            "`{}` is missing: the student bundle's checker is built with labgrade \
             (`cargo build --release`)",
            checker.display()
        )));
    }
    std::fs::copy(&checker, dir.join("bin").join(CHECKER))
        .map_err(|e| CliError(format!("cannot write the bundle's labgrade: {e}")))?;
    // What students run: a script that says where the checker runs before it starts it (a
    // Linux binary on macOS fails with "cannot execute binary file", which says nothing).
    let front = dir.join("bin").join("labgrade");
    std::fs::write(&front, FRONT_SCRIPT)
        .and_then(|()| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&front, std::fs::Permissions::from_mode(0o755))
        })
        .map_err(|e| CliError(format!("cannot write the bundle's labgrade: {e}")))?;
    let course = ctx.course()?;
    let root = crate::spec::Root::at(dir)?;
    let options = ctx.session_options()?;
    // The course's rules are applied to every case (the bundle holds the visible ones).
    let all_cases = ctx.root()?.fixtures_dir(problem);
    crate::student::write(&root, problem, &all_cases, course.as_ref(), &options)
        .map_err(CliError)?;
    // The checker grades with the course the expectations were computed with.
    if let Some(path) = ctx.course.as_ref().filter(|_| course.is_some()) {
        std::fs::copy(path, dir.join(crate::student::COURSE_FILE))
            .map_err(|e| CliError(format!("cannot copy the course file into the bundle: {e}")))?;
    }
    std::fs::write(
        dir.join("README.txt"),
        format!(
            "labgrade for {problem}: {}\n\nCheck your work (from anywhere):\n    \
             bin/labgrade check {problem} <your directory or file>\n\nThis bundle holds the \
             {} visible cases; the grader runs hidden ones too.\n\n{PLATFORM}\n",
            bundle.title, bundle.written
        ),
    )
    .map_err(|e| CliError(format!("cannot write README.txt: {e}")))?;
    println!(
        "wrote {}: {} visible cases of {} ({} hidden left out); students run \
         `bin/labgrade check {problem} <submission>`",
        dir.display(),
        bundle.written,
        bundle.total,
        bundle.total - bundle.written
    );
    println!(
        "its labgrade holds no reference solver: the visible cases' expectations are in \
         expected/{problem}.json"
    );
    Ok(exit_codes::OK)
}

/// Which cases a bundle holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cases {
    /// The visible ones only (a student's bundle).
    VisibleOnly,
    /// Every case (the autograder's).
    All,
}

/// What [`write_bundle`] wrote.
pub struct Bundle {
    /// The problem's title.
    pub title: String,
    /// Cases in the bundle.
    pub written: usize,
    /// Cases the problem has.
    pub total: usize,
    /// Cases students see (visible under the course, if any).
    pub visible: usize,
}

/// The student bundle's checker binary, beside the script students run (`bin/labgrade`).
const CHECKER: &str = "labgrade-check";

/// Where the student bundle runs, as its README.txt and its script say it.
const PLATFORM: &str = "Where it runs: Linux on x86-64 (on Windows, inside WSL), with gcc and \
g++ installed (sudo apt install gcc g++; a JDK for the Java assignment). On macOS or \
Windows without WSL it stops and says so.";

/// `bin/labgrade` in a student bundle: says where the checker runs, on any other system,
/// then runs it.
const FRONT_SCRIPT: &str = "#!/bin/sh\n\
# labgrade's student checker: a Linux x86-64 program (bin/labgrade-check).\n\
case \"$(uname -s) $(uname -m)\" in\n\
  \"Linux x86_64\") ;;\n\
  *) echo \"labgrade: this checker runs on Linux on x86-64 (on Windows, inside WSL), with gcc and g++ installed; this machine is $(uname -s) $(uname -m)\" >&2; exit 2 ;;\n\
esac\n\
exec \"$(dirname \"$0\")/labgrade-check\" \"$@\"\n";

/// Writes labgrade and its sandbox (`bin/`), the problem's spec, headers and course
/// libraries (`specs/`) and its cases (`fixtures/<problem>/`) into `dir` (new, or empty).
/// `bin/labgrade` finds this data next to itself, so the bundle runs from anywhere.
pub fn write_bundle(
    ctx: &Context,
    problem: &str,
    dir: &Path,
    cases: Cases,
) -> Result<Bundle, CliError> {
    let root = ctx.root()?;
    let spec = root.load_spec(problem)?;
    let all = load_fixtures(&root.fixtures_dir(problem), spec.limits)?;
    let shown = shown_lines(ctx, problem, &all)?;
    if std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some()) {
        return Err(CliError(format!(
            "`{}` is not empty: give a new or empty directory",
            dir.display()
        )));
    }
    let io = |what: &str, e: std::io::Error| CliError(format!("cannot write {what}: {e}"));
    let specs = dir.join("specs");
    let bin = dir.join("bin");
    let headers = spec
        .include_dir
        .file_name()
        .ok_or_else(|| CliError("the spec's header directory has no name".into()))?;
    // A problem package goes in as a package (its spec, headers and visible cases; never
    // its reference or samples), under `packages/`, which the bundle's checker adds.
    let (spec_to, headers_to, fixtures) = match crate::package::get(problem) {
        Some(_) => {
            let p = dir.join(crate::package::BUNDLED).join(problem);
            (
                p.join(crate::package::SPEC_FILE),
                p.join(headers),
                p.join("fixtures"),
            )
        }
        None => (
            specs.join(format!("{problem}.toml")),
            specs.join(headers),
            dir.join("fixtures").join(problem),
        ),
    };
    for d in [&specs, &fixtures, &bin, &dir.join("fixtures")] {
        std::fs::create_dir_all(d).map_err(|e| io(&d.display().to_string(), e))?;
    }
    std::fs::copy(&spec.path, &spec_to).map_err(|e| io("the spec", e))?;
    copy_tree(&spec.include_dir, &headers_to).map_err(CliError)?;
    // A package's own libraries go with it: its world (what the students' code calls) and
    // its checker (what judges an answer where any valid one is accepted); the bundle's
    // checker builds and runs both as labgrade does.
    if let Some(package) = crate::package::get(problem) {
        for dir in [package.world_dir(), package.checker_dir()] {
            if let (true, Some(name)) = (dir.is_dir(), dir.file_name()) {
                copy_tree(&dir, &spec_to.with_file_name(name)).map_err(CliError)?;
            }
        }
    }
    if spec.lib_dir.is_dir() {
        copy_tree(&spec.lib_dir, &specs.join("lib")).map_err(CliError)?;
    }
    let mut files: Vec<_> = std::fs::read_dir(root.fixtures_dir(problem))
        .map_err(|e| io("the fixtures", e))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).map_err(|e| io("a fixture", e))?;
        let kept = match cases {
            Cases::VisibleOnly => {
                let shown = |line: usize| shown.get(&(file.clone(), line)) == Some(&true);
                kept_lines(&text, &shown).map_err(CliError)?
            }
            Cases::All => Some(text),
        };
        if let Some(kept) = kept {
            let name = file.file_name().unwrap_or_default();
            std::fs::write(fixtures.join(name), kept).map_err(|e| io("a fixture", e))?;
        }
    }
    let me = std::env::current_exe().map_err(|e| io("labgrade", e))?;
    let worker = crate::sandbox::pool::worker_next_to(&me).map_err(CliError)?;
    for exe in [&me, &worker] {
        let name = exe.file_name().unwrap_or_default();
        std::fs::copy(exe, bin.join(name)).map_err(|e| io("labgrade's binaries", e))?;
    }
    // The bundle must load, and hold exactly the cases asked for.
    let kept = load_fixtures(&fixtures, spec.limits)?;
    let on_shown_line =
        |c: &&crate::spec::Case| shown.get(&(c.file.clone(), c.line)) == Some(&true);
    let wanted: Vec<&str> = all
        .iter()
        .filter(|c| cases == Cases::All || on_shown_line(c))
        .map(|c| c.name())
        .collect();
    let written: Vec<&str> = kept.iter().map(|c| c.name()).collect();
    if written != wanted {
        let wanted = wanted.len();
        return Err(CliError(format!(
            "the bundle's cases are not the ones asked for ({} written, {wanted} wanted): \
             this is labgrade's bug",
            kept.len()
        )));
    }
    Ok(Bundle {
        title: spec.problem.title.clone(),
        written: kept.len(),
        total: all.len(),
        visible: all.iter().filter(on_shown_line).count(),
    })
}

/// Whether every case each fixture line makes (by file and line) is one students see: by
/// the fixture's `visibility`, or the course's when there is one (which may show a hidden
/// case or hide a visible one, or leave a case out). A line that makes cases of both kinds
/// (an `each` line a course half hides) is not shown: its cases stay out of the bundle.
fn shown_lines(
    ctx: &Context,
    problem: &str,
    all: &[crate::spec::Case],
) -> Result<std::collections::BTreeMap<(std::path::PathBuf, usize), bool>, CliError> {
    let in_course: Option<std::collections::BTreeMap<String, Visibility>> = match ctx.course()? {
        Some(course) => {
            let code = crate::problems::get(problem)
                .ok_or_else(|| CliError(format!("no problem `{problem}`")))?;
            let (cases, _) = crate::runner::course::apply(&course, code, all.to_vec())?;
            Some(
                cases
                    .into_iter()
                    .map(|c| (c.name().to_string(), c.visibility))
                    .collect(),
            )
        }
        None => None,
    };
    let mut shown = std::collections::BTreeMap::new();
    for c in all {
        let visible = match &in_course {
            Some(course) => course.get(c.name()) == Some(&Visibility::Visible),
            None => c.visibility == Visibility::Visible,
        };
        let line = shown.entry((c.file.clone(), c.line)).or_insert(true);
        *line &= visible;
    }
    Ok(shown)
}

/// A fixture file with only the case lines `shown` says yes to (by their line), or None
/// when none is.
fn kept_lines(text: &str, shown: &dyn Fn(usize) -> bool) -> Result<Option<String>, String> {
    /// The file's case lines, with where each starts.
    #[derive(serde::Deserialize)]
    struct Lines {
        #[serde(default)]
        case: Vec<toml::Spanned<toml::Value>>,
    }
    let lines: Vec<usize> = toml::from_str::<Lines>(text)
        .map_err(|e| format!("a fixture: {e}"))?
        .case
        .iter()
        .map(|c| text[..c.span().start].matches('\n').count() + 1)
        .collect();
    let mut doc: toml::Table = text.parse().map_err(|e| format!("a fixture: {e}"))?;
    let Some(toml::Value::Array(cases)) = doc.get_mut("case") else {
        return Ok(None);
    };
    let mut line = lines.into_iter();
    cases.retain(|_| line.next().is_some_and(shown));
    if cases.is_empty() {
        return Ok(None);
    }
    toml::to_string(&doc)
        .map(Some)
        .map_err(|e| format!("cannot write a fixture: {e}"))
}

#[cfg(test)]
mod tests {
    use super::kept_lines;

    /// `text` with the lines of its hidden cases left out, as a bundle made with no course
    /// keeps it.
    fn visible_only(text: &str) -> Result<Option<String>, String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.toml"), text).unwrap();
        let cases = crate::spec::load_fixtures(dir.path(), crate::spec::Limits::default()).unwrap();
        let shown = |line: usize| {
            cases
                .iter()
                .filter(|c| c.line == line)
                .all(|c| c.visibility == crate::report::Visibility::Visible)
        };
        kept_lines(text, &shown)
    }

    #[test]
    fn hidden_cases_are_left_out_by_case_and_by_default() {
        let text = r#"
defaults = { points = 1, compare = ["return"] }
case = [
  { name = "a", call = "F", args = [1] },
  { name = "b", call = "F", args = [2], visibility = "hidden" },
]
"#;
        let out = visible_only(text).unwrap().unwrap();
        assert!(out.contains("\"a\"") && !out.contains("\"b\""), "{out}");
        let hidden_file = r#"
defaults = { visibility = "hidden", compare = ["return"] }
case = [{ name = "c", call = "F", args = [3] }]
"#;
        assert_eq!(visible_only(hidden_file).unwrap(), None);
        let opened = r#"
defaults = { visibility = "hidden", compare = ["return"] }
case = [{ name = "d", call = "F", args = [4], visibility = "visible" }]
"#;
        assert!(visible_only(opened).unwrap().unwrap().contains("\"d\""));
    }

    #[test]
    fn a_bundle_keeps_the_order_of_each_s_variables() {
        // Rewritten with sorted keys, `n` would come first and the cases would be reordered
        // (toml's `preserve_order` keeps the keys as written).
        let text = r#"
case = [
  { name = "{size}/{n}", each = { size = ["s", "l"], n = "1..=2" }, call = "F", args = ["{n}"], compare = ["return"] },
  { name = "{n}/hidden", each = { n = "1..=2" }, call = "F", args = ["{n}"], compare = ["return"], visibility = "hidden" },
]
"#;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.toml"),
            visible_only(text).unwrap().unwrap(),
        )
        .unwrap();
        let cases = crate::spec::load_fixtures(dir.path(), crate::spec::Limits::default()).unwrap();
        let names: Vec<&str> = cases.iter().map(|c| c.name()).collect();
        assert_eq!(names, ["s/1", "s/2", "l/1", "l/2"]);
    }
}
