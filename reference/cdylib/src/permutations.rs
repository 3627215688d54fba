//! The handout's C ABI (specs/permutations/permute.h):
//!
//! ```c
//! void RecursivePermute(string s, int k);   /* string: char * */
//! ```
//!
//! It prints through the process's standard output, as `printf` would.

use std::ffi::{c_char, c_int, CStr};
use std::io::Write;

use crate::kit::{Counted, Exported};

fn permute_addr() -> usize {
    RecursivePermute as *const () as usize
}

static COUNTED: &[Counted] = &[("RecursivePermute", permute_addr)];

/// `RecursivePermute(s, k)`: prints the permutations and restores `s`.
///
/// # Safety
/// `s` is a writable NUL-terminated string and `0 <= k <= strlen(s)`.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn RecursivePermute(s: *mut c_char, k: c_int) {
    let len = unsafe { CStr::from_ptr(s) }.to_bytes().len();
    let letters = unsafe { std::slice::from_raw_parts_mut(s as *mut u8, len) };
    let mut out = String::new();
    let k = usize::try_from(k).unwrap_or(0);
    reference::permutations::recursive_permute(&mut Exported(COUNTED), letters, k, &mut out);
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
}
