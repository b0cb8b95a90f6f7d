#!/bin/sh
# ovn-sandbox.sh -- OVN on two chassis whose datapaths offload to the NIC
# model, and how much of the datapath's work the device does.
#
# Per scenario, it starts OVN's NB and SB databases and ovn-northd, then two
# chassis, each in a network namespace of its own with its own ovsdb-server,
# ovs-vswitchd (from the build, with the plugin and hw-offload=true) and
# ovn-controller (Debian's).  The underlay is a veth pair between the two
# namespaces whose ends are the wires of the chassis' hw uplink ports (NIC
# model devices, hw-model/attach); br-phy holds the uplink and the underlay
# address.  Each VM is a namespace behind a hw port of br-int.  It sends
# traffic between the VMs, checks that it passed, and prints the datapath
# flows of both chassis (full, partial, software), the share of the
# packets whose datapath work the device did, and why the rest stayed in
# software.  Everything it creates is in DIR and in namespaces named
# ovnsb<PID>-*, and is removed when it exits: the host's own OVS and OVN
# services, if any, are not touched.
#
# Debian's OVN is unpacked, not installed (tools/install-deps.sh, which
# --install runs): installing ovn-host would start Debian's OVS.
#
# usage: ovn-sandbox.sh [OPTION]... [SCENARIO]...
#   -d DIR      run directory (default: ovn-sandbox-run/): a directory
#               per scenario, with its databases, sockets and logs
#   -b DIR      the OVS build tree (default: ovs-build/openvswitch/)
#   -n COUNT    packets (pings) or connections per scenario (default 100)
#   --install   run tools/install-deps.sh first (it unpacks Debian's OVN)
#   --rst       print the summary table in reStructuredText too
#   --shell     after each scenario's traffic, open a shell in which
#               ovn-nbctl, ovn-sbctl, chN-vsctl and chN-appctl work
# Scenarios (default: all): switch acl lb router vxlan vxlan-nocsum
# geneve-nocsum.  HW_OVN=DIR names where Debian's OVN is unpacked.
#
# Needs root (namespaces, veths).  Exits non-zero if a scenario's traffic
# did not pass.
set -e
# Not cd: the daemons write their sanitizer reports, if any, where they
# start (a test's directory).
TOP=$(cd "$(dirname "$0")/.." && pwd)
HELPERS=$TOP/tools/ovn-sandbox

D=$TOP/ovn-sandbox-run
B=$TOP/ovs-build/openvswitch
N=100
INSTALL=no
RST=no
SHELL_AFTER=no
ALL="switch acl lb router vxlan vxlan-nocsum geneve-nocsum"

usage() {
    sed -n '/^# usage:/,/^# Needs root/p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case $1 in
        -d) D=$(mkdir -p "$2" && cd "$2" && pwd); shift 2 ;;
        -b) B=$(cd "$2" && pwd); shift 2 ;;
        -n) N=$2; shift 2 ;;
        --install) INSTALL=yes; shift ;;
        --rst) RST=yes; shift ;;
        --shell) SHELL_AFTER=yes; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) usage >&2; exit 1 ;;
        *) break ;;
    esac
done
SCENARIOS=${*:-$ALL}
for s in $SCENARIOS; do
    case " $ALL " in
        *" $s "*) ;;
        *) echo "ovn-sandbox: no scenario '$s' (there are: $ALL)" >&2
           exit 1 ;;
    esac
done
case $N in
    ''|*[!0-9]*|0) echo "ovn-sandbox: -n needs a positive number" >&2
                   exit 1 ;;
esac

if [ "$(id -u)" != 0 ]; then
    echo "ovn-sandbox: needs root (network namespaces and veths)" >&2
    exit 1
fi
if [ ! -x "$B/vswitchd/ovs-vswitchd" ]; then
    echo "ovn-sandbox: no build in $B: run ./tools/build.sh first" >&2
    exit 1
fi
OVN=${HW_OVN:-/usr/local/lib/netdev-offload-hw/ovn}
if [ $INSTALL = yes ]; then
    HW_OVN=$OVN "$TOP/tools/install-deps.sh"
fi
if [ ! -x "$OVN/usr/bin/ovn-controller" ]; then
    echo "ovn-sandbox: no OVN in $OVN: run with --install" \
         "(or tools/install-deps.sh)" >&2
    exit 1
fi
PY=python3
if [ -x /usr/bin/python3 ]; then
    PY=/usr/bin/python3
fi

# Our OVS first, then Debian's OVN: ovn-northd, ovn-controller and the
# ovn-* utilities are OVN's; ovsdb-server, ovs-vswitchd, ovs-vsctl and
# ovs-appctl are the build's.
PATH=$B/utilities:$B/vswitchd:$B/ovsdb:$OVN/usr/bin:$PATH
export PATH
PFX=ovnsb$$
S=  # the current scenario's directory
C=  # and its central part (NB, SB, ovn-northd)

# --- Helpers -------------------------------------------------------------

say() {
    printf '%s\n' "$*"
}

# The run directory of chassis $1 and the commands that talk to it.
chdir_of() {
    echo "$S/ch$1"
}

chassis_vsctl() {
    local c=$1
    shift
    ovs-vsctl --timeout=30 --db=unix:"$(chdir_of $c)/db.sock" "$@"
}

chassis_appctl() {
    local c=$1
    shift
    OVS_RUNDIR=$(chdir_of $c) ovs-appctl --timeout=30 "$@"
}

nbctl() {
    ovn-nbctl --timeout=60 --db=unix:"$C/nb.sock" "$@"
}

in_ns() {
    local ns=$1
    shift
    ip netns exec "$PFX-$ns" "$@"
}

# wait_until TIMEOUT COMMAND...: runs COMMAND until it succeeds, for up to
# TIMEOUT seconds.
wait_until() {
    local end=$(($(date +%s) + $1))
    shift
    while ! "$@" >/dev/null 2>&1; do
        if [ $(date +%s) -ge $end ]; then
            return 1
        fi
        sleep 0.2
    done
}

# stop_daemon PIDFILE [CTL]: asks the daemon to exit through its control
# socket CTL (by default NAME.PID.ctl beside PIDFILE NAME.pid), then kills
# it (only that process, by its pid file) if it is still there.
# ovs-vswitchd exits as OVS's tests stop it, with --cleanup: what it
# leaves unfreed then is a leak that a sanitizer build should report.
stop_daemon() {
    local pid ctl cleanup=
    if [ ! -f "$1" ]; then
        return 0
    fi
    pid=$(cat "$1" 2>/dev/null || true)
    ctl=${2:-${1%.pid}.$pid.ctl}
    case $1 in
        */ovs-vswitchd.pid) cleanup=--cleanup ;;
    esac
    ovs-appctl --timeout=10 -t "$ctl" exit $cleanup >/dev/null 2>&1 || true
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        sleep 1
        kill "$pid" 2>/dev/null || true
    fi
    rm -f "$1"
}

# Stops everything the scenario in $S started and removes its namespaces.
teardown() {
    local pid ch r ns
    for pid in $(cat "$S/servers" 2>/dev/null); do
        kill "$pid" 2>/dev/null || true
    done
    rm -f "$S/servers"
    for ch in 1 2; do
        r=$(chdir_of $ch)
        stop_daemon "$r/ovn-controller.pid"
        stop_daemon "$r/ovs-vswitchd.pid"
        stop_daemon "$r/ovsdb-server.pid"
    done
    stop_daemon "$C/northd.pid" "$C/northd.ctl"
    stop_daemon "$C/nb.pid" "$C/nb.ctl"
    stop_daemon "$C/sb.pid" "$C/sb.ctl"
    for ns in $(ip netns list | sed -n "s/^\($PFX-[a-z0-9]*\).*/\1/p"); do
        ip netns del "$ns"
    done
}
trap 'status=$?; teardown; exit $status' EXIT
trap 'exit 130' INT TERM

# --- Topology ------------------------------------------------------------

# NB and SB databases and ovn-northd, reached through Unix sockets in
# $C (a socket file works across network namespaces).
start_central() {
    local db
    mkdir -p "$C"
    for db in nb sb; do
        ovsdb-tool create "$C/$db.db" "$OVN/usr/share/ovn/ovn-$db.ovsschema"
        ovsdb-server --detach -vconsole:off --no-chdir --pidfile="$C/$db.pid" \
            --log-file="$C/$db.log" --unixctl="$C/$db.ctl" \
            --remote=punix:"$C/$db.sock" "$C/$db.db"
    done
    nbctl init
    ovn-northd --detach -vconsole:off --no-chdir --pidfile="$C/northd.pid" \
        --log-file="$C/northd.log" --unixctl="$C/northd.ctl" \
        --ovnnb-db=unix:"$C/nb.sock" --ovnsb-db=unix:"$C/sb.sock"
}

# The underlay: the veth "ul" in chassis 1's namespace to "ul" in chassis
# 2's, without IPv6 (no stray neighbour discovery) and without segmentation
# offload (the model drops GSO frames).
start_underlay() {
    local ch
    ip netns add $PFX-ch1
    ip netns add $PFX-ch2
    ip -n $PFX-ch1 link add ul type veth peer name ul netns $PFX-ch2
    for ch in 1 2; do
        in_ns ch$ch sysctl -q -w net.ipv6.conf.all.disable_ipv6=1
        in_ns ch$ch sysctl -q -w net.ipv6.conf.default.disable_ipv6=1
        ip -n $PFX-ch$ch link set ul gso_max_segs 1
        ip -n $PFX-ch$ch link set ul up
        ip -n $PFX-ch$ch link set lo up
    done
}

# offload_on N: whether chassis N's uplink has offload enabled.
offload_on() {
    chassis_appctl $1 netdev-hw/show p0 | grep -q '^  offload: [0-9]'
}

# start_chassis N ENCAP CSUM: chassis N (system-id chN, underlay address
# 172.31.0.N on br-phy), whose tunnels are of type ENCAP with checksums
# if CSUM is true.
start_chassis() {
    local ch=$1 r
    r=$(chdir_of $1)
    mkdir -p "$r"
    ovsdb-tool create "$r/conf.db" "$B/vswitchd/vswitch.ovsschema"
    in_ns ch$ch env OVS_RUNDIR="$r" OVS_LOGDIR="$r" OVS_DBDIR="$r" \
        ovsdb-server --detach -vconsole:off --no-chdir --pidfile --log-file \
        --remote=punix:"$r/db.sock" "$r/conf.db"
    # PMD threads sleep while idle (pmd-maxsleep), as the two chassis
    # share the machine.  Idle datapath flows stay for a minute, so that
    # the device counters of their rules are still there when the scenario
    # adds them up.
    chassis_vsctl $ch --no-wait init -- set Open_vSwitch . \
        other_config:hw-offload=true \
        other_config:max-idle=60000 \
        other_config:pmd-cpu-mask=0x$((1 << (ch - 1) % $(nproc))) \
        other_config:pmd-maxsleep=1000 \
        external_ids:system-id=ch$ch \
        external_ids:hostname=ch$ch \
        external_ids:ovn-remote=unix:"$C/sb.sock" \
        external_ids:ovn-encap-type=$2 \
        external_ids:ovn-encap-ip=172.31.0.$ch \
        external_ids:ovn-encap-csum=$3 \
        external_ids:ovn-bridge-datapath-type=netdev
    in_ns ch$ch env OVS_RUNDIR="$r" OVS_LOGDIR="$r" OVS_DBDIR="$r" \
        ovs-vswitchd --disable-system --detach -vconsole:off --no-chdir \
        --pidfile --log-file unix:"$r/db.sock"
    chassis_vsctl $ch add-br br-phy \
        -- set bridge br-phy datapath_type=netdev \
           other-config:hwaddr=aa:55:aa:55:00:0$ch \
        -- add-port br-phy p0 -- set Interface p0 type=hw \
           options:device=model0
    wait_until 30 offload_on $ch
    chassis_appctl $ch hw-model/attach model0 ul >/dev/null
    in_ns ch$ch ip addr add 172.31.0.$ch/24 dev br-phy
    in_ns ch$ch ip link set br-phy up
    in_ns ch$ch env OVS_RUNDIR="$r" OVS_LOGDIR="$r" OVN_RUNDIR="$r" \
        ovn-controller --detach -vconsole:off --no-chdir --pidfile --log-file \
        unix:"$r/db.sock"
    wait_until 30 chassis_vsctl $ch br-exists br-int
}

# add_vm VM CHASSIS SWITCH MAC ADDR/LEN [GATEWAY]: the VM namespace VM
# (vm<K>), whose eth0 has MAC and ADDR, behind the hw port VM of chassis
# CHASSIS's br-int (model device model<K>), bound to the logical port VM
# of the logical switch SWITCH.  The VM's MTU leaves room for the tunnel.
add_vm() {
    local vm=$1 ch=$2 sw=$3 mac=$4 addr=$5 gw=${6:-}
    ip netns add $PFX-$vm
    ip -n $PFX-ch$ch link add $vm type veth peer name eth0 netns $PFX-$vm
    in_ns $vm sysctl -q -w net.ipv6.conf.all.disable_ipv6=1
    in_ns $vm sysctl -q -w net.ipv6.conf.default.disable_ipv6=1
    ip -n $PFX-ch$ch link set $vm gso_max_segs 1
    ip -n $PFX-ch$ch link set $vm up
    ip -n $PFX-$vm link set lo up
    ip -n $PFX-$vm link set eth0 address $mac mtu 1400 gso_max_segs 1
    ip -n $PFX-$vm addr add $addr dev eth0
    ip -n $PFX-$vm link set eth0 up
    if [ -n "$gw" ]; then
        ip -n $PFX-$vm route add default via $gw
    fi
    nbctl lsp-add $sw $vm -- lsp-set-addresses $vm "$mac ${addr%/*}"
    chassis_vsctl $ch add-port br-int $vm -- set Interface $vm type=hw \
        options:device=model${vm#vm} external_ids:iface-id=$vm
    chassis_appctl $ch hw-model/attach model${vm#vm} $vm >/dev/null
}

# The logical switch ls0 (10.0.0.0/24) with vm1 on chassis 1 and vm2 on
# chassis 2, and vm3 on chassis 1 if $1 is 3.
plain_switch() {
    nbctl ls-add ls0
    add_vm vm1 1 ls0 50:54:00:00:00:01 10.0.0.1/24
    add_vm vm2 2 ls0 50:54:00:00:00:02 10.0.0.2/24
    if [ "${1:-2}" = 3 ]; then
        add_vm vm3 1 ls0 50:54:00:00:00:03 10.0.0.3/24
    fi
}

# --- Traffic -------------------------------------------------------------

# ping_ok FROM DST COUNT: COUNT pings from the VM FROM to DST, 20 ms apart;
# prints what ping said and fails unless every one was answered.
ping_ok() {
    local out sent got
    out=$(in_ns $1 ping -q -c $3 -i 0.02 -W 2 $2 2>&1 || true)
    sent=$(echo "$out" | sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p')
    got=$(echo "$out" | sed -n 's/.* \([0-9]*\) received.*/\1/p')
    say "traffic: $3 pings $1 -> $2: ${got:-0} answered"
    [ "${sent:-0}" = $3 ] && [ "${got:-0}" = $3 ]
}

# reachable FROM DST: one ping from FROM to DST gets its answer.
reachable() {
    in_ns $1 ping -q -c 1 -W 1 $2
}

# warm_up FROM DST: waits until DST answers FROM's pings (OVN has
# installed its flows on both chassis), then a few more pings so that the
# datapath flows of the exchange exist and have been offloaded.
warm_up() {
    if ! wait_until 60 reachable $1 $2; then
        say "ovn-sandbox: $1 cannot reach $2" >&2
        return 1
    fi
    in_ns $1 ping -q -c 5 -i 0.1 -W 1 $2 >/dev/null 2>&1 || true
    sleep 1
}

# serve VM ADDR PORT: a TCP server in VM that answers with VM's name.
serve() {
    # Not through in_ns: $! must be the server itself.
    ip netns exec $PFX-$1 $PY "$HELPERS/tcp.py" serve $2 $3 $1 \
        >/dev/null 2>&1 &
    echo $! >> "$S/servers"
}

# --- Measurement ---------------------------------------------------------

# counters N: the counters of chassis N, on one line, as "NAME=VALUE":
# PMD threads' packets received, recirculations, phwol hits (the packets
# whose flow the device found: a flow mark), the packets of full rules
# (the device counters of the rules of offloaded:yes flows) and the model's
# tunnel counters.
counters() {
    local c=$1 full=0 decap=0 encap=0 port n dev
    chassis_appctl $c dpif-netdev/pmd-stats-show | awk -F': ' '
        /packets received:/ { recv += $2 }
        /packet recirculations:/ { recirc += $2 }
        /phwol hits:/ { phwol += $2 }
        END { printf "recv=%d recirc=%d phwol=%d", recv, recirc, phwol }'
    for port in $(chassis_vsctl $c --bare --columns=name find Interface \
                      type=hw); do
        n=$(chassis_appctl $c netdev-hw/dump-rules $port 2>/dev/null \
            | sed -n 's/.* mode:full, .* packets:\([0-9]*\),.*/\1/p' \
            | awk '{ n += $1 } END { print n + 0 }')
        full=$((full + n))
        dev=$(chassis_vsctl $c get Interface $port options:device | tr -d '"')
        set -- $(chassis_appctl $c hw-model/stats $dev \
            | sed -n 's/^  tunnel: decap=\([0-9]*\) .*encap=\([0-9]*\).*/\1 \2/p')
        decap=$((decap + ${1:-0})) encap=$((encap + ${2:-0}))
    done
    echo " full=$full decap=$decap encap=$encap"
}

# snapshot NAME: the sum of both chassis' counters, as shell variables
# NAME_recv, NAME_recirc, ...
snapshot() {
    sum=$( (counters 1; counters 2) | awk '
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); t[kv[1]] += kv[2] } }
        END { for (k in t) printf "%s=%d ", k, t[k] }')
    for kv in $sum; do
        eval "$1_$kv"
    done
}

# pct PART WHOLE: PART as a percentage of WHOLE, one decimal.
pct() {
    awk -v p=$1 -v w=$2 'BEGIN { printf "%.1f%%", w ? 100 * p / w : 0 }'
}

# flows N: chassis N's datapath flows, one a line, without the ufid, the
# fields they do not match, and dpif-netdev's extra information.
flows() {
    chassis_appctl $1 dpctl/dump-flows -m | grep -v '^flow-dump from' \
        | sed -e 's/^ufid:[-0-9a-f]*, //' -e 's/[a-z_]*(0\/0),//g' \
              -e 's/packet_type(ns=0,id=0),//' -e 's/, dp:ovs//' \
              -e 's/, dp-extra-info:.*//'
}

# show_flows N: chassis N's datapath flows, grouped by where they run.
show_flows() {
    local all full part soft mode lines
    all=$(flows $1)
    full=$(echo "$all" | grep 'offloaded:yes' || true)
    part=$(echo "$all" | grep 'offloaded:partial' || true)
    soft=$(echo "$all" | grep -v 'offloaded:' | grep . || true)
    say "--- ch$1 datapath flows: $(echo "$full" | grep -c . || true) full," \
        "$(echo "$part" | grep -c . || true) partial," \
        "$(echo "$soft" | grep -c . || true) in software"
    for mode in full part soft; do
        eval "lines=\$$mode"
        if [ -n "$lines" ]; then
            case $mode in
                full) say "full (offloaded:yes):" ;;
                part) say "partial (offloaded:partial):" ;;
                soft) say "software:" ;;
            esac
            echo "$lines" | sed 's/^/  /'
        fi
    done
    say "--- ch$1 connections in the NICs (netdev-hw/dump-conns):"
    chassis_appctl $1 netdev-hw/dump-conns | sed 's/^/  /'
}

# recorded CHASSIS PORT REFUSED: whether REFUSED (netdev-hw/not-offloaded
# without time and ufid) has a flow of the datapath port PORT.  The plugin
# names a tunnel vport's flows after one of its tunnel interfaces
# (ovn-ch2-0), dpctl after the datapath port (vxlan_sys_4789).
recorded() {
    local names=$2 type= name
    case $2 in
        genev_sys_*) type=geneve ;;
        *_sys_*) type=${2%%_sys_*} ;;
    esac
    if [ -n "$type" ]; then
        names=$(chassis_vsctl $1 --bare --columns=name find Interface \
                type=$type)
    fi
    for name in $names; do
        if echo "$3" | grep -q "^$name: "; then
            return 0
        fi
    done
    return 1
}

# show_reasons: why flows stayed in software, on both chassis, counted by
# port and reason: the plugin's reasons (netdev-hw/not-offloaded), and for
# software flows on a port of which it has recorded nothing (a geneve
# vport, a tap), that no offload provider took the port.
show_reasons() {
    local ch refused port
    say "--- not offloaded, by reason (flows):"
    for ch in 1 2; do
        refused=$(chassis_appctl $ch netdev-hw/not-offloaded \
            | sed -e 's/^[^ ]* ufid:[-0-9a-f]* //' \
                  -e 's/: \(packet_type=\|recirc_id=\).*//' \
                  -e 's/recirc_id 0x[0-9a-f]*/recirc_id N/')
        echo "$refused" | grep . | sed "s/^/ch$ch /" || true
        for port in $(flows $ch | grep -v 'offloaded:' \
                      | sed -n 's/.*in_port(\([^)]*\)).*/\1/p'); do
            if ! recorded $ch $port "$refused"; then
                echo "ch$ch $port: no offload provider for this port"
            fi
        done
    done | LC_ALL=C sort | uniq -c | sed 's/^ */  /'
}

# report SCENARIO: what the traffic since the snapshot "a" cost, on both
# chassis, and a "result:" line with the raw figures.
report() {
    snapshot b
    recv=$((b_recv - a_recv)) recirc=$((b_recirc - a_recirc))
    phwol=$((b_phwol - a_phwol)) full=$((b_full - a_full))
    decap=$((b_decap - a_decap)) encap=$((b_encap - a_encap))
    packets=$((recv + full))
    soft=$((recv - phwol))
    passes=$((packets + recirc))
    dev=$((full + phwol))
    show_flows 1
    show_flows 2
    show_reasons
    say "--- packets: $packets, full $full ($(pct $full $packets))," \
        "partial $phwol ($(pct $phwol $packets)), software $soft" \
        "($(pct $soft $packets)); datapath passes: $passes, in the device" \
        "$dev ($(pct $dev $passes)); tunnel headers popped by the device" \
        "$decap, pushed $encap"
    line="$1 packets=$packets full=$full partial=$phwol software=$soft"
    line="$line passes=$passes device=$dev decap=$decap encap=$encap"
    say "result: $line"
    echo "$line" >> "$D/results"
}

# --- Scenarios -----------------------------------------------------------

# Each scenario has a title, a setup (the logical topology and its VMs;
# any error stops the scenario) and its traffic: a warm-up, the snapshot
# "a", then the measured traffic, whose checks make it return non-zero if
# it did not pass.

title_switch() {
    echo "one logical switch across the two chassis"
}

setup_switch() {
    plain_switch
}

traffic_switch() {
    warm_up vm1 10.0.0.2
    snapshot a
    ping_ok vm1 10.0.0.2 $N
}

title_acl() {
    echo "port security and allow-related ACLs (conntrack)"
}

# vm2 accepts pings and TCP port 80 from vm1, and nothing else.
setup_acl() {
    local vm
    plain_switch 3
    for vm in 1 2 3; do
        nbctl lsp-set-port-security vm$vm "50:54:00:00:00:0$vm 10.0.0.$vm"
    done
    nbctl acl-add ls0 to-lport 1000 \
        'outport == "vm2" && ip4.src == 10.0.0.1 && (icmp4 || tcp.dst == 80)' \
        allow-related
    nbctl acl-add ls0 to-lport 900 'outport == "vm2" && ip4' drop
    serve vm2 10.0.0.2 80
}

traffic_acl() {
    local got probe
    warm_up vm1 10.0.0.2 || return 1
    snapshot a
    ping_ok vm1 10.0.0.2 $N || return 1
    got=$(in_ns vm3 ping -q -c 3 -i 0.2 -W 1 10.0.0.2 2>&1 \
          | sed -n 's/.* \([0-9]*\) received.*/\1/p')
    say "traffic: 3 pings vm3 -> 10.0.0.2 (dropped by the ACL): ${got:-0}" \
        "answered"
    probe=$(in_ns vm1 $PY "$HELPERS/tcp.py" probe 10.0.0.2 22)
    say "traffic: TCP vm1 -> 10.0.0.2:22 (dropped by the ACL): $probe"
    [ "${got:-0}" = 0 ] && [ "$probe" = timeout ]
}

title_lb() {
    echo "a load balancer 10.0.0.100:80 -> vm2 (ch2), vm3 (ch1) behind a" \
         "router"
}

# The load balancer is on vm1's switch, as OVN wants it for its clients;
# its address is behind the router, so that vm1 sends to the router's MAC
# and the router routes the packet to the backend that conntrack chose.
setup_lb() {
    two_switches 3
    nbctl lb-add lb0 10.0.0.100:80 10.0.2.2:80,10.0.2.3:80 tcp
    nbctl ls-lb-add ls1 lb0
    serve vm2 10.0.2.2 80
    serve vm3 10.0.2.3 80
}

# connects VM ADDR PORT COUNT: COUNT TCP connections from VM to ADDR:PORT;
# prints "N answered: NAME=N...".
connects() {
    in_ns $1 $PY "$HELPERS/tcp.py" connect $2 $3 $4
}

lb_answers() {
    connects vm1 10.0.0.100 80 1 | grep -q '^1 answered'
}

traffic_lb() {
    local out
    warm_up vm1 10.0.2.2 || return 1
    wait_until 30 lb_answers || true
    snapshot a
    out=$(connects vm1 10.0.0.100 80 $N)
    say "traffic: $N TCP connections vm1 -> 10.0.0.100:80: $out"
    case $out in
        "$N answered: vm2="*" vm3="*) ;;
        *) return 1 ;;
    esac
}

title_router() {
    echo "a logical router between two switches"
}

# The logical router lr0 between ls1 (10.0.1.0/24, vm1 on chassis 1) and
# ls2 (10.0.2.0/24, vm2 on chassis 2, and vm3 on chassis 1 if $1 is 3).
two_switches() {
    local i
    nbctl ls-add ls1 -- ls-add ls2 -- lr-add lr0
    for i in 1 2; do
        nbctl lrp-add lr0 lr0-ls$i 00:00:00:00:ff:0$i 10.0.$i.254/24 \
            -- lsp-add ls$i ls$i-lr0 \
            -- lsp-set-type ls$i-lr0 router \
            -- lsp-set-addresses ls$i-lr0 router \
            -- lsp-set-options ls$i-lr0 router-port=lr0-ls$i
    done
    add_vm vm1 1 ls1 50:54:00:00:01:01 10.0.1.1/24 10.0.1.254
    add_vm vm2 2 ls2 50:54:00:00:02:02 10.0.2.2/24 10.0.2.254
    if [ "${1:-2}" = 3 ]; then
        add_vm vm3 1 ls2 50:54:00:00:02:03 10.0.2.3/24 10.0.2.254
    fi
}

setup_router() {
    two_switches
}

traffic_router() {
    warm_up vm1 10.0.2.2 || return 1
    snapshot a
    ping_ok vm1 10.0.2.2 $N
}

# open_shell: an interactive shell in which ovn-nbctl and ovn-sbctl reach
# the databases, and chN-vsctl and chN-appctl chassis N.
open_shell() {
    local ch r
    mkdir -p "$S/bin"
    for ch in 1 2; do
        r=$(chdir_of $ch)
        printf '#!/bin/sh\nexec ovs-vsctl --db=unix:%s/db.sock "$@"\n' \
            "$r" > "$S/bin/ch$ch-vsctl"
        printf '#!/bin/sh\nOVS_RUNDIR=%s exec ovs-appctl "$@"\n' \
            "$r" > "$S/bin/ch$ch-appctl"
    done
    chmod +x "$D"/bin/*
    say "ovn-sandbox: ovn-nbctl, ovn-sbctl, ch1-vsctl, ch1-appctl," \
        "ch2-vsctl and ch2-appctl work here; the namespaces are" \
        "$(ip netns list | sed -n "s/^\($PFX-[a-z0-9]*\).*/\1/p" | tr '\n' ' ')"
    say "ovn-sandbox: everything stops when this shell exits"
    PATH=$S/bin:$PATH OVN_NB_DB=unix:$C/nb.sock OVN_SB_DB=unix:$C/sb.sock \
        PS1='[ovn-sandbox] \w\$ ' "${SHELL:-/bin/sh}" -i || true
}

# run SCENARIO: one scenario, from the start of its daemons to its report
# (not its teardown).  Exits 1 if its setup failed, 2 if its traffic did
# not pass.  The encapsulation scenarios are the plain switch's.
run() {
    local encap=geneve csum=true kind=$1
    case $1 in
        vxlan) encap=vxlan kind=switch ;;
        vxlan-nocsum) encap=vxlan csum=false kind=switch ;;
        geneve-nocsum) csum=false kind=switch ;;
    esac
    say "=== $1: $(title_$kind), $encap tunnels (csum=$csum)"
    mkdir -p "$S"
    start_central
    start_underlay
    start_chassis 1 $encap $csum
    start_chassis 2 $encap $csum
    setup_$kind
    nbctl --wait=hv sync
    if ! traffic_$kind; then
        say "FAILED: $1: the traffic did not pass (logs in $S)"
        report $1-FAILED
        exit 2
    fi
    report $1
    if [ $SHELL_AFTER = yes ]; then
        open_shell
    fi
}

mkdir -p "$D"
: > "$D/results"
failed=
for s in $SCENARIOS; do
    S=$D/$s C=$D/$s/central
    rm -rf "$S"
    set +e
    (set -e; run $s)
    status=$?
    set -e
    teardown
    if [ $status = 1 ]; then
        say "FAILED: $s: its setup failed (logs in $S)"
        echo "$s-FAILED" >> "$D/results"
    fi
    if [ $status != 0 ]; then
        failed="$failed $s"
    fi
    say
done

# The summary: one row per scenario, shares of the packets the datapaths
# received, and of their datapath passes.
commit=$(cd "$TOP" && git describe --always --dirty 2>/dev/null || echo "no git")
say "=== summary ($(date -u +%Y-%m-%d), $commit, $N packets or connections" \
    "per scenario)"
awk -v rst=$RST '
    function p(a, b) { return sprintf("%.1f%%", b ? 100 * a / b : 0) }
    NF {
        for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        n++
        row[n] = sprintf("%-14s %8d %7s %8s %9s %9s %7d %7d", $1, v["packets"],
            p(v["full"], v["packets"]), p(v["partial"], v["packets"]),
            p(v["software"], v["packets"]), p(v["device"], v["passes"]),
            v["decap"], v["encap"])
    }
    END {
        head = sprintf("%-14s %8s %7s %8s %9s %9s %7s %7s", "scenario",
            "packets", "full", "partial", "software", "hw passes", "decap",
            "encap")
        rule = "============== ======== ======= ======== ========= " \
               "========= ======= ======="
        print head
        for (i = 1; i <= n; i++) print row[i]
        if (rst == "yes") {
            print ""
            print rule; print head; print rule
            for (i = 1; i <= n; i++) print row[i]
            print rule
        }
    }' "$D/results"
if [ -n "$failed" ]; then
    say "ovn-sandbox: traffic failed in:$failed" >&2
    exit 1
fi
