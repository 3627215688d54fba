//! A class directory: which of its entries are submissions, whose they are, and what is not a
//! submission at all.
//!
//! Instructors hand `grade` one of four layouts, told apart by what is at the top:
//!
//! - **Gradescope** (a `submission_metadata.yml`): one `submission_<id>` folder per
//!   submission, the YAML naming its submitters (`:sid:`, `:email:`, `:name:`). An export
//!   folder holding the YAML (`assignment_<id>_export/`) is looked into.
//! - **Canvas** (every file named `<login>_<userid>_<attachmentid>_<original name>`, with
//!   `late_` after the login when late): a student's files are put together, under their
//!   original names, into one submission (a header Canvas renamed `nim-1.h` on a second
//!   hand-in is also there as `nim.h`).
//! - **Moodle** (`<Full Name>_<id>_assignsubmission_file_` folders, or files named
//!   `<Full Name>_<id>_assignsubmission_file_<original name>`): one submission per id; other
//!   plugins' folders (`_assignsubmission_onlinetext_`) are skipped, with the reason.
//! - **plain**: one entry per student (a folder, a file, an archive).
//!
//! In every layout, what cannot be a submission (a `README`, notes in `.md` or `.txt`, a PDF,
//! `.DS_Store`, the output directory) is skipped and listed with its reason, never graded as
//! a 0-point student. A submission that is a folder holding one archive alone is that archive
//! (intake unpacks a handed-in archive, not one found inside a folder).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::submission::intake::MAX_FILE_BYTES;

/// How the class directory is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One entry per student.
    Plain,
    /// A Gradescope export (`submission_metadata.yml`).
    Gradescope,
    /// A Canvas "Download Submissions" folder.
    Canvas,
    /// A Moodle "Download all submissions" folder.
    Moodle,
}

impl Layout {
    /// The layout's name, as `grade` prints it.
    pub fn describe(self) -> &'static str {
        match self {
            Layout::Plain => "a plain class directory",
            Layout::Gradescope => "a Gradescope export",
            Layout::Canvas => "a Canvas export",
            Layout::Moodle => "a Moodle export",
        }
    }
}

/// One submission found in the class directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassSubmission {
    /// Its name (the entry's name; for Canvas and Moodle, the student's part of the file
    /// names): what reports call the submission.
    pub name: String,
    /// What to grade: a folder, a file or an archive.
    pub path: PathBuf,
    /// Who handed it in, as the export says (Gradescope's sid, else email, else name;
    /// Canvas's and Moodle's user id; a plain entry's name without its extension).
    pub student_id: String,
    /// The student's name, when the export gives one.
    pub student_name: Option<String>,
    /// Other identities of the same student (a Canvas login, an email): a roster may list
    /// the student under any of them.
    pub aliases: Vec<String>,
    /// Whether the export marks it late (Canvas's `_late_`); None when it does not say.
    pub late: Option<bool>,
    /// When it was handed in, as the export gives it (Gradescope's `created_at`).
    pub submitted_at: Option<String>,
    /// The group's other members (Gradescope lists every submitter of a group submission).
    pub partners: Vec<ClassPartner>,
}

/// Another member of a group submission, as the export names them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassPartner {
    /// Their sid, else email, else name.
    pub id: String,
    /// Their name, when the export gives it.
    pub name: Option<String>,
    /// Their other identities, for a roster.
    pub aliases: Vec<String>,
}

/// An entry that is not graded, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The entry's name, relative to the class directory.
    pub name: String,
    /// Why (`not a submission: a text file`).
    pub reason: String,
}

/// What a class directory holds.
#[derive(Debug, Clone)]
pub struct Class {
    /// Its layout.
    pub layout: Layout,
    /// The submissions, sorted by name.
    pub submissions: Vec<ClassSubmission>,
    /// What was left out, sorted by name.
    pub skipped: Vec<Skipped>,
}

/// Reads the class directory `dir`. `out` (the output directory) is skipped if it is inside;
/// `assemble` is where the files of one Canvas or Moodle student are put together into a
/// folder (it is emptied of stale students first; grading reads it, so keep it stable between
/// runs for the result cache).
pub fn read_class(dir: &Path, out: &Path, assemble: &Path) -> Result<Class, String> {
    let out = out.canonicalize().ok();
    let entries = list(dir, out.as_ref())?;
    // A Gradescope export unzipped into the class directory: the YAML is one level down.
    if !entries.iter().any(|e| e.name == METADATA) {
        let candidates: Vec<&Entry> = entries
            .iter()
            .filter(|e| e.is_dir && !e.hidden && !e.is_out)
            .collect();
        if let [only] = candidates[..] {
            if only.path.join(METADATA).is_file() {
                let mut class = gradescope(&only.path, &list(&only.path, out.as_ref())?)?;
                for s in &mut class.skipped {
                    s.name = format!("{}/{}", only.name, s.name);
                }
                class.skipped.extend(
                    entries
                        .iter()
                        .filter(|e| e.name != only.name)
                        .map(|e| e.skipped_as_stray()),
                );
                return Ok(finish(class));
            }
        }
    }
    let class = if entries.iter().any(|e| e.name == METADATA && !e.is_dir) {
        gradescope(dir, &entries)?
    } else if let Some(class) = moodle(&entries, assemble)? {
        class
    } else if let Some(class) = canvas(&entries, assemble)? {
        class
    } else {
        plain(&entries)
    };
    Ok(finish(class))
}

const METADATA: &str = "submission_metadata.yml";

/// One entry at the top of a directory.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    path: PathBuf,
    is_dir: bool,
    hidden: bool,
    is_out: bool,
}

impl Entry {
    /// Why this entry is not a submission, if it cannot be one whatever the layout.
    fn stray(&self) -> Option<String> {
        if self.is_out {
            return Some("the output directory".into());
        }
        if self.hidden {
            return Some("hidden".into());
        }
        stray_reason(&self.name, self.is_dir).map(|r| format!("not a submission: {r}"))
    }

    /// This entry as skipped: its stray reason, else "not part of the export".
    fn skipped_as_stray(&self) -> Skipped {
        Skipped {
            name: self.name.clone(),
            reason: self
                .stray()
                .unwrap_or_else(|| "not part of the export".into()),
        }
    }
}

fn list(dir: &Path, out: Option<&PathBuf>) -> Result<Vec<Entry>, String> {
    let rd = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read the class directory `{}`: {e}", dir.display()))?;
    let mut entries: Vec<Entry> = rd
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = e.path();
            // A link is judged as what it names; intake refuses it later if it leads out.
            let is_dir = path.is_dir();
            let is_out = out.is_some() && path.canonicalize().ok().as_ref() == out;
            Entry {
                hidden: name.starts_with('.'),
                name,
                path,
                is_dir,
                is_out,
            }
        })
        .collect();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// Why a file or folder named `name` cannot be a student's submission, whatever it holds.
pub fn stray_reason(name: &str, is_dir: bool) -> Option<&'static str> {
    let lower = name.to_lowercase();
    if is_dir {
        return (lower == "__macosx").then_some("a macOS archive leftover");
    }
    if matches!(lower.as_str(), "thumbs.db" | "desktop.ini") {
        return Some("a system file");
    }
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    let stem = lower.split('.').next().unwrap_or("");
    match ext {
        "md" | "markdown" | "txt" | "text" | "rst" | "org" => Some("a text file"),
        "pdf" | "doc" | "docx" | "odt" | "rtf" | "html" | "htm" | "pages" => Some("a document"),
        "csv" | "tsv" | "xls" | "xlsx" | "ods" | "json" | "yml" | "yaml" => Some("a data file"),
        "png" | "jpg" | "jpeg" | "gif" | "svg" | "bmp" | "heic" => Some("an image"),
        "log" => Some("a log file"),
        _ if matches!(
            stem,
            "readme" | "license" | "licence" | "notes" | "changelog"
        ) =>
        {
            Some("a text file")
        }
        _ => None,
    }
}

/// Plain: every entry that is not a stray is one student's submission.
fn plain(entries: &[Entry]) -> Class {
    let mut class = Class {
        layout: Layout::Plain,
        submissions: Vec::new(),
        skipped: Vec::new(),
    };
    for e in entries {
        if let Some(reason) = e.stray() {
            class.skipped.push(Skipped {
                name: e.name.clone(),
                reason,
            });
            continue;
        }
        class.submissions.push(ClassSubmission {
            name: e.name.clone(),
            path: lone_archive(&e.path),
            student_id: id_of_entry(&e.name, e.is_dir),
            student_name: None,
            aliases: Vec::new(),
            late: None,
            submitted_at: None,
            partners: Vec::new(),
        });
    }
    class
}

/// A plain entry's student: its name, without an archive's or a source file's extension.
fn id_of_entry(name: &str, is_dir: bool) -> String {
    if is_dir {
        return name.to_string();
    }
    let lower = name.to_lowercase();
    for ext in [".tar.gz", ".tgz", ".tar", ".zip"] {
        if lower.ends_with(ext) && name.len() > ext.len() {
            return name[..name.len() - ext.len()].to_string();
        }
    }
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => name.to_string(),
    }
}

fn is_archive_name(name: &str) -> bool {
    let lower = name.to_lowercase();
    [".zip", ".tar", ".tar.gz", ".tgz"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

/// A folder holding one archive and nothing else (hidden files aside) is that archive.
fn lone_archive(path: &Path) -> PathBuf {
    if !path.is_dir() {
        return path.to_path_buf();
    }
    let Ok(rd) = std::fs::read_dir(path) else {
        return path.to_path_buf();
    };
    let inside: Vec<_> = rd
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    match &inside[..] {
        [one] if is_archive_name(&one.file_name().to_string_lossy()) && one.path().is_file() => {
            one.path()
        }
        _ => path.to_path_buf(),
    }
}

/// Gradescope: `submission_metadata.yml` maps `submission_<id>` folders to their submitters.
fn gradescope(dir: &Path, entries: &[Entry]) -> Result<Class, String> {
    let yml = dir.join(METADATA);
    let text = std::fs::read_to_string(&yml)
        .map_err(|e| format!("cannot read `{}`: {e}", yml.display()))?;
    let metadata = parse_gradescope(&text).map_err(|e| format!("`{}`: {e}", yml.display()))?;
    let mut class = Class {
        layout: Layout::Gradescope,
        submissions: Vec::new(),
        skipped: Vec::new(),
    };
    let mut seen = BTreeSet::new();
    for e in entries {
        if e.name == METADATA {
            continue;
        }
        let Some(listed) = metadata.get(&e.name).filter(|_| e.is_dir) else {
            let reason = match e.stray() {
                Some(r) => r,
                None if e.is_dir && e.name.starts_with("submission_") => {
                    format!("not listed in {METADATA}")
                }
                None => "not part of the export".into(),
            };
            class.skipped.push(Skipped {
                name: e.name.clone(),
                reason,
            });
            continue;
        };
        seen.insert(e.name.clone());
        let (people, submitted_at) = (&listed.people, &listed.created_at);
        let first = people.first();
        let student_id = first
            .and_then(Submitter::id)
            .unwrap_or_else(|| e.name.clone());
        let mut aliases: Vec<String> = first
            .into_iter()
            .flat_map(|p| [p.sid.clone(), p.email.clone(), p.name.clone()])
            .flatten()
            .filter(|a| *a != student_id)
            .collect();
        aliases.dedup();
        let partners = people
            .iter()
            .skip(1)
            .filter_map(|p| {
                let id = p.id()?;
                let aliases = [p.sid.clone(), p.email.clone(), p.name.clone()]
                    .into_iter()
                    .flatten()
                    .filter(|a| *a != id)
                    .collect();
                Some(ClassPartner {
                    id,
                    name: p.name.clone(),
                    aliases,
                })
            })
            .collect();
        class.submissions.push(ClassSubmission {
            name: e.name.clone(),
            path: lone_archive(&e.path),
            student_id,
            student_name: first.and_then(|p| p.name.clone()),
            aliases,
            late: None,
            submitted_at: submitted_at.clone(),
            partners,
        });
    }
    for folder in metadata.keys().filter(|k| !seen.contains(*k)) {
        class.skipped.push(Skipped {
            name: folder.clone(),
            reason: format!("listed in {METADATA} but no such folder"),
        });
    }
    Ok(class)
}

/// One submitter, as Gradescope lists them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Submitter {
    sid: Option<String>,
    email: Option<String>,
    name: Option<String>,
}

impl Submitter {
    /// The student id: the sid, else the email, else the name.
    fn id(&self) -> Option<String> {
        self.sid
            .clone()
            .or_else(|| self.email.clone())
            .or_else(|| self.name.clone())
    }
}

/// `submission_<id>` folder -> its submitters. Gradescope writes Ruby symbols as keys
/// (`:submitters:`, `:sid:`); plain keys are read too.
fn parse_gradescope(text: &str) -> Result<BTreeMap<String, Listed>, String> {
    use serde_norway::Value;
    let doc: Value = serde_norway::from_str(text).map_err(|e| e.to_string())?;
    let Value::Mapping(top) = doc else {
        return Err("expected a mapping of submission folders to their metadata".into());
    };
    let get = |m: &serde_norway::Mapping, key: &str| -> Option<Value> {
        m.get(format!(":{key}").as_str())
            .or_else(|| m.get(key))
            .cloned()
    };
    let text_of = |v: Option<Value>| -> Option<String> {
        match v? {
            Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    };
    let mut out = BTreeMap::new();
    for (key, value) in top {
        let Some(folder) = key.as_str() else { continue };
        let mut people = Vec::new();
        let mut created_at = None;
        if let Value::Mapping(m) = &value {
            created_at = text_of(get(m, "created_at"));
            if let Some(Value::Sequence(list)) = get(m, "submitters") {
                for p in list {
                    if let Value::Mapping(p) = p {
                        people.push(Submitter {
                            sid: text_of(get(&p, "sid")),
                            email: text_of(get(&p, "email")),
                            name: text_of(get(&p, "name")),
                        });
                    }
                }
            }
        }
        out.insert(folder.to_string(), Listed { people, created_at });
    }
    Ok(out)
}

/// What `submission_metadata.yml` says of one submission folder.
struct Listed {
    people: Vec<Submitter>,
    created_at: Option<String>,
}

/// A file of one student in a flat export.
#[derive(Debug, Clone)]
struct Piece {
    original: String,
    path: PathBuf,
}

/// Canvas: every file `<login>_[late_]<userid>_<attachmentid>_<name>`.
fn canvas(entries: &[Entry], assemble: &Path) -> Result<Option<Class>, String> {
    let re = regex::Regex::new(r"^([A-Za-z0-9-]+?)_((?i:late)_)?(\d+)_(\d+)_(.+)$")
        .expect("valid regex");
    let candidates: Vec<&Entry> = entries.iter().filter(|e| e.stray().is_none()).collect();
    if candidates.is_empty() || !candidates.iter().all(|e| !e.is_dir && re.is_match(&e.name)) {
        return Ok(None);
    }
    // userid -> (login, late, pieces): Canvas marks every file of a late submission.
    let mut students: BTreeMap<String, (String, bool, Vec<Piece>)> = BTreeMap::new();
    for e in &candidates {
        let c = re.captures(&e.name).expect("matched above");
        let slot = students
            .entry(c[3].to_string())
            .or_insert_with(|| (c[1].to_string(), false, Vec::new()));
        slot.1 |= c.get(2).is_some();
        slot.2.push(Piece {
            original: c[5].to_string(),
            path: e.path.clone(),
        });
    }
    let mut class = Class {
        layout: Layout::Canvas,
        submissions: Vec::new(),
        skipped: strays(entries),
    };
    reset_dir(assemble)?;
    for (userid, (login, late, pieces)) in students {
        let name = format!("{login}_{userid}");
        match assemble_pieces(assemble, &name, &pieces)? {
            Ok(path) => class.submissions.push(ClassSubmission {
                name,
                path,
                student_id: userid,
                student_name: None,
                aliases: vec![login],
                late: Some(late),
                submitted_at: None,
                partners: Vec::new(),
            }),
            Err(reason) => class.skipped.push(Skipped { name, reason }),
        }
    }
    Ok(Some(class))
}

/// Moodle: `<Full Name>_<id>_assignsubmission_<plugin>_` folders, or files with the original
/// name after that.
fn moodle(entries: &[Entry], assemble: &Path) -> Result<Option<Class>, String> {
    let re = regex::Regex::new(r"^(.+)_(\d+)_assignsubmission_([a-z]+)_(.*)$").expect("valid");
    let candidates: Vec<&Entry> = entries.iter().filter(|e| e.stray().is_none()).collect();
    if candidates.is_empty() || !candidates.iter().all(|e| re.is_match(&e.name)) {
        return Ok(None);
    }
    let mut class = Class {
        layout: Layout::Moodle,
        submissions: Vec::new(),
        skipped: strays(entries),
    };
    // id -> (full name, folders, loose files)
    let mut students: BTreeMap<String, (String, Vec<PathBuf>, Vec<Piece>)> = BTreeMap::new();
    for e in &candidates {
        let c = re.captures(&e.name).expect("matched above");
        if &c[3] != "file" {
            class.skipped.push(Skipped {
                name: e.name.clone(),
                reason: format!("not a submission: Moodle's {} plugin", &c[3]),
            });
            continue;
        }
        let slot = students
            .entry(c[2].to_string())
            .or_insert_with(|| (c[1].to_string(), Vec::new(), Vec::new()));
        if e.is_dir && c[4].is_empty() {
            slot.1.push(e.path.clone());
        } else if !e.is_dir && !c[4].is_empty() {
            slot.2.push(Piece {
                original: c[4].to_string(),
                path: e.path.clone(),
            });
        } else {
            class.skipped.push(Skipped {
                name: e.name.clone(),
                reason: "not a Moodle file submission".into(),
            });
        }
    }
    reset_dir(assemble)?;
    for (id, (full_name, folders, pieces)) in students {
        let name = format!("{full_name}_{id}");
        let path = match (&folders[..], pieces.is_empty()) {
            ([folder], true) => Ok(lone_archive(folder)),
            ([], false) => assemble_pieces(assemble, &name, &pieces)?,
            _ => Err("several Moodle folders or files for one student: grade them by hand".into()),
        };
        match path {
            Ok(path) => class.submissions.push(ClassSubmission {
                name,
                path,
                student_id: id,
                student_name: Some(full_name),
                aliases: Vec::new(),
                late: None,
                submitted_at: None,
                partners: Vec::new(),
            }),
            Err(reason) => class.skipped.push(Skipped { name, reason }),
        }
    }
    Ok(Some(class))
}

/// The entries every layout skips (strays, hidden entries, the output directory).
fn strays(entries: &[Entry]) -> Vec<Skipped> {
    entries
        .iter()
        .filter_map(|e| {
            e.stray().map(|reason| Skipped {
                name: e.name.clone(),
                reason,
            })
        })
        .collect()
}

fn reset_dir(dir: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))
}

/// Copies one student's files, under their original names, into `assemble/<name>/`: the
/// folder is the submission (one archive alone: the archive). Only regular files of at most
/// [`MAX_FILE_BYTES`] are copied; intake checks the copy like any submission. The inner
/// result is the reason the student is skipped.
fn assemble_pieces(
    assemble: &Path,
    name: &str,
    pieces: &[Piece],
) -> Result<Result<PathBuf, String>, String> {
    let stems = crate::report::names::file_stems(&[name.to_string()]);
    let folder = assemble.join(&stems[name]);
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create `{}`: {e}", folder.display()))?;
    for p in pieces {
        let original = p.original.as_str();
        if original.contains('/') || original == "." || original == ".." {
            return Ok(Err(format!(
                "a file name Canvas or Moodle cannot give: {original}"
            )));
        }
        let meta = match std::fs::symlink_metadata(&p.path) {
            Ok(m) => m,
            Err(e) => return Ok(Err(format!("cannot read `{original}`: {e}"))),
        };
        if !meta.is_file() {
            return Ok(Err(format!("`{original}` is not a regular file")));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Ok(Err(format!(
                "`{original}` is larger than {} MiB",
                MAX_FILE_BYTES >> 20
            )));
        }
        let to = folder.join(original);
        if to.exists() {
            return Ok(Err(format!("two files named `{original}`")));
        }
        std::fs::copy(&p.path, &to)
            .map_err(|e| format!("cannot copy `{}`: {e}", p.path.display()))?;
    }
    // Canvas renames a file handed in again `nim-1.h`: sources compile under any name, but a
    // header is included by its own, so it is also there as `nim.h` (unless the student
    // handed in a `nim.h` too).
    let renamed = regex::Regex::new(r"^(.+)-\d+(\.(?:h|hh|hpp|hxx))$").expect("valid regex");
    for p in pieces {
        if let Some(c) = renamed.captures(&p.original) {
            let to = folder.join(format!("{}{}", &c[1], &c[2]));
            if !to.exists() {
                std::fs::copy(folder.join(&p.original), &to)
                    .map_err(|e| format!("cannot copy `{}`: {e}", p.path.display()))?;
            }
        }
    }
    Ok(Ok(lone_archive(&folder)))
}

fn finish(mut class: Class) -> Class {
    class.submissions.sort_by(|a, b| a.name.cmp(&b.name));
    class.skipped.sort_by(|a, b| a.name.cmp(&b.name));
    class
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(dir: &Path) -> (Class, tempfile::TempDir) {
        let scratch = tempfile::tempdir().unwrap();
        let class = read_class(dir, &dir.join("out"), &scratch.path().join("assembled")).unwrap();
        (class, scratch)
    }

    fn names(class: &Class) -> Vec<&str> {
        class.submissions.iter().map(|s| s.name.as_str()).collect()
    }

    fn skipped(class: &Class) -> Vec<String> {
        class
            .skipped
            .iter()
            .map(|s| format!("{} ({})", s.name, s.reason))
            .collect()
    }

    #[test]
    fn a_plain_class_skips_notes_and_the_output_directory() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path();
        write(&p.join("alice/nim.c"), "int x;");
        write(&p.join("bob.c"), "int x;");
        write(&p.join("carol.tar.gz"), "");
        write(&p.join("dave/hw3.zip"), "");
        write(&p.join("STARTER-NOTES.md"), "notes");
        write(&p.join("README.txt"), "readme");
        write(&p.join("README"), "readme");
        write(&p.join("rubric.pdf"), "");
        write(&p.join(".DS_Store"), "");
        write(&p.join("out/old.json"), "{}");
        std::fs::create_dir(p.join("__MACOSX")).unwrap();
        let (class, _s) = read(p);
        assert_eq!(class.layout, Layout::Plain);
        assert_eq!(names(&class), ["alice", "bob.c", "carol.tar.gz", "dave"]);
        let ids: Vec<&str> = class
            .submissions
            .iter()
            .map(|s| s.student_id.as_str())
            .collect();
        assert_eq!(ids, ["alice", "bob", "carol", "dave"]);
        // A folder with one archive alone is that archive.
        assert_eq!(class.submissions[3].path, p.join("dave/hw3.zip"));
        assert_eq!(
            skipped(&class),
            [
                ".DS_Store (hidden)",
                "README (not a submission: a text file)",
                "README.txt (not a submission: a text file)",
                "STARTER-NOTES.md (not a submission: a text file)",
                "__MACOSX (not a submission: a macOS archive leftover)",
                "out (the output directory)",
                "rubric.pdf (not a submission: a document)",
            ]
        );
    }

    const GRADESCOPE_YML: &str = "\
submission_101:
  :submitters:
  - :name: Ada Lovelace
    :sid: '1815'
    :email: ada@example.edu
  :created_at: 2025-01-01 10:00:00.000000000 -08:00
  :score: 10.0
submission_102:
  :submitters:
  - :name: Alan Turing
    :email: alan@example.edu
  - :name: Grace Hopper
    :sid: 1906
submission_103:
  :submitters: []
submission_104:
  :submitters:
  - :name: Nobody Here
";

    #[test]
    fn a_gradescope_export_maps_folders_to_submitters() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path();
        write(&p.join(METADATA), GRADESCOPE_YML);
        write(&p.join("submission_101/nim.c"), "");
        write(&p.join("submission_102/nim.cpp"), "");
        write(&p.join("submission_103/lib.zip"), "");
        write(&p.join("submission_999/nim.c"), "");
        write(&p.join("notes.txt"), "");
        let (class, _s) = read(p);
        assert_eq!(class.layout, Layout::Gradescope);
        assert_eq!(
            names(&class),
            ["submission_101", "submission_102", "submission_103"]
        );
        let s = &class.submissions;
        assert_eq!(s[0].student_id, "1815");
        assert_eq!(s[0].student_name.as_deref(), Some("Ada Lovelace"));
        assert!(s[0].aliases.contains(&"ada@example.edu".to_string()));
        // A group: filed under the first submitter (an email when there is no sid), every
        // other member a partner with their own id and name, never an alias of the first.
        assert_eq!(s[1].student_id, "alan@example.edu");
        assert_eq!(s[1].student_name.as_deref(), Some("Alan Turing"));
        assert!(!s[1].aliases.contains(&"1906".to_string()));
        assert_eq!(
            s[1].partners,
            [ClassPartner {
                id: "1906".into(),
                name: Some("Grace Hopper".into()),
                aliases: vec!["Grace Hopper".into()],
            }]
        );
        assert!(s[0].partners.is_empty());
        // No submitter: the folder's name.
        assert_eq!(s[2].student_id, "submission_103");
        assert_eq!(s[2].path, p.join("submission_103/lib.zip"));
        assert_eq!(
            skipped(&class),
            [
                "notes.txt (not a submission: a text file)",
                "submission_104 (listed in submission_metadata.yml but no such folder)",
                "submission_999 (not listed in submission_metadata.yml)",
            ]
        );
    }

    #[test]
    fn a_gradescope_export_folder_is_looked_into() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path();
        write(
            &p.join("assignment_7_export").join(METADATA),
            GRADESCOPE_YML,
        );
        write(&p.join("assignment_7_export/submission_101/nim.c"), "");
        write(&p.join("README.md"), "");
        let (class, _s) = read(p);
        assert_eq!(class.layout, Layout::Gradescope);
        assert_eq!(names(&class), ["submission_101"]);
        assert!(skipped(&class).contains(&"README.md (not a submission: a text file)".into()));
    }

    #[test]
    fn a_bad_gradescope_metadata_file_is_an_error_naming_it() {
        let d = tempfile::tempdir().unwrap();
        write(&d.path().join(METADATA), "- just\n- a list\n");
        let scratch = tempfile::tempdir().unwrap();
        let e = read_class(d.path(), &d.path().join("out"), scratch.path()).unwrap_err();
        assert!(e.contains(METADATA), "{e}");
    }

    #[test]
    fn a_canvas_export_puts_each_student_s_files_together() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path();
        write(&p.join("lovelaceada_1815_5001_nim.c"), "int a;");
        write(&p.join("lovelaceada_1815_5002_nim.h"), "int b;");
        write(&p.join("turingalan_late_1912_5003_nim.cpp"), "int c;");
        write(&p.join("turingalan_late_1912_5005_game-1.h"), "int g;");
        write(&p.join("hoppergrace_1906_5004_hw.zip"), "PK");
        write(&p.join("STARTER-NOTES.md"), "");
        let (class, scratch) = read(p);
        assert_eq!(class.layout, Layout::Canvas);
        assert_eq!(
            names(&class),
            ["hoppergrace_1906", "lovelaceada_1815", "turingalan_1912"]
        );
        let ada = &class.submissions[1];
        assert_eq!(ada.student_id, "1815");
        assert_eq!(ada.aliases, ["lovelaceada"]);
        assert!(ada.path.starts_with(scratch.path()));
        assert_eq!(
            std::fs::read_to_string(ada.path.join("nim.c")).unwrap(),
            "int a;"
        );
        assert!(ada.path.join("nim.h").is_file());
        // A header Canvas renamed on a second hand-in is also there under its own name.
        assert_eq!(
            std::fs::read_to_string(class.submissions[2].path.join("game.h")).unwrap(),
            "int g;"
        );
        assert!(class.submissions[2].path.join("game-1.h").is_file());
        // One archive alone is handed in as the archive, under its original name.
        assert!(class.submissions[0].path.ends_with("hw.zip"));
        assert_eq!(class.submissions[2].student_id, "1912");
        assert_eq!(
            skipped(&class),
            ["STARTER-NOTES.md (not a submission: a text file)"]
        );
    }

    #[test]
    fn a_moodle_export_is_one_submission_per_participant() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path();
        write(
            &p.join("Ada Lovelace_1815_assignsubmission_file_/nim.c"),
            "",
        );
        write(
            &p.join("Ada Lovelace_1815_assignsubmission_onlinetext_/onlinetext.html"),
            "",
        );
        write(
            &p.join("Alan Turing_1912_assignsubmission_file_/hw3.tar.gz"),
            "",
        );
        let (class, _s) = read(p);
        assert_eq!(class.layout, Layout::Moodle);
        assert_eq!(names(&class), ["Ada Lovelace_1815", "Alan Turing_1912"]);
        assert_eq!(class.submissions[0].student_id, "1815");
        assert_eq!(
            class.submissions[0].student_name.as_deref(),
            Some("Ada Lovelace")
        );
        assert!(class.submissions[1].path.ends_with("hw3.tar.gz"));
        assert_eq!(
            skipped(&class),
            [
                "Ada Lovelace_1815_assignsubmission_onlinetext_ (not a submission: Moodle's \
              onlinetext plugin)"
            ]
        );
    }

    #[test]
    fn moodle_files_without_folders_are_put_together() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path();
        write(
            &p.join("Ada Lovelace_1815_assignsubmission_file_nim.c"),
            "a",
        );
        write(
            &p.join("Ada Lovelace_1815_assignsubmission_file_nim.h"),
            "b",
        );
        let (class, _s) = read(p);
        assert_eq!(class.layout, Layout::Moodle);
        assert_eq!(names(&class), ["Ada Lovelace_1815"]);
        assert!(class.submissions[0].path.join("nim.h").is_file());
    }

    #[test]
    fn a_class_of_names_like_canvas_files_but_with_folders_is_plain() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path();
        write(&p.join("ada_1_2_x/nim.c"), "");
        write(&p.join("bob/nim.c"), "");
        let (class, _s) = read(p);
        assert_eq!(class.layout, Layout::Plain);
        assert_eq!(names(&class), ["ada_1_2_x", "bob"]);
    }
}
