//! `labgrade doctor`: what this machine enforces, before anyone trusts a grade from it.

use super::common::{CliError, Context};
use crate::exit_codes;
use crate::sandbox::probe::probe;

/// The languages `doctor --for` knows, and the build-jail lines only each one needs.
const ONLY_FOR: &[(&str, &str)] = &[("rust", "build jail (cargo)")];

/// Probes the layers and prints one line each; exit 1 when a layer is missing. With
/// `languages` (`--for c,cpp`), a line only another language needs (the cargo jail for a C
/// course) is shown as not needed and not counted.
pub fn run(ctx: &Context, languages: &[String]) -> Result<i32, CliError> {
    const KNOWN: [&str; 4] = ["c", "cpp", "rust", "java"];
    if let Some(other) = languages.iter().find(|l| !KNOWN.contains(&l.as_str())) {
        return Err(CliError(format!(
            "doctor --for: `{other}` is not a language labgrade grades (it knows: {})",
            KNOWN.join(", ")
        )));
    }
    let needed = |line: &str| {
        languages.is_empty()
            || ONLY_FOR.iter().all(|(lang, prefix)| {
                !line.starts_with(prefix) || languages.iter().any(|l| l == lang)
            })
    };
    let s = probe();
    let mark = |ok: bool| match (ok, ctx.color) {
        (true, true) => "\x1b[32mok\x1b[0m  ",
        (true, false) => "ok  ",
        (false, true) => "\x1b[31mMISSING\x1b[0m",
        (false, false) => "MISSING",
    };
    println!(
        "{} process per run, own process group, reaped after each run",
        mark(s.process_per_run)
    );
    println!("{} student code runs as {}", mark(s.uid_ok()), s.uid);
    println!(
        "{} rlimits: {}",
        mark(!s.rlimits.is_empty()),
        s.rlimits.join(", ")
    );
    println!("{} stack guard for the student's call", mark(s.stack_guard));
    println!(
        "{} Landlock: {} (writes outside the run's directory {})",
        mark(s.landlock == "fully enforced" && s.landlock_blocks_writes),
        s.landlock,
        if s.landlock_blocks_writes {
            "refused"
        } else {
            "NOT refused"
        }
    );
    println!("{} seccomp: {}", mark(s.seccomp == "enforced"), s.seccomp);
    // Builds: compilers, objcopy and cargo run in their own jail (src/submission/jail.rs).
    let mut build = crate::submission::jail::probe();
    build.push(crate::submission::cache_secret::describe());
    build.push(directory_line(ctx.cache.dir(), crate::owned_dir::CACHE));
    build.push(directory_line(
        &std::env::temp_dir(),
        crate::owned_dir::TEMP,
    ));
    for (ok, line) in &build {
        if needed(line) {
            println!("{} {line}", mark(*ok));
        } else {
            println!("--   {line} (not needed for {})", languages.join(", "));
        }
    }
    build.retain(|(_, line)| needed(line));
    let build_ok = build.iter().all(|(ok, _)| *ok);
    if s.complete() && build_ok {
        println!("every layer is in force: hostile submissions get a verdict and nothing else");
        Ok(exit_codes::OK)
    } else {
        // One line of truth: which layers, so nobody reads "ok" above and stops there.
        let mut missing: Vec<String> = Vec::new();
        if !s.complete() {
            missing.push("a layer of the run sandbox (marked above)".into());
        }
        missing.extend(build.iter().filter(|(ok, _)| !ok).map(|(_, l)| l.clone()));
        println!(
            "MISSING {}: {}; grade only code you trust on this machine",
            if missing.len() == 1 {
                "one layer".to_string()
            } else {
                format!("{} layers", missing.len())
            },
            missing.join("; ")
        );
        Ok(exit_codes::FAILED)
    }
}

/// Whose `dir` is and whether labgrade (as root) would write there.
fn directory_line(dir: &std::path::Path, role: crate::owned_dir::Role) -> (bool, String) {
    use std::os::unix::fs::MetadataExt;
    match crate::owned_dir::check(dir, role) {
        Err(e) => (false, e),
        Ok(()) => {
            let whose = match std::fs::metadata(dir) {
                Ok(m) => format!("owner uid {}, mode {:o}", m.uid(), m.mode() & 0o7777),
                Err(_) => "made on first use, mode 0700".to_string(),
            };
            let why = if crate::owned_dir::running_as_root() {
                "no other user can change what labgrade writes there"
            } else {
                "labgrade is not root: it writes there only as you"
            };
            (
                true,
                format!("{}: {} ({whose}; {why})", role.what, dir.display()),
            )
        }
    }
}
