//! What every kit problem's exports share: a probe that reports counted calls to the
//! instrumentation protocol under the exported functions' addresses, and labgrade's library
//! (`lg_world`, which the sandboxed child points at its table, as it does in a student's
//! library built with `specs/lib/lg_world.h`).

use std::ffi::{c_int, c_void};
use std::fmt;

use reference::kit::Probe;

use crate::instrument::{enter, exit};

/// A counted function's name, and how to get its export's address.
pub type Counted = (&'static str, fn() -> usize);

/// Reports each counted function under the address `dlsym` gives for its export.
pub struct Exported(pub &'static [Counted]);

impl Exported {
    fn addr(&self, function: &str) -> Option<usize> {
        self.0
            .iter()
            .find(|(n, _)| *n == function)
            .map(|(_, a)| a())
    }
}

impl Probe for Exported {
    fn enter(&mut self, function: &'static str, _arg: fmt::Arguments<'_>) {
        if let Some(a) = self.addr(function) {
            enter(a);
        }
    }

    fn exit(&mut self, function: &'static str) {
        if let Some(a) = self.addr(function) {
            exit(a);
        }
    }
}

/// `struct lg_world` of lg_world.h.
#[repr(C)]
pub struct LgWorld {
    this: *mut c_void,
    call: unsafe extern "C" fn(*mut c_void, c_int, i64, i64, i64, i64) -> i64,
}

/// Set by labgrade's child before it calls an export.
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mut lg_world: *const LgWorld = std::ptr::null();

/// Calls operation `op` of labgrade's library; outside labgrade there is none, and the
/// export stops as the header's wrappers do.
pub fn world_call(op: c_int, args: [i64; 4]) -> i64 {
    // SAFETY: labgrade's child sets `lg_world` to a live table before calling any export,
    // and nothing changes it during the call.
    let table = unsafe { std::ptr::addr_of!(lg_world).read() };
    if table.is_null() {
        eprintln!("this function is labgrade's: run the reference with labgrade");
        std::process::abort();
    }
    // SAFETY: see above.
    unsafe { ((*table).call)((*table).this, op, args[0], args[1], args[2], args[3]) }
}
