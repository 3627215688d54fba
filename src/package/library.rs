//! What a package's own C libraries (its world, its checker) share: how they are loaded, and
//! how a case's values reach them (`struct lg_input` of `specs/lib/lg_input.h`).

use std::ffi::{c_char, c_int, CString};
use std::path::Path;

use serde_json::Value;

use crate::problems::kit::abi::FunctionDef;

/// Loads a package library in a host process (its constructors run here, before the host
/// restricts itself).
pub fn load(path: &Path, what: &str) -> Result<libloading::os::unix::Library, String> {
    // SAFETY: the package's own library, built by labgrade from the instructor's sources.
    unsafe {
        libloading::os::unix::Library::open(
            Some(path),
            libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL,
        )
    }
    .map_err(|e| format!("cannot load the package's {what}: {e}"))
}

/// `struct lg_input` of lg_input.h.
#[repr(C)]
pub struct Input {
    name: *const c_char,
    rows: c_int,
    cols: c_int,
    values: *const i64,
    text: *const c_char,
}

/// The memory an [`Input`] points at.
pub struct Owned {
    name: CString,
    rows: usize,
    cols: usize,
    values: Vec<i64>,
    text: Option<CString>,
}

impl Owned {
    /// An input from a case's value: an integer (or a bool) is a scalar (0 rows, 0 columns,
    /// one value); a string one row of its characters' codes, with its text; an array of
    /// integers one row; an array of equal rows of integers a grid; an array of strings a
    /// grid of characters (short rows padded with spaces), with its rows joined by `\n` as
    /// its text.
    pub fn of(name: &str, value: &Value) -> Result<Owned, String> {
        let unusable = || {
            format!(
                "the world's input `{name}` is {value}: a world's inputs are integers, strings, \
                 arrays of integers, and grids (arrays of equal rows of integers, or of strings)"
            )
        };
        let scalar = |v: &Value| v.as_i64().or_else(|| v.as_bool().map(i64::from));
        let c = |s: &str| CString::new(s).map_err(|_| unusable());
        let name = c(name)?;
        if let Some(n) = scalar(value) {
            return Ok(Owned {
                name,
                rows: 0,
                cols: 0,
                values: vec![n],
                text: None,
            });
        }
        if let Some(s) = value.as_str() {
            return Ok(Owned {
                name,
                rows: 1,
                cols: s.len(),
                values: s.bytes().map(i64::from).collect(),
                text: Some(c(s)?),
            });
        }
        let items = value.as_array().ok_or_else(unusable)?;
        if let Some(row) = items.iter().map(scalar).collect::<Option<Vec<i64>>>() {
            return Ok(Owned {
                name,
                rows: 1,
                cols: row.len(),
                values: row,
                text: None,
            });
        }
        if let Some(lines) = items.iter().map(Value::as_str).collect::<Option<Vec<_>>>() {
            let cols = lines.iter().map(|l| l.len()).max().unwrap_or(0);
            let mut values = Vec::with_capacity(lines.len() * cols);
            for line in &lines {
                values.extend(line.bytes().map(i64::from));
                values.extend(std::iter::repeat_n(i64::from(b' '), cols - line.len()));
            }
            return Ok(Owned {
                name,
                rows: lines.len(),
                cols,
                values,
                text: Some(c(&lines.join("\n"))?),
            });
        }
        let rows: Vec<Vec<i64>> = items
            .iter()
            .map(|r| {
                r.as_array()?
                    .iter()
                    .map(scalar)
                    .collect::<Option<Vec<i64>>>()
            })
            .collect::<Option<_>>()
            .ok_or_else(unusable)?;
        let cols = rows.first().map_or(0, Vec::len);
        if rows.iter().any(|r| r.len() != cols) {
            return Err(unusable());
        }
        Ok(Owned {
            name,
            rows: rows.len(),
            cols,
            values: rows.concat(),
            text: None,
        })
    }

    /// The `struct lg_input` over this memory (valid while `self` lives).
    pub fn as_input(&self) -> Input {
        Input {
            name: self.name.as_ptr(),
            rows: self.rows as c_int,
            cols: self.cols as c_int,
            values: self.values.as_ptr(),
            text: self.text.as_ref().map_or(std::ptr::null(), |t| t.as_ptr()),
        }
    }
}

/// A call's values by name: the function's own arguments (by their parameters' names),
/// then the case's world inputs (by the names the spec gives them).
pub fn named_call<'a>(
    f: &FunctionDef,
    own: &'a [Value],
    world_inputs: &'a [Value],
) -> Vec<(String, &'a Value)> {
    f.fixture_params()
        .map(|p| p.name.clone())
        .zip(own)
        .chain(f.world_inputs.iter().cloned().zip(world_inputs))
        .collect()
}

/// The inputs `named`, owned, in order; Null values (a void's return) are left out.
pub fn owned(named: &[(String, &Value)]) -> Result<Vec<Owned>, String> {
    named
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(name, value)| Owned::of(name, value))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_case_s_values_become_the_world_s_inputs() {
        let scalar = Owned::of("n", &json!(7)).unwrap();
        assert_eq!((scalar.rows, scalar.cols, scalar.values), (0, 0, vec![7]));
        let word = Owned::of("w", &json!("ab")).unwrap();
        assert_eq!((word.rows, word.cols), (1, 2));
        assert_eq!(word.values, vec![97, 98]);
        assert_eq!(word.text.unwrap().to_str().unwrap(), "ab");
        let grid = Owned::of("g", &json!([[1, 2], [3, 4], [5, 6]])).unwrap();
        assert_eq!((grid.rows, grid.cols), (3, 2));
        assert_eq!(grid.values, vec![1, 2, 3, 4, 5, 6]);
        let map = Owned::of("map", &json!(["#.", "#"])).unwrap();
        assert_eq!((map.rows, map.cols), (2, 2));
        assert_eq!(map.values, vec![35, 46, 35, 32]);
        assert_eq!(map.text.unwrap().to_str().unwrap(), "#.\n#");
        let e = Owned::of("g", &json!([[1, 2], [3]])).err().unwrap();
        assert!(e.contains("`g`") && e.contains("equal rows"), "{e}");
        assert!(Owned::of("o", &json!({ "a": 1 })).is_err());
    }
}
