//! The C ABI of `specs/turnpike/turnpike.h`, and the cdylib's `turnpike` and `place`.
//!
//! ```c
//! typedef struct lg_dist_set *dist_set;
//! struct lg_dist_ops {
//!     int  (*find_max)(dist_set D);
//!     int  (*delete_max)(dist_set D);
//!     int  (*contains)(dist_set D, int d);
//!     void (*delete_dist)(dist_set D, int d);
//!     void (*insert_dist)(dist_set D, int d);
//!     int  (*is_empty)(dist_set D);
//!     unsigned int (*size)(dist_set D);
//! };
//! struct lg_dist_set { const struct lg_dist_ops *ops; void *impl; };
//!
//! int turnpike(int x[], dist_set D, unsigned int n);
//! int place(int x[], dist_set D, unsigned int n, int left, int right);
//! ```
//!
//! The distance set is whoever made `D`: in a graded run, labgrade's instrumented world in
//! the sandboxed child. A student's library calls it through the header's `static inline`
//! wrappers (`find_max(D)`, `delete_dist(d, D)`, ...), so it has no undefined symbol; the
//! reference calls the same table. [`DistOps`] and [`DistSet`] (in the rlib,
//! `labgrade_reference::turnpike::ffi`) mirror the header field for field: change both
//! together.
//!
//! The exported functions are `labgrade_reference::turnpike::turnpike_body` and `place_body` with the
//! recursion going through the exported `place`, and each reports entry and return to
//! [`crate::instrument`], standing in for the hooks of an instrumented student build.

use std::ffi::{c_int, c_uint};

use reference::turnpike::ffi::DistSet;
use reference::turnpike::{place_body, turnpike_body, DistanceSet, Points, Search};

use crate::instrument::{enter, exit};

/// A `dist_set` seen as a [`DistanceSet`].
struct CSet(*mut DistSet);

impl DistanceSet for CSet {
    fn find_max(&mut self) -> i32 {
        // SAFETY (each method): the pointer is the `dist_set` the caller passed to
        // `turnpike`/`place`, valid for the call, with a complete ops table.
        unsafe { ((*(*self.0).ops).find_max)(self.0) }
    }
    fn delete_max(&mut self) -> i32 {
        unsafe { ((*(*self.0).ops).delete_max)(self.0) }
    }
    fn contains(&mut self, d: i32) -> bool {
        unsafe { ((*(*self.0).ops).contains)(self.0, d) != 0 }
    }
    fn delete(&mut self, d: i32) {
        unsafe { ((*(*self.0).ops).delete_dist)(self.0, d) }
    }
    fn insert(&mut self, d: i32) {
        unsafe { ((*(*self.0).ops).insert_dist)(self.0, d) }
    }
    fn is_empty(&mut self) -> bool {
        unsafe { ((*(*self.0).ops).is_empty)(self.0) != 0 }
    }
}

/// The caller's `int x[]` (n + 1 elements).
struct RawPoints(*mut c_int);

impl Points for RawPoints {
    fn get(&self, j: usize) -> i32 {
        // SAFETY: the algorithm only touches x[1..n], inside the caller's n + 1 ints.
        unsafe { *self.0.add(j) }
    }
    fn set(&mut self, j: usize, v: i32) {
        // SAFETY: as in `get`.
        unsafe { *self.0.add(j) = v }
    }
}

/// Recursion through the exported `place`, so each call is counted like a student's.
struct Exported {
    n: c_uint,
}

impl Search<CSet, RawPoints> for Exported {
    fn place(&mut self, x: &mut RawPoints, d: &mut CSet, _n: usize, left: i64, right: i64) -> bool {
        // SAFETY: the same x and D this call received.
        unsafe { place(x.0, d.0, self.n, left as c_int, right as c_int) != 0 }
    }
}

fn turnpike_addr() -> usize {
    turnpike as *const () as usize
}

fn place_addr() -> usize {
    place as *const () as usize
}

/// Figure 10.64: reconstructs x\[1..n\] from D; TRUE (1) with D empty, or FALSE (0) with D as
/// it was given.
///
/// # Safety
///
/// `x` must point to n + 1 ints and `d` to a valid `dist_set`; n must be at least 3.
#[no_mangle]
pub unsafe extern "C" fn turnpike(x: *mut c_int, d: *mut DistSet, n: c_uint) -> c_int {
    enter(turnpike_addr());
    let found = if x.is_null() || d.is_null() || n < 3 {
        false
    } else {
        let mut t = Exported { n };
        turnpike_body(&mut RawPoints(x), &mut CSet(d), n as usize, &mut t)
    };
    exit(turnpike_addr());
    found as c_int
}

/// Figure 10.65: places x\[left..right\]; on FALSE, D is as it was on entry.
///
/// # Safety
///
/// As for [`turnpike`], with x\[1..left-1\] and x\[right+1..n\] already placed.
#[no_mangle]
pub unsafe extern "C" fn place(
    x: *mut c_int,
    d: *mut DistSet,
    n: c_uint,
    left: c_int,
    right: c_int,
) -> c_int {
    enter(place_addr());
    let mut t = Exported { n };
    let found = place_body(
        &mut RawPoints(x),
        &mut CSet(d),
        n as usize,
        i64::from(left),
        i64::from(right),
        &mut t,
    );
    exit(place_addr());
    found as c_int
}

#[cfg(test)]
mod tests {
    use super::*;
    use reference::turnpike::ffi::DistOps;
    use reference::turnpike::{distances, random_points, reconstruct, Multiset};
    use std::ffi::c_void;

    unsafe fn set<'a>(d: *mut DistSet) -> &'a mut Multiset {
        &mut *((*d).imp as *mut Multiset)
    }
    unsafe extern "C" fn t_find_max(d: *mut DistSet) -> c_int {
        set(d).find_max()
    }
    unsafe extern "C" fn t_delete_max(d: *mut DistSet) -> c_int {
        set(d).delete_max()
    }
    unsafe extern "C" fn t_contains(d: *mut DistSet, v: c_int) -> c_int {
        set(d).contains(v) as c_int
    }
    unsafe extern "C" fn t_delete(d: *mut DistSet, v: c_int) {
        set(d).delete(v)
    }
    unsafe extern "C" fn t_insert(d: *mut DistSet, v: c_int) {
        set(d).insert(v)
    }
    unsafe extern "C" fn t_is_empty(d: *mut DistSet) -> c_int {
        set(d).is_empty() as c_int
    }
    unsafe extern "C" fn t_size(d: *mut DistSet) -> c_uint {
        set(d).size() as c_uint
    }
    unsafe extern "C" fn t_count(d: *mut DistSet, v: c_int) -> c_uint {
        set(d).count(v)
    }
    static OPS: DistOps = DistOps {
        find_max: t_find_max,
        delete_max: t_delete_max,
        contains: t_contains,
        delete_dist: t_delete,
        insert_dist: t_insert,
        is_empty: t_is_empty,
        size: t_size,
        count: t_count,
    };

    /// The exported functions do exactly what the counted reference does, operation by
    /// operation. They report to `crate::instrument`'s process-wide counters, which other
    /// tests install while they run, so this runs in a child process of the test binary.
    #[test]
    fn exports_match_the_counted_reference() {
        let out = crate::test_child::run("turnpike::tests::exports_child", "turnpike_exports", b"");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("exports agree"), "{text}");
    }

    #[test]
    #[ignore = "child process of exports_match_the_counted_reference"]
    fn exports_child() {
        if !crate::test_child::is_child("turnpike_exports") {
            return;
        }
        let worked = vec![1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10];
        let broken = vec![1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 5, 7, 8, 10];
        for ds in [worked, broken, distances(&random_points(9, 40))] {
            let n = reference::turnpike::points_for(ds.len()).unwrap();
            let mut want = Multiset::from_distances(&ds);
            want.start_log();
            let run = reconstruct(&mut want, n, false);
            let mut got = Multiset::from_distances(&ds);
            got.start_log();
            let mut c = DistSet {
                ops: &OPS,
                imp: &mut got as *mut Multiset as *mut c_void,
            };
            let mut x = vec![-1; n + 1];
            // SAFETY: x has n + 1 ints; c is a complete dist_set over `got`.
            let r = unsafe { turnpike(x.as_mut_ptr(), &mut c, n as c_uint) };
            assert_eq!(r != 0, run.found);
            if run.found {
                assert_eq!(x[1..].to_vec(), run.points);
            }
            assert_eq!(got.take_log(), want.take_log());
            assert_eq!(got.sorted(), want.sorted());
        }
        println!("exports agree");
    }
}
