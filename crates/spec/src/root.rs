//! Where labgrade's data lives: the directory holding `specs/`, `fixtures/` and `tests/`.

use std::path::{Path, PathBuf};

use super::problem_spec::ProblemSpec;
use super::SpecError;

/// The data root: `specs/<problem>.toml`, `fixtures/<problem>/`, `tests/submissions/`.
#[derive(Debug, Clone)]
pub struct Root {
    dir: PathBuf,
}

/// How a binary finds its root.
pub type Finder = fn(Option<&Path>, &Path) -> Result<Root, SpecError>;

/// This binary's [`Finder`].
static FINDER: std::sync::OnceLock<Finder> = std::sync::OnceLock::new();

impl Root {
    /// Uses `dir` as the root; it must hold `specs/`.
    pub fn at(dir: impl Into<PathBuf>) -> Result<Root, SpecError> {
        let dir = dir.into();
        if dir.join("specs").is_dir() {
            let dir = dir.canonicalize().unwrap_or(dir);
            Ok(Root { dir })
        } else {
            Err(SpecError::NoRoot {
                looked: dir.display().to_string(),
            })
        }
    }

    /// The root of a student bundle's checker: `explicit` (or `LABGRADE_ROOT`), else the
    /// bundle its binary is in (`<bundle>/bin/labgrade`). Never the built-in copy, which
    /// holds every case, hidden ones too: a binary whose root finder is this one links none.
    pub fn beside_binary(explicit: Option<&Path>, _cache: &Path) -> Result<Root, SpecError> {
        if let Some(dir) = explicit
            .map(Path::to_path_buf)
            .or_else(|| std::env::var_os("LABGRADE_ROOT").map(PathBuf::from))
        {
            return Root::at(dir);
        }
        if let Ok(exe) = std::env::current_exe() {
            for dir in exe.ancestors().skip(1).take(2) {
                if dir.join("specs").is_dir() && dir.join("fixtures").is_dir() {
                    return Root::at(dir);
                }
            }
        }
        Err(SpecError::NoRoot {
            looked: "beside this binary (it is a student bundle's: `<bundle>/bin/labgrade`), \
                     and --root or LABGRADE_ROOT"
                .into(),
        })
    }

    /// Installs how this binary finds its root ([`Root::find`]): `labgrade`
    /// [`Root::discover`], a student bundle's checker [`Root::beside_binary`].
    pub fn install_finder(finder: Finder) {
        let _ = FINDER.set(finder);
    }

    /// The root, found as this binary does ([`Root::install_finder`]; [`Root::discover`] in
    /// unit tests).
    pub fn find(explicit: Option<&Path>, cache: &Path) -> Result<Root, SpecError> {
        #[cfg(test)]
        if FINDER.get().is_none() {
            Self::install_finder(Self::discover);
        }
        match FINDER.get() {
            Some(find) => find(explicit, cache),
            None => Err(SpecError::NoRoot {
                looked: "nowhere: this binary installed no way to find its root".into(),
            }),
        }
    }

    /// Finds the root: `explicit` if given, else `$LABGRADE_ROOT`, else the current directory
    /// or one of its parents, else beside this binary (`<dir>/bin/labgrade` with
    /// `<dir>/specs`: an exported bundle, an installed copy), else the checkout this binary
    /// was built from, else the specs and fixtures built into the binary, written out under
    /// `cache` (see [`super::builtin`]). `builtin` (as `--root` or `$LABGRADE_ROOT`) asks for
    /// the built-in data whatever is on disk.
    pub fn discover(explicit: Option<&Path>, cache: &Path) -> Result<Root, SpecError> {
        let builtin = || {
            super::builtin::root_in(cache)
                .map_err(|e| SpecError::NoRoot {
                    looked: format!(
                        "the current directory and its parents, beside this binary, the \
                         checkout it was built from, and its built-in copy, which cannot be \
                         written out: {e}"
                    ),
                })
                .and_then(Root::at)
        };
        let named = explicit
            .map(Path::to_path_buf)
            .or_else(|| std::env::var_os("LABGRADE_ROOT").map(PathBuf::from));
        if let Some(dir) = named {
            return if dir.as_os_str() == "builtin" {
                builtin()
            } else {
                Root::at(dir)
            };
        }
        if let Ok(cwd) = std::env::current_dir() {
            for dir in cwd.ancestors() {
                if dir.join("specs").is_dir() && dir.join("fixtures").is_dir() {
                    return Root::at(dir);
                }
            }
        }
        if let Ok(exe) = std::env::current_exe() {
            for dir in exe.ancestors().skip(1).take(2) {
                if dir.join("specs").is_dir() && dir.join("fixtures").is_dir() {
                    return Root::at(dir);
                }
            }
        }
        // The checkout this labgrade was built from (this crate is its `crates/spec`).
        let built = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        if built.join("specs").is_dir() {
            return Root::at(built);
        }
        builtin()
    }

    /// The root directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `specs/`.
    pub fn specs_dir(&self) -> PathBuf {
        self.dir.join("specs")
    }

    /// `fixtures/<problem>/` (a problem package's own `fixtures/`).
    pub fn fixtures_dir(&self, problem: &str) -> PathBuf {
        match super::packages::dir(problem) {
            Some(p) => p.join("fixtures"),
            None => self.dir.join("fixtures").join(problem),
        }
    }

    /// `expected/<problem>.json`: a student bundle's precomputed expectations (see
    /// `labgrade::student`).
    pub fn expectations_file(&self, problem: &str) -> PathBuf {
        self.dir.join("expected").join(format!("{problem}.json"))
    }

    /// `tests/submissions/<problem>/` (a problem package's own `samples/`).
    pub fn samples_dir(&self, problem: &str) -> PathBuf {
        match super::packages::dir(problem) {
            Some(p) => p.join("samples"),
            None => self.dir.join("tests").join("submissions").join(problem),
        }
    }

    /// `tests/hostile/<problem>/`: submissions written to cheat or to break things.
    pub fn hostile_dir(&self, problem: &str) -> PathBuf {
        self.dir.join("tests").join("hostile").join(problem)
    }

    /// Names of every problem with a spec, sorted.
    pub fn problem_names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.specs_dir())
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let p = e.path();
                (p.extension()? == "toml").then(|| p.file_stem()?.to_str().map(str::to_string))?
            })
            .collect();
        names.extend(super::packages::names().map(str::to_string));
        names.sort();
        names
    }

    /// Loads `specs/<name>.toml`, or says which problems exist.
    pub fn load_spec(&self, name: &str) -> Result<ProblemSpec, SpecError> {
        if let Some(dir) = super::packages::dir(name) {
            return ProblemSpec::load_package(
                &dir.join(super::packages::SPEC_FILE),
                name,
                dir,
                &self.specs_dir().join("lib"),
            );
        }
        let path = self.specs_dir().join(format!("{name}.toml"));
        if !path.is_file() {
            let known = self.problem_names();
            let hint = super::names::did_you_mean(name, &known)
                .map(|n| format!(": did you mean `{n}`?"))
                .unwrap_or_default();
            return Err(SpecError::UnknownProblem {
                name: name.to_string(),
                hint,
                known: known.join(", "),
            });
        }
        ProblemSpec::load(&path, &self.specs_dir())
    }
}
