//! A package's own world: the C library an assignment's students call (a map they explore,
//! a dictionary they look words up in), written by the instructor in `world/`.
//!
//! Its operations are declared in the spec's `[kit.world]` table and reached, in the
//! students' code, through the package header's `lg_world_call` wrappers, exactly as the
//! catalogue's worlds are; every call is counted and traced by the same code
//! ([`crate::problems::kit::world::Recorder`]). What answers them is the instructor's
//! library, built by labgrade with the package's recipes and loaded only by labgrade's world
//! host, a process of its own beside the sandboxed child (`problems::kit::remote_world`):
//! never in the child, where the students' code could call into it or rewrite it, and never
//! in the grader. The host loads it and makes the call's world before it restricts itself;
//! from then on the library's answers can only compute, allocate and return.
//!
//! The library implements `specs/lib/lg_world_impl.h`: `lg_world_new` makes a world from
//! the call's inputs (its own arguments, the case's world inputs and the course's
//! parameters, by name), `lg_world_answer` answers one operation, and optionally
//! `lg_world_state` gives the world's final state (when `[kit.world] state` makes it part of
//! the answer) and `lg_world_refused` the calls it could not honour.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::path::Path;
use std::sync::OnceLock;

use serde_json::{json, Value};

use super::library::{owned, Input, Owned};
use crate::problems::kit::world::{Hosted, World};
use crate::problems::kit::{call, KitAbi};

/// The package directory holding the world library's sources.
pub const DIR: &str = "world";

/// Most cells a world's state may have.
const MAX_STATE_CELLS: usize = 1 << 22;

/// In labgrade's world host: the world of package `problem`'s call of `function` with
/// `call_args` (as the grader sent them), answered by the package's built `library`.
/// Called again for each fresh world of the run; the library is loaded the first time.
pub fn hosted(
    problem: &str,
    spec: &str,
    library: &Path,
    function: &str,
    call_args: &[Value],
) -> Result<Hosted, String> {
    let abi: &'static KitAbi = crate::problems::kit::register(problem, spec);
    let kit = abi.def();
    let def = kit
        .world
        .as_ref()
        .ok_or_else(|| format!("{problem} declares no [kit.world]"))?;
    let f = kit
        .function
        .iter()
        .find(|f| f.name == function)
        .ok_or_else(|| format!("`{function}` is not a function of {problem}"))?;
    let (own, world_inputs, params) = call::split_args(f, call_args);
    let mut named = super::library::named_call(f, own, world_inputs);
    if let Some(params) = params {
        named.extend(params.iter().map(|(k, v)| (k.clone(), v)));
    }
    let loaded = LOADED
        .get_or_init(|| Loaded::open(library))
        .as_ref()
        .map_err(Clone::clone)?;
    let world = loaded.make(&named)?;
    Ok((def, Box::new(world)))
}

/// The library, loaded once per host.
static LOADED: OnceLock<Result<Loaded, String>> = OnceLock::new();

type NewFn = unsafe extern "C" fn(*const Input, c_int, *mut c_char, c_int) -> *mut c_void;
type AnswerFn = unsafe extern "C" fn(*mut c_void, c_int, *const i64) -> i64;
type StateFn = unsafe extern "C" fn(*mut c_void, *mut i64, c_int, *mut c_int, *mut c_int) -> c_int;
type RefusedFn = unsafe extern "C" fn(*mut c_void, *mut i64) -> *const c_char;

/// The instructor's library and its entry points.
struct Loaded {
    _lib: libloading::os::unix::Library,
    new: NewFn,
    answer: AnswerFn,
    state: Option<StateFn>,
    refused: Option<RefusedFn>,
}

impl Loaded {
    fn open(path: &Path) -> Result<Loaded, String> {
        let lib = super::library::load(path, "world library")?;
        let missing = |name: &str| {
            format!(
                "the package's world library has no `{name}` (see lg_world_impl.h for what it \
                 defines)"
            )
        };
        // SAFETY: the signatures are lg_world_impl.h's.
        unsafe {
            let new = *lib
                .get::<NewFn>(b"lg_world_new\0")
                .map_err(|_| missing("lg_world_new"))?;
            let answer = *lib
                .get::<AnswerFn>(b"lg_world_answer\0")
                .map_err(|_| missing("lg_world_answer"))?;
            let state = lib.get::<StateFn>(b"lg_world_state\0").ok().map(|s| *s);
            let refused = lib.get::<RefusedFn>(b"lg_world_refused\0").ok().map(|s| *s);
            Ok(Loaded {
                _lib: lib,
                new,
                answer,
                state,
                refused,
            })
        }
    }

    /// A world from the call's `named` inputs.
    fn make(&'static self, named: &[(String, &Value)]) -> Result<PackageWorld, String> {
        let owned = owned(named)?;
        let inputs: Vec<Input> = owned.iter().map(Owned::as_input).collect();
        let mut why = vec![0 as c_char; 512];
        // SAFETY: `inputs` and the memory they point at live across the call; `why` holds
        // its length.
        let handle = unsafe {
            (self.new)(
                inputs.as_ptr(),
                inputs.len() as c_int,
                why.as_mut_ptr(),
                why.len() as c_int - 1,
            )
        };
        if handle.is_null() {
            // SAFETY: NUL-terminated: its last byte is never written.
            let why = unsafe { CStr::from_ptr(why.as_ptr()) }.to_string_lossy();
            return Err(format!(
                "the package's world refused this case's inputs{}",
                if why.is_empty() {
                    String::new()
                } else {
                    format!(": {why}")
                }
            ));
        }
        Ok(PackageWorld {
            loaded: self,
            handle,
        })
    }
}

/// One call's world, answered by the instructor's library.
struct PackageWorld {
    loaded: &'static Loaded,
    handle: *mut c_void,
}

// SAFETY: the world host answers from one thread; the handle is the library's own.
unsafe impl Send for PackageWorld {}

impl World for PackageWorld {
    fn answer(&mut self, op: usize, args: &[i64]) -> i64 {
        let mut four = [0i64; 4];
        four[..args.len().min(4)].copy_from_slice(&args[..args.len().min(4)]);
        // SAFETY: lg_world_answer reads four arguments.
        unsafe { (self.loaded.answer)(self.handle, op as c_int, four.as_ptr()) }
    }

    fn state(&self) -> Value {
        let Some(state) = self.loaded.state else {
            return Value::Null;
        };
        let mut cells = vec![0i64; 1 << 12];
        loop {
            let (mut cols, mut text): (c_int, c_int) = (0, 0);
            // SAFETY: `cells` holds the capacity given.
            let n = unsafe {
                state(
                    self.handle,
                    cells.as_mut_ptr(),
                    cells.len() as c_int,
                    &mut cols,
                    &mut text,
                )
            };
            let Ok(n) = usize::try_from(n) else {
                return Value::Null;
            };
            if n > cells.len() && n <= MAX_STATE_CELLS {
                cells = vec![0; n];
                continue;
            }
            cells.truncate(n);
            return shown_state(&cells, usize::try_from(cols).unwrap_or(0), text != 0);
        }
    }

    fn refused(&self) -> Option<(u64, String)> {
        let refused = self.loaded.refused?;
        let mut count = 0i64;
        // SAFETY: lg_world_refused writes the count and returns its own string or NULL.
        let first = unsafe { refused(self.handle, &mut count) };
        if first.is_null() || count <= 0 {
            return None;
        }
        // SAFETY: a NUL-terminated string of the library's.
        let first = unsafe { CStr::from_ptr(first) }
            .to_string_lossy()
            .into_owned();
        Some((count as u64, first))
    }
}

/// A world's state as the answer holds it: a flat list, a grid (rows of `cols`), or, as
/// `text`, each row the string of its characters.
fn shown_state(cells: &[i64], cols: usize, text: bool) -> Value {
    let chars = |row: &[i64]| -> String {
        row.iter()
            .map(|&c| u8::try_from(c).map_or('?', char::from))
            .collect()
    };
    match (cols, text) {
        (0, false) => json!(cells),
        (0, true) => json!(chars(cells)),
        (cols, false) => json!(cells.chunks(cols).collect::<Vec<_>>()),
        (cols, true) => json!(cells.chunks(cols).map(chars).collect::<Vec<_>>()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_world_s_state_is_shown_as_it_says() {
        let cells = [35, 46, 43, 35];
        assert_eq!(shown_state(&cells, 0, false), json!([35, 46, 43, 35]));
        assert_eq!(shown_state(&cells, 2, false), json!([[35, 46], [43, 35]]));
        assert_eq!(shown_state(&cells, 2, true), json!(["#.", "+#"]));
        assert_eq!(shown_state(&cells, 0, true), json!("#.+#"));
    }
}
