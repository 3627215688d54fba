//! Weiss' Miller-Rabin test (seed 001, Figure 10.62) through the kit: `power` with its
//! non-trivial square root check, and `test_prime`, whose `rand_int` is labgrade's (the
//! fixture chooses the witness).

use labgrade_reference::kit::Tally;
use labgrade_reference::miller_rabin as reference;
use serde_json::{json, Map, Value};

use super::world::World;
use super::{KitAbi, KitProblem, RefCall, RefRun};
use crate::problems::Mismatch;
use crate::sandbox::Ending;

/// Steps of the reference's trace kept.
const TRACE_KEEP: usize = 4096;

/// The child's side.
pub static ABI: KitAbi = KitAbi::new(
    "miller-rabin",
    include_str!("../../../specs/miller-rabin.toml"),
    Some(witnesses),
);

/// The grader's side.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's checker, see `crate::student`).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference).with_explain(explain)
}

/// `rand_int` answers the case's witnesses in turn (the last one again when they run out;
/// its lower bound when the case gives none, as in a `power` case, where it is not called).
struct Witnesses {
    list: Vec<i64>,
    next: usize,
}

impl World for Witnesses {
    fn answer(&mut self, _op: usize, args: &[i64]) -> i64 {
        let Some(last) = self.list.len().checked_sub(1) else {
            return args.first().copied().unwrap_or(0);
        };
        let v = self.list[self.next.min(last)];
        self.next += 1;
        v
    }
}

fn witnesses(
    _own: &[Value],
    inputs: &[Value],
    _params: super::world::Params<'_>,
) -> Result<Box<dyn World>, String> {
    let list: Vec<i64> = match inputs.first() {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_i64).collect(),
        Some(v) => v.as_i64().into_iter().collect(),
        None => Vec::new(),
    };
    if !inputs.is_empty() && list.is_empty() {
        return Err("the witness rand_int answers must be an integer, or a list of them".into());
    }
    Ok(Box::new(Witnesses { list, next: 0 }))
}

fn uint(args: &[Value], i: usize) -> Result<u32, String> {
    args.get(i)
        .and_then(Value::as_u64)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| format!("argument {} must be an unsigned int", i + 1))
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    let mut tally = Tally::new(TRACE_KEEP);
    let mut value = Map::new();
    match c.function {
        "power" => {
            let (a, p, n) = (uint(c.args, 0)?, uint(c.args, 1)?, uint(c.args, 2)?);
            if n == 0 {
                return Err("power's n must be at least 1 (it is a modulus)".into());
            }
            let mut whatnis = c.args.get(3).and_then(Value::as_i64).unwrap_or(0);
            let result = reference::power(&mut tally, a, p, n, &mut whatnis);
            value.insert("return".into(), Value::Null);
            value.insert("result".into(), json!(result));
            value.insert("whatnis".into(), json!(whatnis));
        }
        "test_prime" => {
            let n = uint(c.args, 0)?;
            if n < 5 {
                return Err("test_prime's n must be at least 5 (it draws a from 2..n-2)".into());
            }
            let world = c.world.ok_or("test_prime needs rand_int")?;
            let verdict =
                reference::test_prime(&mut tally, n, &mut |lo, hi| world.call(0, [lo, hi, 0, 0]));
            value.insert("return".into(), json!(verdict));
        }
        other => return Err(format!("miller-rabin has no function `{other}`")),
    }
    Ok(RefRun {
        value: Some(value),
        tally,
        stdout: None,
    })
}

/// `power` with `x * x` computed in 32 bits, as a C `unsigned int` does.
fn power_in_32_bits(a: u32, p: u32, n: u32, whatnis: &mut i64) -> u32 {
    if p == 0 {
        return 1;
    }
    let x = power_in_32_bits(a, p / 2, n, whatnis);
    let mut r = x.wrapping_mul(x) % n;
    if r == 1 && x != 1 && x != n - 1 {
        *whatnis = reference::DEFINITELY_COMPOSITE;
    }
    if p % 2 == 1 {
        r = r.wrapping_mul(a) % n;
    }
    r
}

/// Overflow in `x * x`: the observed result is exactly what 32-bit arithmetic gives.
fn explain(m: &Mismatch<'_>) -> Option<String> {
    if m.case.def.call.as_deref() != Some("power")
        || matches!(m.observed.ending, Ending::StackOverflow)
    {
        return None;
    }
    let args = &m.case.def.args;
    let arg = |i: usize| {
        args.get(i)?
            .as_integer()
            .and_then(|v| u32::try_from(v).ok())
    };
    let (a, p, n) = (arg(0)?, arg(1)?, arg(2)?);
    let got = m.observed.value.as_ref()?;
    let mut whatnis = args.get(3)?.as_integer()?;
    let wrapped = power_in_32_bits(a, p, n, &mut whatnis);
    let expected = match &m.expected.outcome {
        crate::problems::RefOutcome::Returns(v) => v.get("result")?.as_u64()?,
        crate::problems::RefOutcome::Diverges => return None,
    };
    (n > 65_535
        && u64::from(wrapped) != expected
        && got.get("result")?.as_u64()? == u64::from(wrapped)
        && got.get("whatnis")?.as_i64()? == whatnis)
        .then(|| {
            format!(
                "your result is exactly what `(x * x) % n` gives when x * x is computed in 32 \
                 bits: for n = {n} (more than 65535) the product overflows unsigned int. The text \
                 assumes \"very large integers\": compute it as (unsigned long long) x * x % n"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_two_bit_power_differs_only_past_65535() {
        let mut w = 0;
        let mut w2 = 0;
        let mut t = Tally::new(0);
        assert_eq!(
            power_in_32_bits(3, 1000, 65_521, &mut w),
            reference::power(&mut t, 3, 1000, 65_521, &mut w2)
        );
        assert_ne!(
            power_in_32_bits(3, 4_000_000, 4_294_967_291, &mut w),
            reference::power(&mut t, 3, 4_000_000, 4_294_967_291, &mut w2)
        );
    }
}
