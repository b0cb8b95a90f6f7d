#!/bin/sh
# Prints, for each test that failed in the autotest logs given (3 a log at
# most), its result line and what its failing check printed (MAX_LINES
# lines, 8 by default), so that the tail of a CI log alone says where a
# test failed and why.  Prints nothing when no test failed.
#
# usage: failure-digest.sh LOG...
set -u

max_lines=${MAX_LINES:-8}

for log in "$@"; do
    [ -f "$log" ] || continue
    grep -E '^[0-9]+\. .*\([a-z0-9-]+\.at:[0-9]+\): FAILED \(' "$log" \
        | awk '!seen[$1]++' | head -n 3 | while read -r line; do
        echo "$line" | sed 's/^[0-9]*\. [a-z0-9-]*\.at:[0-9]*: /failed: /'
        number=${line%%.*}
        where=$(echo "$line" \
                | sed -n 's/.*FAILED (\([a-z0-9-]*\.at:[0-9]*\))$/\1/p')
        # The test's own log starts at "N. file.at:L: testing" and its
        # failing check at "./file.at:L:", or, for an OVS_WAIT_UNTIL that
        # timed out (ovs-macros.at), at its "waiting until" line.
        awk -v start="$number. " -v where="./$where:" -v max="$max_lines" '
            index($0, start) == 1 && / testing / { in_test = 1; next }
            !in_test { next }
            /^(ovsdb-server|ovs-vswitchd)\.log:$/ || index($0, start) == 1 {
                exit
            }
            / waiting until / { waiting = $0 }
            / wait failed after / { text[0] = waiting; text[1] = $0; n = 2
                                    waited = 1 }
            waited { next }
            index($0, where) == 1 && where !~ /ovs-macros/ {
                n = 0; delete text
            }
            n < max { text[n++] = $0 }
            END { for (i = 0; i < n; i++) print "  " substr(text[i], 1, 160) }
        ' "$log"
    done
done
