//! The repository's specs/ and fixtures/ are built into the crate (src/builtin.rs,
//! include_dir): a file added to or removed from them must rebuild it, not only a file
//! changed.
fn main() {
    println!("cargo:rerun-if-changed=../../specs");
    println!("cargo:rerun-if-changed=../../fixtures");
}
