//! The paint-bucket tool's C ABI (specs/paint-fill/paint.h):
//!
//! ```c
//! void FillRegion(pointT pt);
//! ```
//!
//! The pixel map is labgrade's: GetPixelState, SetPixelState and OutsidePixelBounds are
//! operations 0, 1 and 2 of `lg_world`.

use std::ffi::c_int;

use reference::paint_fill::PixelMap;

use crate::kit::{world_call, Counted, Exported};

/// `pointT`: `struct { int x, y; }`, passed by value.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PointT {
    x: c_int,
    y: c_int,
}

fn fill_region_addr() -> usize {
    FillRegion as *const () as usize
}

static COUNTED: &[Counted] = &[("FillRegion", fill_region_addr)];

/// labgrade's pixel map, through `lg_world`.
struct Map;

impl PixelMap for Map {
    fn get(&mut self, x: i32, y: i32) -> i64 {
        world_call(0, [x.into(), y.into(), 0, 0])
    }
    fn set(&mut self, x: i32, y: i32, state: i64) {
        world_call(1, [x.into(), y.into(), state, 0]);
    }
    fn outside(&mut self, x: i32, y: i32) -> bool {
        world_call(2, [x.into(), y.into(), 0, 0]) != 0
    }
}

/// `FillRegion`: paints `pt` and the white region around it.
#[no_mangle]
#[allow(non_snake_case)]
pub extern "C" fn FillRegion(pt: PointT) {
    reference::paint_fill::fill_region(&mut Exported(COUNTED), &mut Map, pt.x, pt.y);
}
