//! What one submission's build may spend, all its tools together.
//!
//! Each jailed tool has its own rlimits, but a build runs many (a compile per source, the
//! counting and sanitizer builds, objcopy, a second compile for warnings, cargo twice), so
//! per-tool limits alone let one submission spend many times any of them. The budget is
//! shared by every tool of one build: each starts with its CPU limit cut to what is left,
//! and what it used (its own CPU and that of the processes it waited for, from `wait4`) is
//! taken off. CPU time does not depend on how loaded the machine is, so a build that spends
//! its budget is the submission's `build-error`, the same at any `-j`; the wall clock, which
//! does, stays the machine's.
//!
//! A class builds at most [`concurrent_builds`] submissions at once, so the memory the
//! builds of a class can take is bounded by the machine, not by `-j`.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::jail::JailLimits;

/// The budget of one build.
#[derive(Debug)]
pub struct Budget {
    cpu: Duration,
    wall: Duration,
    start: Instant,
    spent: Mutex<Duration>,
    /// Why a tool was stopped at a CPU limit: the build is over (no fallback is tried).
    halted: Mutex<Option<String>>,
}

impl Budget {
    /// A fresh budget of `cpu` (all tools together) and `wall` (from now).
    pub fn new(cpu: Duration, wall: Duration) -> Budget {
        Budget {
            cpu,
            wall,
            start: Instant::now(),
            spent: Mutex::new(Duration::ZERO),
            halted: Mutex::new(None),
        }
    }

    /// The CPU budget, whole.
    pub fn cpu(&self) -> Duration {
        self.cpu
    }

    /// CPU time left.
    pub fn cpu_left(&self) -> Duration {
        self.cpu
            .saturating_sub(*self.spent.lock().expect("the build budget"))
    }

    /// Wall-clock time left.
    pub fn wall_left(&self) -> Duration {
        self.wall.saturating_sub(self.start.elapsed())
    }

    /// Ends the build: a tool was stopped at a CPU limit, and a second try (the build
    /// without counting, say) would only spend as much again.
    pub fn halt(&self, why: &str) {
        let mut halted = self.halted.lock().expect("the build budget");
        halted.get_or_insert_with(|| why.to_string());
    }

    /// Why the build is over, if it is: a tool stopped at a CPU limit, or no CPU left.
    pub fn over(&self) -> Option<String> {
        let halted = self.halted.lock().expect("the build budget").clone();
        halted.or_else(|| self.cpu_left().is_zero().then(|| self.spent_all()))
    }

    /// The build used all of its CPU budget: said when a tool whose limit was cut to what was
    /// left is stopped at it (a few milliseconds may still be left on the books).
    pub fn spent_all(&self) -> String {
        format!(
            "this submission's build used all of labgrade's budget of {} s of CPU for one \
             build (every compile, link and build script together)\n",
            self.cpu.as_secs()
        )
    }

    /// Takes `used` off.
    pub fn spend(&self, used: Duration) {
        *self.spent.lock().expect("the build budget") += used;
    }

    /// `limits` cut to what is left: CPU seconds rounded up (a tool always gets at least
    /// one), and the wall clock. Also whether the CPU limit is the budget's rather than the
    /// tool's own.
    pub fn cut(&self, limits: JailLimits) -> (JailLimits, bool) {
        let left = self.cpu_left();
        let secs = left.as_secs() + u64::from(left.subsec_nanos() > 0);
        let by_budget = secs < limits.cpu_seconds;
        (
            JailLimits {
                cpu_seconds: limits.cpu_seconds.min(secs.max(1)),
                wall: limits.wall.min(self.wall_left()),
                ..limits
            },
            by_budget,
        )
    }
}

/// How many submissions a class may build at once on this machine: every build may take
/// its tools' address space (plus what the compiler driver, assembler and linker beside it
/// take), and together they stay within the machine's memory, whatever `-j` asks for.
pub fn concurrent_builds(limits: &JailLimits, jobs: usize) -> usize {
    // SAFETY: sysconf has no preconditions.
    let (pages, page) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let memory = u64::try_from(pages)
        .unwrap_or(0)
        .saturating_mul(u64::try_from(page).unwrap_or(0));
    slots_for(memory, limits.address_space, jobs)
}

fn slots_for(memory: u64, address_space: u64, jobs: usize) -> usize {
    let per_build = address_space.saturating_add(512 << 20).max(1);
    let fit = usize::try_from(memory / per_build).unwrap_or(usize::MAX);
    jobs.min(fit).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_gets_what_is_left_of_one_budget() {
        let b = Budget::new(Duration::from_secs(60), Duration::from_secs(300));
        let tool = JailLimits {
            cpu_seconds: 20,
            ..JailLimits::default()
        };
        let (cut, by_budget) = b.cut(tool);
        assert_eq!((cut.cpu_seconds, by_budget), (20, false));
        assert!(cut.wall <= Duration::from_secs(300) && cut.wall > Duration::from_secs(290));
        b.spend(Duration::from_millis(45_500));
        let (cut, by_budget) = b.cut(tool);
        assert_eq!(cut.cpu_seconds, 15, "14.5 s left rounds up");
        assert!(by_budget);
        b.spend(Duration::from_secs(20));
        assert_eq!(b.cpu_left(), Duration::ZERO);
        assert_eq!(b.cut(tool).0.cpu_seconds, 1);
        assert!(b.over().unwrap().contains("budget of 60 s"));
        let fresh = Budget::new(Duration::from_secs(60), Duration::from_secs(300));
        assert_eq!(fresh.over(), None);
        fresh.halt("cc1 bomb\n");
        fresh.halt("later\n");
        assert_eq!(fresh.over().as_deref(), Some("cc1 bomb\n"));
    }

    #[test]
    fn a_class_builds_only_as_many_at_once_as_memory_holds() {
        let gib = 1u64 << 30;
        // 24 GiB, 4 GiB per tool: 5 builds at once, whatever -j says.
        assert_eq!(slots_for(24 * gib, 4 * gib, 64), 5);
        assert_eq!(slots_for(24 * gib, 4 * gib, 2), 2);
        // Never none.
        assert_eq!(slots_for(gib, 4 * gib, 8), 1);
        assert!(concurrent_builds(&JailLimits::default(), 1000) >= 1);
    }
}
