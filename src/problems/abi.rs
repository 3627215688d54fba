//! Calling student functions whose C signatures use only scalars.
//!
//! Most assignments export functions like `int FindGoodMove(int)` or `bool
//! IsBadPosition(int)`. A [`FunctionSig`] says which, and [`prepare_scalar_call`] turns a
//! symbol and JSON arguments into a closure that calls it with the right ABI inside the
//! sandboxed child. Problems whose functions take callbacks or structs write their own.

use std::ffi::c_int;

use serde_json::Value;

use crate::sandbox::Ending;

/// A scalar C type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    /// `int`.
    Int,
    /// C `bool` / C++ `bool`.
    Bool,
    /// Any fixture value (an array of distances, a maze name), passed through as JSON to a
    /// problem whose own `prepare_call` interprets it.
    Json,
}

impl Scalar {
    /// The C spelling.
    pub fn c_name(self) -> &'static str {
        match self {
            Scalar::Int => "int",
            Scalar::Bool => "bool",
            Scalar::Json => "value",
        }
    }
}

/// One function of a problem's C ABI.
#[derive(Debug, Clone, Copy)]
pub struct FunctionSig {
    /// The exported name.
    pub name: &'static str,
    /// The declaration as students see it in the spec header.
    pub decl: &'static str,
    /// Parameter types.
    pub params: &'static [Scalar],
    /// Return type.
    pub ret: Scalar,
}

/// A call ready to run on the student thread.
pub type PreparedCall = Box<dyn FnOnce() -> Value + Send>;

fn arg_int(v: &Value) -> Option<c_int> {
    v.as_i64().and_then(|x| c_int::try_from(x).ok())
}

/// Binds a call of `function`, one of `functions` (a problem's scalar ABI): `symbols` maps
/// it to the symbol found in the library.
pub fn prepare_named_scalar_call(
    problem: &str,
    functions: &[FunctionSig],
    lib: &libloading::os::unix::Library,
    symbols: &std::collections::BTreeMap<String, String>,
    function: &str,
    args: &[Value],
) -> Result<PreparedCall, Ending> {
    let sig = functions
        .iter()
        .find(|f| f.name == function)
        .ok_or_else(|| Ending::InternalError {
            message: format!("`{function}` is not part of {problem}'s interface"),
        })?;
    let symbol = symbols.get(function).ok_or_else(|| Ending::MissingSymbol {
        name: function.to_string(),
    })?;
    prepare_scalar_call(lib, sig, symbol, args)
}

/// Resolves `symbol` in `lib` and binds `args` to `sig`.
pub fn prepare_scalar_call(
    lib: &libloading::os::unix::Library,
    sig: &FunctionSig,
    symbol: &str,
    args: &[Value],
) -> Result<PreparedCall, Ending> {
    // SAFETY: only the address is read here; the call happens on the student thread.
    let addr = unsafe { lib.get::<*const ()>(symbol.as_bytes()) }
        .map(|s| *s as usize)
        .map_err(|_| Ending::MissingSymbol {
            name: sig.name.to_string(),
        })?;
    let ints: Vec<c_int> = args.iter().filter_map(arg_int).collect();
    if ints.len() != sig.params.len() || args.len() != sig.params.len() {
        return Err(Ending::InternalError {
            message: format!("`{}` takes {} int arguments", sig.name, sig.params.len()),
        });
    }
    if sig.params.contains(&Scalar::Json) || sig.ret == Scalar::Json {
        return Err(Ending::InternalError {
            message: format!("`{}` needs the problem's own calling code", sig.name),
        });
    }
    let ret = sig.ret;
    // SAFETY (for each transmute below): the symbol's C signature is `sig`, which the
    // problem declares and the spec header gives students; all parameters are `int`.
    let call: PreparedCall = match ints.as_slice() {
        [] => Box::new(move || {
            let f: unsafe extern "C" fn() -> c_int = unsafe { std::mem::transmute(addr) };
            let b: unsafe extern "C" fn() -> u8 = unsafe { std::mem::transmute(addr) };
            match ret {
                Scalar::Int | Scalar::Json => Value::from(unsafe { f() }),
                Scalar::Bool => Value::from(unsafe { b() } != 0),
            }
        }),
        [a] => {
            let a = *a;
            Box::new(move || {
                let f: unsafe extern "C" fn(c_int) -> c_int = unsafe { std::mem::transmute(addr) };
                let b: unsafe extern "C" fn(c_int) -> u8 = unsafe { std::mem::transmute(addr) };
                match ret {
                    Scalar::Int | Scalar::Json => Value::from(unsafe { f(a) }),
                    Scalar::Bool => Value::from(unsafe { b(a) } != 0),
                }
            })
        }
        [a, b2] => {
            let (a, b2) = (*a, *b2);
            Box::new(move || {
                let f: unsafe extern "C" fn(c_int, c_int) -> c_int =
                    unsafe { std::mem::transmute(addr) };
                let b: unsafe extern "C" fn(c_int, c_int) -> u8 =
                    unsafe { std::mem::transmute(addr) };
                match ret {
                    Scalar::Int | Scalar::Json => Value::from(unsafe { f(a, b2) }),
                    Scalar::Bool => Value::from(unsafe { b(a, b2) } != 0),
                }
            })
        }
        _ => {
            return Err(Ending::InternalError {
                message: format!("`{}`: more than two arguments is not supported", sig.name),
            })
        }
    };
    Ok(call)
}
