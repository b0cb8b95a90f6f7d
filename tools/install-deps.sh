#!/bin/sh
# Installs the Debian 12 packages needed to build and test netdev-offload-hw
# (clang and libclang-rt-14-dev, libFuzzer's run time, for 'make fuzz').
# Does nothing (and needs no root) when they are all installed already.
set -e

PKGS="openvswitch-source autoconf automake libtool pkg-config make gcc \
libssl-dev libcap-ng-dev libibverbs-dev ibverbs-providers python3 \
python3-sortedcontainers openssl procps iproute2 iputils-ping bzip2 bc \
patch libxdp1 libbpf1 libnuma1 libunbound8 clang libclang-rt-14-dev \
ethtool netcat-openbsd tcpdump lftp python3-pyftpdlib"

# Debian's Open vSwitch binaries, unpacked here but not installed (no
# services started): the stock OVS peer of tests/hw-system.at's GRE test.
# libxdp1, libbpf1, libnuma1 and libunbound8 above are what they link.
# ethtool (which every veth of OVS's system tests needs), netcat, tcpdump,
# lftp and pyftpdlib are for 'make check-system-hw' and
# 'make check-system-userspace', whose tests skip without the last four.
STOCK_OVS=${HW_STOCK_OVS:-/usr/local/lib/netdev-offload-hw/stock-ovs}

# Debian's OVN (ovn-northd, ovn-controller, ovn-nbctl, the schemas),
# unpacked the same way, for tools/ovn-sandbox.sh and tests/hw-ovn.at:
# installing ovn-host would pull in and start Debian's Open vSwitch.  What
# it links is in PKGS or in every Debian.
OVN=${HW_OVN:-/usr/local/lib/netdev-offload-hw/ovn}

missing=
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' \
        || missing="$missing $p"
done
if [ -z "$missing" ] \
   && [ -x "$STOCK_OVS/usr/lib/openvswitch-switch/ovs-vswitchd" ] \
   && [ -x "$OVN/usr/bin/ovn-controller" ]; then
    exit 0
fi

if [ "$(id -u)" = 0 ]; then
    SUDO=
else
    SUDO=sudo
fi

# Whether another apt or dpkg (unattended-upgrades, a second install) is
# running, and so may hold the locks.
apt_busy() {
    ps -e -o comm= 2>/dev/null \
        | grep -Eq '^(apt|apt-get|aptitude|dpkg|unattended-upgr)$'
}

# apt-get that waits for the dpkg and list locks rather than failing: apt
# waits for the dpkg lock itself (DPkg::Lock::Timeout), and a run that
# fails while another apt is busy is tried again, for up to 30 minutes.
apt_get() {
    tries=0
    until $SUDO apt-get -o DPkg::Lock::Timeout=300 "$@"; do
        tries=$((tries + 1))
        if ! apt_busy || [ $tries -ge 60 ]; then
            return 1
        fi
        echo "install-deps: another apt or dpkg is running; waiting" >&2
        while apt_busy; do
            sleep 5
        done
    done
}

apt_get update -q
if [ -n "$missing" ]; then
    echo "installing Debian packages:$missing"
    DEBIAN_FRONTEND=noninteractive apt_get install -y -q \
        --no-install-recommends $missing
fi

# unpack DIR PACKAGE...
#
# Downloads the Debian packages PACKAGE... and unpacks them into DIR,
# without installing them: no package script runs, no service starts.
unpack() {
    dir=$1
    shift
    echo "unpacking $* into $dir"
    tmp=$(mktemp -d)
    if (cd "$tmp" && apt-get download -q "$@"); then
        $SUDO mkdir -p "$dir"
        for deb in "$tmp"/*.deb; do
            $SUDO dpkg-deb -x "$deb" "$dir"
        done
        status=0
    else
        status=1
    fi
    rm -rf "$tmp"
    return $status
}

if [ ! -x "$STOCK_OVS/usr/lib/openvswitch-switch/ovs-vswitchd" ] \
   && ! unpack "$STOCK_OVS" openvswitch-switch openvswitch-common; then
    echo "warning: no stock Open vSwitch: the GRE system test will skip"
fi
if [ ! -x "$OVN/usr/bin/ovn-controller" ] \
   && ! unpack "$OVN" ovn-central ovn-host ovn-common; then
    echo "warning: no OVN: tools/ovn-sandbox.sh cannot run and the OVN" \
         "system test will skip"
fi
