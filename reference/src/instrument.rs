//! The call-counting protocol shared by labgrade, instrumented student libraries and the
//! reference cdylib.
//!
//! Student C/C++ code is built with `-finstrument-functions` and linked with labgrade's own
//! hook object (`labgrade_hooks.c`, hidden visibility so glibc's no-op hooks never win). The
//! hooks write into a [`Counters`] block that the sandboxed child maps `MAP_SHARED` before it
//! calls the student, so the worker can still read call counts and the depth reached after the
//! child died of a stack overflow. The reference cdylib is Rust and cannot be instrumented by a
//! compiler, so it calls the same hooks by hand (its own `instrument` module, which exports
//! `labgrade_counters` and `labgrade_probe`): it is graded through the very same path as a
//! student. Those exports are not in this rlib, which labgrade links.
//!
//! The layout is `#[repr(C)]` and mirrored field for field in `labgrade_hooks.c`; change both
//! together.

/// Largest number of functions whose calls are counted one by one.
pub const MAX_FUNCS: usize = 32;
/// Number of call events kept in the trace (later calls are only counted).
pub const TRACE_LEN: usize = 4096;
/// Written by the host before a run; hooks ignore a block without it.
pub const MAGIC: u64 = 0x4c41_4247_5241_4445; // "LABGRADE"

/// Shared counters, written by the hooks inside the child, read by the worker.
#[repr(C)]
#[derive(Debug)]
pub struct Counters {
    /// [`MAGIC`] once the host has filled `addr`.
    pub magic: u64,
    /// Number of valid entries in `addr`.
    pub nfuncs: u64,
    /// Entry address of each tracked function (as `dlsym` returns it).
    pub addr: [u64; MAX_FUNCS],
    /// Calls of each tracked function.
    pub calls: [u64; MAX_FUNCS],
    /// Frames of each tracked function now on the stack.
    pub depth: [i64; MAX_FUNCS],
    /// Largest value `depth` reached.
    pub max_depth: [i64; MAX_FUNCS],
    /// Frames of any instrumented function now on the stack.
    pub total_depth: i64,
    /// Largest value `total_depth` reached.
    pub total_max_depth: i64,
    /// Calls of instrumented functions that are not in `addr` (helpers).
    pub other_calls: u64,
    /// Number of events written to `trace` (may exceed [`TRACE_LEN`]; later ones are dropped).
    pub trace_len: u64,
    /// Entry events in order: `index | (depth << 8)` where index is the tracked function's
    /// index or 255 for an untracked one, depth the total depth after entering.
    pub trace: [u32; TRACE_LEN],
    /// Byte size of each tracked function's code: set for Rust builds only, whose `mcount`
    /// hook knows a function by an address inside it (see labgrade_hooks.c).
    pub size: [u64; MAX_FUNCS],
    /// Calls the student's code made to the profiling hooks by hand (its
    /// `__cyg_profile_func_enter/exit`, renamed in the counting build to labgrade's
    /// `labgrade_hand_called_enter/exit`): any makes the counts untrustworthy.
    pub forged: u64,
}

impl Counters {
    /// Clears every counter and installs the tracked addresses.
    pub fn reset(&mut self, addrs: &[u64]) {
        let n = addrs.len().min(MAX_FUNCS);
        self.magic = 0;
        self.nfuncs = n as u64;
        self.addr = [0; MAX_FUNCS];
        self.addr[..n].copy_from_slice(&addrs[..n]);
        self.calls = [0; MAX_FUNCS];
        self.depth = [0; MAX_FUNCS];
        self.max_depth = [0; MAX_FUNCS];
        self.total_depth = 0;
        self.total_max_depth = 0;
        self.other_calls = 0;
        self.trace_len = 0;
        self.size = [0; MAX_FUNCS];
        self.forged = 0;
        self.magic = MAGIC;
    }

    /// Like [`Counters::reset`], with each tracked function's code size (for `mcount`).
    pub fn reset_sized(&mut self, addrs: &[u64], sizes: &[u64]) {
        self.reset(addrs);
        self.magic = 0;
        let n = sizes.len().min(MAX_FUNCS);
        self.size[..n].copy_from_slice(&sizes[..n]);
        self.magic = MAGIC;
    }

    /// Records entry into the function at `addr`.
    pub fn on_enter(&mut self, addr: u64) {
        if self.magic != MAGIC {
            return;
        }
        self.total_depth += 1;
        if self.total_depth > self.total_max_depth {
            self.total_max_depth = self.total_depth;
        }
        let n = (self.nfuncs as usize).min(MAX_FUNCS);
        let mut index = 255u32;
        for i in 0..n {
            if self.addr[i] == addr {
                self.calls[i] += 1;
                self.depth[i] += 1;
                if self.depth[i] > self.max_depth[i] {
                    self.max_depth[i] = self.depth[i];
                }
                index = i as u32;
                break;
            }
        }
        if index == 255 {
            self.other_calls += 1;
        }
        let slot = self.trace_len as usize;
        if slot < TRACE_LEN {
            let depth = self.total_depth.clamp(0, 0x00ff_ffff) as u32;
            self.trace[slot] = index | (depth << 8);
        }
        self.trace_len += 1;
    }

    /// Records the return from the function at `addr`.
    pub fn on_exit(&mut self, addr: u64) {
        if self.magic != MAGIC {
            return;
        }
        self.total_depth -= 1;
        let n = (self.nfuncs as usize).min(MAX_FUNCS);
        for i in 0..n {
            if self.addr[i] == addr {
                self.depth[i] -= 1;
                break;
            }
        }
    }
}
