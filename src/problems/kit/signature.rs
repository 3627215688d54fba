//! How labgrade's call of a kit function passes its arguments, as a signature the build
//! compares with the student's declaration (`submission::signature`): kept with the kit, not
//! with the `[kit]` table's types in `spec::kit`, which sit below the build.

use super::abi::{CType, FunctionDef, Pass};
use crate::submission::signature::{declared, Class, Signature};

/// How labgrade's call passes each argument and reads the return, for signature truth
/// (see `submission::signature`): a handle to labgrade's library (`pass = "world"`) may
/// be any integer or pointer the student's header makes it.
pub fn call_signature(f: &FunctionDef) -> Signature {
    let by_value = |t: CType| match t {
        CType::String => Class::Pointer,
        CType::Point => Class::Aggregate(Vec::new()),
        CType::Void => Class::Void,
        CType::Long | CType::Ulong => Class::Int(8),
        CType::Bool | CType::Char => Class::Int(1),
        CType::Int | CType::Uint => Class::Int(4),
    };
    let params = f
        .params
        .iter()
        .map(|p| {
            if p.fields.is_some() {
                Class::Aggregate(Vec::new())
            } else if p.grid.is_some() || p.array.is_some() {
                Class::Pointer
            } else {
                match p.pass {
                    Pass::Value => by_value(p.ty),
                    Pass::Out | Pass::Inout | Pass::In => Class::Pointer,
                    Pass::World => Class::Named(String::new()),
                }
            }
        })
        .collect();
    Signature {
        // The name as the declaration spells it (the one labgrade calls).
        name: declared(&f.declaration).map_or_else(|| f.name.clone(), |d| d.name),
        ret: by_value(f.returns),
        params,
        shown: f.declaration.clone(),
    }
}
