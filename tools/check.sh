#!/bin/sh
# Installs the Debian packages, builds OVS with the plugin and runs the
# tests: the plugin's own (unit and autotest) and the OVS suites that the
# vswitchd patches could break (dpif-netdev.at, tunnel.at,
# tunnel-push-pop.at, tunnel-push-pop-ipv6.at).  With CI=true (or
# CHECK_ASAN=yes), then also builds a second tree with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs the plugin's tests in it ('make
# check-asan'; CHECK_ASAN=no leaves it out).  Ends with autotest's summary
# and a plain "N passed, N failed, N skipped" line, the sum of the runs.
# With CI=true (or CHECK_FUZZ=yes) each libFuzzer target of tests/fuzz/
# also runs for FUZZ_TIME seconds (20 by default; 'make fuzz'), one line
# each, and counts as a test: one that crashes fails.  With CI=true (or
# CHECK_SYSTEM=yes), as root, the CI part of OVS's system-userspace suite
# on hw ports runs last ('make check-system-hw-ci', tests/system-hw-ci.list).
set -e
cd "$(dirname "$0")/.."

./tools/build.sh

# Results "N. title (file.at:line): RESULT" in autotest log $1, whose
# result is $2 (0 without the log).
count() {
    if [ -f "$1" ]; then
        grep -Ec "^[0-9]+\. .*\([a-z0-9-]+\.at:[0-9]+\): $2" "$1" || true
    else
        echo 0
    fi
}

# make check (tools/run-tests.sh) counts the tests from autotest's logs;
# OVS's own suites get OVS's recheck of their failures, the plugin's tests
# do not.  Its "N passed, N failed, N skipped" line is repeated last, after
# make's own messages.
status=0
make --no-print-directory check ${TEST_JOBS:+TEST_JOBS=$TEST_JOBS} || status=$?
summary=ovs-build/openvswitch/tests/testsuite-summary.txt
if [ ! -f "$summary" ]; then
    exit $status
fi

asan=${CHECK_ASAN:-}
fuzz=${CHECK_FUZZ:-}
system=${CHECK_SYSTEM:-}
if [ "${CI:-}" = true ]; then
    asan=${asan:-yes}
    fuzz=${fuzz:-yes}
    system=${system:-yes}
fi
set -- $(cat "$summary" | sed 's/[^0-9 ]//g')
passed=$1
failed=$2
skipped=$3

if [ "$asan" = yes ]; then
    asan_log=ovs-build-asan/openvswitch/tests/testsuite.log
    rm -f "$asan_log"
    start=$(date +%s)
    make --no-print-directory -j"$(nproc)" check-asan \
        ${TEST_JOBS:+TEST_JOBS=$TEST_JOBS} || status=$?
    end=$(date +%s)
    passed=$(( passed + $(count "$asan_log" ok) ))
    failed=$(( failed + $(count "$asan_log" FAILED) ))
    skipped=$(( skipped + $(count "$asan_log" skipped) ))
    if [ ! -f "$asan_log" ]; then
        # The sanitizers' build failed: no test ran.
        failed=$(( failed + 1 ))
    fi
fi

if [ "$fuzz" = yes ]; then
    fuzz_log=fuzz-build/fuzz-summary.txt
    mkdir -p fuzz-build
    rm -f "$fuzz_log"
    if make --no-print-directory fuzz-build >fuzz-build/build.log 2>&1; then
        ./tools/fuzz.sh -b "$PWD/fuzz-build" -t "${FUZZ_TIME:-20}" \
            >"$fuzz_log" || status=1
        set -- $(tail -n 1 "$fuzz_log" | sed 's/[^0-9 ]//g')
        passed=$(( passed + $1 ))
        failed=$(( failed + $2 ))
    else
        echo "fuzz: the build failed, see fuzz-build/build.log" >"$fuzz_log"
        failed=$(( failed + 1 ))
        status=1
    fi
fi

system_line=
if [ "$system" = yes ] && [ "$(id -u)" != 0 ]; then
    system_line="skipped: OVS's system tests need root"
elif [ "$system" = yes ]; then
    system_log=ovs-build/openvswitch/tests/system-hw-ci.out
    system_start=$(date +%s)
    make --no-print-directory check-system-hw-ci >"$system_log" 2>&1 \
        || status=1
    system_end=$(date +%s)
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' \
               "$system_log" | tail -n 1)
    if [ -z "$line" ]; then
        # Nothing ran: the build or the selection of the tests failed.
        tail -n 20 "$system_log"
        line="0 passed, 1 failed, 0 skipped"
        status=1
    fi
    system_line="$line ($(( system_end - system_start )) s, see $system_log)"
    set -- $(echo "$line" | sed 's/[^0-9 ]//g')
    passed=$(( passed + $1 ))
    failed=$(( failed + $2 ))
    skipped=$(( skipped + $3 ))
fi

# Where each failed test failed, just above the summary: the end of a CI
# log is often all there is to read.  OVS's tests count as failed only if
# they failed their recheck too.
tests=ovs-build/openvswitch/tests
ovs_log=$tests/testsuite-ovs.log
if [ -f "$tests/testsuite-recheck.log" ]; then
    ovs_log=$tests/testsuite-recheck.log
fi
./tools/failure-digest.sh "$tests/testsuite-hw.log" "$ovs_log" \
    ${asan_log:+"$asan_log"} \
    ${system_log:+"$tests/system-hw-testsuite.log"} || true

if [ "$asan" = yes ] || [ "$fuzz" = yes ] || [ "$system" = yes ]; then
    echo "make check: $(cat "$summary")"
fi
if [ "$asan" = yes ]; then
    echo "make check-asan: $(count "$asan_log" ok) passed," \
         "$(count "$asan_log" FAILED) failed, $(count "$asan_log" skipped)" \
         "skipped ($(( end - start )) s, building included)"
fi
if [ "$fuzz" = yes ]; then
    grep '^fuzz' "$fuzz_log"
fi
if [ -n "$system_line" ]; then
    echo "make check-system-hw-ci: $system_line"
fi
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
