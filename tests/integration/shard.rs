//! `grade --shard I/N` and `labgrade merge`: shards of a class merged are one run over it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::*;

/// Samples of a small class: passing, failing, not building, named alike.
pub const CLASS: [(&str, &str); 7] = [
    ("book-cpp", "alice"),
    ("memoised", "bob"),
    ("max-move-off-by-one", "carol"),
    ("missing-function", "dave"),
    ("wrong-fallback", "erin"),
    ("c-version", "frank"),
    ("memoised", "Frank"),
];

/// Writes [`CLASS`], a note and a roster (with a student who handed nothing in) under `dir`;
/// returns (class directory, roster).
pub fn write_class(dir: &Path) -> (PathBuf, PathBuf) {
    let class = dir.join("class");
    for (sample_name, name) in CLASS {
        copy_dir(&sample(sample_name), &class.join(name));
    }
    std::fs::write(class.join("NOTES.md"), "for the TAs").unwrap();
    let roster = dir.join("roster.csv");
    std::fs::write(
        &roster,
        "id,name\nalice,Alice A\nbob,Bob B\ncarol,Carol C\nzoe,Zoe Z\n",
    )
    .unwrap();
    (class, roster)
}

/// Keys whose values are measured, not graded: when a report was made, how long a case
/// ran, whether a build was found in the cache.
const MEASURED: [&str; 4] = ["graded_at", "time_ms", "execution_time", "cached"];

/// A JSON value without the [`MEASURED`] keys.
fn without_measurements(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for k in MEASURED {
                    m.remove(k);
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// Where two JSON values first differ, as a path (`tests[3].score`), with both values.
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys()) {
                let here = format!("{at}.{k}");
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = first_difference(p, q, &here) {
                            return Some(d);
                        }
                    }
                    _ => return Some(format!("{here}: only in one")),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, &format!("{at}[{i}]"))),
        _ if a == b => None,
        _ => {
            let short = |v: &Value| v.to_string().chars().take(200).collect::<String>();
            Some(format!("{at}: {} vs {}", short(a), short(b)))
        }
    }
}

/// The files of an output directory (not `shard.json`, not `.labgrade/`), by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .filter(|(name, _)| name != "shard.json")
        .collect()
}

/// How closely two output directories must agree.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Same {
    /// The same results (one run reused the other's): every file equal to the byte, but
    /// `class.csv`'s status, where `reused` is `graded`.
    Bytes,
    /// Graded apart: `grades.csv` and `class.csv` equal to the byte, the JSON reports equal
    /// but for [`MEASURED`] keys (junit.xml and report.html carry times and are not compared).
    Grades,
}

/// Asserts that `merged` holds what `one` (a single `grade` run) holds, as closely as `same`.
pub fn assert_same_output(one: &Path, merged: &Path, same: Same) {
    let a = files(one);
    let b = files(merged);
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "{} and {} hold other files",
        one.display(),
        merged.display()
    );
    for must in ["grades.csv", "class.csv", "report.html"] {
        assert!(
            a.contains_key(must),
            "{must} missing from {}",
            one.display()
        );
    }
    let status = |bytes: &[u8]| String::from_utf8_lossy(bytes).replace(",reused,", ",graded,");
    for (name, bytes) in &a {
        let other = &b[name];
        if name.ends_with(".json") {
            let (mut x, mut y): (Value, Value) = (
                serde_json::from_slice(bytes).unwrap(),
                serde_json::from_slice(other).unwrap(),
            );
            if same == Same::Grades {
                x = without_measurements(x);
                y = without_measurements(y);
            }
            if let Some(d) = first_difference(&x, &y, "") {
                panic!("{name} differs at {d}");
            }
        } else if name == "class.csv" {
            assert_eq!(status(bytes), status(other), "{name} differs");
        } else if same == Same::Bytes || name == "grades.csv" {
            assert!(
                bytes == other,
                "{name} differs:\n--- one run\n{}\n--- merged\n{}",
                String::from_utf8_lossy(bytes)
                    .chars()
                    .take(3000)
                    .collect::<String>(),
                String::from_utf8_lossy(other)
                    .chars()
                    .take(3000)
                    .collect::<String>()
            );
        }
    }
}

fn grade(
    class: &Path,
    roster: &Path,
    out: &Path,
    shard: Option<&str>,
    force: bool,
) -> std::process::Output {
    let mut args = vec![
        "grade",
        "nim",
        class.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--roster",
        roster.to_str().unwrap(),
        "--all-formats",
        "--csv-cases",
        "--jobs",
        "2",
    ];
    if force {
        args.push("--force");
    }
    if let Some(s) = shard {
        args.extend(["--shard", s]);
    }
    labgrade(&args)
}

#[test]
fn three_shards_merged_are_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (class, roster) = write_class(tmp.path());
    let mut shards = Vec::new();
    let mut graded = 0;
    for i in 1..=3 {
        let dir = tmp.path().join(format!("shard-{i}"));
        let o = grade(&class, &roster, &dir, Some(&format!("{i}/3")), true);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{}{}",
            stdout(&o),
            stderr(&o)
        );
        assert!(
            stdout(&o).contains(&format!("shard {i}/3: ")),
            "{}",
            stdout(&o)
        );
        let m: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("shard.json")).unwrap())
                .unwrap();
        assert_eq!(m["shard"], i);
        assert_eq!(m["of"], 3);
        assert_eq!(m["problem"], "nim");
        assert_eq!(m["submissions"], CLASS.len());
        graded += m["graded"].as_array().unwrap().len();
        shards.push(dir);
    }
    assert_eq!(graded, CLASS.len(), "every submission in exactly one shard");

    // Given in any order.
    let merged = tmp.path().join("merged");
    let mut args = vec!["merge"];
    let names: Vec<String> = shards
        .iter()
        .rev()
        .map(|d| d.to_str().unwrap().to_string())
        .collect();
    args.extend(names.iter().map(String::as_str));
    args.extend(["--out", merged.to_str().unwrap()]);
    let o = labgrade(&args);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("merged 3 shard(s) of nim: wrote 7 report(s)"),
        "{}",
        stdout(&o)
    );
    // One run over the class reuses the shards' results: every file is the merged one.
    let one = tmp.path().join("one");
    let o = grade(&class, &roster, &one, None, false);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("reused 7 of 7"), "{}", stdout(&o));
    assert_same_output(&one, &merged, Same::Bytes);
    // Graded again from scratch, the grades are the same.
    let again = tmp.path().join("again");
    let o = grade(&class, &roster, &again, None, true);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert_same_output(&again, &merged, Same::Grades);

    // A report edited in its shard after grading (a score raised to full marks) is not
    // merged: the shard's manifest seals each report as written.
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(shards[0].join("shard.json")).unwrap())
            .unwrap();
    let stem = manifest["graded"][0]["report"]
        .as_str()
        .unwrap()
        .to_string();
    let path = shards[0].join(format!("{stem}.json"));
    let mut report: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    report["score"] = report["max_score"].clone();
    std::fs::write(&path, serde_json::to_string_pretty(&report).unwrap()).unwrap();
    let forged = tmp.path().join("forged");
    let mut args = vec!["merge"];
    let dirs: Vec<String> = shards
        .iter()
        .map(|d| d.to_str().unwrap().to_string())
        .collect();
    args.extend(dirs.iter().map(String::as_str));
    args.extend(["--out", forged.to_str().unwrap()]);
    let o = labgrade(&args);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("is not the report that shard wrote"),
        "{}",
        stderr(&o)
    );
    assert!(!forged.join("grades.csv").exists(), "nothing merged");

    // A missing shard is named, and nothing is merged.
    let partial = tmp.path().join("partial");
    let o = labgrade(&[
        "merge",
        shards[0].to_str().unwrap(),
        shards[2].to_str().unwrap(),
        "--out",
        partial.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("shard 2/3 is missing"),
        "{}",
        stderr(&o)
    );
    assert!(!partial.exists());

    // A shard graded again has no manifest until it finishes: here it finds no submission.
    let stale = &shards[1];
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = labgrade(&[
        "grade",
        "nim",
        empty.to_str().unwrap(),
        "--out",
        stale.to_str().unwrap(),
        "--shard",
        "2/3",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let o = labgrade(&[
        "merge",
        shards[0].to_str().unwrap(),
        stale.to_str().unwrap(),
        shards[2].to_str().unwrap(),
        "--out",
        partial.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("is not a finished shard"),
        "{}",
        stderr(&o)
    );

    // A directory that is no shard (the one-machine run) is refused.
    let o = labgrade(&[
        "merge",
        one.to_str().unwrap(),
        "--out",
        partial.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("is not a finished shard"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_bad_shard_argument_is_explained() {
    for (arg, says) in [
        ("0/3", "numbered from 1"),
        ("4/3", "past the last"),
        ("two", "I/N"),
    ] {
        let o = labgrade(&[
            "grade",
            "nim",
            "tests/submissions/nim",
            "--out",
            "/nonexistent/out",
            "--shard",
            arg,
        ]);
        assert_eq!(o.status.code(), Some(2), "{arg}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{arg}: {}", stderr(&o));
    }
}
