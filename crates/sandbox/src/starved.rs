//! Whether a child that reached its wall-clock limit spent that time waiting for a CPU the
//! machine did not give it, rather than doing what it did.
//!
//! The wall limit is there for a run that uses no CPU (it sleeps, it waits on something that
//! never comes), which the CPU limit never stops. On a loaded machine (a class graded with
//! more slots than cores, a CI runner shared with other jobs), a run that computes is slowed
//! down by the others, and a wall limit taken literally makes its verdict depend on the load:
//! a correct run ended as `timeout` in one grading and `pass` in the next. So when the wall
//! limit comes, the worker looks at what the child is doing: a task that is running or
//! waiting to run (`R`), or in an uninterruptible wait (`D`, a page fault, a disk read), is a
//! child that wants the CPU: its wall limit is moved on, and its CPU limit, which counts only
//! what it used, decides. A child that sleeps (`S`) or is stopped (`T`) is what the wall limit
//! is for. A backstop, [`BACKSTOP_FACTOR`] times the wall limit, ends any run however busy
//! the machine is.

use std::time::Duration;

/// The wall limit is never moved past this many times itself.
pub const BACKSTOP_FACTOR: u32 = 10;

/// How far the wall limit is moved at a time while the child wants the CPU.
pub const STEP: Duration = Duration::from_millis(20);

/// Whether a run `elapsed` past its start, at or past its wall limit `wall`, gets more wall
/// time: while it is under the backstop and `wants_cpu` says it is slowed by the machine.
pub fn keep_waiting(elapsed: Duration, wall: Duration, wants_cpu: impl FnOnce() -> bool) -> bool {
    elapsed < wall * BACKSTOP_FACTOR && wants_cpu()
}

/// True when some task (thread) of process `pid` is running, waiting to run, or in an
/// uninterruptible wait (see the module documentation). False when none is, or when the
/// process is gone.
pub fn wants_cpu(pid: libc::pid_t) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().any(|t| {
        std::fs::read_to_string(t.path().join("stat"))
            .ok()
            .and_then(|stat| state_of(&stat))
            .is_some_and(|s| matches!(s, 'R' | 'D'))
    })
}

/// The state letter of a `/proc/<pid>/stat` line: the first field after the command name,
/// which is in parentheses and may hold anything (so it is found from the last `)`).
fn state_of(stat: &str) -> Option<char> {
    stat[stat.rfind(')')? + 1..].trim_start().chars().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_wall_time_only_for_a_run_that_wants_the_cpu_and_never_past_the_backstop() {
        let wall = Duration::from_millis(100);
        assert!(keep_waiting(Duration::from_millis(150), wall, || true));
        assert!(!keep_waiting(Duration::from_millis(150), wall, || false));
        assert!(!keep_waiting(wall * BACKSTOP_FACTOR, wall, || true));
    }

    #[test]
    fn the_state_is_read_past_a_command_name_that_holds_parentheses() {
        assert_eq!(state_of("123 (a) b) S 1 2 3"), Some('S'));
        assert_eq!(state_of("7 (nim) R 1"), Some('R'));
        assert_eq!(state_of("no parenthesis"), None);
    }

    #[test]
    fn a_busy_process_wants_the_cpu_and_a_sleeping_one_does_not() {
        let mut sleeper = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let mut busy = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .unwrap();
        // Give both a moment to settle into what they do.
        std::thread::sleep(Duration::from_millis(100));
        let asleep = (0..20).all(|_| !wants_cpu(sleeper.id() as i32));
        let wanting = (0..20).any(|_| wants_cpu(busy.id() as i32));
        for c in [&mut sleeper, &mut busy] {
            let _ = c.kill();
            let _ = c.wait();
        }
        assert!(asleep, "a sleeping process does not want the CPU");
        assert!(wanting, "a busy loop wants the CPU");
        assert!(
            !wants_cpu(busy.id() as i32),
            "a process that is gone wants nothing"
        );
    }
}
