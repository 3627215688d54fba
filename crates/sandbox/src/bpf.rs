//! The seccomp program of a run, compiled as a binary search over system call numbers.
//!
//! Written by hand because what attaching a filter costs depends on its shape: when a
//! filter is attached, the kernel runs it once for every system call number of every
//! architecture, to cache which calls it always allows. A linear chain of comparisons (what
//! `seccompiler` emits: one test per ruled call, in order) made that about 190 us per child on
//! these machines, more than the fork itself; a search tree visits about log2(n) nodes per
//! number. The rules are few and simple (trap a call always, or when one of its arguments
//! says it reaches beyond the calling process), so the compiler is small, and the tests
//! interpret the program to check its answer for every call number.

use std::collections::BTreeMap;

/// What a filter does with a call (the `SECCOMP_RET_*` value).
pub type Action = u32;

/// A test on one argument of a call; the call is trapped when the test holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgTest {
    /// The low 32 bits of argument `arg` have none of `mask`'s bits (a `clone` without
    /// `CLONE_THREAD`: a new process).
    BitsClear {
        /// Argument index, 0 to 5.
        arg: u8,
        /// The bits that must be set for the call to be allowed.
        mask: u32,
    },
    /// The low 32 bits of argument `arg` have one of `mask`'s bits (an `mmap` of executable
    /// memory).
    BitsSet {
        /// Argument index, 0 to 5.
        arg: u8,
        /// The bits that refuse the call.
        mask: u32,
    },
    /// The low 32 bits of argument `arg` are not 0 (a target other than the caller itself).
    NonZero {
        /// Argument index, 0 to 5.
        arg: u8,
    },
}

/// What the filter does with one call number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// Always `action`.
    Always(Action),
    /// `SECCOMP_RET_TRAP` when any of the tests holds, allowed otherwise.
    TrapWhen(Vec<ArgTest>),
    /// Fails with `errno` when any of the tests holds, allowed otherwise (the build jail:
    /// a compiler or build script gets an error it can report, not a signal).
    RefuseWhen {
        /// The tests, any of which refuses the call.
        tests: Vec<ArgTest>,
        /// The error.
        errno: u32,
    },
}

/// The `AUDIT_ARCH_*` value of the architecture labgrade was built for.
pub fn native_arch() -> u32 {
    if cfg!(target_arch = "aarch64") {
        0xC000_00B7
    } else {
        0xC000_003E
    }
}

/// Offset of `seccomp_data.nr`, `.arch` and `.args[i]` (low word, little-endian).
const NR: u32 = 0;
const ARCH: u32 = 4;
fn arg_low(arg: u8) -> u32 {
    16 + 8 * u32::from(arg)
}

/// x86-64's x32 ABI bit: calls numbered from here are another ABI's, with other numbers.
const X32_BIT: u32 = 0x4000_0000;

fn stmt(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u32, k: u32, jt: usize, jf: usize) -> Result<libc::sock_filter, String> {
    let narrow = |o: usize| u8::try_from(o).map_err(|_| "a jump is too long for BPF".to_string());
    Ok(libc::sock_filter {
        code: (libc::BPF_JMP | code | libc::BPF_K) as u16,
        jt: narrow(jt)?,
        jf: narrow(jf)?,
        k,
    })
}

const RET: u32 = libc::BPF_RET | libc::BPF_K;
const LOAD: u32 = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;

/// Compiles `rules` for the native architecture: a call of another architecture kills the
/// process, an x32 call (on x86-64) is trapped, a call without a rule is allowed.
pub fn compile(rules: &BTreeMap<u32, Rule>) -> Result<Vec<libc::sock_filter>, String> {
    compile_with_default(rules, libc::SECCOMP_RET_ALLOW)
}

/// [`compile`], but a call without a rule gets `default` (an allowlist: the rules allow what
/// the process needs, [`Rule::Always`] of `SECCOMP_RET_ALLOW`, and nothing else is).
pub fn compile_with_default(
    rules: &BTreeMap<u32, Rule>,
    default: Action,
) -> Result<Vec<libc::sock_filter>, String> {
    let mut prog = vec![
        stmt(LOAD, ARCH),
        jump(libc::BPF_JEQ, native_arch(), 1, 0)?,
        stmt(RET, libc::SECCOMP_RET_KILL_PROCESS),
        stmt(LOAD, NR),
    ];
    if cfg!(target_arch = "x86_64") {
        prog.push(jump(libc::BPF_JGE, X32_BIT, 0, 1)?);
        prog.push(stmt(RET, libc::SECCOMP_RET_TRAP));
    }
    let nrs: Vec<u32> = rules.keys().copied().collect();
    prog.extend(tree(&nrs, rules, default)?);
    if prog.len() > usize::from(u16::MAX) {
        return Err("the seccomp program is too long".into());
    }
    Ok(prog)
}

/// The search over `nrs` (sorted), with the call number in the accumulator; a number without
/// a rule gets `default`. Every path ends in a return, so subtrees are laid out one after
/// the other.
fn tree(
    nrs: &[u32],
    rules: &BTreeMap<u32, Rule>,
    default: Action,
) -> Result<Vec<libc::sock_filter>, String> {
    match nrs {
        [] => Ok(vec![stmt(RET, default)]),
        [nr] => {
            let mut out = vec![jump(libc::BPF_JEQ, *nr, 1, 0)?, stmt(RET, default)];
            out.extend(body(&rules[nr])?);
            Ok(out)
        }
        _ => {
            let (low, high) = nrs.split_at(nrs.len() / 2);
            let left = tree(low, rules, default)?;
            let right = tree(high, rules, default)?;
            let mut out = vec![jump(libc::BPF_JGE, high[0], left.len(), 0)?];
            out.extend(left);
            out.extend(right);
            Ok(out)
        }
    }
}

/// The instructions for one call number's rule.
fn body(rule: &Rule) -> Result<Vec<libc::sock_filter>, String> {
    let (tests, action) = match rule {
        Rule::Always(action) => return Ok(vec![stmt(RET, *action)]),
        Rule::TrapWhen(tests) => (tests, libc::SECCOMP_RET_TRAP),
        Rule::RefuseWhen { tests, errno } => (
            tests,
            libc::SECCOMP_RET_ERRNO | (errno & libc::SECCOMP_RET_DATA),
        ),
    };
    // Each test: load the argument, then jump to the next test (does not hold) or to the
    // action at the end (holds). After the last test: allow.
    let mut out = Vec::new();
    for (i, test) in tests.iter().enumerate() {
        // Instructions after this test's jump: the later tests (2 each), allow.
        let to_trap = 2 * (tests.len() - 1 - i) + 1;
        match *test {
            ArgTest::BitsClear { arg, mask } => {
                out.push(stmt(LOAD, arg_low(arg)));
                out.push(jump(libc::BPF_JSET, mask, 0, to_trap)?);
            }
            ArgTest::BitsSet { arg, mask } => {
                out.push(stmt(LOAD, arg_low(arg)));
                out.push(jump(libc::BPF_JSET, mask, to_trap, 0)?);
            }
            ArgTest::NonZero { arg } => {
                out.push(stmt(LOAD, arg_low(arg)));
                out.push(jump(libc::BPF_JEQ, 0, 0, to_trap)?);
            }
        }
    }
    out.push(stmt(RET, libc::SECCOMP_RET_ALLOW));
    out.push(stmt(RET, action));
    Ok(out)
}

/// Runs `prog` on one call, as the kernel would: the action it returns. For tests (this
/// crate's, and those of the build jail's filter, in another crate, which `cfg(test)` would
/// not reach); only the instructions [`compile`] emits are understood.
pub fn interpret(prog: &[libc::sock_filter], arch: u32, nr: u32, args: [u64; 6]) -> Action {
    let word = |k: u32| -> u32 {
        match k {
            NR => nr,
            ARCH => arch,
            k if k >= 16 && (k - 16) % 4 == 0 && k < 64 => {
                let a = args[((k - 16) / 8) as usize];
                if (k - 16) % 8 == 0 {
                    a as u32
                } else {
                    (a >> 32) as u32
                }
            }
            other => panic!("load of offset {other}"),
        }
    };
    let mut acc = 0u32;
    let mut pc = 0usize;
    loop {
        let i = prog[pc];
        let code = u32::from(i.code);
        pc += 1;
        if code == LOAD {
            acc = word(i.k);
        } else if code == RET {
            return i.k;
        } else {
            let taken = match code & !(libc::BPF_JMP | libc::BPF_K) {
                c if c == libc::BPF_JEQ => acc == i.k,
                c if c == libc::BPF_JGE => acc >= i.k,
                c if c == libc::BPF_JSET => acc & i.k != 0,
                other => panic!("instruction {other:#x}"),
            };
            pc += usize::from(if taken { i.jt } else { i.jf });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRAP: Action = libc::SECCOMP_RET_TRAP;
    const ALLOW: Action = libc::SECCOMP_RET_ALLOW;

    fn rules() -> BTreeMap<u32, Rule> {
        let mut r = BTreeMap::new();
        for nr in [41, 53, 165, 321, 62, 200, 250, 251, 252, 300, 310, 311] {
            r.insert(nr, Rule::Always(TRAP));
        }
        r.insert(435, Rule::Always(libc::SECCOMP_RET_ERRNO | 38));
        r.insert(
            56,
            Rule::TrapWhen(vec![ArgTest::BitsClear {
                arg: 0,
                mask: 0x10000,
            }]),
        );
        r.insert(
            302,
            Rule::RefuseWhen {
                tests: vec![ArgTest::NonZero { arg: 0 }],
                errno: 1,
            },
        );
        r.insert(
            9,
            Rule::RefuseWhen {
                tests: vec![ArgTest::BitsSet { arg: 2, mask: 4 }],
                errno: 1,
            },
        );
        r.insert(
            141,
            Rule::TrapWhen(vec![
                ArgTest::NonZero { arg: 0 },
                ArgTest::NonZero { arg: 1 },
            ]),
        );
        r
    }

    #[test]
    fn every_call_number_gets_its_rule_and_the_rest_are_allowed() {
        let rules = rules();
        let prog = compile(&rules).unwrap();
        let arch = native_arch();
        let holds = |t: &ArgTest, args: &[u64; 6]| match *t {
            ArgTest::BitsClear { arg, mask } => args[arg as usize] as u32 & mask == 0,
            ArgTest::BitsSet { arg, mask } => args[arg as usize] as u32 & mask != 0,
            ArgTest::NonZero { arg } => args[arg as usize] as u32 != 0,
        };
        // The same rules as an allowlist: a call without a rule gets the default.
        let eperm = libc::SECCOMP_RET_ERRNO | 1;
        let denying = compile_with_default(&rules, eperm).unwrap();
        for args in [
            [0; 6],
            [1; 6],
            [0x10000, 5, 0, 0, 0, 0],
            [0, 0, 4, 0, 0, 0],
            [u64::MAX; 6],
        ] {
            for nr in 0..1000 {
                let got = interpret(&prog, arch, nr, args);
                if !rules.contains_key(&nr) {
                    assert_eq!(interpret(&denying, arch, nr, args), eperm, "call {nr}");
                }
                let want = match rules.get(&nr) {
                    None => ALLOW,
                    Some(Rule::Always(a)) => *a,
                    Some(Rule::TrapWhen(tests)) if tests.iter().any(|t| holds(t, &args)) => TRAP,
                    Some(Rule::TrapWhen(_)) => ALLOW,
                    Some(Rule::RefuseWhen { tests, errno })
                        if tests.iter().any(|t| holds(t, &args)) =>
                    {
                        libc::SECCOMP_RET_ERRNO | errno
                    }
                    Some(Rule::RefuseWhen { .. }) => ALLOW,
                };
                assert_eq!(got, want, "call {nr} with {args:?}");
            }
        }
        // The tree is shallow: no call takes more than a couple of dozen instructions.
        assert!(prog.len() < 120, "{} instructions", prog.len());
    }

    #[test]
    fn argument_tests_trap_only_when_they_hold() {
        let prog = compile(&rules()).unwrap();
        let arch = native_arch();
        // clone: a thread (CLONE_THREAD set, in the low word) is allowed, a process is not;
        // bits of the high word change nothing.
        assert_eq!(
            interpret(&prog, arch, 56, [0x10000 | 0x100, 0, 0, 0, 0, 0]),
            ALLOW
        );
        assert_eq!(interpret(&prog, arch, 56, [0x11, 0, 0, 0, 0, 0]), TRAP);
        assert_eq!(interpret(&prog, arch, 56, [1 << 40, 0, 0, 0, 0, 0]), TRAP);
        // setpriority(which, who): both must be 0.
        assert_eq!(interpret(&prog, arch, 141, [0; 6]), ALLOW);
        assert_eq!(interpret(&prog, arch, 141, [0, 7, 0, 0, 0, 0]), TRAP);
        assert_eq!(interpret(&prog, arch, 141, [1, 0, 0, 0, 0, 0]), TRAP);
        // prlimit64(pid) refused with EPERM (the build jail's rule): only pid 0 goes through.
        assert_eq!(interpret(&prog, arch, 302, [0, 7, 0, 0, 0, 0]), ALLOW);
        assert_eq!(
            interpret(&prog, arch, 302, [4242, 7, 0, 0, 0, 0]),
            libc::SECCOMP_RET_ERRNO | 1
        );
    }

    #[test]
    fn another_architecture_is_killed_and_x32_calls_are_trapped() {
        let prog = compile(&rules()).unwrap();
        assert_eq!(
            interpret(&prog, 0x4000_0003, 41, [0; 6]),
            libc::SECCOMP_RET_KILL_PROCESS
        );
        if cfg!(target_arch = "x86_64") {
            assert_eq!(interpret(&prog, native_arch(), X32_BIT | 39, [0; 6]), TRAP);
        }
    }

    #[test]
    fn no_rules_allow_everything() {
        let prog = compile(&BTreeMap::new()).unwrap();
        assert_eq!(interpret(&prog, native_arch(), 41, [0; 6]), ALLOW);
    }
}
