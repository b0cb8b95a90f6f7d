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

# One line a CI can read, counted from autotest's own log.
log=ovs-build/openvswitch/tests/testsuite.log
if [ -f "$log" ]; then
    sed -n 's/^[0-9][0-9]*: .*\(ok\|FAILED\|skipped\|expected failure\).*/\1/p' \
        "$log" | sed -n '/^## Summary/q;p' >/dev/null
    passed=$(grep -cE '^[0-9]+: .* ok( |$)' "$log" || true)
    failed=$(grep -cE '^[0-9]+: .* FAILED( |$)' "$log" || true)
    skipped=$(grep -cE '^[0-9]+: .* skipped( |$)' "$log" || true)
    echo "$passed passed, $failed failed, $skipped skipped"
fi
exit $status
