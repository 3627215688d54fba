//! Java submissions in the sandbox: the child executes the JVM itself, once, on the jar the
//! build made (the student's classes, the problem's world and labgrade's harness), with the
//! case on its standard input; the harness answers with one record line on standard output.
//!
//! The JVM runs under the program profile: the worker lets exactly one exec through (the
//! child's own of `java`), every later one is refused, and a new process (`Runtime.exec`
//! starts one with `clone`) or a socket is a forbidden system call. Threads are allowed (the
//! JVM needs its own). Landlock lets it read and map the JDK under `/usr/lib/jvm`.
//!
//! A JVM reserves address space far beyond what it uses (heap, code cache, class space,
//! thread stacks, a malloc arena per thread): under an address-space limit of the machine's
//! default size it does not start. So every reservation is given a fixed size here
//! ([`VM_OPTIONS`]), glibc keeps two arenas (`MALLOC_ARENA_MAX`), and the run's
//! address-space limit is the spec's `memory_mb`: the heap is what is left of it after the
//! student thread's stack and the JVM's other reservations ([`heap_mb`]; a JVM with a
//! 128 MiB heap was measured to start in no less than 450 MiB). A full heap
//! (`OutOfMemoryError`) is the memory limit, as a C submission's failed allocation is.
//!
//! The record is trusted only as the single line of a JVM that exited with status 0: the
//! harness sends what the student's `System.out` prints to standard error, so standard
//! output holds labgrade's line alone. A student's code could still write a line of its own
//! there; two lines, or anything else, is no record (the run is a crash), and a forged record
//! can only claim what the student's code computed: the expected answers never enter the
//! JVM.

use std::path::PathBuf;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{json, Value};

use super::protocol::Ending;

/// The harness's main class (`specs/<problem>/LabgradeHarness.java`).
pub const HARNESS: &str = "LabgradeHarness";

/// What starts every record line.
pub const RECORD: &str = "labgrade-record ";

/// The JVM's options: every reservation of a fixed size, one garbage collector thread, the
/// client compiler only (a quick start), no shared-memory performance file (it would go to
/// /tmp, which a run cannot write), no attach listener, VM messages on standard error.
pub const VM_OPTIONS: &[&str] = &[
    "-Xms16m",
    "-Xss1m",
    "-XX:ReservedCodeCacheSize=32m",
    "-XX:MaxMetaspaceSize=64m",
    "-XX:CompressedClassSpaceSize=32m",
    "-XX:MaxDirectMemorySize=8m",
    "-XX:+UseSerialGC",
    "-XX:TieredStopAtLevel=1",
    "-XX:CICompilerCount=1",
    "-XX:-UsePerfData",
    "-XX:+DisableAttachMechanism",
    "-XX:+DisplayVMOutputToStderr",
    "-Xshare:auto",
    "-Djava.io.tmpdir=.",
];

/// The `java` launcher: the first `java` on labgrade's PATH, its links resolved (the JDK's
/// own `bin/java`, so that the launcher finds its libraries). None when there is no JDK.
pub fn java() -> Option<&'static PathBuf> {
    static JAVA: OnceLock<Option<PathBuf>> = OnceLock::new();
    JAVA.get_or_init(|| {
        ["/usr/local/bin", "/usr/bin", "/bin"]
            .iter()
            .map(|d| std::path::Path::new(d).join("java"))
            .find(|p| p.is_file())
            .and_then(|p| p.canonicalize().ok())
    })
    .as_ref()
}

/// What a JVM reserves besides its heap and the student thread's stack, with these options,
/// in MiB (about 320 were measured; the rest is margin).
pub const VM_OVERHEAD_MB: u64 = 448;

/// The heap a run gets: its address-space limit less the student thread's stack and the
/// JVM's other reservations (at least 64 MiB: a spec whose `memory_mb` leaves less than
/// that makes a JVM that cannot start, which `labgrade test` shows at once).
pub fn heap_mb(memory_mb: u64, stack_mb: u64) -> u64 {
    memory_mb
        .saturating_sub(stack_mb)
        .saturating_sub(VM_OVERHEAD_MB)
        .max(64)
}

/// The JVM's arguments after `argv[0]`: its options, the heap, the student thread's stack,
/// the jar (reached through the child's descriptor `jar_fd`) and the harness.
pub fn arguments(memory_mb: u64, stack_mb: u64, jar_fd: i32) -> Vec<String> {
    let mut v: Vec<String> = VM_OPTIONS.iter().map(|s| s.to_string()).collect();
    v.push(format!("-Xmx{}m", heap_mb(memory_mb, stack_mb)));
    v.push(format!("-Dlabgrade.stack.mb={stack_mb}"));
    v.push("-cp".into());
    v.push(format!("/proc/self/fd/{jar_fd}"));
    v.push(HARNESS.into());
    v
}

/// The environment of the JVM.
pub const ENVIRONMENT: &[&str] = &[
    "PATH=/usr/bin:/bin",
    "LANG=C.UTF-8",
    "LC_ALL=C.UTF-8",
    "MALLOC_ARENA_MAX=2",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    #[serde(default)]
    results: Option<Value>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    found: Option<String>,
}

/// How a JVM run that exited with status 0 ended, from its standard output: the ending and
/// the value. `stdout` empty: the student's code ended the JVM itself (`System.exit(0)`)
/// before the harness could answer.
pub fn read_record(stdout: &str) -> (Ending, Option<Value>) {
    if stdout.is_empty() {
        return (Ending::Exited { code: 0 }, None);
    }
    let record = stdout
        .strip_suffix('\n')
        .filter(|line| !line.contains('\n'))
        .and_then(|line| line.strip_prefix(RECORD))
        .and_then(|json| serde_json::from_str::<Record>(json).ok());
    let Some(r) = record else {
        return (Ending::NoReport, None);
    };
    match (r.error.as_deref(), r.results) {
        (None, Some(results)) => (Ending::Returned, Some(results)),
        (Some("stack-overflow"), None) => (Ending::StackOverflow, None),
        // OutOfMemoryError: the JVM's heap (VM_OPTIONS' -Xmx) is full.
        (Some("memory-limit"), None) => (Ending::MemoryLimit, None),
        (Some("exception"), None) => {
            let class = r.class.unwrap_or_default();
            let message = r.message.unwrap_or_default();
            (
                Ending::Crashed {
                    message: format!("an uncaught {class}: {message}"),
                },
                None,
            )
        }
        (Some("missing"), None) => (
            Ending::MissingSymbol {
                name: r.name.unwrap_or_default(),
            },
            Some(json!({ "found": r.found.unwrap_or_default() })),
        ),
        _ => (Ending::NoReport, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_one_line_and_nothing_else() {
        let ok = "labgrade-record {\"results\":[{\"move\":2}]}\n";
        assert_eq!(read_record(ok).0, Ending::Returned);
        assert_eq!(read_record(ok).1, Some(json!([{"move": 2}])));
        assert_eq!(read_record(&format!("{ok}{ok}")).0, Ending::NoReport);
        assert_eq!(read_record(&format!("hello\n{ok}")).0, Ending::NoReport);
        assert_eq!(read_record(ok.trim_end()).0, Ending::NoReport);
        assert_eq!(read_record("").0, Ending::Exited { code: 0 });
        let thrown = "labgrade-record {\"error\":\"exception\",\"class\":\"java.lang.RuntimeException\",\"message\":\"no\"}\n";
        assert_eq!(
            read_record(thrown).0,
            Ending::Crashed {
                message: "an uncaught java.lang.RuntimeException: no".into()
            }
        );
        let so = "labgrade-record {\"error\":\"stack-overflow\"}\n";
        assert_eq!(read_record(so).0, Ending::StackOverflow);
        let oom = "labgrade-record {\"error\":\"memory-limit\"}\n";
        assert_eq!(read_record(oom).0, Ending::MemoryLimit);
        // A record claiming what a run cannot claim is none.
        let internal = "labgrade-record {\"error\":\"internal\"}\n";
        assert_eq!(read_record(internal).0, Ending::NoReport);
        let extra = "labgrade-record {\"results\":[],\"verdict\":\"pass\"}\n";
        assert_eq!(read_record(extra).0, Ending::NoReport);
    }
}
