#!/bin/sh
# Installs the Debian packages, builds OVS with the plugin and runs the
# tests: the plugin's own (unit and autotest) and the OVS suites that the
# vswitchd patches could break (dpif-netdev.at, tunnel.at,
# tunnel-push-pop.at, tunnel-push-pop-ipv6.at).  Ends with autotest's
# summary and a plain "N passed, N failed" line.
set -e
cd "$(dirname "$0")/.."

./tools/build.sh

status=0
make --no-print-directory check ${TEST_JOBS:+TEST_JOBS=$TEST_JOBS} || status=$?

# One line a CI can read, counted from autotest's own log, where each test
# has a line "N. title (file.at:line): ok|FAILED|skipped|expected failure".
log=ovs-build/openvswitch/tests/testsuite.log
if [ -f "$log" ]; then
    count() {
        grep -cE "^[0-9]+\. .*\([a-z0-9-]+\.at:[0-9]+\): $1" "$log" || true
    }
    echo "$(count ok) passed, $(count FAILED) failed, $(count skipped) skipped"
fi
exit $status
