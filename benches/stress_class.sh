#!/usr/bin/env bash
# Cold class gradings, many times, at the parallelism given, each grades.csv compared
# byte for byte with a `-j 1` grading's (grades.csv holds no times), then the same class
# timed at -j 1, 2, 4, the core count and twice that, cold and warm, as speed-ups on -j 1.
#
# It needs no Rust: only a release build (labgrade and labgrade-worker side by side),
# gcc/g++ and the repository's specs. It is the check for a machine with many cores that
# `cargo test` cannot make on a small one (issue: the same grades on every run).
#
#   benches/stress_class.sh BIN_DIR RUNS J [J ...]
#   e.g. benches/stress_class.sh target/release 20 16 32
#   COPIES=10 SCALING=0 benches/stress_class.sh target/release 3 16   (250 submissions)
#   PROBLEM=turnpike SCALING=0 benches/stress_class.sh target/release 10 32
#
# Prints one line per grading and, at the end, how many gradings differed (exit 1 if any
# did, or if any grading ended with an exit code other than 0 or 1).
set -u
bin=$(cd "$1" && pwd)/labgrade
runs=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
class=$work/class
# The class: every sample of the problem (nim unless PROBLEM says) with C or C++ sources, as
# benches/common/class_dir.rs makes it.
problem=${PROBLEM:-nim}
for d in "$root"/tests/submissions/"$problem"/*/; do
    name=$(basename "$d")
    srcs=$(find "$d" -maxdepth 1 -type f \( -name '*.c' -o -name '*.cpp' -o -name '*.cc' -o -name '*.hpp' \))
    [ -n "$srcs" ] || continue
    mkdir -p "$class/$name"
    find "$d" -maxdepth 1 -type f \( -name '*.c' -o -name '*.cpp' -o -name '*.cc' -o -name '*.h' -o -name '*.hpp' \) \
        -exec cp {} "$class/$name/" \;
done
# COPIES=K: K distinct copies of each (a comment added to each source), a bigger class.
copies=${COPIES:-1}
if [ "$copies" -gt 1 ]; then
    for d in "$class"/*/; do
        for k in $(seq 2 "$copies"); do
            c=${d%/}-copy$k
            cp -r "$d" "$c"
            for f in "$c"/*.c "$c"/*.cpp "$c"/*.cc; do
                [ -f "$f" ] && printf '\n/* copy %s */\n' "$k" >>"$f"
            done
        done
    done
fi
echo "class: $(ls "$class" | wc -l) $problem submissions; $(nproc) cores"

n=0
# grade OUT CACHE J [--force]: one grading; prints its seconds; exit code checked.
grade() {
    local out=$1 cache=$2 j=$3
    shift 3
    local t0 t1 rc
    t0=$(date +%s.%N)
    "$bin" --root "$root" --cache-dir "$cache" --color never --jobs "$j" grade "$problem" "$class" \
        --out "$out" "$@" >"$out.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
        { echo "grading $out: exit code $rc:"; tail -5 "$out.log"; } >>"$work/failures"
    fi
    awk "BEGIN { print $t1 - $t0 }"
}
bad=0
grade "$work/ref" "$work/ref-cache" 1 >"$work/t1"
echo "-j 1 reference, seconds: $(cat "$work/t1")"
if [ -s "$work/failures" ]; then
    cat "$work/failures" "$work/ref.log"
    exit 2
fi
for j in "$@"; do
    same=0
    for r in $(seq 1 "$runs"); do
        o=$work/run-$j-$r
        s=$(grade "$o" "$o-cache" "$j")
        if cmp -s "$o/grades.csv" "$work/ref/grades.csv"; then
            same=$((same + 1))
        else
            bad=$((bad + 1))
            echo "-j $j run $r: grades.csv differs from -j 1:"
            diff "$work/ref/grades.csv" "$o/grades.csv" | head -20
        fi
        rm -rf "$o-cache"
    done
    echo "-j $j: $same of $runs cold runs byte-identical to -j 1"
done

# finish: the gradings that failed (their exit codes), the count, and the exit status.
finish() {
    if [ -s "$work/failures" ]; then
        cat "$work/failures"
        bad=$((bad + $(grep -c '^grading ' "$work/failures")))
    fi
    echo "gradings that differed or failed: $bad"
    [ "$bad" -eq 0 ]
    exit
}
[ "${SCALING:-1}" = 1 ] || finish
# Scaling: cold (a new cache) and warm (cache kept, every submission graded again).
cores=$(nproc)
warm=$work/warm-cache
grade "$work/fill" "$warm" "$cores" >/dev/null
printf '%6s %10s %10s %8s %8s\n' -j cold_s warm_s cold_x warm_x
for j in $(printf '%s\n' 1 2 4 "$cores" $((2 * cores)) | sort -n | uniq); do
    c=$(grade "$work/c$j" "$work/c$j-cache" "$j")
    w=$(grade "$work/w$j" "$warm" "$j" --force)
    cmp -s "$work/c$j/grades.csv" "$work/ref/grades.csv" || { echo "-j $j cold differs"; bad=$((bad + 1)); }
    cmp -s "$work/w$j/grades.csv" "$work/ref/grades.csv" || { echo "-j $j warm differs"; bad=$((bad + 1)); }
    [ "$j" = 1 ] && { c1=$c; w1=$w; }
    awk -v j="$j" -v c="$c" -v w="$w" -v c1="$c1" -v w1="$w1" \
        'BEGIN { printf "%6s %10.2f %10.2f %8.2f %8.2f\n", j, c, w, c1 / c, w1 / w }'
done
finish
