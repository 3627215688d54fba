//! Where the problem packages added to this run live, by name: a package's spec, fixtures and
//! samples are found through [`super::Root`] as the catalogue's are. `crate::package::install`
//! fills it once per run; the layer that reads packages sits above this one, so the registry
//! of their places is kept here, below both.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The spec's file name in a package.
pub const SPEC_FILE: &str = "problem.toml";

static PLACES: OnceLock<Vec<(String, PathBuf)>> = OnceLock::new();

/// Records the packages of this run (name, directory). Once per run: a second call is
/// ignored, as the packages are.
pub fn set(places: Vec<(String, PathBuf)>) {
    let _ = PLACES.set(places);
}

/// The directory of the package named `name`, if one was added.
pub fn dir(name: &str) -> Option<&'static Path> {
    PLACES
        .get()?
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, d)| d.as_path())
}

/// The names of the packages added to this run.
pub fn names() -> impl Iterator<Item = &'static str> {
    PLACES.get().into_iter().flatten().map(|(n, _)| n.as_str())
}
