//! Figure 10.62's C ABI (specs/miller-rabin/primes.h):
//!
//! ```c
//! void power(unsigned int a, unsigned int p, unsigned int n, unsigned int *result,
//!            test_result *whatnis);
//! test_result test_prime(unsigned int n);
//! ```
//!
//! `test_prime` draws its witness from labgrade's `rand_int` (operation 0 of `lg_world`).

use std::ffi::{c_int, c_uint};

use crate::kit::{world_call, Counted, Exported};

fn power_addr() -> usize {
    power as *const () as usize
}

fn test_prime_addr() -> usize {
    test_prime as *const () as usize
}

static COUNTED: &[Counted] = &[("power", power_addr), ("test_prime", test_prime_addr)];

/// `power`: `*result = a^p mod n`, `*whatnis` set on a non-trivial square root of 1.
///
/// # Safety
/// `result` and `whatnis` point to writable memory, as the header requires.
#[no_mangle]
pub unsafe extern "C" fn power(
    a: c_uint,
    p: c_uint,
    n: c_uint,
    result: *mut c_uint,
    whatnis: *mut c_int,
) {
    let mut w = i64::from(unsafe { *whatnis });
    let r = reference::miller_rabin::power(&mut Exported(COUNTED), a, p, n, &mut w);
    unsafe {
        *result = r;
        *whatnis = w as c_int;
    }
}

/// `test_prime`: one witness from `rand_int(2, n - 2)`.
#[no_mangle]
pub extern "C" fn test_prime(n: c_uint) -> c_int {
    reference::miller_rabin::test_prime(&mut Exported(COUNTED), n, &mut |lo, hi| {
        world_call(0, [lo, hi, 0, 0])
    }) as c_int
}
