"""The nim cases: FindGoodMove, IsBadPosition and ChooseComputerMove on every n of
labgrade's fixtures (fixtures/nim/*.toml), compared with Figure 7-5's answers."""

import ctypes
import os
import pickle
import select
import signal
import subprocess
import sys
import tomllib
from functools import lru_cache
from pathlib import Path

import pytest

TIMEOUT_S = 2.0
FUNCTIONS = ("FindGoodMove", "IsBadPosition", "ChooseComputerMove")


def _opt(name):
    # Collection needs the options before any fixture exists.
    for i, a in enumerate(sys.argv):
        if a == name:
            return sys.argv[i + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    raise SystemExit(f"{name} is required")


CLASS_DIR = Path(_opt("--class-dir"))
ROOT = Path(_opt("--labgrade-root"))
BUILD_DIR = Path(_opt("--build-dir"))


# --- the instructor's answer key: Figure 7-5 in Python --------------------------------------

@lru_cache(maxsize=None)
def find_good_move(n):
    for taken in range(1, 4):
        if is_bad_position(n - taken):
            return taken
    return -1


@lru_cache(maxsize=None)
def is_bad_position(n):
    if n == 1:
        return True
    return find_good_move(n) == -1


def choose_computer_move(n):
    t = find_good_move(n)
    return 1 if t == -1 else t


EXPECTED = {
    "FindGoodMove": find_good_move,
    "IsBadPosition": is_bad_position,
    "ChooseComputerMove": choose_computer_move,
}


# --- the cases: every call of labgrade's fixtures whose return is graded ----------------------

def arguments(c):
    """The n of each case a fixture line stands for: one, or one per value of its `each`
    (nim's fixtures bind one variable, `n`, to a range such as "2..=15" or to a list)."""
    each = c.get("each")
    if not each:
        return [int(c["args"][0])]
    (var, spec), = each.items()
    if isinstance(spec, str):
        lo, hi = spec.split("..=") if "..=" in spec else spec.split("..")
        values = range(int(lo), int(hi) + (1 if "..=" in spec else 0))
    else:
        values = spec
    return [int(str(c["args"][0]).replace("{" + var + "}", str(v))) for v in values]


def load_cases():
    cases = []
    for f in sorted((ROOT / "fixtures" / "nim").glob("*.toml")):
        data = tomllib.loads(f.read_text())
        compare = data.get("defaults", {}).get("compare", [])
        for c in data.get("case", []):
            if c.get("call") in FUNCTIONS and "return" in c.get("compare", compare):
                if not c["name"].startswith("robustness/"):
                    cases.extend((c["call"], n) for n in arguments(c))
    return cases


SUBMISSIONS = sorted(p.name for p in CLASS_DIR.iterdir() if p.is_dir())
CASES = load_cases()


# --- building: one shared library per submission ----------------------------------------------

_libs = {}


def build(sub):
    if sub in _libs:
        return _libs[sub]
    src = CLASS_DIR / sub
    c = sorted(src.rglob("*.c"))
    cpp = sorted(src.rglob("*.cpp")) + sorted(src.rglob("*.cc"))
    if cpp:
        cmd = ["g++", "-std=c++11"]
    else:
        cmd = ["gcc", "-std=c11"]
    out = BUILD_DIR / f"{sub}.so"
    cmd += ["-O2", "-Wall", "-shared", "-fPIC",
            "-I", str(ROOT / "specs" / "nim"), "-I", str(ROOT / "specs" / "lib"), "-I", str(src)]
    cmd += [str(p) for p in c + cpp] + ["-o", str(out), "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        _libs[sub] = (None, r.stderr)
    else:
        _libs[sub] = (ctypes.CDLL(str(out)), None)
    return _libs[sub]


def function(lib, name):
    # The C name, else g++'s mangling of `int name(int)` / `bool name(int)` (no extern "C").
    for sym in (name, f"_Z{len(name)}{name}i"):
        try:
            f = getattr(lib, sym)
        except AttributeError:
            continue
        f.argtypes = [ctypes.c_int]
        f.restype = ctypes.c_bool if name == "IsBadPosition" else ctypes.c_int
        return f
    return None


# --- one call, in a forked child, with a timeout ----------------------------------------------

def call_forked(f, n):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            os.write(w, pickle.dumps(("ok", f(n))))
        finally:
            os._exit(0)
    os.close(w)
    ready, _, _ = select.select([r], [], [], TIMEOUT_S)
    if not ready:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(r)
        return ("timeout", None)
    data = b""
    while chunk := os.read(r, 4096):
        data += chunk
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if not data:
        return ("crash", status)
    return pickle.loads(data)


@pytest.mark.parametrize("call,n", CASES, ids=[f"{c}-{n}" for c, n in CASES])
@pytest.mark.parametrize("sub", SUBMISSIONS)
def test_nim(sub, call, n):
    lib, err = build(sub)
    if lib is None:
        pytest.fail(f"does not compile:\n{err}")
    f = function(lib, call)
    if f is None:
        pytest.fail(f"{call} not found")
    kind, got = call_forked(f, n)
    assert kind == "ok", f"{call}({n}): {kind}"
    assert got == EXPECTED[call](n), f"{call}({n}) returned {got}"
