//! A package's checker: for a function its spec declares `any_valid` (any right answer is
//! accepted, not only the reference's), the instructor's C function `lg_check`
//! (`specs/lib/lg_check.h`, in the package's `checker/`) judges each answer.
//!
//! It is run as contest judges run an output validator: in a process of its own, here
//! labgrade's check host (`labgrade --check-host LIBRARY`), which reads the call, the
//! student's answer and the reference's as JSON, loads the library, restricts itself as the
//! world host does (it can then only compute, allocate and answer), calls `lg_check` and
//! writes its verdict back. The checker never shares a process with the student's code or
//! with the grader, and what it prints goes to standard error, never into its verdict. A
//! checker that rejects the reference's own answer is the instructor's error, named with
//! the case ([`super::reference`] asks it on every such case).

use std::ffi::{c_char, c_int, CStr};
use std::io::{Read, Write};
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::library::{owned, Input, Owned};
use crate::problems::kit::{CheckCall, CheckFailure};

/// The package directory holding the checker's sources.
pub const DIR: &str = "checker";

/// The argument that starts the check host (before the library's path).
pub const FLAG: &str = "--check-host";

/// The check host's memory ceiling.
const HOST_MEMORY: u64 = 2 << 30;

/// The check host's CPU time: a checker judges one answer, and cannot wait for anything.
const HOST_CPU_SECONDS: u64 = 10;

/// The check host's wall-clock time: a checker judges one answer and waits for nothing.
const HOST_WALL: std::time::Duration = std::time::Duration::from_secs(30);

/// Most of the reason the check host sends back.
const MAX_WHY: usize = 4096;

/// What the check host is sent.
#[derive(Serialize, Deserialize)]
struct Request {
    /// The call's arguments and the parameters in force, in order.
    call: Vec<(String, Value)>,
    /// The student's answer.
    answer: Vec<(String, Value)>,
    /// The reference's.
    reference: Vec<(String, Value)>,
}

/// What it answers.
#[derive(Serialize, Deserialize)]
struct Reply {
    ok: bool,
    why: String,
}

/// An answer's parts in order: `return` first, then the rest by name.
fn parts(answer: &Map<String, Value>) -> Vec<(String, Value)> {
    let mut parts: Vec<(String, Value)> = answer
        .iter()
        .filter(|(k, _)| k.as_str() != "world")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    parts.sort_by_key(|(k, _)| k != "return");
    parts
}

/// The checker of every package ([`crate::problems::kit::Checker`]): the package's
/// `lg_check`, run in the check host. Ok with the checker's remark, or Err with what it
/// found wrong (after the call, as the student reads it).
pub fn check(call: &CheckCall<'_>) -> Result<String, CheckFailure> {
    let not_judged = |why: String| {
        CheckFailure::Unjudged(format!(
            "labgrade could not judge this answer: {why} (the package's checker failed: not your \
             fault; the score is withheld and your instructor is told)"
        ))
    };
    let problem = crate::problems::get(call.problem)
        .ok_or_else(|| not_judged(format!("no problem `{}`", call.problem)))?;
    let package = super::get(call.problem)
        .ok_or_else(|| not_judged(format!("`{}` is not a package", call.problem)))?;
    let library = package
        .checker_library
        .get()
        .ok_or_else(|| not_judged("the package has no checker/ built".into()))?;
    let f = crate::problems::kit::abi(call.problem)
        .and_then(|a| a.def().function.iter().find(|f| f.name == call.function))
        .ok_or_else(|| not_judged(format!("no function `{}`", call.function)))?;
    let mut inputs: Vec<(String, Value)> = super::library::named_call(f, call.args, &[])
        .into_iter()
        .map(|(name, value)| (name, value.clone()))
        .collect();
    inputs.extend(problem.parameters().iter().map(|p| {
        let value = crate::problems::param(problem.parameters(), call.params, p.name);
        (p.name.to_string(), Value::from(value))
    }));
    let request = Request {
        call: inputs,
        answer: parts(call.got),
        reference: parts(call.expected),
    };
    let reply = ask(library, &request).map_err(not_judged)?;
    let described = crate::problems::kit::judge::describe(f, call.args);
    if reply.ok {
        Ok(reply.why)
    } else if reply.why.is_empty() {
        Err(CheckFailure::Wrong(format!(
            "{described}: the checker does not accept the answer"
        )))
    } else {
        Err(CheckFailure::Wrong(format!("{described}: {}", reply.why)))
    }
}

/// Runs the check host on `request`.
fn ask(library: &std::path::Path, request: &Request) -> Result<Reply, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find labgrade: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.arg(FLAG)
        .arg(library)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    crate::sandbox::world_host::limit_host(&mut cmd, HOST_MEMORY, Some(HOST_CPU_SECONDS));
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start the check host: {e}"))?;
    let json = serde_json::to_vec(request).map_err(|e| e.to_string())?;
    // The host reads everything before it answers: the write cannot wait on its reply.
    let wrote = child
        .stdin
        .take()
        .map(|mut input| input.write_all(&json))
        .unwrap_or(Ok(()));
    // A checker that waits (or hangs without spending CPU) is stopped at the wall limit:
    // killed while it is still our unreaped child, before the wait below.
    let pid = child.id() as libc::pid_t;
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let hung = finished.recv_timeout(HOST_WALL).is_err();
        if hung {
            // SAFETY: our own child, not yet waited for: its pid is still its own.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        hung
    });
    let mut out = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        let _ = stdout.take(MAX_WHY as u64 + 64).read_to_end(&mut out);
    }
    let _ = done.send(());
    let hung = watchdog.join().unwrap_or(false);
    let status = child.wait().map_err(|e| format!("the check host: {e}"))?;
    if let (Ok(reply), Ok(())) = (serde_json::from_slice::<Reply>(&out), wrote) {
        if status.success() {
            return Ok(reply);
        }
    }
    if hung {
        return Err(format!(
            "lg_check gave no verdict within {} s (it waited, or hung without spending CPU)",
            HOST_WALL.as_secs()
        ));
    }
    Err(
        match std::os::unix::process::ExitStatusExt::signal(&status) {
            Some(libc::SIGXCPU) | Some(libc::SIGKILL) => {
                format!("lg_check ran out of its {HOST_CPU_SECONDS} s of CPU time")
            }
            Some(signal) => format!(
                "lg_check was killed by {}",
                crate::sandbox::classify::signal_name(signal)
            ),
            None => "the check host gave no verdict (see its message on standard error)".into(),
        },
    )
}

type CheckFn = unsafe extern "C" fn(
    *const Input,
    c_int,
    *const Input,
    c_int,
    *const Input,
    c_int,
    *mut c_char,
    c_int,
) -> c_int;

/// The check host: `labgrade --check-host LIBRARY`, the request on standard input, the
/// reply on standard output; the process's exit status.
pub fn host_main(args: &[String]) -> i32 {
    let [library] = args else {
        eprintln!("labgrade {FLAG}: labgrade starts this itself, with one argument");
        return 2;
    };
    match host(std::path::Path::new(library)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("labgrade {FLAG}: {e}");
            2
        }
    }
}

fn host(library: &std::path::Path) -> Result<(), String> {
    let mut replies = crate::problems::kit::world_host::protocol_output()
        .map_err(|e| format!("cannot set up the host's output: {e}"))?;
    let mut text = Vec::new();
    std::io::stdin()
        .read_to_end(&mut text)
        .map_err(|e| format!("cannot read the request: {e}"))?;
    let request: Request =
        serde_json::from_slice(&text).map_err(|e| format!("the request does not parse: {e}"))?;
    let named = |list: &[(String, Value)]| -> Result<Vec<Owned>, String> {
        let refs: Vec<(String, &Value)> = list.iter().map(|(k, v)| (k.clone(), v)).collect();
        owned(&refs)
    };
    let (call, answer, reference) = (
        named(&request.call)?,
        named(&request.answer).map_err(|e| format!("the answer: {e}"))?,
        named(&request.reference)?,
    );
    let inputs = |o: &[Owned]| -> Vec<Input> { o.iter().map(Owned::as_input).collect() };
    let (call, answer, reference) = (inputs(&call), inputs(&answer), inputs(&reference));
    let lib = super::library::load(library, "checker")?;
    // SAFETY: the signature is lg_check.h's.
    let check: CheckFn = unsafe { lib.get::<CheckFn>(b"lg_check\0") }
        .map(|s| *s)
        .map_err(|_| "the package's checker defines no `lg_check` (see lg_check.h)".to_string())?;
    // A fault in the checker must end the host at once. Rust's own handler for it would
    // give the fault back to the default action through sigaction, which the restriction
    // below refuses: the fault would then repeat until the CPU limit (10 s a case).
    crate::sandbox::world_host::default_fault_actions();
    // From here on the checker reads the student's answer: it can do no more than judge it.
    crate::sandbox::layers::restrict_host()
        .map_err(|e| format!("cannot restrict the check host: {e}"))?;
    let mut why = vec![0 as c_char; MAX_WHY];
    // SAFETY: every array lives across the call, with its length; `why`'s last byte is
    // never written, so it stays NUL-terminated.
    let ok = unsafe {
        check(
            call.as_ptr(),
            call.len() as c_int,
            answer.as_ptr(),
            answer.len() as c_int,
            reference.as_ptr(),
            reference.len() as c_int,
            why.as_mut_ptr(),
            MAX_WHY as c_int - 1,
        )
    };
    // SAFETY: NUL-terminated (above).
    let why = unsafe { CStr::from_ptr(why.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    let reply = serde_json::to_vec(&Reply { ok: ok != 0, why }).map_err(|e| e.to_string())?;
    replies
        .write_all(&reply)
        .map_err(|e| format!("cannot send the verdict: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_answer_s_parts_come_return_first_without_the_world() {
        let answer: Map<String, Value> = [
            ("grid".to_string(), json!([[1]])),
            ("return".to_string(), json!(true)),
            ("world".to_string(), json!({})),
        ]
        .into_iter()
        .collect();
        let names: Vec<String> = parts(&answer).into_iter().map(|(k, _)| k).collect();
        assert_eq!(names, vec!["return", "grid"]);
    }
}
