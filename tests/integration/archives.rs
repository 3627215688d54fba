//! Archives handed in (unpacked in the build jail by `labgrade-worker --unpack`) and the
//! mistakes labgrade names before building: a class folder, two `main`s, nothing to build.
//!
//! The archives are made here, at run time, from the samples' sources (nothing binary is
//! committed): the zip and tar crates are the test's, never the grader's reading.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::*;

/// A zip of `files` (name, bytes), symbolic links given as (name, None, target).
fn zip_file(path: &Path, files: &[(&str, &[u8])]) {
    let mut w = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in files {
        if name.ends_with('/') {
            w.add_directory(*name, opts).unwrap();
        } else {
            w.start_file(*name, opts).unwrap();
            w.write_all(data).unwrap();
        }
    }
    w.finish().unwrap();
}

/// A tar (gzip-compressed when `gz`) of `files`, each (name, bytes, entry type).
fn tar_file(path: &Path, gz: bool, files: &[(&str, &[u8], tar::EntryType)]) {
    let out: Box<dyn Write> = if gz {
        Box::new(flate2::write::GzEncoder::new(
            std::fs::File::create(path).unwrap(),
            flate2::Compression::default(),
        ))
    } else {
        Box::new(std::fs::File::create(path).unwrap())
    };
    let mut b = tar::Builder::new(out);
    for (name, data, kind) in files {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(*kind);
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        if *kind == tar::EntryType::Link || *kind == tar::EntryType::Symlink {
            h.set_link_name("/etc/passwd").unwrap();
        }
        // Raw, as an attacker's tool writes it (`set_path` refuses `..`).
        h.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
        h.set_cksum();
        b.append(&h, *data).unwrap();
    }
    b.into_inner().unwrap().flush().unwrap();
}

fn check_json(path: &Path) -> Value {
    let out = labgrade(&[
        "check",
        "nim",
        path.to_str().unwrap(),
        "--all",
        "--format",
        "json",
    ]);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", path.display(), stderr(&out)))
}

/// (name, verdict, score) of every case.
fn verdicts(report: &Value) -> Vec<(String, String, String)> {
    report["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
                c["score"].to_string(),
            )
        })
        .collect()
}

#[test]
fn a_zip_a_tar_and_a_tar_gz_grade_exactly_as_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let source = std::fs::read(sample("c-version").join("nim.c")).unwrap();
    // A zip with the usual wrapper folder and macOS's metadata beside it.
    let zip = dir.path().join("hw3.zip");
    zip_file(
        &zip,
        &[
            ("hw3/", b""),
            ("hw3/nim.c", &source),
            ("__MACOSX/hw3/._nim.c", b"\0\x05\x16\x07"),
            ("hw3/.DS_Store", b"junk"),
        ],
    );
    // A tar.gz (named .tgz) with the file at its top, and a plain tar with a wrapper
    // folder but a name that does not say so: both told by their first bytes.
    let tgz = dir.path().join("hw3.tgz");
    tar_file(&tgz, true, &[("nim.c", &source, tar::EntryType::Regular)]);
    let tar = dir.path().join("hw3-handed-in");
    tar_file(
        &tar,
        false,
        &[
            ("hw3/", b"", tar::EntryType::Directory),
            ("hw3/nim.c", &source, tar::EntryType::Regular),
        ],
    );
    let folder = check_json(&sample("c-version"));
    assert_eq!(folder["score"], folder["max_score"], "{folder}");
    for archive in [&zip, &tgz, &tar] {
        let r = check_json(archive);
        assert_eq!(verdicts(&r), verdicts(&folder), "{}", archive.display());
        assert_eq!(r["score"], folder["score"]);
        assert_eq!(r["max_score"], folder["max_score"]);
        let notes = r["build"]["notes"].to_string();
        let name = archive.file_name().unwrap().to_string_lossy();
        assert!(notes.contains(&format!("handed in as `{name}`")), "{notes}");
    }
    let notes = check_json(&zip)["build"]["notes"].to_string();
    assert!(notes.contains("its folder `hw3/`"), "{notes}");
    assert!(notes.contains("2 hidden or metadata entries"), "{notes}");
}

#[test]
fn a_class_of_archives_is_graded_one_archive_each() {
    let class = tempfile::tempdir().unwrap();
    let c = std::fs::read(sample("c-version").join("nim.c")).unwrap();
    let wrong = std::fs::read(sample("wrong-base-case").join("nim.cpp")).unwrap();
    zip_file(&class.path().join("alice.zip"), &[("alice/nim.c", &c)]);
    tar_file(
        &class.path().join("bob.tar.gz"),
        true,
        &[("nim.cpp", &wrong, tar::EntryType::Regular)],
    );
    let out_dir = class.path().join("out");
    // As a GitHub Actions step: the class's table is the job summary too.
    let summary_path = class.path().join("summary.md");
    let out = labgrade_on_github(
        &repo(),
        &[
            "grade",
            "nim",
            class.path().to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
            "--jobs",
            "2",
            "--csv-cases",
        ],
        &summary_path,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let csv = std::fs::read_to_string(out_dir.join("grades.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let column = |who: &str, name: &str| -> f64 {
        let line = csv
            .lines()
            .find(|l| l.split(',').nth(1) == Some(who))
            .unwrap_or_else(|| panic!("{who}: {csv}"));
        let f: Vec<&str> = line.split(',').collect();
        let i = header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}: {csv}"));
        f[i].parse().unwrap()
    };
    let score = |who: &str| (column(who, "score"), column(who, "max_score"));
    let (a, a_max) = score("alice.zip");
    assert_eq!(a, a_max, "{csv}");
    let (b, b_max) = score("bob.tar.gz");
    assert!(b > 0.0 && b < b_max, "{csv}");
    // Rubric columns, and with --csv-cases a column per case, hidden ones included.
    assert!(column("alice.zip", "tag:recursion") > 0.0, "{csv}");
    assert!(column("bob.tar.gz", "tag:recursion") < column("alice.zip", "tag:recursion"));
    assert_eq!(
        column("alice.zip", "case:ChooseComputerMove/16/calls"),
        1.0,
        "{csv}"
    );
}

/// `labgrade check nim <path>`: exit 2, and stderr (one line) as a string.
fn refused(path: &Path) -> String {
    let out = labgrade(&["check", "nim", path.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{}: {err}", path.display());
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn hostile_archives_are_refused_naming_the_archive_and_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let escape = format!(
        "../../../../../../../../tmp/labgrade-archive-escape-{}",
        std::process::id()
    );
    let escaped = PathBuf::from(format!(
        "/tmp/labgrade-archive-escape-{}",
        std::process::id()
    ));
    let cases: Vec<(PathBuf, String)> = vec![
        {
            let p = d.join("slip.zip");
            zip_file(&p, &[("hw3/nim.c", b"int x;"), (&escape, b"pwned")]);
            (
                p,
                format!("`slip.zip`: the entry `{escape}` reaches outside the archive"),
            )
        },
        {
            let p = d.join("slip.tar.gz");
            tar_file(&p, true, &[(&escape, b"pwned", tar::EntryType::Regular)]);
            (p, "`slip.tar.gz`: the entry `../".to_string())
        },
        {
            let p = d.join("absolute.zip");
            zip_file(&p, &[("/tmp/labgrade-absolute.c", b"int x;")]);
            (
                p,
                "`absolute.zip`: the entry `/tmp/labgrade-absolute.c` has an absolute path"
                    .to_string(),
            )
        },
        {
            let p = d.join("link.zip");
            let mut w = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
            w.add_symlink(
                "nim.h",
                "/etc/shadow",
                zip::write::SimpleFileOptions::default(),
            )
            .unwrap();
            w.finish().unwrap();
            (
                p,
                "`link.zip`: the entry `nim.h` is a symbolic link".to_string(),
            )
        },
        {
            let p = d.join("hardlink.tar");
            tar_file(&p, false, &[("nim.h", b"", tar::EntryType::Link)]);
            (
                p,
                "`hardlink.tar`: the entry `nim.h` is a hard link".to_string(),
            )
        },
        {
            // 48 MiB of zeros, about 50 KiB zipped: stops at the 32 MiB cap.
            let p = d.join("bomb.zip");
            let mut w = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
            w.start_file(
                "nim.c",
                zip::write::SimpleFileOptions::default()
                    .compression_method(zip::CompressionMethod::Deflated),
            )
            .unwrap();
            let mb = vec![0u8; 1 << 20];
            for _ in 0..48 {
                w.write_all(&mb).unwrap();
            }
            w.finish().unwrap();
            (
                p,
                "`bomb.zip`: the entry `nim.c` is more than 33554432 bytes unpacked".to_string(),
            )
        },
        {
            let p = d.join("nested.zip");
            let inner = d.join("inner.zip");
            zip_file(&inner, &[("nim.c", b"int x;")]);
            zip_file(&p, &[("hw3/inner.zip", &std::fs::read(&inner).unwrap())]);
            (
                p,
                "`nested.zip` holds only another archive (`inner.zip`)".to_string(),
            )
        },
        {
            let p = d.join("hw3.rar");
            std::fs::write(&p, b"Rar!\x1a\x07\x01\x00 and the rest").unwrap();
            (
                p,
                "`hw3.rar` is a RAR archive, which labgrade does not unpack: hand in a .zip, \
                 .tar, .tar.gz or .tgz"
                    .to_string(),
            )
        },
        {
            let p = d.join("renamed.zip");
            std::fs::write(&p, b"7z\xbc\xaf\x27\x1c and the rest").unwrap();
            (p, "`renamed.zip` is a 7-Zip archive".to_string())
        },
        {
            let p = d.join("truncated.zip");
            std::fs::write(&p, b"PK\x03\x04 and nothing else").unwrap();
            (p, "`truncated.zip`: not a readable zip archive".to_string())
        },
        {
            let p = d.join("empty.zip");
            zip_file(&p, &[("__MACOSX/._x", b"")]);
            (p, "`empty.zip` holds no files".to_string())
        },
    ];
    for (path, expect) in cases {
        let err = refused(&path);
        let shown = err.replace(&format!("{}/", d.display()), "");
        assert!(shown.contains(&expect), "{}: {shown}", path.display());
    }
    assert!(!escaped.exists(), "{} was written", escaped.display());
}

#[test]
fn class_folders_two_mains_and_nothing_to_build_are_named() {
    let err = refused(&sample("class-folder"));
    assert!(
        err.contains(
            "looks like a class folder (2 submissions: alice/, bob/): use `labgrade grade` for \
             a class, or pass one student's folder to `check`"
        ),
        "{err}"
    );
    // A teacher's class folder of real samples, and the same zipped.
    let class = tempfile::tempdir().unwrap();
    for s in ["c-version", "book-cpp", "wrong-fallback"] {
        copy_dir(&sample(s), &class.path().join(s));
    }
    let err = refused(class.path());
    assert!(
        err.contains("(3 submissions: book-cpp/, c-version/, wrong-fallback/)"),
        "{err}"
    );
    let zipped = tempfile::tempdir().unwrap();
    let zip = zipped.path().join("class.zip");
    let c = std::fs::read(sample("c-version").join("nim.c")).unwrap();
    let cpp = std::fs::read(sample("book-cpp").join("nim.cpp")).unwrap();
    zip_file(&zip, &[("class/a/nim.c", &c), ("class/b/nim.cpp", &cpp)]);
    let err = refused(&zip);
    assert!(
        err.contains("class.zip` looks like a class folder (2 submissions: a/, b/)"),
        "{err}"
    );

    let err = refused(&sample("two-mains"));
    assert!(
        err.contains("labgrade saw 2 `main` functions in `")
            && err.contains("(in `play.c`, `test_nim.c`)")
            && err.contains("hand in your solution with a single `main`"),
        "{err}"
    );
    let err = refused(&sample("no-source"));
    assert!(
        err.contains("holds no source labgrade can build (it saw expect.toml, nim.py)")
            && err.contains("a .zip, .tar or .tar.gz"),
        "{err}"
    );
}
