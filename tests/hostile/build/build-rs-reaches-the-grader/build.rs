//! Attack: reach the grader from a build script. Every ancestor process outside its own
//! process group (labgrade, or the test that builds this crate) is asked for its limits, priority and signal 0, and the
//! script tries to leave its process group and to leave a process running after the build.
//! The attack that ended a class grading wrote RLIMIT_FSIZE = 0 into labgrade.
//!
//! Harmless without a sandbox: a limit or priority that could be read is written back
//! unchanged, the only signal is 0 (no signal), and the process left behind is
//! `sleep 37.25`, which ends by itself.
//!
//! What stops it: the build jail's seccomp filter (prlimit, setpriority and the sched_*
//! calls only on the caller itself; no setsid or setpgid), Landlock's signal scoping, the
//! uid drop when root, and the jail killing the whole process group when cargo ends.

use std::os::raw::{c_int, c_long, c_uint};

#[repr(C)]
#[derive(Clone, Copy)]
struct RLimit {
    cur: u64,
    max: u64,
}

extern "C" {
    fn prlimit(pid: c_int, resource: c_int, new: *const RLimit, old: *mut RLimit) -> c_int;
    fn getpriority(which: c_uint, who: c_uint) -> c_int;
    fn setpriority(which: c_uint, who: c_uint, prio: c_int) -> c_int;
    fn kill(pid: c_int, sig: c_int) -> c_int;
    fn setsid() -> c_int;
    fn getpgid(pid: c_int) -> c_int;
    fn __errno_location() -> *mut c_int;
}

const RLIMIT_FSIZE: c_int = 1;

fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let mut reached: Vec<String> = Vec::new();
    let mut pid = std::process::id() as i32;
    let mut tried = 0;
    while let Some(parent) = parent_of(pid) {
        if parent <= 1 {
            break;
        }
        pid = parent;
        // cargo shares the jail (and its process group): only processes outside count.
        if unsafe { getpgid(pid) == getpgid(0) } {
            continue;
        }
        tried += 1;
        unsafe {
            let mut old = RLimit { cur: 0, max: 0 };
            if prlimit(pid, RLIMIT_FSIZE, std::ptr::null(), &mut old) == 0 {
                reached.push(format!("read the limits of {pid}"));
                if prlimit(pid, RLIMIT_FSIZE, &old, std::ptr::null_mut()) == 0 {
                    reached.push(format!("limited {pid}"));
                }
            }
            *__errno_location() = 0;
            let prio = getpriority(0, pid as c_uint);
            if *__errno_location() == 0 && setpriority(0, pid as c_uint, prio) == 0 {
                reached.push(format!("reniced {pid}"));
            }
            if kill(pid, 0) == 0 {
                reached.push(format!("could signal {pid}"));
            }
        }
    }
    if unsafe { setsid() } as c_long >= 0 {
        reached.push("left its process group".into());
    }
    let _ = std::process::Command::new("sleep").arg("37.25").spawn();
    if reached.is_empty() {
        println!("cargo:warning=every attempt on {tried} ancestors was refused");
    } else {
        println!("cargo:warning=REACHED {}", reached.join(", "));
    }
}
