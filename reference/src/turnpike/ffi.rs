//! The C ABI of `specs/turnpike/turnpike.h` that labgrade's world and the reference cdylib
//! share: [`DistOps`] and [`DistSet`] mirror the header's `struct lg_dist_ops` and
//! `struct lg_dist_set` field for field (change both together).
//!
//! Only the types live here. The exported `turnpike` and `place` are in the reference cdylib
//! (`reference/cdylib`), never in this rlib: labgrade links the rlib, and a `#[no_mangle]`
//! export linked into labgrade would be a solver a student's code could jump to.

use std::ffi::{c_int, c_uint, c_void};

/// `struct lg_dist_ops`: the distance set's operations.
#[repr(C)]
#[derive(Debug)]
pub struct DistOps {
    /// The largest distance (0 on an empty set, which the world records as misuse).
    pub find_max: unsafe extern "C" fn(*mut DistSet) -> c_int,
    /// Removes and returns the largest distance.
    pub delete_max: unsafe extern "C" fn(*mut DistSet) -> c_int,
    /// 1 when the distance is in D, else 0.
    pub contains: unsafe extern "C" fn(*mut DistSet, c_int) -> c_int,
    /// Removes one copy of the distance.
    pub delete_dist: unsafe extern "C" fn(*mut DistSet, c_int),
    /// Adds one copy of the distance.
    pub insert_dist: unsafe extern "C" fn(*mut DistSet, c_int),
    /// 1 when D is empty, else 0.
    pub is_empty: unsafe extern "C" fn(*mut DistSet) -> c_int,
    /// Number of distances, copies included.
    pub size: unsafe extern "C" fn(*mut DistSet) -> c_uint,
    /// Number of copies of one distance (0 when it is not in D).
    pub count: unsafe extern "C" fn(*mut DistSet, c_int) -> c_uint,
}

/// `struct lg_dist_set`: what a `dist_set` points to.
#[repr(C)]
#[derive(Debug)]
pub struct DistSet {
    /// The operations.
    pub ops: *const DistOps,
    /// The set's own state, opaque to the caller.
    pub imp: *mut c_void,
}
