//! Building sources into what the workers run, with a content-addressed cache.
//!
//! C and C++ sources are compiled file by file with the spec's recipe, twice: plainly
//! (`-fPIC`), and with `-finstrument-functions` for call counting. The plain objects are linked
//! into a shared library and, with labgrade's stack-overflow marker runtime, into a program;
//! the instrumented objects, with labgrade's hidden hooks and its probe, into a second
//! library. A Rust crate is built with cargo, offline. The compiler's diagnostics are kept
//! verbatim for the report. Everything is keyed by a hash of the sources, the recipe and
//! labgrade's own C files, so re-grading a class rebuilds nothing that did not change, and
//! fifty identical copies build once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::detect::{language_of, Language, SubmissionKind};
use crate::spec::{CompilerRecipe, ProblemSpec};

const HOOKS_C: &str = include_str!("c/labgrade_hooks.c");
const PROBE_C: &str = include_str!("c/labgrade_probe.c");
const PROGRT_C: &str = include_str!("c/labgrade_progrt.c");

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
    /// The program built under AddressSanitizer/LeakSanitizer, when the spec asks for one.
    #[serde(default)]
    pub sanitized: Option<PathBuf>,
    /// Why there is no sanitizer program, when the spec asks for one.
    #[serde(default)]
    pub sanitized_note: Option<String>,
    /// Why there is no instrumented library, when the plain one built.
    #[serde(default)]
    pub instrumented_note: Option<String>,
    /// Why there is no program, when there is none but the library built.
    pub program_missing: Option<String>,
    /// True when the build failed outright.
    pub failed: bool,
    /// Compiler and linker output, verbatim.
    pub output: String,
    /// Warnings the compiler printed for the student's files.
    pub warnings: usize,
    /// Came from the cache.
    #[serde(skip)]
    pub cached: bool,
}

/// Where builds are kept.
#[derive(Debug, Clone)]
pub struct BuildCache {
    dir: PathBuf,
}

impl BuildCache {
    /// A cache in `dir` (created on demand).
    pub fn new(dir: impl Into<PathBuf>) -> BuildCache {
        BuildCache { dir: dir.into() }
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

    /// Builds `kind` (sources or a crate) for `spec`, or returns the cached build.
    pub fn build(&self, kind: &SubmissionKind, spec: &ProblemSpec) -> Built {
        let key = match cache_key(kind, spec) {
            Ok(k) => k,
            Err(e) => {
                return Built {
                    failed: true,
                    output: e,
                    ..Built::default()
                }
            }
        };
        let final_dir = self.dir.join(&key);
        if let Some(b) = load_cached(&final_dir) {
            return b;
        }
        if let Err(e) = std::fs::create_dir_all(&self.dir) {
            return Built {
                failed: true,
                output: format!(
                    "cannot create the build cache `{}`: {e}",
                    self.dir.display()
                ),
                ..Built::default()
            };
        }
        let work = match tempfile::Builder::new()
            .prefix(".build-")
            .tempdir_in(&self.dir)
        {
            Ok(w) => w,
            Err(e) => {
                return Built {
                    failed: true,
                    output: format!("cannot create a build directory: {e}"),
                    ..Built::default()
                }
            }
        };
        let built = match kind {
            SubmissionKind::Sources(files) => build_c_family(files, spec, work.path()),
            SubmissionKind::RustCrate(dir) => build_crate(dir, spec, work.path()),
            _ => Built {
                failed: true,
                output: "nothing to build".into(),
                ..Built::default()
            },
        };
        // Publish atomically: rename the work dir into place, paths rewritten to the final dir.
        let relocated = relocate(&built, work.path(), &final_dir);
        if let Ok(json) = serde_json::to_vec_pretty(&relocated) {
            let _ = std::fs::write(work.path().join("build.json"), json);
        }
        let tmp_path = work.keep();
        match std::fs::rename(&tmp_path, &final_dir) {
            Ok(()) => relocated,
            Err(_) => {
                // Another thread built the same thing first: use theirs.
                let _ = std::fs::remove_dir_all(&tmp_path);
                load_cached(&final_dir).unwrap_or(relocated)
            }
        }
    }
}

fn relocate(b: &Built, from: &Path, to: &Path) -> Built {
    let fix = |p: &Option<PathBuf>| {
        p.as_ref()
            .map(|p| to.join(p.strip_prefix(from).unwrap_or(p)))
    };
    Built {
        library: fix(&b.library),
        instrumented: fix(&b.instrumented),
        program: fix(&b.program),
        sanitized: fix(&b.sanitized),
        output: b.output.replace(&from.display().to_string(), "<build>"),
        ..b.clone()
    }
}

fn load_cached(dir: &Path) -> Option<Built> {
    let text = std::fs::read(dir.join("build.json")).ok()?;
    let mut b: Built = serde_json::from_slice(&text).ok()?;
    b.cached = true;
    Some(b)
}

fn cache_key(kind: &SubmissionKind, spec: &ProblemSpec) -> Result<String, String> {
    let mut h = Sha256::new();
    h.update(env!("CARGO_PKG_VERSION"));
    h.update(HOOKS_C);
    h.update(PROBE_C);
    h.update(PROGRT_C);
    h.update(format!(
        "{:?}{:?}{}",
        spec.build.c, spec.build.cpp, spec.build.rust_profile
    ));
    let mut add_file = |rel: &Path, path: &Path| -> Result<(), String> {
        let data =
            std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        h.update(rel.to_string_lossy().as_bytes());
        h.update((data.len() as u64).to_le_bytes());
        h.update(&data);
        Ok(())
    };
    if let Ok(rd) = std::fs::read_dir(&spec.include_dir) {
        let mut headers: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        headers.sort();
        for p in headers.iter().filter(|p| p.is_file()) {
            add_file(Path::new(p.file_name().unwrap_or_default()), p)?;
        }
    }
    match kind {
        SubmissionKind::Sources(files) => {
            for f in files {
                add_file(Path::new(f.file_name().unwrap_or_default()), f)?;
                // Headers next to the sources matter too.
                if let Some(dir) = f.parent() {
                    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                        let p = e.path();
                        if p.extension().is_some_and(|x| x == "h" || x == "hpp") {
                            add_file(Path::new(p.file_name().unwrap_or_default()), &p)?;
                        }
                    }
                }
            }
        }
        SubmissionKind::RustCrate(dir) => {
            let mut files = Vec::new();
            walk(dir, &mut files);
            files.sort();
            for f in files {
                add_file(f.strip_prefix(dir).unwrap_or(&f), &f)?;
            }
        }
        _ => {}
    }
    let digest = h.finalize();
    Ok(digest.iter().take(16).map(|b| format!("{b:02x}")).collect())
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        let name = e.file_name();
        if name == "target" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

struct Step {
    ok: bool,
    output: String,
}

fn run(cmd: &mut Command) -> Step {
    match cmd.output() {
        Ok(o) => {
            let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&o.stderr));
            Step {
                ok: o.status.success(),
                output: text,
            }
        }
        Err(e) => Step {
            ok: false,
            output: format!("cannot run `{:?}`: {e}", cmd.get_program()),
        },
    }
}

fn count_warnings(output: &str) -> usize {
    output.lines().filter(|l| l.contains(": warning:")).count()
}

fn recipe_for(spec: &ProblemSpec, lang: Language) -> &CompilerRecipe {
    match lang {
        Language::C => &spec.build.c,
        Language::Cpp => &spec.build.cpp,
    }
}

fn build_c_family(files: &[PathBuf], spec: &ProblemSpec, work: &Path) -> Built {
    let mut out = Built::default();
    let any_cpp = files.iter().any(|f| language_of(f) == Some(Language::Cpp));
    let linker = if any_cpp {
        &spec.build.cpp.compiler
    } else {
        &spec.build.c.compiler
    };
    let include = &spec.include_dir;
    let helpers = work.join("labgrade");
    if std::fs::create_dir_all(&helpers).is_err() {
        out.failed = true;
        out.output = "cannot create the build directory".into();
        return out;
    }
    let mut plain_objs = Vec::new();
    let mut instr_objs = Vec::new();
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    for (i, f) in files.iter().enumerate() {
        let lang = language_of(f).expect("only sources are collected");
        let recipe = recipe_for(spec, lang);
        let stem = f
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let n = names.entry(stem.clone()).or_insert(0);
        *n += 1;
        let obj = work.join(format!("{i:02}-{stem}.o"));
        let src_dir = f.parent().unwrap_or(Path::new("."));
        let step = run(Command::new(&recipe.compiler)
            .args(&recipe.flags)
            .args(["-fPIC", "-c"])
            .arg("-I")
            .arg(include)
            .arg("-I")
            .arg(src_dir)
            .arg(f)
            .arg("-o")
            .arg(&obj));
        out.output.push_str(&step.output);
        if !step.ok {
            out.failed = true;
            continue;
        }
        plain_objs.push(obj);
        let iobj = work.join(format!("{i:02}-{stem}.instr.o"));
        let step = run(Command::new(&recipe.compiler)
            .args(&recipe.flags)
            .args(["-fPIC", "-c", "-finstrument-functions"])
            .arg(format!(
                "-finstrument-functions-exclude-file-list=/usr/include,{}",
                include.display()
            ))
            .arg("-I")
            .arg(include)
            .arg("-I")
            .arg(src_dir)
            .arg(f)
            .arg("-o")
            .arg(&iobj));
        if step.ok {
            instr_objs.push(iobj);
        }
    }
    out.warnings = count_warnings(&out.output);
    if out.failed {
        return out;
    }
    // labgrade's own C helpers.
    let write = |name: &str, text: &str| {
        let p = helpers.join(name);
        std::fs::write(&p, text).map(|_| p)
    };
    let (Ok(hooks_c), Ok(probe_c), Ok(progrt_c)) = (
        write("labgrade_hooks.c", HOOKS_C),
        write("labgrade_probe.c", PROBE_C),
        write("labgrade_progrt.c", PROGRT_C),
    ) else {
        out.failed = true;
        out.output
            .push_str("cannot write labgrade's helper sources\n");
        return out;
    };
    let cc = &spec.build.c.compiler;
    let helper = |src: &Path, extra: &[&str]| -> Option<PathBuf> {
        let obj = src.with_extension("o");
        let s = run(Command::new(cc)
            .args(["-O2", "-fPIC", "-c"])
            .args(extra)
            .arg(src)
            .arg("-o")
            .arg(&obj));
        s.ok.then_some(obj)
    };
    // The spec's driver: compiled like the student's C++ (it includes their header), plain.
    let src_dir = files[0].parent().unwrap_or(Path::new("."));
    let mut driver_o = Vec::new();
    if let Some(driver) = &spec.build.driver {
        let obj = helpers.join("driver.o");
        let step = run(Command::new(&spec.build.cpp.compiler)
            .args(&spec.build.cpp.flags)
            .args(["-fPIC", "-c"])
            .arg("-I")
            .arg(include)
            .arg("-I")
            .arg(src_dir)
            .arg(include.join(driver))
            .arg("-o")
            .arg(&obj));
        if !step.ok {
            out.failed = true;
            out.output.push_str(&format!(
                "labgrade's driver does not compile with your files (does your header declare \
                 what the handout gives?):\n{}",
                step.output
            ));
            return out;
        }
        driver_o.push(obj);
    }
    let hooks_o = helper(&hooks_c, &[]);
    let probe_o = helper(&probe_c, &["-finstrument-functions"]);
    let progrt_o = helper(&progrt_c, &[]);

    // The plain library: undefined symbols are link errors here, not load errors later.
    let lib = work.join("submission.so");
    let step = run(Command::new(linker)
        .args(["-shared", "-Wl,-z,defs"])
        .args(&plain_objs)
        .args(&driver_o)
        .arg("-o")
        .arg(&lib));
    if !step.ok {
        out.output.push_str(&step.output);
        out.failed = true;
        return out;
    }
    out.library = Some(lib);

    if let (Some(h), Some(p)) = (&hooks_o, &probe_o) {
        if instr_objs.len() == plain_objs.len() {
            let ilib = work.join("submission.instr.so");
            let step = run(Command::new(linker)
                .args(["-shared", "-Wl,-z,defs"])
                .args(&instr_objs)
                .args(&driver_o)
                .arg(h)
                .arg(p)
                .arg("-o")
                .arg(&ilib));
            if step.ok {
                out.instrumented = Some(ilib);
            } else if step.output.contains("__cyg_profile_func") {
                out.instrumented_note = Some(
                    "your code defines its own __cyg_profile_func_enter/exit hooks, so labgrade \
                     cannot count calls: remove them to have call counts checked"
                        .into(),
                );
            } else {
                out.instrumented_note = Some(format!(
                    "the counting build failed to link:\n{}",
                    step.output.trim_end()
                ));
            }
        } else {
            out.instrumented_note =
                Some("the counting build (-finstrument-functions) did not compile".into());
        }
    } else {
        out.instrumented_note = Some("labgrade's counting hooks did not compile".into());
    }

    let prog = work.join("submission");
    let mut cmd = Command::new(linker);
    cmd.args(&plain_objs);
    if let Some(rt) = &progrt_o {
        cmd.arg(rt);
    }
    let step = run(cmd.arg("-o").arg(&prog));
    if step.ok {
        out.program = Some(prog);
        out.program_marks_overflow = progrt_o.is_some();
    } else if step.output.contains("undefined reference to `main'") {
        out.program_missing = Some("your sources have no `main` function".into());
    } else {
        out.program_missing = Some(format!("linking the program failed:\n{}", step.output));
    }
    build_sanitized(files, spec, work, &mut out);
    out
}

/// Links the student's sources (less the spec's exclusions) with the spec's sanitizer main
/// under AddressSanitizer and LeakSanitizer, for leak and double-free cases.
fn build_sanitized(files: &[PathBuf], spec: &ProblemSpec, work: &Path, out: &mut Built) {
    let Some(main) = &spec.build.sanitizer_main else {
        return;
    };
    let include = &spec.include_dir;
    let src_dir = files[0].parent().unwrap_or(Path::new("."));
    let sources: Vec<&PathBuf> = files
        .iter()
        .filter(|f| {
            let name = f.file_name().unwrap_or_default().to_string_lossy();
            !spec.build.sanitizer_excludes.iter().any(|x| *x == name)
        })
        .collect();
    let exe = work.join("submission.asan");
    let step = run(Command::new(&spec.build.cpp.compiler)
        .args(&spec.build.cpp.flags)
        .args(["-g", "-O0", "-fsanitize=address", "-fno-omit-frame-pointer"])
        .arg("-I")
        .arg(include)
        .arg("-I")
        .arg(src_dir)
        .args(&sources)
        .arg(include.join(main))
        .arg("-o")
        .arg(&exe));
    if step.ok {
        out.sanitized = Some(exe);
    } else {
        out.sanitized_note = Some(format!(
            "the AddressSanitizer build failed:\n{}",
            step.output.trim_end()
        ));
    }
}

fn build_crate(dir: &Path, spec: &ProblemSpec, work: &Path) -> Built {
    let mut out = Built::default();
    // Build a copy, so the student's directory is never written to.
    let src = work.join("crate");
    let mut files = Vec::new();
    walk(dir, &mut files);
    for f in &files {
        let rel = f.strip_prefix(dir).unwrap_or(f);
        let to = src.join(rel);
        if let Some(parent) = to.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if std::fs::copy(f, &to).is_err() {
            out.failed = true;
            out.output = format!("cannot copy `{}`", f.display());
            return out;
        }
    }
    let target = work.join("target");
    let profile = &spec.build.rust_profile;
    let output = Command::new("cargo")
        .arg("build")
        .arg("--offline")
        .arg("--message-format=json-render-diagnostics")
        .arg("--profile")
        .arg(profile)
        .arg("--manifest-path")
        .arg(src.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .output();
    let output = match output {
        Ok(o) => o,
        Err(e) => {
            out.failed = true;
            out.output = format!("cannot run cargo: {e}");
            return out;
        }
    };
    out.output = String::from_utf8_lossy(&output.stderr)
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
    if !output.status.success() {
        out.failed = true;
        return out;
    }
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        if let Some(exe) = msg["executable"].as_str() {
            let to = work.join("submission");
            if std::fs::copy(exe, &to).is_ok() {
                out.program = Some(to);
            }
        }
        for f in msg["filenames"].as_array().into_iter().flatten() {
            if let Some(f) = f.as_str().filter(|f| f.ends_with(".so")) {
                let to = work.join("submission.so");
                if std::fs::copy(f, &to).is_ok() {
                    out.library = Some(to);
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&target);
    if out.library.is_none() && out.program.is_none() {
        out.failed = true;
        out.output.push_str(
            "\ncargo built neither a cdylib nor a program: add `[lib] crate-type = [\"cdylib\"]` to Cargo.toml",
        );
    }
    if out.program.is_none() {
        out.program_missing = Some("the crate has no binary target (src/main.rs)".into());
    }
    out
}
