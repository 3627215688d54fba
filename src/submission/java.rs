//! Java submissions: compiled with `javac` in the build jail, together with the problem's
//! Java world (the `*.java` files at the top of `specs/<problem>/`: its classes and
//! labgrade's harness), into one jar that the sandboxed child runs on the JVM (see
//! [`crate::sandbox::jvm`]).
//!
//! javac is a JVM: in the jail's address-space limit it gets a heap, code cache and class
//! space of fixed sizes (`-J` flags), never the quarter of the machine's memory it would
//! reserve by itself. Annotation processing is off (`-proc:none`: a processor is code that
//! would run in javac), and only the files given are compiled (`-implicit:none`, an empty
//! class path). The student's classes and the world's go into the jar side by side: a
//! student class named like one of the world's is a duplicate, which javac refuses.
//!
//! The jar is written by the grader from the class files the jailed javac left (regular
//! files ending in `.class`, nothing else, none larger than the jail lets a tool write):
//! their bytes are copied, never interpreted here.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::build::{copy_tree, run_in, tree_files, BuildDir, Built};
use super::detect::{language_of, Language};
use super::intake::Staged;
use super::jail::JailLimits;
use crate::spec::ProblemSpec;

/// The JVM options javac runs with in the jail.
const JAVAC_VM: &[&str] = &[
    "-J-Xmx256m",
    "-J-Xss4m",
    "-J-XX:+UseSerialGC",
    "-J-XX:TieredStopAtLevel=1",
    "-J-XX:CICompilerCount=1",
    "-J-XX:-UsePerfData",
    "-J-XX:ReservedCodeCacheSize=64m",
    "-J-XX:MaxMetaspaceSize=128m",
    "-J-XX:CompressedClassSpaceSize=64m",
];

/// True when every source handed in is Java (a folder that also has C or C++ sources
/// builds those).
pub fn is_java(files: &[PathBuf]) -> bool {
    !files.is_empty() && files.iter().all(|f| language_of(f) == Some(Language::Java))
}

/// `javac -version`, asked in the jail once per process (a part of the build cache's key).
pub fn javac_version() -> String {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION
        .get_or_init(|| {
            let asked = || -> Option<String> {
                let dir = BuildDir::new(&super::SubmissionKind::Sources(Vec::new())).ok()?;
                std::fs::create_dir_all(dir.path().join("tmp")).ok()?;
                dir.give_away().ok()?;
                let jail = jail_for(&dir, &JailLimits::default());
                let mut cmd = Command::new("javac");
                cmd.args(JAVAC_VM).arg("-version");
                let step = run_in(&mut cmd, &jail, dir.path());
                step.ok.then(|| step.output.trim().to_string())
            };
            asked().unwrap_or_else(|| "javac: unavailable".into())
        })
        .clone()
}

/// The build jail, where javac may also read the JDK's configuration: Debian's JDK links
/// `conf/` and parts of `lib/` to `/etc/java-<N>-openjdk`, which the jail does not show.
fn jail_for(work: &BuildDir, limits: &JailLimits) -> super::jail::Jail {
    let mut jail = work.jail(limits);
    jail.read.extend(jdk_config());
    jail
}

/// Where the JDK's configuration links lead (resolved), once per process.
fn jdk_config() -> Vec<PathBuf> {
    static FOUND: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let Some(home) = ["/usr/local/bin/javac", "/usr/bin/javac", "/bin/javac"]
                .iter()
                .map(Path::new)
                .find(|p| p.is_file())
                .and_then(|p| p.canonicalize().ok())
                .and_then(|p| Some(p.parent()?.parent()?.to_path_buf()))
            else {
                return Vec::new();
            };
            let mut out = Vec::new();
            fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
                let Ok(rd) = std::fs::read_dir(dir) else {
                    return;
                };
                for e in rd.flatten() {
                    let p = e.path();
                    let Ok(meta) = std::fs::symlink_metadata(&p) else {
                        continue;
                    };
                    if meta.file_type().is_symlink() {
                        if let Ok(target) = p.canonicalize() {
                            out.push(target);
                        }
                    } else if meta.is_dir() && depth > 0 {
                        walk(&p, depth - 1, out);
                    }
                }
            }
            walk(&home.join("conf"), 3, &mut out);
            walk(&home.join("lib"), 2, &mut out);
            out.sort();
            out.dedup();
            out
        })
        .clone()
}

/// The problem's Java world: the `*.java` files at the top of its spec directory.
pub fn world_sources(spec: &ProblemSpec) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = tree_files(&spec.include_dir)
        .into_iter()
        .filter(|p| p.components().count() == 1 && language_of(p) == Some(Language::Java))
        .collect();
    v.sort();
    v
}

/// Builds the Java sources of `staged` with the problem's world into `submission.jar`.
pub(super) fn build(
    staged: &Staged,
    spec: &ProblemSpec,
    work: &BuildDir,
    limits: &JailLimits,
) -> Built {
    let world = world_sources(spec);
    if world.is_empty() {
        return Built::fail(
            format!(
                "this submission is Java, and {} is graded in C or C++: labgrade compiles \
                 Java only for problems with a Java world (cs61b-minimax)",
                spec.problem.name
            ),
            false,
        );
    }
    let w = work.path();
    let machine = |e: String| Built::fail(e, true);
    let src_root = w.join("src");
    let world_dir = w.join("spec");
    let classes = w.join("classes");
    if let Err(e) = copy_tree(&staged.root, &src_root) {
        return machine(e);
    }
    for f in &world {
        if let Err(e) = copy_tree(&spec.include_dir.join(f), &world_dir) {
            return machine(e);
        }
    }
    for d in [&classes, &w.join("tmp")] {
        if let Err(e) = std::fs::create_dir_all(d) {
            return machine(format!("cannot create {}: {e}", d.display()));
        }
    }
    // The Java sources detection chose (it looks two levels deep).
    let handed: Vec<PathBuf> = if staged.root.is_dir() {
        staged
            .files
            .iter()
            .filter(|f| language_of(f) == Some(Language::Java) && f.components().count() <= 3)
            .map(|f| src_root.join(f))
            .collect()
    } else {
        vec![src_root.join(staged.root.file_name().unwrap_or_default())]
    };
    // Students often hand in the files they were given with their own: those are not
    // compiled (labgrade's are, which count every makeMove), and a note says so.
    let (given, files): (Vec<PathBuf>, Vec<PathBuf>) = handed.into_iter().partition(|f| {
        f.file_name()
            .is_some_and(|n| world.iter().any(|w| w.as_os_str() == n))
    });
    let mut notes = vec![
        "Java: compiled with javac against labgrade's Position, Move and Player, and run on \
         the JVM in the sandbox; what your code prints with System.out is shown as its \
         standard error, never graded"
            .to_string(),
    ];
    if !given.is_empty() {
        let names: Vec<String> = given
            .iter()
            .filter_map(|f| f.strip_prefix(&src_root).ok())
            .map(|f| f.display().to_string())
            .collect();
        notes.push(format!(
            "{} {} handed in with your code: labgrade compiled its own copy of the world \
             instead (the one that counts the positions examined)",
            names.join(", "),
            if names.len() == 1 { "was" } else { "were" }
        ));
    }
    if let Err(e) = work.give_away() {
        return machine(e);
    }
    let jail = jail_for(work, limits);
    let mut cmd = Command::new("javac");
    cmd.args(JAVAC_VM)
        .arg(format!("-J-Djava.io.tmpdir={}", w.join("tmp").display()))
        .args(["-proc:none", "-implicit:none", "-encoding", "UTF-8"])
        .arg("-cp")
        .arg(&classes)
        .arg("-sourcepath")
        .arg(&classes)
        .arg("-d")
        .arg(&classes)
        .args(world.iter().map(|f| world_dir.join(f)))
        .args(&files);
    let step = run_in(&mut cmd, &jail, w);
    if let Some(m) = step.machine {
        return machine(m);
    }
    let warnings = step
        .output
        .lines()
        .filter(|l| l.contains(": warning:"))
        .count();
    if !step.ok {
        let mut b = Built::fail(step.output, false);
        b.warnings = warnings;
        return b;
    }
    let jar = w.join("submission.jar");
    if let Err(e) = write_jar(&classes, &jar, limits.file_size) {
        return machine(e);
    }
    Built {
        library: Some(jar),
        jvm: true,
        output: step.output,
        warnings,
        notes,
        ..Built::default()
    }
}

/// Writes every regular `.class` file under `classes` into a jar (a zip, stored).
fn write_jar(classes: &Path, jar: &Path, max_file: u64) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot write the jar: {e}");
    let file = std::fs::File::create(jar).map_err(|e| err(&e))?;
    let mut zip = zip::ZipWriter::new(file);
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for rel in tree_files(classes) {
        let path = classes.join(&rel);
        let meta = std::fs::symlink_metadata(&path).map_err(|e| err(&e))?;
        if !meta.is_file() || language_of_class(&rel).is_none() || meta.len() > max_file {
            continue;
        }
        let data = std::fs::read(&path).map_err(|e| err(&e))?;
        zip.start_file(rel.to_string_lossy(), options)
            .map_err(|e| err(&e))?;
        zip.write_all(&data).map_err(|e| err(&e))?;
    }
    zip.finish().map_err(|e| err(&e))?;
    Ok(())
}

fn language_of_class(rel: &Path) -> Option<()> {
    (rel.extension()? == "class").then_some(())
}
