//! Intake: a private, checked copy of what was handed in, made before anything looks at it.
//!
//! Everything after intake (detection, the cache key, the build, the runs of a prebuilt
//! library) reads only the staged copy, in a directory of the grader's (mode 0700), so a
//! submission cannot change under the grader, nor make it read what is not the student's:
//!
//! - only regular files are copied; FIFOs, sockets and devices are refused without being
//!   opened for reading (`symlink_metadata`, then `O_NOFOLLOW | O_NONBLOCK` and `fstat` on
//!   the descriptor before one byte is read), so a FIFO header cannot hang the grader and a
//!   `/dev/zero` cannot feed it forever;
//! - a symbolic link is followed only when it resolves inside the submission (or inside one
//!   of [`IntakePolicy::link_roots`], labgrade's own bundled samples): a link to a
//!   classmate's directory, to `/etc/shadow` or to the fixtures is refused; a link loop is
//!   refused (the kernel's `ELOOP`, and a directory reached twice on one path);
//! - sizes are capped ([`MAX_FILE_BYTES`], [`MAX_TOTAL_BYTES`], [`MAX_FILES`],
//!   [`MAX_DEPTH`]), checked on the descriptor's size before reading and again while reading,
//!   so a 2 GiB sparse header is refused, not read;
//! - a Rust crate's `Cargo.toml` is checked: no path dependency outside the crate, no git
//!   dependency, no registry dependency the spec does not allow, no `[patch]`/`[replace]`;
//! - an archive (`.zip`, `.tar`, `.tar.gz`, told by its first bytes) is unpacked by
//!   `labgrade-worker --unpack` in the build jail ([`super::unpack`]), and what it held is
//!   staged as a folder would be, with every check above; a lone top-level folder in it (the
//!   usual `hw3/` wrapper) is the submission. Archives inside it are not unpacked.
//!
//! A refusal is one sentence naming the file and why: it becomes the submission's verdict.

use std::collections::HashSet;
use std::io::Read;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use super::jail::JailLimits;
use super::unpack::{self, Format, Sniffed};

/// Most bytes one staged file may hold (a prebuilt library included).
pub const MAX_FILE_BYTES: u64 = 32 << 20;
/// Most bytes a whole submission may hold.
pub const MAX_TOTAL_BYTES: u64 = 64 << 20;
/// Most files a submission may hold.
pub const MAX_FILES: usize = 2_000;
/// Deepest directory nesting staged (a link to a directory counts as one level).
pub const MAX_DEPTH: usize = 16;

/// What intake trusts beyond the submission itself.
#[derive(Debug, Clone, Default)]
pub struct IntakePolicy {
    /// Directories a symbolic link may also resolve into (labgrade's own `tests/`, whose
    /// samples share files through links). Never the submission's class directory: a link
    /// into a classmate's submission is refused even under one of these.
    pub link_roots: Vec<PathBuf>,
    /// Registry crates a Rust submission may depend on (the spec's list).
    pub allowed_crates: Vec<String>,
    /// The `labgrade-worker` binary, which unpacks archives in the build jail. Without it an
    /// archive cannot be accepted (the grader never parses one itself).
    pub unpacker: Option<PathBuf>,
}

/// Why a submission was not staged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// One sentence naming the file and why (or what failed).
    pub message: String,
    /// The grading machine failed (no disk, no jail, no worker), not the submission.
    pub machine: bool,
}

impl Refusal {
    fn machine(message: String) -> Refusal {
        Refusal {
            message,
            machine: true,
        }
    }
}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal {
            message,
            machine: false,
        }
    }
}

impl From<Refusal> for String {
    fn from(r: Refusal) -> String {
        r.message
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A staged copy. The directory is removed when this is dropped.
#[derive(Debug)]
pub struct Staged {
    dir: tempfile::TempDir,
    /// The staged counterpart of the handed-in path (a directory or a single file).
    pub root: PathBuf,
    /// The handed-in path, for messages.
    pub original: PathBuf,
    /// Every staged file, relative to `root` (for a single file: its name), sorted.
    pub files: Vec<PathBuf>,
    /// What intake did that the report should say (an archive unpacked, entries skipped).
    pub notes: Vec<String>,
    /// [`Staged::content_sha256`], worked out once (the result cache and the report's
    /// provenance both ask).
    sha256: std::sync::OnceLock<Option<String>>,
}

impl Staged {
    /// The private directory holding the copy.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// SHA-256 of what was handed in, as staged: every file's path and bytes (a report's
    /// provenance, the result cache's key). None when a staged file cannot be read.
    pub fn content_sha256(&self) -> Option<String> {
        self.sha256.get_or_init(|| self.hash_files()).clone()
    }

    fn hash_files(&self) -> Option<String> {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        let is_dir = self.root.is_dir();
        for rel in &self.files {
            let path = if is_dir {
                self.root.join(rel)
            } else {
                self.root.clone()
            };
            let data = std::fs::read(path).ok()?;
            let name = rel.as_os_str().as_encoded_bytes();
            h.update((name.len() as u64).to_le_bytes());
            h.update(name);
            h.update((data.len() as u64).to_le_bytes());
            h.update(&data);
        }
        Some(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
    }

    /// `text` with staged paths written as the handed-in ones.
    pub fn unstage(&self, text: &str) -> String {
        text.replace(
            &self.root.display().to_string(),
            &self.original.display().to_string(),
        )
    }
}

struct Walk<'a> {
    /// The submission's own directory, canonical (None for a single file).
    sub_root: Option<PathBuf>,
    /// The class directory (the submission's parent), canonical.
    class_dir: Option<PathBuf>,
    policy: &'a IntakePolicy,
    original: PathBuf,
    files: Vec<PathBuf>,
    total: u64,
}

fn display_rel(original: &Path, rel: &Path) -> String {
    if rel.as_os_str().is_empty() {
        original.display().to_string()
    } else {
        original.join(rel).display().to_string()
    }
}

impl Walk<'_> {
    fn name(&self, rel: &Path) -> String {
        display_rel(&self.original, rel)
    }

    /// Where a link may point: inside the submission, or inside a trusted root but not in
    /// another submission of the class.
    fn link_allowed(&self, target: &Path) -> bool {
        if let Some(root) = &self.sub_root {
            if target.starts_with(root) {
                return true;
            }
        }
        if let Some(class) = &self.class_dir {
            if target.starts_with(class) {
                return false;
            }
        }
        self.policy.link_roots.iter().any(|r| target.starts_with(r))
    }

    fn copy_dir(
        &mut self,
        from: &Path,
        to: &Path,
        rel: &Path,
        depth: usize,
        seen: &mut HashSet<(u64, u64)>,
    ) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "`{}` is nested more than {MAX_DEPTH} directories deep: hand in a flatter tree",
                self.name(rel)
            ));
        }
        let meta = std::fs::metadata(from)
            .map_err(|e| format!("cannot read `{}`: {e}", self.name(rel)))?;
        if !seen.insert((meta.dev(), meta.ino())) {
            return Err(format!(
                "`{}` is a symbolic link loop (a directory that contains itself): remove the link",
                self.name(rel)
            ));
        }
        std::fs::create_dir(to).map_err(|e| format!("cannot stage `{}`: {e}", self.name(rel)))?;
        let mut entries: Vec<_> = std::fs::read_dir(from)
            .map_err(|e| format!("cannot read `{}`: {e}", self.name(rel)))?
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cannot read `{}`: {e}", self.name(rel)))?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name();
            let lossy = name.to_string_lossy();
            if lossy.starts_with('.') {
                continue;
            }
            let child_rel = rel.join(&name);
            let child = from.join(&name);
            let meta = std::fs::symlink_metadata(&child)
                .map_err(|e| format!("cannot read `{}`: {e}", self.name(&child_rel)))?;
            if meta.is_dir() && lossy == "target" {
                continue; // a Rust build directory: never needed, often huge
            }
            self.copy_entry(&child, &to.join(&name), &child_rel, meta, depth, seen)?;
        }
        seen.remove(&(meta.dev(), meta.ino()));
        Ok(())
    }

    fn copy_entry(
        &mut self,
        from: &Path,
        to: &Path,
        rel: &Path,
        meta: std::fs::Metadata,
        depth: usize,
        seen: &mut HashSet<(u64, u64)>,
    ) -> Result<(), String> {
        let ft = meta.file_type();
        if ft.is_symlink() {
            let target = match std::fs::canonicalize(from) {
                Ok(t) => t,
                Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                    return Err(format!(
                        "`{}` is a symbolic link loop: remove the link and hand in the file itself",
                        self.name(rel)
                    ))
                }
                Err(e) => {
                    return Err(format!(
                        "`{}` is a symbolic link that cannot be followed ({e}): hand in the file \
                         itself",
                        self.name(rel)
                    ))
                }
            };
            if !self.link_allowed(&target) {
                return Err(format!(
                    "`{}` is a symbolic link to `{}`, outside your submission: hand in the file \
                     itself, not a link",
                    self.name(rel),
                    target.display()
                ));
            }
            let tmeta = std::fs::symlink_metadata(&target)
                .map_err(|e| format!("cannot read `{}`: {e}", self.name(rel)))?;
            return self.copy_entry(&target, to, rel, tmeta, depth, seen);
        }
        if ft.is_dir() {
            return self.copy_dir(from, to, rel, depth + 1, seen);
        }
        if !ft.is_file() {
            return Err(format!(
                "`{}` is {}, not a regular file: hand in regular files only",
                self.name(rel),
                kind_of(&ft)
            ));
        }
        self.copy_file(from, to, rel)
    }

    fn copy_file(&mut self, from: &Path, to: &Path, rel: &Path) -> Result<(), String> {
        if self.files.len() >= MAX_FILES {
            return Err(format!(
                "your submission holds more than {MAX_FILES} files (at `{}`): hand in only \
                 your sources",
                self.name(rel)
            ));
        }
        // No following a link swapped in since the check, and no blocking on a FIFO.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(from)
            .map_err(|e| format!("cannot read `{}`: {e}", self.name(rel)))?;
        let meta = file
            .metadata()
            .map_err(|e| format!("cannot read `{}`: {e}", self.name(rel)))?;
        if !meta.file_type().is_file() {
            return Err(format!(
                "`{}` is {}, not a regular file: hand in regular files only",
                self.name(rel),
                kind_of(&meta.file_type())
            ));
        }
        let too_big = |size: u64| {
            format!(
                "`{}` is {} bytes, over labgrade's limit of {MAX_FILE_BYTES} bytes per file",
                self.name(rel),
                size
            )
        };
        if meta.len() > MAX_FILE_BYTES {
            return Err(too_big(meta.len()));
        }
        let mut data = Vec::with_capacity(meta.len() as usize);
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut data)
            .map_err(|e| format!("cannot read `{}`: {e}", self.name(rel)))?;
        if data.len() as u64 > MAX_FILE_BYTES {
            return Err(too_big(data.len() as u64));
        }
        self.total += data.len() as u64;
        if self.total > MAX_TOTAL_BYTES {
            return Err(format!(
                "your submission holds more than {MAX_TOTAL_BYTES} bytes (at `{}`): hand in \
                 only your sources",
                self.name(rel)
            ));
        }
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(to)
            .map_err(|e| format!("cannot stage `{}`: {e}", self.name(rel)))?;
        std::io::Write::write_all(&mut out, &data)
            .map_err(|e| format!("cannot stage `{}`: {e}", self.name(rel)))?;
        // Keep the execute bit of a prebuilt program; never set-id bits.
        if meta.permissions().mode() & 0o100 != 0 {
            let _ = out.set_permissions(std::fs::Permissions::from_mode(0o700));
        }
        self.files.push(rel.to_path_buf());
        Ok(())
    }
}

fn kind_of(ft: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        "a FIFO (named pipe)"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_char_device() {
        "a character device"
    } else if ft.is_symlink() {
        "a symbolic link"
    } else {
        "a special file"
    }
}

/// Copies the submission at `path` into a new private directory under `under`, or says why
/// it cannot be accepted.
pub fn stage(path: &Path, under: &Path, policy: &IntakePolicy) -> Result<Staged, Refusal> {
    std::fs::create_dir_all(under).map_err(|e| {
        format!(
            "cannot create the staging directory `{}`: {e}",
            under.display()
        )
    })?;
    let dir = tempfile::Builder::new()
        .prefix(".stage-")
        .tempdir_in(under)
        .map_err(|e| format!("cannot create a staging directory: {e}"))?;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
        .map_err(|e| format!("cannot protect the staging directory: {e}"))?;
    let name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "submission".into());
    // The ancestors may be links (the operator's choice); the entry itself is the student's.
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let class_dir = parent.canonicalize().ok();
    let entry = class_dir.as_ref().map(|c| c.join(&name));
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    if meta.file_type().is_symlink() {
        let to = std::fs::read_link(path)
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        return Err(format!(
            "`{}` is a symbolic link (to `{to}`), not a submission: hand in your files \
             themselves",
            path.display()
        )
        .into());
    }
    let root = dir.path().join(&name);
    let mut walk = Walk {
        sub_root: meta.is_dir().then(|| entry.clone()).flatten(),
        class_dir,
        policy,
        original: path.to_path_buf(),
        files: Vec::new(),
        total: 0,
    };
    let mut seen = HashSet::new();
    let is_dir = meta.is_dir();
    if is_dir {
        walk.copy_dir(path, &root, Path::new(""), 0, &mut seen)?;
    } else {
        walk.copy_entry(path, &root, Path::new(""), meta, 0, &mut seen)?;
        walk.files = vec![PathBuf::from(&name)];
    }
    let mut files = walk.files;
    files.sort();
    let mut staged = Staged {
        dir,
        root,
        original: path.to_path_buf(),
        files,
        notes: Vec::new(),
        sha256: Default::default(),
    };
    if !is_dir {
        staged = open_archive(staged, policy)?;
    }
    if staged.root.join("Cargo.toml").is_file() {
        check_manifest(&staged, policy)?;
    }
    Ok(staged)
}

/// CPU, wall clock and memory of one unpacking (the file-size limit is intake's own).
fn unpack_limits() -> JailLimits {
    JailLimits {
        cpu_seconds: 30,
        wall: Duration::from_secs(60),
        address_space: 1 << 30,
        file_size: MAX_FILE_BYTES,
        ..JailLimits::default()
    }
}

/// The archive format of the file at `path` (shown as `shown`, named `name`) by its first
/// bytes; None when it is no archive; a refusal when it is one labgrade does not unpack, or
/// is named like an archive without being one.
fn archive_format(path: &Path, shown: &str, name: &str) -> Result<Option<unpack::Format>, Refusal> {
    let mut head = Vec::with_capacity(unpack::SNIFF_BYTES);
    std::fs::File::open(path)
        .and_then(|f| f.take(unpack::SNIFF_BYTES as u64).read_to_end(&mut head))
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    match unpack::sniff(&head, name) {
        Sniffed::Archive(f) => Ok(Some(f)),
        Sniffed::Unsupported(what) => Err(format!(
            "`{shown}` is {what}, which labgrade does not unpack: hand in a {} of your \
                 folder, or the folder itself",
            unpack::ACCEPTED
        )
        .into()),
        Sniffed::NotArchive if unpack::named_like_archive(name) => Err(format!(
            "`{shown}` is named like an archive, but its first bytes are not those of a \
                 zip, tar or gzip file: make it again (labgrade accepts {}), or hand in the \
                 folder",
            unpack::ACCEPTED
        )
        .into()),
        Sniffed::NotArchive => Ok(None),
    }
}

/// When the staged single file is an archive, unpacks it (in the jail) and stages what it
/// held in its place; any other file is returned as it is.
fn open_archive(staged: Staged, policy: &IntakePolicy) -> Result<Staged, Refusal> {
    let shown = staged.original.display().to_string();
    let name = staged
        .root
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let Some(format) = archive_format(&staged.root, &shown, &name)? else {
        return Ok(staged);
    };
    let worker = policy.unpacker.as_deref().ok_or_else(|| {
        Refusal::machine(format!(
            "`{shown}` is a {} archive, and labgrade has no `labgrade-worker` here to unpack it \
             in: unpack it and hand in the folder",
            format.word()
        ))
    })?;
    let (jail_dir, out, mut notes) = unpack_jailed(&staged.root, &shown, format, worker)?;
    // The lone top-level folder most archives wrap their files in is the submission.
    let entries: Vec<std::fs::DirEntry> = std::fs::read_dir(&out)
        .and_then(|rd| rd.collect())
        .map_err(|e| Refusal::machine(format!("cannot read what `{shown}` held: {e}")))?;
    let (from, wrapper) = match entries.as_slice() {
        [] => {
            return Err(format!(
                "`{shown}` holds no files: hand in an archive of your folder (e.g. `zip -r \
                 hw3.zip hw3`)"
            )
            .into())
        }
        [one] if one.file_type().is_ok_and(|t| t.is_dir()) => (
            one.path(),
            Some(one.file_name().to_string_lossy().into_owned()),
        ),
        _ => (out.clone(), None),
    };
    notes.insert(
        0,
        match &wrapper {
            Some(w) => format!("handed in as `{name}`: graded what its folder `{w}/` holds"),
            None => format!("handed in as `{name}`: graded what it holds"),
        },
    );
    // Staged in the archive copy's place, under the archive's name less its extension.
    let stem = unpack::archive_stem(&name)
        .filter(|s| !s.starts_with('.'))
        .unwrap_or(&name)
        .to_string();
    std::fs::remove_file(&staged.root)
        .map_err(|e| Refusal::machine(format!("cannot stage `{shown}`: {e}")))?;
    let root = staged.dir().join(&stem);
    let no_links = IntakePolicy::default();
    let mut walk = Walk {
        sub_root: from.canonicalize().ok(),
        class_dir: None,
        policy: &no_links,
        original: staged.original.clone(),
        files: Vec::new(),
        total: 0,
    };
    walk.copy_dir(&from, &root, Path::new(""), 0, &mut HashSet::new())?;
    drop(jail_dir);
    let mut files = walk.files;
    files.sort();
    let archives: Vec<String> = files
        .iter()
        .filter(|f| {
            let n = f.file_name().unwrap_or_default().to_string_lossy();
            unpack::named_like_archive(&n)
        })
        .map(|f| f.display().to_string())
        .collect();
    if !archives.is_empty() && archives.len() == files.len() {
        return Err(format!(
            "`{shown}` holds only {} (`{}`): labgrade unpacks one archive, never archives \
             inside it; hand in one archive of your folder",
            if archives.len() == 1 {
                "another archive"
            } else {
                "other archives"
            },
            archives.join("`, `")
        )
        .into());
    }
    if !archives.is_empty() {
        notes.push(format!(
            "`{}` inside `{name}` not unpacked (archives inside an archive never are)",
            archives.join("`, `")
        ));
    }
    Ok(Staged {
        root,
        files,
        notes,
        sha256: Default::default(),
        ..staged
    })
}

/// Runs `labgrade-worker --unpack` on a copy of `archive` in the build jail: `nobody`,
/// reading only the copy (and the worker), writing only an empty directory. Returns the
/// directory (removed on drop), the unpacked tree in it, and the worker's notes.
fn unpack_jailed(
    archive: &Path,
    shown: &str,
    format: Format,
    worker: &Path,
) -> Result<(tempfile::TempDir, PathBuf, Vec<String>), Refusal> {
    let machine = |e: String| Refusal::machine(format!("cannot unpack `{shown}`: {e}"));
    let run = super::jail::worker_on_copy(
        worker,
        archive,
        "labgrade-unpack-",
        unpack_limits(),
        |copy, out| {
            vec![
                "--unpack".into(),
                format.word().into(),
                copy.as_os_str().to_owned(),
                out.as_os_str().to_owned(),
            ]
        },
    )
    .map_err(machine)?;
    let (dir, out, o) = (run.dir, run.out, run.outcome);
    if let Some(m) = &o.machine_error {
        return Err(machine(m.trim_end().to_string()));
    }
    let limits = unpack_limits();
    let report = o
        .output
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<unpack::Report>(l).ok());
    match report {
        Some(unpack::Report::Unpacked { notes }) if o.success => Ok((dir, out, notes)),
        Some(unpack::Report::Refused(why)) => Err(format!("`{shown}`: {why}").into()),
        _ if o.timed_out => Err(format!(
            "`{shown}` took more than {} s to unpack: hand in a smaller archive, or the folder",
            limits.wall.as_secs()
        )
        .into()),
        _ if matches!(o.signal, Some(libc::SIGXCPU) | Some(libc::SIGKILL)) => Err(format!(
            "`{shown}` needs more than {} s of CPU to unpack: hand in a smaller archive, or \
             the folder",
            limits.cpu_seconds
        )
        .into()),
        _ => Err(format!(
            "`{shown}` could not be unpacked (the unpacker stopped: {}): make the archive \
             again, or hand in the folder",
            o.output.trim().lines().last().unwrap_or("no output")
        )
        .into()),
    }
}

/// Refuses a crate whose manifest reaches outside it or needs the network.
fn check_manifest(staged: &Staged, policy: &IntakePolicy) -> Result<(), String> {
    let path = staged.root.join("Cargo.toml");
    let shown = staged.original.join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("`{}` is not readable text: {e}", shown.display()))?;
    let doc: toml::Table = toml::from_str(&text)
        .map_err(|e| format!("`{}` is not valid TOML: {e}", shown.display()))?;
    for key in ["patch", "replace"] {
        if doc.contains_key(key) {
            return Err(format!(
                "`{}` has a [{key}] section: labgrade builds your crate alone, offline; remove it",
                shown.display()
            ));
        }
    }
    if let Some(ws) = doc.get("workspace").and_then(|w| w.as_table()) {
        if ws.contains_key("dependencies") {
            return Err(format!(
                "`{}` declares [workspace.dependencies]: hand in a single crate without \
                 dependencies",
                shown.display()
            ));
        }
    }
    let mut tables: Vec<(String, &toml::Table)> = Vec::new();
    for key in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(t) = doc.get(key).and_then(|t| t.as_table()) {
            tables.push((key.to_string(), t));
        }
    }
    if let Some(targets) = doc.get("target").and_then(|t| t.as_table()) {
        for (cfg, t) in targets {
            for key in ["dependencies", "dev-dependencies", "build-dependencies"] {
                if let Some(t) = t.get(key).and_then(|t| t.as_table()) {
                    tables.push((format!("target.{cfg}.{key}"), t));
                }
            }
        }
    }
    for (section, deps) in tables {
        for (name, spec) in deps {
            let table = spec.as_table();
            let get = |k: &str| table.and_then(|t| t.get(k));
            if get("git").is_some() {
                return Err(format!(
                    "`{}`: [{section}] `{name}` is a git dependency: labgrade builds offline; \
                     remove it",
                    shown.display()
                ));
            }
            if let Some(p) = get("path").and_then(|p| p.as_str()) {
                if !path_stays_inside(Path::new(p)) {
                    return Err(format!(
                        "`{}`: [{section}] `{name}` is a path dependency on `{p}`, outside your \
                         crate: hand in a crate that builds on its own",
                        shown.display()
                    ));
                }
                continue;
            }
            if get("workspace").is_some() {
                return Err(format!(
                    "`{}`: [{section}] `{name}` comes from a workspace: hand in a single crate",
                    shown.display()
                ));
            }
            let krate = get("package").and_then(|p| p.as_str()).unwrap_or(name);
            if get("registry").is_some()
                || get("registry-index").is_some()
                || !policy.allowed_crates.iter().any(|a| a == krate)
            {
                return Err(format!(
                    "`{}`: [{section}] `{name}` is a registry dependency the problem does not \
                     allow (labgrade builds offline{}): remove it",
                    shown.display(),
                    if policy.allowed_crates.is_empty() {
                        ", and this problem allows none".to_string()
                    } else {
                        format!("; allowed: {}", policy.allowed_crates.join(", "))
                    }
                ));
            }
        }
    }
    Ok(())
}

/// True when `p`, relative to the crate, never leaves it (no absolute path, no `..` above it).
fn path_stays_inside(p: &Path) -> bool {
    let mut depth: i64 = 0;
    for c in p.components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn class() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn stage_in(class: &Path, name: &str) -> Result<Staged, String> {
        stage(
            &class.join(name),
            &class.join(".cache"),
            &IntakePolicy::default(),
        )
        .map_err(String::from)
    }

    #[test]
    fn copies_regular_files_privately() {
        let c = class();
        let s = c.path().join("alice");
        std::fs::create_dir_all(s.join("sub")).unwrap();
        std::fs::write(s.join("nim.c"), "int x;").unwrap();
        std::fs::write(s.join("sub/nim.h"), "").unwrap();
        symlink("nim.c", s.join("alias.c")).unwrap();
        let st = stage_in(c.path(), "alice").unwrap();
        assert_eq!(
            st.files,
            vec![
                PathBuf::from("alias.c"),
                PathBuf::from("nim.c"),
                PathBuf::from("sub/nim.h")
            ]
        );
        let mode = std::fs::metadata(st.dir()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        assert_eq!(
            std::fs::read_to_string(st.root.join("alias.c")).unwrap(),
            "int x;"
        );
        assert!(!std::fs::symlink_metadata(st.root.join("alias.c"))
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn a_link_to_a_classmate_is_refused() {
        let c = class();
        std::fs::create_dir_all(c.path().join("bob")).unwrap();
        std::fs::write(c.path().join("bob/nim.c"), "int good;").unwrap();
        std::fs::create_dir_all(c.path().join("mallory")).unwrap();
        symlink(c.path().join("bob"), c.path().join("mallory/mine")).unwrap();
        let err = stage_in(c.path(), "mallory").unwrap_err();
        assert!(
            err.contains("mallory/mine") && err.contains("outside your submission"),
            "{err}"
        );
        // Even when labgrade trusts the whole tree the class lives in.
        let policy = IntakePolicy {
            link_roots: vec![c.path().canonicalize().unwrap()],
            ..IntakePolicy::default()
        };
        let err = stage(&c.path().join("mallory"), &c.path().join(".cache"), &policy)
            .unwrap_err()
            .message;
        assert!(err.contains("outside your submission"), "{err}");
        // And the entry itself being a link.
        symlink(c.path().join("bob"), c.path().join("eve")).unwrap();
        let err = stage_in(c.path(), "eve").unwrap_err();
        assert!(err.contains("is a symbolic link"), "{err}");
    }

    #[test]
    fn devices_fifos_and_huge_files_are_refused_without_reading() {
        let c = class();
        let s = c.path().join("s");
        std::fs::create_dir_all(&s).unwrap();
        std::fs::write(s.join("nim.c"), "").unwrap();
        symlink("/dev/zero", s.join("zero.h")).unwrap();
        let err = stage_in(c.path(), "s").unwrap_err();
        assert!(err.contains("zero.h") && err.contains("outside"), "{err}");
        std::fs::remove_file(s.join("zero.h")).unwrap();

        let fifo = s.join("fifo.h");
        let cpath = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: valid C string.
        assert_eq!(unsafe { libc::mkfifo(cpath.as_ptr(), 0o644) }, 0);
        let start = std::time::Instant::now();
        let err = stage_in(c.path(), "s").unwrap_err();
        assert!(err.contains("fifo.h") && err.contains("FIFO"), "{err}");
        assert!(start.elapsed().as_secs() < 5);
        std::fs::remove_file(&fifo).unwrap();

        let big = std::fs::File::create(s.join("big.h")).unwrap();
        big.set_len(2 << 30).unwrap(); // 2 GiB, sparse
        let err = stage_in(c.path(), "s").unwrap_err();
        assert!(
            err.contains("big.h") && err.contains("over labgrade's limit"),
            "{err}"
        );
    }

    #[test]
    fn link_loops_are_refused() {
        let c = class();
        let s = c.path().join("crate");
        std::fs::create_dir_all(s.join("src")).unwrap();
        std::fs::write(
            s.join("Cargo.toml"),
            "[package]\nname='x'\nversion='0.1.0'\n",
        )
        .unwrap();
        symlink("a", s.join("src/b")).unwrap();
        symlink("b", s.join("src/a")).unwrap();
        let err = stage_in(c.path(), "crate").unwrap_err();
        assert!(err.contains("loop"), "{err}");
        std::fs::remove_file(s.join("src/a")).unwrap();
        std::fs::remove_file(s.join("src/b")).unwrap();
        symlink("..", s.join("src/up")).unwrap();
        let err = stage_in(c.path(), "crate").unwrap_err();
        assert!(err.contains("loop"), "{err}");
    }

    #[test]
    fn archives_are_told_by_their_bytes_and_never_opened_here() {
        let c = class();
        // A zip (by its magic, whatever its name): without the worker to unpack it in, the
        // grader refuses it as its own failure rather than parse it.
        std::fs::write(c.path().join("hw3.pdf"), b"PK\x03\x04rest").unwrap();
        let r = stage(
            &c.path().join("hw3.pdf"),
            &c.path().join(".cache"),
            &IntakePolicy::default(),
        )
        .unwrap_err();
        assert!(r.machine && r.message.contains("is a zip archive"), "{r:?}");
        std::fs::write(c.path().join("hw3.7z"), b"7z\xbc\xaf\x27\x1c").unwrap();
        let err = stage_in(c.path(), "hw3.7z").unwrap_err();
        assert!(
            err.contains("is a 7-Zip archive, which labgrade does not unpack: hand in a .zip"),
            "{err}"
        );
        std::fs::write(c.path().join("hw3.tar.gz"), b"not gzip").unwrap();
        let err = stage_in(c.path(), "hw3.tar.gz").unwrap_err();
        assert!(err.contains("is named like an archive"), "{err}");
        // Anything else is staged as it is.
        std::fs::write(c.path().join("nim.c"), b"int x;").unwrap();
        let st = stage_in(c.path(), "nim.c").unwrap();
        assert_eq!(st.files, vec![PathBuf::from("nim.c")]);
        assert!(st.notes.is_empty());
    }

    #[test]
    fn manifests_that_reach_out_are_refused() {
        let c = class();
        let s = c.path().join("crate");
        std::fs::create_dir_all(s.join("src")).unwrap();
        let with = |deps: &str| {
            std::fs::write(
                s.join("Cargo.toml"),
                format!("[package]\nname='x'\nversion='0.1.0'\n{deps}"),
            )
            .unwrap();
            stage_in(c.path(), "crate")
        };
        assert!(with("").is_ok());
        assert!(with("[dependencies]\nlocal = { path = 'sub' }\n").is_ok());
        let err = with("[dependencies]\nr = { path = '../../reference' }\n").unwrap_err();
        assert!(err.contains("outside your crate"), "{err}");
        let err = with("[dependencies]\nr = { git = 'https://x/y' }\n").unwrap_err();
        assert!(err.contains("git dependency"), "{err}");
        let err = with("[dependencies]\nrand = '0.8'\n").unwrap_err();
        assert!(err.contains("registry dependency"), "{err}");
        let err = with("[target.'cfg(unix)'.build-dependencies]\ncc = '1'\n").unwrap_err();
        assert!(err.contains("registry dependency"), "{err}");
        let err = with("[patch.crates-io]\nrand = { path = 'x' }\n").unwrap_err();
        assert!(err.contains("[patch]"), "{err}");
    }
}
