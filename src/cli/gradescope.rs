//! `labgrade gradescope <problem> -o autograder.zip`: the autograder bundle Gradescope takes.
//!
//! Gradescope unpacks the zip into `/autograder/source`, runs `setup.sh` once when it builds
//! the image, then `run_autograder` for every submission, with the student's files in
//! `/autograder/submission`; whatever `/autograder/results/results.json` then says is the
//! grade. The bundle carries labgrade itself (its two binaries, built for this machine's
//! architecture and C library), the problem's spec, headers and every case, hidden ones
//! included: the zip is the instructor's, uploaded to Gradescope, never shown to students.
//!
//! `run_autograder` always leaves a `results.json`: labgrade writes one even when it cannot
//! load the submission (score 0 and what to hand in, see `check --format gradescope`), and
//! if labgrade itself fails, the script writes one that says so, with no score: labgrade's
//! failure is never a student's 0 (an unresolved submission's results carry no score
//! either). Every path starts from `$AUTOGRADER_ROOT` (default `/autograder`), so the
//! scripts run as they do on Gradescope in any directory laid out the same way (the tests
//! do that).

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::common::{CliError, Context};
use super::export::{write_bundle, Cases};
use crate::exit_codes;

/// Writes the autograder zip for `problem` to `out`.
pub fn run(ctx: &Context, problem: &str, out: &Path) -> Result<i32, CliError> {
    let staging = tempfile::tempdir().map_err(|e| CliError(format!("cannot stage: {e}")))?;
    let dir = staging.path().join("autograder");
    let bundle = write_bundle(ctx, problem, &dir, Cases::All)?;
    // A problem package's expectations come from its reference, run when a submission is
    // graded: the autograder (never a student) holds it.
    let package = crate::package::get(problem);
    if let Some(p) = package {
        let to = dir.join(crate::package::BUNDLED).join(problem);
        // The reference, and the named mistakes that run beside it.
        let mistakes = p.dir.join(crate::package::mistakes::DIR);
        crate::submission::build::copy_tree(&p.reference_dir(), &to.join("reference"))
            .map_err(CliError)?;
        if mistakes.is_dir() {
            crate::submission::build::copy_tree(&mistakes, &to.join(crate::package::mistakes::DIR))
                .map_err(CliError)?;
        }
    }
    // The course deployed is the course graded: its file, and the packages it adds.
    let course = carry_course(ctx, problem, &dir)?;
    // A Java problem's submissions need a JDK on the image.
    let java = !crate::submission::java::world_sources(&ctx.root()?.load_spec(problem)?).is_empty();
    let packages = package.is_some() && course != Carried::WithTheProblem;
    let script = run_autograder(problem, packages, course != Carried::None);
    for (name, text) in [("setup.sh", setup_sh(java)), ("run_autograder", script)] {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .and_then(|()| std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)))
            .map_err(|e| CliError(format!("cannot write {name}: {e}")))?;
    }
    zip_dir(&dir, out)?;
    println!(
        "wrote {}: labgrade, the {problem} spec and all {} cases ({} visible to students, the \
         others as the course's visibility says); upload it as the assignment's autograder",
        out.display(),
        bundle.written,
        bundle.visible
    );
    Ok(exit_codes::OK)
}

/// Where the zip keeps the course file (its packages beside it, as the file names them).
const COURSE_FILE: &str = "course/course.toml";

/// What the zip carries of the course.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Carried {
    /// No course.
    None,
    /// The course file (and any package it adds).
    Course,
    /// The course file and, among its packages, the problem itself.
    WithTheProblem,
}

/// Copies the course file in force (`--course` or `$LABGRADE_COURSE`) into the zip's
/// directory `dir`, with every package it adds at the same place relative to it, so that
/// `run_autograder` grades with the same course `check --course` does.
fn carry_course(ctx: &Context, problem: &str, dir: &Path) -> Result<Carried, CliError> {
    let (Some(course), Some(path)) = (ctx.course()?, ctx.course.as_ref()) else {
        return Ok(Carried::None);
    };
    let into = dir.join(COURSE_FILE);
    let beside_in_zip = into.parent().expect("a file in a directory");
    std::fs::create_dir_all(beside_in_zip)
        .and_then(|()| std::fs::copy(path, &into).map(|_| ()))
        .map_err(|e| CliError(format!("cannot copy the course file into the zip: {e}")))?;
    let beside = path.parent().unwrap_or(Path::new("."));
    let graded = crate::package::get(problem).map(|p| p.dir.clone());
    let mut carried = Carried::Course;
    for package in &course.packages {
        let rel = package
            .strip_prefix(beside)
            .ok()
            .filter(|r| {
                r.components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)))
            })
            .ok_or_else(|| {
                CliError(format!(
                    "{}: the course adds packages from `{}`, outside the course file's own \
                     directory: put them beside it (the autograder zip carries them at the \
                     same place relative to the course file)",
                    path.display(),
                    package.display()
                ))
            })?;
        crate::submission::build::copy_tree(package, &beside_in_zip.join(rel)).map_err(CliError)?;
        if graded.as_ref().is_some_and(|g| g.starts_with(package)) {
            carried = Carried::WithTheProblem;
        }
    }
    Ok(carried)
}

/// `setup.sh`: what labgrade needs that the image may lack (the C and C++ compilers, and a
/// JDK for a Java problem).
fn setup_sh(java: bool) -> String {
    let jdk = if java {
        "command -v javac >/dev/null || missing+=(default-jdk-headless)\n"
    } else {
        ""
    };
    "#!/usr/bin/env bash\n\
     # Gradescope runs this once, as root, when it builds the autograder image.\n\
     # labgrade itself is carried in the bundle (bin/); it needs gcc and g++ to build\n\
     # submissions.\n\
     set -euo pipefail\n\
     missing=()\n\
     command -v gcc >/dev/null || missing+=(gcc)\n\
     command -v g++ >/dev/null || missing+=(g++)\n\
     JDK\
     if [ ${#missing[@]} -gt 0 ]; then\n\
     \x20 apt-get update -qq && apt-get install -y -qq \"${missing[@]}\"\n\
     fi\n\
     root=\"${AUTOGRADER_ROOT:-/autograder}\"\n\
     chmod 755 \"$root/source/bin/labgrade\" \"$root/source/bin/labgrade-worker\" \"$root/source/run_autograder\"\n\
     \"$root/source/bin/labgrade\" doctor --for LANGUAGES || true\n"
        .replace("JDK", jdk)
        .replace("LANGUAGES", if java { "java" } else { "c,cpp" })
}

/// `run_autograder`: grades the submission, every case, into results.json (a problem
/// package's from the package in the zip), with the zip's course file when it has one.
fn run_autograder(problem: &str, package: bool, course: bool) -> String {
    let mut packages = if package {
        format!("--problems \"$root/source/{}\" ", crate::package::BUNDLED)
    } else {
        String::new()
    };
    if course {
        packages.push_str(&format!("--course \"$root/source/{COURSE_FILE}\" "));
    }
    format!(
        "#!/usr/bin/env bash\n\
         # Gradescope runs this for every submission, as root. It always leaves\n\
         # results/results.json: labgrade's, or one that says labgrade failed.\n\
         root=\"${{AUTOGRADER_ROOT:-/autograder}}\"\n\
         mkdir -p \"$root/results\"\n\
         out=\"$root/results/results.json\"\n\
         \"$root/source/bin/labgrade\" --color never {packages}check {problem} \"$root/submission\" --all \\\n\
         \x20   --format gradescope > \"$out.partial\" 2> \"$root/results/labgrade-stderr.txt\"\n\
         if [ -s \"$out.partial\" ] && [ \"$(head -c 1 \"$out.partial\")\" = \"{{\" ]; then\n\
         \x20 mv \"$out.partial\" \"$out\"\n\
         else\n\
         \x20 rm -f \"$out.partial\"\n\
         \x20 printf '%s\\n' '{{\"output\": \"labgrade could not grade this submission \
         (its own failure, not yours), so no score is given: please tell your instructor.\", \
         \"output_format\": \"md\", \"stdout_visibility\": \"hidden\", \"tests\": []}}' > \"$out\"\n\
         fi\n\
         exit 0\n"
    )
}

/// Zips every file under `dir` (paths relative to it), keeping the executable bits.
fn zip_dir(dir: &Path, out: &Path) -> Result<(), CliError> {
    let err =
        |e: &dyn std::fmt::Display| CliError(format!("cannot write `{}`: {e}", out.display()));
    let file = std::fs::File::create(out).map_err(|e| err(&e))?;
    let mut zip = zip::ZipWriter::new(file);
    let mut files = Vec::new();
    collect(dir, dir, &mut files).map_err(|e| err(&e))?;
    files.sort();
    for rel in files {
        let path = dir.join(&rel);
        let mode = std::fs::metadata(&path)
            .map_err(|e| err(&e))?
            .permissions()
            .mode();
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(if mode & 0o111 != 0 { 0o755 } else { 0o644 });
        zip.start_file(rel.to_string_lossy(), options)
            .map_err(|e| err(&e))?;
        let bytes = std::fs::read(&path).map_err(|e| err(&e))?;
        zip.write_all(&bytes).map_err(|e| err(&e))?;
    }
    zip.finish().map_err(|e| err(&e))?;
    Ok(())
}

/// Every file under `dir`, relative to `base`.
fn collect(base: &Path, dir: &Path, into: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let p = e.path();
        if e.file_type()?.is_dir() {
            collect(base, &p, into)?;
        } else {
            into.push(p.strip_prefix(base).unwrap_or(&p).to_path_buf());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_java_problem_s_image_gets_a_jdk_and_no_other_does() {
        let java = super::setup_sh(true);
        assert!(
            java.contains("command -v javac >/dev/null || missing+=(default-jdk-headless)\n"),
            "{java}"
        );
        let c = super::setup_sh(false);
        assert!(!c.contains("javac") && !c.contains("JDK"), "{c}");
        assert_eq!(c.lines().count() + 1, java.lines().count());
    }
}
