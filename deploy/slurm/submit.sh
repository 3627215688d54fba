#!/bin/sh
# Grades a class on a Slurm cluster: an array of SHARDS tasks (grade-array.sbatch), then a
# merge job (merge.sbatch) that starts when every task succeeded. Prints both job ids.
#
#   deploy/slurm/submit.sh nim /shared/class /shared/out 8 [--roster /shared/roster.csv]
#   squeue -u "$USER"            # then: /shared/out/merged/report.html, grades.csv, ...
#
# CLASS and OUT must be on a file system every node sees, and OUT outside CLASS. Start from
# an empty OUT (or one graded with the same SHARDS): merge takes every OUT/shard-* there.
# Extra sbatch options (partition, account, time limit) go in SBATCH_* variables, e.g.
# SBATCH_PARTITION=short SBATCH_TIMELIMIT=30 (sbatch reads them itself).
set -eu
usage="usage: submit.sh PROBLEM CLASS_DIR OUT_DIR [SHARDS] [grade options]"
problem=${1:?$usage}
class=$(cd "${2:?$usage}" && pwd)
mkdir -p "${3:?$usage}"
out=$(cd "$3" && pwd)
shards=${4:-4}
shift 3
if [ $# -gt 0 ]; then shift; fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/logs"
array=$(sbatch --parsable --array="1-$shards" --output="$out/logs/shard-%a.log" \
    "$here/grade-array.sbatch" "$problem" "$class" "$out" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$out/logs/merge.log" "$here/merge.sbatch" "$out")
merge=${merge%%;*}
echo "array $array, merge $merge"
