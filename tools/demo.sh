#!/bin/sh
# The netdev-offload-hw demo: builds OVS with the plugin, then runs
# ovsdb-server and ovs-vswitchd in a private directory (demo-run/; nothing on
# the host is touched), makes a bridge with two hw ports on the software NIC
# model, turns hw-offload on, sends traffic and shows what was offloaded.
set -e
cd "$(dirname "$0")/.."
TOP=$(pwd)

# The build's output goes to build.log: the demo shows its own steps.
if [ "${1:-}" != --no-build ]; then
    echo "Installing the Debian packages and building OVS 3.1 with the" \
         "plugin (a few minutes the first time; output in build.log)"
    if ! ./tools/build.sh > build.log 2>&1; then
        tail -n 30 build.log
        echo "demo: the build failed; build.log has its whole output" >&2
        exit 1
    fi
fi

B=$TOP/ovs-build/openvswitch
D=$TOP/demo-run
rm -rf "$D"
mkdir -p "$D"
PATH=$B/utilities:$B/vswitchd:$B/ovsdb:$PATH
export PATH OVS_RUNDIR="$D" OVS_LOGDIR="$D" OVS_DBDIR="$D" \
       OVS_SYSCONFDIR="$D" OVS_PKGDATADIR="$B"

stop() {
    ovs-appctl --timeout=10 exit >/dev/null 2>&1 || true
    ovs-appctl --timeout=10 -t ovsdb-server exit >/dev/null 2>&1 || true
}
trap stop EXIT

step() {
    printf '\n### %s\n' "$*"
}

run() {
    echo "\$ $*"
    "$@"
}

step "Starting ovsdb-server and ovs-vswitchd in $D"
ovsdb-tool create "$D/conf.db" "$B/vswitchd/vswitch.ovsschema"
ovsdb-server --detach --no-chdir --pidfile --log-file \
    --remote=punix:"$D/db.sock" "$D/conf.db"
ovs-vsctl --no-wait init
# --enable-dummy gives the bridge a dummy internal port instead of a tap
# device, so that nothing is created on the host.
ovs-vswitchd --enable-dummy --disable-system --disable-system-route \
    --detach --no-chdir --pidfile --log-file -vconsole:off

step "A bridge on the userspace datapath with two hw ports on the NIC model"
run ovs-vsctl set Open_vSwitch . other_config:hw-offload=true \
    other_config:pmd-cpu-mask=0x1
run ovs-vsctl add-br br0 -- set bridge br0 datapath_type=dummy \
    fail-mode=secure \
    -- add-port br0 hw1 -- set Interface hw1 type=hw \
       options:device=model0 options:n_rxq=2 ofport_request=1 \
    -- add-port br0 hw2 -- set Interface hw2 type=hw \
       options:device=model1 ofport_request=2
run ovs-ofctl add-flow br0 priority=10,in_port=1,udp,actions=drop
run ovs-ofctl add-flow br0 priority=5,in_port=1,ip,actions=output:2
run ovs-appctl hw-model/set-pcap model1 "$D/hw2-wire.pcap"

step "Traffic into hw1 (the wire of model0): TCP is forwarded, UDP dropped"
ETH='eth(src=50:54:00:00:00:01,dst=50:54:00:00:00:02),eth_type(0x0800)'
TCP="$ETH,ipv4(src=10.0.0.1,dst=10.0.0.2,proto=6,tos=0,ttl=64,frag=no),tcp(src=1234,dst=80)"
UDP="$ETH,ipv4(src=10.0.0.1,dst=10.0.0.2,proto=17,tos=0,ttl=64,frag=no),udp(src=1234,dst=53)"
for round in 1 2 3 4 5; do
    ovs-appctl hw-model/receive model0 "$TCP" "$UDP"
    # The first packets are upcalls; the offload thread then installs the
    # rules, and the later packets hit them in the (model) hardware.
    sleep 1
done

step "Datapath flows: offloaded:partial (mark + RSS) and offloaded:yes (drop)"
run ovs-appctl dpctl/dump-flows -m

step "The hardware rules of hw1, with their hit counters"
run ovs-appctl netdev-hw/dump-rules hw1

step "The hw1 port: device, capabilities, queues, RSS"
run ovs-appctl netdev-hw/show hw1

step "The NIC model's wire counters and what left hw2"
run ovs-appctl hw-model/stats model0
n=$(ovs-pcap "$D/hw2-wire.pcap" | wc -l)
echo "$n packets left hw2 (captured in $D/hw2-wire.pcap)"

step "Stopping"
