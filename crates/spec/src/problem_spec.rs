//! `specs/<problem>.toml`: what a problem is, how submissions are built, which limits apply.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::error::from_toml;
use super::SpecError;

/// One problem's declared interface, build recipes, limits and rubric.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemSpec {
    /// Names and provenance.
    pub problem: ProblemInfo,
    /// How sources are compiled.
    #[serde(default)]
    pub build: BuildRecipes,
    /// Resource limits of one run.
    #[serde(default)]
    pub limits: Limits,
    /// How the runs of one submission are kept apart.
    #[serde(default)]
    pub runs: Runs,
    /// Rubric items that are not fixture cases.
    #[serde(default)]
    pub rubric: Rubric,
    /// A kit problem's interface (`src/problems/kit/abi.rs`). labgrade was built with it;
    /// `load` checks that the file still says the same.
    #[serde(default)]
    pub kit: Option<toml::Table>,
    /// Where the spec was read from (filled in by `load`).
    #[serde(skip)]
    pub path: PathBuf,
    /// `specs/<problem>/`: the headers students compile against (filled in by `load`).
    #[serde(skip)]
    pub include_dir: PathBuf,
    /// `specs/lib/`: the course libraries' headers (Roberts' genlib.h, simpio.h, ...;
    /// Stanford's console.h, vector.h, ...), searched after the spec's and the submission's
    /// own headers in every C/C++ build (filled in by `load`; may not exist).
    #[serde(skip)]
    pub lib_dir: PathBuf,
}

/// The `[runs]` table.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Runs {
    /// See [`Isolation`].
    #[serde(default)]
    pub isolation: Isolation,
}

/// How far apart the function calls of one submission are run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    /// Calls share a sandboxed child, each starting from the library's state right after
    /// loading: its global and static data put back, `rand` reseeded, the counters cleared
    /// (`crates/sandbox/src/batch.rs`). A call that does not come back is run again alone.
    #[default]
    Call,
    /// Every run in a process of its own: for a problem whose calls depend on more of the
    /// process than the library's own data (a C library's state, a file, a stream).
    Process,
}

/// The `[problem]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemInfo {
    /// Short name, the file's stem (`nim`).
    pub name: String,
    /// One-line title for `labgrade list`.
    pub title: String,
    /// Where the assignment comes from.
    pub source: String,
}

/// The `[build]` table: one recipe per source language.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildRecipes {
    /// C sources (`*.c`).
    #[serde(default = "CompilerRecipe::default_c")]
    pub c: CompilerRecipe,
    /// C++ sources (`*.cpp`, `*.cc`, `*.cxx`).
    #[serde(default = "CompilerRecipe::default_cpp")]
    pub cpp: CompilerRecipe,
    /// Cargo profile for Rust crates.
    #[serde(default = "default_rust_profile")]
    pub rust_profile: String,
    /// A C++ file in `specs/<problem>/` compiled with the student's sources into the
    /// libraries (never instrumented, never counted for warnings): labgrade's own way into
    /// code whose interface is private, exporting a C ABI for the worker.
    #[serde(default)]
    pub driver: Option<String>,
    /// A C++ file in `specs/<problem>/` compiled into C++ submissions' libraries only (never
    /// instrumented): labgrade's way to call a graded function whose parameters only C++
    /// can make (the C++ edition's `Vector<pointT> &`), through a C function it exports.
    #[serde(default)]
    pub cpp_adapter: Option<String>,
    /// A C++ file in `specs/<problem>/` compiled as one translation unit after every student
    /// source (`-include`d in order), whose object alone makes the library labgrade calls;
    /// the program is still the student's own. labgrade's way into code whose types are the
    /// student's own (Roberts' game side: their `stateT` and `moveT`).
    #[serde(default)]
    pub unity: Option<String>,
    /// A C++ file in `specs/<problem>/` compiled on its own (no student header, macro or
    /// include path; hidden visibility) and linked with the unity object: labgrade's driver,
    /// which reaches the student's code only through the functions the unity file defines,
    /// so that nothing of the student's can rewrite it.
    #[serde(default)]
    pub unity_driver: Option<String>,
    /// Functions of the book's general part a student's file may declare, as the book's
    /// listing does, and leave to the course's own file (`FindBestMove`): when the unity
    /// link misses only those, the unity file is compiled again with `-DLG_NO_OWN_SEARCH`
    /// (it then calls none of the student's), with a note.
    #[serde(default)]
    pub unity_general_part: Vec<String>,
    /// A C++ file in `specs/<problem>/` with its own `main`, linked with the student's sources
    /// (less `sanitizer_excludes`) under AddressSanitizer/LeakSanitizer: the program that
    /// cases with `run = "sanitizer"` execute.
    #[serde(default)]
    pub sanitizer_main: Option<String>,
    /// Student files left out of the sanitizer program (their own `main.cpp`).
    #[serde(default)]
    pub sanitizer_excludes: Vec<String>,
    /// The directory under `specs/` whose headers students compile against, when it is
    /// another problem's: two problems graded on one interface share one copy of it.
    #[serde(default)]
    pub headers: Option<String>,
    /// Registry crates a Rust submission may depend on (none by default: labgrade builds
    /// offline, and intake refuses any other registry, git or outside-path dependency).
    #[serde(default)]
    pub rust_dependencies: Vec<String>,
    /// Helper functions that some courses' libraries export and the book has students
    /// write (maze: `AdjacentPoint`). The spec's header defines each under
    /// `#ifdef LG_PROVIDE_<name>`; the build defines that macro when no source of the
    /// student's defines the function, so code written either way builds.
    #[serde(default)]
    pub provides: Vec<String>,
    /// Other forms of a graded function that a text gives (the course reader's
    /// `RecursivePermute(prefix, rest)`): a C++ submission whose function has one is called
    /// through a wrapper labgrade compiles (`submission/forms.rs`), and judged in that form.
    #[serde(default)]
    pub form: Vec<OtherForm>,
    /// Wrappers for the course's own forms of graded functions (from the course file, never
    /// from a spec): compiled plain beside C and C++ submissions.
    #[serde(skip)]
    pub course_forms: Vec<CourseWrapper>,
    /// The C declaration of each graded function labgrade calls by name (from the problem,
    /// never from a spec): a C++ build that finds one written only as a member of a class
    /// calls it through a bridge made from its declaration (`submission/members.rs`).
    #[serde(skip)]
    pub declarations: Vec<(String, String)>,
    /// The class a course names as the graded functions' (from the course file, never from
    /// a spec): a member of it is chosen where the sources have several candidates.
    #[serde(skip)]
    pub member_class: Option<String>,
}

/// Another form of a graded function, as a text gives it (`[[build.form]]`).
#[derive(Debug, Clone, Deserialize, PartialEq, Eq, Hash)]
#[serde(deny_unknown_fields)]
pub struct OtherForm {
    /// The graded function (`RecursivePermute`).
    pub function: String,
    /// The form's name, which the observation carries to the judge (`prefix-rest`).
    pub name: String,
    /// Its parameter types as C++ writes them, references and `const` aside
    /// (`["std::string", "std::string"]`).
    pub params: Vec<String>,
    /// The C function labgrade calls, with the assignment's parameters
    /// (`void labgrade_form_RecursivePermute(char *s, int k)`).
    pub wrapper: String,
    /// What the wrapper does with them, in C++, calling the student's function as `target`
    /// (`target(std::string(s, k), std::string(s + k))`).
    pub call: String,
}

/// labgrade's wrapper for a course's own form of a graded function: a C function with the
/// assignment's signature, named `symbol`, that calls the student's function as the course
/// declares it (see `src/runner/course_form.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CourseWrapper {
    /// The assignment's name of the function.
    pub function: String,
    /// The course's declaration.
    pub declaration: String,
    /// What labgrade passes for the course's own parameters, as the report says it.
    pub passes: String,
    /// The wrapper's exported name (`labgrade_course_SolveMaze`).
    pub symbol: String,
    /// Its source, valid as C and as C++ (C++ only when it makes a course type).
    pub source: String,
    /// Why labgrade's library calls are not seen through it (the course's form takes the
    /// picture itself), if they are not: cases that grade them are not observable.
    pub hides_world: Option<String>,
}

impl Default for BuildRecipes {
    fn default() -> Self {
        BuildRecipes {
            c: CompilerRecipe::default_c(),
            cpp: CompilerRecipe::default_cpp(),
            rust_profile: default_rust_profile(),
            headers: None,
            driver: None,
            cpp_adapter: None,
            unity: None,
            unity_driver: None,
            unity_general_part: Vec::new(),
            sanitizer_main: None,
            sanitizer_excludes: Vec::new(),
            rust_dependencies: Vec::new(),
            provides: Vec::new(),
            form: Vec::new(),
            course_forms: Vec::new(),
            declarations: Vec::new(),
            member_class: None,
        }
    }
}

fn default_rust_profile() -> String {
    "release".to_string()
}

/// A compiler and its flags. labgrade adds `-fPIC -shared` for libraries,
/// `-finstrument-functions` for the counting build and `-I specs/<problem>`.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq, Hash)]
#[serde(deny_unknown_fields)]
pub struct CompilerRecipe {
    /// The compiler command (`gcc`, `g++`).
    pub compiler: String,
    /// Flags, warnings included (`-Wall`).
    pub flags: Vec<String>,
}

impl CompilerRecipe {
    fn default_c() -> Self {
        CompilerRecipe {
            compiler: "gcc".into(),
            flags: vec!["-std=c11".into(), "-Wall".into(), "-O2".into()],
        }
    }

    fn default_cpp() -> Self {
        CompilerRecipe {
            compiler: "g++".into(),
            flags: vec!["-std=c++11".into(), "-Wall".into(), "-O2".into()],
        }
    }
}

/// Limits of one run; a case may lower or raise them.
#[derive(Debug, Clone, Copy, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// CPU seconds (the kernel counts whole seconds).
    #[serde(default = "Limits::d_cpu")]
    pub cpu_seconds: u64,
    /// Wall-clock milliseconds, enforced by the worker.
    #[serde(default = "Limits::d_wall")]
    pub wall_ms: u64,
    /// Address space in MiB.
    #[serde(default = "Limits::d_mem")]
    pub memory_mb: u64,
    /// Stack of the student's call in MiB.
    #[serde(default = "Limits::d_stack")]
    pub stack_mb: u64,
    /// Largest output kept, in KiB (stdout and stderr each).
    #[serde(default = "Limits::d_out")]
    pub output_kb: u64,
    /// Timeouts one submission may have before its later runs (in case order) are not
    /// started and get `skipped`: a submission that never ends costs a few limits, not one
    /// per case.
    #[serde(default = "Limits::d_timeouts")]
    pub max_timeouts: u64,
    /// User CPU milliseconds of one run, enforced by the worker. 0 (the default): derived once per
    /// session from the reference's own time on the case's input, `time_factor` times it
    /// and at least `cpu_floor_ms`; never above `cpu_seconds`. A fixture may set it.
    #[serde(default)]
    pub cpu_ms: u64,
    /// How many times the reference's time a run may take (see `cpu_ms`).
    #[serde(default = "Limits::d_factor")]
    pub time_factor: u64,
    /// The least CPU a run is given, in milliseconds (see `cpu_ms`): what a submission's
    /// start-up and a slower but right algorithm need on the smallest inputs.
    #[serde(default = "Limits::d_floor")]
    pub cpu_floor_ms: u64,
}

impl Limits {
    fn d_cpu() -> u64 {
        2
    }
    fn d_wall() -> u64 {
        3000
    }
    fn d_mem() -> u64 {
        512
    }
    fn d_stack() -> u64 {
        8
    }
    fn d_out() -> u64 {
        256
    }
    fn d_timeouts() -> u64 {
        12
    }
    fn d_factor() -> u64 {
        20
    }
    fn d_floor() -> u64 {
        250
    }

    /// The CPU limit of a run in milliseconds: `cpu_ms` once derived or set, never above
    /// `cpu_seconds`.
    pub fn cpu_limit_ms(&self) -> u64 {
        let whole = self.cpu_seconds.saturating_mul(1000);
        match self.cpu_ms {
            0 => whole,
            ms => ms.min(whole),
        }
    }

    /// `cpu_ms` derived from the reference's time on the input (see [`Limits::cpu_ms`]);
    /// a limit already set is kept.
    pub fn derived(mut self, reference_ms: f64) -> Limits {
        if self.cpu_ms == 0 {
            let scaled = (reference_ms.max(0.0) * self.time_factor as f64).ceil() as u64;
            self.cpu_ms = scaled
                .max(self.cpu_floor_ms)
                .min(self.cpu_seconds.saturating_mul(1000));
        }
        self
    }
}

impl Limits {
    /// The ranges a limit may take. Each bound keeps a run able to end: no zero (a run that
    /// can never start), no stack or memory larger than the machine could ever map.
    pub const RANGES: [(&'static str, u64, u64); 9] = [
        ("cpu_seconds", 1, 3_600),
        ("wall_ms", 10, 3_600_000),
        ("memory_mb", 16, 65_536),
        ("stack_mb", 1, 4_096),
        ("output_kb", 1, 1_048_576),
        ("max_timeouts", 1, 100_000),
        ("cpu_ms", 0, 3_600_000),
        ("time_factor", 1, 10_000),
        ("cpu_floor_ms", 10, 3_600_000),
    ];

    /// Checks every limit against [`Limits::RANGES`], naming the first one out of range.
    pub fn check(&self) -> Result<(), String> {
        let values = [
            self.cpu_seconds,
            self.wall_ms,
            self.memory_mb,
            self.stack_mb,
            self.output_kb,
            self.max_timeouts,
            self.cpu_ms,
            self.time_factor,
            self.cpu_floor_ms,
        ];
        for ((name, lo, hi), v) in Limits::RANGES.iter().zip(values) {
            if v < *lo || v > *hi {
                return Err(format!("{name} = {v} is out of range: give {lo} to {hi}"));
            }
        }
        Ok(())
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            cpu_seconds: Limits::d_cpu(),
            wall_ms: Limits::d_wall(),
            memory_mb: Limits::d_mem(),
            stack_mb: Limits::d_stack(),
            output_kb: Limits::d_out(),
            max_timeouts: Limits::d_timeouts(),
            cpu_ms: 0,
            time_factor: Limits::d_factor(),
            cpu_floor_ms: Limits::d_floor(),
        }
    }
}

/// The `[rubric]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rubric {
    /// Points for compiling without warnings (adds the case `build/no-warnings`); 0 for none.
    #[serde(default)]
    pub no_warnings: f64,
    /// Whether a prebuilt library or program is accepted: then what it cannot show (call
    /// counts, warnings, function cases of a program) is credited, as labgrade's own limits
    /// are. By default such cases fail, telling the student to hand in sources.
    #[serde(default)]
    pub accept_prebuilt: bool,
}

/// A `[kit]` table must be the one labgrade was built with: its reference was written for
/// that interface, and its sandboxed child calls functions as it declares them.
fn check_kit(path: &Path, text: &str, stem: &str) -> Result<(), SpecError> {
    let invalid = |message: String| SpecError::Invalid {
        path: path.to_path_buf(),
        line: find_line(text, "[kit]"),
        message,
    };
    // The interface this labgrade was built with, or the one a package was added with.
    let built = super::builtin::spec_text(stem)
        .or_else(|| super::packages::spec_text(stem))
        .and_then(|t| super::kit::parse(t).ok());
    let Some(built) = built else {
        return Err(invalid(format!(
            "[kit]: this labgrade has no kit problem `{stem}` (a kit problem needs its reference \
             in labgrade: see src/problems/kit/)"
        )));
    };
    let here = super::kit::parse(text).map_err(|e| invalid(format!("[kit]: {e}")))?;
    if here != built {
        return Err(invalid(format!(
            "[kit] differs from the interface this labgrade was built with for `{stem}`: the \
             reference follows the built-in one. Restore the table (it is in labgrade's \
             specs/{stem}.toml), or rebuild labgrade with the change and a reference to match"
        )));
    }
    Ok(())
}

impl ProblemSpec {
    /// Reads and validates a spec file of the catalogue (`specs/<p>.toml`, its headers in
    /// `specs/<p>/`).
    pub fn load(path: &Path, specs_dir: &Path) -> Result<ProblemSpec, SpecError> {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        Self::load_as(path, stem, (specs_dir, stem), &specs_dir.join("lib"))
    }

    /// Reads and validates a problem package's spec (`<package>/problem.toml`, its headers
    /// in `<package>/include/`, see `labgrade::package`); labgrade's own libraries (the
    /// world's header, the hooks) come from `lib_dir`.
    pub fn load_package(
        path: &Path,
        name: &str,
        package_dir: &Path,
        lib_dir: &Path,
    ) -> Result<ProblemSpec, SpecError> {
        Self::load_as(path, name, (package_dir, "include"), lib_dir)
    }

    /// Reads the spec at `path` of problem `name`, whose headers are in
    /// `headers.0/<[build] headers, else headers.1>`.
    fn load_as(
        path: &Path,
        name: &str,
        headers: (&Path, &str),
        lib_dir: &Path,
    ) -> Result<ProblemSpec, SpecError> {
        let text = super::text_file::read(path).map_err(|source| SpecError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let mut spec: ProblemSpec = toml::from_str(&text).map_err(|e| from_toml(path, &text, e))?;
        let stem = name;
        if spec.problem.name != stem {
            return Err(SpecError::Invalid {
                path: path.to_path_buf(),
                line: find_line(&text, "name"),
                message: format!(
                    "problem.name is `{}` but the file is `{stem}.toml`: make them the same",
                    spec.problem.name
                ),
            });
        }
        if let Err(message) = spec.limits.check() {
            return Err(SpecError::Invalid {
                path: path.to_path_buf(),
                line: find_line(&text, "[limits]"),
                message: format!("[limits]: {message}"),
            });
        }
        if spec.kit.is_some() {
            check_kit(path, &text, stem)?;
        }
        spec.path = path.to_path_buf();
        spec.include_dir = headers
            .0
            .join(spec.build.headers.as_deref().unwrap_or(headers.1));
        spec.lib_dir = lib_dir.to_path_buf();
        if !spec.include_dir.is_dir() && spec.build.headers.is_some() {
            return Err(SpecError::Invalid {
                path: path.to_path_buf(),
                line: find_line(&text, "headers"),
                message: format!(
                    "build.headers names `{}`, which is not a directory",
                    spec.include_dir.display()
                ),
            });
        }
        for (key, file) in [
            ("driver", &spec.build.driver),
            ("cpp_adapter", &spec.build.cpp_adapter),
            ("unity", &spec.build.unity),
            ("unity_driver", &spec.build.unity_driver),
            ("sanitizer_main", &spec.build.sanitizer_main),
        ] {
            if let Some(f) = file {
                if !spec.include_dir.join(f).is_file() {
                    return Err(SpecError::Invalid {
                        path: path.to_path_buf(),
                        line: find_line(&text, key),
                        message: format!(
                            "build.{key} names `{f}`, which is not in `{}`",
                            spec.include_dir.display()
                        ),
                    });
                }
            }
        }
        Ok(spec)
    }
}

/// 1-based line of the first line containing `needle` (0 when absent).
pub fn find_line(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::Limits;

    #[test]
    fn cpu_limits_follow_the_reference_within_floor_and_ceiling() {
        let l = Limits::default(); // 2 s, factor 20, floor 250 ms
        assert_eq!(
            l.cpu_limit_ms(),
            2000,
            "nothing derived yet: the kernel's limit"
        );
        assert_eq!(l.derived(1.0).cpu_ms, 250, "a fast reference: the floor");
        assert_eq!(l.derived(30.0).cpu_ms, 600, "20 times the reference");
        assert_eq!(l.derived(500.0).cpu_ms, 2000, "never above cpu_seconds");
        let set = Limits {
            cpu_ms: 40,
            ..Limits::default()
        };
        assert_eq!(set.derived(500.0).cpu_ms, 40, "a case's own limit is kept");
        assert_eq!(set.cpu_limit_ms(), 40);
        let Err(m) = Limits {
            time_factor: 0,
            ..Limits::default()
        }
        .check() else {
            panic!("a zero factor is out of range");
        };
        assert!(m.contains("time_factor"), "{m}");
    }
}
