//! The result cache: a submission graded once is not graded again until something that
//! decides its grade changes.
//!
//! A result is keyed by everything its report depends on:
//! - what the student handed in, as intake staged it (every file's path and bytes), and
//!   where it was handed in (compiler messages name that path);
//! - the problem: its spec, headers and course libraries, its fixtures, the course file;
//! - labgrade itself: its version and the bytes of `labgrade` and `labgrade-worker`, so a
//!   rebuilt grader never reuses an older one's verdicts;
//! - the grading options that change verdicts (which cases run, trusted self-counting).
//!
//! Every record is sealed (HMAC-SHA-256) with the user's cache key, which lives outside the
//! cache (`submission::cache_secret`): a record someone else wrote or edited fails its check,
//! is graded again, and the run says so once. Without a key, nothing is reused.
//!
//! Records are written atomically as each submission is graded, so a run stopped midway
//! (Ctrl-C, a killed job) resumes where it stopped: what was graded is reused, the rest is
//! graded. Results with a case labgrade failed to run (`internal-error`) are never kept.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::report::{SubmissionReport, Verdict};
use crate::submission::build::tree_files;
use crate::submission::intake::Staged;

/// Where results are kept, and the part of every key that is the same for a whole session.
#[derive(Debug, Clone)]
pub struct ResultCache {
    dir: PathBuf,
    session: String,
    /// The key records are sealed with (None: no key, no reuse).
    secret: Option<Vec<u8>>,
    /// Grade everything again (results are still written, for the next run).
    pub force: bool,
}

/// What a session's results depend on besides the submission (see the module doc).
#[derive(Debug, Clone)]
pub struct SessionInputs<'a> {
    /// The problem's name.
    pub problem: &'a str,
    /// The spec file.
    pub spec_file: &'a Path,
    /// Directories whose files the spec depends on (headers, course libraries, fixtures).
    pub trees: Vec<&'a Path>,
    /// The course file's text, if any.
    pub course: Option<&'a str>,
    /// The `labgrade-worker` binary.
    pub worker: &'a Path,
    /// Grading options that change verdicts, written out.
    pub options: String,
}

/// Lowercase hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Adds `data` to a cache key's hash under `label` (length-prefixed: no two inputs alias).
pub(crate) fn add_bytes(h: &mut Sha256, label: &str, data: &[u8]) {
    h.update(label.as_bytes());
    h.update([0]);
    h.update((data.len() as u64).to_le_bytes());
    h.update(data);
}

/// Adds labgrade itself to a cache key's hash: its version and the bytes of its own
/// executable and of `worker`, so that a rebuilt grader never reuses an older one's work.
pub(crate) fn add_grader(h: &mut Sha256, worker: &Path) {
    add_bytes(h, "version", env!("CARGO_PKG_VERSION").as_bytes());
    add_bytes(h, "labgrade", crate::submission::build::grader_identity());
    add_bytes(h, "worker", &std::fs::read(worker).unwrap_or_default());
}

impl ResultCache {
    /// A cache under `dir` for a session depending on `inputs`.
    pub fn new(dir: impl Into<PathBuf>, inputs: &SessionInputs, force: bool) -> ResultCache {
        let mut h = Sha256::new();
        add_grader(&mut h, inputs.worker);
        add_bytes(&mut h, "problem", inputs.problem.as_bytes());
        add_bytes(
            &mut h,
            "spec",
            &std::fs::read(inputs.spec_file).unwrap_or_default(),
        );
        for (i, tree) in inputs.trees.iter().enumerate() {
            for rel in tree_files(tree) {
                let data = std::fs::read(tree.join(&rel)).unwrap_or_default();
                add_bytes(&mut h, &format!("tree{i}:{}", rel.display()), &data);
            }
        }
        add_bytes(
            &mut h,
            "course",
            inputs.course.unwrap_or("\0none").as_bytes(),
        );
        add_bytes(&mut h, "options", inputs.options.as_bytes());
        let dir = dir.into();
        ResultCache {
            secret: crate::submission::cache_secret::secret(&dir).ok(),
            dir,
            session: hex(&h.finalize()),
            force,
        }
    }

    /// The key of a staged submission handed in at `original`, or `None` when a staged file
    /// cannot be read (then it is simply graded).
    pub fn key(&self, original: &Path, staged: &Staged) -> Option<String> {
        let mut h = Sha256::new();
        add_bytes(&mut h, "session", self.session.as_bytes());
        add_bytes(&mut h, "original", original.as_os_str().as_encoded_bytes());
        add_bytes(&mut h, "is_dir", &[u8::from(staged.root.is_dir())]);
        add_bytes(&mut h, "content", staged.content_sha256()?.as_bytes());
        Some(hex(&h.finalize()[..20]))
    }

    fn path_of(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    /// The result stored under `key`, named `name` (identical submissions handed in under
    /// two names share a result only when their paths are equal too, so this only renames
    /// a moved entry's report). `None` with `force`.
    pub fn load(&self, key: &str, name: &str) -> Option<SubmissionReport> {
        if self.force {
            return None;
        }
        let secret = self.secret.as_deref()?;
        let text = std::fs::read_to_string(self.path_of(key)).ok()?;
        let record: Record = serde_json::from_str(&text).ok()?;
        if record.key != key {
            return None;
        }
        if !crate::submission::cache_secret::verify(
            secret,
            &sealed(key, &record.report),
            &record.mac,
        ) {
            forged_once(&self.dir);
            return None;
        }
        let mut report: SubmissionReport = serde_json::from_str(&record.report).ok()?;
        report.submission = name.to_string();
        Some(report)
    }

    /// Keeps `report` under `key`, unless a case in it is unresolved (labgrade failed to run
    /// it: the next run should try again). Failing to write is not an error: the submission
    /// is only graded again next time.
    pub fn store(&self, key: &str, report: &SubmissionReport) {
        if !worth_keeping(report) {
            return;
        }
        let path = self.path_of(key);
        let Some(parent) = path.parent() else { return };
        if std::fs::create_dir_all(parent).is_err() {
            return;
        }
        let Some(secret) = self.secret.as_deref() else {
            return;
        };
        let Ok(report) = serde_json::to_string(report) else {
            return;
        };
        let record = Record {
            key: key.to_string(),
            mac: crate::submission::cache_secret::mac(secret, &sealed(key, &report)),
            report,
        };
        let Ok(text) = serde_json::to_string(&record) else {
            return;
        };
        if let Ok(mut tmp) = tempfile::NamedTempFile::new_in(parent) {
            if std::io::Write::write_all(&mut tmp, text.as_bytes()).is_ok() {
                let _ = tmp.persist(&path);
            }
        }
    }
}

/// A stored result: the report as the JSON text that was sealed, and its seal.
#[derive(serde::Serialize, serde::Deserialize)]
struct Record {
    key: String,
    report: String,
    mac: String,
}

/// What a record's seal covers: its key and its report's exact text.
fn sealed(key: &str, report: &str) -> Vec<u8> {
    format!("{key}\n{report}").into_bytes()
}

/// Says once per run that a cached result failed its check (and is graded again).
fn forged_once(dir: &Path) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        eprintln!(
            "labgrade: a result in `{}` failed its authentication (written or changed by \
             someone without your cache key): graded again, not reused",
            dir.display()
        );
    }
}

/// A report whose every case was decided (no `internal-error`).
fn worth_keeping(report: &SubmissionReport) -> bool {
    !report
        .cases
        .iter()
        .any(|c| c.verdict == Verdict::InternalError)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::intake::{stage, IntakePolicy};

    fn staged(dir: &Path, scratch: &Path) -> Staged {
        stage(dir, scratch, &IntakePolicy::default()).unwrap()
    }

    fn report(name: &str, verdict: Verdict) -> SubmissionReport {
        let mut r = crate::report::test_helpers::sample_report();
        r.submission = name.into();
        r.cases = vec![crate::report::test_helpers::case("c", verdict, true)];
        r
    }

    #[test]
    fn a_result_is_reused_until_the_submission_or_the_session_changes() {
        let d = tempfile::tempdir().unwrap();
        let sub = d.path().join("alice");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("nim.c"), "int x;").unwrap();
        std::fs::write(d.path().join("spec.toml"), "a").unwrap();
        let scratch = d.path().join("scratch");
        let inputs = SessionInputs {
            problem: "nim",
            spec_file: &d.path().join("spec.toml"),
            trees: Vec::new(),
            course: None,
            worker: &d.path().join("no-worker"),
            options: "all".into(),
        };
        let cache = ResultCache::new(d.path().join("results"), &inputs, false);
        let key = cache.key(&sub, &staged(&sub, &scratch)).unwrap();
        assert!(cache.load(&key, "alice").is_none());
        cache.store(&key, &report("alice", Verdict::Pass));
        let back = cache.load(&key, "alice").unwrap();
        assert_eq!(back.submission, "alice");
        // Same content, same key; a changed file, another key.
        assert_eq!(cache.key(&sub, &staged(&sub, &scratch)).unwrap(), key);
        std::fs::write(sub.join("nim.c"), "int y;").unwrap();
        assert_ne!(cache.key(&sub, &staged(&sub, &scratch)).unwrap(), key);
        std::fs::write(sub.join("nim.c"), "int x;").unwrap();
        // A changed spec or course file: another session, nothing reused.
        std::fs::write(d.path().join("spec.toml"), "b").unwrap();
        let changed = ResultCache::new(d.path().join("results"), &inputs, false);
        assert_ne!(changed.key(&sub, &staged(&sub, &scratch)).unwrap(), key);
        std::fs::write(d.path().join("spec.toml"), "a").unwrap();
        let course = SessionInputs {
            course: Some("[nim]"),
            ..inputs.clone()
        };
        let with_course = ResultCache::new(d.path().join("results"), &course, false);
        assert_ne!(with_course.key(&sub, &staged(&sub, &scratch)).unwrap(), key);
        // --force reuses nothing.
        let forced = ResultCache::new(d.path().join("results"), &inputs, true);
        assert!(forced.load(&key, "alice").is_none());
    }

    /// A result cache under `dir` for nim, with nothing else in its key.
    fn plain_cache(dir: &Path) -> ResultCache {
        let inputs = SessionInputs {
            problem: "nim",
            spec_file: dir,
            trees: Vec::new(),
            course: None,
            worker: dir,
            options: String::new(),
        };
        ResultCache::new(dir.join("results"), &inputs, false)
    }

    #[test]
    fn an_unresolved_result_is_not_kept() {
        let d = tempfile::tempdir().unwrap();
        let cache = plain_cache(d.path());
        let key = "ab".repeat(20);
        cache.store(&key, &report("bob", Verdict::InternalError));
        assert!(cache.load(&key, "bob").is_none());
    }

    /// Whoever can write the cache but has no key cannot make a result count: an edited
    /// record (a stub's score raised) and one written without the key are graded again.
    #[test]
    fn an_edited_or_unsealed_result_is_not_reused() {
        let d = tempfile::tempdir().unwrap();
        let cache = plain_cache(d.path());
        let key = "cd".repeat(20);
        let mut failing = report("eve", Verdict::Fail);
        failing.cases[0].passed = false;
        cache.store(&key, &failing);
        assert!(cache.load(&key, "eve").is_some(), "sealed: reused");
        let path = cache.path_of(&key);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
        let edited = record["report"]
            .as_str()
            .unwrap()
            .replace("\"fail\"", "\"pass\"");
        record["report"] = serde_json::Value::String(edited);
        std::fs::write(&path, record.to_string()).unwrap();
        assert!(cache.load(&key, "eve").is_none(), "edited: graded again");
        record["mac"] = serde_json::Value::String("00".repeat(32));
        std::fs::write(&path, record.to_string()).unwrap();
        assert!(
            cache.load(&key, "eve").is_none(),
            "forged seal: graded again"
        );
    }
}
