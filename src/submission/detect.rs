//! Telling what a submission is from its path.

use std::path::{Path, PathBuf};

use object::Object;

/// A source language labgrade compiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// `*.c`, compiled with the spec's C recipe.
    C,
    /// `*.cpp`, `*.cc`, `*.cxx`, compiled with the C++ recipe.
    Cpp,
}

/// What was handed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubmissionKind {
    /// C and/or C++ source files (sorted).
    Sources(Vec<PathBuf>),
    /// A Cargo crate (its directory).
    RustCrate(PathBuf),
    /// A prebuilt shared library.
    Library(PathBuf),
    /// A prebuilt executable.
    Executable(PathBuf),
}

impl SubmissionKind {
    /// The word used in reports: `c`, `cpp`, `rust`, `library`, `executable`.
    pub fn word(&self) -> &'static str {
        match self {
            SubmissionKind::Sources(files) => {
                if files.iter().any(|f| language_of(f) == Some(Language::Cpp)) {
                    "cpp"
                } else {
                    "c"
                }
            }
            SubmissionKind::RustCrate(_) => "rust",
            SubmissionKind::Library(_) => "library",
            SubmissionKind::Executable(_) => "executable",
        }
    }
}

/// The language of a source file, by extension.
pub fn language_of(path: &Path) -> Option<Language> {
    match path.extension()?.to_str()? {
        "c" => Some(Language::C),
        "cpp" | "cc" | "cxx" | "C" => Some(Language::Cpp),
        _ => None,
    }
}

fn collect_sources(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let p = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if p.is_dir() {
            if depth > 0 {
                collect_sources(&p, depth - 1, out);
            }
        } else if language_of(&p).is_some() {
            out.push(p);
        }
    }
}

/// Classifies `path`, or says in one sentence why it cannot be graded.
pub fn detect(path: &Path) -> Result<SubmissionKind, String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    if meta.is_dir() {
        if path.join("Cargo.toml").is_file() {
            return Ok(SubmissionKind::RustCrate(path.to_path_buf()));
        }
        let mut files = Vec::new();
        collect_sources(path, 2, &mut files);
        files.sort();
        if !files.is_empty() {
            return Ok(SubmissionKind::Sources(files));
        }
        let elves: Vec<PathBuf> = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && is_elf(p))
            .collect();
        if let [one] = elves.as_slice() {
            return detect(one);
        }
        return Err(format!(
            "`{}` holds no C or C++ sources (*.c, *.cpp), no Cargo.toml and no single library or \
             executable: hand in the source files of your solution",
            path.display()
        ));
    }
    if language_of(path).is_some() {
        return Ok(SubmissionKind::Sources(vec![path.to_path_buf()]));
    }
    classify_binary(path)
}

fn is_elf(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .is_ok()
        && magic == *b"\x7fELF"
}

fn host_architecture() -> object::Architecture {
    if cfg!(target_arch = "x86_64") {
        object::Architecture::X86_64
    } else if cfg!(target_arch = "aarch64") {
        object::Architecture::Aarch64
    } else {
        object::Architecture::Unknown
    }
}

/// Tells a shared library from an executable and rejects what cannot run here.
pub fn classify_binary(path: &Path) -> Result<SubmissionKind, String> {
    if !is_elf(path) {
        return Err(format!(
            "`{}` is not a shared library or an executable (not an ELF file): hand in a .so \
             built with `-fPIC -shared`, an executable, or your source files",
            path.display()
        ));
    }
    let data = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|e| format!("`{}` is a damaged ELF file: {e}", path.display()))?;
    let host = host_architecture();
    if file.architecture() != host {
        return Err(format!(
            "`{}` was built for {:?}, but this machine runs {:?}: rebuild it here (or hand in \
             the sources)",
            path.display(),
            file.architecture(),
            host
        ));
    }
    let has_interp = file.section_by_name(".interp").is_some();
    match file.kind() {
        object::ObjectKind::Dynamic if !has_interp => {
            Ok(SubmissionKind::Library(path.to_path_buf()))
        }
        object::ObjectKind::Dynamic | object::ObjectKind::Executable => {
            Ok(SubmissionKind::Executable(path.to_path_buf()))
        }
        other => Err(format!(
            "`{}` is an ELF {other:?} file, not a shared library or an executable: link it \
             with `-shared` (library) or without `-c` (program)",
            path.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_text_files_and_empty_dirs() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("notes.txt");
        std::fs::write(&f, "hello").unwrap();
        let err = detect(&f).unwrap_err();
        assert!(err.contains("not an ELF file"), "{err}");
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let err = detect(&empty).unwrap_err();
        assert!(err.contains("holds no C or C++ sources"), "{err}");
    }

    #[test]
    fn finds_sources_and_crates() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.cpp"), "").unwrap();
        std::fs::write(dir.path().join("b.c"), "").unwrap();
        let kind = detect(dir.path()).unwrap();
        assert_eq!(kind.word(), "cpp");
        std::fs::write(dir.path().join("Cargo.toml"), "").unwrap();
        assert_eq!(detect(dir.path()).unwrap().word(), "rust");
    }

    #[test]
    fn this_test_binary_is_an_executable() {
        let me = std::env::current_exe().unwrap();
        assert_eq!(detect(&me).unwrap().word(), "executable");
    }
}
