//! From the raw facts of a child's end to one [`Ending`].
//!
//! The order follows DOMjudge's: time limits first, then the stack guard, memory, output,
//! other signals, and only then what the child itself reported. A run that is both slow and
//! wrong is a timeout; a segfault in the stack guard is a stack overflow, not a crash.

use super::child::ChildReport;
use super::protocol::Ending;
use super::worker::{ChildExit, WaitStatus};
use labgrade_spec::Limits;

/// Everything the classifier looks at.
pub struct Exit<'a> {
    /// wait()'s answer and the rusage.
    pub exit: &'a ChildExit,
    /// The limits in force.
    pub limits: &'a Limits,
    /// What the child reported on its pipe, if it got that far.
    pub report: Option<&'a ChildReport>,
    /// The library-mode fault handler saw a fault in the stack guard.
    pub stack_overflow_flag: bool,
    /// The SIGSYS handler saw this forbidden system call.
    pub forbidden: Option<i64>,
    /// A function run ended without a parseable report.
    pub report_missing: bool,
    /// The child reached its own end (so a missing report was taken from it).
    pub child_finished: bool,
    /// A program built by labgrade wrote its stack-overflow marker.
    pub marker_says_overflow: bool,
    /// The child's standard error (for allocation-failure messages).
    pub stderr: &'a str,
    /// A whole-program run (its exit status is an observation, not an error).
    pub is_program: bool,
}

/// The name of a signal (`SIGSEGV`), or `signal N`.
pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return format!("signal {sig}"),
    };
    name.to_string()
}

fn looks_out_of_memory(stderr: &str) -> bool {
    const SIGNS: [&str; 4] = [
        "std::bad_alloc",
        "memory allocation of",
        "Cannot allocate memory",
        "out of memory",
    ];
    SIGNS.iter().any(|s| stderr.contains(s))
}

/// The run's peak resident memory reached 90% of the limit: an allocation failing there
/// (malloc returning NULL, then a write through it) is the memory limit, not a plain crash.
fn near_memory_limit(e: &Exit<'_>) -> bool {
    e.exit.max_rss_kb >= e.limits.memory_mb.saturating_mul(1024) * 9 / 10
}

/// Classifies one run.
pub fn classify(e: &Exit<'_>) -> Ending {
    // The kernel's limit: a SIGKILL near it is RLIMIT_CPU's hard limit (the worker's own,
    // lower limit ends as `WaitStatus::CpuTimeout`).
    let cpu_limit_ms = e.limits.cpu_seconds as f64 * 1000.0;
    match e.exit.status {
        WaitStatus::WallTimeout => return Ending::WallTimeout,
        WaitStatus::CpuTimeout => return Ending::CpuTimeout,
        WaitStatus::Signaled(libc::SIGXCPU) => return Ending::CpuTimeout,
        WaitStatus::Signaled(libc::SIGKILL) if e.exit.cpu_ms >= cpu_limit_ms * 0.98 => {
            return Ending::CpuTimeout
        }
        _ => {}
    }
    if let WaitStatus::Signaled(sig) = e.exit.status {
        if sig == libc::SIGSYS {
            return Ending::Forbidden {
                syscall: e.forbidden.map(super::layers::syscall_name),
            };
        }
        if (sig == libc::SIGSEGV || sig == libc::SIGBUS)
            && (e.stack_overflow_flag || e.marker_says_overflow)
        {
            return Ending::StackOverflow;
        }
        if (sig == libc::SIGABRT || sig == libc::SIGSEGV)
            && (looks_out_of_memory(e.stderr) || near_memory_limit(e))
        {
            return Ending::MemoryLimit;
        }
        if sig == libc::SIGXFSZ {
            return Ending::OutputLimit;
        }
        return Ending::Signaled {
            signal: sig,
            name: signal_name(sig),
        };
    }
    let code = match e.exit.status {
        WaitStatus::Exited(c) => c,
        _ => -1,
    };
    if let Some(report) = e.report {
        if let Some(err) = &report.error {
            return err.ending();
        }
        if code == 0 {
            return Ending::Returned;
        }
    }
    if looks_out_of_memory(e.stderr) && code != 0 {
        return Ending::MemoryLimit;
    }
    if e.is_program {
        return Ending::Exited { code };
    }
    if e.report_missing && code == 0 && e.child_finished {
        // The child reached its own exit but its report was gone or garbled.
        return Ending::NoReport;
    }
    // A function case whose child left without reporting: exit() inside the student's code.
    Ending::Exited { code }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exit(status: WaitStatus, cpu_ms: f64) -> ChildExit {
        ChildExit {
            status,
            cpu_ms,
            max_rss_kb: 0,
        }
    }

    fn run(x: &ChildExit, flag: bool, stderr: &str, report: Option<&ChildReport>) -> Ending {
        classify(&Exit {
            exit: x,
            limits: &Limits::default(),
            report,
            stack_overflow_flag: flag,
            forbidden: None,
            report_missing: report.is_none(),
            child_finished: false,
            marker_says_overflow: false,
            stderr,
            is_program: false,
        })
    }

    #[test]
    fn order_of_verdicts() {
        let x = exit(WaitStatus::WallTimeout, 0.0);
        assert_eq!(run(&x, true, "", None), Ending::WallTimeout);
        let x = exit(WaitStatus::Signaled(libc::SIGXCPU), 2000.0);
        assert_eq!(run(&x, false, "", None), Ending::CpuTimeout);
        let x = exit(WaitStatus::Signaled(libc::SIGKILL), 2100.0);
        assert_eq!(run(&x, false, "", None), Ending::CpuTimeout);
        let x = exit(WaitStatus::Signaled(libc::SIGSEGV), 1.0);
        assert_eq!(run(&x, true, "", None), Ending::StackOverflow);
        assert_eq!(
            run(&x, false, "", None),
            Ending::Signaled {
                signal: libc::SIGSEGV,
                name: "SIGSEGV".into()
            }
        );
        let x = exit(WaitStatus::Signaled(libc::SIGABRT), 1.0);
        let msg = "terminate called after throwing an instance of 'std::bad_alloc'";
        assert_eq!(run(&x, false, msg, None), Ending::MemoryLimit);
        let x = exit(WaitStatus::Exited(0), 1.0);
        let report = ChildReport::default();
        assert_eq!(run(&x, false, "", Some(&report)), Ending::Returned);
        assert_eq!(run(&x, false, "", None), Ending::Exited { code: 0 });
    }
}
