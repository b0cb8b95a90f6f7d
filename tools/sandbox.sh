#!/bin/sh
# sandbox.sh -- OVS with the plugin, from the build, in a private directory.
#
# Starts ovsdb-server and ovs-vswitchd from ovs-build/ (build it first with
# tools/build.sh or tools/check.sh) with their database, sockets and logs in
# sandbox-run/ (or DIR), and nothing on the host touched: ovs-vswitchd runs
# with --enable-dummy, --disable-system and --disable-system-route, so it
# neither opens the kernel datapath nor reads the host's routes, and a
# bridge with datapath_type=dummy (dpif-netdev under the dummy name) gets a
# dummy internal port, not a tap device.  (--enable-dummy=override would
# make the hw ports dummy ports too.)
# Then runs COMMAND in that environment (PATH and OVS_RUNDIR set, so that
# ovs-vsctl and ovs-appctl talk to these daemons), or an interactive shell
# if there is no COMMAND; the daemons stop when it exits.
#
# usage: sandbox.sh [-d DIR] [-- COMMAND [ARG]...]
set -e
cd "$(dirname "$0")/.."
TOP=$(pwd)
D=$TOP/sandbox-run
if [ "${1:-}" = -d ]; then
    D=$(mkdir -p "$2" && cd "$2" && pwd)
    shift 2
fi
if [ "${1:-}" = -- ]; then
    shift
fi

B=$TOP/ovs-build/openvswitch
if [ ! -x "$B/vswitchd/ovs-vswitchd" ]; then
    echo "sandbox: no build in $B: run ./tools/build.sh first" >&2
    exit 1
fi
rm -rf "$D"
mkdir -p "$D"
PATH=$B/utilities:$B/vswitchd:$B/ovsdb:$B/tests:$PATH
export PATH OVS_RUNDIR="$D" OVS_LOGDIR="$D" OVS_DBDIR="$D" \
       OVS_SYSCONFDIR="$D" OVS_PKGDATADIR="$B"

stop() {
    ovs-appctl --timeout=10 exit >/dev/null 2>&1 || true
    ovs-appctl --timeout=10 -t ovsdb-server exit >/dev/null 2>&1 || true
}
trap stop EXIT

ovsdb-tool create "$D/conf.db" "$B/vswitchd/vswitch.ovsschema"
ovsdb-server --detach --no-chdir --pidfile --log-file \
    --remote=punix:"$D/db.sock" "$D/conf.db"
ovs-vsctl --no-wait init
ovs-vswitchd --enable-dummy --disable-system --disable-system-route \
    --detach --no-chdir --pidfile --log-file -vconsole:off
echo "sandbox: ovsdb-server and ovs-vswitchd run in $D (logs there);" \
     "they stop when this exits" >&2

if [ $# -gt 0 ]; then
    "$@"
else
    PS1='[ovs-sandbox] \w\$ ' "${SHELL:-/bin/sh}" -i
fi
