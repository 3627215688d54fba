//! Other forms of a graded function that a text gives, called through a wrapper.
//!
//! The course reader writes permutations as `RecursivePermute(string prefix, string rest)`:
//! the letters chosen so far and those left, where the handout passes the string and an
//! index. A spec declares such a form (`[[build.form]]`: its C++ parameter types, the C
//! function labgrade calls with the assignment's parameters, and the call that function
//! makes). When a C++ submission's function of that name takes exactly the form's
//! parameters, labgrade compiles a wrapper beside it (plain, never counted) that calls the
//! student's function by its symbol, exported under the wrapper's C name with a text naming
//! the form, which the child puts in what it observed so that the judge grades the form's
//! own order. Every call counted is still the student's.

use crate::spec::OtherForm;

use super::symbols::{base_name, demangle};

/// How every wrapper's name begins (`labgrade_form_RecursivePermute`): what tells the
/// grader and the child that a symbol is labgrade's wrapper for another form.
pub const WRAPPER_PREFIX: &str = "labgrade_form_";

/// The exported text beside a wrapper naming the function and its form
/// (`RecursivePermute prefix-rest`): `<wrapper>_form`.
pub fn form_symbol(wrapper: &str) -> String {
    format!("{wrapper}_form")
}

/// A demangled C++ type with the standard library's long names for `std::string` short.
fn short_names(text: &str) -> String {
    const LONG: [&str; 2] = [
        "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >",
        "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
    ];
    LONG.iter()
        .fold(text.to_string(), |t, long| t.replace(long, "std::string"))
}

/// A C++ parameter's type with references, `const` and the standard library's long names
/// aside (`std::__cxx11::basic_string<char, ...> const&` is `std::string`).
fn plain_type(text: &str) -> String {
    short_names(text)
        .replace("const", "")
        .replace('&', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The student's function that has `form`'s parameters, among the functions `defined`:
/// its symbol and its parameter types as the wrapper declares them; None when there is
/// not exactly one.
pub fn target(defined: &[String], form: &OtherForm) -> Option<(String, Vec<String>)> {
    let found: Vec<(String, Vec<String>)> = defined
        .iter()
        .filter(|s| s.starts_with("_Z") && base_name(s) == form.function)
        .filter_map(|s| {
            let d = demangle(s)?;
            let params = super::signature::demangled_params(&d)?;
            let plain: Vec<String> = params.iter().map(|p| plain_type(p)).collect();
            let want: Vec<String> = form.params.iter().map(|p| plain_type(p)).collect();
            (plain == want).then(|| (s.clone(), params))
        })
        .collect();
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The wrapper's C++ source: `params` are the student's parameter types, as demangled.
pub fn source(form: &OtherForm, symbol: &str, params: &[String]) -> Result<String, String> {
    let wrapper = super::signature::declared(&form.wrapper)
        .ok_or_else(|| format!("`{}` is not one C declaration", form.wrapper))?;
    if !wrapper.name.starts_with(WRAPPER_PREFIX) {
        return Err(format!("a form's wrapper is named `{WRAPPER_PREFIX}...`"));
    }
    let declared: Vec<String> = params.iter().map(|p| short_names(p)).collect();
    let call = form.call.replace("target(", "lg_form_target(");
    let body = if wrapper.ret == super::signature::Class::Void {
        format!("    {call};\n")
    } else {
        format!("    return {call};\n")
    };
    Ok(format!(
        "/* labgrade's wrapper for {function}'s {name} form (the spec's [[build.form]]): it\n   \
         calls the student's function as that form declares it. Compiled plain: never\n   \
         counted. */\n\
         #include <string>\n\n\
         void lg_form_target({params}) __asm__(\"{symbol}\");\n\
         extern \"C\" const char {form_text}[] = \"{function} {name}\";\n\n\
         extern \"C\" {decl} {{\n{body}}}\n",
        function = form.function,
        name = form.name,
        params = declared.join(", "),
        form_text = form_symbol(&wrapper.name),
        decl = form.wrapper,
    ))
}

/// The wrappers a library exports, from its exported names and the texts beside them:
/// (graded function, wrapper's symbol, form's name).
pub fn wrappers(
    exported: &[String],
    text: impl Fn(&str) -> Option<String>,
) -> Vec<(String, String, String)> {
    exported
        .iter()
        .filter_map(|e| {
            e.strip_suffix("_form")
                .filter(|w| exported.iter().any(|x| x == w))
        })
        .filter_map(|wrapper| {
            let said = text(&form_symbol(wrapper))?;
            let (function, name) = said.split_once(' ')?;
            Some((function.to_string(), wrapper.to_string(), name.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefix_rest() -> OtherForm {
        OtherForm {
            function: "RecursivePermute".into(),
            name: "prefix-rest".into(),
            params: vec!["std::string".into(), "std::string".into()],
            wrapper: "void labgrade_form_RecursivePermute(char *s, int k)".into(),
            call: "target(std::string(s, k), std::string(s + k))".into(),
        }
    }

    #[test]
    fn the_reader_s_form_is_found_by_its_parameters_by_value_or_reference() {
        let by_value =
            "_Z16RecursivePermuteNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES4_";
        let by_ref =
            "_Z16RecursivePermuteRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES6_";
        let handout = "_Z16RecursivePermuteNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEi";
        for s in [by_value, by_ref] {
            let (sym, _) = target(&[s.to_string(), handout.to_string()], &prefix_rest()).unwrap();
            assert_eq!(sym, s);
        }
        assert_eq!(target(&[handout.to_string()], &prefix_rest()), None);
        let (sym, params) = target(&[by_ref.to_string()], &prefix_rest()).unwrap();
        let src = source(&prefix_rest(), &sym, &params).unwrap();
        assert!(
            src.contains("void lg_form_target(std::string const&, std::string const&)"),
            "{src}"
        );
        assert!(
            src.contains("lg_form_target(std::string(s, k), std::string(s + k));"),
            "{src}"
        );
        assert!(
            src.contains(
                "labgrade_form_RecursivePermute_form[] = \"RecursivePermute prefix-rest\""
            ),
            "{src}"
        );
    }
}
