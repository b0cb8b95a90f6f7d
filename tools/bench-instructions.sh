#!/bin/bash
# bench-instructions.sh -- instructions per packet of the PMD's datapath work
# (Documentation/performance.rst, section 4).
#
# The cycles of tools/bench.sh section 4 vary by about 10 % on a shared
# virtual machine, which cannot resolve the 0.5 % of the miss-path target.
# Instructions do not depend on the host's load: ovs-vswitchd runs under
# valgrind's callgrind, which counts only inside
# dp_netdev_process_rxq_port(), the PMD's poll of one receive queue: the
# receive, dp_netdev_input() (parse, caches, the hardware-offload hook,
# classify, actions) and the send, the work whose cycles pmd-perf-show
# divides by the packets ("cycles/pkt"); not the model's wire injection in
# the main thread.  The polls that find no packet are taken out: after the
# measured passes the counters are zeroed again for IDLE seconds without
# traffic, which gives what an empty poll costs for each kind of receive
# queue, and that cost times the empty polls of the measured window is
# subtracted.  The PMD sleeps up to 10 ms when it finds nothing
# (pmd-maxsleep), which makes the empty polls about a hundred times fewer,
# and with them the polls that find the model's device busy (a shorter
# path than an empty poll's, but priced like one).  For each case a fresh
# ovs-vswitchd gets the ports and flows of bench.sh section 4 and one
# warm-up pass of the traffic; then the counters are zeroed, P packets are
# sent, and the counters dumped:
#   a  hw-offload=false;
#   b  hw-offload=true, every flow refused (they match ttl=64);
#   c  as b plus one offloaded flow on p1 that the traffic does not match:
#      the port has a rule and the miss hook, its packets arrive untagged
#      (with vswitchd-patches/0005 dpif-netdev does not call the hook for
#      them);
#   d  hw-offload=true, the flows without ttl=64: all offloaded, every
#      packet hits its mark (compare section 3).
# Prints instructions per packet of the whole work ("pmd") and of
# dp_netdev_input() alone ("input", the stricter figure: the same extra
# instructions over a smaller total), their ratios to a, the extra
# instructions per packet and what netdev_offload_hw_miss_packet_recover()
# costs.
#
# usage: bench-instructions.sh [-b OVS_DIR] [-o OUT] [-n FLOWS] [-p PASSES]
#                              [-c "a b c d"] [-r REPS] [-i IDLE]
#   -b  built OVS tree (default ovs-build/openvswitch of this repository)
#   -o  output directory (default bench-results/ of this repository)
#   -n  datapath flows, half on p1 (default 1000, as section 4)
#   -p  measured passes over p1's flows (default 8: 4000 packets)
#   -c  cases to run (default "a b c d")
#   -r  runs of each case; the ratios use the medians (default 3: the
#       freeing of the sent packets in glibc's malloc varies by a few
#       instructions per packet from run to run)
#   -i  seconds of the idle window that prices an empty poll (default 2)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/ovs-build/openvswitch
OUT=$TOP/bench-results
NFLOWS=1000
PASSES=8
CASES="a b c d"
IDLE=2
REPS=3
while getopts "b:o:n:p:c:r:i:" o; do
    case $o in
        b) B=$OPTARG ;; o) OUT=$OPTARG ;; n) NFLOWS=$OPTARG ;;
        p) PASSES=$OPTARG ;; c) CASES=$OPTARG ;; i) IDLE=$OPTARG ;;
        r) REPS=$OPTARG ;;
        *) sed -n '2,48p' "$0"; exit 1 ;;
    esac
done
B=$(cd "$B" && pwd) || exit 1
mkdir -p "$OUT/runs"
OUT=$(cd "$OUT" && pwd)
export PATH="$B/utilities:$B/vswitchd:$B/ovsdb:$B/tests:$PATH"
T_START=$(date +%s)
TOGGLE=dp_netdev_process_rxq_port
INPUT=dp_netdev_input
# The receive functions of the ports' classes, called by netdev_rxq_recv():
# all the traffic arrives on p1, an hw port.
RX_HW=netdev_hw_rxq_recv
# The PMD frees the packets it sent to p3, which the main thread allocated:
# glibc's free() coalesces them with their neighbours and, at times,
# consolidates its fast bins, which made the same case vary by up to 45
# instructions per packet between runs.  Without fast bins it varies by
# a few.  (A DPDK or rdma-core port returns its buffers to a pool.)
TUNABLES=glibc.malloc.mxfast=0
PMD_MASK=0x2
[ "$(nproc)" -ge 2 ] || PMD_MASK=0x1
HOOK=netdev_offload_hw_miss_packet_recover

if ! command -v valgrind >/dev/null 2>&1 && [ "$(id -u)" = 0 ] &&
   command -v apt-get >/dev/null 2>&1; then
    apt-get install -y -q valgrind >/dev/null 2>&1
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "# valgrind not found: no instruction counts" >&2
    exit 1
fi

# The unixctl client, flows and packets of bench.sh (its bench-unixctl.py),
# so that both measure the same flows and traffic.
PY=$OUT/bench-unixctl.py
sed -n "/^cat > \"\$PY\" <<'EOF'\$/,/^EOF\$/p" "$TOP/tools/bench.sh" |
    sed '1d;$d' > "$PY"
[ -s "$PY" ] || { echo "cannot extract bench-unixctl.py from bench.sh" >&2; exit 1; }

D=
VPID=
appctl() { ovs-appctl --timeout=300 "$@"; }

stop() {
    [ -n "$D" ] || return 0
    local p pids
    pids="$VPID $(cat "$D/ovsdb-server.pid" 2>/dev/null)"
    # SIGTERM: the counts are dumped already, and an orderly exit under
    # valgrind with paused revalidators takes long.
    [ -n "$VPID" ] && kill -TERM "$VPID" 2>/dev/null
    ovs-appctl --timeout=10 -t ovsdb-server exit >/dev/null 2>&1
    for p in $pids; do
        for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$p" 2>/dev/null && kill -9 "$p" 2>/dev/null
    done
    D='' VPID=''
}
trap 'stop' EXIT
trap 'exit 130' INT TERM

# Starts ovsdb-server and ovs-vswitchd under callgrind in $D with the
# bridge of bench.sh section 4: p1, p2 hw ports on model0, model1, p3 a
# dummy port; $1 is hw-offload.
start() {
    rm -rf "$D"; mkdir -p "$D"
    export OVS_RUNDIR=$D OVS_LOGDIR=$D OVS_DBDIR=$D OVS_SYSCONFDIR=$D
    ovsdb-tool create "$D/conf.db" "$B/vswitchd/vswitch.ovsschema"
    ovsdb-server --detach --no-chdir --pidfile --log-file -vconsole:off \
        --remote=punix:"$D/db.sock" "$D/conf.db" 2>/dev/null
    ovs-vsctl --no-wait init
    ovs-vsctl --no-wait set Open_vSwitch . other_config:hw-offload="$1" \
        other_config:max-idle=3600000 other_config:pmd-cpu-mask=$PMD_MASK \
        other_config:emc-insert-inv-prob=1 other_config:pmd-maxsleep=10000
    # Not --detach: the daemon would be a fork of the process valgrind
    # reports on.  Instrumentation starts with the measurement (the set-up
    # runs several times faster without it), and --fair-sched keeps the
    # PMD's busy polling from starving the main thread.
    GLIBC_TUNABLES=$TUNABLES \
    valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \
        --toggle-collect=$TOGGLE --fair-sched=yes \
        --dump-instr=no --compress-strings=no --compress-pos=no \
        --callgrind-out-file="$D/callgrind.out" \
        ovs-vswitchd --enable-dummy --disable-system \
        --disable-system-route --no-chdir --pidfile --log-file \
        -vconsole:off >"$D/valgrind.log" 2>&1 &
    VPID=$!
    for _ in $(seq 600); do
        ls "$D"/ovs-vswitchd.*.ctl >/dev/null 2>&1 && break
        sleep 0.1
    done
    CTL=$(ls "$D"/ovs-vswitchd.*.ctl 2>/dev/null) ||
        { echo "ovs-vswitchd did not start, see $D" >&2; exit 1; }
    ovs-vsctl --timeout=300 add-br br0 -- set bridge br0 datapath_type=dummy \
        fail-mode=secure \
        -- add-port br0 p1 -- set Interface p1 type=hw ofport_request=1 \
           options:device=model0 options:n_rxq=1 \
        -- add-port br0 p2 -- set Interface p2 type=hw ofport_request=2 \
           options:device=model1 options:n_rxq=1 \
        -- add-port br0 p3 -- set Interface p3 type=dummy ofport_request=3
    appctl dpctl/show | grep -q "port 1: p1 " ||
        { echo "p1 is not datapath port 1" >&2; exit 1; }
    if [ "$1" = true ]; then
        for _ in $(seq 600); do
            grep -q "p1: Assigned flow API 'hw'" "$D/ovs-vswitchd.log" && break
            sleep 0.1
        done
    fi
    appctl revalidator/pause >/dev/null
}

# Packets received by the PMD since the last pmd-stats-clear.
pmd_rx() {
    appctl dpif-netdev/pmd-stats-show |
        awk '/^pmd thread/ {p = 1} p && /packets received:/ {print $3; exit}'
}

# Sends $1 passes of the traffic of section 4 (one packet of each of p1's
# flows, 128 per hw-model/receive call) and waits until the PMD has
# received them all.
send_passes() {
    local n=$(( $1 * NFLOWS / 2 )) rx=
    for _ in $(seq "$1"); do
        python3 "$PY" traffic "$CTL" model0 "$NFLOWS" 0 0 128
    done
    for _ in $(seq 600); do
        rx=$(pmd_rx)
        [ "${rx:-0}" -ge "$n" ] && break
        sleep 0.1
    done
    echo "${rx:-0}"
}

# Prints the inclusive Ir of function $2 in the callgrind dump $1 (written
# with --compress-strings=no --compress-pos=no --dump-instr=no) and the
# calls made to it: its own cost lines plus the inclusive cost of its calls.
fn_cost() {
    awk -v f="$2" '
        function name(s) { sub(/^c?fn=(\([0-9]+\) ?)?/, "", s); return s }
        /^fn=/ { cur = name($0); next }
        /^cfn=/ { callee = name($0); next }
        /^calls=/ { split($1, a, "="); if (callee == f) n += a[2]; next }
        /^[0-9]/ { if (cur == f) ir += $2 }
        END { printf "%d %d\n", ir, n }' "$1"
}

# Prints, for function $2 of the callgrind dump $1, each function it calls
# with the calls and their inclusive Ir: "name calls ir" lines.
callees() {
    awk -v f="$2" '
        function name(s) { sub(/^c?fn=(\([0-9]+\) ?)?/, "", s); return s }
        /^fn=/ { cur = name($0); next }
        /^cfn=/ { callee = name($0); next }
        /^calls=/ { split($1, a, "="); if (cur == f) n[callee] += a[2];
                    incall = cur == f; next }
        /^[0-9]/ { if (incall) ir[callee] += $2; incall = 0 }
        END { for (c in n) printf "%s %d %d\n", c, n[c], ir[c] }' "$1"
}

# Prints the instructions of the polls in dump $1 (the measured window)
# that received packets, $2 of them: the total less the empty polls, each
# priced by the idle window's dump $3 (the polls' own code, then the receive
# function of the hw class, called by netdev_rxq_recv(); the polls of other
# classes' ports, which get no traffic, at what they cost).  Also prints
# the instructions subtracted.
busy_polls() {
    local w=$1 b=$2 i=$3 tw ti pw pi
    tw=$(awk '/^(summary|totals):/ {print $2; exit}' "$w")
    ti=$(awk '/^(summary|totals):/ {print $2; exit}' "$i")
    read -r _ pw < <(fn_cost "$w" netdev_rxq_recv)
    read -r _ pi < <(fn_cost "$i" netdev_rxq_recv)
    { callees "$w" netdev_rxq_recv | sed 's/^/W /'
      callees "$i" netdev_rxq_recv | sed 's/^/I /'; } |
    awk -v tw="${tw:-0}" -v ti="${ti:-0}" -v pw="${pw:-0}" -v pi="${pi:-0}" \
        -v b="$b" -v hw=$RX_HW '
        $1 == "W" { wn[$2] = $3; wi[$2] = $4 }
        $1 == "I" { in_[$2] = $3; ii[$2] = $4; rest += $4 }
        END {
            if (!pi) { print tw, 0; exit }
            # The polls themselves and netdev_rxq_recv(), any port.
            sub_ = (pw - b) * (ti - rest) / pi
            for (f in wn) {
                if (f != hw) {
                    # No traffic on the other ports: every poll was empty.
                    sub_ += wi[f]
                } else if (in_[f]) {
                    sub_ += (wn[f] - b) * ii[f] / in_[f]
                }
            }
            printf "%.0f %.0f\n", tw - sub_, sub_
        }'
}

echo "# instructions per packet of the PMD's polls that received packets"
echo "# (dp_netdev_process_rxq_port(): receive, dp_netdev_input(), send) and"
echo "# of dp_netdev_input() alone, callgrind"
echo "# OVS: $B ($(ovs-vswitchd --version | head -1)), $(valgrind --version)"
echo "# $NFLOWS flows (bench.sh section 4), $PASSES measured passes of $((NFLOWS / 2)) packets into p1"
echo "\$ valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no" \
     "--toggle-collect=$TOGGLE --fair-sched=yes ovs-vswitchd ...  # per case"
echo "\$ python3 $PY add CTL $NFLOWS 64 MODE TTL"
echo "\$ python3 $PY traffic CTL model0 $NFLOWS 0 0 128  # warm-up"
echo "\$ callgrind_control -i on PID; callgrind_control -z PID"
echo "\$ python3 $PY traffic CTL model0 $NFLOWS 0 0 128  # x $PASSES"
echo "\$ callgrind_control -d PID"
echo "\$ callgrind_control -z PID; sleep $IDLE; callgrind_control -d PID  # empty polls"
: > "$OUT/instructions.dat"
for rep in $(seq "$REPS"); do
  for c in $CASES; do
    t0=$(date +%s)
    D=$OUT/runs/instr-$c
    case $c in
        a) start false; wmode=off ttl=1 ;;
        b|c) start true; wmode=dummy ttl=1 ;;
        d) start true; wmode=hw ttl=0 ;;
        *) echo "unknown case $c" >&2; continue ;;
    esac
    python3 "$PY" add "$CTL" "$NFLOWS" 64 "$wmode" "$ttl" > "$D/add.txt"
    if [ "$c" = c ]; then
        # One flow that hardware takes and the traffic does not match: p1
        # gets a rule and its flow mark, the packets stay untagged.
        appctl dpctl/add-flow "in_port(1),eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02),eth_type(0x0800),ipv4(src=10.255.255.254,dst=192.168.0.1,proto=17,frag=no),udp(src=1000,dst=2000)" 3
        for _ in $(seq 600); do
            appctl netdev-hw/show p1 | grep -q 'offload: 1 rules' && break
            sleep 0.1
        done
    fi
    offl=$(appctl netdev-hw/show p1 2>/dev/null | sed -n 's/^ *offload: //p')
    send_passes 1 >/dev/null                          # warm-up: EMC, marks
    appctl dpif-netdev/pmd-stats-clear >/dev/null
    for _ in $(seq 100); do [ "$(pmd_rx)" = 0 ] && break; sleep 0.1; done
    callgrind_control -i on "$VPID" >/dev/null 2>&1
    callgrind_control -z "$VPID" >/dev/null 2>&1
    rx=$(send_passes "$PASSES")
    callgrind_control -d "$VPID" >/dev/null 2>&1
    callgrind_control -z "$VPID" >/dev/null 2>&1
    sleep "$IDLE"
    callgrind_control -d "$VPID" >/dev/null 2>&1
    perf=$(appctl dpif-netdev/pmd-perf-show)
    phwol=$(echo "$perf" | sed -n 's/.*PHWOL hits: *[0-9]* *( *\([0-9.]*\) %).*/\1/p' | head -1)
    emc=$(echo "$perf" | sed -n 's/.*EMC hits: *[0-9]* *( *\([0-9.]*\) %).*/\1/p' | head -1)
    # No dump: every count 0.
    dump=$D/callgrind.out.1 idle=$D/callgrind.out.2
    [ -s "$dump" ] || dump=/dev/null
    [ -s "$idle" ] || idle=/dev/null
    stop
    read -r input_ir batches < <(fn_cost "$dump" $INPUT)
    read -r pmd_ir empty_ir < <(busy_polls "$dump" "${batches:-0}" "$idle")
    read -r hook_ir hook_calls < <(fn_cost "$dump" $HOOK)
    read -r _ polls < <(fn_cost "$dump" netdev_rxq_recv)
    # The model's receive that found its device locked: an empty poll.
    busy_dev=$(callees "$dump" model_rx_burst | awk '
        $1 == "ovs_mutex_trylock_at" {t = $2} $1 == "ovs_mutex_unlock" {u = $2}
        END {print t - u}')
    per() { awk -v t="$1" -v n="$rx" -v f="$2" 'BEGIN {printf f, n ? t / n : 0}'; }
    ipp=$(per "${pmd_ir:-0}" %.1f)
    inpp=$(per "${input_ir:-0}" %.1f)
    hpp=$(per "${hook_ir:-0}" %.2f)
    printf 'case %s run %s packets=%s batches=%s pmd_per_pkt=%s input_per_pkt=%s hook_ir_per_pkt=%s hook_calls=%s empty_polls=%s (device busy %s) empty_ir_per_pkt=%s phwol=%s%% emc=%s%% p1_offload="%s" time=%ss\n' \
        "$c" "$rep" "$rx" "$batches" "$ipp" "$inpp" "$hpp" "$hook_calls" \
        "$(( ${polls:-0} - ${batches:-0} ))" "$busy_dev" "$(per "${empty_ir:-0}" %.1f)" \
        "${phwol:-?}" "${emc:-?}" "$offl" "$(( $(date +%s) - t0 ))"
    echo "$c $ipp $inpp $hpp $hook_calls $rx" >> "$OUT/instructions.dat"
  done
done

# The median of field $2 over the runs of case $1, and its spread:
# "MEDIAN [LOWEST-HIGHEST]".
getsp() {
    awk -v c="$1" -v f="$2" '$1 == c {print $f}' "$OUT/instructions.dat" |
        sort -g | awk '{v[NR] = $1}
            END {
                if (!NR) { exit }
                m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                printf "%s [%s-%s]\n", m, v[1], v[NR]
            }'
}
get() { getsp "$1" "$2" | awk '{print $1}'; }
echo "# medians [lowest-highest] over the runs of each case; ratios of the"
echo "# medians [lowest-highest ratio of a run of the case to a run of a]"
for c in $CASES; do
    [ -n "$(get $c 2)" ] || continue
    echo "MEDIAN $c pmd_per_pkt=$(getsp $c 2) input_per_pkt=$(getsp $c 3)"
done
# RATIO: the PMD's work per packet (pmd-perf-show's basis); RATIO-INPUT:
# dp_netdev_input() alone.  "RATIO c/a R [LO-HI] (+D instructions per
# packet)".
for k in 2:RATIO 3:RATIO-INPUT; do
    a=$(getsp a "${k%%:*}")
    for c in b c d; do
        v=$(getsp $c "${k%%:*}")
        # No ratio without both counts (a case that failed prints 0).
        awk -v a="${a:-0}" -v v="${v:-0}" 'BEGIN {exit !(a + 0 > 0 && v + 0 > 0)}' ||
            continue
        awk -v k="${k#*:}" -v c=$c -v v="$v" -v a="$a" 'BEGIN {
            split(v, x, /[][ -]+/); split(a, y, /[][ -]+/)
            printf "%s %s/a %.4f [%.4f-%.4f] (%+.1f instructions per packet)\n",
                k, c, x[1] / y[1], x[2] / y[3], x[3] / y[2], x[1] - y[1] }'
    done
done
for c in c d; do
    hc=$(getsp $c 4)
    [ -n "$hc" ] && echo "HOOK $c: $HOOK inclusive $hc instructions per packet ($(get $c 5) calls for $(get $c 6) packets)"
done
echo "# total time $(( $(date +%s) - T_START )) s"
