#!/bin/sh
# Installs the Debian packages, builds OVS with the plugin and runs the
# tests: the plugin's own (unit and autotest) and the OVS suites that the
# vswitchd patches could break (dpif-netdev.at, tunnel.at,
# tunnel-push-pop.at, tunnel-push-pop-ipv6.at).  Ends with autotest's
# summary and a plain "N passed, N failed" line.
set -e
cd "$(dirname "$0")/.."

./tools/build.sh

# make check (tools/run-tests.sh) counts the tests from autotest's logs;
# OVS's own suites get OVS's recheck of their failures, the plugin's tests
# do not.  Its "N passed, N failed, N skipped" line is repeated last, after
# make's own messages.
status=0
make --no-print-directory check ${TEST_JOBS:+TEST_JOBS=$TEST_JOBS} || status=$?
summary=ovs-build/openvswitch/tests/testsuite-summary.txt
if [ -f "$summary" ]; then
    cat "$summary"
fi
exit $status
