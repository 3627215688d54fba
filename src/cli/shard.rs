//! Grading a class on several machines: `grade --shard I/N` grades one share of the class,
//! `labgrade merge` puts the shards' outputs together into what one `grade` run writes.
//!
//! A submission's shard depends on its name alone: the first 8 bytes of the SHA-256 of the
//! name, as a big-endian number, modulo N, plus 1. Every machine computes the same share
//! without talking to the others, and a student added to the class moves no one else to
//! another shard (so a node's result cache stays useful). Shards are numbered from 1:
//! `--shard 1/3`, `--shard 2/3`, `--shard 3/3`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::common::CliError;
use crate::exit_codes;
use crate::report::{csv, github, junit, SubmissionReport};

/// What a shard writes beside its reports, last, so that its presence means it finished.
pub const MANIFEST: &str = "shard.json";

/// Which share of the class to grade: shard `index` of `count`, from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// From 1 to `count`.
    pub index: usize,
    /// How many shards the class is cut into.
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let usage = "the shard is I/N, I from 1 to N: --shard 1/4, ..., --shard 4/4 (with a \
                     0-based index such as Kubernetes' JOB_COMPLETION_INDEX, add 1)";
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is not a shard: {usage}"))?;
        let number = |x: &str| x.trim().parse::<usize>().ok();
        match (number(i), number(n)) {
            (Some(index), Some(count)) if count >= 1 && (1..=count).contains(&index) => {
                Ok(Shard { index, count })
            }
            (Some(0), Some(count)) if count >= 1 => {
                Err(format!("`{s}`: shards are numbered from 1, not 0: {usage}"))
            }
            (Some(_), Some(0)) => Err(format!("`{s}`: there must be at least one shard: {usage}")),
            (Some(_), Some(_)) => Err(format!("`{s}`: the shard is past the last one: {usage}")),
            _ => Err(format!("`{s}` is not a shard: {usage}")),
        }
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether the submission named `name` is this shard's.
    pub fn holds(&self, name: &str) -> bool {
        shard_of(name, self.count) == self.index
    }
}

/// The shard (from 1) of the submission named `name` when the class is cut into `count`.
pub fn shard_of(name: &str, count: usize) -> usize {
    let digest = Sha256::digest(name.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(first) % count.max(1) as u64) as usize + 1
}

/// The fingerprint of a class: the SHA-256 of its submissions' names (sorted, each ended by a
/// NUL byte). Shards of one class carry the same one.
pub fn fingerprint<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let mut sorted: Vec<&str> = names.into_iter().collect();
    sorted.sort();
    let mut h = Sha256::new();
    for n in sorted {
        h.update(n.as_bytes());
        h.update([0]);
    }
    format!("{:x}", h.finalize())
}

/// One submission a shard graded.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Graded {
    /// The submission's name.
    pub submission: String,
    /// Its report's file stem (`<stem>.json`), the one a single run would give it.
    pub report: String,
    /// The report's seal ([`seal`]): merge takes only the report this shard wrote.
    #[serde(default)]
    pub seal: String,
}

/// What seals a shard's report: HMAC-SHA-256 under the grading user's cache key (see
/// `submission::cache_secret`) of the problem, the shard, the submission and the report's
/// exact bytes. A report edited after grading, moved from another shard or class, or
/// written by someone without the key does not check out.
pub fn seal(
    key: &[u8],
    problem: &str,
    class: &str,
    shard: usize,
    submission: &str,
    report: &[u8],
) -> String {
    let mut msg = format!("{problem}\n{class}\n{shard}\n{submission}\n").into_bytes();
    msg.extend_from_slice(report);
    crate::submission::cache_secret::mac(key, &msg)
}

/// `shard.json`: which shard of which class this directory holds.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    /// This shard, from 1.
    pub shard: usize,
    /// How many shards.
    pub of: usize,
    /// The problem graded.
    pub problem: String,
    /// [`fingerprint`] of the whole class's submissions.
    pub class: String,
    /// How many submissions the whole class has.
    pub submissions: usize,
    /// `--csv-cases`.
    pub csv_cases: bool,
    /// `--all-formats`.
    pub all_formats: bool,
    /// What this shard graded, sorted by name.
    pub graded: Vec<Graded>,
}

impl Manifest {
    /// Writes `<out>/shard.json` through a temporary file.
    pub fn write(&self, out: &Path) -> Result<(), CliError> {
        let text = serde_json::to_string_pretty(self).map_err(|e| CliError(e.to_string()))?;
        super::common::write_atomically(&out.join(MANIFEST), text.as_bytes())
    }

    fn read(dir: &Path) -> Result<Manifest, CliError> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            CliError(format!(
                "`{}` is not a finished shard: cannot read its {MANIFEST} ({e}); a shard \
                 writes it last, with `labgrade grade <problem> <class> --shard I/N --out {}`",
                dir.display(),
                dir.display()
            ))
        })?;
        serde_json::from_str(&text)
            .map_err(|e| CliError(format!("`{}` is not a shard manifest: {e}", path.display())))
    }
}

/// Checks that `shards` (directory, manifest) are all the shards of one class, each once,
/// and returns every graded submission, sorted by name.
pub fn check_shards(shards: &[(PathBuf, Manifest)]) -> Result<Vec<Graded>, CliError> {
    let Some((first_dir, first)) = shards.first() else {
        return Err(CliError("merge needs at least one shard directory".into()));
    };
    for (dir, m) in shards {
        let differs = |what: &str, a: &dyn std::fmt::Display, b: &dyn std::fmt::Display| {
            CliError(format!(
                "`{}` and `{}` are not shards of one grading: {what} {a} and {b}",
                first_dir.display(),
                dir.display()
            ))
        };
        if m.problem != first.problem {
            return Err(differs("problems", &first.problem, &m.problem));
        }
        if m.of != first.of {
            return Err(differs("shard counts", &first.of, &m.of));
        }
        if m.class != first.class || m.submissions != first.submissions {
            return Err(CliError(format!(
                "`{}` and `{}` are not shards of one class: their class directories list \
                 other submissions",
                first_dir.display(),
                dir.display()
            )));
        }
        if m.csv_cases != first.csv_cases || m.all_formats != first.all_formats {
            return Err(CliError(format!(
                "`{}` and `{}` were graded with other options (--csv-cases, --all-formats)",
                first_dir.display(),
                dir.display()
            )));
        }
        if m.shard == 0 || m.shard > m.of {
            return Err(CliError(format!(
                "`{}` says it is shard {}/{}",
                dir.display(),
                m.shard,
                m.of
            )));
        }
    }
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    for (dir, m) in shards {
        if let Some(other) = seen.insert(m.shard, dir) {
            return Err(CliError(format!(
                "shard {}/{} is given twice: `{}` and `{}`",
                m.shard,
                m.of,
                other.display(),
                dir.display()
            )));
        }
    }
    let missing: Vec<String> = (1..=first.of)
        .filter(|i| !seen.contains_key(i))
        .map(|i| format!("{i}/{}", first.of))
        .collect();
    if !missing.is_empty() {
        let (noun, verb) = if missing.len() == 1 {
            ("shard", "is")
        } else {
            ("shards", "are")
        };
        return Err(CliError(format!(
            "{noun} {} {verb} missing: merge needs every shard's output directory",
            missing.join(", ")
        )));
    }
    let mut graded: Vec<Graded> = Vec::new();
    let mut names: BTreeSet<&str> = BTreeSet::new();
    for (dir, m) in shards {
        for g in &m.graded {
            if !names.insert(&g.submission) {
                return Err(CliError(format!(
                    "submission `{}` is graded by two shards (again in `{}`)",
                    g.submission,
                    dir.display()
                )));
            }
            if shard_of(&g.submission, m.of) != m.shard {
                return Err(CliError(format!(
                    "`{}` holds `{}`, which is shard {}'s",
                    dir.display(),
                    g.submission,
                    shard_of(&g.submission, m.of)
                )));
            }
            graded.push(g.clone());
        }
    }
    if graded.len() != first.submissions || fingerprint(names.iter().copied()) != first.class {
        return Err(CliError(format!(
            "the shards graded {} submission(s), the class has {}: a shard's output is \
             incomplete",
            graded.len(),
            first.submissions
        )));
    }
    graded.sort_by(|a, b| a.submission.cmp(&b.submission));
    Ok(graded)
}

/// `class.csv` of the merged class: every shard's submission rows, in the class's order, then
/// the skipped entries and missing students (the same in every shard) from the first.
fn merge_class_csv(
    shards: &[(PathBuf, Manifest)],
    graded: &[Graded],
    out: &Path,
) -> Result<bool, CliError> {
    let fail = |e: ::csv::Error| CliError(format!("merging class.csv: {e}"));
    let mut header: Option<::csv::StringRecord> = None;
    let mut rows: BTreeMap<String, ::csv::StringRecord> = BTreeMap::new();
    let mut rest: Vec<::csv::StringRecord> = Vec::new();
    for (dir, m) in shards {
        let path = dir.join("class.csv");
        if !path.is_file() {
            return Ok(false);
        }
        let mut r = ::csv::Reader::from_path(&path).map_err(fail)?;
        let h = r.headers().map_err(fail)?.clone();
        let status = h.iter().position(|c| c == "status");
        let report = h.iter().position(|c| c == "report");
        for rec in r.records() {
            let rec = rec.map_err(fail)?;
            let is_submission = status
                .and_then(|i| rec.get(i))
                .is_some_and(|s| s == "graded" || s == "reused");
            if is_submission {
                let stem = report.and_then(|i| rec.get(i)).unwrap_or("");
                rows.insert(stem.to_string(), rec);
            } else if m.shard == 1 {
                rest.push(rec);
            }
        }
        header.get_or_insert(h);
    }
    let mut w = ::csv::Writer::from_path(out.join("class.csv")).map_err(fail)?;
    if let Some(h) = &header {
        w.write_record(h).map_err(fail)?;
    }
    for g in graded {
        if let Some(rec) = rows.get(&format!("{}.json", g.report)) {
            w.write_record(rec).map_err(fail)?;
        }
    }
    for rec in &rest {
        w.write_record(rec).map_err(fail)?;
    }
    w.flush()?;
    Ok(true)
}

/// Copies `from` to `to` through a temporary file in `to`'s directory.
fn copy_into(from: &Path, to: &Path) -> Result<(), CliError> {
    let bytes = std::fs::read(from)
        .map_err(|e| CliError(format!("cannot read `{}`: {e}", from.display())))?;
    super::common::write_atomically(to, &bytes)
}

/// `labgrade merge`: checks the shards, copies their reports into `out` and writes the
/// gradebook files of the whole class, as one `grade` run would have.
pub fn merge(dirs: &[PathBuf], out: &Path, color: bool) -> Result<i32, CliError> {
    let shards: Vec<(PathBuf, Manifest)> = dirs
        .iter()
        .map(|d| Manifest::read(d).map(|m| (d.clone(), m)))
        .collect::<Result<_, _>>()?;
    let graded = check_shards(&shards)?;
    let first = &shards[0].1;
    let key = crate::submission::cache_secret::secret(out).map_err(CliError)?;
    std::fs::create_dir_all(out)
        .map_err(|e| CliError(format!("cannot create `{}`: {e}", out.display())))?;
    crate::owned_dir::check(out, crate::owned_dir::OUTPUT).map_err(CliError)?;
    let mut reports: Vec<SubmissionReport> = Vec::with_capacity(graded.len());
    for (dir, m) in &shards {
        for g in &m.graded {
            let json = dir.join(format!("{}.json", g.report));
            let text = std::fs::read_to_string(&json).map_err(|e| {
                CliError(format!(
                    "shard {}/{} lists `{}` but its report `{}` cannot be read: {e}",
                    m.shard,
                    m.of,
                    g.submission,
                    json.display()
                ))
            })?;
            let sealed = seal(
                &key,
                &m.problem,
                &m.class,
                m.shard,
                &g.submission,
                text.as_bytes(),
            );
            if g.seal.is_empty() || sealed != g.seal {
                return Err(CliError(format!(
                    "`{}` in shard {}/{} is not the report that shard wrote (it was changed \
                     after grading, or graded with another cache key): refusing to merge it. \
                     Grade that shard again, as the user whose key merges ({})",
                    json.display(),
                    m.shard,
                    m.of,
                    crate::submission::cache_secret::key_file()
                        .map_or("no key file".into(), |f| f.display().to_string())
                )));
            }
            let report = crate::report::json::from_json(&text).map_err(|e| {
                CliError(format!(
                    "`{}` is not a labgrade report: {e}",
                    json.display()
                ))
            })?;
            copy_into(&json, &out.join(format!("{}.json", g.report)))?;
            if m.all_formats {
                let gs = format!("{}.gradescope.json", g.report);
                copy_into(&dir.join(&gs), &out.join(&gs))?;
            }
            reports.push(report);
        }
    }
    reports.sort_by(|a, b| a.submission.cmp(&b.submission));
    let file = std::fs::File::create(out.join("grades.csv"))?;
    csv::write_gradebook(
        &reports,
        csv::GradebookColumns {
            cases: first.csv_cases,
        },
        file,
    )
    .map_err(|e| CliError(format!("writing grades.csv: {e}")))?;
    if first.all_formats {
        std::fs::write(out.join("junit.xml"), junit::to_junit(&reports))?;
    }
    if github::enabled() {
        if let Err(e) = github::append_summary(&github::grade_summary(&first.problem, &reports)) {
            eprintln!("warning: cannot write the job summary (GITHUB_STEP_SUMMARY): {e}");
        }
    }
    super::report::write_class_report(&out.join(super::report::REPORT_HTML), &reports)?;
    let class_csv = merge_class_csv(&shards, &graded, out)?;
    println!("{}", csv::summary_table(&reports, color).trim_end());
    println!(
        "merged {} shard(s) of {}: wrote {} report(s), grades.csv, {}report.html to {}",
        shards.len(),
        first.problem,
        reports.len(),
        if class_csv { "class.csv and " } else { "" },
        out.display()
    );
    if let Some(line) = csv::unresolved_line(&reports, csv::MERGE_AGAIN) {
        println!("{line}");
    }
    Ok(exit_codes::of_reports(&reports))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("student-{i:03}")).collect()
    }

    #[test]
    fn parses_one_based_shards_and_says_what_is_wrong() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!("1/1".parse::<Shard>(), Ok(Shard { index: 1, count: 1 }));
        assert_eq!(
            " 3 / 3 ".trim().parse::<Shard>(),
            Ok(Shard { index: 3, count: 3 })
        );
        let err = |s: &str| s.parse::<Shard>().unwrap_err();
        assert!(err("0/3").contains("numbered from 1"), "{}", err("0/3"));
        assert!(err("4/3").contains("past the last"), "{}", err("4/3"));
        assert!(err("1/0").contains("at least one"), "{}", err("1/0"));
        for bad in ["3", "a/b", "1/", "/2", "-1/2", "1/2/3", ""] {
            assert!(err(bad).contains("I/N"), "{bad}: {}", err(bad));
        }
    }

    #[test]
    fn every_submission_is_in_exactly_one_shard_the_same_on_every_call() {
        let class = names(200);
        for count in [1, 2, 3, 7] {
            let mut sizes = vec![0usize; count];
            for name in &class {
                let holders: Vec<usize> = (1..=count)
                    .filter(|&index| Shard { index, count }.holds(name))
                    .collect();
                assert_eq!(holders, vec![shard_of(name, count)], "{name} of {count}");
                assert_eq!(shard_of(name, count), shard_of(&name.clone(), count));
                sizes[holders[0] - 1] += 1;
            }
            // A hash spreads 200 names roughly evenly.
            for s in &sizes {
                assert!(*s * count * 2 >= 200, "{count} shards: {sizes:?}");
            }
        }
        // Fixed values (as `sha256sum` gives them): the share must not change between
        // versions or machines, or shards of one class graded by two versions would not merge.
        assert_eq!(
            (1..=6)
                .map(|i| shard_of(&format!("s{i}"), 3))
                .collect::<Vec<_>>(),
            [1, 2, 3, 1, 3, 2]
        );
    }

    #[test]
    fn adding_a_student_moves_no_one_else() {
        let class = names(50);
        let before: Vec<usize> = class.iter().map(|n| shard_of(n, 4)).collect();
        let mut bigger = class.clone();
        bigger.push("newcomer".into());
        let after: Vec<usize> = bigger.iter().take(50).map(|n| shard_of(n, 4)).collect();
        assert_eq!(before, after);
    }

    fn manifests(class: &[String], count: usize) -> Vec<(PathBuf, Manifest)> {
        let fp = fingerprint(class.iter().map(String::as_str));
        (1..=count)
            .map(|index| {
                let graded = class
                    .iter()
                    .filter(|n| shard_of(n, count) == index)
                    .map(|n| Graded {
                        submission: n.clone(),
                        report: n.clone(),
                        seal: String::new(),
                    })
                    .collect();
                (
                    PathBuf::from(format!("out/shard-{index}")),
                    Manifest {
                        shard: index,
                        of: count,
                        problem: "nim".into(),
                        class: fp.clone(),
                        submissions: class.len(),
                        csv_cases: false,
                        all_formats: false,
                        graded,
                    },
                )
            })
            .collect()
    }

    #[test]
    fn complete_shards_merge_into_the_whole_class() {
        let class = names(20);
        let all = check_shards(&manifests(&class, 3)).unwrap();
        let merged: Vec<String> = all.into_iter().map(|g| g.submission).collect();
        assert_eq!(merged, class);
    }

    #[test]
    fn a_missing_shard_is_named() {
        let class = names(20);
        let mut shards = manifests(&class, 3);
        shards.remove(1);
        let e = check_shards(&shards).unwrap_err().0;
        assert!(e.contains("shard 2/3 is missing"), "{e}");
        let mut shards = manifests(&class, 4);
        shards.retain(|(_, m)| m.shard == 2);
        let e = check_shards(&shards).unwrap_err().0;
        assert!(e.contains("shards 1/4, 3/4, 4/4 are missing"), "{e}");
    }

    #[test]
    fn a_shard_given_twice_is_refused() {
        let class = names(20);
        let mut shards = manifests(&class, 3);
        let again = shards[0].clone();
        shards.push((PathBuf::from("elsewhere"), again.1));
        let e = check_shards(&shards).unwrap_err().0;
        assert!(e.contains("shard 1/3 is given twice"), "{e}");
    }

    #[test]
    fn shards_of_other_problems_counts_or_classes_are_refused() {
        let class = names(20);
        let mut shards = manifests(&class, 3);
        shards[2].1.problem = "maze".into();
        let e = check_shards(&shards).unwrap_err().0;
        assert!(e.contains("problems nim and maze"), "{e}");

        let mut shards = manifests(&class, 3);
        shards[1].1.of = 4;
        let e = check_shards(&shards).unwrap_err().0;
        assert!(e.contains("shard counts 3 and 4"), "{e}");

        let mut shards = manifests(&class, 3);
        let other = manifests(&names(21), 3);
        shards[1] = other[1].clone();
        let e = check_shards(&shards).unwrap_err().0;
        assert!(e.contains("not shards of one class"), "{e}");
    }

    #[test]
    fn a_shard_that_lost_a_report_or_took_anothers_is_refused() {
        let class = names(20);
        let mut shards = manifests(&class, 3);
        let i = shards
            .iter()
            .position(|(_, m)| !m.graded.is_empty())
            .unwrap();
        shards[i].1.graded.pop();
        let e = check_shards(&shards).unwrap_err().0;
        assert!(e.contains("incomplete"), "{e}");

        let mut shards = manifests(&class, 3);
        let stolen = shards[0].1.graded[0].clone();
        shards[1].1.graded.push(stolen);
        let e = check_shards(&shards).unwrap_err().0;
        assert!(
            e.contains("graded by two shards") || e.contains("shard 1's"),
            "{e}"
        );
    }
}
