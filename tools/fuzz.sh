#!/bin/sh
# Runs the libFuzzer targets that 'make fuzz' built (tests/fuzz/), each for
# a fixed time, from its seed corpus in tests/fuzz/corpus/TARGET/ (read
# only: what a run finds goes to a scratch corpus).  Prints one line per
# target, "fuzz TARGET: ok|FAILED, N runs in N s (N exec/s)", and then
# "N passed, N failed, N skipped", the line tools/check.sh sums.  A
# target that crashes, leaks, trips a sanitizer or breaks an invariant
# fails; its input is kept as crash-* (or leak-*, timeout-*) in the work
# directory, whose path is printed.
#
# usage: fuzz.sh -b BUILD [-t SECONDS] [-w WORKDIR] [TARGET...]
set -u

build=
time=60
work=
while getopts b:t:w: opt; do
    case $opt in
        b) build=$OPTARG ;;
        t) time=$OPTARG ;;
        w) work=$OPTARG ;;
        *) echo "usage: $0 -b BUILD [-t SECONDS] [-w WORKDIR] [TARGET...]" >&2
           exit 2 ;;
    esac
done
shift $((OPTIND - 1))
src=$(cd "$(dirname "$0")/.." && pwd)
targets=${*:-translate flow-attr dr-match packet hbl}
work=${work:-$build/fuzz-work}

passed=0
failed=0
for t in $targets; do
    dir=$work/$t
    rm -rf "$dir"
    mkdir -p "$dir/corpus"
    # -rss_limit_mb: ASan's quarantine grows to a few hundred MB.
    (cd "$dir" && "$build/fuzz-$t" -max_total_time="$time" \
         -rss_limit_mb=4096 -print_final_stats=1 \
         corpus "$src/tests/fuzz/corpus/$t") >"$dir/log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
    secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log")
    if [ $status = 0 ]; then
        passed=$((passed + 1))
        echo "fuzz $t: ok, ${runs:-0} runs in $time s (${secs:-0} exec/s)"
    else
        failed=$((failed + 1))
        echo "fuzz $t: FAILED after ${runs:-?} runs, see $dir/log" \
             "and $dir/crash-* (exit $status)"
        # What failed and the input, so that a CI log alone reproduces it.
        grep -m 1 -E '^\(null\): |^==[0-9]+== ?ERROR|^SUMMARY' "$dir/log" \
            | sed "s/^/fuzz $t:   /"
        grep -m 1 '^Base64: ' "$dir/log" | sed "s/^/fuzz $t:   /"
    fi
done
echo "$passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
