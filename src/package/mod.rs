//! Problem packages: an instructor's own assignment, in a directory anywhere, graded with no
//! Rust and no rebuild of labgrade.
//!
//! A package is a directory holding
//!
//! - `problem.toml`: the spec, with the same `[problem]`, `[build]`, `[limits]`, `[rubric]`
//!   and `[kit]` tables as the catalogue's kit problems (docs/src/kit.md);
//! - `include/`: the headers students compile against (`[build] headers` names another
//!   directory of the package);
//! - `fixtures/*.toml`: the cases, as the catalogue's;
//! - `reference/`: the instructor's own solution in C or C++, exporting the graded
//!   functions: labgrade builds it as it builds a student's and runs it in the same sandbox
//!   on every case ([`reference`]); what it does is what every submission is compared with;
//! - `world/` (only with a `[kit.world]` table): the instructor's C library the students'
//!   code calls, which labgrade's world host loads and every call of which is counted and
//!   traced ([`world`]);
//! - `checker/` (only with a function declared `any_valid`): the instructor's `lg_check`,
//!   which judges answers where any valid one is accepted ([`checker`]);
//! - `mistakes/<name>/` (optional): wrong solutions, each with what to tell a student whose
//!   answers are its own ([`mistakes`]);
//! - `samples/<name>/` (optional): submissions with the verdicts they must get
//!   (`expect.toml`), which `labgrade test` grades.
//!
//! `--problems DIR` (repeatable), `$LABGRADE_PROBLEMS` (directories separated by `:`) name
//! packages, or directories of packages; each is added beside the catalogue, under the name
//! its spec gives, which may not be a catalogue problem's.

pub mod checker;
pub mod library;
pub mod mistakes;
pub mod world;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::problems::kit::{KitAbi, KitProblem};
use crate::problems::Problem;
use crate::sandbox::protocol::PackageInterface;
use crate::spec::SpecError;

pub use crate::spec::packages::SPEC_FILE;

/// Where a student bundle holds a package (`<bundle>/packages/<name>/`), which its checker
/// adds by itself.
pub const BUNDLED: &str = "packages";

/// The environment variable that names package directories (`:`-separated).
pub const ENV: &str = "LABGRADE_PROBLEMS";

/// A package found on disk.
#[derive(Debug)]
pub struct Package {
    /// The problem's name (its spec's `[problem] name`).
    pub name: String,
    /// The package directory.
    pub dir: PathBuf,
    /// The spec's text, as read when the package was added.
    pub spec_text: &'static str,
    /// Its world library, once built ([`Package::build_libraries`]).
    world_library: OnceLock<PathBuf>,
    /// Its checker, once built ([`Package::build_libraries`]).
    checker_library: OnceLock<PathBuf>,
}

impl Package {
    /// `problem.toml`.
    pub fn spec_path(&self) -> PathBuf {
        self.dir.join(SPEC_FILE)
    }

    /// `fixtures/`.
    pub fn fixtures_dir(&self) -> PathBuf {
        self.dir.join("fixtures")
    }

    /// `reference/`: the instructor's solution.
    pub fn reference_dir(&self) -> PathBuf {
        self.dir.join("reference")
    }

    /// `samples/`.
    pub fn samples_dir(&self) -> PathBuf {
        self.dir.join("samples")
    }

    /// `world/`: the sources of the package's own world library.
    pub fn world_dir(&self) -> PathBuf {
        self.dir.join(world::DIR)
    }

    /// `checker/`: the sources of the package's checker.
    pub fn checker_dir(&self) -> PathBuf {
        self.dir.join(checker::DIR)
    }

    /// Its own libraries (sources, what they are called, where the built one is kept): the
    /// runner builds them (`runner::package_build`) before any run calls the world or any
    /// answer is judged.
    pub fn libraries(&self) -> [(PathBuf, &'static str, &OnceLock<PathBuf>); 2] {
        [
            (
                self.world_dir(),
                "package's world library",
                &self.world_library,
            ),
            (
                self.checker_dir(),
                "package's checker",
                &self.checker_library,
            ),
        ]
    }

    /// What a run of this package carries to the worker: its spec, and its world library
    /// once built.
    pub fn interface(&self) -> PackageInterface {
        PackageInterface {
            spec: self.spec_text.to_string(),
            world_library: self.world_library.get().cloned(),
        }
    }
}

static PACKAGES: OnceLock<Vec<&'static Package>> = OnceLock::new();

/// The packages added to this run (none before [`install`]).
pub fn all() -> &'static [&'static Package] {
    PACKAGES.get().map_or(&[], Vec::as_slice)
}

/// The package named `name`, if one was added.
pub fn get(name: &str) -> Option<&'static Package> {
    all().iter().copied().find(|p| p.name == name)
}

/// What a run of `problem` carries to the worker when it is a package's (the child knows the
/// catalogue's interfaces, not a package's).
pub fn interface_of(problem: &str) -> Option<PackageInterface> {
    get(problem).map(Package::interface)
}

/// The directories `$LABGRADE_PROBLEMS` names.
pub fn from_env() -> Vec<PathBuf> {
    std::env::var_os(ENV)
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The package directories under `dir`: `dir` itself when it holds a `problem.toml`, else
/// each directory in it that does (sorted).
fn package_dirs(dir: &Path) -> Result<Vec<PathBuf>, SpecError> {
    if dir.join(SPEC_FILE).is_file() {
        return Ok(vec![dir.to_path_buf()]);
    }
    let entries = std::fs::read_dir(dir).map_err(|source| SpecError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(SPEC_FILE).is_file())
        .collect();
    found.sort();
    if found.is_empty() {
        return Err(SpecError::Invalid {
            path: dir.to_path_buf(),
            line: 0,
            message: format!(
                "no problem package here: a package is a directory with a `{SPEC_FILE}` (or a \
                 directory of such directories); `labgrade new <name>` writes one"
            ),
        });
    }
    Ok(found)
}

/// Reads the package in `dir`: its spec's name, checked against the catalogue (`builtin`).
fn read(dir: &Path, builtin: &[&str]) -> Result<Package, SpecError> {
    let path = dir.join(SPEC_FILE);
    let text = crate::spec::text_file::read(&path).map_err(|source| SpecError::Read {
        path: path.clone(),
        source,
    })?;
    let table: toml::Table =
        toml::from_str(&text).map_err(|e| crate::spec::from_toml_error(&path, &text, e))?;
    let line_of = |needle: &str| crate::spec::find_line(&text, needle);
    let invalid = |line: usize, message: String| SpecError::Invalid {
        path: path.clone(),
        line,
        message,
    };
    let name = table
        .get("problem")
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str)
        .ok_or_else(|| invalid(line_of("[problem]"), "[problem] needs a `name`".into()))?
        .to_string();
    let well_formed = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !well_formed {
        return Err(invalid(
            line_of("name"),
            format!("problem.name `{name}`: use lowercase letters, digits and `-`"),
        ));
    }
    if builtin.contains(&name.as_str()) {
        return Err(invalid(
            line_of("name"),
            format!(
                "`{name}` is a problem of labgrade's catalogue: a package may not take its \
                 name (choose another, such as `{name}-2`)"
            ),
        ));
    }
    if table.get("kit").is_none() {
        return Err(invalid(
            0,
            "a package declares its interface in a [kit] table (docs/src/kit.md)".into(),
        ));
    }
    let def = crate::problems::kit::abi::parse(&text)
        .map_err(|e| invalid(line_of("[kit]"), format!("[kit]: {e}")))?;
    let has_world_dir = dir.join(world::DIR).is_dir();
    if let Some(from) = def.world.as_ref().and_then(|w| w.catalogue.as_deref()) {
        let line = line_of("catalogue");
        catalogue_world_fits(&def, from, has_world_dir).map_err(|m| invalid(line, m))?;
    }
    let own_world = def.world.as_ref().filter(|w| w.catalogue.is_none());
    match (own_world, has_world_dir) {
        (Some(_), false) => {
            return Err(invalid(
                line_of("[kit.world]"),
                format!(
                    "[kit.world] declares a library the students' code calls: put its C \
                     sources in `{}/` beside problem.toml (docs/src/kit.md, \"A library of your \
                     own\")",
                    world::DIR
                ),
            ))
        }
        (None, true) if def.world.is_none() => {
            return Err(invalid(
                0,
                format!(
                    "the package has a `{}/` directory but no [kit.world] table: declare the \
                     library's operations there, or remove the directory",
                    world::DIR
                ),
            ))
        }
        _ => {}
    }
    let any_valid = def.function.iter().find(|f| f.any_valid);
    match (any_valid, dir.join(checker::DIR).is_dir()) {
        (Some(f), false) => {
            return Err(invalid(
                line_of("any_valid"),
                format!(
                    "`{}` accepts any valid answer (`any_valid`): put the C checker that judges \
                     one in `{}/` (docs/src/kit.md, \"Any valid answer\")",
                    f.name,
                    checker::DIR
                ),
            ))
        }
        (None, true) => {
            return Err(invalid(
                0,
                format!(
                    "the package has a `{}/` directory but no function declared `any_valid = \
                     true`: declare the functions it judges, or remove the directory",
                    checker::DIR
                ),
            ))
        }
        _ => {}
    }
    Ok(Package {
        name,
        dir: dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
        spec_text: Box::leak(text.into_boxed_str()),
        world_library: OnceLock::new(),
        checker_library: OnceLock::new(),
    })
}

/// Whether a package's `[kit.world] catalogue = "<from>"` names a catalogue world it may
/// use: one made beside the student's code, with the same operations in the same order;
/// Err says what to do.
fn catalogue_world_fits(
    def: &crate::problems::kit::abi::KitDef,
    from: &str,
    has_world_dir: bool,
) -> Result<(), String> {
    use crate::problems::kit;
    let theirs = kit::abi(from)
        .filter(|_| kit::catalogue_world(from).is_some())
        .and_then(|a| a.def().world.as_ref());
    let usable: Vec<&str> = kit::ABIS
        .iter()
        .filter(|a| a.world.is_some())
        .map(|a| a.name)
        .collect();
    let Some(theirs) = theirs else {
        return Err(format!(
            "[kit.world] catalogue = \"{from}\": not a catalogue problem whose world a package \
             may use (those are: {})",
            usable.join(", ")
        ));
    };
    if has_world_dir {
        return Err(format!(
            "[kit.world] uses {from}'s world, and the package has a `{}/` of its own: keep one",
            world::DIR
        ));
    }
    let ops = |w: &crate::problems::kit::abi::WorldDef| -> Vec<(String, usize, bool)> {
        w.ops
            .iter()
            .map(|o| (o.name.clone(), o.arity, o.returns))
            .collect()
    };
    let mine = def.world.as_ref().map(ops).unwrap_or_default();
    if mine != ops(theirs) {
        let shown: Vec<String> = theirs
            .ops
            .iter()
            .map(|o| {
                format!(
                    "{{ name = \"{}\", arity = {}{} }}",
                    o.name,
                    o.arity,
                    if o.returns { ", returns = true" } else { "" }
                )
            })
            .collect();
        return Err(format!(
            "[kit.world] uses {from}'s world: its ops must be that world's, in order: ops = \
             [{}] (the header's wrappers pass each op's index)",
            shown.join(", ")
        ));
    }
    Ok(())
}

/// Adds the packages in `dirs` beside the catalogue: each becomes a problem every command
/// knows. Once per run; a name given twice, or a catalogue problem's, is refused.
pub fn install(dirs: &[PathBuf]) -> Result<(), SpecError> {
    if dirs.is_empty() || PACKAGES.get().is_some() {
        return Ok(());
    }
    let builtin: Vec<&str> = crate::problems::all().iter().map(|p| p.name()).collect();
    let mut packages: Vec<&'static Package> = Vec::new();
    for dir in dirs {
        for found in package_dirs(dir)? {
            let p = read(&found, &builtin)?;
            if let Some(first) = packages.iter().find(|q| q.name == p.name) {
                return Err(SpecError::Invalid {
                    path: p.spec_path(),
                    line: crate::spec::find_line(p.spec_text, "name"),
                    message: format!(
                        "`{}` is also the package in `{}`: each package needs a name of its own",
                        p.name,
                        first.dir.display()
                    ),
                });
            }
            packages.push(Box::leak(Box::new(p)));
        }
    }
    let problems: Vec<&'static dyn Problem> = packages
        .iter()
        .map(|p| {
            let abi: &'static KitAbi = crate::problems::kit::register(&p.name, p.spec_text);
            let problem: &'static KitProblem = Box::leak(Box::new(problem_of(abi)));
            problem as &'static dyn Problem
        })
        .collect();
    crate::problems::add_packages(problems);
    let places = packages.iter().map(|p| crate::spec::packages::Place {
        name: p.name.clone(),
        dir: p.dir.clone(),
        spec_text: p.spec_text,
    });
    crate::spec::packages::set(places.collect());
    let _ = PACKAGES.set(packages);
    Ok(())
}

/// A problem package's problem: declared by its spec's `[kit]` alone, with its expectations
/// from the instructor's reference, run in the sandbox.
const fn problem_of(abi: &'static KitAbi) -> KitProblem {
    // A checker's reason says what is wrong: the reference's answer beside it would read as
    // the one expected.
    KitProblem::new(abi, crate::problems::kit::run_in_the_sandbox)
        .with_checker(checker::check)
        .with_checked_values_hidden()
        .with_explain(mistakes::explain)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIT: &str = "[kit]\ncounted = []\n\n[[kit.function]]\nname = \"f\"\n\
                       declaration = \"int f(int n)\"\nreturns = \"int\"\n\
                       params = [{ name = \"n\", type = \"int\" }]\n";

    fn package_with(spec: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(SPEC_FILE), spec).unwrap();
        dir
    }

    fn error_of(spec: &str) -> String {
        let dir = package_with(spec);
        read(dir.path(), &["nim"]).unwrap_err().to_string()
    }

    #[test]
    fn a_package_is_read_under_its_spec_s_name() {
        let dir = package_with(&format!("[problem]\nname = \"word-sums\"\n\n{KIT}"));
        let p = read(dir.path(), &["nim"]).unwrap();
        assert_eq!(p.name, "word-sums");
        assert!(p.spec_text.contains("[[kit.function]]"));
        assert_eq!(
            package_dirs(dir.path()).unwrap(),
            vec![dir.path().to_path_buf()]
        );
    }

    #[test]
    fn a_bad_package_is_named_with_its_file_and_line() {
        let e = error_of(&format!("[problem]\nname = \"Word Sums\"\n\n{KIT}"));
        assert!(
            e.contains("problem.toml:2:") && e.contains("lowercase"),
            "{e}"
        );
        let e = error_of(&format!("[problem]\ntitle = \"x\"\n\n{KIT}"));
        assert!(
            e.contains("problem.toml:1:") && e.contains("needs a `name`"),
            "{e}"
        );
        let e = error_of("[problem]\nname = \"word-sums\"\n");
        assert!(e.contains("[kit] table"), "{e}");
        let e = error_of("[problem]\nname = \"nim\"\n\n[kit]\n");
        assert!(e.contains("catalogue"), "{e}");
        let e = error_of("[problem\nname = 1\n");
        assert!(e.contains("problem.toml:1:"), "{e}");
        let e = error_of(&format!(
            "[problem]\nname = \"word-sums\"\n\n{}",
            KIT.replace("\"int\"", "\"float\"")
        ));
        assert!(e.contains("[kit]:"), "{e}");
    }

    #[test]
    fn a_package_may_use_a_catalogue_world_with_its_ops() {
        let world = |catalogue: &str, ops: &str| {
            format!(
                "[problem]\nname = \"pixel-count\"\n\n{KIT}\n[kit.world]\n\
                 catalogue = \"{catalogue}\"\nname = \"the pixel map\"\nops = [{ops}]\n"
            )
        };
        let pixel_ops = "{ name = \"GetPixelState\", arity = 2, returns = true }, \
                         { name = \"SetPixelState\", arity = 3 }, \
                         { name = \"OutsidePixelBounds\", arity = 2, returns = true }";
        let dir = package_with(&world("paint-fill", pixel_ops));
        assert!(read(dir.path(), &["nim"]).is_ok());
        // Another order of the ops would make every wrapper call the wrong one.
        let swapped = pixel_ops.replacen("GetPixelState", "Tmp", 1).replacen(
            "OutsidePixelBounds",
            "GetPixelState",
            1,
        );
        let e = error_of(&world(
            "paint-fill",
            &swapped.replacen("Tmp", "OutsidePixelBounds", 1),
        ));
        assert!(
            e.contains("problem.toml:14:") && e.contains("its ops must be that world's, in order"),
            "{e}"
        );
        // Only a world made beside the student's code: not a game's driver, not a problem
        // without a world.
        for from in ["roberts-nim-game", "sujiko", "nim"] {
            let e = error_of(&world(from, pixel_ops));
            assert!(
                e.contains("not a catalogue problem whose world a package may use")
                    && e.contains("paint-fill"),
                "{from}: {e}"
            );
        }
    }

    #[test]
    fn a_directory_without_packages_is_refused_with_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let e = package_dirs(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("no problem package here") && e.contains("labgrade new"),
            "{e}"
        );
        // A directory of packages holds each, sorted.
        for name in ["b", "a"] {
            std::fs::create_dir(dir.path().join(name)).unwrap();
            std::fs::write(dir.path().join(name).join(SPEC_FILE), "").unwrap();
        }
        let found = package_dirs(dir.path()).unwrap();
        assert_eq!(found, vec![dir.path().join("a"), dir.path().join("b")]);
    }
}
