#!/bin/sh
# Installs the .debs of tools/deb.sh on a fresh Debian 12 (a debootstrap
# chroot) in place of Debian's openvswitch-switch, starts the daemons there
# with the package's own ovs-ctl, configures a bridge with two hw ports on
# the NIC model and hw-offload=true, sends traffic and checks that
# 'ovs-appctl dpctl/dump-flows -m' shows the flows offloaded: the UDP drop
# in full, the TCP output to the other device in part.
#
# The daemons run chrooted in network, mount and PID namespaces of their
# own: the host's network, mounts and any OVS of its own are not touched,
# and whatever the test started dies with it.  Needs root and the Debian
# mirror (debootstrap and apt in the chroot); without either it exits 77,
# "skipped", with the reason.  The chroot's base system is kept in
# DIR/base.tar.gz for the next run.
#
# usage: tools/deb-test.sh [-d DIR] [-k]
#   -d DIR  where the .debs are (default deb/)
#   -k      keep the chroot (its path is printed)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
debs=$top/deb
keep=false
while getopts d:k opt; do
    case $opt in
        d) debs=$OPTARG ;;
        k) keep=true ;;
        *) sed -n 's/^# \{0,1\}//; /^usage/,/^  -k/p' "$0" >&2; exit 1 ;;
    esac
done
mirror=${DEB_TEST_MIRROR:-http://deb.debian.org/debian}

skip() {
    echo "deb-test: skipped: $*"
    exit 77
}

[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot, namespaces)"
for tool in debootstrap unshare chroot; do
    command -v $tool >/dev/null || skip "no $tool (apt-get install $tool)"
done
set -- "$debs"/openvswitch-switch_*.deb "$debs"/openvswitch-common_*.deb \
       "$debs"/python3-openvswitch_*.deb
for deb in "$@"; do
    [ -f "$deb" ] || { echo "deb-test: no $deb: run 'make deb'" >&2; exit 1; }
done

root=$(mktemp -d /var/tmp/deb-test.XXXXXX)
cleanup() {
    if $keep; then
        echo "deb-test: the chroot is $root"
    else
        rm -rf "$root"
    fi
}
trap cleanup EXIT

base=$debs/base.tar.gz
if [ ! -f "$base" ]; then
    echo "deb-test: debootstrap bookworm from $mirror (once)"
    if ! debootstrap --variant=minbase bookworm "$root" "$mirror" \
         > "$debs/debootstrap.log" 2>&1; then
        skip "debootstrap failed (no Debian mirror?): see $debs/debootstrap.log"
    fi
    tar -czf "$base.tmp" -C "$root" . && mv "$base.tmp" "$base"
else
    tar -xzf "$base" -C "$root"
fi

# The host's resolver, for apt in the chroot.
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mkdir -p "$root/tmp/debs"
cp "$@" "$root/tmp/debs/"
# As in any chroot: packages start no services at installation.
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"

# Debian's openvswitch-switch first, then ours in its place.
in_root() {
    chroot "$root" env DEBIAN_FRONTEND=noninteractive "$@"
}
echo "deb-test: installing Debian's openvswitch-switch, then ours"
{
    in_root apt-get update -q
    in_root apt-get install -y -q --no-install-recommends openvswitch-switch
    in_root sh -c 'apt-get install -y -q --no-install-recommends \
                   /tmp/debs/*.deb'
} > "$debs/install.log" 2>&1 \
    || { tail -n 20 "$debs/install.log"; skip "apt in the chroot failed" \
         "(no Debian mirror?): see $debs/install.log"; }
in_root dpkg-query -W openvswitch-switch openvswitch-common \
    python3-openvswitch
version=$(in_root dpkg-query -W -f '${Version}' openvswitch-switch)
case $version in
    *+hw*) ;;
    *) echo "deb-test: openvswitch-switch $version is not ours" >&2; exit 1 ;;
esac

# What runs in the namespaces, in the chroot.
cat > "$root/tmp/run.sh" <<'EOF'
#!/bin/sh
set -e
PATH=/usr/share/openvswitch/scripts:$PATH
ovs-ctl start --system-id=random --no-mlockall
ovs-vsctl set Open_vSwitch . other_config:hw-offload=true
ovs-vsctl add-br br0 -- set bridge br0 datapath_type=netdev fail-mode=secure
ovs-vsctl add-port br0 hw1 -- set Interface hw1 type=hw \
    options:device=model0 ofport_request=1
ovs-vsctl add-port br0 hw2 -- set Interface hw2 type=hw \
    options:device=model1 ofport_request=2
# wait_until COMMAND: for up to 30 s.
wait_until() {
    n=0
    until sh -c "$1"; do
        n=$((n + 1))
        if [ $n -gt 300 ]; then
            echo "deb-test: gave up waiting for: $1" >&2
            return 1
        fi
        sleep 0.1
    done
}
for port in hw1 hw2; do
    wait_until "ovs-appctl netdev-hw/show $port | grep -q '^  queues: rx 1,'"
done
ovs-ofctl add-flow br0 in_port=hw1,tcp,actions=output:hw2
ovs-ofctl add-flow br0 in_port=hw1,udp,actions=drop
E='eth(src=50:54:00:00:00:01,dst=50:54:00:00:00:02),eth_type(0x0800)'
IP='ipv4(src=10.0.0.1,dst=10.0.0.2,proto=6,tos=0,ttl=64,frag=no)'
TCP="$E,$IP,tcp(src=1234,dst=80)"
UDP="$E,$(echo "$IP" | sed 's/proto=6/proto=17/'),udp(src=1234,dst=53)"
ovs-appctl hw-model/receive model0 "$TCP" "$UDP"
# The offload thread installs the rules: wait until both flows are offloaded,
# the UDP drop in full, the TCP output (to another device) in part.
wait_until "[ \$(ovs-appctl dpctl/dump-flows -m | grep -Ec 'offloaded:(yes|partial)') = 2 ]" \
    || true
ovs-appctl hw-model/receive model0 "$TCP" "$UDP"
echo "--- ovs-vsctl show"
ovs-vsctl show
echo "--- ovs-appctl dpctl/dump-flows -m"
ovs-appctl dpctl/dump-flows -m | tee /tmp/flows
echo "--- ovs-appctl netdev-hw/dump-rules hw1"
ovs-appctl netdev-hw/dump-rules hw1
status=0
full=$(grep -c 'proto=17.*offloaded:yes' /tmp/flows) || true
partial=$(grep -c 'proto=6.*offloaded:partial' /tmp/flows) || true
if [ "$full" != 1 ] || [ "$partial" != 1 ]; then
    echo "deb-test: $full UDP flows offloaded:yes, $partial TCP flows" \
         "offloaded:partial; 1 and 1 expected" >&2
    status=1
fi
ovs-ctl stop
exit $status
EOF
chmod +x "$root/tmp/run.sh"

# ovs-ctl loads the kernel module unless /sys/module/openvswitch says it
# is: the userspace datapath needs none, and a chroot must not load one
# into the host's kernel, so the chroot's /sys/module (a tmpfs) says it
# is.  The rest of /sys is there: ovs-vswitchd finds its PMD cores in it.
echo "deb-test: starting the daemons with ovs-ctl in namespaces"
status=0
unshare --net --mount --pid --fork sh -e -c '
    root=$1
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount -t sysfs sysfs "$root/sys"
    mount -t tmpfs tmpfs "$root/sys/module"
    mkdir "$root/sys/module/openvswitch"
    mount -t tmpfs tmpfs "$root/run"
    ip link set lo up
    chroot "$root" /tmp/run.sh
' deb-test "$root" || status=$?
if [ $status = 0 ]; then
    echo "deb-test: passed"
else
    echo "deb-test: FAILED; logs: $root/var/log/openvswitch (kept)" >&2
    keep=true
fi
exit $status
