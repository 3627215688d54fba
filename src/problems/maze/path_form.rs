//! How a submission's FindPath takes its path, read from the symbol it exports.
//!
//! labgrade's header form and the C edition's hand FindPath a `pointT` buffer, which labgrade
//! can pass from Rust. The C++ edition's exercise 4 (seed 000) writes
//! `bool FindPath(pointT pt, Vector<pointT> path)`; students write it with `&`, some with a
//! `std::vector`. Those are called through labgrade's adapter (`specs/maze/
//! labgrade_adapter.cpp`, compiled beside C++ submissions), which makes the vector and copies
//! it out. A vector taken by value, as the book prints it, gives nothing back to its caller:
//! that is said, and not called.

use crate::submission::symbols::demangle;

/// The forms a FindPath can take its path in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathForm {
    /// `pointT path[]`: labgrade's form or the C edition's; called directly.
    Buffer,
    /// `Vector<pointT> &path` (Roberts' C++ edition, Stanford's libraries).
    Vector,
    /// `std::vector<pointT> &path`.
    StdVector,
    /// A vector taken by value: what the function puts in it is lost when it returns.
    ByValue,
}

impl PathForm {
    /// The form of the function exported as `symbol` (a C name is a buffer).
    pub fn of_symbol(symbol: &str) -> PathForm {
        match demangle(symbol) {
            Some(d) => PathForm::of_demangled(&d),
            None => PathForm::Buffer,
        }
    }

    /// The form of a demangled C++ function (`FindPath(pointT, Vector<pointT>&)`).
    pub fn of_demangled(demangled: &str) -> PathForm {
        let params: String = demangled
            .split_once('(')
            .map_or("", |(_, p)| p)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let vector = params.contains("Vector<pointT>");
        let std_vector = params.contains("std::vector<pointT");
        if !vector && !std_vector {
            return PathForm::Buffer;
        }
        let by_ref = params.contains(">&") || params.contains(">>&");
        match (by_ref, vector) {
            (false, _) => PathForm::ByValue,
            (true, true) => PathForm::Vector,
            (true, false) => PathForm::StdVector,
        }
    }

    /// The adapter function that calls this form, if it needs one.
    pub fn adapter(self) -> Option<&'static str> {
        match self {
            PathForm::Vector => Some("labgrade_findpath_vector"),
            PathForm::StdVector => Some("labgrade_findpath_std_vector"),
            PathForm::Buffer | PathForm::ByValue => None,
        }
    }

    /// What the report says about a function of this form (`shown`, as the submission
    /// declares it): Ok(note) when labgrade calls it, Err(what to change) when it cannot.
    pub fn note(self, shown: &str) -> Option<Result<String, String>> {
        match self {
            PathForm::Buffer => None,
            PathForm::Vector | PathForm::StdVector => Some(Ok(format!(
                "`{shown}` takes its path as a C++ vector (the C++ edition's exercise 4): \
                 labgrade called it through its C++ adapter, which passes an empty vector \
                 and reads the path from it afterwards"
            ))),
            PathForm::ByValue => Some(Err(format!(
                "`{shown}` takes the vector by value, as the book's exercise prints it, so \
                 the path it builds is a copy that is lost when it returns and no caller can \
                 see it: declare the parameter as a reference, `Vector<pointT> & path`"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_from_demangled_signatures() {
        use PathForm::*;
        for (d, form) in [
            ("FindPath(pointT, Vector<pointT>&)", Vector),
            ("findPath(pointT, Vector<pointT> &)", Vector),
            (
                "FindPath(pointT, std::vector<pointT, std::allocator<pointT> >&)",
                StdVector,
            ),
            ("FindPath(pointT, Vector<pointT>)", ByValue),
            (
                "FindPath(pointT, std::vector<pointT, std::allocator<pointT> >)",
                ByValue,
            ),
            ("FindPath(pointT, pointT*, int, int*)", Buffer),
            ("FindPath(pointT, pointT*, int)", Buffer),
        ] {
            assert_eq!(PathForm::of_demangled(d), form, "{d}");
        }
        assert_eq!(PathForm::of_symbol("FindPath"), Buffer);
        assert_eq!(
            PathForm::of_symbol("_Z8FindPath6pointTR6VectorIS_E"),
            Vector,
            "{:?}",
            demangle("_Z8FindPath6pointTR6VectorIS_E")
        );
        assert!(Vector
            .note("FindPath(pointT, Vector<pointT>&)")
            .unwrap()
            .is_ok());
        assert!(ByValue
            .note("FindPath(pointT, Vector<pointT>)")
            .unwrap()
            .is_err());
        assert!(Buffer.note("FindPath").is_none());
    }
}
