#!/bin/sh
# Prints what 'make check-system-hw' recorded (tests/system-hw-macros.at):
# for each test that reached its end, the datapath flows then in place,
# offloaded in full, in part and kept in software, with the reasons
# netdev-hw/not-offloaded gave; the tests skipped on hw ports and why;
# the totals; and a last line "N passed, N failed, N skipped" counted from
# autotest's log.
#
# usage: system-hw-report.sh TESTS_DIR
set -u

dir=$1
results=$dir/system-hw-offloads.txt
log=$dir/system-hw-testsuite.log

if [ -f "$results" ]; then
    # A test run again (--recheck) counts once, with its last run.
    awk -F'\t' '
        $1 == "T" {
            if (!($2 in title)) { order[n++] = $2 }
            title[$2] = $3; full[$2] = $4; part[$2] = $5; sw[$2] = $6
            nr[$2] = 0; skip[$2] = ""
        }
        $1 == "R" { r[$2, nr[$2]++] = $5; rn[$2, nr[$2] - 1] = $4 }
        $1 == "S" {
            if (!($2 in title)) { order[n++] = $2 }
            title[$2] = $3; skip[$2] = $4; nr[$2] = 0
        }
        END {
            print "Datapath flows at the end of each test (full, partial," \
                  " software) and why flows stayed in software:"
            for (i = 0; i < n; i++) {
                g = order[i]
                if (skip[g] != "") { continue }
                printf "%4d: %s: full %d, partial %d, software %d\n",
                       g, title[g], full[g], part[g], sw[g]
                tf += full[g]; tp += part[g]; ts += sw[g]; nt++
                for (j = 0; j < nr[g]; j++) {
                    printf "        %d %s\n", rn[g, j], r[g, j]
                    # One total for all recirculation ids.
                    key = r[g, j]
                    gsub(/recirc_id 0x[0-9a-f]+/, "recirc_id N", key)
                    if (!((g, key) in seen)) { tests[key]++ }
                    seen[g, key] = 1
                    flows[key] += rn[g, j]
                }
            }
            print ""
            print "Skipped on hw ports:"
            for (i = 0; i < n; i++) {
                g = order[i]
                if (skip[g] != "") {
                    printf "%4d: %s: %s\n", g, title[g], skip[g]
                }
            }
            print ""
            printf "Total over %d tests: full %d, partial %d, software %d\n",
                   nt, tf, tp, ts
            print "Reasons (flows, tests):"
            for (reason in flows) {
                printf "%6d %4d  %s\n", flows[reason], tests[reason], reason
                tr += flows[reason]
            }
            # The provider records the last 64 refusals, of flows on the
            # ports it claims; the flows of other ports have no reason.
            if (ts > tr) {
                printf "%6d       (no reason recorded: an input port that" \
                       " is not a hw port, or more than 64 refusals)\n",
                       ts - tr
            }
        }' "$results" | awk '
        /^Reasons/ { print; sorting = 1; next }
        sorting { print | "LC_ALL=C sort -k1,1nr -k3" ; next }
        { print }'
    echo
else
    echo "no test recorded its offloads ($results)"
fi

count() {
    grep -Ec "^[0-9]+\. .*\([a-z0-9-]+\.at:[0-9]+\): $1" "$log" 2>/dev/null
}
echo "$(count ok) passed, $(count FAILED) failed, $(count skipped) skipped"
