#!/bin/bash
# churn-heap.sh -- where ovs-vswitchd's memory goes in a flow churn
# (Documentation/performance.rst, section 8).
#
# Starts ovs-vswitchd with bench.sh's section 8 setup (hw ports p1 and p2 on
# the NIC model, p3 a dummy port, revalidators paused), adds N datapath
# flows with dpctl/add-flows, deletes them with dpctl/del-flows and purges,
# twice, and prints after each step the heap in use as glibc counts it
# (mallinfo2(), read with gdb: uordblks + hblkhd, every live block), the
# free memory it keeps (fordblks), the RSS, and the model's objects.  Last,
# malloc_trim(0) (called with gdb) shows what RSS glibc could give back.
#
# usage: churn-heap.sh [-b OVS_DIR] N HW_OFFLOAD(true|false) [THREADS]
#   -b  built OVS tree (default ovs-build/openvswitch of this repository)
# Needs gdb and glibc's debug symbols (Debian: libc6-dbg) for mallinfo2().
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/ovs-build/openvswitch
while getopts "b:" o; do
    case $o in
        b) B=$OPTARG ;;
        *) sed -n '2,16p' "$0"; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,16p' "$0"; exit 1; }
N=$1 OFF=$2 T=${3:-4}
B=$(cd "$B" && pwd) || exit 1
export PATH="$B/utilities:$B/vswitchd:$B/ovsdb:$B/tests:$PATH"
D=$(mktemp -d /tmp/churn-heap.XXXXXX)
export OVS_RUNDIR=$D OVS_LOGDIR=$D OVS_DBDIR=$D OVS_SYSCONFDIR=$D

ovsdb-tool create "$D/conf.db" "$B/vswitchd/vswitch.ovsschema"
ovsdb-server --detach --no-chdir --pidfile --log-file -vconsole:off \
    --remote=punix:"$D/db.sock" "$D/conf.db"
trap 'ovs-appctl --timeout=20 exit >/dev/null 2>&1;
      ovs-appctl -t ovsdb-server exit >/dev/null 2>&1' EXIT
ovs-vsctl --no-wait init
ovs-vsctl --no-wait set Open_vSwitch . other_config:hw-offload="$OFF" \
    other_config:max-idle=3600000 other_config:pmd-cpu-mask=0x2 \
    other_config:n-offload-threads="$T"
ovs-vswitchd --enable-dummy --disable-system --disable-system-route \
    --detach --no-chdir --pidfile --log-file -vconsole:off
PID=$(cat "$D/ovs-vswitchd.pid")
ports=""
for i in 1 2; do
    ports="$ports -- add-port br0 p$i -- set Interface p$i type=hw"
    ports="$ports ofport_request=$i options:device=model$((i - 1))"
    ports="$ports options:n_rxq=1"
done
# shellcheck disable=SC2086
ovs-vsctl add-br br0 -- set bridge br0 datapath_type=dummy \
    fail-mode=secure $ports -- add-port br0 p3 -- \
    set Interface p3 type=dummy ofport_request=3
for _ in $(seq 100); do
    ovs-appctl dpctl/show | grep -q "port 2: p2 " && break
    sleep 0.1
done
ovs-appctl revalidator/pause

# Section 8's flows: UDP from 10.0.0.1 up, alternating p1 and p2, to p3.
awk -v n="$N" 'function ip(a) {return sprintf("%d.%d.%d.%d", int(a / 16777216), int(a / 65536) % 256, int(a / 256) % 256, a % 256)}
    BEGIN {for (i = 0; i < n; i++) printf "add in_port(%d),eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02),eth_type(0x0800),ipv4(src=%s,dst=192.168.0.1,proto=17,frag=no),udp(src=1000,dst=2000) 3\n", i % 2 + 1, ip(167772161 + i)}' \
    > "$D/add.txt"
sed 's/^add \([^ ]*\) 3$/delete \1/' "$D/add.txt" > "$D/del.txt"

gdb_call() {
    # shellcheck disable=SC2016
    gdb -p "$PID" -batch -ex "$1" 2>/dev/null | sed -n 's/^\$1 = //p'
}
heap() {
    gdb_call 'print mallinfo2()' | awk -F'[=,{} ]+' '
        {for (i = 1; i < NF; i++) v[$i] = $(i + 1)
         printf "in_use=%.1fMB free=%.1fMB", (v["uordblks"] + v["hblkhd"]) / 1e6,
                v["fordblks"] / 1e6}'
}
drain() {
    [ "$OFF" = true ] || return 0
    while [ "$(ovs-appctl dpctl/offload-stats-show |
               sed -n 's/^ *Total  *Enqueued offloads: *//p')" != 0 ]; do
        sleep 0.2
    done
}
report() {
    printf '%-9s %s rss=%.1fMB flows=%s %s\n' "$1" "$(heap)" \
        "$(awk '/^VmRSS/ {print $2 / 1e3}' "/proc/$PID/status")" \
        "$(ovs-appctl dpctl/show | sed -n 's/^ *flows: *//p')" \
        "$(ovs-appctl hw-model/objects model0 | sed 's/ reformat.*//')"
}

report base
for round in 1 2; do
    ovs-appctl --timeout=600 dpctl/add-flows "$D/add.txt" >/dev/null
    drain
    report "added$round"
    ovs-appctl --timeout=600 dpctl/del-flows "$D/del.txt" >/dev/null
    drain
    ovs-appctl revalidator/resume
    ovs-appctl revalidator/purge
    ovs-appctl revalidator/pause
    drain
    sleep 1                     # The RCU thread frees the flows.
    report "deleted$round"
done
gdb_call 'print (int) malloc_trim(0)' >/dev/null
report trimmed
