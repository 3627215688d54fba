//! The reference cdylib's side of the call-counting protocol: the exported
//! `labgrade_counters` pointer and `labgrade_probe`, and the hand-written hooks the exported
//! functions call ([`enter`], [`exit`]) in place of `-finstrument-functions`.

use std::ffi::c_int;

use reference::instrument::Counters;

/// The block the host points the library at; null until then.
///
/// Exported under the same name as in `labgrade_hooks.c` so the host finds it with `dlsym`
/// in a reference library exactly as in an instrumented student library.
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mut labgrade_counters: *mut Counters = std::ptr::null_mut();

/// Hook called on entry by the reference's exported functions.
pub fn enter(addr: usize) {
    // SAFETY: the host sets the pointer once before any call, in a single-threaded child,
    // to a block that stays mapped for the life of the process.
    unsafe {
        let p = std::ptr::addr_of!(labgrade_counters).read();
        if let Some(c) = p.as_mut() {
            c.on_enter(addr as u64);
        }
    }
}

/// Hook called on return by the reference's exported functions.
pub fn exit(addr: usize) {
    // SAFETY: as in `enter`.
    unsafe {
        let p = std::ptr::addr_of!(labgrade_counters).read();
        if let Some(c) = p.as_mut() {
            c.on_exit(addr as u64);
        }
    }
}

/// Start-up check that counting works: the host calls it once and expects exactly one call
/// recorded at its address (a library whose hooks are silently glibc's no-ops records none).
#[no_mangle]
pub extern "C" fn labgrade_probe(x: c_int) -> c_int {
    enter(labgrade_probe as *const () as usize);
    let r = x.wrapping_add(1);
    exit(labgrade_probe as *const () as usize);
    r
}
