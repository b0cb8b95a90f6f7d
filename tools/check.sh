#!/bin/sh
# Installs the Debian packages, builds OVS with the plugin and runs the
# tests: the plugin's own (unit and autotest) and the OVS suites that the
# vswitchd patches could break (dpif-netdev.at, tunnel.at,
# tunnel-push-pop.at, tunnel-push-pop-ipv6.at).  With CI=true (or
# CHECK_ASAN=yes), then also builds a second tree with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs the plugin's tests in it ('make
# check-asan'; CHECK_ASAN=no leaves it out).  Ends with autotest's summary
# and a plain "N passed, N failed, N skipped" line, the sum of the runs.
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
if [ -z "$asan" ] && [ "${CI:-}" = true ]; then
    asan=yes
fi
if [ "$asan" != yes ]; then
    cat "$summary"
    exit $status
fi

asan_log=ovs-build-asan/openvswitch/tests/testsuite.log
rm -f "$asan_log"
start=$(date +%s)
make --no-print-directory -j"$(nproc)" check-asan \
    ${TEST_JOBS:+TEST_JOBS=$TEST_JOBS} || status=$?
end=$(date +%s)
set -- $(cat "$summary" | sed 's/[^0-9 ]//g')
passed=$(( $1 + $(count "$asan_log" ok) ))
failed=$(( $2 + $(count "$asan_log" FAILED) ))
skipped=$(( $3 + $(count "$asan_log" skipped) ))
if [ ! -f "$asan_log" ]; then
    # The sanitizers' build failed: no test ran.
    failed=$(( failed + 1 ))
fi
echo "make check: $(cat "$summary")"
echo "make check-asan: $(count "$asan_log" ok) passed," \
     "$(count "$asan_log" FAILED) failed, $(count "$asan_log" skipped)" \
     "skipped ($(( end - start )) s, building included)"
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
