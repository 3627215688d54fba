//! Memory shared between the worker and its forked child.
//!
//! Mapped `MAP_SHARED` once per worker, before any fork, so that what the child writes there
//! (call counters, the stack bounds of the student's call, the stack-overflow flag) survives
//! the child's death and the worker can read it afterwards.

use std::sync::atomic::{AtomicPtr, Ordering};

use labgrade_reference::instrument::Counters;

use super::protocol::{Counts, Trace};

/// Facts the child publishes about itself for the worker to read after it died.
#[repr(C)]
#[derive(Debug, Default)]
pub struct Status {
    /// Lowest usable address of the student call's stack.
    pub stack_lo: u64,
    /// One past its highest address.
    pub stack_hi: u64,
    /// Set by the SIGSEGV handler when the fault hit the stack guard.
    pub stack_overflow: u64,
    /// The faulting address of the last SIGSEGV/SIGBUS.
    pub fault_addr: u64,
    /// Set by the SIGSYS handler: a system call the sandbox forbids was attempted.
    pub forbidden: u64,
    /// Its number.
    pub forbidden_syscall: i64,
    /// Set by the child just before it writes its report and leaves.
    pub finished: u64,
    /// Set by the child when, at its end, the result pipe was no longer the one it was given
    /// or would not take the whole report: student code reached the channel.
    pub channel_lost: u64,
    /// A program run's exec listener in the child, plus one (0: none); written before the
    /// ready mark. See [`super::execgate`].
    pub exec_listener: u64,
}

/// The shared block: counters first, then the status.
#[repr(C)]
pub struct SharedBlock {
    /// Written by instrumentation hooks.
    pub counters: Counters,
    /// Written by the child's own code.
    pub status: Status,
}

impl SharedBlock {
    /// The counts the hooks wrote, named after `names` (the counted functions, in the
    /// order their addresses were installed).
    pub fn counts(&self, names: &[String]) -> Counts {
        let c = &self.counters;
        let n = (c.nfuncs as usize).min(names.len());
        let mut counts = Counts {
            total_max_depth: c.total_max_depth.max(0) as u64,
            other_calls: c.other_calls,
            events: c.trace_len,
            forged: c.forged,
            ..Counts::default()
        };
        for (i, name) in names.iter().enumerate().take(n) {
            counts.calls.insert(name.clone(), c.calls[i]);
            counts
                .max_depth
                .insert(name.clone(), c.max_depth[i].max(0) as u64);
        }
        let kept = (c.trace_len as usize).min(labgrade_reference::instrument::TRACE_LEN);
        counts.trace = Trace {
            names: names.to_vec(),
            packed: c.trace[..kept].to_vec(),
        };
        counts
    }
}

/// The child's view of the block, for the signal handler (which cannot take arguments).
pub(crate) static STATUS: AtomicPtr<Status> = AtomicPtr::new(std::ptr::null_mut());

/// An anonymous shared mapping holding one [`SharedBlock`].
pub struct Shared {
    ptr: *mut SharedBlock,
    len: usize,
}

impl Shared {
    /// Maps a zeroed block.
    pub fn new() -> std::io::Result<Shared> {
        let len = std::mem::size_of::<SharedBlock>().next_multiple_of(4096);
        // SAFETY: an anonymous mapping with no address hint; checked for MAP_FAILED.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Shared { ptr: p.cast(), len })
    }

    /// Zeroes the block before a run.
    pub fn clear(&self) {
        // SAFETY: the mapping is `len` bytes, writable, and no child is running.
        unsafe { std::ptr::write_bytes(self.ptr.cast::<u8>(), 0, self.len) }
    }

    /// The block.
    ///
    /// # Safety
    /// The caller must be the only writer at the time (the worker between runs, or the
    /// single-threaded part of the child).
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn block(&self) -> &mut SharedBlock {
        &mut *self.ptr
    }

    /// Raw pointer to the counters, to hand to an instrumented library.
    pub fn counters_ptr(&self) -> *mut Counters {
        // SAFETY: field projection inside the mapping.
        unsafe { std::ptr::addr_of_mut!((*self.ptr).counters) }
    }

    /// Publishes the status pointer for the child's signal handler.
    pub fn publish_status(&self) {
        // SAFETY: field projection inside the mapping.
        let p = unsafe { std::ptr::addr_of_mut!((*self.ptr).status) };
        STATUS.store(p, Ordering::SeqCst);
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly what `new` mapped.
        unsafe {
            libc::munmap(self.ptr.cast(), self.len);
        }
    }
}
