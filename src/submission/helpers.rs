//! labgrade's own C helpers, as objects every counted build links in: the counting hooks
//! (`__cyg_profile_func_enter/exit`, `mcount`), the probe that checks counting works (also
//! compiled with `-pg`, for Rust builds) and the program runtime that marks a stack overflow.
//!
//! They are labgrade's code, the same for every submission, so they are compiled outside the
//! build jail, once per compiler: kept in the build cache (`<cache>/helpers/<key>/`, the key
//! hashing the compiler's version, the sources and the flags; the objects' hashes in a record
//! authenticated with the cache's key, as a build's are), and in memory for the rest of the
//! process. A cold cache compiles the four at once, in the background, as soon as the first
//! build starts ([`start`]), so that they are ready by the time that build links instead of
//! holding up every build of the class behind them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

use sha2::{Digest, Sha256};

use super::build::{hex, tool_version};

const HOOKS_C: &str = include_str!("c/labgrade_hooks.c");
const PROBE_C: &str = include_str!("c/labgrade_probe.c");
const PROGRT_C: &str = include_str!("c/labgrade_progrt.c");
const THROW_CPP: &str = include_str!("c/labgrade_throw.cpp");

/// Each helper: its name, its source and the flags beyond `-O2 -fPIC -c`.
const PARTS: [(&str, &str, &[&str]); 5] = [
    ("labgrade_hooks", HOOKS_C, &[]),
    ("labgrade_probe", PROBE_C, &["-finstrument-functions"]),
    ("labgrade_probe_mcount", PROBE_C, &["-pg"]),
    ("labgrade_progrt", PROGRT_C, &[]),
    // C++ (the driver compiles it as such): a machine without a C++ compiler has none, and
    // its C builds need none.
    ("labgrade_throw", THROW_CPP, &["-x", "c++"]),
];

/// The parts a build can do without (an empty object: not made).
const OPTIONAL: &str = "labgrade_throw";

/// The sources of every helper, for the build cache's key.
pub(super) const SOURCES: [&str; 4] = [HOOKS_C, PROBE_C, PROGRT_C, THROW_CPP];

/// labgrade's helper objects, as files in a build's directory.
pub(super) struct HelperObjects {
    /// The counting hooks (`__cyg_profile_func_enter/exit`).
    pub hooks: PathBuf,
    /// The probe that checks counting works.
    pub probe: PathBuf,
    /// The same probe compiled with `-pg`, for Rust builds, counted by `mcount`.
    pub probe_mcount: PathBuf,
    /// The program runtime that marks a stack overflow.
    pub progrt: PathBuf,
    /// What tells which C++ exception escaped a graded function, for C++ libraries; None
    /// where it could not be compiled.
    pub throw: Option<PathBuf>,
}

/// The objects' bytes, in the order of [`PARTS`] (an optional one not made is empty), or
/// why they could not be had.
type Objects = Result<Arc<Vec<Vec<u8>>>, String>;

/// One compiler's helpers in this process: whether their making has started, and them.
#[derive(Default)]
struct Slot {
    started: std::sync::atomic::AtomicBool,
    objects: OnceLock<Objects>,
}

fn slot(cc: &str) -> Arc<Slot> {
    static SLOTS: OnceLock<Mutex<BTreeMap<String, Arc<Slot>>>> = OnceLock::new();
    SLOTS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .entry(cc.to_string())
        .or_default()
        .clone()
}

/// Starts making `cc`'s helpers (from `cache`, else compiled) in the background, unless
/// that has started already. A build calls it before compiling the student's sources and
/// takes the objects ([`objects`]) when it links.
pub(super) fn start(cc: &str, cache: &Path) {
    let s = slot(cc);
    if s.started.swap(true, std::sync::atomic::Ordering::SeqCst) {
        return;
    }
    let (cc, cache) = (cc.to_string(), cache.to_path_buf());
    std::thread::spawn(move || {
        s.objects.get_or_init(|| load_or_compile(&cc, &cache));
    });
}

/// Writes `cc`'s helper objects into `into`, waiting for them if they are being made.
pub(super) fn objects(cc: &str, cache: &Path, into: &Path) -> Result<HelperObjects, String> {
    let s = slot(cc);
    s.started.store(true, std::sync::atomic::Ordering::SeqCst);
    let objects = s
        .objects
        .get_or_init(|| load_or_compile(cc, cache))
        .clone()?;
    let mut paths = Vec::new();
    for ((name, _, _), bytes) in PARTS.iter().zip(objects.iter()) {
        let path = into.join(format!("{name}.o"));
        if bytes.is_empty() {
            paths.push(None);
            continue;
        }
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {name}.o: {e}"))?;
        paths.push(Some(path));
    }
    let [hooks, probe, probe_mcount, progrt, throw] =
        <[Option<PathBuf>; 5]>::try_from(paths).expect("five helpers");
    let made = |p: Option<PathBuf>| p.ok_or("a helper was not made");
    Ok(HelperObjects {
        hooks: made(hooks)?,
        probe: made(probe)?,
        probe_mcount: made(probe_mcount)?,
        progrt: made(progrt)?,
        throw,
    })
}

/// The helpers from the cache when an entry there checks out, else compiled (and kept
/// there when the cache can be written; a cache that cannot is no reason to fail a build).
fn load_or_compile(cc: &str, cache: &Path) -> Objects {
    let secret = super::cache_secret::secret(cache).ok();
    let dir = cache.join("helpers").join(key(cc));
    if let Some(found) = secret.as_deref().and_then(|k| load(&dir, k)) {
        return Ok(Arc::new(found));
    }
    let compiled = compile(cc)?;
    if let Some(k) = secret.as_deref() {
        let _ = keep(&dir, k, &compiled);
    }
    Ok(Arc::new(compiled))
}

/// The cache entry's name: the compiler's version, each helper's source and flags.
fn key(cc: &str) -> String {
    let mut h = Sha256::new();
    h.update(tool_version(cc, &["--version"]));
    for (name, text, flags) in PARTS {
        h.update([0]);
        h.update(name);
        h.update([0]);
        h.update(text);
        h.update([0]);
        h.update(flags.join(" "));
    }
    hex(&h.finalize())[..32].to_string()
}

/// The record of an entry: each object's name and hash, a line each.
fn record(objects: &[Vec<u8>]) -> String {
    PARTS
        .iter()
        .zip(objects)
        .map(|((name, _, _), bytes)| format!("{name} {}\n", hex(&Sha256::digest(bytes))))
        .collect()
}

fn load(dir: &Path, secret: &[u8]) -> Option<Vec<Vec<u8>>> {
    let objects: Vec<Vec<u8>> = PARTS
        .iter()
        .map(|(name, _, _)| std::fs::read(dir.join(format!("{name}.o"))).ok())
        .collect::<Option<_>>()?;
    let seal = std::fs::read_to_string(dir.join("seal")).ok()?;
    super::cache_secret::verify(secret, record(&objects).as_bytes(), &seal).then_some(objects)
}

/// Publishes an entry atomically: written whole in a private directory, then renamed.
fn keep(dir: &Path, secret: &[u8], objects: &[Vec<u8>]) -> std::io::Result<()> {
    let parent = dir.parent().expect("an entry has a parent");
    std::fs::create_dir_all(parent)?;
    let tmp = tempfile::Builder::new()
        .prefix(".incoming-")
        .tempdir_in(parent)?;
    for ((name, _, _), bytes) in PARTS.iter().zip(objects) {
        std::fs::write(tmp.path().join(format!("{name}.o")), bytes)?;
    }
    std::fs::write(
        tmp.path().join("seal"),
        super::cache_secret::mac(secret, record(objects).as_bytes()),
    )?;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::rename(tmp.keep(), dir)
}

/// Compiles the helpers at once with `cc`, in a private temporary directory.
fn compile(cc: &str) -> Result<Vec<Vec<u8>>, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot create a directory: {e}"))?;
    let mut running = Vec::new();
    for (name, text, extra) in PARTS {
        let src = dir.path().join(format!("{name}.c"));
        let obj = src.with_extension("o");
        std::fs::write(&src, text).map_err(|e| format!("cannot write {name}.c: {e}"))?;
        let child = Command::new(cc)
            .args(["-O2", "-fPIC", "-c"])
            .args(extra)
            .arg(&src)
            .arg("-o")
            .arg(&obj)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {cc}: {e}"));
        running.push((name, obj, child));
    }
    // Every child is waited for, even after one failed.
    let done: Vec<Result<Vec<u8>, String>> = running
        .into_iter()
        .map(|(name, obj, child)| {
            let out = child?
                .wait_with_output()
                .map_err(|e| format!("cannot run {cc}: {e}"))?;
            if !out.status.success() && name == OPTIONAL {
                return Ok(Vec::new());
            }
            if !out.status.success() {
                return Err(format!(
                    "labgrade's {name}.c does not compile with {cc}:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            std::fs::read(&obj).map_err(|e| format!("cannot read {name}.o: {e}"))
        })
        .collect();
    done.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cache (its key is the user's, outside it).
    fn cache_with_key() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    #[test]
    fn helpers_are_kept_in_the_cache_and_a_tampered_entry_is_not_used() {
        let cache = cache_with_key();
        let compiled = load_or_compile("gcc", cache.path()).unwrap();
        let dir = cache.path().join("helpers").join(key("gcc"));
        let secret = crate::submission::cache_secret::secret(cache.path()).unwrap();
        assert_eq!(load(&dir, &secret).as_ref(), Some(&*compiled));
        // Another key, or a changed object: the entry does not check out.
        assert_eq!(load(&dir, &[8u8; 32]), None);
        let hooks = dir.join("labgrade_hooks.o");
        let mut bytes = std::fs::read(&hooks).unwrap();
        bytes.push(0);
        std::fs::write(&hooks, bytes).unwrap();
        assert_eq!(load(&dir, &secret), None);
        // ...and is compiled and kept again.
        assert_eq!(*load_or_compile("gcc", cache.path()).unwrap(), *compiled);
        assert_eq!(load(&dir, &secret).as_ref(), Some(&*compiled));
    }

    #[test]
    fn objects_are_written_into_the_build_and_a_missing_compiler_is_said() {
        let cache = cache_with_key();
        let into = tempfile::tempdir().unwrap();
        start("gcc", cache.path());
        let h = objects("gcc", cache.path(), into.path()).unwrap();
        for p in [&h.hooks, &h.probe, &h.probe_mcount, &h.progrt] {
            let bytes = std::fs::read(p).unwrap();
            assert_eq!(&bytes[..4], b"\x7fELF", "{}", p.display());
        }
        let err = objects("no-such-cc-labgrade", cache.path(), into.path())
            .err()
            .expect("no compiler");
        assert!(err.contains("cannot run no-such-cc-labgrade"), "{err}");
    }
}
