//! Calling a kit function inside the sandboxed child, and reading back what it did.
//!
//! Every kit type is passed in an integer register (scalars, and pointers to memory labgrade
//! owns), and every kit function takes at most six parameters, so one calling shape covers
//! them all on x86-64 (System V) and AArch64 (AAPCS64): the first six integer-class
//! arguments travel in registers, a callee ignores the registers it has no parameter for,
//! and the caller reads only the part of the return register the declared type occupies
//! (`int` in the low 32 bits, `bool` in the low 8). That is the ABI these machines define, the
//! same one libffi would follow; doubles are refused when the spec is parsed. The one struct
//! by value the catalogue needs (a puzzle of three strings, first) is passed through a typed
//! function pointer, so that Rust lays it out as the C compiler does.
//!
//! What comes back is one JSON object: `return` (unless the function is void), each parameter the function may change
//! (`*result`, the board), and `world`, the record of labgrade's library when it has one.

use serde_json::{json, Map, Value};

use super::abi::{CType, Dim, FunctionDef, KitDef, ParamDef, Pass};
use super::cpp_form::Form;
use super::world::{self, Source};
use crate::problems::abi::PreparedCall;
use crate::sandbox::Ending;

/// The key of the trailing argument that carries the parameter values in force.
pub const PARAMS_KEY: &str = "$params";

fn internal(message: String) -> Ending {
    Ending::InternalError { message }
}

/// The value of `name` for this call: one of the function's int arguments, else a
/// parameter (the course's value, else the handout's).
fn dim_value(
    kit: &KitDef,
    f: &FunctionDef,
    own: &[Value],
    params: Option<&Map<String, Value>>,
    name: &str,
) -> Option<i64> {
    let argument = f
        .fixture_params()
        .zip(own)
        .find(|(p, _)| p.name == name && p.pass == Pass::Value)
        .and_then(|(_, v)| v.as_i64());
    argument.or_else(|| {
        params
            .and_then(|p| p.get(name))
            .and_then(Value::as_i64)
            .or_else(|| {
                kit.parameter
                    .iter()
                    .find(|c| c.name == name)
                    .map(|c| c.default)
            })
    })
}

/// The cells behind a pointer parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One value (`unsigned int *result`).
    One,
    /// An array (`int rows[]`).
    Array(usize),
    /// Rows and columns (`bool board[][NUM_QUEENS]`).
    Grid(usize, usize),
}

impl Shape {
    /// How many cells.
    pub fn cells(self) -> usize {
        match self {
            Shape::One => 1,
            Shape::Array(n) => n,
            Shape::Grid(r, c) => r * c,
        }
    }
}

/// Largest number of cells labgrade allocates for one parameter.
pub const MAX_CELLS: usize = 1 << 20;

/// The shape of pointer parameter `p` for a call with `args`; None when a size is missing,
/// negative or too large.
pub fn shape_of(kit: &KitDef, f: &FunctionDef, args: &[Value], p: &ParamDef) -> Option<Shape> {
    let (own, _, params) = split_args(f, args);
    let dim = |d: &Dim| match d {
        Dim::Fixed(n) => Some(*n),
        Dim::Param(name) => {
            dim_value(kit, f, own, params, name).and_then(|v| usize::try_from(v).ok())
        }
    };
    let shape = match (&p.grid, &p.array) {
        (Some([r, c]), _) => Shape::Grid(dim(r)?, dim(c)?),
        (None, Some(n)) => Shape::Array(dim(n)?),
        (None, None) => Shape::One,
    };
    (shape.cells() <= MAX_CELLS).then_some(shape)
}

/// A scalar of type `ty` from a fixture value, as the bits a register carries.
pub fn scalar_bits(ty: CType, v: &Value) -> Option<u64> {
    Some(match ty {
        CType::Int => i32::try_from(v.as_i64()?).ok()? as i64 as u64,
        CType::Uint => u64::from(u32::try_from(v.as_u64()?).ok()?),
        CType::Long => v.as_i64()? as u64,
        CType::Ulong => v.as_u64()?,
        CType::Bool => u64::from(v.as_bool().or_else(|| v.as_i64().map(|i| i != 0))?),
        CType::Char => match v {
            Value::String(s) if s.len() == 1 => u64::from(s.as_bytes()[0]),
            _ => u64::from(u8::try_from(v.as_i64()?).ok()?),
        },
        CType::Point => {
            let xy = v.as_array().filter(|a| a.len() == 2)?;
            let part = |i: usize| i32::try_from(xy[i].as_i64()?).ok().map(|c| c as u32 as u64);
            part(0)? | (part(1)? << 32)
        }
        CType::String | CType::Void => return None,
    })
}

/// The JSON form of a scalar of type `ty` held in the low bytes of `bits`.
pub fn scalar_value(ty: CType, bits: u64) -> Value {
    match ty {
        CType::Int => json!(bits as u32 as i32),
        CType::Uint => json!(bits as u32),
        CType::Long => json!(bits as i64),
        CType::Ulong => json!(bits),
        CType::Bool => json!(bits as u8 != 0),
        CType::Char => json!((bits as u8 as char).to_string()),
        CType::Point => json!([bits as u32 as i32, (bits >> 32) as u32 as i32]),
        CType::String | CType::Void => Value::Null,
    }
}

/// Memory labgrade hands the function through a pointer.
struct Buffer {
    param: usize,
    bytes: Vec<u8>,
    shape: Shape,
    /// Which field of a struct passed by value it is.
    field: Option<usize>,
}

impl Buffer {
    fn decode(&self, p: &ParamDef) -> Value {
        let size = p.ty.size();
        let cell = |i: usize| {
            let mut raw = [0u8; 8];
            raw[..size].copy_from_slice(&self.bytes[i * size..(i + 1) * size]);
            scalar_value(p.ty, u64::from_le_bytes(raw))
        };
        match (p.ty, self.shape) {
            (CType::String, _) => {
                let end = self
                    .bytes
                    .iter()
                    .position(|&b| b == 0)
                    .unwrap_or(self.bytes.len());
                json!(String::from_utf8_lossy(&self.bytes[..end]))
            }
            // A grid of characters reads best as its rows: ["GBRWWR", ...].
            (CType::Char, Shape::Grid(rows, cols)) => Value::Array(
                (0..rows)
                    .map(|r| {
                        let row = &self.bytes[r * cols..(r + 1) * cols];
                        json!(String::from_utf8_lossy(row))
                    })
                    .collect(),
            ),
            (_, Shape::Grid(rows, cols)) => Value::Array(
                (0..rows)
                    .map(|r| Value::Array((0..cols).map(|c| cell(r * cols + c)).collect()))
                    .collect(),
            ),
            (_, Shape::Array(n)) => Value::Array((0..n).map(cell).collect()),
            (_, Shape::One) => cell(0),
        }
    }
}

/// The rows of a grid as a fixture writes it: arrays of values, or (for characters) strings.
pub fn grid_rows(ty: CType, v: &Value) -> Option<Vec<Vec<Value>>> {
    v.as_array()?
        .iter()
        .map(|row| match row {
            Value::String(s) if ty == CType::Char => {
                Some(s.chars().map(|c| json!(c.to_string())).collect())
            }
            _ => row.as_array().cloned(),
        })
        .collect()
}

/// Whether a given grid or array is written `[]`: it starts all zero (false), whatever
/// its size, so a case that starts from the handout's empty board holds for every size a
/// course may choose.
pub fn starts_empty(p: &ParamDef, v: &Value) -> bool {
    matches!(p.pass, Pass::Inout | Pass::In)
        && (p.grid.is_some() || p.array.is_some())
        && v.as_array().is_some_and(Vec::is_empty)
}

/// Builds the buffer of a pointer parameter from its fixture value (None for `out`).
fn buffer_for(
    shape: Shape,
    index: usize,
    p: &ParamDef,
    v: Option<&Value>,
) -> Result<Buffer, String> {
    if p.ty == CType::String {
        let s = v
            .and_then(Value::as_str)
            .ok_or_else(|| format!("`{}` must be a string", p.name))?;
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        return Ok(Buffer {
            param: index,
            bytes,
            shape: Shape::One,
            field: None,
        });
    }
    let size = p.ty.size();
    let cells = shape.cells();
    let mut bytes = vec![0u8; cells * size];
    if let Some(v) = v.filter(|v| matches!(p.pass, Pass::Inout | Pass::In) && !starts_empty(p, v)) {
        let flat: Vec<Value> = match shape {
            Shape::Grid(..) => grid_rows(p.ty, v).into_iter().flatten().flatten().collect(),
            Shape::Array(_) => v.as_array().into_iter().flatten().cloned().collect(),
            Shape::One => vec![v.clone()],
        };
        if flat.len() != cells {
            return Err(format!("`{}` must have {cells} values", p.name));
        }
        for (i, cell) in flat.iter().enumerate() {
            let bits = scalar_bits(p.ty, cell)
                .ok_or_else(|| format!("`{}`: {cell} is not a {:?}", p.name, p.ty))?;
            bytes[i * size..(i + 1) * size].copy_from_slice(&bits.to_le_bytes()[..size]);
        }
    }
    Ok(Buffer {
        param: index,
        bytes,
        shape,
        field: None,
    })
}

/// What a `pass = "world"` parameter points at: a real, readable address, never read by
/// the library's functions.
static WORLD_HANDLE: [u64; 8] = [0; 8];

/// A struct of three `char *` passed by value (`puzzleT`).
#[repr(C)]
#[derive(Clone, Copy)]
struct Rows([*mut u8; 3]);

/// The registers and the memory of one call.
struct Bound {
    regs: [u64; 6],
    buffers: Vec<Buffer>,
}

/// Splits a case's arguments into the function's own, the world's, and the parameters.
pub fn split_args<'a>(
    f: &FunctionDef,
    args: &'a [Value],
) -> (&'a [Value], &'a [Value], Option<&'a Map<String, Value>>) {
    let (args, params) = match args.last().and_then(Value::as_object) {
        Some(o) if o.contains_key(PARAMS_KEY) => (
            &args[..args.len() - 1],
            o.get(PARAMS_KEY).and_then(Value::as_object),
        ),
        _ => (args, None),
    };
    let own = f.fixture_params().count().min(args.len());
    (&args[..own], &args[own..], params)
}

fn bind(kit: &KitDef, f: &FunctionDef, args: &[Value]) -> Result<Bound, String> {
    let (own, _, _) = split_args(f, args);
    let mut given = own.iter();
    let mut bound = Bound {
        regs: [0; 6],
        buffers: Vec::new(),
    };
    for (i, p) in f.params.iter().enumerate() {
        let v = if p.from_fixture() {
            Some(
                given
                    .next()
                    .ok_or_else(|| format!("`{}` is missing", p.name))?,
            )
        } else {
            None
        };
        if let Some(n) = p.fields {
            let rows = v
                .and_then(Value::as_array)
                .filter(|a| a.len() == n)
                .ok_or_else(|| format!("`{}` must be {n} strings", p.name))?;
            for (k, row) in rows.iter().enumerate() {
                let mut b = buffer_for(Shape::One, i, p, Some(row))?;
                b.field = Some(k);
                bound.buffers.push(b);
            }
        } else if p.pass == Pass::World {
            bound.regs[i] = WORLD_HANDLE.as_ptr() as u64;
        } else if p.pass == Pass::Value && p.ty != CType::String {
            let v = v.expect("value parameters come from the fixture");
            bound.regs[i] = scalar_bits(p.ty, v)
                .ok_or_else(|| format!("`{}`: {v} is not a {:?}", p.name, p.ty))?;
        } else {
            let shape = shape_of(kit, f, args, p)
                .ok_or_else(|| format!("`{}`: its size is missing or too large", p.name))?;
            bound.buffers.push(buffer_for(shape, i, p, v)?);
        }
    }
    Ok(bound)
}

/// `labgrade_kit_call_cpp(fn, forms, regs, caps, dims)` (lg_kit_adapter.cpp).
type AdapterFn = unsafe extern "C" fn(usize, *const u8, *const u64, *const u64, *const u64) -> u64;
/// `labgrade_kit_call_cpp_rows(fn, puzzle, forms, regs, caps, dims)`.
type AdapterRowsFn =
    unsafe extern "C" fn(usize, Rows, *const u8, *const u64, *const u64, *const u64) -> u64;

/// labgrade's C++ adapter for a function written with C++ types (see [`super::cpp_form`]):
/// the address of its entry, and each parameter's form.
#[derive(Debug, Clone, Copy)]
pub struct Adapter {
    /// `labgrade_kit_call_cpp` or, for a function taking the puzzle by value first,
    /// `labgrade_kit_call_cpp_rows`.
    pub entry: usize,
    /// How each parameter reaches the student's function.
    pub forms: [Form; 6],
}

/// Inside the child: binds a call of `function` at `addr` with the case's `args`, installing
/// the problem's world (from `world`) in the library's `lg_world` when there is one; the
/// call goes through `via` when the function takes C++ strings.
pub fn prepare(
    kit: &'static KitDef,
    lib: &libloading::os::unix::Library,
    addr: usize,
    function: &str,
    args: &[Value],
    world: Option<Source>,
    via: Option<Adapter>,
) -> Result<PreparedCall, Ending> {
    let f = kit
        .function
        .iter()
        .find(|f| f.name == function)
        .ok_or_else(|| internal(format!("`{function}` is not a kit function")))?;
    let mut bound = bind(kit, f, args).map_err(internal)?;
    let (own, world_args, params) = split_args(f, args);
    let installed = match (world, &kit.world) {
        (Some(Source::Made(make)), Some(def)) => Some(world::install(
            lib,
            def,
            make(own, world_args, params).map_err(internal)?,
        )),
        (Some(Source::Hosted(shortcut)), Some(def)) => Some(world::install(
            lib,
            def,
            Box::new(super::remote_world::RemoteWorld::connect(def, shortcut)),
        )),
        _ => None,
    };
    let by_value = f.params.first().is_some_and(|p| p.fields.is_some());
    Ok(Box::new(move || {
        let mut rows = Rows([std::ptr::null_mut(); 3]);
        for b in &mut bound.buffers {
            match b.field {
                Some(k) => rows.0[k] = b.bytes.as_mut_ptr(),
                None => bound.regs[b.param] = b.bytes.as_mut_ptr() as u64,
            }
        }
        let r = bound.regs;
        // SAFETY: `addr` is the student's function, declared in the spec as taking these
        // parameters; see the module documentation for why one shape calls them all.
        let ret = if let Some(via) = via {
            // Per parameter: its buffer's bytes, and its rows and columns (1 and n for an
            // array).
            let mut caps = [0u64; 6];
            let mut dims = [0u64; 12];
            for b in bound.buffers.iter().filter(|b| b.field.is_none()) {
                caps[b.param] = b.bytes.len() as u64;
                let (rows, cols) = match b.shape {
                    Shape::Grid(r, c) => (r, c),
                    Shape::Array(n) => (1, n),
                    Shape::One => (1, 1),
                };
                dims[2 * b.param] = rows as u64;
                dims[2 * b.param + 1] = cols as u64;
            }
            let mut forms = [0u8; 6];
            for (i, p) in f.params.iter().enumerate().take(6) {
                forms[i] = via.forms[i].code(p.ty);
            }
            let (forms, regs, caps, dims) =
                (forms.as_ptr(), r.as_ptr(), caps.as_ptr(), dims.as_ptr());
            // SAFETY: the adapter's entries are labgrade's (lg_kit_adapter.cpp), declared
            // as these types; it calls `addr` with the student's C++ forms (see cpp_form).
            unsafe {
                if by_value {
                    let call: AdapterRowsFn = std::mem::transmute(via.entry);
                    call(addr, rows, forms, regs, caps, dims)
                } else {
                    let call: AdapterFn = std::mem::transmute(via.entry);
                    call(addr, forms, regs, caps, dims)
                }
            }
        } else if by_value {
            // The struct first, as the C declaration has it: the Rust ABI passes it as C
            // does on each machine (on the stack on x86-64, by reference on AArch64), and
            // the scalars after it take the registers the C callee reads them from.
            let call: unsafe extern "C" fn(Rows, u64, u64, u64, u64, u64) -> u64 =
                unsafe { std::mem::transmute(addr) };
            unsafe { call(rows, r[1], r[2], r[3], r[4], r[5]) }
        } else {
            let call: unsafe extern "C" fn(u64, u64, u64, u64, u64, u64) -> u64 =
                unsafe { std::mem::transmute(addr) };
            unsafe { call(r[0], r[1], r[2], r[3], r[4], r[5]) }
        };
        let mut out = Map::new();
        if f.returns != CType::Void {
            out.insert("return".into(), scalar_value(f.returns, ret));
        }
        for b in &bound.buffers {
            let p = &f.params[b.param];
            if p.read_back() {
                out.insert(p.name.clone(), b.decode(p));
            }
        }
        if let (Some(w), Some(def)) = (installed, &kit.world) {
            let mut record = w.finish();
            world::state_into_answer(def, &mut record, &mut out);
            out.insert("world".into(), record);
        }
        Value::Object(out)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_round_trip_through_register_bits() {
        for (ty, v) in [
            (CType::Int, json!(-5)),
            (CType::Uint, json!(4_000_000_000u32)),
            (CType::Long, json!(-9_000_000_000i64)),
            (CType::Bool, json!(true)),
            (CType::Char, json!("Q")),
            (CType::Point, json!([-3, 7])),
        ] {
            assert_eq!(scalar_value(ty, scalar_bits(ty, &v).unwrap()), v, "{ty:?}");
        }
        assert_eq!(scalar_bits(CType::Int, &json!(1u64 << 40)), None);
        assert_eq!(scalar_bits(CType::Uint, &json!(-1)), None);
        // Only the low bytes of a return register belong to the value.
        assert_eq!(scalar_value(CType::Bool, 0xffff_ff00), json!(false));
        assert_eq!(scalar_value(CType::Int, 0xdead_beef_0000_0007), json!(7));
    }
}
