//! A case's distance set, from what the fixture says.
//!
//! A turnpike case has one argument, the distance multiset D, written as one of:
//!
//! ```toml
//! args = [[1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10]]      # D itself
//! args = [{ distances = [1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10] }]
//! args = [{ points = [0, 1, 4, 10, 12, 17] }]   # D is their pairwise distances
//! args = [{ seed = 7, n = 1000 }]               # D of a seeded random point set
//! args = [{ seed = 7, n = 100, corrupt = true }]  # ... with one distance changed
//! ```
//!
//! Weiss' `turnpike` "presume[s] that a check has already been made to ensure that
//! |D| = n(n-1)/2": labgrade is the caller, so labgrade makes that check, here, when the
//! fixtures load. A D whose size is not n(n-1)/2 (n >= 3), or with a distance that is zero or
//! negative, is a fixture error, never a case students are graded on. A D of the right size
//! that no point set produces is a fine case: `turnpike` must return FALSE and leave D as
//! it was given.
//!
//! `seed` and `n` draw n distinct points, 0 and n - 1 others uniform in \[1, n²\] (the text's
//! experiment), with the reference's SplitMix64 ([`labgrade_reference::turnpike::random`]).
//! `corrupt = true` then adds one to the distance in the middle of the sorted multiset,
//! which (almost surely) leaves a set with no solution, failing deep in the search.

use labgrade_reference::turnpike::{distances, points_for, random_points};
use serde_json::Value;

/// Largest n a fixture may ask for (n = 2,000 is about two million distances).
pub const MAX_N: usize = 2000;
/// Largest distance (and coordinate span), so that no sum the algorithm forms overflows.
pub const MAX_DISTANCE: i64 = 1 << 29;

/// One case's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// Number of points.
    pub n: usize,
    /// D, ascending.
    pub distances: Vec<i32>,
    /// The point set D was made from, when the fixture gave one (or a seed).
    pub points: Option<Vec<i32>>,
}

fn int_list(v: &Value, what: &str) -> Result<Vec<i64>, String> {
    let a = v
        .as_array()
        .ok_or_else(|| format!("`{what}` must be a list of integers (got `{v}`)"))?;
    a.iter()
        .enumerate()
        .map(|(i, x)| {
            x.as_i64()
                .ok_or_else(|| format!("`{what}`: item {} is `{x}`, not an integer", i + 1))
        })
        .collect()
}

fn check_distances(ds: &[i64]) -> Result<Vec<i32>, String> {
    for (i, &d) in ds.iter().enumerate() {
        if d <= 0 {
            return Err(format!(
                "distance {} is {d}: distances are positive (|x_i - x_j| for two different \
                 points). Weiss presumes the caller hands turnpike a valid D, and labgrade is the \
                 caller: such a D is a fixture error, not a case",
                i + 1
            ));
        }
        if d > MAX_DISTANCE {
            return Err(format!(
                "distance {} is {d}: labgrade takes distances up to {MAX_DISTANCE}",
                i + 1
            ));
        }
    }
    let mut out: Vec<i32> = ds.iter().map(|&d| d as i32).collect();
    out.sort_unstable();
    Ok(out)
}

fn size_error(m: usize) -> String {
    // The n with n(n-1)/2 <= m < (n+1)n/2.
    let mut n = 1usize;
    while (n + 1) * n / 2 <= m {
        n += 1;
    }
    format!(
        "|D| = {m} is not n(n-1)/2 for any n >= 3 (the nearest are {} for n = {n} and {} for \
         n = {}): the text presumes that check has been made before turnpike is called, and \
         labgrade, the caller, makes it when the fixtures load",
        n * (n - 1) / 2,
        (n + 1) * n / 2,
        n + 1
    )
}

fn from_distances(ds: Vec<i32>, points: Option<Vec<i32>>) -> Result<Instance, String> {
    let m = ds.len();
    let n = points_for(m).filter(|&n| n >= 3).ok_or_else(|| {
        if m < 3 {
            format!(
                "|D| = {m}: turnpike needs at least 3 points (3 distances): Figure 10.64 places \
                 x[1], x[n-1] and x[n] before place runs"
            )
        } else {
            size_error(m)
        }
    })?;
    if n > MAX_N {
        return Err(format!("n = {n}: labgrade takes at most n = {MAX_N}"));
    }
    Ok(Instance {
        n,
        distances: ds,
        points,
    })
}

fn from_points(ps: &[i64]) -> Result<Instance, String> {
    if ps.len() < 3 {
        return Err(format!(
            "`points` has {} point(s): turnpike needs at least 3",
            ps.len()
        ));
    }
    if ps.len() > MAX_N {
        return Err(format!(
            "{} points: labgrade takes at most {MAX_N}",
            ps.len()
        ));
    }
    let mut sorted = ps.to_vec();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!(
            "`points` has {} twice: points must be distinct (two points at one place give a \
             distance 0)",
            w[0]
        ));
    }
    let span = sorted[sorted.len() - 1] - sorted[0];
    if span > MAX_DISTANCE || sorted[0].abs() > MAX_DISTANCE {
        return Err(format!(
            "`points` span {span}: labgrade takes coordinates within {MAX_DISTANCE} of each other"
        ));
    }
    let pts: Vec<i32> = sorted.iter().map(|&p| (p - sorted[0]) as i32).collect();
    from_distances(distances(&pts), Some(pts))
}

/// Reads and checks a case's argument.
pub fn parse(v: &Value) -> Result<Instance, String> {
    let obj = match v {
        Value::Array(_) => {
            let ds = check_distances(&int_list(v, "distances")?)?;
            return from_distances(ds, None);
        }
        Value::Object(o) => o,
        other => {
            return Err(format!(
                "turnpike's argument is the distance set: a list of distances, or a table with \
                 `distances`, `points`, or `seed` and `n` (got `{other}`)"
            ))
        }
    };
    const KNOWN: [&str; 5] = ["distances", "points", "seed", "n", "corrupt"];
    if let Some(k) = obj.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(format!(
            "unknown key `{k}` in the distance set (known: {})",
            KNOWN.join(", ")
        ));
    }
    let sources = ["distances", "points", "seed"]
        .iter()
        .filter(|k| obj.contains_key(**k))
        .count();
    if sources != 1 {
        return Err(
            "give the distance set exactly one way: `distances`, `points`, or `seed` with `n`"
                .into(),
        );
    }
    let corrupt = match obj.get("corrupt") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("`corrupt` must be true or false (got `{other}`)")),
    };
    let mut inst = if let Some(ds) = obj.get("distances") {
        from_distances(check_distances(&int_list(ds, "distances")?)?, None)?
    } else if let Some(ps) = obj.get("points") {
        from_points(&int_list(ps, "points")?)?
    } else {
        let seed = obj
            .get("seed")
            .and_then(Value::as_i64)
            .filter(|s| *s >= 0)
            .ok_or("`seed` must be a non-negative integer")?;
        let n = obj
            .get("n")
            .and_then(Value::as_i64)
            .filter(|n| (3..=MAX_N as i64).contains(n))
            .ok_or_else(|| format!("`n` must be an integer from 3 to {MAX_N}"))?;
        let pts = random_points(seed as u64, n as usize);
        from_distances(distances(&pts), Some(pts))?
    };
    if obj.contains_key("n") && !obj.contains_key("seed") {
        return Err(
            "`n` goes with `seed` (for `distances` and `points`, n follows from them)".into(),
        );
    }
    if corrupt {
        let mid = inst.distances.len() / 2;
        inst.distances[mid] += 1;
        inst.distances.sort_unstable();
        inst.points = None;
    }
    Ok(inst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const WORKED: [i32; 15] = [1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10];

    #[test]
    fn the_forms_agree() {
        let a = parse(&json!(WORKED)).unwrap();
        let b = parse(&json!({ "distances": WORKED })).unwrap();
        let c = parse(&json!({ "points": [0, 3, 5, 6, 8, 10] })).unwrap();
        let d = parse(&json!({ "points": [10, 8, 6, 5, 3, 0] })).unwrap();
        assert_eq!(a.n, 6);
        assert_eq!(a.distances, WORKED.to_vec());
        assert_eq!(b.distances, a.distances);
        assert_eq!(c.distances, a.distances);
        assert_eq!(d.distances, a.distances);
        // Unsorted distances are sorted.
        let e = parse(&json!([10, 1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8])).unwrap();
        assert_eq!(e.distances, a.distances);
    }

    #[test]
    fn seeded_sets() {
        let a = parse(&json!({ "seed": 3, "n": 30 })).unwrap();
        assert_eq!(a.n, 30);
        assert_eq!(a.distances.len(), 435);
        assert_eq!(a, parse(&json!({ "seed": 3, "n": 30 })).unwrap());
        let c = parse(&json!({ "seed": 3, "n": 30, "corrupt": true })).unwrap();
        assert_eq!(c.distances.len(), 435);
        assert_ne!(c.distances, a.distances);
        assert_eq!(
            c.distances.iter().map(|&d| d as i64).sum::<i64>(),
            a.distances.iter().map(|&d| d as i64).sum::<i64>() + 1
        );
    }

    #[test]
    fn bad_sizes_are_fixture_errors() {
        let e = parse(&json!([1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10, 11])).unwrap_err();
        assert!(e.contains("|D| = 16 is not n(n-1)/2"), "{e}");
        assert!(e.contains("15 for n = 6 and 21 for n = 7"), "{e}");
        assert!(e.contains("presumes"), "{e}");
        let e = parse(&json!([1])).unwrap_err();
        assert!(e.contains("at least 3 points"), "{e}");
        let e = parse(&json!([])).unwrap_err();
        assert!(e.contains("at least 3 points"), "{e}");
    }

    #[test]
    fn non_positive_distances_are_fixture_errors() {
        let e = parse(&json!([1, 0, 1])).unwrap_err();
        assert!(e.contains("distance 2 is 0: distances are positive"), "{e}");
        let e = parse(&json!({ "distances": [3, -1, 2] })).unwrap_err();
        assert!(e.contains("is -1"), "{e}");
        let e = parse(&json!({ "points": [0, 4, 4] })).unwrap_err();
        assert!(e.contains("4 twice"), "{e}");
    }

    #[test]
    fn malformed_tables() {
        assert!(parse(&json!({ "distances": [1, 2, 3], "seed": 1, "n": 3 })).is_err());
        assert!(parse(&json!({ "seed": 1 })).unwrap_err().contains("`n`"));
        assert!(parse(&json!({ "seed": 1, "n": 2 })).is_err());
        assert!(parse(&json!({ "seed": 1, "n": 5000 })).is_err());
        assert!(parse(&json!({ "points": [0, 1, 3], "n": 3 })).is_err());
        assert!(parse(&json!({ "dist": [1] }))
            .unwrap_err()
            .contains("unknown key"));
        assert!(parse(&json!("1 2 3")).is_err());
        assert!(parse(&json!([1, 2, "x"]))
            .unwrap_err()
            .contains("not an integer"));
    }
}
