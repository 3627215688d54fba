//! A C or C++ submission's build, step by step: the sources staged with the spec's headers
//! and labgrade's libraries, each compiled once counted (and, where it must be, plainly and
//! with the counting build's macros alone), the spec's own C++ (a unity adapter and its
//! driver apart, a driver, an adapter, a course's wrappers), the library linked (counted
//! where it can be), the program, and the sanitizer build. [`CBuild`] holds what every step
//! shares: where things are, how a tool runs in the jail, and how a source is compiled.

use super::*;

/// One C or C++ build's fixed facts, shared by its steps.
struct CBuild<'a> {
    spec: &'a ProblemSpec,
    graded: &'a [String],
    /// The build directory.
    w: &'a Path,
    jail: Jail,
    src_root: PathBuf,
    spec_dir: PathBuf,
    lib_dir: PathBuf,
    shim_limit: PathBuf,
    shim_root: PathBuf,
    helper_dir: PathBuf,
    /// The student's sources, as detection chose them.
    files: Vec<PathBuf>,
    /// `-DLG_PROVIDE_<helper>` for each helper the spec provides that no source defines.
    provided: Vec<String>,
    /// The sources that define a graded function static.
    static_files: BTreeSet<PathBuf>,
    /// The sources compiled keeping every static function.
    keep_static: BTreeSet<PathBuf>,
    /// Defines every compile of labgrade's files takes.
    extra_defs: Vec<&'static str>,
    any_cpp: bool,
    /// The first source's directory: where the spec's C++ looks for the student's headers.
    first_dir: PathBuf,
}

/// The objects the sources compiled to, and what compiling them found.
#[derive(Default)]
struct Objects {
    plain: Vec<PathBuf>,
    instr: Vec<PathBuf>,
    /// file -> (the function as spelt, the graded name it stands for), made callable.
    globalized: BTreeMap<String, BTreeSet<(String, String)>>,
    /// Hooks or the counts' block the sources name by hand.
    hand_counting: Vec<String>,
}

/// The flags of the unity compile and of its macro pass: the very same, so that no
/// predefined macro (`__OPTIMIZE__`, `__PIC__`) differs between the two.
const UNITY_FLAGS: [&str; 4] = ["-fPIC", "-c", "-w", "-O2"];

/// The note for a game side that declares the general part's `undefined` and never defines
/// them.
fn general_part_note(undefined: &[&str]) -> String {
    format!(
        "your game declares `{}` but never defines it: that is the book's general part, \
         which your course's own file provides. labgrade graded your game under the book's \
         general part, and has no search of yours to run",
        undefined.join("`, `")
    )
}

/// A file's extension (empty for none).
fn extension(f: &Path) -> &str {
    f.extension().and_then(|e| e.to_str()).unwrap_or("")
}

fn machine(e: String) -> Box<Built> {
    Box::new(Built::fail(e, true))
}

pub(super) fn build_c_family_in(
    staged: &Staged,
    spec: &ProblemSpec,
    graded: &[String],
    work: &BuildDir,
    limits: &JailLimits,
    cache: &Path,
) -> Result<Built, Box<Built>> {
    // labgrade's helpers are made while the student's sources compile; linking waits.
    helpers::start(&spec.build.c.compiler, cache);
    // One compile of an assignment's file takes about a second; an include bomb never ends.
    let limits = &JailLimits {
        cpu_seconds: limits.cpu_seconds.min(C_TOOL_CPU_SECONDS),
        ..*limits
    };
    let cb = CBuild::stage(staged, spec, graded, work, limits)?;
    let mut out = Built::default();
    let mut objs = cb.compile_sources(&mut out)?;
    out.warnings = count_warnings(&out.output);
    if out.failed {
        return Ok(out);
    }
    // What the source kept out of the counting build (an object labgrade cannot read is
    // not the student's doing: nothing is said of it).
    for obj in &objs.instr {
        let opted_out = super::super::symbols::functions_in_section(obj, OPTED_OUT_SECTION);
        out.uninstrumented.extend(opted_out.unwrap_or_default());
    }
    out.uninstrumented
        .extend(kept_out_of_counting(&objs.instr, graded));
    out.uninstrumented.sort();
    out.uninstrumented.dedup();
    let helper_objs =
        helpers::objects(&spec.build.c.compiler, cache, &cb.helper_dir).map_err(machine)?;
    let mut program_objs: Vec<PathBuf> = Vec::new();
    if let Some(unity) = &spec.build.unity {
        if !cb.unity(unity, &mut out)? {
            return Ok(out);
        }
        program_objs = objs.instr.clone();
        program_objs.extend(objs.plain.iter().cloned());
        program_objs.push(helper_objs.hooks.clone());
    }
    let Some(driver_o) = cb.spec_objects(&objs, &mut out)? else {
        return Ok(out);
    };
    if !cb.link_library(
        &mut objs,
        &driver_o,
        &helper_objs,
        &mut program_objs,
        &mut out,
    )? {
        return Ok(out);
    }
    for (file, names) in std::mem::take(&mut objs.globalized) {
        for (name, graded) in names {
            out.made_callable.push(MadeCallable {
                name,
                graded,
                file: file.clone(),
            });
        }
    }
    cb.link_program(&program_objs, &helper_objs.progrt, &mut out)?;
    cb.sanitizer_build(&mut out)?;
    Ok(out)
}

impl<'a> CBuild<'a> {
    /// Copies the sources, the spec's headers and labgrade's libraries into the build
    /// directory, writes the shims, reads which sources declare what static, and hands the
    /// directory to the jail's uid.
    fn stage(
        staged: &Staged,
        spec: &'a ProblemSpec,
        graded: &'a [String],
        work: &'a BuildDir,
        limits: &JailLimits,
    ) -> Result<CBuild<'a>, Box<Built>> {
        let w = work.path();
        let src_root = w.join("src");
        let spec_dir = w.join("spec");
        let lib_dir = w.join("lib");
        let shim_limit = w.join("shim");
        let shim_root = (0..SHIM_DEPTH).fold(shim_limit.clone(), |p, _| p.join("r"));
        let helper_dir = w.join("labgrade");
        copy_tree(&staged.root, &src_root).map_err(machine)?;
        copy_tree(&spec.include_dir, &spec_dir).map_err(machine)?;
        if spec.lib_dir.is_dir() {
            copy_tree(&spec.lib_dir, &lib_dir).map_err(machine)?;
        }
        for d in [&shim_root, &helper_dir, &w.join("tmp")] {
            std::fs::create_dir_all(d).map_err(|e| machine(format!("cannot create {e}")))?;
        }
        let known: BTreeSet<String> = [&spec.include_dir, &spec.lib_dir]
            .iter()
            .flat_map(|d| tree_files(d))
            .filter(|p| p.components().count() == 1)
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        write_shims(&shims_needed(staged, &known), &shim_root, &shim_limit);
        let files = sources_of(staged, &src_root);
        let (provided, statics) = read_sources(&files, spec);
        let sources_where = |keep: &dyn Fn(&str) -> bool| -> BTreeSet<PathBuf> {
            statics
                .iter()
                .filter(|(_, names)| names.iter().any(|n| keep(n)))
                .map(|(f, _)| f.clone())
                .collect()
        };
        // The sources that define a graded function static: only there would the spec
        // header's prototypes of the student's functions be an error.
        let static_files = sources_where(&|n| graded.iter().any(|g| g == n));
        // The sources that declare static a function that is, or is spelt close to, a
        // graded one: only they are compiled keeping every static function
        // (`-fkeep-static-functions`), so that labgrade can call and count it, or name it
        // in a "did you mean".
        let keep_static =
            sources_where(&|n| super::super::symbols::did_you_mean(n, graded).is_some());
        let mut extra_defs: Vec<&'static str> = Vec::new();
        if !static_files.is_empty() {
            extra_defs.push("-DLG_NO_STUDENT_PROTOTYPES");
        }
        let any_cpp = files.iter().any(|f| language_of(f) == Some(Language::Cpp));
        let first_dir = files
            .first()
            .and_then(|f| f.parent())
            .unwrap_or(&src_root)
            .to_path_buf();
        work.give_away().map_err(machine)?;
        Ok(CBuild {
            spec,
            graded,
            w,
            jail: work.jail(limits),
            src_root,
            spec_dir,
            lib_dir,
            shim_limit,
            shim_root,
            helper_dir,
            files,
            provided,
            static_files,
            keep_static,
            extra_defs,
            any_cpp,
            first_dir,
        })
    }

    /// Runs `cmd` in the jail; a failure of the machine ends the build.
    fn run(&self, cmd: &mut Command, out: &mut Built) -> Result<Step, Box<Built>> {
        let s = run_in(cmd, &self.jail, self.w);
        match &s.machine {
            Some(m) => Err(Box::new(Built::fail(format!("{}{m}", out.output), true))),
            None => Ok(s),
        }
    }

    /// The include path, and `__FILE__` (an `assert`'s message) naming a student's file as
    /// their own compiler would, `nim.c` rather than the build directory that is gone by the
    /// time the message is read (the last matching map applies: the sources' own first).
    fn path_args(&self, src_dir: &Path) -> Vec<String> {
        let mut dirs = vec![self.spec_dir.clone(), src_dir.to_path_buf()];
        if self.src_root != src_dir {
            dirs.push(self.src_root.clone());
        }
        dirs.extend([self.lib_dir.clone(), self.shim_root.clone()]);
        let mut args: Vec<String> = dirs
            .iter()
            .flat_map(|d| ["-I".to_string(), d.display().to_string()])
            .collect();
        args.push(format!("-fmacro-prefix-map={}/=", self.w.display()));
        args.push(format!("-fmacro-prefix-map={}/=", self.src_root.display()));
        args
    }

    fn defs_for(&self, f: &Path) -> Vec<String> {
        let mut defs = self.provided.clone();
        if self.static_files.contains(f) {
            defs.push("-DLG_NO_STUDENT_PROTOTYPES".into());
        }
        defs
    }

    /// Compiles source `f` to `obj`: with the counting hooks, with the counting build's
    /// macros alone, or plainly.
    fn compile(
        &self,
        f: &Path,
        obj: &Path,
        counting: Counting,
        out: &mut Built,
    ) -> Result<Step, Box<Built>> {
        let recipe = recipe_for(
            self.spec,
            language_of(f).expect("only sources are collected"),
        );
        let src_dir = f.parent().unwrap_or(&self.src_root).to_path_buf();
        let mut cmd = Command::new(&recipe.compiler);
        // -g: the parameters each function was compiled with, for signature truth
        // (`submission::signature`); debug information never changes the code.
        cmd.args(&recipe.flags).args(["-fPIC", "-c", "-g"]);
        if self.keep_static.contains(f) {
            cmd.arg("-fkeep-static-functions");
        }
        if counting == Counting::Hooks {
            cmd.arg("-finstrument-functions").arg(format!(
                "-finstrument-functions-exclude-file-list=/usr/include,{},{},{}",
                self.spec_dir.display(),
                self.lib_dir.display(),
                self.shim_limit.display()
            ));
        }
        if counting != Counting::Plain {
            cmd.args(counting_defines());
        }
        self.run(
            cmd.args(self.defs_for(f))
                .args(self.path_args(&src_dir))
                .arg(f)
                .arg("-o")
                .arg(obj),
            out,
        )
    }

    fn object(&self, i: usize, f: &Path, kind: &str) -> PathBuf {
        let stem = f.file_stem().unwrap_or_default().to_string_lossy();
        self.w.join(format!("{i:02}-{stem}{kind}.o"))
    }

    /// The warnings the spec's own flags give. Keeping every static function silences
    /// `-Wunused-function`: where a source is compiled so, its warnings are those of a
    /// compile with the spec's recipe alone (thrown away but for its output).
    fn own_warnings(&self, f: &Path, out: &mut Built) -> Result<Option<String>, Box<Built>> {
        if !self.keep_static.contains(f) {
            return Ok(None);
        }
        let recipe = recipe_for(
            self.spec,
            language_of(f).expect("only sources are collected"),
        );
        let src_dir = f.parent().unwrap_or(&self.src_root).to_path_buf();
        let step = self.run(
            Command::new(&recipe.compiler)
                .args(&recipe.flags)
                .args(["-fPIC", "-c"])
                .args(self.defs_for(f))
                .args(self.path_args(&src_dir))
                .arg(f)
                .arg("-o")
                .arg("/dev/null"),
            out,
        )?;
        Ok(step
            .ok
            .then(|| without_unused_graded(&step.output, self.graded)))
    }

    /// A hand call of the hooks (after an `#undef`, through an `asm` label, from top-level
    /// assembly) or a reference to the block the counts are kept in names them in the object
    /// the same source gives with the counting build's macros but without
    /// -finstrument-functions, where the compiler inserts no hook: whatever names them there
    /// is the student's. A source that compiles counted but not so tells the two apart.
    fn counting_named_by_hand(
        &self,
        f: &Path,
        check: &Path,
        out: &mut Built,
    ) -> Result<Vec<String>, Box<Built>> {
        let step = self.compile(f, check, Counting::MacrosOnly, out)?;
        let file = f.file_name().unwrap_or_default().to_string_lossy();
        if !step.ok {
            return Ok(vec![format!("{file} (it compiles only with the hooks)")]);
        }
        let named = super::super::symbols::counting_symbols_named(check).unwrap_or_default();
        Ok(named
            .into_iter()
            .map(|n| format!("`{n}` in {file}"))
            .collect())
    }

    /// Makes the graded functions `src` defines static callable in `obj`; false when the
    /// object cannot be rewritten.
    fn globalize(
        &self,
        obj: &Path,
        src: &Path,
        objs: &mut Objects,
        out: &mut Built,
    ) -> Result<bool, Box<Built>> {
        let locals = local_graded_functions(obj, self.graded);
        if locals.is_empty() {
            return Ok(true);
        }
        let mut cmd = Command::new("objcopy");
        for (sym, _) in &locals {
            cmd.arg(format!("--globalize-symbol={sym}"));
        }
        let s = self.run(cmd.arg(obj), out)?;
        if !s.ok {
            out.output.push_str(&s.output);
            return Ok(false);
        }
        let file = src
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for (sym, graded) in locals {
            objs.globalized
                .entry(file.clone())
                .or_default()
                .insert((base_name(&sym), graded));
        }
        Ok(true)
    }

    /// Each source compiled once, instrumented: that object serves the counting library
    /// and the program alike (with no counters installed, the hooks return at once). The
    /// plain compile runs only where the instrumented one cannot be used.
    fn compile_sources(&self, out: &mut Built) -> Result<Objects, Box<Built>> {
        let mut objs = Objects::default();
        for (i, f) in self.files.iter().enumerate() {
            let iobj = self.object(i, f, ".instr");
            let step = self.compile(f, &iobj, Counting::Hooks, out)?;
            if step.ok {
                let warnings = self.own_warnings(f, out)?.unwrap_or(step.output);
                out.output.push_str(&warnings);
                if self.globalize(&iobj, f, &mut objs, out)? {
                    let named =
                        self.counting_named_by_hand(f, &self.object(i, f, ".check"), out)?;
                    objs.hand_counting.extend(named);
                    objs.instr.push(iobj);
                } else {
                    out.failed = true;
                }
                continue;
            }
            // Instrumentation failed: the plain compile says whether the source itself does.
            let obj = self.object(i, f, "");
            let plain = self.compile(f, &obj, Counting::Plain, out)?;
            out.output.push_str(&plain.output);
            if !plain.ok || !self.globalize(&obj, f, &mut objs, out)? {
                out.failed = true;
                continue;
            }
            // The two compiles differ only by the hooks, which change no macro of the
            // compiler's: a source that compiles plainly but not counted tells them apart on
            // purpose.
            out.counting_hidden = true;
            out.instrumented_note = Some(format!(
                "your code compiles, but not in labgrade's counting build (the same compile \
                 with -finstrument-functions), so none of its calls can be counted: what tells \
                 the two builds apart is in your code{}",
                first_error(&step.output)
                    .map(|e| format!(" ({e})"))
                    .unwrap_or_default()
            ));
            objs.plain.push(obj);
        }
        Ok(objs)
    }

    /// The unity compile: every student source, then the spec's `unity` file, in one
    /// translation unit; with the spec's driver compiled apart, its objects alone are the
    /// library (the program stays the student's own). False when the build failed.
    fn unity(&self, unity: &str, out: &mut Built) -> Result<bool, Box<Built>> {
        let (spec, w) = (self.spec, self.w);
        let unity_cmd = |extra: &[&str]| {
            let mut cmd = Command::new(&spec.build.cpp.compiler);
            cmd.args(&spec.build.cpp.flags)
                .args(extra)
                .args(&self.extra_defs)
                .args(self.path_args(&self.first_dir));
            if self
                .files
                .iter()
                .any(|f| language_of(f) == Some(Language::C))
            {
                // C edition sources, compiled as C++ here: void * converts as in C, and
                // genlib.h keeps the C edition's New and GetBlock.
                cmd.args(["-fpermissive", "-DLG_C_AS_CPP"]);
            }
            for f in &self.files {
                cmd.arg("-include").arg(f);
            }
            cmd
        };
        // The student's macros, from their sources preprocessed alone with the very flags
        // of the compile below: none may name anything the adapter uses (see
        // `unity_guard`). A source this pass cannot preprocess is refused (with these flags
        // the compile could not take it either): the guard never fails open.
        let empty = w.join("lg_macros.cpp");
        let listed = w.join("lg_macros.ii");
        std::fs::write(&empty, "").map_err(|e| machine(e.to_string()))?;
        let step = self.run(
            unity_cmd(&UNITY_FLAGS[..])
                .args(["-E", "-dD"])
                .arg(&empty)
                .arg("-o")
                .arg(&listed),
            out,
        )?;
        if !step.ok {
            out.failed = true;
            out.output.push_str(&step.output);
            return Ok(false);
        }
        let text = std::fs::read(&listed).map_err(|e| machine(e.to_string()))?;
        let unity_guard = super::super::unity_guard::student_macros(
            &String::from_utf8_lossy(&text),
            &self.src_root.display().to_string(),
        );
        let adapter = super::super::unity_guard::driver_identifiers(
            &self.spec_dir.join(unity),
            &self.spec_dir,
            &self.lib_dir,
        );
        if let Some(why) = super::super::unity_guard::refusal(&unity_guard, &adapter) {
            out.failed = true;
            out.output.push_str(&why);
            return Ok(false);
        }
        // The adapter's namespace is named for these sources (see `named_driver_unit`).
        let (named, namespace) =
            named_driver_unit(w, &self.files, &self.spec_dir.join(unity)).map_err(machine)?;
        let mut step = self.unity_library(&unity_cmd, &named, &namespace, &[], out)?;
        // The book's general part declared (its listing's prototypes) but left to the
        // course's file: the student's game has no search of its own, as if never declared.
        let base_name = super::super::stand_ins::base_name;
        let undefined = super::super::stand_ins::undefined_references(&step.output);
        if !step.ok
            && !undefined.is_empty()
            && undefined.iter().all(|u| {
                spec.build
                    .unity_general_part
                    .iter()
                    .any(|g| g == base_name(u))
            })
        {
            let again =
                self.unity_library(&unity_cmd, &named, &namespace, &["-DLG_NO_OWN_SEARCH"], out)?;
            if again.ok {
                let mut names: Vec<&str> = undefined.iter().map(|u| base_name(u)).collect();
                names.dedup();
                out.notes.push(general_part_note(&names));
                step = again;
            }
        }
        if !step.ok {
            out.failed = true;
            out.output.push_str(&step.output);
            return Ok(false);
        }
        out.library = Some(w.join("submission.so"));
        Ok(true)
    }

    /// The unity object (with `defines`), the spec's driver compiled apart, and the library
    /// they make, `submission.so`: the link's step; a unity file that does not compile is
    /// said as such in the step's output.
    fn unity_library(
        &self,
        unity_cmd: &dyn Fn(&[&str]) -> Command,
        named: &Path,
        namespace: &str,
        defines: &[&str],
        out: &mut Built,
    ) -> Result<Step, Box<Built>> {
        let spec = self.spec;
        let obj = self.helper_dir.join("unity.o");
        let step = self.run(
            unity_cmd(&UNITY_FLAGS[..])
                .args(defines)
                .arg(named)
                .arg("-o")
                .arg(&obj),
            out,
        )?;
        if !step.ok {
            let unity = spec.build.unity.as_deref().unwrap_or_default();
            return Ok(Step {
                ok: false,
                output: format!(
                    "labgrade's driver does not compile with your game (see {unity} in the \
                     spec's headers for the forms of NewGame, GenerateMoveList, MakeMove and \
                     moveT it understands):\n{}",
                    step.output
                ),
                machine: None,
            });
        }
        let mut lib_objs = vec![obj];
        if let Some(driver) = &spec.build.unity_driver {
            let dobj = self.helper_dir.join("unity_driver.o");
            let path = self.spec_dir.join(driver);
            let mut cmd = unity_driver_compile(
                &spec.build.cpp.compiler,
                &path,
                &self.lib_dir,
                namespace,
                &dobj,
            );
            let step = self.run(&mut cmd, out)?;
            if !step.ok {
                return Err(machine(format!(
                    "labgrade's game driver {driver} does not compile:\n{}",
                    step.output
                )));
            }
            lib_objs.push(dobj);
        }
        self.run(
            Command::new(&spec.build.cpp.compiler)
                .args(["-shared", "-Wl,-z,defs"])
                .args(&lib_objs)
                .arg("-lm")
                .arg("-o")
                .arg(self.w.join("submission.so")),
            out,
        )
    }

    /// A C++ file of the spec's, compiled with the student's include path (never counted).
    fn compile_spec_cpp(
        &self,
        file: &str,
        extra: &[&str],
        obj: &Path,
        out: &mut Built,
    ) -> Result<Step, Box<Built>> {
        let spec = self.spec;
        self.run(
            Command::new(&spec.build.cpp.compiler)
                .args(&spec.build.cpp.flags)
                .args(["-fPIC", "-c"])
                .args(extra)
                .args(&self.extra_defs)
                .args(self.path_args(&self.first_dir))
                .arg(self.spec_dir.join(file))
                .arg("-o")
                .arg(obj),
            out,
        )
    }

    /// The spec's own objects linked with the student's: its driver (compiled like the
    /// student's C++: it includes their header), its C++ adapter, the course's wrappers.
    /// None when the driver does not compile (the build failed).
    fn spec_objects(
        &self,
        objs: &Objects,
        out: &mut Built,
    ) -> Result<Option<Vec<PathBuf>>, Box<Built>> {
        let spec = self.spec;
        let mut driver_o = Vec::new();
        if let Some(driver) = &spec.build.driver {
            let obj = self.helper_dir.join("driver.o");
            let step = self.compile_spec_cpp(driver, &[], &obj, out)?;
            if !step.ok {
                out.failed = true;
                out.output.push_str(&format!(
                    "labgrade's driver does not compile with your files (does your header \
                     declare what the handout gives?):\n{}",
                    step.output
                ));
                return Ok(None);
            }
            driver_o.push(obj);
        }
        // The spec's C++ adapter, for C++ submissions only (a C library has no C++ runtime
        // to link it with). It failing to compile is not the student's error: the functions
        // it adapts then say that they cannot be called.
        if let (Some(adapter), true) = (&spec.build.cpp_adapter, self.any_cpp) {
            let obj = self.helper_dir.join("adapter.o");
            let step = self.compile_spec_cpp(adapter, &["-w"], &obj, out)?;
            if step.ok {
                driver_o.push(obj);
            } else {
                out.notes.push(format!(
                    "labgrade's C++ adapter ({adapter}) does not compile with your headers, so \
                     a graded function taking C++ types (a vector, a std::string) cannot be \
                     called:\n{}",
                    step.output.trim_end()
                ));
            }
        }
        for form in &spec.build.course_forms {
            if let Some(obj) = self.course_form(form, objs, out)? {
                driver_o.push(obj);
            }
        }
        if self.any_cpp && spec.build.unity.is_none() {
            driver_o.extend(self.member_bridge(objs, out)?);
            for form in &spec.build.form {
                driver_o.extend(self.form_wrapper(form, objs, out)?);
            }
        }
        Ok(Some(driver_o))
    }

    /// labgrade's wrapper for another form of a graded function (see `forms`), when the
    /// sources define the function in that form: the object it compiled to. One that does
    /// not compile is not the student's error: the function then cannot be called, as
    /// before.
    fn form_wrapper(
        &self,
        form: &crate::spec::OtherForm,
        objs: &Objects,
        out: &mut Built,
    ) -> Result<Option<PathBuf>, Box<Built>> {
        use super::super::forms;
        let all: Vec<PathBuf> = objs.instr.iter().chain(&objs.plain).cloned().collect();
        let defined = super::super::members::defined_functions(&all);
        let Some((symbol, params)) = forms::target(&defined, form) else {
            return Ok(None);
        };
        let Ok(text) = forms::source(form, &symbol, &params) else {
            return Ok(None);
        };
        let step = self.own_cpp(&format!("form_{}", form.function), &text, &[], out)?;
        Ok(step.ok())
    }

    /// Compiles labgrade's own C++ `text` beside the student's (plain, no warnings, no debug
    /// information, with `extra` arguments) into `<name>.o`: the object, or the compiler's
    /// words when it does not compile; None when the file cannot be written.
    fn own_cpp(
        &self,
        name: &str,
        text: &str,
        extra: &[String],
        out: &mut Built,
    ) -> Result<Result<PathBuf, String>, Box<Built>> {
        let src = self.helper_dir.join(format!("{name}.cpp"));
        let obj = self.helper_dir.join(format!("{name}.o"));
        if let Err(e) = std::fs::write(&src, text) {
            return Ok(Err(format!("cannot write {name}.cpp: {e}")));
        }
        let recipe = &self.spec.build.cpp;
        let step = self.run(
            Command::new(&recipe.compiler)
                .args(&recipe.flags)
                .args(["-fPIC", "-c", "-w", "-g0"])
                .args(extra)
                .arg(&src)
                .arg("-o")
                .arg(&obj),
            out,
        )?;
        Ok(if step.ok { Ok(obj) } else { Err(step.output) })
    }

    /// labgrade's bridge to the graded functions the sources define only as members of a
    /// class (see `members`), when there are any: the object it compiled to. What keeps a
    /// member from being called is told as its function's hint.
    fn member_bridge(
        &self,
        objs: &Objects,
        out: &mut Built,
    ) -> Result<Option<PathBuf>, Box<Built>> {
        use super::super::members;
        let all: Vec<PathBuf> = objs.instr.iter().chain(&objs.plain).cloned().collect();
        let defined = members::defined_functions(&all);
        let class = self.spec.build.member_class.as_deref();
        let declarations = &self.spec.build.declarations;
        let problem = &self.spec.problem.name;
        for (function, hint) in members::ambiguous(&defined, declarations, class, problem) {
            out.member_hints.insert(function, hint);
        }
        let found = members::candidates(&defined, declarations, class);
        if found.is_empty() {
            return Ok(None);
        }
        // The debug information is read from a library (an object's is not yet relocated):
        // the sources alone, linked loosely, for reading only.
        let probe = self.helper_dir.join("members-probe.so");
        let step = self.run(
            Command::new(self.linker())
                .arg("-shared")
                .args(&all)
                .arg("-o")
                .arg(&probe),
            out,
        )?;
        if !step.ok {
            return Ok(None);
        }
        let headers: Vec<String> = tree_files(&self.src_root)
            .iter()
            .filter(|f| matches!(extension(f), "h" | "hh" | "hpp" | "hxx"))
            .filter_map(|f| Some(f.file_name()?.to_str()?.to_string()))
            .collect();
        let mut bridges = Vec::new();
        let _ = super::super::signature::with_dwarf(&probe, |dwarf| {
            for c in found {
                let Some(receiver) = super::super::signature::receiver(dwarf, &c.symbol) else {
                    continue;
                };
                let same = super::super::signature::declared(&c.declaration).and_then(|want| {
                    let got = super::super::signature::built(dwarf, &c.symbol)?;
                    let named = super::super::signature::named_types_of(dwarf, &[&want]);
                    Some(super::super::signature::mismatch(&want, &got, &named).is_none())
                });
                if same != Some(true) {
                    continue;
                }
                match members::making(&c, &receiver, &defined, &headers) {
                    Ok(making) => bridges.push(members::Bridge {
                        candidate: c,
                        making,
                    }),
                    Err(hint) => {
                        out.member_hints.insert(c.function.clone(), hint);
                    }
                }
            }
        });
        if bridges.is_empty() {
            return Ok(None);
        }
        let spec_headers: Vec<String> = tree_files(&self.spec_dir)
            .iter()
            .filter(|f| extension(f) == "h")
            .filter_map(|f| Some(f.file_name()?.to_str()?.to_string()))
            .collect();
        let Ok(text) = members::source(&bridges, &spec_headers) else {
            return Ok(None);
        };
        let mut extra = vec!["-DLG_NO_STUDENT_PROTOTYPES".to_string()];
        extra.extend(self.extra_defs.iter().map(|d| d.to_string()));
        extra.extend(self.path_args(&self.first_dir));
        match self.own_cpp("members", &text, &extra, out)? {
            Ok(obj) => Ok(Some(obj)),
            Err(output) => {
                for b in &bridges {
                    out.member_hints.insert(
                        b.candidate.function.clone(),
                        members::uncompiled(&b.candidate, &output),
                    );
                }
                Ok(None)
            }
        }
    }

    /// The wrapper for a course's own form of a graded function (the course file), in the
    /// submission's language so that it reaches a C++ function by its mangled name. One that
    /// does not compile is not the student's error: the function it wraps then says that it
    /// cannot be called.
    fn course_form(
        &self,
        form: &crate::spec::CourseWrapper,
        objs: &Objects,
        out: &mut Built,
    ) -> Result<Option<PathBuf>, Box<Built>> {
        let spec = self.spec;
        let (ext, recipe) = if self.any_cpp {
            ("cpp", &spec.build.cpp)
        } else {
            ("c", &spec.build.c)
        };
        let src = self
            .helper_dir
            .join(format!("course_{}.{ext}", form.function));
        let obj = self.helper_dir.join(format!("course_{}.o", form.function));
        if let Err(e) = std::fs::write(&src, &form.source) {
            out.notes
                .push(format!("cannot write the course form's wrapper: {e}"));
            return Ok(None);
        }
        // The student's function under a symbol other than the course's name (a C++ one, a
        // static C++ one's local mangled name `_ZL...`, another spelling): the wrapper names
        // it so (see course_form.rs).
        let all: Vec<PathBuf> = objs.instr.iter().chain(&objs.plain).cloned().collect();
        let bound = symbol_of_graded(&all, &form.function, &form.declaration)
            .map(|sym| format!("-DLG_COURSE_SYMBOL=\"{sym}\""));
        let step = self.run(
            Command::new(&recipe.compiler)
                .args(&recipe.flags)
                .args(["-fPIC", "-c", "-w", "-DLG_NO_STUDENT_PROTOTYPES"])
                .args(bound)
                .args(&self.extra_defs)
                .args(self.path_args(&self.first_dir))
                .arg(&src)
                .arg("-o")
                .arg(&obj),
            out,
        )?;
        if step.ok {
            return Ok(Some(obj));
        }
        out.notes.push(format!(
            "labgrade's wrapper for the course's form of {} (`{}`) does not compile with your \
             headers, so it cannot be called:\n{}",
            form.function,
            form.declaration,
            step.output.trim_end()
        ));
        Ok(None)
    }

    /// A link that failed only on calls to functions nothing defines (a course library's
    /// `SetPauseTime`) is linked again with stand-ins for them (see `stand_ins`): the
    /// stand-ins' object, when made, and what the notes say of it.
    fn stand_ins_for(
        &self,
        output: &str,
        objs: &[PathBuf],
        out: &mut Built,
    ) -> Result<Option<(PathBuf, String)>, Box<Built>> {
        // Never a stand-in for a graded or counted function, nor for a name close enough to
        // one to be matched to it ("did you mean"): labgrade would grade its own stand-in.
        let keep_missing = |name: &str| {
            self.graded
                .iter()
                .any(|g| super::super::symbols::close_to(g, name))
        };
        let Some(list) = super::super::stand_ins::needed(output, objs, &keep_missing) else {
            return Ok(None);
        };
        let src = self.helper_dir.join("stand_ins.c");
        let obj = self.helper_dir.join("stand_ins.o");
        if std::fs::write(&src, super::super::stand_ins::source(&list)).is_err() {
            return Ok(None);
        }
        let step = self.run(
            Command::new(&self.spec.build.c.compiler)
                .args(["-fPIC", "-c", "-w"])
                .arg(&src)
                .arg("-o")
                .arg(&obj),
            out,
        )?;
        Ok(step.ok.then(|| (obj, super::super::stand_ins::note(&list))))
    }

    /// Links with `link` (the link's command, given extra objects to link); on a failure
    /// that stand-ins mend, links again with them and notes it.
    fn link_standing_in(
        &self,
        link: &dyn Fn(&[&PathBuf]) -> Command,
        objs: &[PathBuf],
        out: &mut Built,
    ) -> Result<Step, Box<Built>> {
        let step = self.run(&mut link(&[]), out)?;
        if step.ok {
            return Ok(step);
        }
        let Some((obj, note)) = self.stand_ins_for(&step.output, objs, out)? else {
            return Ok(step);
        };
        let again = self.run(&mut link(&[&obj]), out)?;
        if again.ok && !out.notes.contains(&note) {
            out.notes.push(note);
        }
        Ok(if again.ok { again } else { step })
    }

    fn linker(&self) -> &str {
        if self.any_cpp {
            &self.spec.build.cpp.compiler
        } else {
            &self.spec.build.c.compiler
        }
    }

    /// A library from `objs` (and the spec's objects, and `extra`): undefined symbols are
    /// link errors here, not load errors later.
    fn link_lib(
        &self,
        objs: &[PathBuf],
        driver_o: &[PathBuf],
        extra: &[&PathBuf],
        lib: &Path,
        out: &mut Built,
    ) -> Result<Step, Box<Built>> {
        let link = |more: &[&PathBuf]| {
            let mut cmd = Command::new(self.linker());
            cmd.args(["-shared", "-Wl,-z,defs"])
                .args(objs)
                .args(driver_o)
                .args(extra)
                .args(more)
                .arg("-lm")
                .arg("-o")
                .arg(lib);
            cmd
        };
        self.link_standing_in(&link, objs, out)
    }

    /// The library labgrade calls: counted, from the instrumented objects, where every
    /// source compiled so and they link; else plain, from plain objects of every source.
    /// Sets the objects the program links from; false when the build failed.
    fn link_library(
        &self,
        objs: &mut Objects,
        driver_o: &[PathBuf],
        helper_objs: &helpers::HelperObjects,
        program_objs: &mut Vec<PathBuf>,
        out: &mut Built,
    ) -> Result<bool, Box<Built>> {
        // A C++ library says which exception escaped a graded function (see the helper).
        let throw: Vec<&PathBuf> = helper_objs.throw.iter().filter(|_| self.any_cpp).collect();
        if objs.plain.is_empty() && out.library.is_none() {
            let ilib = self.w.join("submission.instr.so");
            let mut extra = vec![&helper_objs.hooks, &helper_objs.probe];
            extra.extend(&throw);
            let step = self.link_lib(&objs.instr, driver_o, &extra, &ilib, out)?;
            if step.ok {
                out.instrumented = Some(ilib.clone());
                out.library = Some(ilib);
                *program_objs = objs.instr.clone();
                program_objs.push(helper_objs.hooks.clone());
                if !objs.hand_counting.is_empty() {
                    // The library runs as built (with no counters installed its hooks return
                    // at once), but none of its counts is the student's calls'.
                    out.instrumented = None;
                    out.counting_hidden = true;
                    out.instrumented_note = Some(hand_counting_note(&objs.hand_counting));
                }
            } else {
                // The plain objects link (below) where these do not: the code's doing.
                out.counting_hidden = true;
                out.instrumented_note = Some(counted_link_failed(&step.output));
            }
        }
        if out.library.is_some() {
            return Ok(true);
        }
        // No counting build: the plain one, from plain objects of every source.
        for (i, f) in self.files.iter().enumerate() {
            let obj = self.object(i, f, "");
            if objs.plain.contains(&obj) {
                continue;
            }
            let step = self.compile(f, &obj, Counting::Plain, out)?;
            if !step.ok || !self.globalize(&obj, f, objs, out)? {
                out.output.push_str(&step.output);
                out.failed = true;
                return Ok(false);
            }
            objs.plain.push(obj);
        }
        let lib = self.w.join("submission.so");
        let step = self.link_lib(&objs.plain, driver_o, &throw, &lib, out)?;
        if !step.ok {
            out.output.push_str(&step.output);
            out.failed = true;
            return Ok(false);
        }
        out.library = Some(lib);
        *program_objs = objs.plain.clone();
        Ok(true)
    }

    /// The student's own program, with labgrade's run-time helper.
    fn link_program(
        &self,
        program_objs: &[PathBuf],
        progrt: &PathBuf,
        out: &mut Built,
    ) -> Result<(), Box<Built>> {
        let prog = self.w.join("submission");
        let link = |more: &[&PathBuf]| {
            let mut cmd = Command::new(self.linker());
            cmd.args(program_objs)
                .arg(progrt)
                .args(more)
                .arg("-lm")
                .arg("-o")
                .arg(&prog);
            cmd
        };
        let step = self.link_standing_in(&link, program_objs, out)?;
        if step.ok {
            out.program = Some(prog);
            out.program_marks_overflow = true;
        } else if step.output.contains("undefined reference to `main'") {
            out.program_missing = Some("your sources have no `main` function".into());
        } else {
            out.program_missing = Some(format!("linking the program failed:\n{}", step.output));
        }
        Ok(())
    }

    /// AddressSanitizer/LeakSanitizer: the student's sources (less the spec's exclusions)
    /// with the spec's sanitizer main, for leak and double-free cases.
    fn sanitizer_build(&self, out: &mut Built) -> Result<(), Box<Built>> {
        let spec = self.spec;
        let Some(main) = &spec.build.sanitizer_main else {
            return Ok(());
        };
        let sources: Vec<&PathBuf> = self
            .files
            .iter()
            .filter(|f| {
                let name = f.file_name().unwrap_or_default().to_string_lossy();
                !spec.build.sanitizer_excludes.iter().any(|x| *x == name)
            })
            .collect();
        let exe = self.w.join("submission.asan");
        let step = self.run(
            Command::new(&spec.build.cpp.compiler)
                .args(&spec.build.cpp.flags)
                .args(["-g", "-O0", "-fsanitize=address", "-fno-omit-frame-pointer"])
                .args(&self.extra_defs)
                .args(self.path_args(&self.first_dir))
                .args(&sources)
                .arg(self.spec_dir.join(main))
                .arg("-lm")
                .arg("-o")
                .arg(&exe),
            out,
        )?;
        if step.ok {
            out.sanitized = Some(exe);
        } else {
            out.sanitized_note = Some(format!(
                "the AddressSanitizer build failed:\n{}",
                step.output.trim_end()
            ));
        }
        Ok(())
    }
}

/// What the student reads when the counted objects do not link but the plain ones may.
fn counted_link_failed(output: &str) -> String {
    let own_hooks =
        output.contains("__cyg_profile_func") || output.contains("labgrade_hand_called");
    if own_hooks {
        "your code defines its own __cyg_profile_func_enter/exit hooks, so labgrade cannot \
         count calls: remove them to have call counts checked"
            .into()
    } else {
        format!(
            "your code links, but not in labgrade's counting build, so none of its calls can be \
             counted: what tells the two builds apart is in your code{}",
            first_error(output)
                .map(|e| format!(" ({e})"))
                .unwrap_or_default()
        )
    }
}

/// The student's sources, as detection chose them (two levels deep at most), in the build
/// directory's `src_root`.
fn sources_of(staged: &Staged, src_root: &Path) -> Vec<PathBuf> {
    let files: Vec<PathBuf> = if staged.root.is_dir() {
        staged
            .files
            .iter()
            .filter(|f| matches!(language_of(f), Some(Language::C | Language::Cpp)))
            .map(|f| src_root.join(f))
            .collect()
    } else {
        vec![src_root.join(staged.root.file_name().unwrap_or_default())]
    };
    files
        .into_iter()
        .filter(|f| {
            f.strip_prefix(src_root)
                .map_or(0, |r| r.components().count())
                <= 3
        })
        .collect()
}

/// Read once from the sources: `-DLG_PROVIDE_<helper>` for each helper the spec provides
/// that no source defines (the spec header defines it then), and the functions each source
/// declares static.
fn read_sources(
    files: &[PathBuf],
    spec: &ProblemSpec,
) -> (Vec<String>, BTreeMap<PathBuf, Vec<String>>) {
    let mut defined_helpers: BTreeSet<&str> = BTreeSet::new();
    let statics: BTreeMap<PathBuf, Vec<String>> = files
        .iter()
        .map(|f| {
            let t = std::fs::read(f).unwrap_or_default();
            let text = String::from_utf8_lossy(&t[..t.len().min(MAX_SCAN_BYTES)]);
            for helper in &spec.build.provides {
                if defines_function(&text, helper) {
                    defined_helpers.insert(helper);
                }
            }
            let names = static_function_names(&text)
                .into_iter()
                .map(str::to_string)
                .collect();
            (f.clone(), names)
        })
        .collect();
    let provided = spec
        .build
        .provides
        .iter()
        .filter(|h| !defined_helpers.contains(h.as_str()))
        .map(|h| format!("-DLG_PROVIDE_{h}"))
        .collect();
    (provided, statics)
}
