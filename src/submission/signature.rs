//! Signature truth: the parameters a student's function was compiled with, read from the
//! debug information of the library labgrade built (`-g`), against the declaration the
//! assignment gives. labgrade calls a function only through the signature the student
//! wrote: a `SolveMaze(pointT pt, int *num_calls, bool unmark)` called as
//! `SolveMaze(pointT)` would take its other arguments from whatever the registers held.
//!
//! Types are compared by how the C calling convention passes them, not by spelling: any
//! integer, `bool` or enum is an integer; any pointer, array or reference a pointer; a
//! struct or class by value an aggregate, known by its names (typedef and tag). A named
//! type of the declaration (`pointT`, `string`) is looked up in the library's own debug
//! information, which holds labgrade's header's definition when the student included it.
//! Where the library has no debug information for the function (a prebuilt library, a
//! stripped one), nothing is said and labgrade calls it as before.

use std::borrow::Cow;
use std::path::Path;

use gimli::{AttributeValue, EndianSlice, RunTimeEndian, UnitOffset};
use object::{Object, ObjectSection, ObjectSymbol};

/// How a type is passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class {
    /// No value (a `void` return).
    Void,
    /// An integer, `bool`, `char` or an enum, with its width in bytes (0: not known). A
    /// register holds more than a narrower argument sets: a callee that reads 8 bytes where
    /// labgrade passes 4 reads undefined bits, while one that reads fewer is fine.
    Int(u8),
    /// `float` or `double`.
    Float,
    /// A pointer, array, reference or function pointer.
    Pointer,
    /// A pointer or reference to an instance of a C++ class template (`std::vector<int> &`,
    /// `Grid<bool> &`), with its name: an address like any pointer, but never one of
    /// labgrade's arrays, so it is told apart from [`Class::Pointer`].
    ToTemplate(String),
    /// A pointer or reference to a struct or class, with its names (typedefs and tag), as
    /// the debug information or a named type of the declaration (`dist_set`) shows it: a
    /// function handed labgrade's struct must take that struct, not an `int *`.
    ToStruct(Vec<String>),
    /// A struct, class or union by value, with its names (typedefs and tag).
    Aggregate(Vec<String>),
    /// A type the declaration names (`pointT`), whose kind is not known from its text.
    Named(String),
}

/// A function's return and parameters, and how it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// The function's name.
    pub name: String,
    /// The return.
    pub ret: Class,
    /// The parameters, in order.
    pub params: Vec<Class>,
    /// How it reads (`bool SolveMaze(pointT, int *, bool)`).
    pub shown: String,
}

/// The signature a C declaration (`bool SolveMaze(pointT pt)`) gives, or None when it is not
/// one plain function declaration (a member function, a constructor, several forms).
pub fn declared(decl: &str) -> Option<Signature> {
    let open = decl.find('(')?;
    let close = decl.rfind(')')?;
    let head = decl[..open].trim();
    if head.contains("::") || close < open || decl.contains(", or ") {
        return None;
    }
    let name_at = head.rfind(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    let ret = classify_text(&head[..=name_at]);
    let inside = decl[open + 1..close].trim();
    let params = if inside.is_empty() || inside == "void" {
        Vec::new()
    } else {
        split_top(inside)
            .iter()
            .map(|p| classify_param(p))
            .collect()
    };
    Some(Signature {
        name: head[name_at + 1..].to_string(),
        ret,
        params,
        shown: decl.trim().to_string(),
    })
}

/// The parameter types of a demangled C++ function (`f(int*, std::vector<int, ...>&)`), one
/// text each, trimmed (empty for `f()`); None when it has no parameter list.
pub fn demangled_params(demangled: &str) -> Option<Vec<String>> {
    let open = demangled.find('(')?;
    let close = demangled.rfind(')')?;
    let inside = demangled.get(open + 1..close)?.trim();
    if inside.is_empty() || inside == "void" {
        return Some(Vec::new());
    }
    Some(
        split_top(inside)
            .iter()
            .map(|p| p.trim().to_string())
            .collect(),
    )
}

/// One parameter of a declaration: its text and its name.
pub struct NamedParam {
    /// The parameter as written (`bool board[8][8]`).
    pub text: String,
    /// Its name (`board`).
    pub name: String,
}

/// The parameters of `decl`, each with its name (an error for one without).
pub fn named_params(decl: &str) -> Result<Vec<NamedParam>, String> {
    let open = decl.find('(').ok_or("it has no parameter list")?;
    let close = decl.rfind(')').ok_or("it has no parameter list")?;
    let inside = decl[open + 1..close].trim();
    if inside.is_empty() || inside == "void" {
        return Ok(Vec::new());
    }
    split_top(inside)
        .into_iter()
        .map(|text| {
            let text = text.trim().to_string();
            let head = text.split('[').next().unwrap_or("");
            let words: Vec<&str> = head
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            match words.as_slice() {
                [.., _, last] if !is_type_word(last) => Ok(NamedParam {
                    name: last.to_string(),
                    text,
                }),
                _ => Err(format!("name every parameter (`{text}` has no name)")),
            }
        })
        .collect()
}

/// Splits a parameter list at the commas outside brackets (`Grid<int, 3>`, `int (*)[8]`).
pub fn split_top(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '(' | '[' | '<' | '{' => depth += 1,
            ')' | ']' | '>' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

/// A parameter of a declaration: its type, without its name or default value.
fn classify_param(param: &str) -> Class {
    let param = param.split('=').next().unwrap_or(param);
    // A reference or pointer to a class template instance (`Grid<bool> &screen`).
    if let (Some(close), true) = (param.rfind('>'), param.contains(['*', '&'])) {
        if !param.contains(['[', '(']) {
            let ty = param[..=close].trim();
            let ty = ty.strip_prefix("const").unwrap_or(ty).trim();
            return Class::ToTemplate(ty.to_string());
        }
    }
    if param.contains(['*', '[', '&', '(']) {
        return Class::Pointer;
    }
    let words: Vec<&str> = param
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .filter(|w| !w.is_empty())
        .collect();
    // The last word is the parameter's name when there are two or more type words.
    let kept: &[&str] = match words.len() {
        0 | 1 => &words,
        n if is_type_word(words[n - 1]) => &words,
        n => &words[..n - 1],
    };
    classify_text(&kept.join(" "))
}

/// Whether `w` is a word of a built-in type (`unsigned`, `int`, ...), never a parameter's name.
pub fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        "int"
            | "long"
            | "short"
            | "char"
            | "unsigned"
            | "signed"
            | "bool"
            | "_Bool"
            | "float"
            | "double"
            | "void"
    )
}

/// A type's text (`unsigned int`, `test_result`, `const char *`).
fn classify_text(text: &str) -> Class {
    if text.contains(['*', '&', '[']) {
        return Class::Pointer;
    }
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "volatile" | "static" | "inline" | "extern" | "struct" | "enum"
            )
        })
        .collect();
    let has = |w: &str| words.contains(&w);
    if has("float") || has("double") {
        Class::Float
    } else if has("long") || has("size_t") {
        Class::Int(8)
    } else if has("short") {
        Class::Int(2)
    } else if has("char") || has("bool") || has("_Bool") {
        Class::Int(1)
    } else if has("int") || has("unsigned") || has("signed") {
        Class::Int(4)
    } else if words.is_empty() || words == ["void"] {
        Class::Void
    } else {
        Class::Named(words.last().unwrap_or(&"").to_string())
    }
}

type R<'a> = EndianSlice<'a, RunTimeEndian>;

/// A library's debug information, read once for every lookup, with the address of each
/// function it exports: the entry that describes a symbol is the one at the address the
/// symbol is linked at, never one that merely bears its name (a declaration renamed with an
/// `asm` label, or a static function of the same name in another file, is not the function
/// labgrade calls).
pub struct Dwarf<'a> {
    dwarf: gimli::Dwarf<R<'a>>,
    exported: std::collections::BTreeMap<String, u64>,
}

impl<'a> std::ops::Deref for Dwarf<'a> {
    type Target = gimli::Dwarf<R<'a>>;
    fn deref(&self) -> &Self::Target {
        &self.dwarf
    }
}

/// Runs `f` on the debug information of the library at `path` (empty when it has none);
/// an error when the file cannot be read at all.
pub fn with_dwarf<T>(path: &Path, f: impl FnOnce(&Dwarf<'_>) -> T) -> Result<T, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|e| format!("`{}` is not a readable ELF file: {e}", path.display()))?;
    let endian = if file.is_little_endian() {
        RunTimeEndian::Little
    } else {
        RunTimeEndian::Big
    };
    let load = |id: gimli::SectionId| -> Result<Cow<[u8]>, gimli::Error> {
        Ok(file
            .section_by_name(id.name())
            .and_then(|s| s.uncompressed_data().ok())
            .unwrap_or(Cow::Borrowed(&[])))
    };
    let sections = gimli::DwarfSections::load(load).map_err(|e| e.to_string())?;
    let exported = file
        .dynamic_symbols()
        .filter(|s| s.is_definition())
        .filter_map(|s| Some((s.name().ok()?.to_string(), s.address())))
        .collect();
    Ok(f(&Dwarf {
        dwarf: sections.borrow(|s| EndianSlice::new(s, endian)),
        exported,
    }))
}

/// Every unit of `dwarf` that can be read.
fn units<'a>(dwarf: &Dwarf<'a>) -> Vec<gimli::Unit<R<'a>>> {
    let mut out = Vec::new();
    let mut headers = dwarf.units();
    while let Ok(Some(header)) = headers.next() {
        out.extend(dwarf.unit(header).ok());
    }
    out
}

/// The signature `symbol` (a C name, or a C++ function's mangled one) was compiled with,
/// from `dwarf`; None when it holds nothing for it.
pub fn built(dwarf: &Dwarf<'_>, symbol: &str) -> Option<Signature> {
    units(dwarf)
        .iter()
        .find_map(|unit| find_in_unit(dwarf, unit, symbol))
}

/// Whether the function entry `entry` starts at `address` (its `low_pc`, or the start of
/// one of its ranges when its code is split).
fn starts_at<'a>(
    dwarf: &Dwarf<'a>,
    unit: &gimli::Unit<R<'a>>,
    entry: &gimli::DebuggingInformationEntry<R<'a>>,
    address: u64,
) -> bool {
    if let Some(v) = entry.attr_value(gimli::DW_AT_low_pc) {
        return dwarf.attr_address(unit, v).ok().flatten() == Some(address);
    }
    let Ok(mut ranges) = dwarf.die_ranges(unit, entry) else {
        return false;
    };
    while let Ok(Some(r)) = ranges.next() {
        if r.begin == address {
            return true;
        }
    }
    false
}

/// The function entry of `unit` that defines `symbol`, with the entries that name it and
/// list its typed parameters (a C++ definition's specification, an optimised copy's
/// abstract origin), the entry itself first.
fn locate(dwarf: &Dwarf<'_>, unit: &gimli::Unit<R<'_>>, symbol: &str) -> Option<Vec<UnitOffset>> {
    // An exported symbol is known by its address; a name alone only where the library
    // exports no such symbol (an object file).
    let address = dwarf.exported.get(symbol).copied();
    let mut entries = unit.entries();
    while let Ok(Some(entry)) = entries.next_dfs() {
        if entry.tag() != gimli::DW_TAG_subprogram {
            continue;
        }
        if matches!(
            entry.attr_value(gimli::DW_AT_declaration),
            Some(AttributeValue::Flag(true))
        ) {
            continue;
        }
        let mut names_at = vec![entry.offset()];
        for attr in [gimli::DW_AT_specification, gimli::DW_AT_abstract_origin] {
            if let Some(AttributeValue::UnitRef(o)) = entry.attr_value(attr) {
                names_at.push(o);
                if let Ok(e) = unit.entry(o) {
                    if let Some(AttributeValue::UnitRef(o2)) =
                        e.attr_value(gimli::DW_AT_specification)
                    {
                        names_at.push(o2);
                    }
                }
            }
        }
        let matches = match address {
            Some(a) => starts_at(dwarf, unit, entry, a),
            None => names_at.iter().any(|&o| {
                let Ok(e) = unit.entry(o) else {
                    return false;
                };
                [
                    gimli::DW_AT_linkage_name,
                    gimli::DW_AT_MIPS_linkage_name,
                    gimli::DW_AT_name,
                ]
                .iter()
                .any(|&a| attr_str(dwarf, unit, &e, a).as_deref() == Some(symbol))
            }),
        };
        if matches {
            return Some(names_at);
        }
    }
    None
}

/// The parameters of the first of the entries `names_at` that lists any, `this` included
/// (each followed to its origin for its type).
fn listed_parameters(unit: &gimli::Unit<R<'_>>, names_at: &[UnitOffset]) -> Vec<Param> {
    names_at
        .iter()
        .map(|&o| formal_parameters(unit, o))
        .find(|p| !p.is_empty())
        .unwrap_or_default()
}

fn find_in_unit(dwarf: &Dwarf<'_>, unit: &gimli::Unit<R<'_>>, symbol: &str) -> Option<Signature> {
    let names_at = locate(dwarf, unit, symbol)?;
    let name = names_at
        .iter()
        .find_map(|&o| {
            unit.entry(o)
                .ok()
                .and_then(|e| attr_str(dwarf, unit, &e, gimli::DW_AT_name))
        })
        .unwrap_or_else(|| symbol.to_string());
    // The return type, from the first of these DIEs that has one (an out-of-line copy
    // keeps it on its abstract origin; a void function has none on any).
    let ret_at = names_at
        .iter()
        .find_map(|&o| unit.entry(o).ok().and_then(|e| type_ref(&e)));
    let ret = ret_at.map_or(Class::Void, |t| class_of(dwarf, unit, t));
    let ret_name = ret_at.map_or("void".to_string(), |t| name_of(dwarf, unit, t, 0));
    let mut classes = Vec::new();
    let mut shown = Vec::new();
    // A member function's object (`this`) is not one of the parameters a caller writes.
    for p in listed_parameters(unit, &names_at)
        .iter()
        .filter(|p| !p.artificial)
    {
        let t = p.ty?; // a parameter whose type cannot be read: say nothing
        classes.push(class_of(dwarf, unit, t));
        shown.push(name_of(dwarf, unit, t, 0));
    }
    Some(Signature {
        shown: format!("{ret_name} {name}({})", shown.join(", ")),
        name,
        ret,
        params: classes,
    })
}

/// What calling a C++ function needs besides its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Receiver {
    /// Nothing: a static member, a function in a namespace.
    None,
    /// An object of its class (a member function's `this`).
    Object(ClassFacts),
}

/// A class, as its debug information describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassFacts {
    /// `sizeof` the class.
    pub size: u64,
    /// The file that declares the class, as the compiler named it.
    pub declared_in: Option<String>,
    /// True when the class declares a constructor of its own (the compiler's implicit ones
    /// are not listed unless they were made).
    pub own_constructor: bool,
    /// True when one of its own constructors takes no arguments.
    pub default_constructor: bool,
}

/// What calling `symbol` (a C++ function's mangled name) needs, from `dwarf`: an object of
/// its class or nothing; None when `dwarf` holds nothing for it.
pub fn receiver(dwarf: &Dwarf<'_>, symbol: &str) -> Option<Receiver> {
    units(dwarf).iter().find_map(|unit| {
        let names_at = locate(dwarf, unit, symbol)?;
        let params = listed_parameters(unit, &names_at);
        match params.first() {
            Some(p) if p.artificial => class_facts(dwarf, unit, p.ty?).map(Receiver::Object),
            _ => Some(Receiver::None),
        }
    })
}

/// The class `this` (the type at `at`, a pointer to it, perhaps `const`) points to.
fn class_facts(dwarf: &Dwarf<'_>, unit: &gimli::Unit<R<'_>>, at: UnitOffset) -> Option<ClassFacts> {
    let mut at = at;
    for _ in 0..8 {
        let e = unit.entry(at).ok()?;
        match e.tag() {
            gimli::DW_TAG_structure_type | gimli::DW_TAG_class_type => {
                let name = attr_str(dwarf, unit, &e, gimli::DW_AT_name)?;
                let (mut own_constructor, mut default_constructor) = (false, false);
                each_child(unit, at, gimli::DW_TAG_subprogram, |m| {
                    let constructor = attr_str(dwarf, unit, m, gimli::DW_AT_name).as_ref()
                        == Some(&name)
                        && !flag(m, gimli::DW_AT_artificial);
                    own_constructor |= constructor;
                    default_constructor |= constructor
                        && formal_parameters(unit, m.offset())
                            .iter()
                            .all(|p| p.artificial);
                });
                return Some(ClassFacts {
                    size: e.attr_value(gimli::DW_AT_byte_size)?.udata_value()?,
                    declared_in: declared_in(dwarf, unit, &e),
                    own_constructor,
                    default_constructor,
                });
            }
            gimli::DW_TAG_const_type
            | gimli::DW_TAG_volatile_type
            | gimli::DW_TAG_typedef
            | gimli::DW_TAG_pointer_type => {
                at = type_ref(&e)?;
            }
            _ => return None,
        }
    }
    None
}

/// The names of the data members of the struct or class named `type_name` (directly, or
/// through a typedef of that name), from the first unit that defines it; empty when none.
pub fn member_names(dwarf: &Dwarf<'_>, type_name: &str) -> Vec<String> {
    for unit in units(dwarf) {
        let mut entries = unit.entries();
        while let Ok(Some(e)) = entries.next_dfs() {
            let tag = e.tag();
            let named = attr_str(dwarf, &unit, e, gimli::DW_AT_name).as_deref() == Some(type_name);
            if !named || flag(e, gimli::DW_AT_declaration) {
                continue;
            }
            let at = match tag {
                gimli::DW_TAG_structure_type | gimli::DW_TAG_class_type => Some(e.offset()),
                gimli::DW_TAG_typedef => type_ref(e),
                _ => None,
            };
            let Some(at) = at else { continue };
            let mut names = Vec::new();
            each_child(&unit, at, gimli::DW_TAG_member, |m| {
                names.extend(attr_str(dwarf, &unit, m, gimli::DW_AT_name));
            });
            if !names.is_empty() {
                return names;
            }
        }
    }
    Vec::new()
}

/// The file an entry's `DW_AT_decl_file` names, through the unit's line program.
fn declared_in(
    dwarf: &Dwarf<'_>,
    unit: &gimli::Unit<R<'_>>,
    e: &gimli::DebuggingInformationEntry<R<'_>>,
) -> Option<String> {
    let index = match e.attr_value(gimli::DW_AT_decl_file)? {
        AttributeValue::FileIndex(i) => i,
        v => v.udata_value()?,
    };
    let header = unit.line_program.as_ref()?.header();
    let file = header.file(index)?;
    let name = dwarf.attr_string(unit, file.path_name()).ok()?;
    name.to_string().ok().map(str::to_string)
}

/// Whether flag attribute `at` is set on `e`.
fn flag(e: &gimli::DebuggingInformationEntry<R<'_>>, at: gimli::DwAt) -> bool {
    matches!(e.attr_value(at), Some(AttributeValue::Flag(true)))
}

/// A formal parameter: its type, if readable, and whether the compiler made it (`this`).
struct Param {
    ty: Option<UnitOffset>,
    artificial: bool,
}

/// The formal parameters under the DIE at `at` (each followed to its abstract origin when
/// it has no type of its own).
fn formal_parameters(unit: &gimli::Unit<R<'_>>, at: UnitOffset) -> Vec<Param> {
    let mut out = Vec::new();
    each_child(unit, at, gimli::DW_TAG_formal_parameter, |e| {
        let origin = match e.attr_value(gimli::DW_AT_abstract_origin) {
            Some(AttributeValue::UnitRef(o)) => unit.entry(o).ok(),
            _ => None,
        };
        out.push(Param {
            ty: type_ref(e).or_else(|| origin.as_ref().and_then(type_ref)),
            artificial: flag(e, gimli::DW_AT_artificial)
                || origin
                    .as_ref()
                    .is_some_and(|o| flag(o, gimli::DW_AT_artificial)),
        });
    });
    out
}

/// Calls `f` on each child of the DIE at `at` that has tag `tag`, in order.
fn each_child(
    unit: &gimli::Unit<R<'_>>,
    at: UnitOffset,
    tag: gimli::DwTag,
    mut f: impl FnMut(&gimli::DebuggingInformationEntry<R<'_>>),
) {
    let Ok(mut tree) = unit.entries_tree(Some(at)) else {
        return;
    };
    let Ok(root) = tree.root() else {
        return;
    };
    let mut children = root.children();
    while let Ok(Some(child)) = children.next() {
        if child.entry().tag() == tag {
            f(child.entry());
        }
    }
}

/// The bounds of the array type at `at`, as C writes them (`[8]`, `[3][8]`; `[]` where the
/// debug information gives none).
fn array_bounds(unit: &gimli::Unit<R<'_>>, at: UnitOffset) -> String {
    let mut out = String::new();
    each_child(unit, at, gimli::DW_TAG_subrange_type, |e| {
        let count = match (
            e.attr_value(gimli::DW_AT_count),
            e.attr_value(gimli::DW_AT_upper_bound),
        ) {
            (Some(c), _) => c.udata_value(),
            (None, Some(u)) => u.udata_value().map(|u| u + 1),
            _ => None,
        };
        out.push_str(&count.map_or("[]".to_string(), |n| format!("[{n}]")));
    });
    out
}

fn byte_size(e: &gimli::DebuggingInformationEntry<R<'_>>) -> u8 {
    match e.attr_value(gimli::DW_AT_byte_size) {
        Some(AttributeValue::Udata(n)) => n.min(255) as u8,
        Some(AttributeValue::Data1(n)) => n,
        Some(AttributeValue::Data2(n)) => n.min(255) as u8,
        Some(AttributeValue::Data4(n)) => n.min(255) as u8,
        Some(AttributeValue::Data8(n)) => n.min(255) as u8,
        _ => 0,
    }
}

fn type_ref(e: &gimli::DebuggingInformationEntry<R<'_>>) -> Option<UnitOffset> {
    match e.attr_value(gimli::DW_AT_type) {
        Some(AttributeValue::UnitRef(o)) => Some(o),
        _ => None,
    }
}

fn attr_str(
    dwarf: &Dwarf<'_>,
    unit: &gimli::Unit<R<'_>>,
    e: &gimli::DebuggingInformationEntry<R<'_>>,
    at: gimli::DwAt,
) -> Option<String> {
    let v = e.attr_value(at)?;
    let s = dwarf.attr_string(unit, v).ok()?;
    s.to_string().ok().map(str::to_string)
}

/// How the type at `at` is passed.
fn class_of(dwarf: &Dwarf<'_>, unit: &gimli::Unit<R<'_>>, at: UnitOffset) -> Class {
    let mut names = Vec::new();
    let mut at = at;
    for _ in 0..32 {
        let Ok(e) = unit.entry(at) else {
            return Class::Void;
        };
        let tag = e.tag();
        if let Some(n) = attr_str(dwarf, unit, &e, gimli::DW_AT_name) {
            names.push(n);
        }
        match tag {
            gimli::DW_TAG_base_type => {
                let float = matches!(
                    e.attr_value(gimli::DW_AT_encoding),
                    Some(AttributeValue::Encoding(enc))
                        if enc == gimli::DW_ATE_float || enc == gimli::DW_ATE_complex_float
                );
                return if float {
                    Class::Float
                } else {
                    Class::Int(byte_size(&e))
                };
            }
            gimli::DW_TAG_enumeration_type => return Class::Int(byte_size(&e)),
            gimli::DW_TAG_pointer_type
            | gimli::DW_TAG_reference_type
            | gimli::DW_TAG_rvalue_reference_type => {
                let Some(pointee) = type_ref(&e) else {
                    return Class::Pointer;
                };
                if let Some(name) = template_named(dwarf, unit, pointee) {
                    return Class::ToTemplate(name);
                }
                return match struct_names(dwarf, unit, pointee) {
                    Some(names) => Class::ToStruct(names),
                    None => Class::Pointer,
                };
            }
            gimli::DW_TAG_ptr_to_member_type
            | gimli::DW_TAG_array_type
            | gimli::DW_TAG_subroutine_type
            | gimli::DW_TAG_unspecified_type => return Class::Pointer,
            gimli::DW_TAG_structure_type | gimli::DW_TAG_class_type | gimli::DW_TAG_union_type => {
                return Class::Aggregate(names)
            }
            _ => match type_ref(&e) {
                Some(next) => at = next,
                None => return Class::Void,
            },
        }
    }
    Class::Void
}

/// The name of the class template instance the type at `at` is (through typedefs and
/// qualifiers), if it is one: `vector<int, std::allocator<int> >`, `Grid<bool>`.
fn template_named(dwarf: &Dwarf<'_>, unit: &gimli::Unit<R<'_>>, at: UnitOffset) -> Option<String> {
    let mut at = at;
    for _ in 0..16 {
        let e = unit.entry(at).ok()?;
        match e.tag() {
            gimli::DW_TAG_structure_type | gimli::DW_TAG_class_type | gimli::DW_TAG_union_type => {
                return attr_str(dwarf, unit, &e, gimli::DW_AT_name).filter(|n| n.contains('<'));
            }
            gimli::DW_TAG_typedef | gimli::DW_TAG_const_type | gimli::DW_TAG_volatile_type => {
                at = type_ref(&e)?;
            }
            _ => return None,
        }
    }
    None
}

/// The names (typedefs and tag) of the struct, class or union the type at `at` is, through
/// typedefs and qualifiers; None when it is not one.
fn struct_names(
    dwarf: &Dwarf<'_>,
    unit: &gimli::Unit<R<'_>>,
    at: UnitOffset,
) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut at = at;
    for _ in 0..16 {
        let e = unit.entry(at).ok()?;
        if let Some(n) = attr_str(dwarf, unit, &e, gimli::DW_AT_name) {
            names.push(n);
        }
        match e.tag() {
            gimli::DW_TAG_structure_type | gimli::DW_TAG_class_type | gimli::DW_TAG_union_type => {
                return Some(names);
            }
            gimli::DW_TAG_typedef | gimli::DW_TAG_const_type | gimli::DW_TAG_volatile_type => {
                at = type_ref(&e)?;
            }
            _ => return None,
        }
    }
    None
}

/// How the type at `at` reads in C.
fn name_of(dwarf: &Dwarf<'_>, unit: &gimli::Unit<R<'_>>, at: UnitOffset, depth: usize) -> String {
    let Ok(e) = unit.entry(at) else {
        return "?".into();
    };
    if depth > 16 {
        return "?".into();
    }
    let inner = || type_ref(&e).map_or("void".to_string(), |t| name_of(dwarf, unit, t, depth + 1));
    // An array's element and bounds (`bool [8]`), for `bool (*)[8]`: a grid's row pointer.
    let array = |at: UnitOffset| {
        let a = unit.entry(at).ok()?;
        (a.tag() == gimli::DW_TAG_array_type).then(|| {
            let element =
                type_ref(&a).map_or("void".to_string(), |t| name_of(dwarf, unit, t, depth + 1));
            (element, array_bounds(unit, at))
        })
    };
    match e.tag() {
        gimli::DW_TAG_pointer_type => match type_ref(&e).and_then(array) {
            Some((element, bounds)) => format!("{element} (*){bounds}"),
            None => format!("{} *", inner()),
        },
        gimli::DW_TAG_array_type => match array(at) {
            Some((element, bounds)) => format!("{element} {bounds}"),
            None => inner(),
        },
        gimli::DW_TAG_reference_type => format!("{} &", inner()),
        gimli::DW_TAG_rvalue_reference_type => format!("{} &&", inner()),
        gimli::DW_TAG_const_type => format!("const {}", inner()),
        gimli::DW_TAG_volatile_type => format!("volatile {}", inner()),
        gimli::DW_TAG_subroutine_type => "a function pointer".into(),
        // C's bool is `_Bool` underneath stdbool.h's macro: shown as the source spells it.
        _ => match attr_str(dwarf, unit, &e, gimli::DW_AT_name) {
            Some(n) if n == "_Bool" => "bool".into(),
            Some(n) => n,
            None => inner(),
        },
    }
}

/// What the named types of `signatures` (`pointT`, `dist_set`) are in `dwarf` (see
/// [`named_types`]).
pub fn named_types_of(dwarf: &Dwarf<'_>, signatures: &[&Signature]) -> Vec<(String, Class)> {
    let names: Vec<String> = signatures
        .iter()
        .flat_map(|s| s.params.iter().chain([&s.ret]))
        .filter_map(|c| match c {
            Class::Named(n) => Some(n.clone()),
            _ => None,
        })
        .collect();
    named_types(dwarf, &names)
}

/// How the types a declaration names by their names only pass, looked up among the types the
/// library's debug information defines (labgrade's header's, when the student included it).
fn named_types(dwarf: &Dwarf<'_>, names: &[String]) -> Vec<(String, Class)> {
    let mut found: Vec<(String, Class)> = Vec::new();
    for unit in units(dwarf) {
        let mut entries = unit.entries();
        while let Ok(Some(e)) = entries.next_dfs() {
            if !matches!(
                e.tag(),
                gimli::DW_TAG_typedef
                    | gimli::DW_TAG_structure_type
                    | gimli::DW_TAG_class_type
                    | gimli::DW_TAG_enumeration_type
                    | gimli::DW_TAG_union_type
            ) {
                continue;
            }
            let Some(n) = attr_str(dwarf, &unit, e, gimli::DW_AT_name) else {
                continue;
            };
            if names.contains(&n) && !found.iter().any(|(f, _)| *f == n) {
                found.push((n, class_of(dwarf, &unit, e.offset())));
            }
        }
    }
    found
}

/// Why a function compiled as `got` cannot be called as the assignment declares it
/// (`want`), or None when every parameter and the return pass alike. `named` says how the
/// declaration's named types pass (see [`named_types`]); a name it does not hold is taken
/// to match.
pub fn mismatch(want: &Signature, got: &Signature, named: &[(String, Class)]) -> Option<String> {
    if want.params.len() != got.params.len() {
        return Some(format!(
            "takes {} where labgrade passes {}",
            parameters(got.params.len()),
            want.params.len()
        ));
    }
    for (i, (w, g)) in want.params.iter().zip(&got.params).enumerate() {
        if !alike(w, g, named, Flow::In) {
            return Some(format!(
                "takes parameter {} as {} where labgrade passes {}",
                i + 1,
                describe(g),
                describe(&resolve(w, named))
            ));
        }
    }
    if !alike(&want.ret, &got.ret, named, Flow::Out) {
        return Some(format!(
            "returns {} where labgrade reads {}",
            describe(&got.ret),
            describe(&resolve(&want.ret, named))
        ));
    }
    None
}

fn parameters(n: usize) -> String {
    match n {
        0 => "no parameters".into(),
        1 => "1 parameter".into(),
        n => format!("{n} parameters"),
    }
}

fn resolve(c: &Class, named: &[(String, Class)]) -> Class {
    match c {
        Class::Named(n) => named
            .iter()
            .find(|(k, _)| k == n)
            .map_or_else(|| c.clone(), |(_, v)| v.clone()),
        _ => c.clone(),
    }
}

/// Which way a value goes: an argument labgrade passes, or a return labgrade reads.
#[derive(Clone, Copy)]
enum Flow {
    In,
    Out,
}

fn alike(want: &Class, got: &Class, named: &[(String, Class)], flow: Flow) -> bool {
    let want = resolve(want, named);
    // Integers of up to 4 bytes are passed and returned extended to 32 bits, as C compilers
    // do: only reading more than was set, beyond that, is undefined.
    let wide = |n: u8| n > 4;
    match (&want, got) {
        (Class::Named(_), _) => true, // not known: taken to match
        (Class::Int(w), Class::Int(g)) => match flow {
            Flow::In => !(wide(*g) && *w != 0 && *g > *w),
            Flow::Out => !(wide(*w) && *g != 0 && *g < *w),
        },
        (Class::Aggregate(w), Class::Aggregate(g)) => {
            w.is_empty() || g.is_empty() || w.iter().any(|n| g.contains(n))
        }
        // labgrade's pointers point at its own memory, never at a C++ container.
        (Class::Pointer, Class::ToTemplate(_)) => false,
        // A declaration's text does not say what its pointers point at; labgrade's own struct
        // (a named type) does, and only that struct takes it.
        (Class::Pointer, Class::ToStruct(_)) => true,
        (Class::ToStruct(w), Class::ToStruct(g)) => {
            w.is_empty() || g.is_empty() || w.iter().any(|n| g.contains(n))
        }
        (Class::ToTemplate(w), Class::ToTemplate(g)) => template_key(w) == template_key(g),
        (a, b) => a == b,
    }
}

/// A class template instance as its unqualified name and first argument, however the
/// declaration or the debug information spells it: `std::vector<int>` and `vector<int,
/// std::allocator<int> >` are both `vector<int>`.
fn template_key(name: &str) -> String {
    let plain: String = name
        .replace("std::", "")
        .replace("__cxx11::", "")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let Some(open) = plain.find('<') else {
        return plain;
    };
    let mut depth = 0;
    let mut end = plain.len();
    for (i, c) in plain.char_indices().skip(open + 1) {
        match c {
            '<' => depth += 1,
            '>' if depth == 0 => {
                end = i;
                break;
            }
            '>' => depth -= 1,
            ',' if depth == 0 => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    format!("{}<{}>", &plain[..open], &plain[open + 1..end])
}

fn describe(c: &Class) -> String {
    match c {
        Class::Void => "nothing (void)".into(),
        Class::Int(n) if *n > 4 => format!("a {n}-byte integer"),
        Class::Int(_) => "an integer".into(),
        Class::Float => "a floating-point number".into(),
        Class::Pointer => "a pointer".into(),
        Class::ToTemplate(n) => format!("a `{n}` by reference (or pointer)"),
        Class::ToStruct(names) => match names.last() {
            // labgrade's own struct, by the name its header gives students.
            Some(n) if n.starts_with("lg_") => format!("its own `{}` (a pointer)", &n[3..]),
            Some(n) => format!("a pointer to `{n}`"),
            None => "a pointer to a struct".into(),
        },
        Class::Aggregate(names) => match names.first() {
            Some(n) => format!("a `{n}` by value"),
            None => "a struct by value".into(),
        },
        Class::Named(n) => format!("a `{n}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_read_as_the_calling_convention_passes_them() {
        let s = declared("bool SolveMaze(pointT pt)").unwrap();
        assert_eq!(s.ret, Class::Int(1));
        assert_eq!(s.params, vec![Class::Named("pointT".into())]);
        let s = declared(
            "void power(unsigned int a, unsigned int p, unsigned int n, unsigned int *result, \
             test_result *whatnis)",
        )
        .unwrap();
        assert_eq!(s.ret, Class::Void);
        assert_eq!(
            s.params,
            vec![
                Class::Int(4),
                Class::Int(4),
                Class::Int(4),
                Class::Pointer,
                Class::Pointer
            ]
        );
        let s = declared("bool Solve(bool board[][NUM_QUEENS], int col)").unwrap();
        assert_eq!(s.params, vec![Class::Pointer, Class::Int(4)]);
        assert_eq!(declared("int minimax_move()").unwrap().params, vec![]);
        assert_eq!(declared("int f(void)").unwrap().params, vec![]);
        assert_eq!(declared("double f(int)").unwrap().ret, Class::Float);
        assert_eq!(
            declared("test_result test_prime(unsigned int n)")
                .unwrap()
                .ret,
            Class::Named("test_result".into())
        );
        assert!(declared("int tic_tac_toe::minimax_move()").is_none());
    }

    #[test]
    fn labgrade_s_struct_pointer_is_not_an_int_array() {
        let want = declared("int turnpike(int x[], dist_set D, unsigned int n)").unwrap();
        let named = vec![(
            "dist_set".to_string(),
            Class::ToStruct(vec!["dist_set".into(), "lg_dist_set".into()]),
        )];
        let got = |d: Class| Signature {
            ret: Class::Int(4),
            params: vec![Class::Pointer, d, Class::Int(4)],
            shown: String::new(),
            name: String::new(),
        };
        assert_eq!(
            mismatch(
                &want,
                &got(Class::ToStruct(vec!["lg_dist_set".into()])),
                &named
            ),
            None
        );
        let why = mismatch(&want, &got(Class::Pointer), &named).unwrap();
        assert!(
            why.contains(
                "parameter 2 as a pointer where labgrade passes its own `dist_set` (a pointer)"
            ),
            "{why}"
        );
        // A declaration's own pointer (`pointT path[]`) takes a pointer to any struct.
        let find = declared("bool FindPath(pointT pt, pointT path[])").unwrap();
        let got = Signature {
            ret: Class::Int(1),
            params: vec![
                Class::Aggregate(vec!["pointT".into()]),
                Class::ToStruct(vec!["pointT".into()]),
            ],
            shown: String::new(),
            name: String::new(),
        };
        assert_eq!(mismatch(&find, &got, &[]), None);
    }

    #[test]
    fn a_declared_reference_to_a_template_matches_its_debug_information() {
        let want = declared("void FillRegion(pointT pt, Grid<bool> &screen)").unwrap();
        assert_eq!(want.params[1], Class::ToTemplate("Grid<bool>".into()));
        let want = declared("bool f(const std::vector<int> &v)").unwrap();
        let got = Signature {
            ret: Class::Int(1),
            params: vec![Class::ToTemplate(
                "vector<int, std::allocator<int> >".into(),
            )],
            shown: String::new(),
            name: String::new(),
        };
        assert_eq!(mismatch(&want, &got, &[]), None);
        let other = Signature {
            params: vec![Class::ToTemplate(
                "vector<bool, std::allocator<bool> >".into(),
            )],
            ..got
        };
        assert!(mismatch(&want, &other, &[]).is_some());
    }

    #[test]
    fn a_reference_to_a_cpp_container_is_not_one_of_labgrades_pointers() {
        let want = declared("bool SolveQueens(int n, int rows[])").unwrap();
        let vector = Signature {
            ret: Class::Int(1),
            params: vec![
                Class::Int(4),
                Class::ToTemplate("vector<int, std::allocator<int> >".into()),
            ],
            shown: String::new(),
            name: String::new(),
        };
        let why = mismatch(&want, &vector, &[]).unwrap();
        assert!(
            why.contains("parameter 2 as a `vector<int, std::allocator<int> >` by reference"),
            "{why}"
        );
        let array = Signature {
            params: vec![Class::Int(4), Class::Pointer],
            ..vector.clone()
        };
        assert_eq!(mismatch(&want, &array, &[]), None);
        // A container labgrade's declaration itself names is taken to match.
        let named = declared("bool f(Board b)").unwrap();
        let got = Signature {
            params: vec![Class::ToTemplate("Grid<int>".into())],
            ..vector
        };
        assert_eq!(mismatch(&named, &got, &[]), None);
    }

    #[test]
    fn mismatches_name_what_differs_and_match_what_passes_alike() {
        let want = declared("bool SolveMaze(pointT pt)").unwrap();
        let named = vec![(
            "pointT".to_string(),
            Class::Aggregate(vec!["pointT".into()]),
        )];
        let same = Signature {
            ret: Class::Int(1),
            params: vec![Class::Aggregate(vec!["pointT".into(), "point".into()])],
            shown: String::new(),
            name: String::new(),
        };
        assert_eq!(mismatch(&want, &same, &named), None);
        let more = Signature {
            params: vec![
                Class::Aggregate(vec!["pointT".into()]),
                Class::Pointer,
                Class::Int(1),
            ],
            ..same.clone()
        };
        assert_eq!(
            mismatch(&want, &more, &named).unwrap(),
            "takes 3 parameters where labgrade passes 1"
        );
        let other = Signature {
            params: vec![Class::Int(4)],
            ..same.clone()
        };
        assert!(mismatch(&want, &other, &named)
            .unwrap()
            .contains("parameter 1 as an integer"));
        let string = declared("bool ExhaustiveSolve(puzzleT puzzle, const char *letters)").unwrap();
        let got = Signature {
            ret: Class::Int(1),
            params: vec![
                Class::Aggregate(vec!["puzzleT".into()]),
                Class::Aggregate(vec!["string".into(), "basic_string<char>".into()]),
            ],
            shown: String::new(),
            name: String::new(),
        };
        assert!(mismatch(&string, &got, &[])
            .unwrap()
            .contains("parameter 2 as a `string` by value"));
        // A name the library does not define is taken to match.
        let lenient = Signature {
            params: vec![Class::Int(4)],
            ..same
        };
        assert_eq!(mismatch(&want, &lenient, &[]), None);
        // int for an enum typedef passes alike.
        let want = declared("int f(test_result r)").unwrap();
        let got = Signature {
            ret: Class::Int(1),
            params: vec![Class::Int(4)],
            shown: String::new(),
            name: String::new(),
        };
        assert_eq!(
            mismatch(&want, &got, &[("test_result".into(), Class::Int(4))]),
            None
        );
        // A long long where labgrade passes an int reads 4 undefined bytes; a bool is fine.
        let want = declared("int f(int n)").unwrap();
        let long = Signature {
            ret: Class::Int(4),
            params: vec![Class::Int(8)],
            shown: String::new(),
            name: String::new(),
        };
        assert!(mismatch(&want, &long, &[])
            .unwrap()
            .contains("as a 8-byte integer"));
        let narrow = Signature {
            params: vec![Class::Int(1)],
            ..long.clone()
        };
        assert_eq!(mismatch(&want, &narrow, &[]), None);
        // Returning an int where labgrade reads a long long leaves its top half undefined.
        let want = declared("long long g(int n)").unwrap();
        assert!(mismatch(&want, &narrow, &[]).is_some());
    }

    /// A grid's row pointer reads as C writes it (`bool (*)[8]`), not as a plain pointer.
    #[test]
    fn a_pointer_to_an_array_reads_as_c_writes_it() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("q.c");
        std::fs::write(
            &src,
            "#include <stdbool.h>\nbool Place(bool board[][8], int row, int *n) \
             { return board[row][0] && *n; }\n",
        )
        .unwrap();
        let lib = dir.path().join("q.so");
        let ok = std::process::Command::new("gcc")
            .args(["-g", "-O0", "-shared", "-fPIC", "-o"])
            .arg(&lib)
            .arg(&src)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "gcc could not build the test library");
        let sig = with_dwarf(&lib, |d| built(d, "Place")).unwrap().unwrap();
        assert_eq!(sig.shown, "bool Place(bool (*)[8], int, int *)");
    }
}
