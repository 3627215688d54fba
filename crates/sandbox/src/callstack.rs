//! The stack a library run's student call runs on, mapped once by the worker.
//!
//! A run's call needs a stack of the case's size (`stack_mb`) with a guard below it, so that
//! runaway recursion faults where the SIGSEGV handler can tell it from any other fault.
//! Spawning a thread with that stack in every child cost more than anything else the child
//! did (the thread's creation, its malloc arena, tearing it down: about a fifth of a run).
//! The worker instead maps the stack and its guard once, before it forks; the child switches
//! its own (only) thread onto it for the call ([`psm::on_stack`]) and back. The mapping is
//! private and never touched by the worker, so every child starts with untouched zero pages:
//! nothing one run wrote there is visible to the next.

/// Bytes of `PROT_NONE` below the stack: a frame that jumps further is still recognised by
/// its stack pointer (see `child::on_fault`).
pub const GUARD: usize = 1 << 20;

/// A stack and its guard, mapped in the worker and inherited by every child it forks.
#[derive(Debug)]
pub struct CallStack {
    /// Start of the mapping (the guard).
    base: *mut libc::c_void,
    /// Usable bytes above the guard.
    size: usize,
}

impl CallStack {
    /// Maps a stack of `size` bytes (rounded up to whole pages) above a guard. Reserved, not
    /// committed: pages exist only once a child touches them.
    pub fn new(size: usize) -> std::io::Result<CallStack> {
        let size = CallStack::rounded(size);
        // SAFETY: an anonymous private mapping with no address hint; checked below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                GUARD + size,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_STACK,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        let stack = CallStack { base, size };
        // SAFETY: the range lies inside the mapping just made.
        if unsafe { libc::mprotect(stack.low().cast(), size, libc::PROT_READ | libc::PROT_WRITE) }
            != 0
        {
            return Err(std::io::Error::last_os_error());
        }
        Ok(stack)
    }

    /// The usable size a stack asked to be `size` bytes gets.
    pub fn rounded(size: usize) -> usize {
        size.max(64 << 10).next_multiple_of(page_size())
    }

    /// Usable bytes.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Lowest usable address (just above the guard).
    pub fn low(&self) -> *mut u8 {
        // SAFETY: inside the mapping.
        unsafe { self.base.cast::<u8>().add(GUARD) }
    }

    /// Runs `f` on this stack and returns what it returns, on the caller's stack again.
    ///
    /// `f` must not unwind: a panic is caught here and returned as `Err`.
    pub fn run<R>(&self, f: impl FnOnce() -> R) -> std::thread::Result<R> {
        let f = std::panic::AssertUnwindSafe(f);
        // SAFETY: `low()..low()+size` is a writable, page-aligned region of this mapping,
        // with a PROT_NONE guard below it; nothing else uses it while `f` runs (one thread,
        // one call at a time); the callback catches its own panics, so none unwinds across
        // the stack switch.
        unsafe { psm::on_stack(self.low(), self.size, move || std::panic::catch_unwind(f)) }
    }
}

impl Drop for CallStack {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly what `new` mapped.
        unsafe {
            libc::munmap(self.base, GUARD + self.size);
        }
    }
}

fn page_size() -> usize {
    // SAFETY: plain sysconf.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(p).unwrap_or(4096).max(4096)
}

/// An alternate signal stack for the worker's thread, inherited by every child: the SIGSEGV
/// handler must run somewhere when the call's stack is exhausted. Mapped once, never freed.
pub fn install_alt_stack() -> std::io::Result<()> {
    let len = 256 * 1024;
    // SAFETY: anonymous private mapping; checked.
    let mem = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if mem == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error());
    }
    let ss = libc::stack_t {
        ss_sp: mem,
        ss_flags: 0,
        ss_size: len,
    };
    // SAFETY: a valid stack_t for a mapping that lives as long as the process.
    if unsafe { libc::sigaltstack(&ss, std::ptr::null_mut()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_on_the_mapped_stack_and_returns() {
        let stack = CallStack::new(1 << 20).unwrap();
        let lo = stack.low() as usize;
        let hi = lo + stack.size();
        let (inside, value) = stack
            .run(|| {
                let local = 0u8;
                let at = std::hint::black_box(&local) as *const u8 as usize;
                (at >= lo && at < hi, 41 + 1)
            })
            .unwrap();
        assert!(inside, "the closure's locals are on the mapped stack");
        assert_eq!(value, 42);
    }

    #[test]
    fn a_panic_comes_back_as_an_error() {
        let stack = CallStack::new(1 << 20).unwrap();
        assert!(stack.run(|| panic!("boom")).is_err());
        // The stack is usable again afterwards.
        assert_eq!(stack.run(|| 7).unwrap(), 7);
    }
}
