//! labgrade's world host: the process that serves a hosted world to a sandboxed child
//! (`labgrade --world-host PROBLEM FUNCTION ARGS`, started by the worker beside the child;
//! see [`super::remote_world`] for why and for the frames).
//!
//! It runs labgrade's own code on frames student code may have written, so it trusts none:
//! an unknown operation is ignored, every world bounds what it keeps, and the world is made
//! once, from the worker's arguments (the case as the grader sent it), never from a frame
//! (a frame asking for a fresh world is ignored). The world's state is given once, at the
//! run's end; code that asks for it sooner gets it, and the world answers nothing more. Once
//! its world is made, a seccomp allowlist leaves it only reading, writing, allocating
//! (never executable memory) and ending: no file, socket, process or exec. It
//! ends with status 0 when the child's end closes (the run is over, whoever closed it) and
//! otherwise only when labgrade itself failed, which the worker then reports as its own
//! failure, never the student's.

use std::io::{BufReader, BufWriter, Read, Write};

use serde_json::Value;

use super::abi::WorldDef;
use super::remote_world::{unframe, ANSWERED, FRAME, NEW_WORLD, REFUSED, STATE};
use super::world::{Hosted, World};
use crate::sandbox::world_host::{FAILED, FINISHED, STATUS_FD};

pub use crate::sandbox::world_host::FLAG;

/// How a problem package's world is made from its spec and built library (`package::world`,
/// a layer above: the binary's main passes it).
pub type PackageWorld = fn(&str, &str, &std::path::Path, &str, &[Value]) -> Result<Hosted, String>;

/// Serves the world of `problem`'s `function` called with `args_json` on standard input and
/// output until the child's end closes; the process's exit status.
pub fn main(args: &[String], package_world: PackageWorld) -> i32 {
    // A problem package's world comes with the package's spec and its built library.
    let (problem, function, args_json, package) = match args {
        [problem, function, args_json] => (problem, function, args_json, None),
        [problem, function, args_json, spec, library] => {
            (problem, function, args_json, Some((spec, library)))
        }
        _ => {
            eprintln!(
                "labgrade {FLAG}: labgrade-worker starts this itself, with three arguments (five \
                 for a problem package's world)"
            );
            return 2;
        }
    };
    let call_args: Vec<Value> = match serde_json::from_str(args_json) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("labgrade {FLAG}: the call's arguments do not parse: {e}");
            return 2;
        }
    };
    let make = || -> Result<Hosted, String> {
        if let Some((spec, library)) = package {
            return package_world(
                problem,
                spec,
                std::path::Path::new(library),
                function,
                &call_args,
            );
        }
        crate::problems::get(problem)
            .and_then(|p| p.hosted_world(function, &call_args))
            .unwrap_or_else(|| Err(format!("{problem} has no hosted world for `{function}`")))
    };
    // The frames leave on a descriptor of their own: what a world's code prints (a package's
    // library is the instructor's C) goes to standard error, never into the child's answers.
    let frames = match protocol_output() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("labgrade {FLAG}: cannot set up the host's output: {e}");
            return 2;
        }
    };
    let (def, mut world) = match make() {
        Ok(w) => w,
        Err(e) => {
            eprintln!("labgrade {FLAG}: {e}");
            // The worker puts why in the run's record (a package's world may refuse a case).
            let mut why = format!("{}{e}", char::from(FAILED)).into_bytes();
            why.truncate(4000);
            tell_worker(&why);
            return 2;
        }
    };
    // A fault in the world ends the host at once (see `default_fault_actions`). From here
    // on the host reads frames student code may have written: it can do no more than
    // answer them (see `layers::world_host_filter`).
    crate::sandbox::world_host::default_fault_actions();
    if let Err(e) = crate::sandbox::layers::restrict_host() {
        eprintln!("labgrade {FLAG}: cannot restrict the world host: {e}");
        return 2;
    }
    serve(def, &mut world, frames);
    // The worker's sign that the run was served to its end.
    tell_worker(&[FINISHED]);
    0
}

/// Writes `bytes` on the worker's status pipe.
fn tell_worker(bytes: &[u8]) {
    // SAFETY: STATUS_FD is the worker's status pipe (nothing, when run by hand: the write
    // then fails and nobody is waiting); the File is never dropped.
    let mut status = std::mem::ManuallyDrop::new(unsafe {
        <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(STATUS_FD)
    });
    let _ = status.write_all(bytes);
}

/// The host's standard output (the pipe to the child), moved to a descriptor of its own;
/// standard output becomes standard error.
pub(crate) fn protocol_output() -> std::io::Result<std::fs::File> {
    use std::os::fd::FromRawFd;
    // SAFETY: plain descriptor calls; the duplicate is ours alone.
    unsafe {
        let fd = libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 10);
        if fd < 0 || libc::dup2(2, 1) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(std::fs::File::from_raw_fd(fd))
    }
}

/// What an ended world answers to `op`: null for the state, -1 (and nothing told) for a
/// question, nothing for the rest.
fn ended_reply(def: &WorldDef, op: i64) -> Option<Vec<u8>> {
    if op == STATE {
        let null = b"null";
        let mut reply = (null.len() as i64).to_le_bytes().to_vec();
        reply.extend(null);
        return Some(reply);
    }
    // A call the child answered itself waits for nothing.
    let spec = usize::try_from(op).ok().and_then(|op| def.ops.get(op))?;
    spec.returns.then(|| {
        let mut reply = (-1i64).to_le_bytes().to_vec();
        reply.extend(0i64.to_le_bytes());
        reply
    })
}

/// Answers frames until the child's end closes.
fn serve(def: &'static WorldDef, world: &mut Box<dyn World>, frames: std::fs::File) {
    let mut input = BufReader::new(std::io::stdin().lock());
    let mut output = BufWriter::new(frames);
    let mut bytes = [0u8; FRAME];
    let dies = crate::sandbox::test_hook::world_host_dies();
    let mut ended = false;
    // A read or write that fails means the child's end is gone: the run is over.
    while input.read_exact(&mut bytes).is_ok() {
        if dies {
            std::process::exit(70);
        }
        let (op, args) = unframe(&bytes);
        let reply = match op {
            // After the state is given (the run's end), the world answers nothing but the
            // refused calls: code that asks for the state sooner ends its own world (every
            // later question gets -1, a later state null).
            _ if ended && op != REFUSED => match ended_reply(def, op) {
                Some(reply) => reply,
                None => continue,
            },
            // Only the worker makes a world, from the case: a frame cannot make a fresh one
            // (a private walk, then a fresh world for the driver's, read the rules).
            NEW_WORLD => continue,
            STATE | REFUSED => {
                ended |= op == STATE;
                let answer = if op == STATE {
                    world.state()
                } else {
                    serde_json::to_value(world.refused()).unwrap_or_default()
                };
                let json = serde_json::to_vec(&answer).unwrap_or_default();
                let mut reply = (json.len() as i64).to_le_bytes().to_vec();
                reply.extend(json);
                reply
            }
            _ => {
                // A call the child answered itself is taken, and not answered.
                let (op, reply) = if op >= ANSWERED {
                    (op - ANSWERED, false)
                } else {
                    (op, true)
                };
                let Some(spec) = usize::try_from(op).ok().and_then(|op| def.ops.get(op)) else {
                    continue;
                };
                let op = op as usize;
                let answer = world.answer(op, &args[..spec.arity.min(4)]);
                if !spec.returns || !reply {
                    continue;
                }
                let told = world.told(op);
                let mut reply: Vec<u8> = Vec::with_capacity(16 + 8 * told.len());
                reply.extend(answer.to_le_bytes());
                reply.extend((told.len() as i64).to_le_bytes());
                for w in told {
                    reply.extend(w.to_le_bytes());
                }
                reply
            }
        };
        if output
            .write_all(&reply)
            .and_then(|()| output.flush())
            .is_err()
        {
            return;
        }
    }
}
