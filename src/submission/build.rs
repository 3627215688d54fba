//! Building sources into what the workers run, jailed, with a content-addressed cache that
//! cannot lie.
//!
//! C and C++ sources are compiled file by file with the spec's recipe, once, with
//! `-finstrument-functions` for call counting. The objects are linked, with labgrade's hidden
//! hooks and its probe, into the counting library that every function case runs, and, with
//! the hooks and labgrade's stack-overflow marker runtime, into a program (with no counters
//! installed the hooks return at once). Only where that cannot be used (a source that does
//! not compile instrumented, the student's own `__cyg_profile` hooks) are the sources also
//! compiled plainly into a plain library and program. labgrade's C helpers are compiled once
//! per compiler and cache, outside the jail, and copied in ([`super::helpers`]). A Rust
//! crate is built with cargo, offline.
//!
//! Every tool runs in the build jail ([`super::jail`]) inside a fresh private build directory
//! outside the cache, holding copies of the staged submission (`src/`), the spec's headers
//! (`spec/`), the course libraries (`lib/`, from `specs/lib/`), include-prefix shims
//! (`shim/`) and labgrade's helper objects: the jail reads nothing else of labgrade's. The include
//! path is `-I spec -I <the source's dir> -I <the submission's root> -I lib -I shim`, and
//! programs link with `-lm`.
//!
//! Graded functions declared `static` (Roberts' C edition) are kept
//! (`-fkeep-static-functions`, only in the sources that declare such a function) and made
//! global in each object (`objcopy --globalize-symbol`), so labgrade can call and count
//! them; a build note says so. Keeping every static function silences `-Wunused-function`,
//! so those sources' warnings come from a second compile with the spec's recipe alone.
//!
//! The cache key hashes every staged file by relative path, the toolchain versions (asked
//! once per process), the recipe, the graded names, the spec's headers, the course libraries
//! and labgrade's own C helpers. The grader, not the jailed tools, copies the artifacts into
//! the cache with a SHA-256 of each, in a record sealed (HMAC-SHA-256, checked in constant
//! time) with the user's key, which lives outside the cache (`cache_secret`); an entry whose
//! record or artifacts do not check out is rebuilt.
//! A failure of the machine (no compiler, no disk, no jail) is reported, never cached.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::build_lock::BuildLock;
use super::detect::{language_of, Language, SubmissionKind};
use super::helpers;
use super::intake::Staged;
use super::jail::{self, Identity, Jail, JailLimits};
use super::symbols::{base_name, near_spelling};

mod c_family;
use crate::spec::{CompilerRecipe, ProblemSpec};
use c_family::build_c_family_in;

/// Largest object file read for its symbols.
const MAX_OBJECT_BYTES: u64 = 64 << 20;
/// Most bytes of one source scanned for `#include "…"` lines and static definitions.
const MAX_SCAN_BYTES: usize = 1 << 20;
/// Most include-prefix shims made for one build.
const MAX_SHIMS: usize = 64;
/// Most bytes of diagnostics kept for a whole build (each tool's own output is capped by
/// the jail; this bounds the sum over many files).
const MAX_OUTPUT_BYTES: usize = 128 << 10;
/// Deepest `../` a shimmed include may start with.
const SHIM_DEPTH: usize = 4;

/// The section the counting build puts every function its source opts out of counting in
/// (see [`counting_defines`]).
const OPTED_OUT_SECTION: &str = ".text.labgrade_not_counted";

/// Macros the counting build compiles the student's sources with, so that what their code
/// does to the counting shows:
/// - a call the code makes by hand to the profiling hooks (`__cyg_profile_func_enter`, to
///   make a loop count as recursion) goes to `labgrade_hand_called_enter/exit`, which record
///   it as forging the counts (the calls the compiler inserts name the real hooks: macros do
///   not reach them);
/// - a function marked `no_instrument_function` keeps the attribute, and is also emitted
///   (`used`, even when inlined everywhere) into [`OPTED_OUT_SECTION`], where labgrade finds
///   it: its calls are hidden by the code, not absent. labgrade's own headers' wrappers land
///   there too, and are never counted functions.
fn counting_defines() -> Vec<String> {
    let marked = |attr: &str| format!("-D{attr}={attr},used,section(\"{OPTED_OUT_SECTION}\")");
    vec![
        "-D__cyg_profile_func_enter=labgrade_hand_called_enter".into(),
        "-D__cyg_profile_func_exit=labgrade_hand_called_exit".into(),
        marked("no_instrument_function"),
        marked("__no_instrument_function__"),
    ]
}

/// The graded or counted functions none of whose definitions in `objs` calls the entry
/// hook: kept out of the counting build by some means of the source's (a `#line` into a
/// system header, an attribute, a pragma).
fn kept_out_of_counting(objs: &[PathBuf], graded: &[String]) -> Vec<String> {
    let counted = |n: &str| graded.iter().any(|g| near_spelling(n, g));
    let hooked: Vec<(String, bool)> = objs
        .iter()
        .flat_map(|o| super::symbols::entry_hooked_functions(o, &counted).unwrap_or_default())
        .collect();
    hooked
        .iter()
        .filter(|(n, _)| !hooked.iter().any(|(m, h)| m == n && *h))
        .map(|(n, _)| n.clone())
        .collect()
}

/// Writes, in the build directory `w`, the unit that compiles the game adapter `unity`
/// with its namespace named for these sources (a digest of `files`): a name the student's
/// code cannot know, so it cannot declare into it. The name is defined after their code,
/// which never sees it; the driver compiled apart is given the same name. Returns the unit
/// and the name.
fn named_driver_unit(
    w: &Path,
    files: &[PathBuf],
    unity: &Path,
) -> Result<(PathBuf, String), String> {
    let mut h = Sha256::new();
    for f in files {
        h.update(std::fs::read(f).unwrap_or_default());
    }
    let digest: String = h
        .finalize()
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect();
    let namespace = format!("lg_game_side_{digest}");
    let named = w.join("lg_unity.cpp");
    std::fs::write(
        &named,
        format!(
            "#define LG_DRIVER_NS {namespace}\n#include \"{}\"\n",
            unity.display()
        ),
    )
    .map_err(|e| e.to_string())?;
    Ok((named, namespace))
}

/// The compile of labgrade's game driver `driver`, on its own: only labgrade's headers
/// (`lib_dir`), no student source, header, macro or include path, every symbol hidden but
/// the worker's entry points. It reaches the student's game only through the adapter's
/// functions in `namespace`. It is labgrade's own code: a failure is labgrade's.
fn unity_driver_compile(
    compiler: &str,
    driver: &Path,
    lib_dir: &Path,
    namespace: &str,
    obj: &Path,
) -> Command {
    let mut cmd = Command::new(compiler);
    cmd.args([
        "-std=c++11",
        "-fPIC",
        "-c",
        "-O2",
        "-w",
        "-fvisibility=hidden",
    ])
    .arg(format!("-DLG_DRIVER_NS={namespace}"))
    .arg("-I")
    .arg(lib_dir)
    .arg(driver)
    .arg("-o")
    .arg(obj);
    cmd
}

/// How a source is compiled: with the counting hooks (and [`counting_defines`]), with the
/// counting build's macros alone (to see what the source itself names), or plainly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counting {
    Hooks,
    MacrosOnly,
    Plain,
}

/// What the report says of a source that names the counting machinery itself (`found`:
/// what, and where).
fn hand_counting_note(found: &[String]) -> String {
    let shown: Vec<String> = found
        .iter()
        .map(|f| {
            f.replace("labgrade_hand_called_enter", "__cyg_profile_func_enter")
                .replace("labgrade_hand_called_exit", "__cyg_profile_func_exit")
        })
        .collect();
    format!(
        "your code calls the profiling hooks or reaches labgrade's counts itself ({}), so no \
         count of its calls can be trusted: remove that code (labgrade counts every call for \
         you)",
        shown.join(", ")
    )
}

/// A static function of the student's that labgrade made callable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MadeCallable {
    /// The function as the student spells it.
    pub name: String,
    /// The graded or counted function it stands for.
    pub graded: String,
    /// The source it is static in.
    pub file: String,
}

/// What a build produced.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Built {
    /// The plain shared library.
    pub library: Option<PathBuf>,
    /// The instrumented shared library.
    pub instrumented: Option<PathBuf>,
    /// The program.
    pub program: Option<PathBuf>,
    /// True when the program carries labgrade's stack-overflow marker runtime.
    pub program_marks_overflow: bool,
    /// True when `library` is a jar of Java classes, run on the JVM ([`super::java`]).
    #[serde(default)]
    pub jvm: bool,
    /// The program built under AddressSanitizer/LeakSanitizer, when the spec asks for one.
    #[serde(default)]
    pub sanitized: Option<PathBuf>,
    /// Why there is no sanitizer program, when the spec asks for one.
    #[serde(default)]
    pub sanitized_note: Option<String>,
    /// Why there is no instrumented library, when the plain one built.
    #[serde(default)]
    pub instrumented_note: Option<String>,
    /// The counting build failed for what the code does (it defines the profiling hooks
    /// itself, or it compiles or links plainly but not in the counting build): what its calls
    /// would show is hidden by the code, not missing by labgrade's design, so the cases that
    /// grade them fail. labgrade's counting build is the plain build with hooks added: it
    /// fails only where a source tells the two apart.
    #[serde(default)]
    pub counting_hidden: bool,
    /// Functions of the counting build compiled without its hooks (the source opted out with
    /// `no_instrument_function` or a pragma): their calls cannot be counted.
    #[serde(default)]
    pub uninstrumented: Vec<String>,
    /// Why there is no program, when there is none but the library built.
    pub program_missing: Option<String>,
    /// True when the build failed outright.
    pub failed: bool,
    /// Compiler and linker output (capped; what was cut is said).
    pub output: String,
    /// Warnings the compiler printed for the student's files.
    pub warnings: usize,
    /// Static functions labgrade made callable (noted on the report unless the assignment
    /// lets them be static).
    #[serde(default)]
    pub made_callable: Vec<MadeCallable>,
    /// Notes for the report.
    #[serde(default)]
    pub notes: Vec<String>,
    /// For a graded function the sources define only as a class member that labgrade
    /// could not call (see `members`): what the student can change, by function.
    #[serde(default)]
    pub member_hints: BTreeMap<String, String>,
    /// The failure is the machine's (no compiler, no disk, no jail, a timeout), not the
    /// student's: never cached, reported as an internal error.
    #[serde(skip)]
    pub machine_error: bool,
    /// Came from the cache.
    #[serde(skip)]
    pub cached: bool,
}

impl Built {
    pub(super) fn fail(output: String, machine: bool) -> Built {
        Built {
            failed: true,
            output,
            machine_error: machine,
            ..Built::default()
        }
    }
}

/// A cache entry's record: the build, the hash of every artifact, authenticated.
#[derive(Serialize, Deserialize)]
struct Record {
    built: Built,
    /// Artifact file name -> SHA-256 (hex).
    hashes: BTreeMap<String, String>,
}

/// Where builds are kept.
#[derive(Debug, Clone)]
pub struct BuildCache {
    dir: PathBuf,
    limits: JailLimits,
}

impl BuildCache {
    /// A cache in `dir` (created on demand). A relative `dir` is taken from the current
    /// directory now: the artifacts' paths go to sandboxed runs, whose working directory
    /// is their own (`--cache-dir cache` made every run a load error).
    pub fn new(dir: impl Into<PathBuf>) -> BuildCache {
        let dir = dir.into();
        BuildCache {
            dir: std::path::absolute(&dir).unwrap_or(dir),
            limits: JailLimits::default(),
        }
    }

    /// The limits of the jailed tools.
    pub fn limits(&self) -> &JailLimits {
        &self.limits
    }

    /// The same cache, with other limits for the jailed tools.
    pub fn with_limits(mut self, limits: JailLimits) -> BuildCache {
        self.limits = limits;
        self
    }

    /// The default: `$LABGRADE_CACHE`, else `$XDG_CACHE_HOME/labgrade`, else
    /// `~/.cache/labgrade`, else a directory under the system temp dir.
    pub fn default_location() -> BuildCache {
        if let Some(d) = std::env::var_os("LABGRADE_CACHE") {
            return BuildCache::new(PathBuf::from(d));
        }
        if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
            return BuildCache::new(PathBuf::from(d).join("labgrade"));
        }
        if let Some(h) = std::env::var_os("HOME") {
            return BuildCache::new(PathBuf::from(h).join(".cache").join("labgrade"));
        }
        BuildCache::new(std::env::temp_dir().join("labgrade-cache"))
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where intake stages submissions (private to the grader).
    pub fn staging_dir(&self) -> PathBuf {
        self.dir.join("staging")
    }

    fn ensure_dir(&self) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir)
            .and_then(|_| {
                std::fs::set_permissions(&self.dir, std::fs::Permissions::from_mode(0o700))
            })
            .map_err(|e| {
                format!(
                    "cannot create the build cache `{}`: {e}",
                    self.dir.display()
                )
            })
    }

    /// Keeps a prebuilt library or executable (already staged) in the cache by content, and
    /// returns where.
    pub fn keep_prebuilt(&self, staged: &Path) -> Result<PathBuf, String> {
        self.ensure_dir()?;
        let data =
            std::fs::read(staged).map_err(|e| format!("cannot read the staged copy: {e}"))?;
        let hash = hex(&Sha256::digest(&data));
        let name = staged.file_name().unwrap_or_default();
        let dir = self.dir.join("prebuilt").join(&hash[..32]);
        let dest = dir.join(name);
        if std::fs::read(&dest).is_ok_and(|d| hex(&Sha256::digest(&d)) == hash) {
            return Ok(dest);
        }
        let _ = std::fs::remove_dir_all(&dir);
        let parent = self.dir.join("prebuilt");
        std::fs::create_dir_all(&parent).map_err(|e| format!("cannot write the cache: {e}"))?;
        let tmp = tempfile::Builder::new()
            .prefix(".incoming-")
            .tempdir_in(&parent)
            .map_err(|e| format!("cannot write the cache: {e}"))?;
        let to = tmp.path().join(name);
        std::fs::write(&to, &data)
            .and_then(|_| std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)))
            .and_then(|_| {
                std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755))
            })
            .map_err(|e| format!("cannot write the cache: {e}"))?;
        let tmp = tmp.keep();
        if std::fs::rename(&tmp, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        match std::fs::read(&dest) {
            Ok(d) if hex(&Sha256::digest(&d)) == hash => Ok(dest),
            _ => Err("the cached copy of the prebuilt file does not match it".into()),
        }
    }

    /// Builds the staged submission `kind` for `spec`, or returns the cached build.
    /// `graded` names the functions labgrade calls or counts (static ones are made callable).
    pub fn build(
        &self,
        kind: &SubmissionKind,
        staged: &Staged,
        spec: &ProblemSpec,
        graded: &[String],
    ) -> Built {
        if let Err(e) = self.ensure_dir() {
            return Built::fail(e, true);
        }
        let key = match cache_key(kind, staged, spec, graded, &self.limits) {
            Ok(k) => k,
            Err(e) => return Built::fail(e, true),
        };
        let secret = match super::cache_secret::secret(&self.dir) {
            Ok(s) => s,
            Err(e) => return Built::fail(e, true),
        };
        let final_dir = self.dir.join(&key);
        if let Some(b) = load_cached(&final_dir, &secret) {
            return b;
        }
        // Whoever builds this key first, the others wait and then take its build.
        let _building = BuildLock::acquire(&self.dir, &key);
        if let Some(b) = load_cached(&final_dir, &secret) {
            return b;
        }
        let work = match BuildDir::new(kind) {
            Ok(w) => w,
            Err(e) => return Built::fail(e, true),
        };
        let mut built = match kind {
            SubmissionKind::Sources(files) if super::java::is_java(files) => {
                super::java::build(staged, spec, &work, &self.limits)
            }
            SubmissionKind::Sources(_) => {
                build_c_family(staged, spec, graded, &work, &self.limits, &self.dir)
            }
            SubmissionKind::RustCrate(_) => {
                build_crate(staged, spec, &work, &self.limits, &self.dir)
            }
            _ => Built::fail("nothing to build".into(), true),
        };
        // The student's files under their own names, relative to their submission as their
        // own compiler run there would print them (`nim.c:12:5: error: ...`: short, and the
        // same wherever the submission lies, as a cached build must be); the rest of the
        // build dir as <build>.
        let w = work.path().display().to_string();
        let original = if staged.root.is_dir() {
            staged.original.display().to_string()
        } else {
            staged
                .original
                .parent()
                .map_or_else(String::new, |p| p.display().to_string())
        };
        let as_handed_in = |text: &str| {
            let mut text = text.to_string();
            for sub in ["src", "crate"] {
                text = text.replace(&format!("{w}/{sub}/"), "");
            }
            for sub in ["src", "crate"] {
                text = text.replace(&format!("{w}/{sub}"), &original);
            }
            staged.unstage(&text.replace(&w, "<build>"))
        };
        for text in std::iter::once(&mut built.output).chain(built.instrumented_note.as_mut()) {
            *text = as_handed_in(text);
        }
        cap_output(&mut built.output, MAX_OUTPUT_BYTES);
        if built.machine_error {
            return built;
        }
        match publish(&built, work.path(), &self.dir, &final_dir, &secret) {
            Ok(b) => b,
            Err(e) => Built::fail(e, true),
        }
    }
}

/// The first error a compiler or linker printed, on one line (at most 200 characters).
fn first_error(output: &str) -> Option<String> {
    let line = output
        .lines()
        .find(|l| l.contains("error:") || l.contains("undefined reference"))?
        .trim();
    Some(match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.to_string(),
    })
}

/// Cuts `text` to `max` bytes (at a character boundary) and says how much went.
fn cap_output(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut at = max;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let cut = text.len() - at;
    text.truncate(at);
    text.push_str(&format!(
        "\n… {} more bytes of compiler output cut\n",
        jail::thousands(cut as u64)
    ));
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn hash_file(p: &Path) -> Option<String> {
    let mut f = std::fs::File::open(p).ok()?;
    let mut h = Sha256::new();
    std::io::copy(&mut f, &mut h).ok()?;
    Some(hex(&h.finalize()))
}

/// Copies the artifacts out of the jailed build directory into the cache, hashed, and
/// publishes the entry atomically.
fn publish(
    built: &Built,
    work: &Path,
    cache: &Path,
    final_dir: &Path,
    secret: &[u8],
) -> Result<Built, String> {
    let incoming = tempfile::Builder::new()
        .prefix(".incoming-")
        .tempdir_in(cache)
        .map_err(|e| format!("cannot write the build cache: {e}"))?;
    let mut hashes = BTreeMap::new();
    let mut out = built.clone();
    for slot in [
        &mut out.library,
        &mut out.instrumented,
        &mut out.program,
        &mut out.sanitized,
    ] {
        let Some(p) = slot.take() else { continue };
        let name = p
            .file_name()
            .ok_or("an artifact has no name")?
            .to_string_lossy()
            .into_owned();
        // Only regular files the build made, never a link the tools planted.
        let meta = std::fs::symlink_metadata(&p).map_err(|e| format!("artifact {name}: {e}"))?;
        if !meta.is_file() || !p.starts_with(work) {
            return Err(format!(
                "artifact {name} is not a regular file of the build"
            ));
        }
        let to = incoming.path().join(&name);
        std::fs::copy(&p, &to)
            .and_then(|_| std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)))
            .map_err(|e| format!("cannot copy {name} into the cache: {e}"))?;
        hashes.insert(
            name.clone(),
            hash_file(&to).ok_or_else(|| format!("cannot hash {name}"))?,
        );
        *slot = Some(final_dir.join(&name));
    }
    let record = Record {
        built: out.clone(),
        hashes,
    };
    let body = serde_json::to_vec_pretty(&record).map_err(|e| e.to_string())?;
    std::fs::write(incoming.path().join("build.json"), &body)
        .and_then(|_| {
            std::fs::write(
                incoming.path().join("build.mac"),
                super::cache_secret::mac(secret, &body),
            )
        })
        .and_then(|_| {
            std::fs::set_permissions(incoming.path(), std::fs::Permissions::from_mode(0o755))
        })
        .map_err(|e| format!("cannot write the build cache: {e}"))?;
    let tmp = incoming.keep();
    // A stale or forged entry in the way is removed first.
    if final_dir.exists() && load_cached(final_dir, secret).is_none() {
        let _ = std::fs::remove_dir_all(final_dir);
    }
    match std::fs::rename(&tmp, final_dir) {
        Ok(()) => Ok(out),
        Err(_) => {
            // Another thread built the same thing first: use theirs if it checks out (this
            // build was made all the same: not a cached one).
            let _ = std::fs::remove_dir_all(&tmp);
            let theirs = load_cached(final_dir, secret).map(|b| Built { cached: false, ..b });
            Ok(theirs.unwrap_or(out))
        }
    }
}

/// The cached build in `dir`, if its record is authentic and every artifact is what was
/// recorded; otherwise `None` (and the entry is removed, so it is rebuilt).
fn load_cached(dir: &Path, secret: &[u8]) -> Option<Built> {
    let check = || -> Option<Built> {
        let body = std::fs::read(dir.join("build.json")).ok()?;
        let tag = std::fs::read_to_string(dir.join("build.mac")).ok()?;
        if body.len() > 1 << 20 || !super::cache_secret::verify(secret, &body, &tag) {
            return None;
        }
        let record: Record = serde_json::from_slice(&body).ok()?;
        let b = &record.built;
        for p in [&b.library, &b.instrumented, &b.program, &b.sanitized]
            .into_iter()
            .flatten()
        {
            let name = p.file_name()?.to_string_lossy().into_owned();
            if p.parent() != Some(dir)
                || !std::fs::symlink_metadata(p).ok()?.is_file()
                || hash_file(p)? != *record.hashes.get(&name)?
            {
                return None;
            }
        }
        let mut b = record.built;
        b.cached = true;
        Some(b)
    };
    let found = check();
    if found.is_none() && dir.exists() {
        let _ = std::fs::remove_dir_all(dir);
    }
    found
}

/// Toolchain versions, asked once per process (in the jail, like every tool run).
/// The first line of `program --version` (`rustc -V` for rustc), run jailed, as a report's
/// provenance records it.
pub(crate) fn compiler_version(program: &str) -> String {
    let (program, args): (String, &[&str]) = if program == "rustc" {
        (rust_toolchain().rustc.display().to_string(), &["-V"])
    } else {
        (program.to_string(), &["--version"])
    };
    tool_version(&program, args)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

pub(super) fn tool_version(program: &str, args: &[&str]) -> String {
    // One probe per tool and process: threads building at once wait for the first.
    type Probes = Mutex<BTreeMap<String, std::sync::Arc<OnceLock<String>>>>;
    static SEEN: OnceLock<Probes> = OnceLock::new();
    let key = format!("{program} {}", args.join(" "));
    let probe = {
        let mut seen = SEEN
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        seen.entry(key).or_default().clone()
    };
    probe.get_or_init(|| probe_version(program, args)).clone()
}

/// `program args`, run jailed: its trimmed output, or why it could not say.
fn probe_version(program: &str, args: &[&str]) -> String {
    (|| {
        let dir = BuildDir::new(&SubmissionKind::Sources(Vec::new())).ok()?;
        let mut jail = Jail::new(Identity::Nobody, dir.path(), JailLimits::default());
        // Only the Rust toolchain's own tools are named by path (asking for the toolchain
        // runs rustc, which a class of C sources never needs).
        if program.starts_with('/') {
            let tc = rust_toolchain();
            if program.starts_with(&tc.sysroot.display().to_string()) {
                jail.identity = Identity::RootWithoutCapabilities;
                jail.read_exec.extend(tc.dirs.iter().cloned());
            }
        }
        let o = jail::run(
            Command::new(program)
                .args(args)
                .env_clear()
                .env("PATH", PATH),
            &jail,
        );
        o.success.then(|| o.output.trim().to_string())
    })()
    .unwrap_or_else(|| format!("{program}: unavailable"))
}

const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The Rust toolchain: its sysroot, the cargo and rustc in it, and the directories the jail
/// must let cargo read and execute.
struct RustToolchain {
    sysroot: PathBuf,
    cargo: PathBuf,
    rustc: PathBuf,
    dirs: Vec<PathBuf>,
}

/// The Rust toolchain's sysroot (for `labgrade doctor`'s probe of the cargo jail).
pub(crate) fn rust_sysroot() -> &'static Path {
    &rust_toolchain().sysroot
}

fn rust_toolchain() -> &'static RustToolchain {
    static TC: OnceLock<RustToolchain> = OnceLock::new();
    TC.get_or_init(|| {
        let sysroot = Command::new("rustc")
            .args(["--print", "sysroot"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
            .unwrap_or_default();
        let cargo = sysroot.join("bin/cargo");
        let rustc = sysroot.join("bin/rustc");
        RustToolchain {
            dirs: vec![sysroot.clone()],
            cargo: if cargo.is_file() {
                cargo
            } else {
                "cargo".into()
            },
            rustc: if rustc.is_file() {
                rustc
            } else {
                "rustc".into()
            },
            sysroot,
        }
    })
}

/// A hash of the running grader's own executable, computed once: how labgrade builds
/// (flags, defines, which symbols it makes callable) lives in its code, so a rebuilt labgrade
/// never reuses a build an older one made.
pub(crate) fn grader_identity() -> &'static [u8] {
    static ID: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        std::env::current_exe()
            .and_then(std::fs::read)
            .map(|bytes| Sha256::digest(&bytes).to_vec())
            .unwrap_or_default()
    })
}

fn cache_key(
    kind: &SubmissionKind,
    staged: &Staged,
    spec: &ProblemSpec,
    graded: &[String],
    limits: &JailLimits,
) -> Result<String, String> {
    let mut h = Sha256::new();
    h.update(env!("CARGO_PKG_VERSION"));
    h.update(grader_identity());
    for part in super::helpers::SOURCES {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    let b = &spec.build;
    h.update(format!(
        "{:?}|{:?}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{graded:?}|{limits:?}",
        b.c,
        b.cpp,
        b.rust_profile,
        b.driver,
        b.unity,
        b.cpp_adapter,
        b.sanitizer_main,
        b.sanitizer_excludes,
        b.headers,
        b.provides,
        b.form,
        b.unity_general_part
    ));
    // A course's forms: their wrappers' text (the course file is not otherwise hashed here).
    for w in &b.course_forms {
        h.update((w.source.len() as u64).to_le_bytes());
        h.update(&w.source);
    }
    // The graded functions' declarations: a member bridge is made from them.
    for (name, decl) in &b.declarations {
        h.update(format!("{}:{name}{}:{decl}", name.len(), decl.len()));
    }
    h.update(format!("class:{:?}", b.member_class));
    match kind {
        SubmissionKind::RustCrate(_) => {
            let tc = rust_toolchain();
            h.update(RUST_COUNTING_FLAGS.join(" "));
            h.update(tool_version(&tc.rustc.display().to_string(), &["-vV"]));
            h.update(tool_version(&tc.cargo.display().to_string(), &["-V"]));
        }
        _ => {
            for c in [&b.c.compiler, &b.cpp.compiler] {
                h.update(tool_version(c, &["--version"]));
            }
            h.update(tool_version("objcopy", &["--version"]));
            if matches!(kind, SubmissionKind::Sources(f) if super::java::is_java(f)) {
                h.update(super::java::javac_version());
            }
        }
    }
    let mut add_tree = |label: &str, dir: &Path| -> Result<(), String> {
        // A single staged file is its own tree (tree_files names it by its file name).
        let single = std::fs::metadata(dir).is_ok_and(|m| m.is_file());
        for rel in tree_files(dir) {
            let path = if single {
                dir.to_path_buf()
            } else {
                dir.join(&rel)
            };
            let data = std::fs::read(&path)
                .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
            h.update(label);
            h.update(rel.to_string_lossy().as_bytes());
            h.update([0]);
            h.update((data.len() as u64).to_le_bytes());
            h.update(&data);
        }
        Ok(())
    };
    add_tree("spec:", &spec.include_dir)?;
    add_tree("lib:", &spec.lib_dir)?;
    add_tree("sub:", &staged.root)?;
    let digest = h.finalize();
    Ok(hex(&digest[..16]))
}

/// Regular files under `dir` (relative, sorted), links not followed, hidden entries skipped.
pub fn tree_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(base: &Path, rel: &Path, depth: usize, out: &mut Vec<PathBuf>) {
        if depth > 16 {
            return;
        }
        for e in std::fs::read_dir(base.join(rel))
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = e.file_name();
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            let Ok(ft) = e.file_type() else { continue };
            let r = rel.join(&name);
            if ft.is_dir() {
                walk(base, &r, depth + 1, out);
            } else if ft.is_file() {
                out.push(r);
            }
        }
    }
    let mut out = Vec::new();
    if std::fs::metadata(dir).is_ok_and(|m| m.is_file()) {
        // A single staged file: its own name.
        if let Some(n) = dir.file_name() {
            out.push(PathBuf::from(n));
        }
        return out;
    }
    walk(dir, Path::new(""), 0, &mut out);
    out.sort();
    out
}

/// Copies the regular files of `from` (a directory or a file) into `to`.
pub fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    if std::fs::metadata(from).is_ok_and(|m| m.is_file()) {
        let dest = to.join(from.file_name().unwrap_or_default());
        std::fs::create_dir_all(to)
            .and_then(|_| std::fs::copy(from, &dest))
            .map_err(|e| format!("cannot copy into the build directory: {e}"))?;
        return Ok(());
    }
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create the build directory: {e}"))?;
    for rel in tree_files(from) {
        let dest = to.join(&rel);
        if let Some(p) = dest.parent() {
            std::fs::create_dir_all(p).map_err(|e| format!("cannot copy: {e}"))?;
        }
        std::fs::copy(from.join(&rel), &dest)
            .map_err(|e| format!("cannot copy into the build directory: {e}"))?;
    }
    Ok(())
}

/// CPU seconds one C or C++ tool (a compile of one file, a link) may take: twenty times
/// what the largest course file here takes, so an include bomb ends within seconds.
pub const C_TOOL_CPU_SECONDS: u64 = 20;

/// A fresh private build directory, outside the cache (which may sit where the jailed uid
/// cannot reach, and which the jail must not see), removed on drop. Owned by the jail's uid
/// for C and C++ (the tools run as `nobody`), by the grader for cargo.
pub(super) struct BuildDir {
    dir: tempfile::TempDir,
    nobody: bool,
    /// A Rust crate (its budget is `crate_cpu_seconds`).
    is_crate: bool,
    /// Shared by every tool of this build, made with the first jail.
    budget: std::sync::OnceLock<std::sync::Arc<super::build_budget::Budget>>,
}

impl BuildDir {
    pub(super) fn new(kind: &SubmissionKind) -> Result<BuildDir, String> {
        let is_crate = matches!(kind, SubmissionKind::RustCrate(_));
        // SAFETY: geteuid has no preconditions.
        // Rust crates too: their toolchain is bound into the jail (see `build_crate`).
        let nobody = unsafe { libc::geteuid() } == 0;
        // `nobody` must be able to reach it: /tmp, whatever $TMPDIR says.
        let parent = if nobody {
            PathBuf::from("/tmp")
        } else {
            std::env::temp_dir()
        };
        let dir = tempfile::Builder::new()
            .prefix("labgrade-build-")
            .tempdir_in(parent)
            .map_err(|e| format!("cannot create a build directory: {e}"))?;
        Ok(BuildDir {
            dir,
            nobody,
            is_crate,
            budget: std::sync::OnceLock::new(),
        })
    }

    pub(super) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Hands everything in the directory to the jail's uid.
    pub(super) fn give_away(&self) -> Result<(), String> {
        if !self.nobody {
            return Ok(());
        }
        fn chown_all(p: &Path) -> std::io::Result<()> {
            std::os::unix::fs::lchown(p, Some(jail::BUILD_ID), Some(jail::BUILD_ID))?;
            if std::fs::symlink_metadata(p)?.is_dir() {
                for e in std::fs::read_dir(p)? {
                    chown_all(&e?.path())?;
                }
            }
            Ok(())
        }
        chown_all(self.path()).map_err(|e| format!("cannot prepare the build directory: {e}"))
    }

    pub(super) fn jail(&self, limits: &JailLimits) -> Jail {
        let identity = if self.nobody {
            Identity::Nobody
        } else {
            Identity::RootWithoutCapabilities
        };
        let budget = self.budget.get_or_init(|| {
            let cpu = if self.is_crate {
                limits.crate_cpu_seconds
            } else {
                limits.build_cpu_seconds
            };
            std::sync::Arc::new(super::build_budget::Budget::new(
                std::time::Duration::from_secs(cpu),
                limits.build_wall,
            ))
        });
        Jail {
            budget: Some(budget.clone()),
            ..Jail::new(identity, self.path(), *limits)
        }
    }
}

/// One jailed tool run.
pub(super) struct Step {
    pub(super) ok: bool,
    pub(super) output: String,
    pub(super) machine: Option<String>,
}

pub(super) fn run_in(cmd: &mut Command, jail: &Jail, work: &Path) -> Step {
    cmd.env_clear()
        .env("PATH", PATH)
        .env("LANG", "C")
        .env("LC_ALL", "C")
        .env("TMPDIR", work.join("tmp"))
        .env("HOME", work.join("tmp"))
        .current_dir(work);
    let o = jail::run(cmd, jail);
    Step {
        ok: o.success,
        // A timeout may be the machine's load, unless the tool was computing all along.
        machine: o
            .machine_error
            .clone()
            .or_else(|| (o.timed_out && !o.computing).then(|| o.output.clone())),
        output: o.output,
    }
}

fn count_warnings(output: &str) -> usize {
    output.lines().filter(|l| l.contains(": warning:")).count()
}

fn recipe_for(spec: &ProblemSpec, lang: Language) -> &CompilerRecipe {
    match lang {
        // Java never comes here (see `super::java`): a mixed folder builds its C or C++.
        Language::C | Language::Java => &spec.build.c,
        Language::Cpp => &spec.build.cpp,
    }
}

/// Local function symbols of an object file that name a graded function.
fn local_graded_functions(obj: &Path, graded: &[String]) -> Vec<(String, String)> {
    graded_functions(obj, graded, true)
}

/// The symbol the objects define for graded function `name` in the course's form `decl`
/// (once the static ones are global): its C name, else the one function spelt so, else the
/// one among C++ overloads with the declaration's number of parameters; None when that
/// does not decide.
fn symbol_of_graded(objs: &[PathBuf], name: &str, decl: &str) -> Option<String> {
    let graded = [name.to_string()];
    let mut found: Vec<String> = objs
        .iter()
        .flat_map(|o| graded_functions(o, &graded, false))
        .map(|(sym, _)| sym)
        .collect();
    found.sort();
    found.dedup();
    if found.iter().any(|s| s == name) {
        return Some(name.to_string());
    }
    if let [one] = &found[..] {
        return Some(one.clone());
    }
    let arity = super::signature::declared(decl)?.params.len();
    let same: Vec<&String> = found
        .iter()
        .filter(|s| {
            super::symbols::demangle(s)
                .and_then(|d| super::signature::demangled_params(&d))
                .is_some_and(|p| p.len() == arity)
        })
        .collect();
    match same[..] {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The text symbols `obj` defines whose name is one of `graded` as spelt (see
/// `near_spelling`), with the graded name each stands for; the local ones only, or all.
fn graded_functions(obj: &Path, graded: &[String], locals_only: bool) -> Vec<(String, String)> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let Ok(f) = std::fs::File::open(obj) else {
        return Vec::new();
    };
    let mut data = Vec::new();
    if f.take(MAX_OBJECT_BYTES).read_to_end(&mut data).is_err() {
        return Vec::new();
    }
    let Ok(file) = object::File::parse(&*data) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for s in file.symbols() {
        if s.kind() != SymbolKind::Text || (locals_only && !s.is_local()) || !s.is_definition() {
            continue;
        }
        let Ok(name) = s.name() else { continue };
        // Compiler-made local copies (`.localalias` of a global function that calls itself,
        // `.constprop.0`, `.isra.0` clones): the function itself is what is graded.
        if name.contains('.') {
            continue;
        }
        let base = base_name(name);
        if let Some(g) = graded.iter().find(|g| near_spelling(&base, g)) {
            out.push((name.to_string(), g.clone()));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `output` less the "defined but not used" warnings about graded functions: labgrade calls
/// them, so a static graded function that the student's own code never calls (the handout's
/// `ExhaustiveSolve` beside the `SmarterSolve` its main uses) is no mistake of the student's.
/// Each such warning goes with the source lines and caret that follow it.
fn without_unused_graded(output: &str, graded: &[String]) -> String {
    let about_graded = |l: &str| {
        l.contains("defined but not used [-Wunused-function]")
            && l.split('\'').nth(1).is_some_and(|quoted| {
                let head = quoted.split('(').next().unwrap_or(quoted);
                let name = head
                    .rsplit(|c: char| c.is_whitespace() || c == '*' || c == '&' || c == ':')
                    .next()
                    .unwrap_or("");
                graded.iter().any(|g| g == name)
            })
    };
    // gcc's context lines: `   90 | static void ...` and `      |             ^~~~`.
    let context = |l: &str| {
        let t = l.trim_start();
        t.starts_with('|')
            || t.split_once(" |")
                .is_some_and(|(n, _)| n.trim().parse::<u64>().is_ok())
    };
    let mut kept = Vec::new();
    let mut skipping = false;
    for l in output.lines() {
        if about_graded(l) {
            skipping = true;
            continue;
        }
        if skipping && context(l) {
            continue;
        }
        skipping = false;
        kept.push(l);
    }
    let kept = without_empty_headings(kept);
    let mut text = kept.join("\n");
    if output.ends_with('\n') && !text.is_empty() {
        text.push('\n');
    }
    text
}

/// `lines` less gcc's headings (`a.c: At top level:`, `a.c: In function 'f':`) that no
/// diagnostic follows any more: a heading whose warnings were all taken out would dangle.
fn without_empty_headings(lines: Vec<&str>) -> Vec<&str> {
    let heading = |l: &str| {
        l.ends_with(':')
            && (l.contains(": At top level:")
                || l.contains(": In function ")
                || l.contains(": In member function ")
                || l.contains(": In static member function ")
                || l.contains(": In constructor ")
                || l.contains(": In destructor "))
    };
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    for (i, l) in lines.iter().enumerate() {
        let next = lines.get(i + 1).copied();
        if heading(l) && next.is_none_or(heading) {
            continue;
        }
        out.push(l);
    }
    out
}

/// Whether `text` defines a function called `name` (its name, a parameter list, then a
/// body), static or not: a declaration or a call is not a definition.
fn defines_function(text: &str, name: &str) -> bool {
    let pattern = format!(r"\b{}\s*\([^;{{}}()]*\)\s*\{{", regex::escape(name));
    regex::Regex::new(&pattern).is_ok_and(|re| re.is_match(text))
}

/// The functions a line of `text` declares or defines static: `static`, then only the words
/// and stars of a return type, then the name and `(` (`static int helper(int n)`).
fn static_function_names(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for l in text.lines() {
        let Some(rest) = l.trim_start().strip_prefix("static") else {
            continue;
        };
        if !rest.starts_with(|c: char| c.is_whitespace()) {
            continue;
        }
        let Some(open) = rest.find('(') else {
            continue;
        };
        let head = rest[..open].trim_end();
        if !head
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '*' || c.is_whitespace())
        {
            continue;
        }
        let name = head
            .rsplit(|c: char| c.is_whitespace() || c == '*')
            .next()
            .unwrap_or("");
        // A type before the name: `static helper(` alone declares nothing in C99 and later.
        if !name.is_empty() && name.len() < head.len() {
            names.push(name);
        }
    }
    names
}

/// True when a line of `text` defines one of `graded` static (`static int FindGoodMove(`).
#[cfg(test)]
fn defines_static(text: &str, graded: &[String]) -> bool {
    static_function_names(text)
        .iter()
        .any(|n| graded.iter().any(|g| g == n))
}

/// `"dir/name.h"` includes of the staged sources that need a shim: the path is not in the
/// submission but `name.h` is one of labgrade's headers (the spec's or the course
/// libraries'). Returns (include as written, header name).
fn shims_needed(staged: &Staged, known: &BTreeSet<String>) -> Vec<(String, String)> {
    let mut out = BTreeSet::new();
    let base = if staged.root.is_dir() {
        staged.root.clone()
    } else {
        staged.root.parent().unwrap_or(Path::new("/")).to_path_buf()
    };
    for rel in &staged.files {
        let path = if staged.root.is_dir() {
            staged.root.join(rel)
        } else {
            staged.root.clone()
        };
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !["c", "cpp", "cc", "cxx", "C", "h", "hpp", "hh"].contains(&ext) {
            continue;
        }
        let Ok(f) = std::fs::File::open(&path) else {
            continue;
        };
        let mut text = Vec::new();
        if f.take(MAX_SCAN_BYTES as u64)
            .read_to_end(&mut text)
            .is_err()
        {
            continue;
        }
        let text = String::from_utf8_lossy(&text);
        for line in text.lines().take(20_000) {
            let Some(rest) = line.trim_start().strip_prefix('#') else {
                continue;
            };
            let Some(rest) = rest.trim_start().strip_prefix("include") else {
                continue;
            };
            let Some(rest) = rest.trim_start().strip_prefix('"') else {
                continue;
            };
            let Some(inc) = rest.split('"').next() else {
                continue;
            };
            if inc.len() > 256 || !inc.contains('/') || inc.starts_with('/') {
                continue;
            }
            let name = inc.rsplit('/').next().unwrap_or("");
            if !known.contains(name) {
                continue;
            }
            let dir = path.parent().unwrap_or(&base);
            if dir.join(inc).exists() || base.join(inc).exists() {
                continue;
            }
            out.insert((inc.to_string(), name.to_string()));
            if out.len() >= MAX_SHIMS {
                break;
            }
        }
    }
    out.into_iter().collect()
}

/// Writes a shim for each of `needed` under `shim_root` (whose parents, down to `limit`,
/// absorb leading `../`). Returns false for none it could not place.
fn write_shims(needed: &[(String, String)], shim_root: &Path, limit: &Path) {
    for (inc, name) in needed {
        let mut p = shim_root.to_path_buf();
        let mut ok = true;
        for c in Path::new(inc).components() {
            match c {
                Component::Normal(s) => p.push(s),
                Component::ParentDir => {
                    ok &= p.pop() && p.starts_with(limit) && p != limit;
                }
                Component::CurDir => {}
                _ => ok = false,
            }
        }
        if !ok || !p.starts_with(limit) {
            continue;
        }
        if let Some(d) = p.parent() {
            let _ = std::fs::create_dir_all(d);
        }
        let _ = std::fs::write(
            &p,
            format!("/* labgrade: shim for \"{inc}\" */\n#include <{name}>\n"),
        );
    }
}

fn build_c_family(
    staged: &Staged,
    spec: &ProblemSpec,
    graded: &[String],
    work: &BuildDir,
    limits: &JailLimits,
    cache: &Path,
) -> Built {
    match build_c_family_in(staged, spec, graded, work, limits, cache) {
        Ok(b) => b,
        Err(b) => *b,
    }
}

/// The cargo, rustc and `bin` directory the jailed build runs, binding the toolchain into
/// the build directory where the build runs as `nobody`: the steps of the build that
/// follow only see paths the jail lets them reach. An error is the machine's.
fn crate_toolchain(
    work: &BuildDir,
    tc: &RustToolchain,
    jail: &mut Jail,
) -> Result<(PathBuf, PathBuf, PathBuf), String> {
    let w = work.path();
    // As root, cargo runs as `nobody` (so the process limit holds: the kernel exempts uid 0
    // from it), and the toolchain, under /root where `nobody` cannot enter, is bound
    // read-only into the build directory in the jail's own mount namespace.
    if work.nobody {
        let mount = w.join("toolchain");
        if let Err(e) = std::fs::create_dir_all(&mount) {
            return Err(format!("cannot create the build directory: {e}"));
        }
        jail.binds.push((tc.sysroot.clone(), mount.clone()));
        let file = |p: &Path| mount.join(p.strip_prefix(&tc.sysroot).unwrap_or(p));
        Ok((file(&tc.cargo), file(&tc.rustc), mount.join("bin")))
    } else {
        Ok((tc.cargo.clone(), tc.rustc.clone(), tc.sysroot.join("bin")))
    }
}

/// One `cargo build` of the staged crate in the jail: the counted build and the plain one
/// run the same command, and differ only by the environment added to it.
struct CargoBuild<'a> {
    cargo: PathBuf,
    rustc: PathBuf,
    bin: PathBuf,
    profile: &'a str,
    src: PathBuf,
    target: PathBuf,
    w: &'a Path,
    jail: Jail,
}

impl CargoBuild<'_> {
    /// Runs the build with `extra` added to its environment, as a [`Step`] whose machine
    /// error is also a timeout that was not the crate computing.
    fn run(&self, extra: &[(String, String)]) -> Step {
        let w = self.w;
        let mut cmd = Command::new(&self.cargo);
        // One rustc at a time: a build's memory is then one tool's address space, which
        // is what `build_budget::concurrent_builds` counts on.
        cmd.arg("build")
            .arg("--jobs")
            .arg("1")
            .arg("--offline")
            .arg("--profile")
            .arg(self.profile)
            .arg("--manifest-path")
            .arg(self.src.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(&self.target);
        cmd.env_clear()
            .env("PATH", format!("{}:{PATH}", self.bin.display()))
            .env("RUSTC", &self.rustc)
            .env("CARGO_HOME", w.join("cargo-home"))
            .env("CARGO_NET_OFFLINE", "true")
            .env("CARGO_TERM_COLOR", "never")
            .env("LANG", "C")
            .env("TMPDIR", w.join("tmp"))
            .env("HOME", w.join("tmp"))
            .envs(extra.iter().map(|(k, v)| (k, v)))
            .current_dir(w);
        let o = jail::run(&mut cmd, &self.jail);
        Step {
            ok: o.success,
            machine: o
                .machine_error
                .clone()
                .or_else(|| (o.timed_out && !o.computing).then(|| o.output.clone())),
            output: o.output,
        }
    }
}

/// The build whose output the report shows: the counted one where it builds, else the
/// plain one. Also says whether it was counted, and the counted build's output where it
/// failed for the crate (so the report can say why its calls are not counted).
fn counted_or_plain(
    cargo: &CargoBuild,
    counting: &Result<Vec<(String, String)>, String>,
) -> (Step, bool, Option<String>) {
    // Counted first (see RUST_COUNTING_FLAGS); a crate that does not build so is built as
    // it is, and its calls are then not observable.
    let mut counted = false;
    // The counted build's output, where it failed and the plain one is still to be tried.
    let mut counting_failed = None;
    let step = match counting {
        Ok(env) => {
            let step = cargo.run(env);
            if step.ok && step.machine.is_none() {
                counted = true;
                step
            } else if step.machine.is_some() {
                // The jail failed or the build ran out of time: building again would too.
                step
            } else {
                counting_failed = Some(step.output);
                let _ = std::fs::remove_dir_all(&cargo.target);
                cargo.run(&[])
            }
        }
        Err(_) => cargo.run(&[]),
    };
    (step, counted, counting_failed)
}

/// Finds the cdylib and the program cargo built under `target` for `profile`, and says
/// what is missing: cargo's directory for a profile is not always its name (`dev` builds
/// into `debug`).
fn crate_artifacts(out: &mut Built, target: &Path, profile: &str) {
    let profile_dir = match profile {
        "dev" | "test" => "debug",
        "bench" => "release",
        p => p,
    };
    for e in std::fs::read_dir(target.join(profile_dir))
        .into_iter()
        .flatten()
        .flatten()
    {
        let p = e.path();
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        let name = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".so") {
            out.library = Some(p);
        } else if meta.permissions().mode() & 0o100 != 0 && !name.contains('.') {
            out.program = Some(p);
        }
    }
    if out.library.is_none() && out.program.is_none() {
        out.failed = true;
        out.output.push_str(
            "\ncargo built neither a cdylib nor a program: add `[lib] crate-type = [\"cdylib\"]` to Cargo.toml",
        );
    }
    if out.program.is_none() {
        out.program_missing = Some("the crate has no binary target (src/main.rs)".into());
    }
}

/// Says on `out` what the counting build gave: the instrumented library, or why there is
/// none (the crate tells the two builds apart, or the hooks are missing).
fn crate_counting(
    out: &mut Built,
    counted: bool,
    counting_failed: Option<String>,
    counting: Result<Vec<(String, String)>, String>,
) {
    if counted {
        out.instrumented = out.library.clone();
    } else if let Some(failed) = counting_failed {
        // The two builds differ only by labgrade's flags, which no honest crate depends
        // on: a crate that builds plainly but not counted tells them apart on purpose (a
        // build script reading the flags, a cfg on them), so its counted cases fail.
        out.counting_hidden = true;
        out.instrumented_note = Some(format!(
            "your crate builds, but not in labgrade's counting build (the same build with \
             rustc's -Z instrument-mcount), so none of its calls can be counted: what tells \
             the two builds apart is in your crate{}",
            first_error(&failed)
                .map(|e| format!(" ({e})"))
                .unwrap_or_default()
        ));
    } else if let Err(e) = counting {
        out.instrumented_note = Some(format!("labgrade's counting hooks are not available: {e}"));
    }
}

fn build_crate(
    staged: &Staged,
    spec: &ProblemSpec,
    work: &BuildDir,
    limits: &JailLimits,
    cache: &Path,
) -> Built {
    let w = work.path();
    let src = w.join("crate");
    if let Err(e) = copy_tree(&staged.root, &src) {
        return Built::fail(e, true);
    }
    for d in ["tmp", "cargo-home"] {
        if let Err(e) = std::fs::create_dir_all(w.join(d)) {
            return Built::fail(format!("cannot create the build directory: {e}"), true);
        }
    }
    let tc = rust_toolchain();
    let mut jail = work.jail(limits);
    jail.read_exec.extend(tc.dirs.iter().cloned());
    let (cargo, rustc, bin) = match crate_toolchain(work, tc, &mut jail) {
        Ok(paths) => paths,
        Err(e) => return Built::fail(e, true),
    };
    let profile = &spec.build.rust_profile;
    // Written before the build directory is given away to the uid the build runs as.
    let counting = counting_env(&spec.build.c.compiler, cache, w, profile);
    if let Err(e) = work.give_away() {
        return Built::fail(e, true);
    }
    let target = w.join("target");
    let cargo_build = CargoBuild {
        cargo,
        rustc,
        bin,
        profile,
        src,
        target,
        w,
        jail,
    };
    let (step, counted, counting_failed) = counted_or_plain(&cargo_build, &counting);
    let mut out = Built::default();
    if let Some(m) = step.machine {
        return Built::fail(m, true);
    }
    out.output = step
        .output
        .lines()
        .filter(|l| {
            !l.trim_start().starts_with("Compiling") && !l.trim_start().starts_with("Finished")
        })
        .collect::<Vec<_>>()
        .join("\n");
    out.warnings = out
        .output
        .lines()
        .filter(|l| l.starts_with("warning:") && !l.contains("generated"))
        .count();
    if !step.ok {
        out.failed = true;
        return out;
    }
    crate_artifacts(&mut out, &cargo_build.target, profile);
    crate_counting(&mut out, counted, counting_failed, counting);
    out
}

/// How a Rust crate is built so that its calls are counted like a C submission's.
///
/// rustc has no `-finstrument-functions`; `-Z instrument-mcount` makes it call `mcount()`
/// at the entry of every function it compiles, which labgrade's hooks answer (see
/// `labgrade_hooks.c`). The flag is unstable, so the stable compiler is told to accept it
/// with `RUSTC_BOOTSTRAP=1`, for this build only, inside the jail. LLVM instruments after
/// inlining, so a call inlined away would go uncounted (the nim crate's `IsBadPosition`,
/// inlined into `FindGoodMove`, counted 0): inlining is turned off, in MIR and in LLVM, as
/// every call in the source is one the assignment counts. The hooks are linked in as
/// objects; the probe is kept whatever the linker collects, and the symbol table is not
/// stripped, since the hooks are found there (a cdylib exports only the crate's own items).
const RUST_COUNTING_FLAGS: &[&str] = &[
    "-Zinstrument-mcount",
    "-Cforce-frame-pointers=yes",
    "-Zinline-mir=no",
    "-Cllvm-args=-inline-threshold=0",
    "-Clink-arg=-Wl,--undefined=labgrade_probe",
];

/// The environment of a counted cargo build: the flags, and labgrade's hooks written into
/// the build directory `w`.
fn counting_env(
    cc: &str,
    cache: &Path,
    w: &Path,
    profile: &str,
) -> Result<Vec<(String, String)>, String> {
    let dir = w.join("labgrade-hooks");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    let objects = helpers::objects(cc, cache, &dir)?;
    let mut flags: Vec<String> = RUST_COUNTING_FLAGS.iter().map(|f| f.to_string()).collect();
    for object in [&objects.hooks, &objects.probe_mcount] {
        flags.push(format!("-Clink-arg={}", object.display()));
    }
    let profile_var = profile.to_uppercase().replace('-', "_");
    Ok(vec![
        ("RUSTC_BOOTSTRAP".into(), "1".into()),
        ("CARGO_ENCODED_RUSTFLAGS".into(), flags.join("\u{1f}")),
        (format!("CARGO_PROFILE_{profile_var}_STRIP"), "false".into()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_cache_directory_is_made_absolute() {
        let cache = BuildCache::new("some-cache");
        assert!(cache.dir().is_absolute());
        assert!(cache.dir().ends_with("some-cache"));
    }

    #[test]
    fn unused_graded_functions_are_no_warning_but_unused_helpers_are() {
        let graded = vec!["ExhaustiveSolve".to_string(), "Solve".to_string()];
        let out = "a.c:6:13: warning: 'ExhaustiveSolve' defined but not used [-Wunused-function]\n\
                   \x20   6 | static bool ExhaustiveSolve(puzzleT p)\n\
                   \x20     |             ^~~~~~~~~~~~~~~\n\
                   a.c:9:13: warning: 'helper' defined but not used [-Wunused-function]\n\
                   \x20   9 | static int helper(int n)\n\
                   \x20     |            ^~~~~~\n\
                   b.cpp:3:13: warning: 'bool Solve(int)' defined but not used [-Wunused-function]\n\
                   \x20   3 | static bool Solve(int c)\n\
                   \x20     |             ^~~~~\n";
        let kept = without_unused_graded(out, &graded);
        assert_eq!(count_warnings(&kept), 1, "{kept}");
        assert!(kept.starts_with("a.c:9:13: warning: 'helper'"), "{kept}");
        assert!(kept.contains("static int helper"), "{kept}");
        assert!(!kept.contains("Solve"), "{kept}");
        // A heading whose only warning was taken out goes with it; one still followed by a
        // diagnostic stays.
        let headed = "b.cpp: At top level:\n\
                      b.cpp:3:13: warning: 'bool Solve(int)' defined but not used [-Wunused-function]\n\
                      \x20   3 | static bool Solve(int c)\n\
                      a.c: In function 'main':\n\
                      a.c:9:5: warning: unused variable 'x' [-Wunused-variable]\n";
        let kept = without_unused_graded(headed, &graded);
        assert_eq!(
            kept,
            "a.c: In function 'main':\na.c:9:5: warning: unused variable 'x' [-Wunused-variable]\n"
        );
    }

    #[test]
    fn a_definition_is_told_from_a_declaration_and_a_call() {
        let own = "pointT AdjacentPoint(pointT pt, directionT dir)\n{\n    return pt;\n}\n";
        assert!(defines_function(own, "AdjacentPoint"));
        assert!(defines_function(
            "static pointT AdjacentPoint(pointT pt,\n    directionT dir) {",
            "AdjacentPoint"
        ));
        let uses = "pointT AdjacentPoint(pointT pt, directionT dir);\n\
                    if (SolveMaze(AdjacentPoint(pt, dir))) {\n";
        assert!(!defines_function(uses, "AdjacentPoint"));
        assert!(!defines_function(own, "Adjacent"));
    }

    #[test]
    fn static_function_names_are_read_from_their_declarations() {
        let text = "static int helper(int n);\nstatic bool\tIsSave (int r, int c) {\n\
                    static const char *name(void)\nstatic int table[4] = {1};\n\
                    static int x = f(3);\nint FindGoodMove(int n);\n  static void g();\n";
        assert_eq!(
            static_function_names(text),
            ["helper", "IsSave", "name", "g"]
        );
    }

    #[test]
    fn static_definitions_are_told_from_mentions() {
        let g = vec!["FindGoodMove".to_string(), "IsBadPosition".to_string()];
        assert!(defines_static("static int FindGoodMove(int nCoins);", &g));
        assert!(defines_static("  static bool\tIsBadPosition (int n) {", &g));
        assert!(defines_static("static const char *FindGoodMove(void)", &g));
        // A string, an array, another name, a call in an initialiser: no.
        assert!(!defines_static(
            "static const char note[] = \"written from FindGoodMove(7)\\n\";",
            &g
        ));
        assert!(!defines_static("static int MyFindGoodMove(int n);", &g));
        assert!(!defines_static("static int x = FindGoodMove(3);", &g));
        assert!(!defines_static("int FindGoodMove(int n);", &g));
    }

    #[test]
    fn a_recursive_global_function_s_local_alias_is_not_a_static_one() {
        // g++ -fPIC gives a global function that calls itself a local `.localalias`: the
        // function is not static, and only the static one is reported (and made global).
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("f.cpp");
        std::fs::write(
            &src,
            "int FindPath(int n) { return n > 0 ? FindPath(n - 1) : 0; }\n\
             static int SolveMaze(int n) { return n > 0 ? SolveMaze(n - 1) : 0; }\n",
        )
        .unwrap();
        let obj = dir.path().join("f.o");
        let ok = Command::new("g++")
            .args(["-fPIC", "-c", "-fkeep-static-functions"])
            .arg(&src)
            .arg("-o")
            .arg(&obj)
            .status()
            .unwrap()
            .success();
        assert!(ok);
        let graded = vec!["FindPath".to_string(), "SolveMaze".to_string()];
        let locals = local_graded_functions(&obj, &graded);
        let found: Vec<&str> = locals.iter().map(|(_, g)| g.as_str()).collect();
        assert_eq!(found, ["SolveMaze"], "{locals:?}");
    }
}
