//! Building a package's own code (its reference, its mistakes, its world library, its
//! checker) as a student's code is built: the runner's build step, with the package's
//! recipes, in the build jail and kept in the build cache.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::prepare::Prepared;
use super::SessionOptions;
use crate::package::Package;
use crate::problems::Problem;
use crate::spec::{ProblemSpec, SpecError};

/// Builds the instructor's code in `dir` (the reference, a mistake, the world library, the
/// checker) as a student's is built, with the package's recipes, in the build jail and
/// kept in the build cache. Code that does not build is the instructor's error, named with
/// its directory and the compiler's words; `what` names it after "the" (`reference`,
/// `package's checker`).
pub fn prepare(
    code: &'static dyn Problem,
    spec: &ProblemSpec,
    options: &SessionOptions,
    dir: &Path,
    what: &str,
) -> Result<Prepared, SpecError> {
    let prepared = super::prepare::prepare(
        code,
        spec,
        &options.cache,
        &options.worker_exe,
        what,
        dir,
        false,
    );
    match &prepared.fatal {
        Some((_, message)) => Err(SpecError::Invalid {
            path: dir.to_path_buf(),
            line: 0,
            message: format!(
                "the {what} cannot be used: {}",
                message.replace("your submission", &format!("the {what}"))
            ),
        }),
        None => Ok(prepared),
    }
}

/// Builds the library whose sources are in `dir` (a package's `world/` or `checker/`),
/// when there is one and `into` holds none yet ([`prepare`]); `into` then holds it. It is
/// loaded only by a host process of labgrade's, never by the sandboxed child and never by
/// the grader.
pub fn build(
    code: &'static dyn Problem,
    spec: &ProblemSpec,
    options: &SessionOptions,
    (dir, what): (&Path, &str),
    into: &OnceLock<PathBuf>,
) -> Result<(), SpecError> {
    if into.get().is_some() || !dir.is_dir() {
        return Ok(());
    }
    let library = prepare(code, spec, options, dir, what)?
        .library
        .ok_or_else(|| SpecError::Invalid {
            path: dir.to_path_buf(),
            line: 0,
            message: format!(
                "the {what} built no shared library: put its C or C++ sources in `{}`",
                dir.display()
            ),
        })?;
    let _ = into.set(library.path);
    Ok(())
}

/// Builds `package`'s own libraries (its world, its checker), when it has them: before any
/// run calls the world or any answer is judged.
pub fn build_libraries(
    package: &Package,
    code: &'static dyn Problem,
    spec: &ProblemSpec,
    options: &SessionOptions,
) -> Result<(), SpecError> {
    for (dir, what, into) in package.libraries() {
        build(code, spec, options, (&dir, what), into)?;
    }
    Ok(())
}
