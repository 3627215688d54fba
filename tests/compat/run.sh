#!/bin/sh
# tests/compat/run.sh: the course-library stand-ins of specs/lib/ compile and behave.
#
# Each NAME.c / NAME.cpp here is compiled with gcc / g++ against specs/lib/ at every
# -std level its "compat-stds:" line names, with -Wall -Wextra -Werror, then run with
# NAME.in (or nothing) on standard input. Compared: standard output with NAME.out
# (exactly), standard error with NAME.err when that file exists, and the exit status
# with NAME.status (0 when absent). Then the headers that exist only in C++ must refuse
# C with a clear #error.
#
# Usage: tests/compat/run.sh [-v]      (from anywhere; CC, CXX override gcc, g++)
# Exit status: 0 if everything passed, 1 if not, 2 if no compiler.

here=$(cd "$(dirname "$0")" && pwd)
lib=$(cd "$here/../../specs/lib" && pwd)
CC=${CC:-gcc}
CXX=${CXX:-g++}
verbose=0
[ "${1:-}" = "-v" ] && verbose=1

command -v "$CC" >/dev/null 2>&1 || { echo "run.sh: $CC not found" >&2; exit 2; }
command -v "$CXX" >/dev/null 2>&1 || { echo "run.sh: $CXX not found" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/labgrade-compat.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM

passed=0
failed=0

fail() {
    failed=$((failed + 1))
    echo "FAIL $1"
    shift
    for line in "$@"; do echo "     $line"; done
}

ok() {
    passed=$((passed + 1))
    [ $verbose = 1 ] && echo "ok   $1"
    return 0
}

for src in "$here"/*.c "$here"/*.cpp; do
    [ -f "$src" ] || continue
    file=$(basename "$src")
    name=${file%.*}
    case $file in
        *.c) compiler=$CC ;;
        *) compiler=$CXX ;;
    esac
    stds=$(sed -n 's/.*compat-stds:[[:space:]]*//p' "$src" | head -n 1)
    if [ -z "$stds" ]; then
        fail "$file" "no 'compat-stds:' line"
        continue
    fi
    for std in $stds; do
        what="$file -std=$std"
        exe="$work/$name.$std"
        if ! "$compiler" -std="$std" -Wall -Wextra -Werror -O2 -I "$lib" "$src" -o "$exe" \
                >"$work/build.txt" 2>&1; then
            fail "$what: does not compile" "$(head -n 20 "$work/build.txt")"
            continue
        fi
        input=/dev/null
        [ -f "$here/$name.in" ] && input="$here/$name.in"
        # (the shell's own "Aborted" notice for a program killed by a signal: hidden)
        status=$( { (cd "$work" && exec "$exe" <"$input" >"$work/out.txt" 2>"$work/err.txt")
                    echo $?; } 2>/dev/null)
        expected_status=0
        [ -f "$here/$name.status" ] && expected_status=$(cat "$here/$name.status")
        problems=""
        if [ "$status" != "$expected_status" ]; then
            problems="exit status $status, expected $expected_status"
        fi
        if ! cmp -s "$work/out.txt" "$here/$name.out"; then
            problems="$problems${problems:+; }standard output differs:
$(diff "$here/$name.out" "$work/out.txt" | head -n 20)"
        fi
        if [ -f "$here/$name.err" ] && ! cmp -s "$work/err.txt" "$here/$name.err"; then
            problems="$problems${problems:+; }standard error differs:
$(diff "$here/$name.err" "$work/err.txt" | head -n 20)"
        fi
        if [ -n "$problems" ]; then
            fail "$what" "$problems"
        else
            ok "$what"
        fi
    done
done

# The C++-only headers refuse C, saying why.
for header in vector.h grid.h set.h map.h stack.h queue.h console.h foreach.h; do
    printf '#include "%s"\nint main(void) { return 0; }\n' "$header" >"$work/conly.c"
    if "$CC" -std=c11 -I "$lib" -c "$work/conly.c" -o "$work/conly.o" >"$work/build.txt" 2>&1; then
        fail "$header in C" "compiled as C; it should stop with #error"
    elif ! grep -q "is a C++ header" "$work/build.txt"; then
        fail "$header in C" "no clear message:" "$(head -n 5 "$work/build.txt")"
    else
        ok "$header refuses C"
    fi
done

# foreach.h needs C++11 and says so.
printf '#include "foreach.h"\nint main() { return 0; }\n' >"$work/old.cpp"
if "$CXX" -std=c++98 -I "$lib" -c "$work/old.cpp" -o "$work/old.o" >"$work/build.txt" 2>&1; then
    fail "foreach.h in C++98" "compiled; it should stop with #error"
elif ! grep -q "std=c++11" "$work/build.txt"; then
    fail "foreach.h in C++98" "no clear message:" "$(head -n 5 "$work/build.txt")"
else
    ok "foreach.h refuses C++98"
fi

# Two translation units of one program: the header-only definitions (weak hook,
# graphics state) link together, and as a shared library with -z defs.
for lang in c cpp; do
    if [ $lang = c ]; then compiler=$CC; std=c11; else compiler=$CXX; std=c++11; fi
    for unit in 1 2; do
        cat >"$work/unit$unit.$lang" <<EOS
#include "genlib.h"
#include "simpio.h"
#include "strlib.h"
#include "random.h"
#include "graphics.h"
#include "extgraph.h"
int unit$unit(void) { MovePen($unit, 0); return (int) GetCurrentX() + (lg_error_hook != 0); }
EOS
    done
    printf 'int unit1(void);\nint unit2(void);\nint main(void) { return unit1() + unit2() == 3 ? 0 : 1; }\n' \
        >"$work/main.$lang"
    if ! "$compiler" -std=$std -Wall -Wextra -Werror -fPIC -I "$lib" "$work/unit1.$lang" \
            "$work/unit2.$lang" "$work/main.$lang" -o "$work/units" >"$work/build.txt" 2>&1; then
        fail "two units ($lang)" "$(head -n 20 "$work/build.txt")"
    elif ! "$work/units"; then
        fail "two units ($lang)" "the graphics state is not shared between the units"
    elif ! "$compiler" -std=$std -Wall -Wextra -Werror -fPIC -shared -Wl,-z,defs -I "$lib" \
            "$work/unit1.$lang" "$work/unit2.$lang" -o "$work/units.so" >"$work/build.txt" 2>&1; then
        fail "two units ($lang), shared library" "$(head -n 20 "$work/build.txt")"
    else
        ok "two units ($lang)"
    fi
done

echo "compat: $passed passed, $failed failed"
[ $failed = 0 ]
