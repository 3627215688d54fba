//! A case's maze, from what the fixture says.
//!
//! A maze case has one argument, a table:
//!
//! ```toml
//! args = [{ map = ["+-+-+", "|S  ", "+-+-+"] }]          # the map file, line by line
//! args = [{ seed = 7, width = 20, height = 15 }]           # a generated perfect maze
//! args = [{ seed = 7, width = 20, height = 15, loops = 6, exits = 2 }]
//! args = [{ seed = 7, width = 20, height = 15, solvable = false }]  # sealed off
//! args = [{ map = [...], variant = "keep-marks" }]         # exercise 3's other program
//! ```
//!
//! The map is inline (a list of lines, or one string) because the sandboxed child gets only
//! the case's arguments, never the fixtures directory. Generated mazes come from
//! [`labgrade_reference::maze::generate`]: the grader and the child build the same one.
//! `variant` says which of exercise 3's programs the case grades (`unmark`, Figure 7-3, the
//! default; or `keep-marks`, the same code without `UnmarkSquare`); it matters to the
//! `SolveMaze` cases only.

use labgrade_reference::maze::generate::{generate, Params};
use labgrade_reference::maze::{MapError, Maze, Variant};
use serde_json::Value;

/// Largest generated side.
pub const MAX_SIDE: usize = 400;
/// Largest map, in lines or characters per line.
pub const MAX_MAP: usize = 1001;

/// One case's input.
#[derive(Debug, Clone)]
pub struct Instance {
    /// The map text (rendered, for a generated maze).
    pub text: String,
    /// The maze, or why the map is not one (exercise 1's error cases).
    pub maze: Result<Maze, MapError>,
    /// Which of exercise 3's programs.
    pub variant: Variant,
    /// The generator's parameters, when generated.
    pub params: Option<Params>,
}

impl Instance {
    /// The maze, or a message for a fixture that needs one and has an error.
    pub fn valid(&self) -> Result<&Maze, String> {
        self.maze
            .as_ref()
            .map_err(|e| format!("the map is not a maze: {e}"))
    }
}

fn uint(o: &serde_json::Map<String, Value>, key: &str, default: u64) -> Result<u64, String> {
    match o.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| format!("`{key}` must be a non-negative integer (got `{v}`)")),
    }
}

fn map_text(v: &Value) -> Result<String, String> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => {
            let mut lines = Vec::with_capacity(a.len());
            for (i, l) in a.iter().enumerate() {
                lines.push(
                    l.as_str()
                        .ok_or_else(|| format!("`map`: line {} is `{l}`, not a string", i + 1))?,
                );
            }
            let mut t = lines.join("\n");
            t.push('\n');
            t
        }
        other => return Err(format!("`map` must be a list of lines (got `{other}`)")),
    };
    let lines = text.lines().count();
    if lines > MAX_MAP || text.lines().any(|l| l.chars().count() > MAX_MAP) {
        return Err(format!(
            "`map` is larger than labgrade takes ({MAX_MAP} lines of {MAX_MAP} characters)"
        ));
    }
    Ok(text)
}

/// Reads and checks a case's argument.
pub fn parse(v: &Value) -> Result<Instance, String> {
    let Value::Object(o) = v else {
        return Err(format!(
            "a maze case's argument is a table: `{{ map = [...] }}` or `{{ seed = S, width = W, \
             height = H }}` (got `{v}`)"
        ));
    };
    const KNOWN: [&str; 8] = [
        "map", "seed", "width", "height", "loops", "exits", "solvable", "variant",
    ];
    if let Some(k) = o.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(format!(
            "unknown key `{k}` in the maze (known: {})",
            KNOWN.join(", ")
        ));
    }
    let variant = match o.get("variant") {
        None => Variant::Unmark,
        Some(Value::String(s)) => Variant::parse(s).ok_or_else(|| {
            format!("`variant` is `{s}`: choose `unmark` (Figure 7-3) or `keep-marks` (exercise 3)")
        })?,
        Some(other) => return Err(format!("`variant` must be a string (got `{other}`)")),
    };
    match (o.get("map"), o.get("seed")) {
        (Some(m), None) => {
            if let Some(k) = ["width", "height", "loops", "exits", "solvable"]
                .iter()
                .find(|k| o.contains_key(**k))
            {
                return Err(format!("`{k}` goes with `seed` (a map gives its own size)"));
            }
            let text = map_text(m)?;
            Ok(Instance {
                maze: Maze::parse(&text),
                text,
                variant,
                params: None,
            })
        }
        (None, Some(_)) => {
            let side = |k: &str| -> Result<usize, String> {
                let n = uint(o, k, 0)? as usize;
                if !(1..=MAX_SIDE).contains(&n) {
                    return Err(format!("`{k}` must be from 1 to {MAX_SIDE}"));
                }
                Ok(n)
            };
            let p = Params {
                seed: uint(o, "seed", 0)?,
                width: side("width")?,
                height: side("height")?,
                loops: uint(o, "loops", 0)? as usize,
                exits: uint(o, "exits", 1)? as usize,
                solvable: match o.get("solvable") {
                    None => true,
                    Some(Value::Bool(b)) => *b,
                    Some(other) => {
                        return Err(format!("`solvable` must be true or false (got `{other}`)"))
                    }
                },
            };
            let maze = generate(&p);
            Ok(Instance {
                text: maze.render(),
                maze: Ok(maze),
                variant,
                params: Some(p),
            })
        }
        _ => {
            Err("give the maze exactly one way: `map`, or `seed` with `width` and `height`".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maps_and_seeds() {
        let a = parse(&json!({ "map": ["+-+-+", "|S  ", "+-+-+"] })).unwrap();
        let m = a.valid().unwrap();
        assert_eq!((m.width(), m.height()), (2, 1));
        assert_eq!(a.variant, Variant::Unmark);
        let b = parse(&json!({ "seed": 3, "width": 10, "height": 4, "variant": "keep-marks" }))
            .unwrap();
        assert_eq!(b.variant, Variant::KeepMarks);
        assert_eq!(b.valid().unwrap().width(), 10);
        let c = parse(&json!({ "map": "+-+\n| |\n+-+\n" })).unwrap();
        assert_eq!(c.maze, Err(MapError::NoStart));
    }

    #[test]
    fn malformed_cases_are_fixture_errors() {
        assert!(parse(&json!([1])).is_err());
        assert!(parse(&json!({ "seed": 1, "width": 0, "height": 3 })).is_err());
        assert!(parse(&json!({ "seed": 1, "width": 5 })).is_err());
        assert!(parse(&json!({ "map": ["+"], "seed": 1 })).is_err());
        assert!(parse(&json!({ "map": ["+"], "width": 3 })).is_err());
        assert!(parse(&json!({ "map": ["+"], "variant": "both" }))
            .unwrap_err()
            .contains("keep-marks"));
        assert!(parse(&json!({ "mpa": [] }))
            .unwrap_err()
            .contains("unknown key"));
    }
}
