//! Runs one ignored test of this crate in a child process of the test binary.
//!
//! The exported C functions report to process-wide counters that other tests install while
//! they run, and the console programs read stdin: tests of them run alone, in a process of
//! their own. The parent test starts the child (an `#[ignore]`d test, run by name) with a key
//! in the environment; the child test does its work only when it finds its key.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const KEY: &str = "LABGRADE_REFERENCE_CHILD";

/// Runs the ignored test `path` (`nim::tests::x`) with `key` set and `stdin` fed.
pub fn run(path: &str, key: &str, stdin: &[u8]) -> Output {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "--test-threads=1",
            "--nocapture",
            path,
        ])
        .env(KEY, key)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// True in the child started by [`run`] with `key`.
pub fn is_child(key: &str) -> bool {
    std::env::var(KEY).as_deref() == Ok(key)
}
