//! Archives handed in (`.zip`, `.tar`, `.tar.gz`/`.tgz`): told apart by their first bytes, and
//! unpacked only inside the jailed `labgrade-worker --unpack`, never in the grader's process.
//!
//! An archive is the student's too, so its parser runs where a bug in it (or a bomb) can do
//! no harm: intake ([`super::intake`]) copies the archive into a directory of its own and
//! runs the worker in the build jail ([`super::jail`]): `nobody`, reading only that copy,
//! writing only an empty directory, with CPU, address-space and file-size limits and no
//! network. Then intake stages what was unpacked with every check it makes of a folder.
//!
//! What [`unpack`] writes, entry by entry:
//!
//! - regular files and folders only: a symbolic link, a hard link, a device or a FIFO is
//!   refused, naming the entry;
//! - no absolute path and no `..` anywhere in a name (the "zip slip"), refused;
//! - at most [`MAX_FILES`] files, [`MAX_FILE_BYTES`] per file and [`MAX_TOTAL_BYTES`] in all,
//!   counted on the bytes actually written (a zip bomb stops at the cap, whatever sizes its
//!   headers declare), [`MAX_DEPTH`] folders deep and [`MAX_ENTRIES`] entries of any kind;
//! - modes sanitised: files 0644 (0755 when the archive marks them executable), folders
//!   0755, never a set-id bit; no owner, time or extended attribute is restored;
//! - macOS and Windows metadata (`__MACOSX/`, `.DS_Store`, `._*`, `Thumbs.db`) and hidden
//!   names (which intake skips in a folder too) are skipped, and counted in a note.
//!
//! Archives inside the archive are left as they are (never unpacked further).

use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use super::intake::{MAX_DEPTH, MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES};

/// Most entries of any kind (files, folders, skipped ones) read from one archive.
pub const MAX_ENTRIES: usize = 4 * MAX_FILES;

/// An archive format labgrade unpacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// PKZIP (stored or deflated entries).
    Zip,
    /// POSIX or GNU tar.
    Tar,
    /// tar compressed with gzip.
    TarGz,
}

impl Format {
    /// The word on the worker's command line and in messages.
    pub fn word(self) -> &'static str {
        match self {
            Format::Zip => "zip",
            Format::Tar => "tar",
            Format::TarGz => "tar.gz",
        }
    }

    /// The format named by [`Format::word`].
    pub fn parse(word: &str) -> Option<Format> {
        [Format::Zip, Format::Tar, Format::TarGz]
            .into_iter()
            .find(|f| f.word() == word)
    }
}

/// The formats accepted, for messages.
pub const ACCEPTED: &str = ".zip, .tar, .tar.gz or .tgz";

/// What a handed-in file is, by its first bytes (and, for a tar without the POSIX magic, its
/// name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniffed {
    /// An archive labgrade unpacks.
    Archive(Format),
    /// An archive or compressed file labgrade does not unpack (what it is: "a RAR archive").
    Unsupported(&'static str),
    /// Not an archive.
    NotArchive,
}

/// Bytes read to tell an archive: a tar header's magic ends at byte 262.
pub const SNIFF_BYTES: usize = 512;

/// Tells an archive from its first [`SNIFF_BYTES`] bytes and its file name.
pub fn sniff(head: &[u8], name: &str) -> Sniffed {
    let lower = name.to_ascii_lowercase();
    let starts = |m: &[u8]| head.starts_with(m);
    if starts(b"PK\x03\x04") || starts(b"PK\x05\x06") {
        return Sniffed::Archive(Format::Zip);
    }
    if starts(b"\x1f\x8b") {
        return if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") || !lower.contains('.') {
            Sniffed::Archive(Format::TarGz)
        } else if lower.ends_with(".gz") {
            Sniffed::Unsupported("a single gzip-compressed file, not a tar archive")
        } else {
            Sniffed::Archive(Format::TarGz)
        };
    }
    if head.len() >= 262 && &head[257..262] == b"ustar" {
        return Sniffed::Archive(Format::Tar);
    }
    let other: &[(&[u8], &'static str)] = &[
        (b"Rar!\x1a\x07", "a RAR archive"),
        (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
        (b"BZh", "compressed with bzip2"),
        (b"\xfd7zXZ\x00", "compressed with xz"),
        (b"\x28\xb5\x2f\xfd", "compressed with zstd"),
        (b"\x1f\x9d", "compressed with compress (.Z)"),
        (b"MSCF", "a CAB archive"),
    ];
    if let Some((_, word)) = other.iter().find(|(m, _)| starts(m)) {
        return Sniffed::Unsupported(word);
    }
    // An old tar without the POSIX magic: trusted by its name only.
    if lower.ends_with(".tar") && head.len() >= SNIFF_BYTES {
        return Sniffed::Archive(Format::Tar);
    }
    Sniffed::NotArchive
}

/// An archive's name without its extension (`hw3.tar.gz` -> `hw3`), or None when the name
/// has no archive extension.
pub fn archive_stem(name: &str) -> Option<&str> {
    let lower = name.to_ascii_lowercase();
    [".tar.gz", ".tgz", ".zip", ".tar"]
        .iter()
        .find(|ext| lower.len() > ext.len() && lower.ends_with(*ext))
        .map(|ext| &name[..name.len() - ext.len()])
}

/// True when `name` looks like an archive or compressed file by its extension.
pub fn named_like_archive(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        ".zip", ".tar", ".tgz", ".gz", ".rar", ".7z", ".bz2", ".xz", ".zst", ".tbz", ".txz",
    ]
    .iter()
    .any(|ext| lower.ends_with(ext))
}

/// What the worker reports on stdout, one JSON line.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Report {
    /// Unpacked; notes for the report.
    Unpacked {
        /// What was skipped.
        notes: Vec<String>,
    },
    /// Refused: one sentence (without the archive's name, which intake puts in front).
    Refused(String),
}

/// Skipped for good: metadata of the machine the archive was made on.
fn is_junk(component: &str) -> bool {
    component == "__MACOSX"
        || component.starts_with('.')
        || component.eq_ignore_ascii_case("Thumbs.db")
        || component.eq_ignore_ascii_case("desktop.ini")
}

struct Writer<'a> {
    dest: &'a Path,
    files: usize,
    entries: usize,
    total: u64,
    skipped: usize,
}

/// What kind of entry, as the archive says.
enum Kind {
    Dir,
    File { executable: bool },
    Refused(&'static str),
}

impl Writer<'_> {
    /// The entry's path under the destination, None to skip it.
    fn path_of(&mut self, raw: &str) -> Result<Option<PathBuf>, String> {
        self.entries += 1;
        if self.entries > MAX_ENTRIES {
            return Err(format!(
                "it holds more than {MAX_ENTRIES} entries (at `{raw}`): hand in only your sources"
            ));
        }
        if raw.starts_with('/') || raw.as_bytes().get(1) == Some(&b':') {
            return Err(format!(
                "the entry `{raw}` has an absolute path: make the archive from inside your \
                 folder's parent (e.g. `zip -r hw3.zip hw3`), so every name is relative"
            ));
        }
        let mut rel = PathBuf::new();
        for c in raw.split('/') {
            match c {
                "" | "." => {}
                ".." => {
                    return Err(format!(
                        "the entry `{raw}` reaches outside the archive (`..`): labgrade writes \
                         nothing outside it; hand in an archive of your folder only"
                    ))
                }
                c if c.contains('\0') => {
                    return Err(format!("the entry `{raw}` has a NUL byte in its name"))
                }
                c => rel.push(c),
            }
        }
        if rel.as_os_str().is_empty() {
            return Ok(None);
        }
        if rel
            .components()
            .any(|c| is_junk(&c.as_os_str().to_string_lossy()))
        {
            self.skipped += 1;
            return Ok(None);
        }
        Ok(Some(rel))
    }

    fn check_depth(&self, raw: &str, dirs: usize) -> Result<(), String> {
        if dirs > MAX_DEPTH {
            return Err(format!(
                "the entry `{raw}` is nested more than {MAX_DEPTH} folders deep: hand in a \
                 flatter tree"
            ));
        }
        Ok(())
    }

    fn make_dirs(&self, rel: &Path, raw: &str) -> Result<(), String> {
        if rel.as_os_str().is_empty() {
            return Ok(());
        }
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o755)
            .create(self.dest.join(rel))
            .map_err(|e| format!("the entry `{raw}` cannot be unpacked: {e}"))
    }

    fn entry(&mut self, raw: &str, kind: Kind, data: &mut dyn Read) -> Result<(), String> {
        let Some(rel) = self.path_of(raw)? else {
            return Ok(());
        };
        match kind {
            Kind::Refused(what) => Err(format!(
                "the entry `{raw}` is {what}: an archive may hold only files and folders; hand \
                 in the file itself"
            )),
            Kind::Dir => {
                self.check_depth(raw, rel.components().count())?;
                self.make_dirs(&rel, raw)
            }
            Kind::File { executable } => {
                self.check_depth(raw, rel.components().count() - 1)?;
                self.file(&rel, raw, executable, data)
            }
        }
    }

    fn file(
        &mut self,
        rel: &Path,
        raw: &str,
        executable: bool,
        data: &mut dyn Read,
    ) -> Result<(), String> {
        if self.files >= MAX_FILES {
            return Err(format!(
                "it holds more than {MAX_FILES} files (at `{raw}`): hand in only your sources"
            ));
        }
        self.files += 1;
        self.make_dirs(rel.parent().unwrap_or(Path::new("")), raw)?;
        let mode = if executable { 0o755 } else { 0o644 };
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .custom_flags(libc::O_NOFOLLOW)
            .open(self.dest.join(rel))
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    format!("the entry `{raw}` appears twice: hand in each file once")
                } else {
                    format!("the entry `{raw}` cannot be unpacked: {e}")
                }
            })?;
        let room = (MAX_TOTAL_BYTES - self.total).min(MAX_FILE_BYTES);
        let mut limited = data.take(room + 1);
        let mut buf = vec![0u8; 64 << 10];
        let mut written = 0u64;
        loop {
            let n = match limited.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(format!("the entry `{raw}` cannot be read: {e}")),
            };
            written += n as u64;
            if written > room {
                return Err(if written > MAX_FILE_BYTES {
                    format!(
                        "the entry `{raw}` is more than {MAX_FILE_BYTES} bytes unpacked, over \
                         labgrade's limit per file"
                    )
                } else {
                    format!(
                        "unpacked, it holds more than {MAX_TOTAL_BYTES} bytes (at `{raw}`): \
                         hand in only your sources"
                    )
                });
            }
            out.write_all(&buf[..n])
                .map_err(|e| format!("the entry `{raw}` cannot be unpacked: {e}"))?;
        }
        self.total += written;
        Ok(())
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.skipped > 0 {
            notes.push(format!(
                "{} hidden or metadata entr{} of the archive (`__MACOSX/`, `.DS_Store`, `._*`, \
                 names starting with `.`) skipped",
                self.skipped,
                if self.skipped == 1 { "y" } else { "ies" }
            ));
        }
        notes
    }
}

const S_IFMT: u32 = 0o170000;

fn zip_kind(file: &zip::read::ZipFile<'_, std::fs::File>) -> Kind {
    let mode = file.unix_mode().unwrap_or(0);
    match mode & S_IFMT {
        0o120000 => return Kind::Refused("a symbolic link"),
        0o010000 => return Kind::Refused("a FIFO (named pipe)"),
        0o020000 => return Kind::Refused("a character device"),
        0o060000 => return Kind::Refused("a block device"),
        0o140000 => return Kind::Refused("a socket"),
        _ => {}
    }
    if file.is_dir() {
        Kind::Dir
    } else {
        Kind::File {
            executable: mode & 0o111 != 0,
        }
    }
}

fn unpack_zip(archive: &Path, w: &mut Writer<'_>) -> Result<(), String> {
    let f = std::fs::File::open(archive).map_err(|e| format!("cannot read it: {e}"))?;
    let mut zip = zip::ZipArchive::new(f).map_err(|e| {
        format!("not a readable zip archive ({e}): make it again, or hand in the folder")
    })?;
    if zip.len() > MAX_ENTRIES {
        return Err(format!(
            "it holds {} entries, more than labgrade's limit of {MAX_ENTRIES}: hand in only your \
             sources",
            zip.len()
        ));
    }
    for i in 0..zip.len() {
        let mut file = zip
            .by_index(i)
            .map_err(|e| format!("its entry number {} cannot be read ({e})", i + 1))?;
        let raw = file.name().replace('\\', "/");
        if file.encrypted() {
            return Err(format!(
                "the entry `{raw}` is encrypted: hand in an archive without a password"
            ));
        }
        let kind = zip_kind(&file);
        w.entry(&raw, kind, &mut file)?;
    }
    Ok(())
}

fn unpack_tar(reader: impl Read, w: &mut Writer<'_>) -> Result<(), String> {
    use tar::EntryType;
    let mut tar = tar::Archive::new(reader);
    let entries = tar
        .entries()
        .map_err(|e| format!("not a readable tar archive ({e})"))?;
    for (i, entry) in entries.enumerate() {
        let mut entry = entry.map_err(|e| {
            format!(
                "its entry number {} cannot be read ({e}): make the archive again, or hand in \
                 the folder",
                i + 1
            )
        })?;
        let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let header = entry.header();
        let kind = match header.entry_type() {
            EntryType::Regular | EntryType::Continuous => Kind::File {
                executable: header.mode().unwrap_or(0) & 0o111 != 0,
            },
            EntryType::Directory => Kind::Dir,
            EntryType::Symlink => Kind::Refused("a symbolic link"),
            EntryType::Link => Kind::Refused("a hard link"),
            EntryType::Char => Kind::Refused("a character device"),
            EntryType::Block => Kind::Refused("a block device"),
            EntryType::Fifo => Kind::Refused("a FIFO (named pipe)"),
            EntryType::GNUSparse => Kind::Refused("a sparse file"),
            // Metadata of the archive itself, not a file.
            EntryType::XGlobalHeader | EntryType::XHeader => continue,
            _ => Kind::Refused("of a kind labgrade does not unpack"),
        };
        w.entry(&raw, kind, &mut entry)?;
    }
    Ok(())
}

/// Unpacks `archive` into `dest` (an empty directory), or says, in one sentence without the
/// archive's name, why not. Returns notes on what was skipped.
pub fn unpack(archive: &Path, format: Format, dest: &Path) -> Result<Vec<String>, String> {
    let mut w = Writer {
        dest,
        files: 0,
        entries: 0,
        total: 0,
        skipped: 0,
    };
    match format {
        Format::Zip => unpack_zip(archive, &mut w)?,
        Format::Tar | Format::TarGz => {
            let f = std::fs::File::open(archive).map_err(|e| format!("cannot read it: {e}"))?;
            let f = std::io::BufReader::new(f);
            if format == Format::TarGz {
                unpack_tar(flate2::read::MultiGzDecoder::new(f), &mut w)
            } else {
                unpack_tar(f, &mut w)
            }
            .map_err(|e| {
                if format == Format::TarGz && w.entries == 0 {
                    "not a gzip-compressed tar archive, or a damaged one: make it with `tar \
                     czf hw3.tar.gz hw3`, or hand in the folder"
                        .to_string()
                } else {
                    e
                }
            })?
        }
    }
    Ok(w.notes())
}

/// `labgrade-worker --unpack FORMAT ARCHIVE DEST`: unpacks and prints a [`Report`] as one
/// JSON line. Exit status 0 when unpacked, 1 when refused, 2 on bad arguments.
pub fn worker_main(args: &[String]) -> i32 {
    let [format, archive, dest] = args else {
        eprintln!("labgrade-worker --unpack: expected FORMAT ARCHIVE DEST");
        return 2;
    };
    let Some(format) = Format::parse(format) else {
        eprintln!("labgrade-worker --unpack: unknown format `{format}`");
        return 2;
    };
    let (report, code) = match unpack(Path::new(archive), format, Path::new(dest)) {
        Ok(notes) => (Report::Unpacked { notes }, 0),
        Err(e) => (Report::Refused(e), 1),
    };
    println!("{}", serde_json::to_string(&report).unwrap_or_default());
    code
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, data) in entries {
            if name.ends_with('/') {
                w.add_directory(*name, opts).unwrap();
            } else {
                w.start_file(*name, opts).unwrap();
                w.write_all(data).unwrap();
            }
        }
        w.finish().unwrap().into_inner()
    }

    /// Unpacks `bytes` (as `format`) into a fresh directory; the directory and the result.
    fn unpack_bytes(
        bytes: &[u8],
        format: Format,
    ) -> (tempfile::TempDir, Result<Vec<String>, String>) {
        let dir = tempfile::tempdir().unwrap();
        let archive = dir.path().join("archive");
        std::fs::write(&archive, bytes).unwrap();
        let dest = dir.path().join("out");
        std::fs::create_dir(&dest).unwrap();
        let r = unpack(&archive, format, &dest);
        (dir, r)
    }

    fn files_under(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        fn walk(base: &Path, d: &Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(base, &p, out);
                } else {
                    out.push(p.strip_prefix(base).unwrap().display().to_string());
                }
            }
        }
        walk(dir, dir, &mut out);
        out.sort();
        out
    }

    fn tar_header(name: &str, kind: tar::EntryType, size: u64, mode: u32) -> tar::Header {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(kind);
        h.set_size(size);
        h.set_mode(mode);
        // Written raw: `set_path` itself refuses `..`, and an attacker's tool would not.
        let bytes = name.as_bytes();
        h.as_old_mut().name[..bytes.len()].copy_from_slice(bytes);
        h.set_cksum();
        h
    }

    fn tar_of(entries: &[(&str, tar::EntryType, &[u8], u32)]) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        for (name, kind, data, mode) in entries {
            let h = tar_header(name, *kind, data.len() as u64, *mode);
            b.append(&h, *data).unwrap();
        }
        b.into_inner().unwrap()
    }

    #[test]
    fn formats_are_told_by_their_first_bytes() {
        let zip = zip_of(&[("a.c", b"int x;")]);
        assert_eq!(sniff(&zip, "hw3"), Sniffed::Archive(Format::Zip));
        assert_eq!(sniff(&zip, "hw3.pdf"), Sniffed::Archive(Format::Zip));
        let tar = tar_of(&[("a.c", tar::EntryType::Regular, b"int x;", 0o644)]);
        assert_eq!(sniff(&tar[..512], "x"), Sniffed::Archive(Format::Tar));
        assert_eq!(
            sniff(b"\x1f\x8b\x08\0", "hw3.tgz"),
            Sniffed::Archive(Format::TarGz)
        );
        assert_eq!(
            sniff(b"\x1f\x8b\x08\0", "nim.c.gz"),
            Sniffed::Unsupported("a single gzip-compressed file, not a tar archive")
        );
        assert_eq!(
            sniff(b"Rar!\x1a\x07\x01\0", "hw3.zip"),
            Sniffed::Unsupported("a RAR archive")
        );
        assert_eq!(
            sniff(b"7z\xbc\xaf\x27\x1c", "hw3.7z"),
            Sniffed::Unsupported("a 7-Zip archive")
        );
        assert_eq!(sniff(b"int main() {}", "nim.c"), Sniffed::NotArchive);
        assert_eq!(sniff(b"\x7fELF", "nim.so"), Sniffed::NotArchive);
        assert_eq!(archive_stem("hw3.tar.gz"), Some("hw3"));
        assert_eq!(archive_stem("HW3.ZIP"), Some("HW3"));
        assert_eq!(archive_stem("nim.c"), None);
        assert_eq!(archive_stem(".zip"), None);
    }

    #[test]
    fn a_zip_unpacks_with_sane_modes_and_junk_skipped() {
        let zip = zip_of(&[
            ("alice/", b""),
            ("alice/nim.c", b"int x;"),
            ("alice/sub/nim.h", b""),
            ("__MACOSX/alice/._nim.c", b"junk"),
            ("alice/.DS_Store", b"junk"),
            ("alice/._nim.c", b"junk"),
        ]);
        let (dir, r) = unpack_bytes(&zip, Format::Zip);
        let notes = r.unwrap();
        let out = dir.path().join("out");
        assert_eq!(files_under(&out), ["alice/nim.c", "alice/sub/nim.h"]);
        assert!(
            notes[0].starts_with("3 hidden or metadata entries"),
            "{notes:?}"
        );
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &str| std::fs::metadata(out.join(p)).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode("alice/nim.c"), 0o644);
        assert_eq!(mode("alice/sub"), 0o755);
    }

    #[test]
    fn traversal_and_absolute_names_are_refused() {
        for name in [
            "../evil.c",
            "alice/../../evil.c",
            "/etc/evil.c",
            "C:/evil.c",
            "a\\..\\..\\evil.c",
        ] {
            let (dir, r) = unpack_bytes(&zip_of(&[(name, b"x")]), Format::Zip);
            let err = r.unwrap_err();
            assert!(
                err.contains("the entry `") && (err.contains("`..`") || err.contains("absolute")),
                "{name}: {err}"
            );
            assert!(!dir.path().join("evil.c").exists());
            assert!(files_under(&dir.path().join("out")).is_empty());
        }
        let tar = tar_of(&[("../evil.c", tar::EntryType::Regular, b"x", 0o644)]);
        let err = unpack_bytes(&tar, Format::Tar).1.unwrap_err();
        assert!(err.contains("`../evil.c` reaches outside"), "{err}");
    }

    #[test]
    fn links_devices_and_fifos_are_refused() {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default();
        w.add_symlink("shadow.h", "/etc/shadow", opts).unwrap();
        let zip = w.finish().unwrap().into_inner();
        let (dir, r) = unpack_bytes(&zip, Format::Zip);
        let err = r.unwrap_err();
        assert!(err.contains("`shadow.h` is a symbolic link"), "{err}");
        assert!(std::fs::symlink_metadata(dir.path().join("out/shadow.h")).is_err());

        for (kind, word) in [
            (tar::EntryType::Symlink, "a symbolic link"),
            (tar::EntryType::Link, "a hard link"),
            (tar::EntryType::Char, "a character device"),
            (tar::EntryType::Fifo, "a FIFO"),
        ] {
            let tar = tar_of(&[("x.h", kind, b"", 0o644)]);
            let err = unpack_bytes(&tar, Format::Tar).1.unwrap_err();
            assert!(err.contains(&format!("`x.h` is {word}")), "{err}");
        }
        // Set-id bits never survive.
        let tar = tar_of(&[("run", tar::EntryType::Regular, b"#!", 0o6755)]);
        let (dir, r) = unpack_bytes(&tar, Format::Tar);
        r.unwrap();
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("out/run"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o7777, 0o755);
    }

    #[test]
    fn a_bomb_stops_at_the_cap_not_at_its_declared_size() {
        // 40 MiB of zeros deflate to about 40 KiB: the entry stops at 32 MiB + 1 byte.
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .large_file(false);
        w.start_file("zeros.c", opts).unwrap();
        let chunk = vec![0u8; 1 << 20];
        for _ in 0..40 {
            w.write_all(&chunk).unwrap();
        }
        let zip = w.finish().unwrap().into_inner();
        assert!(zip.len() < 1 << 20);
        let (dir, r) = unpack_bytes(&zip, Format::Zip);
        let err = r.unwrap_err();
        assert!(
            err.contains("`zeros.c` is more than 33554432 bytes unpacked"),
            "{err}"
        );
        let written = std::fs::metadata(dir.path().join("out/zeros.c"))
            .unwrap()
            .len();
        assert!(written <= MAX_FILE_BYTES + (64 << 10), "{written}");

        // A tar.gz whose files together pass the total: stops there.
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        {
            let mut b = tar::Builder::new(&mut enc);
            let big = vec![0u8; 30 << 20];
            for i in 0..3 {
                let h = tar_header(
                    &format!("f{i}.c"),
                    tar::EntryType::Regular,
                    big.len() as u64,
                    0o644,
                );
                b.append(&h, &big[..]).unwrap();
            }
            b.finish().unwrap();
        }
        let tgz = enc.finish().unwrap();
        let err = unpack_bytes(&tgz, Format::TarGz).1.unwrap_err();
        assert!(
            err.contains("more than 67108864 bytes (at `f2.c`)"),
            "{err}"
        );
    }

    #[test]
    fn counts_depth_and_duplicates_are_capped() {
        let deep = format!("{}x.c", "d/".repeat(MAX_DEPTH + 1));
        let err = unpack_bytes(&zip_of(&[(&deep, b"")]), Format::Zip)
            .1
            .unwrap_err();
        assert!(err.contains("nested more than 16 folders"), "{err}");
        let names: Vec<String> = (0..=MAX_FILES).map(|i| format!("f{i}.c")).collect();
        let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b""[..])).collect();
        let err = unpack_bytes(
            &tar_of(
                &entries
                    .iter()
                    .map(|(n, d)| (*n, tar::EntryType::Regular, *d, 0o644))
                    .collect::<Vec<_>>(),
            ),
            Format::Tar,
        )
        .1
        .unwrap_err();
        assert!(err.contains("more than 2000 files (at `f2000.c`)"), "{err}");
        let tar = tar_of(&[
            ("a.c", tar::EntryType::Regular, b"1", 0o644),
            ("./a.c", tar::EntryType::Regular, b"2", 0o644),
        ]);
        let err = unpack_bytes(&tar, Format::Tar).1.unwrap_err();
        assert!(err.contains("`./a.c` appears twice"), "{err}");
    }

    #[test]
    fn damaged_archives_say_so() {
        let err = unpack_bytes(b"PK\x03\x04 not really", Format::Zip)
            .1
            .unwrap_err();
        assert!(err.contains("not a readable zip archive"), "{err}");
        let err = unpack_bytes(b"\x1f\x8b\x08\0garbage", Format::TarGz)
            .1
            .unwrap_err();
        assert!(err.contains("gzip-compressed tar"), "{err}");
    }
}
