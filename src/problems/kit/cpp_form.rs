//! A kit function a C++ submission writes with the course's C++ types where the C handout
//! passes plain memory: `std::string` for genlib's `char *` (`void RecursivePermute(
//! std::string s, int k)`, the C++ handouts' own form), Stanford's `Grid<T>` or a
//! `std::vector<std::vector<T>>` for a board (`bool Solve(Grid<bool> &board, int col)`), and
//! `Vector<T>` or `std::vector<T>` for an array the caller fills. labgrade cannot make these
//! from Rust, so such a function is called through labgrade's C++ adapter
//! (`specs/lib/lg_kit_adapter.cpp`, compiled beside C++ submissions of the problems that have
//! such parameters), which makes each one from labgrade's memory, passes every other argument
//! as labgrade made it, and copies back what the function leaves in those it takes by
//! reference.
//!
//! The form is read from the function's mangled name, which spells every parameter's type
//! exactly; the grader and the child read it the same way, so the child calls what the
//! grader checked. An array the function fills (`pass = "out"`, `int rows[]`) is never
//! adapted: whether the caller sizes the vector or the function appends to it is the
//! course's choice, not something labgrade can see.

use super::abi::{CType, FunctionDef, Pass};

/// The C++ container a parameter is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// A `std::string`, for a `char *`.
    String,
    /// Stanford's (or Roberts') `Grid<T>`, for a board.
    Grid,
    /// `std::vector<std::vector<T>>`, for a board.
    StdGrid,
    /// Stanford's (or Roberts') `Vector<T>`, for an array.
    Vector,
    /// `std::vector<T>`, for an array.
    StdVector,
}

impl Container {
    /// The adapter's code for it (lg_kit_adapter.cpp).
    fn code(self) -> u8 {
        match self {
            Container::String => 1,
            Container::Grid => 2,
            Container::StdGrid => 3,
            Container::Vector => 4,
            Container::StdVector => 5,
        }
    }
}

/// How one parameter reaches the student's function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// As labgrade passes it (a `char *`, an `int`, ...).
    AsIs,
    /// Made by the adapter.
    Made {
        /// What it is made as.
        container: Container,
        /// Taken by (non-const) reference: what the function leaves in it is copied back
        /// into labgrade's memory.
        back: bool,
    },
}

impl Form {
    /// The adapter's code: the container, the element type, and whether it is copied back.
    pub fn code(self, ty: CType) -> u8 {
        match self {
            Form::AsIs => 0,
            Form::Made { container, back } => {
                let element = match ty {
                    CType::Bool => 0x10,
                    CType::Char | CType::String => 0x20,
                    _ => 0x30,
                };
                container.code() | element | if back { 0x80 } else { 0 }
            }
        }
    }
}

/// The adapter's entry for a function whose first parameter is the three-row puzzle by
/// value, and for every other one.
pub const ADAPTER_ROWS: &str = "labgrade_kit_call_cpp_rows";
/// See [`ADAPTER_ROWS`].
pub const ADAPTER: &str = "labgrade_kit_call_cpp";

/// The forms of `f`'s parameters in the C++ function demangled as `demangled`, when at least
/// one is made by the adapter (None: it is called as it is, and its signature checked).
pub fn forms(f: &FunctionDef, demangled: &str) -> Option<[Form; 6]> {
    let params = crate::submission::signature::demangled_params(demangled)?;
    if params.len() != f.params.len() || params.len() > 6 {
        return None;
    }
    let mut out = [Form::AsIs; 6];
    for (i, (p, text)) in f.params.iter().zip(&params).enumerate() {
        let (base, back) = strip_reference(text);
        let Some(container) = container_of(&base, p.ty) else {
            continue;
        };
        let fits = match container {
            Container::String => p.ty == CType::String && p.fields.is_none() && p.grid.is_none(),
            Container::Grid | Container::StdGrid => p.grid.is_some(),
            Container::Vector | Container::StdVector => {
                p.array.is_some() && matches!(p.pass, Pass::In | Pass::Inout)
            }
        };
        if fits {
            out[i] = Form::Made { container, back };
        }
    }
    out.iter().any(|f| *f != Form::AsIs).then_some(out)
}

/// The positions (from 0) whose parameter the adapter makes.
pub fn made_by_adapter(forms: &[Form; 6]) -> Vec<usize> {
    (0..6).filter(|&i| forms[i] != Form::AsIs).collect()
}

/// What the report says of a function called through the adapter (`shown`, demangled).
pub fn note(shown: &str, forms: &[Form; 6]) -> String {
    let mut what: Vec<&str> = Vec::new();
    for form in forms {
        let Form::Made { container, .. } = form else {
            continue;
        };
        let name = match container {
            Container::String => "a std::string",
            Container::Grid => "a Grid",
            Container::StdGrid => "a std::vector of std::vector",
            Container::Vector => "a Vector",
            Container::StdVector => "a std::vector",
        };
        if !what.contains(&name) {
            what.push(name);
        }
    }
    let copied = if forms
        .iter()
        .any(|f| matches!(f, Form::Made { back: true, .. }))
    {
        ", and reads back what it leaves in those it takes by reference"
    } else {
        ""
    };
    format!(
        "`{}` takes {} where the C handout passes plain memory: labgrade called it through \
         its C++ adapter, which makes each from the case's values{copied}",
        readable(shown),
        what.join(" and ")
    )
}

/// What explains the failing cases of a function that takes by value a parameter whose
/// final contents the assignment grades (a board, `*result`): what it puts there is a copy
/// no caller sees. None when there is none.
pub fn lost(shown: &str, f: &FunctionDef, forms: &[Form; 6]) -> Option<String> {
    let lost: Vec<String> = f
        .params
        .iter()
        .zip(forms)
        .filter(|(p, form)| {
            matches!(form, Form::Made { back: false, .. })
                && matches!(p.pass, Pass::Inout | Pass::Out)
        })
        .map(|(p, _)| format!("`{}`", p.name))
        .collect();
    (!lost.is_empty()).then(|| {
        format!(
            "your `{}` takes {} by value, so what it puts there is a copy that is lost when it \
             returns and no caller sees it: declare the parameter as a reference (`&`)",
            readable(shown),
            lost.join(" and ")
        )
    })
}

/// A demangled signature with the standard library's long spellings shortened.
fn readable(shown: &str) -> String {
    let mut s = ["std::__cxx11::basic_string", "std::basic_string"]
        .iter()
        .fold(shown.to_string(), |s, long| {
            s.replace(
                &format!("{long}<char, std::char_traits<char>, std::allocator<char> >"),
                "std::string",
            )
        });
    for t in ["bool", "char", "int"] {
        let inner = format!("std::vector<{t}, std::allocator<{t}> >");
        s = s.replace(
            &format!("std::vector<{inner}, std::allocator<{inner} > >"),
            &format!("std::vector<std::vector<{t}> >"),
        );
        s = s.replace(&inner, &format!("std::vector<{t}>"));
    }
    s
}

/// A parameter's type without its reference and `const`, and whether the function may
/// change the caller's value through it (a non-const `&`).
fn strip_reference(text: &str) -> (String, bool) {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (base, back) = if let Some(b) = t.strip_suffix("&&") {
        (b, false)
    } else if let Some(b) = t.strip_suffix('&') {
        match b.strip_suffix("const") {
            Some(b) => (b, false),
            None => (b, true),
        }
    } else {
        (t.as_str(), false)
    };
    let base = base.strip_prefix("const").unwrap_or(base);
    let base = base.strip_suffix("const").unwrap_or(base);
    (base.to_string(), back)
}

/// The container `base` (no spaces, no reference) is, holding elements of the kit type `ty`.
fn container_of(base: &str, ty: CType) -> Option<Container> {
    if ty == CType::String {
        let string = matches!(base, "std::string" | "std::__cxx11::string")
            || ["std::basic_string<char", "std::__cxx11::basic_string<char"]
                .iter()
                .any(|p| base.starts_with(&format!("{p},")) || base == format!("{p}>"));
        return string.then_some(Container::String);
    }
    let element = match ty {
        CType::Bool => "bool",
        CType::Char => "char",
        CType::Int => "int",
        _ => return None,
    };
    let (name, first) = first_template_argument(base)?;
    match name {
        "Grid" if first == element => Some(Container::Grid),
        "Vector" if first == element => Some(Container::Vector),
        "std::vector" if first == element => Some(Container::StdVector),
        "std::vector" => {
            let (inner, e) = first_template_argument(&first)?;
            (inner == "std::vector" && e == element).then_some(Container::StdGrid)
        }
        _ => None,
    }
}

/// `Name<First, ...>` as its name and its first template argument.
fn first_template_argument(text: &str) -> Option<(&str, String)> {
    let open = text.find('<')?;
    let inner = text.strip_suffix('>')?.get(open + 1..)?;
    let mut depth = 0i32;
    let mut end = inner.len();
    for (i, c) in inner.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    Some((&text[..open], inner[..end].to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::kit::abi;

    const CXX11: &str =
        "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >";

    fn function(spec: &str) -> FunctionDef {
        abi::parse(spec).unwrap().function.remove(0)
    }

    fn permute() -> FunctionDef {
        function(
            r#"
            [kit]
            counted = ["RecursivePermute"]
            [[kit.function]]
            name = "RecursivePermute"
            declaration = "void RecursivePermute(string s, int k)"
            returns = "void"
            params = [{ name = "s", type = "string" }, { name = "k", type = "int" }]
            "#,
        )
    }

    fn queens() -> FunctionDef {
        function(
            r#"
            [kit]
            counted = ["Solve"]
            [[kit.function]]
            name = "Solve"
            declaration = "bool Solve(bool board[][8], int col)"
            returns = "bool"
            params = [
              { name = "board", type = "bool", pass = "inout", grid = [8, 8] },
              { name = "col", type = "int" },
            ]
            "#,
        )
    }

    fn made(container: Container, back: bool) -> Form {
        Form::Made { container, back }
    }

    fn first(form: Form) -> Option<[Form; 6]> {
        Some([
            form,
            Form::AsIs,
            Form::AsIs,
            Form::AsIs,
            Form::AsIs,
            Form::AsIs,
        ])
    }

    #[test]
    fn each_way_of_taking_a_std_string_is_read() {
        let f = permute();
        for (param, back) in [
            (CXX11.to_string(), false),
            (format!("{CXX11}&"), true),
            (format!("{CXX11} const&"), false),
            (format!("{CXX11}&&"), false),
            ("std::string".to_string(), false),
            ("std::string&".to_string(), true),
            ("std::string const&".to_string(), false),
        ] {
            let got = forms(&f, &format!("RecursivePermute({param}, int)"));
            assert_eq!(got, first(made(Container::String, back)), "{param}");
        }
    }

    #[test]
    fn a_char_pointer_or_another_type_is_not_adapted() {
        let f = permute();
        assert_eq!(forms(&f, "RecursivePermute(char*, int)"), None);
        // A wide string, a vector of chars or a pointer to a string is not labgrade's to make.
        assert_eq!(
            forms(
                &f,
                "RecursivePermute(std::__cxx11::basic_string<wchar_t, std::char_traits<wchar_t>, \
                 std::allocator<wchar_t> >, int)"
            ),
            None
        );
        assert_eq!(forms(&f, "RecursivePermute(std::string*, int)"), None);
        // Another number of parameters is the signature check's to explain.
        assert_eq!(forms(&f, &format!("RecursivePermute({CXX11})")), None);
        // Only a string parameter of the handout may be one.
        assert_eq!(
            forms(&f, &format!("RecursivePermute(char*, {CXX11})")),
            None
        );
    }

    #[test]
    fn boards_are_read_as_grids_of_the_element_type() {
        let f = queens();
        let grid = first(made(Container::Grid, true));
        assert_eq!(forms(&f, "Solve(Grid<bool>&, int)"), grid);
        let std_grid = "std::vector<std::vector<bool, std::allocator<bool> >, \
                        std::allocator<std::vector<bool, std::allocator<bool> > > >&";
        assert_eq!(
            forms(&f, &format!("Solve({std_grid}, int)")),
            first(made(Container::StdGrid, true))
        );
        // By value: made, not copied back (the note says why the board is lost).
        let by_value = forms(&f, "Solve(Grid<bool>, int)");
        assert_eq!(by_value, first(made(Container::Grid, false)));
        let by_value = by_value.unwrap();
        assert!(lost("Solve(Grid<bool>, int)", &f, &by_value)
            .is_some_and(|l| l.contains("takes `board` by value")));
        let by_ref = forms(&f, "Solve(Grid<bool>&, int)").unwrap();
        assert_eq!(lost("Solve(Grid<bool>&, int)", &f, &by_ref), None);
        // Another element type, a flat vector for a board, labgrade's own array: as is.
        assert_eq!(forms(&f, "Solve(Grid<int>&, int)"), None);
        assert_eq!(forms(&f, "Solve(Vector<bool>&, int)"), None);
        assert_eq!(forms(&f, "Solve(bool (*) [8], int)"), None);
    }

    #[test]
    fn only_arrays_the_caller_fills_are_vectors() {
        let sums = function(
            r#"
            [kit]
            counted = ["SolveSujiko"]
            [[kit.function]]
            name = "SolveSujiko"
            declaration = "bool SolveSujiko(int board[3][3], const int sums[4])"
            returns = "bool"
            params = [
              { name = "board", type = "int", pass = "inout", grid = [3, 3] },
              { name = "sums", type = "int", pass = "in", array = 4 },
            ]
            "#,
        );
        let got = forms(
            &sums,
            "SolveSujiko(int (*) [3], std::vector<int, std::allocator<int> > const&)",
        );
        assert_eq!(got.map(|f| f[1]), Some(made(Container::StdVector, false)));
        assert_eq!(
            forms(&sums, "SolveSujiko(Grid<int>&, Vector<int>)").map(|f| [f[0], f[1]]),
            Some([made(Container::Grid, true), made(Container::Vector, false)])
        );
        let rows = function(
            r#"
            [kit]
            counted = ["SolveQueens"]
            [[kit.function]]
            name = "SolveQueens"
            declaration = "bool SolveQueens(int n, int rows[])"
            returns = "bool"
            params = [
              { name = "n", type = "int" },
              { name = "rows", type = "int", pass = "out", array = "n" },
            ]
            "#,
        );
        assert_eq!(forms(&rows, "SolveQueens(int, Vector<int>&)"), None);
    }

    #[test]
    fn the_note_says_what_is_made_and_read_back() {
        let f = permute();
        let by_ref = forms(&f, "RecursivePermute(std::string&, int)").unwrap();
        assert!(note("f", &by_ref).contains("reads back"));
        let by_value = forms(&f, "RecursivePermute(std::string, int)").unwrap();
        assert!(!note("f", &by_value).contains("reads back"));
        assert_eq!(made_by_adapter(&by_ref), vec![0]);
        assert_eq!(
            note(&format!("RecursivePermute({CXX11}&, int)"), &by_ref)
                .split('`')
                .nth(1),
            Some("RecursivePermute(std::string&, int)")
        );
        let std_grid = "std::vector<std::vector<bool, std::allocator<bool> >, \
                        std::allocator<std::vector<bool, std::allocator<bool> > > >&";
        let q = queens();
        let forms = forms(&q, &format!("Solve({std_grid}, int)")).unwrap();
        assert_eq!(
            note(&format!("Solve({std_grid}, int)"), &forms)
                .split('`')
                .nth(1),
            Some("Solve(std::vector<std::vector<bool> >&, int)")
        );
    }
}
