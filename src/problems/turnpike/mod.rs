//! Weiss' turnpike reconstruction (seed 001, Figures 10.63 to 10.65): `turnpike` and
//! `place`, graded against the exact reference with the distance set as labgrade's
//! instrumented world.
//!
//! Students write `turnpike` and `place` in C against `specs/turnpike/turnpike.h`; D is a
//! `dist_set` whose operations call back into labgrade ([`world`]), which answers them from
//! a multiset and records everything. One run of `turnpike` yields one record (result,
//! points, D afterwards, operation counts, misuse, the search as placements and undo blocks,
//! backtracks); the case functions grade different parts of it:
//!
//! | case function        | compare               | graded                                        |
//! |----------------------|-----------------------|-----------------------------------------------|
//! | `turnpike`           | `return`              | result and x\[1..n\] ([`judge::answer`])       |
//! | `turnpike`           | `calls`, `max_depth`  | `place` calls and depth (generic counters)    |
//! | `turnpike_distances` | `return`              | D empty / as given, no misuse                 |
//! | `turnpike_search`    | `return`              | order of the search, backtracks               |
//!
//! All three call the submission's `turnpike` symbol. The case's argument is the distance
//! set ([`input`]); labgrade checks |D| = n(n-1)/2 and positive distances when fixtures load,
//! as the text presumes the caller does. The reference ([`labgrade_reference::turnpike`])
//! runs on the same [`world::World`] in the grader, so both records are made by one code.

mod evidence;
pub mod input;
pub mod judge;
pub mod world;

use std::collections::BTreeMap;
use std::ffi::c_int;
use std::sync::Arc;

use labgrade_reference::turnpike::{reconstruct, Run};
use serde_json::Value;

use super::abi::{FunctionSig, PreparedCall, Scalar};
use super::memo::{first_arg, Memo};
use super::{
    CppAdapted, Expected, Mismatch, Params, PlainForm, Problem, RefOutcome, ReturnComparison, Runs,
};
use crate::sandbox::{Ending, RunInput};
use crate::spec::{Case, CompareItem};
use crate::submission::signature::{self, Class, Signature};
use crate::submission::symbols::demangle;
use input::Instance;
use world::{AdapterFn, IntArrayFn, MultisetAdapterFn, TurnpikeFn, World};

/// The turnpike problem: with its solver ([`TURNPIKE`], the grader's) or without
/// ([`JUDGE`], the student bundle's checker and the child's: it reads the reference's record
/// of each case from the bundle's evidence, computed at export, see [`crate::student`]).
pub struct Turnpike {
    solver: Option<Solve>,
}

/// The reference's record on a case's argument, computed ([`reference_for`]).
type Solve = fn(&Value) -> Result<Arc<Reference>, String>;

/// Turnpike, graded against the exact reference.
pub static TURNPIKE: Turnpike = Turnpike {
    solver: Some(reference_for),
};

/// The same without its solver.
pub static JUDGE: Turnpike = Turnpike { solver: None };

const DECL: &str = "int turnpike(int x[], dist_set D, unsigned int n)";

const FUNCTIONS: &[FunctionSig] = &[
    FunctionSig {
        name: "turnpike",
        decl: DECL,
        params: &[Scalar::Json],
        ret: Scalar::Json,
    },
    FunctionSig {
        name: "turnpike_distances",
        decl: DECL,
        params: &[Scalar::Json],
        ret: Scalar::Json,
    },
    FunctionSig {
        name: "turnpike_search",
        decl: DECL,
        params: &[Scalar::Json],
        ret: Scalar::Json,
    },
];

/// Counted in this order.
const COUNTED: &[&str] = &["place", "turnpike"];

/// The reference's behaviour on one distance set.
#[derive(Debug)]
pub struct Reference {
    /// The input.
    pub inst: Instance,
    /// Its record on labgrade's world (what a submission's record is compared with).
    pub summary: Value,
    /// Its counted run, with the steps of the search.
    pub run: Run,
}

/// References already computed, by argument.
static REFERENCES: Memo<Reference> = Memo::new();

/// Runs the reference on `inst` through labgrade's world.
pub fn run_reference(inst: Instance) -> Reference {
    let mut w = World::new(&inst.distances);
    let run = reconstruct(&mut w, inst.n, true);
    w.finish();
    let summary = w.summary(
        c_int::from(run.found),
        run.found.then_some(run.points.as_slice()),
        &[],
    );
    Reference { inst, summary, run }
}

/// The reference on a case's argument, computed once per distinct argument. The recursion
/// runs on a thread of its own with a large stack (n can be 2,000).
pub fn reference_for(arg: &Value) -> Result<Arc<Reference>, String> {
    let arg_owned = arg.clone();
    REFERENCES.get_or_compute(arg.to_string(), 256, move || {
        Ok(run_reference(input::parse(&arg_owned)?))
    })
}

/// The evidence's key of the reference's record on a case's argument.
fn evidence_key(arg: &Value) -> String {
    format!("turnpike reference: {arg}")
}

/// The reference's record, read back from a bundle's evidence ([`Turnpike::evidence`]).
fn from_evidence(arg: &Value) -> Result<Arc<Reference>, String> {
    static READ: Memo<Reference> = Memo::new();
    let arg_owned = arg.clone();
    READ.get_or_compute(arg.to_string(), 256, move || {
        let fact = crate::problems::precomputed::evidence(&evidence_key(&arg_owned))
            .ok_or("this bundle holds no reference record for this case")?;
        let summary = fact.get("summary").cloned().unwrap_or(Value::Null);
        let run = fact
            .get("run")
            .and_then(evidence::run_from)
            .ok_or("this bundle's reference record does not read")?;
        Ok(Reference {
            inst: input::parse(&arg_owned)?,
            summary,
            run,
        })
    })
}

impl Turnpike {
    /// The reference's record on a case's argument: computed, or read from the bundle.
    fn reference(&self, arg: &Value) -> Result<Arc<Reference>, String> {
        match self.solver {
            Some(solve) => solve(arg),
            None => from_evidence(arg),
        }
    }

    /// Inside the child: binds a call of `function` (see [`crate::problems::child`]).
    pub fn prepare_call(
        &self,
        lib: &libloading::os::unix::Library,
        symbols: &BTreeMap<String, String>,
        function: &str,
        args: &[Value],
    ) -> Result<PreparedCall, Ending> {
        let inst = || {
            args.first()
                .ok_or_else(|| "no distance set".to_string())
                .and_then(input::parse)
                .map_err(|m| Ending::InternalError {
                    message: format!("cannot read the case's distance set: {m}"),
                })
        };
        // A submission with a distance set of its own hands labgrade this adapter (its
        // symbol, mangled when written in C++ without extern "C", is in `symbols`).
        let adapter = symbols.get("labgrade_turnpike").and_then(|sym| {
            // SAFETY: only the address is read; turnpike.h documents the signature, which
            // the grader checked against the library's debug information.
            unsafe { lib.get::<AdapterFn>(sym.as_bytes()) }
                .ok()
                .map(|s| *s)
        });
        if let Some(adapter) = adapter {
            let inst = inst()?;
            return Ok(Box::new(move || {
                // SAFETY: `adapter` has the documented signature (above).
                unsafe {
                    world::run_adapter(|x, d, c, n| adapter(x, d, c, n), inst.n, &inst.distances)
                }
            }));
        }
        // A turnpike on a plain int D[]: the grader found that form in its debug information.
        if let Some(sym) = symbols.get(INT_ARRAY) {
            // SAFETY: only the address is read; the grader checked the library's debug
            // information shows `int turnpike(int *, int *, unsigned int)` (or int n).
            let f: IntArrayFn = unsafe { lib.get::<IntArrayFn>(sym.as_bytes()) }
                .map(|s| *s)
                .map_err(|_| Ending::MissingSymbol {
                    name: "turnpike".into(),
                })?;
            let inst = inst()?;
            return Ok(Box::new(move || {
                // SAFETY: `f` has the signature of `IntArrayFn` (above); D is its own copy,
                // count ints long, as the form presumes.
                unsafe {
                    world::run_adapter(
                        |x, d, c, n| {
                            let mut own = std::slice::from_raw_parts(d, c as usize).to_vec();
                            own.sort_unstable();
                            f(x, own.as_mut_ptr(), n)
                        },
                        inst.n,
                        &inst.distances,
                    )
                }
            }));
        }
        let symbol = symbols.get(function).ok_or_else(|| Ending::MissingSymbol {
            name: "turnpike".into(),
        })?;
        // A turnpike on std::multiset<int>: called through labgrade's C++ adapter.
        if demangle(symbol).is_some_and(|d| multiset_form(&d)) {
            let missing = |what: &str| Ending::MissingSymbol {
                name: format!("turnpike ({what})"),
            };
            // SAFETY: only addresses are read; the adapter is labgrade's, declared as
            // `MultisetAdapterFn`, and the grader checked turnpike's other parameters.
            let (shipped, f) = unsafe {
                (
                    lib.get::<MultisetAdapterFn>(MULTISET_ADAPTER.as_bytes())
                        .map(|s| *s)
                        .map_err(|_| {
                            missing(
                                "it takes a std::multiset, and labgrade's C++ adapter for it \
                                 did not build: see the build notes",
                            )
                        })?,
                    lib.get::<*const ()>(symbol.as_bytes())
                        .map(|s| *s)
                        .map_err(|_| missing("not found"))?,
                )
            };
            let inst = inst()?;
            let f = f as usize;
            return Ok(Box::new(move || {
                // SAFETY: `shipped` has the signature of `MultisetAdapterFn`; `f` is the
                // student's turnpike, which it calls with the multiset it makes.
                unsafe {
                    world::run_adapter(
                        |x, d, c, n| shipped(f as *const (), x, d, c, n),
                        inst.n,
                        &inst.distances,
                    )
                }
            }));
        }
        // SAFETY: the symbol is the submission's `turnpike`, whose C signature the spec
        // header declares; only its address is read here.
        let f: TurnpikeFn = unsafe { lib.get::<TurnpikeFn>(symbol.as_bytes()) }
            .map(|s| *s)
            .map_err(|_| Ending::MissingSymbol {
                name: "turnpike".into(),
            })?;
        let inst = inst()?;
        Ok(Box::new(move || {
            // SAFETY: `f` has turnpike's signature (above).
            unsafe { world::run_submission(f, inst.n, &inst.distances) }
        }))
    }
}

/// Why D's record and the search's order are not graded for a distance set of one's own.
const OWN_D: &str = "your turnpike works on a distance set of its own (through \
                     labgrade_turnpike, or a std::multiset or int array labgrade makes), so \
                     what happens to D and the order of the search cannot be seen; the answer \
                     and the place calls are graded";

/// The symbols' key of a turnpike on a plain `int D[]` ([`int_array_form`]).
const INT_ARRAY: &str = "labgrade_turnpike_int_array";

/// Whether a turnpike, as compiled (`int turnpike(int *, int *, unsigned int)`), takes its D
/// as a plain array of ints: then labgrade hands it the n(n-1)/2 distances in increasing
/// order, the text's own listing of D, and reads back only the answer. The one-function
/// adapter is for anything else (a size beside D, a struct of one's own).
fn int_array_form(got: &Signature) -> bool {
    let Some([x, d, n]) = three_params(&got.shown) else {
        return false;
    };
    got.ret == Class::Int(4)
        && x == "int*"
        && d == "int*"
        && matches!(n.as_str(), "int" | "unsignedint")
}

/// The three parameter types of a turnpike as shown (`turnpike(int*, int*, unsigned int)`),
/// without spaces, when it has three.
fn three_params(shown: &str) -> Option<[String; 3]> {
    let params = signature::demangled_params(shown)?;
    let plain: Vec<String> = params
        .iter()
        .map(|p| p.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    plain.try_into().ok()
}

/// labgrade's C++ adapter for a turnpike on `std::multiset<int>` (labgrade_adapter.cpp).
const MULTISET_ADAPTER: &str = "labgrade_turnpike_multiset";

/// Whether a C++ turnpike (demangled) takes its D as a `std::multiset<int>`, by value or by
/// reference, with x and n as the text has them.
fn multiset_form(demangled: &str) -> bool {
    let Some([x, d, n]) = three_params(demangled) else {
        return false;
    };
    let d = d.trim_end_matches('&').trim_end_matches("const");
    x == "int*"
        && matches!(n.as_str(), "int" | "unsignedint")
        && d == "std::multiset<int,std::less<int>,std::allocator<int>>"
}

/// The adapter a turnpike with a distance set of its own defines (see turnpike.h).
const ADAPTER_DECL: &str =
    "int labgrade_turnpike(int x[], const int distances[], unsigned int count, unsigned int n)";

impl Problem for Turnpike {
    fn adapter_of(&self, _function: &str) -> Option<&'static str> {
        Some(ADAPTER_DECL)
    }

    /// `int turnpike(int x[], dist_set D, unsigned int n)`, with D known to be labgrade's
    /// struct even where the submission does not include turnpike.h (a turnpike on a D of
    /// its own, an `int D[]`, must not be handed labgrade's struct).
    fn call_signature(&self, _function: &str) -> Option<Signature> {
        let mut s = signature::declared(FUNCTIONS[0].decl)?;
        s.params[1] = Class::ToStruct(vec!["lg_dist_set".into()]);
        Some(s)
    }

    fn cpp_form(&self, _function: &str, shown: &str) -> Option<Result<CppAdapted, String>> {
        multiset_form(shown).then(|| {
            Ok(CppAdapted {
                note: format!(
                    "`{}` takes D as a std::multiset<int>: labgrade called it through its C++ \
                     adapter, which makes the multiset from the case's distances",
                    shown.replace(
                        "std::multiset<int, std::less<int>, std::allocator<int> >",
                        "std::multiset<int>"
                    )
                ),
                made: Some(vec![1]),
                cause: None,
            })
        })
    }

    fn plain_form(&self, _function: &str, got: &Signature) -> Option<PlainForm> {
        int_array_form(got).then(|| PlainForm {
            key: INT_ARRAY,
            note: format!(
                "`{}` takes D as a plain int array: labgrade handed it the case's n(n-1)/2 \
                 distances in increasing order, in an array of its own",
                got.shown
            ),
        })
    }

    fn name(&self) -> &'static str {
        "turnpike"
    }

    fn functions(&self) -> &'static [FunctionSig] {
        FUNCTIONS
    }

    fn counted(&self) -> &'static [&'static str] {
        COUNTED
    }

    fn symbol_of(&self, _function: &str) -> String {
        "turnpike".into()
    }

    fn run_key(&self, _function: &str) -> String {
        // Every case function is one call of `turnpike`, recorded whole.
        "turnpike".into()
    }

    fn expected(&self, input: &RunInput) -> Result<Expected, String> {
        let RunInput::Call { args, .. } = input else {
            return Err("turnpike has no whole-program cases: every case calls `turnpike`".into());
        };
        let arg = args
            .first()
            .ok_or("turnpike's case takes one argument, the distance set")?;
        let r = self.reference(arg)?;
        let mut e = Expected::returns(r.summary.clone());
        e.calls = BTreeMap::from([
            ("place".to_string(), r.run.place_calls),
            ("turnpike".to_string(), 1),
        ]);
        e.max_depth = BTreeMap::from([
            ("place".to_string(), r.run.max_depth),
            ("turnpike".to_string(), 1),
        ]);
        Ok(e)
    }

    /// The reference's record on the case's argument (its search, step by step), which
    /// the judgement and the explanations read.
    fn evidence(&self, input: &RunInput, _params: &Params) -> serde_json::Map<String, Value> {
        let mut facts = serde_json::Map::new();
        let RunInput::Call { args, .. } = input else {
            return facts;
        };
        if let (Some(arg), Some(solve)) = (args.first(), self.solver) {
            if let Ok(r) = solve(arg) {
                facts.insert(
                    evidence_key(arg),
                    serde_json::json!({ "summary": r.summary, "run": evidence::run_to(&r.run) }),
                );
            }
        }
        facts
    }

    fn unobservable_with(
        &self,
        function: &str,
        symbols: &BTreeMap<String, String>,
    ) -> Option<String> {
        let multiset = symbols
            .get(function)
            .and_then(|s| demangle(s))
            .is_some_and(|d| multiset_form(&d));
        let own = multiset
            || symbols.contains_key("labgrade_turnpike")
            || symbols.contains_key(INT_ARRAY);
        (function != "turnpike" && own).then(|| OWN_D.to_string())
    }

    fn compare_return(
        &self,
        case: &Case,
        expected: &Value,
        got: &Value,
        _runs: &Runs<'_>,
    ) -> Option<ReturnComparison> {
        let function = case.def.call.as_deref()?;
        let r = first_arg(case).and_then(|a| self.reference(&a).ok())?;
        Some(match function {
            "turnpike" => judge::answer(&r, expected, got),
            "turnpike_distances" => judge::distances_after(&r, got),
            "turnpike_search" => judge::search(&r, expected, got),
            _ => return None,
        })
    }

    fn explain(&self, m: &Mismatch<'_>) -> Option<String> {
        if !m
            .case
            .compare
            .iter()
            .any(|c| matches!(c, CompareItem::Calls | CompareItem::MaxDepth))
        {
            return None;
        }
        let got = m.observed.value.as_ref()?;
        let RefOutcome::Returns(exp) = &m.expected.outcome else {
            return None;
        };
        let r = first_arg(m.case).and_then(|a| self.reference(&a).ok())?;
        judge::departure(&r, exp, got)
            .map(|d| format!("the number of place calls follows the order of the search: {d}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const WORKED: [i32; 15] = [1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10];

    #[test]
    fn a_turnpike_on_std_multiset_is_told_from_other_forms() {
        let set = "std::multiset<int, std::less<int>, std::allocator<int> >";
        for form in [
            format!("turnpike(int*, {set}&, int)"),
            format!("turnpike(int*, {set}, unsigned int)"),
            format!("turnpike(int*, {set} const&, int)"),
        ] {
            assert!(multiset_form(&form), "{form}");
        }
        for form in [
            "turnpike(int*, lg_dist_set*, unsigned int)".to_string(),
            format!("turnpike(int*, {set}&, int, int)"),
            format!("turnpike(int*, {set}*, int)"),
            "turnpike(int*, std::multiset<long, std::less<long>, std::allocator<long> >&, int)"
                .to_string(),
        ] {
            assert!(!multiset_form(&form), "{form}");
        }
    }

    #[test]
    fn a_turnpike_on_a_plain_int_array_is_told_from_other_forms() {
        let built = |ret: Class, shown: &str| Signature {
            name: "turnpike".into(),
            ret,
            params: Vec::new(),
            shown: shown.into(),
        };
        for shown in [
            "int turnpike(int *, int *, unsigned int)",
            "int turnpike(int *, int *, int)",
        ] {
            assert!(int_array_form(&built(Class::Int(4), shown)), "{shown}");
        }
        for (ret, shown) in [
            (Class::Int(1), "_Bool turnpike(int *, int *, unsigned int)"),
            (Class::Int(4), "int turnpike(int *, int *, int, int)"),
            (Class::Int(4), "int turnpike(int *, int *, int *, int)"),
            (Class::Int(4), "int turnpike(int *, long *, int)"),
            (Class::Int(4), "int turnpike(int *, dist_set, unsigned int)"),
            (Class::Int(4), "int turnpike(int *, const int *, int)"),
        ] {
            assert!(!int_array_form(&built(ret, shown)), "{shown}");
        }
    }

    #[test]
    fn expectations_for_the_published_figure() {
        let e = TURNPIKE
            .expected(&RunInput::Call {
                function: "turnpike".into(),
                args: vec![json!(WORKED)],
            })
            .unwrap();
        let RefOutcome::Returns(v) = &e.outcome else {
            panic!("returns")
        };
        assert_eq!(v["result"], 1);
        assert_eq!(v["points"], json!([0, 3, 5, 6, 8, 10]));
        assert_eq!(v["backtracks"], 1);
        assert_eq!(v["size_after"], 0);
        assert_eq!(e.calls["place"], 5);
        assert_eq!(e.max_depth["place"], 4);
    }

    #[test]
    fn bad_input_is_refused_before_any_run() {
        let err = TURNPIKE
            .expected(&RunInput::Call {
                function: "turnpike".into(),
                args: vec![json!([1, 2, 3, 4])],
            })
            .unwrap_err();
        assert!(err.contains("|D| = 4 is not n(n-1)/2"), "{err}");
        let err = TURNPIKE
            .expected(&RunInput::Call {
                function: "turnpike".into(),
                args: vec![json!([1, 0, 1])],
            })
            .unwrap_err();
        assert!(err.contains("positive"), "{err}");
    }

    #[test]
    fn reference_reconstructs_n_1000_exactly() {
        let r = reference_for(&json!({ "seed": 1000, "n": 1000 })).unwrap();
        assert!(r.run.found);
        assert_eq!(r.summary["size_after"], 0);
        assert_eq!(
            r.summary["events_total"].as_u64(),
            Some(r.run.steps.len() as u64)
        );
        assert_eq!(r.summary["backtracks"].as_u64(), Some(r.run.backtracks));
        let pts = r.inst.points.clone().unwrap();
        let mirror: Vec<i32> = pts.iter().rev().map(|p| pts[999] - p).collect();
        assert!(r.run.points == pts || r.run.points == mirror);
    }

    #[test]
    fn homometric_pair() {
        let a = reference_for(&json!({ "points": [0, 1, 4, 10, 12, 17] })).unwrap();
        let b = reference_for(&json!({ "points": [0, 1, 8, 11, 13, 17] })).unwrap();
        assert_eq!(a.inst.distances, b.inst.distances);
        assert_eq!(a.summary, b.summary);
        assert_eq!(a.summary["points"], json!([0, 5, 7, 13, 16, 17]));
    }
}
