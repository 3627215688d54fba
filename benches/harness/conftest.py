"""pytest + ctypes harness for Roberts' nim, of the kind an instructor writes.

Run by `cargo bench --bench class` beside labgrade, on the same class:

    python3 -m pytest -q benches/harness --class-dir DIR --labgrade-root . \
        --build-dir BUILD --summary summary.json

Each submission is compiled with gcc/g++ into a shared library, and every case calls one
function in a forked child (2 s timeout) and compares its return with the book's answer. It
cannot see how many calls the recursion made, nor how deep it went.
"""

import json
from collections import defaultdict

import pytest


def pytest_addoption(parser):
    parser.addoption("--class-dir", required=True, help="one submission per entry")
    parser.addoption("--labgrade-root", required=True, help="holds specs/ and fixtures/")
    parser.addoption("--build-dir", required=True, help="where the .so files go")
    parser.addoption("--summary", default=None, help="write passed/failed per submission here")


_outcomes = defaultdict(lambda: {"passed": 0, "failed": 0})


def pytest_runtest_logreport(report):
    # One outcome per test: the call phase, or a failing/skipped setup.
    if report.when == "call" or (report.when == "setup" and not report.passed):
        # test_nim[<submission>-<function>-<n>]; a submission's name may hold dashes.
        sub = report.nodeid.split("[", 1)[1].rstrip("]").rsplit("-", 2)[0]
        _outcomes[sub]["passed" if report.passed else "failed"] += 1


def pytest_sessionfinish(session, exitstatus):
    path = session.config.getoption("--summary")
    if path:
        with open(path, "w") as f:
            json.dump(_outcomes, f, indent=1, sort_keys=True)
