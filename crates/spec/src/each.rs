//! `each`: one fixture line for a range or a product of inputs.
//!
//! `each = { n = "2..=22", side = ["a", "b"] }` names variables and their values: an integer
//! range written as a string (`"2..=22"` inclusive, `"2..22"` without 22, as in Rust), or an
//! array of TOML values. The case expands to every combination, the first variable outermost
//! (the order written), and `{n}` is replaced in the name (which must use every variable, so
//! names stay unique), in `call`, `args`, `expect`, `stdin` and `argv`. In `args` and `expect` a
//! string that is exactly `"{n}"` becomes the value itself (an integer stays an integer, an
//! array an array); elsewhere the value's text is spliced in (a string without quotes).
//!
//! The functions here return plain messages; the fixture loader adds the file and line.

use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use toml::{Spanned, Value};

/// The most cases one line may expand to.
pub const MAX_EXPANDED: u128 = 10_000;

/// The variables of one `each`, in the order written.
pub type Vars = Vec<(String, Value)>;

/// One combination: each variable with one of its values.
pub type Binding = Vec<(String, Value)>;

/// Deserializes `each` keeping the variables in the order written: each key is read with its
/// position in the file and the variables are sorted by that, so the order does not hang on
/// how toml stores a table. (labgrade enables toml's `preserve_order` too, so that
/// `labgrade export`, which rewrites fixture files, keeps the variables in that order.)
pub fn deserialize<'de, D>(d: D) -> Result<Option<Vars>, D::Error>
where
    D: Deserializer<'de>,
{
    struct EachVisitor;
    impl<'de> Visitor<'de> for EachVisitor {
        type Value = Vars;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a table of variables, like `each = { n = \"2..=22\" }`")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vars, A::Error> {
            let mut vars: Vec<(Spanned<String>, Value)> = Vec::new();
            while let Some(entry) = map.next_entry::<Spanned<String>, Value>()? {
                vars.push(entry);
            }
            vars.sort_by_key(|(k, _)| k.span().start);
            Ok(vars.into_iter().map(|(k, v)| (k.into_inner(), v)).collect())
        }
    }
    d.deserialize_map(EachVisitor).map(Some)
}

/// What to write instead, for every message about a variable's values.
const HOW: &str = "write a range of integers as a string (\"2..=22\" for 2 to 22, \"2..22\" \
                   for 2 to 21) or list the values in an array ([1, 5, 9], [\"a\", \"b\"])";

/// `each = {}`.
const NO_VARIABLES: &str =
    "`each = {}` has no variables: remove it, or add one (`each = { n = \"2..=22\" }`)";

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Checks the variables' names and values and works out every combination, first variable
/// outermost. Nothing is built before the number of combinations is known to be at most
/// [`MAX_EXPANDED`].
pub fn combinations(vars: &Vars) -> Result<Vec<Binding>, String> {
    if vars.is_empty() {
        return Err(NO_VARIABLES.into());
    }
    let mut total: u128 = 1;
    for (name, value) in vars {
        if name.is_empty() || !name.chars().all(is_name_char) {
            return Err(format!(
                "each: `{name}` cannot be a variable: use letters, digits, `_` and `-`, so \
                 that `{{{name}}}` can be written in the name"
            ));
        }
        total = total.saturating_mul(count(name, value)?);
    }
    if total > MAX_EXPANDED {
        return Err(format!(
            "`each` expands this line to {total} cases, more than {MAX_EXPANDED}: split it \
             over several lines, or give fewer values"
        ));
    }
    let lists: Vec<Vec<Value>> = vars
        .iter()
        .map(|(name, value)| values(name, value))
        .collect::<Result<_, _>>()?;
    let mut out = Vec::with_capacity(total as usize);
    let mut index = vec![0usize; lists.len()];
    loop {
        out.push(
            vars.iter()
                .zip(&lists)
                .zip(&index)
                .map(|(((name, _), list), &i)| (name.clone(), list[i].clone()))
                .collect(),
        );
        // The last variable varies fastest, so the first is outermost.
        let mut k = lists.len();
        loop {
            if k == 0 {
                return Ok(out);
            }
            k -= 1;
            index[k] += 1;
            if index[k] < lists[k].len() {
                break;
            }
            index[k] = 0;
        }
    }
}

/// A range string's bounds: start and end, the end excluded.
fn range(name: &str, text: &str) -> Result<(i64, i128), String> {
    let malformed = || format!("each.{name} = \"{text}\" is not a range: {HOW}");
    let (start, rest) = text.split_once("..").ok_or_else(malformed)?;
    let (end, inclusive) = match rest.strip_prefix('=') {
        Some(end) => (end, true),
        None => (rest, false),
    };
    let start: i64 = start.trim().parse().map_err(|_| malformed())?;
    let end: i64 = end.trim().parse().map_err(|_| malformed())?;
    let end = i128::from(end) + i128::from(inclusive);
    if end <= i128::from(start) {
        let first = if inclusive {
            "the first bound must not be greater than the last"
        } else {
            "the first bound must be less than the last (`..` leaves the last out; `..=` keeps it)"
        };
        return Err(format!(
            "each.{name} = \"{text}\" is an empty range, so this line would make no case: \
             {first}"
        ));
    }
    Ok((start, end))
}

fn count(name: &str, value: &Value) -> Result<u128, String> {
    match value {
        Value::String(text) => {
            let (start, end) = range(name, text)?;
            Ok((end - i128::from(start)) as u128)
        }
        Value::Array(items) if items.is_empty() => Err(format!(
            "each.{name} = [] has no values, so this line would make no case: list at least one"
        )),
        Value::Array(items) => Ok(items.len() as u128),
        other => Err(format!(
            "each.{name} = {other} is neither a range nor an array: {HOW}"
        )),
    }
}

fn values(name: &str, value: &Value) -> Result<Vec<Value>, String> {
    match value {
        Value::String(text) => {
            let (start, end) = range(name, text)?;
            // `end` is at most i64::MAX + 1 and `count` has bounded the length.
            Ok((i128::from(start)..end)
                .map(|i| Value::Integer(i as i64))
                .collect())
        }
        Value::Array(items) => Ok(items.clone()),
        _ => unreachable!("count() has checked the value"),
    }
}

/// The placeholders `{name}` in `text` (a name of letters, digits, `_` and `-`; other braces
/// are text).
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let len = after
            .find(|c: char| !is_name_char(c))
            .unwrap_or(after.len());
        if len > 0 && after[len..].starts_with('}') {
            out.push(&after[..len]);
            rest = &after[len + 1..];
        } else {
            rest = after;
        }
    }
    out
}

/// A value's text when spliced into a string: a string as it is, anything else as TOML.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `text` with every `{var}` of `binding` replaced by its value's text; other braces stay.
pub fn splice(text: &str, binding: &Binding) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let len = after
            .find(|c: char| !is_name_char(c))
            .unwrap_or(after.len());
        let bound = (len > 0 && after[len..].starts_with('}'))
            .then(|| binding.iter().find(|(name, _)| name == &after[..len]))
            .flatten();
        match bound {
            Some((_, value)) => {
                out.push_str(&text_of(value));
                rest = &after[len + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `value` with the variables substituted, into arrays and tables: a string that is exactly
/// `"{var}"` becomes the variable's value, keeping its type; any other string is spliced.
pub fn substitute(value: &Value, binding: &Binding) -> Value {
    match value {
        Value::String(s) => {
            let whole = s
                .strip_prefix('{')
                .and_then(|s| s.strip_suffix('}'))
                .and_then(|var| binding.iter().find(|(name, _)| name == var));
            match whole {
                Some((_, v)) => v.clone(),
                None => Value::String(splice(s, binding)),
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| substitute(v, binding)).collect()),
        Value::Table(table) => Value::Table(substitute_table(table, binding)),
        other => other.clone(),
    }
}

/// [`substitute`] on every value of a table (its keys stay as written).
pub fn substitute_table(table: &toml::Table, binding: &Binding) -> toml::Table {
    table
        .iter()
        .map(|(k, v)| (k.clone(), substitute(v, binding)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(text: &str) -> Vars {
        #[derive(serde::Deserialize)]
        struct W {
            #[serde(deserialize_with = "deserialize")]
            each: Option<Vars>,
        }
        toml::from_str::<W>(text).unwrap().each.unwrap()
    }

    #[test]
    fn variables_keep_the_written_order() {
        let v = vars("each = { zeta = [1], alpha = [2], mid = [3] }");
        let names: Vec<&str> = v.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["zeta", "alpha", "mid"]);
        let v = vars("[each]\nb = [1]\na = \"1..3\"\n");
        assert_eq!(v[0].0, "b");
        assert_eq!(v[1].0, "a");
    }

    #[test]
    fn ranges_inclusive_exclusive_and_negative() {
        let c = combinations(&vars("each = { n = \"-1..=1\" }")).unwrap();
        let ns: Vec<i64> = c.iter().map(|b| b[0].1.as_integer().unwrap()).collect();
        assert_eq!(ns, [-1, 0, 1]);
        let c = combinations(&vars("each = { n = \" 2 .. 5 \" }")).unwrap();
        assert_eq!(c.len(), 3);
        let c = combinations(&vars(&format!(
            "each = {{ n = \"{}..={}\" }}",
            i64::MAX - 1,
            i64::MAX
        )))
        .unwrap();
        assert_eq!(c[1][0].1.as_integer(), Some(i64::MAX));
    }

    #[test]
    fn placeholders_and_splicing_leave_other_braces_alone() {
        assert_eq!(placeholders("a/{n}/{x-y}/{}/{2..15}/{n"), ["n", "x-y"]);
        let b: Binding = vec![("n".into(), Value::Integer(7))];
        assert_eq!(splice("{n}-{m}-{}-{n", &b), "7-{m}-{}-{n");
    }
}
