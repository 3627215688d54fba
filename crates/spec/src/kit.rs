//! A kit problem's interface, declared in its spec's `[kit]` table.
//!
//! The declarations say what a C function takes and gives back in the terms labgrade needs
//! to call it and to read what it did: scalar arguments by value, scalars behind a pointer
//! the function writes (`*result`), character strings it may rearrange, and grids
//! (`bool board[][N]`) whose final contents are part of the answer. The same text is parsed
//! by the grader and by the sandboxed child (which holds no reference): the spec file is
//! compiled into labgrade, and `labgrade` refuses a spec on disk whose `[kit]` differs from
//! it, because the reference was written for that interface.

use serde::Deserialize;

/// The `[kit]` table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KitDef {
    /// Functions whose calls and recursion depth are counted (by instrumentation).
    #[serde(default)]
    pub counted: Vec<String>,
    /// Functions the student writes that the cases reach only through labgrade's driver
    /// (the game side's `NewGame`, `GenerateMoveList`, ...): what tells this problem's
    /// submissions from another problem's (`Problem::written` in `labgrade::problems`).
    #[serde(default)]
    pub writes: Vec<String>,
    /// Words the members of a submission's own state type (`stateT`) use in this game and
    /// not in the others written the same way (`board` for tic-tac-toe): which of several
    /// problems a submission looks written for is named first by them.
    #[serde(default)]
    pub state_words: Vec<String>,
    /// Constants a course may set (`NUM_QUEENS`), which sizes and the reference follow.
    #[serde(default)]
    pub parameter: Vec<ParamConst>,
    /// The functions cases call.
    pub function: Vec<FunctionDef>,
    /// The library labgrade provides and the student's code calls, if any.
    #[serde(default)]
    pub world: Option<WorldDef>,
    /// Functions a student may declare `static` (a helper the handout leaves to them):
    /// graded as any other, with no note. Without it, a static function labgrade had to
    /// make callable is noted on the report.
    #[serde(default)]
    pub may_be_static: Vec<String>,
    /// Functions whose name must be exactly the assignment's: another spelling
    /// (`measure_from` for `MeasureFrom`) is then not taken for it, and the cases that need
    /// it fail saying so. Without it, a near spelling is graded under its name, with a note.
    #[serde(default)]
    pub strict_names: Vec<String>,
    /// How messages name a cell of a grid or a world's picture: `x-y` (the default,
    /// `x = 3, y = 2`) or `row-col`, for a handout that indexes `grid[row][col]`.
    #[serde(default)]
    pub cells: Cells,
}

/// How a cell's position is written in messages ([`KitDef::cells`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum Cells {
    /// `(x = 3, y = 2)`: column first, as a maze's points are.
    #[default]
    #[serde(rename = "x-y")]
    XY,
    /// `(row = 2, col = 3)`: as `grid[row][col]` indexes it.
    #[serde(rename = "row-col")]
    RowCol,
}

impl Cells {
    /// The cell at `row`, `col` (from 0) in the handout's terms.
    pub fn at(self, row: usize, col: usize) -> String {
        match self {
            Cells::XY => format!("(x = {col}, y = {row})"),
            Cells::RowCol => format!("(row = {row}, col = {col})"),
        }
    }
}

/// A constant of the assignment.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamConst {
    /// The name the handout's code uses.
    pub name: String,
    /// The handout's value.
    pub default: i64,
    /// Smallest accepted value.
    pub min: i64,
    /// Largest accepted value.
    pub max: i64,
    /// What it is.
    pub doc: String,
}

/// A C scalar type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CType {
    /// `int` (and an `enum`).
    Int,
    /// `unsigned int`.
    Uint,
    /// `long long`.
    Long,
    /// `unsigned long long`.
    Ulong,
    /// `bool` (C99 / C++).
    Bool,
    /// `char`.
    Char,
    /// `char *`: a NUL-terminated string the function may change in place.
    String,
    /// `pointT`, `struct { int x, y; }`: by value it travels in one register (x in the low
    /// half), as both ABIs pass an 8-byte struct of integers. A fixture writes `[x, y]`.
    Point,
    /// No value (a return type only).
    Void,
}

impl CType {
    /// Bytes of one element in memory (a grid cell, a pointed-to scalar).
    pub fn size(self) -> usize {
        match self {
            CType::Bool | CType::Char => 1,
            CType::Int | CType::Uint => 4,
            CType::Long | CType::Ulong | CType::String | CType::Point | CType::Void => 8,
        }
    }
}

/// How an argument is passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pass {
    /// By value; the fixture gives it.
    #[default]
    Value,
    /// A pointer to memory labgrade zeroes; what the function leaves there is read back.
    Out,
    /// A pointer to memory labgrade fills from the fixture; read back afterwards.
    Inout,
    /// A pointer to memory labgrade fills from the fixture and does not read back (a
    /// `const int sums[]`).
    In,
    /// A handle to labgrade's library (Weiss' `board_type board`): the student's code only
    /// hands it back to the library's functions, which know their board without it.
    World,
}

/// One parameter of a C function.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamDef {
    /// Its name in the handout (and in messages: `*result`).
    pub name: String,
    /// Its type (the element type, for a grid).
    #[serde(rename = "type")]
    pub ty: CType,
    /// How it is passed.
    #[serde(default)]
    pub pass: Pass,
    /// Rows and columns of a grid (`bool board[][NUM_QUEENS]`): integers, parameter names,
    /// or the names of the function's own int arguments (`int board[][n]` is not C, but a
    /// grid of `n * n` cells passed as `int *board` is).
    #[serde(default)]
    pub grid: Option<[Dim; 2]>,
    /// Length of an array (`int rows[]`), given the same ways.
    #[serde(default)]
    pub array: Option<Dim>,
    /// A struct of this many `char *` passed by value (the handout's `puzzleT`, three rows);
    /// the case gives the strings as an array. Only as the first parameter, of three.
    #[serde(default)]
    pub fields: Option<usize>,
    /// Names for the values of an enum (`PROBABLY_PRIME`, ...), from 0.
    #[serde(default)]
    pub names: Vec<String>,
    /// The function must leave this `inout` argument as it was given when it returns this
    /// value (`unchanged_when = false`: a solver that finds no solution restores the grid).
    /// A call that returns it is judged on that, not on what the reference left there.
    #[serde(default)]
    pub unchanged_when: Option<ReturnValue>,
}

/// A value a function returns, as a spec writes it (`false`, `0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum ReturnValue {
    /// `true` or `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
}

impl ReturnValue {
    /// Whether a returned value, as a record holds it, is this one (`false` is 0).
    pub fn is(self, v: &serde_json::Value) -> bool {
        let as_int = v.as_i64().or_else(|| v.as_bool().map(i64::from));
        let want = match self {
            ReturnValue::Bool(b) => i64::from(b),
            ReturnValue::Int(i) => i,
        };
        as_int == Some(want)
    }

    /// As the spec wrote it.
    pub fn shown(self) -> String {
        match self {
            ReturnValue::Bool(b) => b.to_string(),
            ReturnValue::Int(i) => i.to_string(),
        }
    }
}

impl ParamDef {
    /// Whether the fixture gives this argument (everything but `out`).
    pub fn from_fixture(&self) -> bool {
        !matches!(self.pass, Pass::Out | Pass::World)
    }

    /// Whether its final value is part of the answer.
    pub fn read_back(&self) -> bool {
        if self.fields.is_some() {
            return false;
        }
        match self.pass {
            Pass::Out | Pass::Inout => true,
            Pass::In | Pass::World => false,
            Pass::Value => self.ty == CType::String,
        }
    }
}

/// A grid dimension or array length.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Dim {
    /// A fixed size.
    Fixed(usize),
    /// A parameter's value, or an int argument's.
    Param(String),
}

/// One function a case calls.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionDef {
    /// The name the handout gives it.
    pub name: String,
    /// The declaration students see.
    pub declaration: String,
    /// Its parameters, in order (at most six: all are passed in registers).
    #[serde(default)]
    pub params: Vec<ParamDef>,
    /// What it returns.
    pub returns: CType,
    /// Names for the values of an enum return (`PROBABLY_PRIME`, ...), from 0.
    #[serde(default)]
    pub return_names: Vec<String>,
    /// Fixture values given to labgrade's library rather than to the function (the witness
    /// `rand_int` answers), after the function's own arguments.
    #[serde(default)]
    pub world_inputs: Vec<String>,
    /// Any valid answer is accepted (a checker judges it), not only the reference's.
    #[serde(default)]
    pub any_valid: bool,
    /// Another function whose call this one is: its cases are judged from that call's run
    /// (one run, two aspects graded) and the library need not export this name. The two
    /// must take the same parameters and world inputs.
    #[serde(default)]
    pub same_run_as: Option<String>,
    /// Other declarations the text gives, whose parameters are the first of `declaration`'s
    /// (all passed in registers: a function written so never reads the rest). A submission
    /// compiled with one of them is called as it is (see `submission::signature`).
    #[serde(default)]
    pub shorter_forms: Vec<String>,
}

impl FunctionDef {
    /// The parameters the fixture gives, in order.
    pub fn fixture_params(&self) -> impl Iterator<Item = &ParamDef> {
        self.params.iter().filter(|p| p.from_fixture())
    }

    /// How many values a case's `args` holds.
    pub fn fixture_arity(&self) -> usize {
        self.fixture_params().count() + self.world_inputs.len()
    }
}

/// labgrade's library, as the student's code sees it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldDef {
    /// Its name in messages (`chessGraphics.h`).
    pub name: String,
    /// Its operations, by their code (their index here): the header's wrappers pass it.
    pub ops: Vec<WorldOp>,
    /// When the library's final state is what the function computes (the picture a fill
    /// leaves), the name it is part of the answer under: compared with `return`, drawn in
    /// messages, and taken out of the `world` record.
    #[serde(default)]
    pub state: Option<String>,
    /// In a problem package: the catalogue problem whose world this is (`paint-fill`'s pixel
    /// map, `miller-rabin`'s `rand_int`), made by labgrade as for that problem; the ops
    /// must be that world's.
    #[serde(default)]
    pub catalogue: Option<String>,
    /// The order the search tries its choices in is fixed by the library's header (paint.h's
    /// north, east, south, west), not by the exercise: the recursion's depth, which depends
    /// on it, is compared only where the student's code goes through the library. A
    /// course's own form of the function (its own `Grid`) may try any order, and its depth
    /// is then not compared.
    #[serde(default)]
    pub order_set_by_header: bool,
}

/// One operation of the world.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldOp {
    /// The function the student calls.
    pub name: String,
    /// How many integer arguments it passes (at most four).
    pub arity: usize,
    /// Whether its result means anything (shown in traces).
    #[serde(default)]
    pub returns: bool,
    /// Which arguments are characters (`'Q'` of `DrawLetterAtPosition('Q', row, col)`):
    /// recorded and shown as such, not as their codes.
    #[serde(default)]
    pub chars: Vec<usize>,
    /// `make` for an operation that plays a move (`MakeMove`, `place`), `retract` for the
    /// one that takes it back: with them labgrade tells the line of play both searches were
    /// in where they part.
    #[serde(default)]
    pub line: Option<LineOp>,
    /// A question about the world (`full_board`, `immediate_comp_win`) whose place among the
    /// other such questions the text does not fix: a `world` case compares the calls without
    /// them, unless it is tagged `exact` (a course that fixes their order gives such cases
    /// points).
    #[serde(default)]
    pub free_order: bool,
}

/// An operation's part in the line of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineOp {
    /// Plays a move.
    Make,
    /// Takes the last move back.
    Retract,
}

/// The `[kit]` table of a spec's text, or why it is not one.
pub fn parse(spec_text: &str) -> Result<KitDef, String> {
    #[derive(Deserialize)]
    struct Outer {
        kit: Option<KitDef>,
    }
    let outer: Outer = toml::from_str(spec_text).map_err(|e| e.to_string())?;
    let kit = outer.kit.ok_or("the spec has no [kit] table")?;
    validate(&kit)?;
    Ok(kit)
}

fn validate(kit: &KitDef) -> Result<(), String> {
    for f in &kit.function {
        if let Some(other) = &f.same_run_as {
            let same = kit.function.iter().find(|g| &g.name == other);
            match same {
                Some(g) if g.params == f.params && g.world_inputs == f.world_inputs => {}
                Some(_) => {
                    return Err(format!(
                        "`{}`: same_run_as `{other}`, which takes other parameters",
                        f.name
                    ))
                }
                None => {
                    return Err(format!(
                        "`{}`: same_run_as `{other}`, which is not a [[kit.function]]",
                        f.name
                    ))
                }
            }
        }
        if f.params.len() > 6 {
            return Err(format!("`{}`: at most six parameters", f.name));
        }
        for (i, p) in f.params.iter().enumerate() {
            if p.fields.is_some()
                && (i != 0 || p.fields != Some(3) || p.ty != CType::String || p.pass != Pass::Value)
            {
                return Err(format!(
                    "`{}`: `{}` is a struct by value, which the kit passes only as the first \
                     parameter, of three `string` fields, by value",
                    f.name, p.name
                ));
            }
        }
        for p in &f.params {
            if p.ty == CType::Void {
                return Err(format!("`{}`: parameter `{}` is void", f.name, p.name));
            }
            if p.grid.is_some() && p.array.is_some() {
                return Err(format!(
                    "`{}`: `{}` is a grid or an array, not both",
                    f.name, p.name
                ));
            }
            let dims = p.grid.iter().flatten().chain(&p.array);
            for d in dims {
                if let Dim::Param(name) = d {
                    let argument = f
                        .params
                        .iter()
                        .any(|q| &q.name == name && q.pass == Pass::Value && q.ty == CType::Int);
                    if !argument && !kit.parameter.iter().any(|c| &c.name == name) {
                        return Err(format!(
                            "`{}`: `{}` is sized by `{name}`, which is neither a \
                             [[kit.parameter]] nor an int argument",
                            f.name, p.name
                        ));
                    }
                }
            }
            if p.unchanged_when.is_some() && (p.pass != Pass::Inout || f.returns == CType::Void) {
                return Err(format!(
                    "`{}`: `{}` is `unchanged_when` a value returned: the parameter must be \
                     `inout` (given by the case) and the function must return a value",
                    f.name, p.name
                ));
            }
            if (p.grid.is_some() || p.array.is_some()) && p.pass == Pass::Value {
                return Err(format!(
                    "`{}`: grid or array `{}` must be passed `in`, `out` or `inout`",
                    f.name, p.name
                ));
            }
        }
    }
    if let Some(w) = &kit.world {
        if let Some(op) = w.ops.iter().find(|o| o.arity > 4) {
            return Err(format!("world op `{}`: at most four arguments", op.name));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn kit(second: &str) -> String {
        format!(
            "[kit]\ncounted = []\n\n[[kit.function]]\nname = \"walk\"\ndeclaration = \"d\"\n\
             returns = \"int\"\n\n[[kit.function]]\nname = \"facts\"\ndeclaration = \"d\"\n\
             returns = \"int\"\n{second}\n"
        )
    }

    /// A function may be judged from another's run only when that one exists and takes the
    /// same arguments.
    #[test]
    fn same_run_as_names_a_function_with_the_same_parameters() {
        assert!(parse(&kit("same_run_as = \"walk\"")).is_ok());
        let e = parse(&kit("same_run_as = \"run\"")).unwrap_err();
        assert!(e.contains("not a [[kit.function]]"), "{e}");
        let e = parse(&kit(
            "same_run_as = \"walk\"\nparams = [{ name = \"n\", type = \"int\" }]",
        ))
        .unwrap_err();
        assert!(e.contains("takes other parameters"), "{e}");
    }
}
