//! The reference's time on a case's input, from which a run's CPU limit is derived
//! ([`crate::spec::Limits::derived`]), measured so that it does not move with the load.
//!
//! It was the reference's wall time: on a machine busy with other work (a class graded at a
//! `-j` above the core count, a shared CI runner), the reference took longer, the limits
//! rose, and a slow submission passed in one grading and timed out in the next. Now it is
//! the CPU time the process spends computing the reference (which waiting for a core does
//! not add to; a process CPU clock, as an expensive reference runs on a thread of its own,
//! see `problems::memo`, while the session waits for it: nothing else of labgrade's runs
//! then), put on a coarse grid (the next power of two milliseconds), so that what is left
//! of the noise (caches shared with other work) rarely moves a limit at all. A limit is
//! still a function of the machine's speed, as every time limit is; a fixture that must be
//! the same everywhere sets `cpu_ms` itself.

/// CPU time used by this process, every thread, in milliseconds.
pub fn process_cpu_ms() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime fills the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1000.0 + ts.tv_nsec as f64 / 1e6
}

/// `ms` rounded up to the grid: the next power of two milliseconds, at least 1.
pub fn on_grid(ms: f64) -> f64 {
    if ms.is_nan() || ms <= 1.0 {
        return 1.0;
    }
    2f64.powi(ms.log2().ceil() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_go_up_to_the_next_power_of_two() {
        assert_eq!(on_grid(0.0), 1.0);
        assert_eq!(on_grid(f64::NAN), 1.0);
        assert_eq!(on_grid(1.0), 1.0);
        assert_eq!(on_grid(1.5), 2.0);
        assert_eq!(on_grid(16.0), 16.0);
        assert_eq!(on_grid(16.1), 32.0);
        assert_eq!(on_grid(140.6), 256.0);
    }

    #[test]
    fn the_clock_counts_computing() {
        // (Other tests' threads share this process's clock: only a lower bound holds here.)
        let before = process_cpu_ms();
        let start = std::time::Instant::now();
        let mut x = 0u64;
        while start.elapsed() < std::time::Duration::from_millis(30) {
            x = x.wrapping_add(std::hint::black_box(1));
        }
        std::hint::black_box(x);
        assert!(process_cpu_ms() - before >= 10.0, "a busy loop uses CPU");
    }
}
