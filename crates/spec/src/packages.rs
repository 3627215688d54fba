//! Where the problem packages added to this run live, by name: a package's spec, fixtures and
//! samples are found through [`super::Root`] as the catalogue's are. `labgrade::package::install`
//! fills it once per run; the layer that reads packages sits above this one, so the registry
//! of their places is kept here, below both.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The spec's file name in a package.
pub const SPEC_FILE: &str = "problem.toml";

/// A package of this run: where it is, and its spec as read when it was added (its `[kit]`
/// is the interface the run was set up with).
pub struct Place {
    /// The problem's name.
    pub name: String,
    /// The package directory.
    pub dir: PathBuf,
    /// The spec's text.
    pub spec_text: &'static str,
}

static PLACES: OnceLock<Vec<Place>> = OnceLock::new();

/// Records the packages of this run. Once per run: a second call is ignored, as the
/// packages are.
pub fn set(places: Vec<Place>) {
    let _ = PLACES.set(places);
}

fn find(name: &str) -> Option<&'static Place> {
    PLACES.get()?.iter().find(|p| p.name == name)
}

/// The directory of the package named `name`, if one was added.
pub fn dir(name: &str) -> Option<&'static Path> {
    find(name).map(|p| p.dir.as_path())
}

/// The spec text of the package named `name` as it was added.
pub fn spec_text(name: &str) -> Option<&'static str> {
    find(name).map(|p| p.spec_text)
}

/// The names of the packages added to this run.
pub fn names() -> impl Iterator<Item = &'static str> {
    PLACES.get().into_iter().flatten().map(|p| p.name.as_str())
}
