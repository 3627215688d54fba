//! A loaded library's own writable data, saved once and put back before each call of a batch.
//!
//! Calls of one submission that share a sandboxed child ([`super::batch`]) must each find
//! the submission as a fresh process would: its global and static variables as they were
//! right after loading (constructors run, labgrade's counter pointer installed). Those live
//! in the library's writable `PT_LOAD` segments (`.data`, `.bss`, the writable part of
//! `.got`); what the loader made read-only after relocation (`PT_GNU_RELRO`) is left alone.
//! Memory a call allocated stays allocated but unreachable: every pointer to it was in the
//! data put back. State outside the library (the C library's `rand` seed, a stream's
//! formatting flags) is not covered here; the batch resets what it can of it, and a spec
//! whose problem depends on more asks for a process per case.

use std::ffi::c_int;

/// The saved bytes of each writable range of one library.
#[derive(Debug, Default)]
pub struct Snapshot {
    ranges: Vec<(usize, Vec<u8>)>,
}

impl Snapshot {
    /// Saves the writable data of the loaded object whose segments hold `addr` (the address
    /// of one of its symbols). `None` when no loaded object holds it.
    pub fn of_object_holding(addr: usize) -> Option<Snapshot> {
        let ranges = writable_ranges(addr)?;
        let ranges = ranges
            .into_iter()
            .map(|(start, len)| {
                // SAFETY: a range of a loaded object's writable segment, mapped and readable.
                let bytes = unsafe { std::slice::from_raw_parts(start as *const u8, len) };
                (start, bytes.to_vec())
            })
            .collect();
        Some(Snapshot { ranges })
    }

    /// Bytes saved.
    pub fn len(&self) -> usize {
        self.ranges.iter().map(|(_, b)| b.len()).sum()
    }

    /// True when nothing is saved (an object with no writable data).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when a pointer-aligned word of the saved data lies in `lo..hi`: the library's
    /// globals, as loading left them, point there.
    pub fn points_into(&self, lo: usize, hi: usize) -> bool {
        const W: usize = std::mem::size_of::<usize>();
        self.ranges.iter().any(|(start, bytes)| {
            let skip = (W - start % W) % W;
            bytes
                .get(skip..)
                .unwrap_or_default()
                .chunks_exact(W)
                .map(|w| usize::from_ne_bytes(w.try_into().expect("a word")))
                .any(|v| (lo..hi).contains(&v))
        })
    }

    /// Puts the saved bytes back.
    ///
    /// # Safety
    /// No code may be using the object's data while this runs (between two calls, on the
    /// only thread), and the object must still be loaded.
    pub unsafe fn restore(&self) {
        for (start, bytes) in &self.ranges {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), *start as *mut u8, bytes.len());
        }
    }
}

/// What the `dl_iterate_phdr` callback looks for and finds.
struct Search {
    addr: usize,
    found: Option<Vec<(usize, usize)>>,
}

/// The writable ranges (start, length) of the loaded object whose segments hold `addr`.
fn writable_ranges(addr: usize) -> Option<Vec<(usize, usize)>> {
    let mut search = Search { addr, found: None };
    // SAFETY: the callback only reads the program headers the loader passes, and writes to
    // the `Search` whose pointer it is given.
    unsafe {
        libc::dl_iterate_phdr(Some(visit), (&mut search as *mut Search).cast());
    }
    search.found
}

unsafe extern "C" fn visit(
    info: *mut libc::dl_phdr_info,
    _size: libc::size_t,
    data: *mut libc::c_void,
) -> c_int {
    let search = &mut *data.cast::<Search>();
    let info = &*info;
    let base = info.dlpi_addr as usize;
    let phdrs = std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum));
    let holds = phdrs.iter().any(|p| {
        p.p_type == libc::PT_LOAD && {
            let lo = base + p.p_vaddr as usize;
            (lo..lo + p.p_memsz as usize).contains(&search.addr)
        }
    });
    if !holds {
        return 0;
    }
    let page = page_size();
    // What the loader made read-only after relocation: whole pages only.
    let relro = phdrs
        .iter()
        .find(|p| p.p_type == libc::PT_GNU_RELRO)
        .map(|p| {
            let lo = base + p.p_vaddr as usize;
            (lo / page * page, (lo + p.p_memsz as usize) / page * page)
        });
    let mut ranges = Vec::new();
    for p in phdrs
        .iter()
        .filter(|p| p.p_type == libc::PT_LOAD && p.p_flags & libc::PF_W != 0)
    {
        let lo = base + p.p_vaddr as usize;
        let hi = lo + p.p_memsz as usize;
        match relro {
            Some((rlo, rhi)) if rlo < hi && rhi > lo => {
                if lo < rlo {
                    ranges.push((lo, rlo - lo));
                }
                if rhi < hi {
                    ranges.push((rhi, hi - rhi));
                }
            }
            _ => ranges.push((lo, hi - lo)),
        }
    }
    search.found = Some(ranges);
    1
}

fn page_size() -> usize {
    // SAFETY: plain sysconf.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(p).unwrap_or(4096).max(4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A global of this test binary: the snapshot of the object holding it (the test
    /// executable) must bring it back.
    static mut COUNTER: u64 = 5;

    /// A global holding COUNTER's address, as a global holding a heap block's would.
    static POINTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

    #[test]
    fn a_pointer_in_the_data_is_seen() {
        let target = Box::into_raw(Box::new(7u64)) as usize;
        POINTER.store(target, std::sync::atomic::Ordering::SeqCst);
        let addr = std::ptr::addr_of!(POINTER) as usize;
        let snap = Snapshot::of_object_holding(addr).expect("the test binary is loaded");
        assert!(snap.points_into(target, target + 8));
        assert!(!snap.points_into(target + 8, target + 16));
    }

    #[test]
    fn a_snapshot_brings_a_global_back() {
        let addr = std::ptr::addr_of!(COUNTER) as usize;
        let snap = Snapshot::of_object_holding(addr).expect("the test binary is loaded");
        assert!(!snap.is_empty());
        // Restoring every writable range of the test binary would also put back what the
        // other tests' threads write: it is done in a forked child, where this thread is
        // the only one, and the child says by its exit status what it found.
        // SAFETY: the child only writes and reads memory, then leaves with _exit.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                *std::ptr::addr_of_mut!(COUNTER) = 99;
                snap.restore();
                let back = std::ptr::read_volatile(std::ptr::addr_of!(COUNTER));
                libc::_exit(if back == 5 { 0 } else { 1 });
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            assert!(libc::WIFEXITED(status), "the restore crashed: {status:#x}");
            assert_eq!(libc::WEXITSTATUS(status), 0, "COUNTER was not put back");
        }
        assert!(
            Snapshot::of_object_holding(0).is_none(),
            "no object holds 0"
        );
    }
}
