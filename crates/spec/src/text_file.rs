//! Reading the text files an instructor names (specs, fixtures, course files, rosters): only
//! a regular file, and at most [`MAX_BYTES`] of it. `--course /dev/zero` used to hang the
//! grader reading forever; a pipe or a device now gets a clear error naming the file.

use std::io::Read;
use std::path::Path;

/// The largest text file labgrade reads (the biggest bundled fixture is a few hundred KiB).
pub const MAX_BYTES: u64 = 16 << 20;

/// The text of the regular file at `path`, if it is one of at most [`MAX_BYTES`].
pub fn read(path: &Path) -> std::io::Result<String> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a device or a pipe may never end): give a file",
        ));
    }
    let mut text = String::new();
    file.take(MAX_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {} MiB: not a labgrade file", MAX_BYTES >> 20),
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_refused_at_once_and_a_file_is_read() {
        let err = read(Path::new("/dev/zero")).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("course.toml");
        std::fs::write(&f, "[nim]\n").unwrap();
        assert_eq!(read(&f).unwrap(), "[nim]\n");
    }
}
