//! A kit function a C++ submission writes with `std::string` where the C handout passes
//! genlib's `char *`: `void RecursivePermute(std::string s, int k)`, the C++ handouts' own
//! form. labgrade cannot make a `std::string` from Rust, so such a function is called
//! through labgrade's C++ adapter (`specs/lib/lg_kit_adapter.cpp`, compiled beside C++
//! submissions of the problems whose functions take strings), which makes the strings and
//! passes every other argument as labgrade made it.
//!
//! The form is read from the function's mangled name, which spells every parameter's type
//! exactly; the grader and the child read it the same way, so the child calls what the
//! grader checked.

use super::abi::{CType, FunctionDef};

/// How one parameter reaches the student's function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Form {
    /// As labgrade passes it (a `char *`, an `int`, ...).
    AsIs = 0,
    /// A `std::string` whose final text the caller never sees: by value, `const &`, `&&`.
    StringIn = 1,
    /// A `std::string &`: its final text is copied back into labgrade's buffer.
    StringInOut = 2,
}

/// The adapter's entry for a function whose first parameter is the three-row puzzle by
/// value, and for every other one.
pub const ADAPTER_ROWS: &str = "labgrade_kit_call_cpp_rows";
/// See [`ADAPTER_ROWS`].
pub const ADAPTER: &str = "labgrade_kit_call_cpp";

/// The forms of `f`'s parameters in the C++ function demangled as `demangled`, when at least
/// one is a `std::string` (None: it is called as it is). Only a string parameter of the
/// handout (`string s`, not a struct's fields) may be one.
pub fn forms(f: &FunctionDef, demangled: &str) -> Option<[Form; 6]> {
    let params = parameter_texts(demangled)?;
    if params.len() != f.params.len() || params.len() > 6 {
        return None;
    }
    let mut out = [Form::AsIs; 6];
    for (i, (p, text)) in f.params.iter().zip(&params).enumerate() {
        if p.ty == CType::String && p.fields.is_none() {
            out[i] = string_form(text).unwrap_or(Form::AsIs);
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
    let copied = if forms.contains(&Form::StringInOut) {
        ", and reads the strings it takes by reference back afterwards"
    } else {
        ""
    };
    format!(
        "`{}` takes a C++ std::string where the C handout passes a char *: labgrade called it \
         through its C++ adapter, which makes the string from the case's text{copied}",
        readable(shown)
    )
}

/// A demangled signature with the standard library's spelling of `std::string` shortened.
fn readable(shown: &str) -> String {
    ["std::__cxx11::basic_string", "std::basic_string"]
        .iter()
        .fold(shown.to_string(), |s, long| {
            s.replace(
                &format!("{long}<char, std::char_traits<char>, std::allocator<char> >"),
                "std::string",
            )
        })
}

/// The parameter types of a demangled function, one text each (empty for `f()`).
fn parameter_texts(demangled: &str) -> Option<Vec<String>> {
    let open = demangled.find('(')?;
    let close = demangled.rfind(')')?;
    let inside = demangled.get(open + 1..close)?.trim();
    if inside.is_empty() || inside == "void" {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in inside.chars() {
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' | '>' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    Some(out)
}

/// The form of a parameter whose type is `text`, if it is a `std::string`.
fn string_form(text: &str) -> Option<Form> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (base, reference) = if let Some(b) = t.strip_suffix("&&") {
        (b, Form::StringIn)
    } else if let Some(b) = t.strip_suffix('&') {
        match b.strip_suffix("const") {
            Some(b) => (b, Form::StringIn),
            None => (b, Form::StringInOut),
        }
    } else {
        (t.as_str(), Form::StringIn)
    };
    let base = base.strip_prefix("const").unwrap_or(base);
    let base = base.strip_suffix("const").unwrap_or(base);
    let is_string = matches!(base, "std::string" | "std::__cxx11::string")
        || ["std::basic_string<char", "std::__cxx11::basic_string<char"]
            .iter()
            .any(|p| base.starts_with(&format!("{p},")) || base == format!("{p}>"));
    is_string.then_some(reference)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::kit::abi;

    const CXX11: &str =
        "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >";

    fn permute() -> FunctionDef {
        abi::parse(
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
        .unwrap()
        .function
        .remove(0)
    }

    #[test]
    fn each_way_of_taking_a_std_string_is_read() {
        let f = permute();
        for (param, form) in [
            (CXX11.to_string(), Form::StringIn),
            (format!("{CXX11}&"), Form::StringInOut),
            (format!("{CXX11} const&"), Form::StringIn),
            (format!("{CXX11}&&"), Form::StringIn),
            ("std::string".to_string(), Form::StringIn),
            ("std::string&".to_string(), Form::StringInOut),
            ("std::string const&".to_string(), Form::StringIn),
        ] {
            let got = forms(&f, &format!("RecursivePermute({param}, int)"));
            assert_eq!(
                got,
                Some([
                    form,
                    Form::AsIs,
                    Form::AsIs,
                    Form::AsIs,
                    Form::AsIs,
                    Form::AsIs
                ]),
                "{param}"
            );
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
    fn the_note_says_when_strings_are_read_back() {
        let by_ref = forms(&permute(), "RecursivePermute(std::string&, int)").unwrap();
        assert!(note("f", &by_ref).contains("back afterwards"));
        let by_value = forms(&permute(), "RecursivePermute(std::string, int)").unwrap();
        assert!(!note("f", &by_value).contains("back afterwards"));
        assert_eq!(made_by_adapter(&by_ref), vec![0]);
        assert_eq!(
            note(&format!("RecursivePermute({CXX11}&, int)"), &by_ref)
                .split('`')
                .nth(1),
            Some("RecursivePermute(std::string&, int)")
        );
    }
}
