#!/bin/sh
# Runs each sub-test of the plugin's unit-test programs (tests/test-hw-*.c,
# "ovstest PROGRAM NAME") under valgrind's memcheck, one process per
# sub-test, and prints one line per sub-test and a summary line
# "N passed, N failed, N skipped" last.
#
# A sub-test fails if it fails on its own, or if memcheck reports an error
# (--error-exitcode): an invalid read or write, a jump on an uninitialised
# value, a bad free, or a leak that is definite or indirect
# (--leak-check=full).  "Possibly lost" blocks are printed, not counted:
# OVS's own structures (cmap, ovs-rcu) keep pointers inside the blocks
# they allocate.  OVS's suppressions for glibc and OpenSSL are used.
# Valgrind's output for each sub-test is kept in
# OVS_DIR/tests/valgrind-unit/PROGRAM.NAME.log.
#
# The programs are those whose "ovstest PROGRAM --list" names sub-tests
# (test-hw-rss-predict and test-hw-bench are tools, not lists of tests).
#
# usage: valgrind-unit.sh [-b OVS_DIR] [PROGRAM[:NAME]...]
set -u

ovs_dir=$(cd "$(dirname "$0")/.." && pwd)/ovs-build/openvswitch
if [ "${1:-}" = -b ]; then
    ovs_dir=$2
    shift 2
fi
ovstest=$ovs_dir/tests/ovstest
if [ ! -x "$ovstest" ]; then
    echo "valgrind-unit.sh: $ovstest not found: build it first" \
         "(make, or make -C $ovs_dir tests/ovstest)" >&2
    exit 1
fi
if ! command -v valgrind >/dev/null; then
    echo "valgrind-unit.sh: valgrind not found (apt-get install valgrind)" >&2
    exit 1
fi

if [ $# -eq 0 ]; then
    src=$(cd "$(dirname "$0")/.." && pwd)/tests
    set -- $(sed -n 's/^OVSTEST_REGISTER("\(test-hw-[a-z0-9-]*\)".*/\1/p' \
             "$src"/test-hw-*.c | sort)
fi

logs=$ovs_dir/tests/valgrind-unit
rm -rf "$logs"
mkdir -p "$logs"

passed=0
failed=0
skipped=0
for arg in "$@"; do
    prog=${arg%%:*}
    if [ "$prog" != "$arg" ]; then
        names=${arg#*:}
    else
        names=$("$ovstest" "$prog" --list 2>/dev/null) || names=
    fi
    for name in $names; do
        log=$logs/$prog.$name.log
        valgrind --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect \
            --suppressions="$ovs_dir/tests/glibc.supp" \
            --suppressions="$ovs_dir/tests/openssl.supp" \
            --num-callers=30 --log-file="$log" \
            "$ovstest" "$prog" "$name" >"$log.out" 2>&1
        rc=$?
        if [ $rc -eq 0 ] && grep -qx "$name: ok" "$log.out"; then
            result=ok
            passed=$((passed + 1))
        elif [ $rc -eq 77 ]; then
            result=skipped
            skipped=$((skipped + 1))
        else
            result="FAILED (exit status $rc, see $log)"
            failed=$((failed + 1))
        fi
        echo "$prog $name: $result"
        if [ "$result" != ok ] && [ "$result" != skipped ]; then
            sed '1,/Parent PID/d' "$log" | head -40
            tail -5 "$log.out"
        fi
    done
done
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
