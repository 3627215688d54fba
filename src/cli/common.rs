//! What every command needs: the data root, the session options, error printing.

use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use crate::runner::SessionOptions;
use crate::spec::{Course, Root, SpecError};
use crate::submission::BuildCache;

use super::Cli;

/// Settings shared by the commands.
pub struct Context {
    /// `--root`.
    pub root: Option<PathBuf>,
    /// Parallel slots.
    pub jobs: usize,
    /// Build cache.
    pub cache: BuildCache,
    /// Color output.
    pub color: bool,
    /// `--course` (or `$LABGRADE_COURSE`).
    pub course: Option<PathBuf>,
}

impl Context {
    /// From the parsed command line.
    pub fn new(cli: &Cli, color: bool) -> Context {
        let jobs = cli
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
        let cache = cli
            .cache_dir
            .clone()
            .map_or_else(BuildCache::default_location, BuildCache::new);
        Context {
            root: cli.root.clone(),
            jobs: jobs.max(1),
            cache,
            color,
            course: cli
                .course
                .clone()
                .or_else(|| std::env::var_os("LABGRADE_COURSE").map(PathBuf::from)),
        }
    }

    /// The data root.
    pub fn root(&self) -> Result<Root, SpecError> {
        Root::find(self.root.as_deref(), self.cache.dir())
    }

    /// Session options: workers are `labgrade-worker`, next to this binary.
    pub fn session_options(&self) -> Result<SessionOptions, CliError> {
        let me = std::env::current_exe()
            .map_err(|e| CliError(format!("cannot find labgrade's own binary: {e}")))?;
        let exe = crate::sandbox::pool::worker_next_to(&me).map_err(CliError)?;
        self.check_directories()?;
        Ok(SessionOptions {
            worker_exe: exe,
            jobs: self.jobs,
            cache: self.cache.clone(),
            course: self.course()?.map(std::sync::Arc::new),
        })
    }

    /// As root: the cache and the temp directory must be root's alone (`owned_dir`). The
    /// cache is made first (mode 0700), so no one can make it in between.
    pub fn check_directories(&self) -> Result<(), CliError> {
        let cache = self.cache.dir();
        if !cache.exists() {
            let _ = std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(cache);
        }
        use crate::owned_dir::{check, CACHE, TEMP};
        check(cache, CACHE).map_err(CliError)?;
        check(&std::env::temp_dir(), TEMP).map_err(CliError)
    }

    /// The course file, read and checked against the problems labgrade knows.
    /// A student bundle made with a course holds it (`course.toml`, see
    /// [`crate::student::COURSE_FILE`]): its checker reads it when none is given.
    pub fn course(&self) -> Result<Option<Course>, CliError> {
        let bundled = || {
            crate::problems::precomputed::precomputed_only()
                .then(|| self.root().ok())
                .flatten()
                .map(|root| root.dir().join(crate::student::COURSE_FILE))
                .filter(|path| path.is_file())
        };
        let Some(path) = self.course.clone().or_else(bundled) else {
            return Ok(None);
        };
        let course = Course::load(&path)?;
        let known: Vec<&str> = crate::problems::all().iter().map(|p| p.name()).collect();
        course.check_problems(&known)?;
        Ok(Some(course))
    }
}

/// An error that stops a command (exit code 2).
#[derive(Debug)]
pub struct CliError(pub String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

impl From<SpecError> for CliError {
    fn from(e: SpecError) -> Self {
        CliError(e.to_string())
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError(e.to_string())
    }
}

/// Prints `error: ...` to stderr.
pub fn print_error(e: &CliError, color: bool) {
    if color {
        eprintln!("\x1b[1;31merror:\x1b[0m {e}");
    } else {
        eprintln!("error: {e}");
    }
}

/// Writes `bytes` to `path` through a temporary file in its directory, renamed into place (a
/// reader never sees half a file). The file gets the mode a plain create gives (0666 less
/// the umask, as grades.csv gets): reports are read by whoever reads the grades (a course's
/// web server), where a temporary file's own 0600 answered 403.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    use std::os::unix::fs::PermissionsExt;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    std::io::Write::write_all(&mut tmp, bytes)?;
    tmp.persist(path)
        .map_err(|e| CliError(format!("cannot write `{}`: {e}", path.display())))?;
    Ok(())
}
