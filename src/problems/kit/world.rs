//! Worlds: libraries labgrade provides and a kit problem's student code calls, each call
//! answered, counted and traced.
//!
//! The problem's header (`specs/<problem>/*.h`) defines the library's functions as small
//! wrappers over `specs/lib/lg_world.h`: each passes its operation code (its index among the
//! spec's `[kit.world] ops`) and up to four integer arguments to the table labgrade installs
//! in the library's weak `lg_world` variable. A problem supplies only what its operations
//! answer (a [`World`]); counting, tracing and shipping the record are done here once, for
//! every world. The reference runs on the same [`World`] in the grader, through
//! [`Recorder`], so the expected record and the observed one come from one code.

use std::ffi::{c_int, c_void};

use serde_json::{json, Value};

use super::abi::WorldDef;

/// World calls kept in order (the rest are only counted).
pub const TRACE_KEEP: usize = 4096;

/// What a problem's library answers.
pub trait World: Send {
    /// The answer to operation `op` (an index into the spec's ops) with `args`.
    fn answer(&mut self, op: usize, args: &[i64]) -> i64;

    /// The library's state at the end, when it is part of the answer (a picture after a
    /// fill); Null when it is not.
    fn state(&self) -> Value {
        Value::Null
    }

    /// What a hosted world sends the child along with its answer to `op` (at most
    /// [`super::remote_world::MAX_TOLD`] integers), for the child's
    /// [`super::remote_world::Shortcut`]; nothing by default.
    fn told(&self, _op: usize) -> Vec<i64> {
        Vec::new()
    }

    /// Calls the library could not honour (a pixel outside the map): how many, and the
    /// first in the assignment's words. The library still answers them (as the handout's
    /// would not), so that one slip is reported as such rather than as a crash.
    fn refused(&self) -> Option<(u64, String)> {
        None
    }

    /// Whether the world could no longer be asked: a hosted world whose channel broke,
    /// which answered -1 from then on.
    fn lost(&self) -> bool {
        false
    }
}

/// The course's parameters in force for a call (`MAX_DEPTH`, a game's starting rows), by
/// name; None when the problem has none.
pub type Params<'a> = Option<&'a serde_json::Map<String, Value>>;

/// Makes a problem's world for a call: from the call's own arguments (a puzzle the library
/// checks), the case's world inputs (a witness, a picture) and the parameters in force.
pub type WorldFactory = fn(&[Value], &[Value], Params<'_>) -> Result<Box<dyn World>, String>;

/// A world labgrade's world host serves, with the spec's description of its operations.
pub type Hosted = (&'static super::abi::WorldDef, Box<dyn World>);

/// Where the child gets a problem's world.
#[derive(Clone, Copy)]
pub enum Source {
    /// Made in the child by the factory.
    Made(WorldFactory),
    /// Served by labgrade's world host ([`super::remote_world`]), with the child's shortcut.
    Hosted(Option<super::remote_world::ShortcutFactory>),
}

/// Counts and traces every call into a [`World`].
pub struct Recorder {
    def: &'static WorldDef,
    world: Box<dyn World>,
    counts: Vec<u64>,
    trace: Vec<Value>,
    misuse: u64,
}

impl Recorder {
    /// A recorder over `world`.
    pub fn new(def: &'static WorldDef, world: Box<dyn World>) -> Recorder {
        Recorder {
            def,
            world,
            counts: vec![0; def.ops.len()],
            trace: Vec::new(),
            misuse: 0,
        }
    }

    /// Answers one call and records it.
    pub fn call(&mut self, op: usize, args: [i64; 4]) -> i64 {
        let Some(spec) = self.def.ops.get(op) else {
            self.misuse += 1;
            return 0;
        };
        let args = &args[..spec.arity];
        let result = self.world.answer(op, args);
        self.counts[op] += 1;
        if self.trace.len() < TRACE_KEEP {
            let shown: Vec<Value> = args
                .iter()
                .enumerate()
                .map(|(i, &a)| match u8::try_from(a) {
                    Ok(c) if spec.chars.contains(&i) => json!((c as char).to_string()),
                    _ => json!(a),
                })
                .collect();
            let mut step = vec![json!(spec.name), Value::Array(shown)];
            if spec.returns {
                step.push(json!(result));
            }
            self.trace.push(Value::Array(step));
        }
        result
    }

    /// The world's state now (what [`World::state`] says).
    pub fn state(&self) -> Value {
        self.world.state()
    }

    /// The record: `calls` per operation, `trace` (the first calls as `[op, [args], result]`),
    /// `total`, and the world's `state`.
    pub fn record(&self) -> Value {
        let calls: serde_json::Map<String, Value> = self
            .def
            .ops
            .iter()
            .zip(&self.counts)
            .map(|(op, n)| (op.name.clone(), json!(n)))
            .collect();
        let mut r = json!({
            "calls": calls,
            "trace": self.trace,
            "total": self.counts.iter().sum::<u64>(),
        });
        let state = self.world.state();
        if !state.is_null() {
            r["state"] = state;
        }
        if self.misuse > 0 {
            r["misuse"] = json!(self.misuse);
        }
        if self.world.lost() {
            r["lost"] = json!(true);
        }
        if let Some((count, first)) = self.world.refused() {
            r["refused"] = json!({ "count": count, "first": first });
        }
        r
    }
}

/// Moves the world's final state out of `record` into `answer`, under the name the spec's
/// `[kit.world] state` gives it, when the state is part of the answer.
pub fn state_into_answer(
    def: &WorldDef,
    record: &mut Value,
    answer: &mut serde_json::Map<String, Value>,
) {
    if let (Some(name), Some(r)) = (&def.state, record.as_object_mut()) {
        answer.insert(name.clone(), r.remove("state").unwrap_or(Value::Null));
    }
}

/// The table a library's `lg_world` points at (`struct lg_world` in lg_world.h).
#[repr(C)]
struct Table {
    this: *mut c_void,
    call: unsafe extern "C" fn(*mut c_void, c_int, i64, i64, i64, i64) -> i64,
}

unsafe extern "C" fn trampoline(
    this: *mut c_void,
    op: c_int,
    a: i64,
    b: i64,
    c: i64,
    d: i64,
) -> i64 {
    // SAFETY: `this` is the recorder `install` leaked for the child's lifetime.
    let recorder = unsafe { &mut *(this as *mut Recorder) };
    match usize::try_from(op) {
        Ok(op) => recorder.call(op, [a, b, c, d]),
        Err(_) => {
            recorder.misuse += 1;
            0
        }
    }
}

/// A world installed in a student's library.
pub struct Installed {
    recorder: *mut Recorder,
}

// SAFETY: the recorder is used by the student's thread while it runs and read by
// `finish` after that thread has been joined; never both at once.
unsafe impl Send for Installed {}

impl Installed {
    /// The record, after the call.
    pub fn finish(&self) -> Value {
        // SAFETY: see `Send` above.
        unsafe { &*self.recorder }.record()
    }
}

/// Points `lib`'s `lg_world` at a table over `world` (nothing to point when the library
/// does not use labgrade's header: its calls cannot reach the world then, and its record
/// shows none). The table and recorder live as long as the child.
pub fn install(
    lib: &libloading::os::unix::Library,
    def: &'static WorldDef,
    world: Box<dyn World>,
) -> Installed {
    let recorder = Box::into_raw(Box::new(Recorder::new(def, world)));
    let table = Box::into_raw(Box::new(Table {
        this: recorder as *mut c_void,
        call: trampoline,
    }));
    // SAFETY: `lg_world` is the header's `const struct lg_world *`: its address is a
    // pointer to a pointer.
    if let Ok(slot) = unsafe { lib.get::<*mut *const Table>(b"lg_world\0") } {
        unsafe { **slot = table };
    }
    Installed { recorder }
}
