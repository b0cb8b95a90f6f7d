#!/bin/sh
# Builds Debian packages of Open vSwitch 3.1 with netdev-offload-hw:
# Debian's own openvswitch source package (the tarball the Debian package
# openvswitch-source installs, the one the plugin's build uses, which
# carries Debian's debian/ directory with Debian's patches applied), plus
# vswitchd-patches/ and the plugin's sources in netdev-offload-hw/, as the
# plugin's build puts them, built by dpkg-buildpackage.
#
# The packages keep Debian's names with a higher version
# (VERSION+hw1), so that they install in place of Debian's.  The package's
# own tests are off (DEB_BUILD_OPTIONS=nocheck: 'make check' runs them) and
# so is the DPDK flavour (build profile pkg.openvswitch.nodpdk,
# tools/deb/debian.patch): see Documentation/install.rst.
#
# usage: tools/deb.sh [-o DIR] [-j JOBS]
#   -o DIR   where the tree is built and the .debs written (default deb/)
#   -j JOBS  parallel jobs (default 2)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/deb
jobs=2
while getopts o:j: opt; do
    case $opt in
        o) out=$OPTARG ;;
        j) jobs=$OPTARG ;;
        *) sed -n 's/^# \{0,1\}//; /^usage/,/^-j/p' "$0" >&2; exit 1 ;;
    esac
done
tarball=${OVS_TARBALL:-/usr/src/openvswitch/openvswitch.tar.gz}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if ! command -v dpkg-buildpackage >/dev/null; then
    echo "deb: dpkg-buildpackage not found: install dpkg-dev" >&2
    exit 1
fi

# A fresh tree each time: dpkg-buildpackage builds in the source tree.
build=$out/build
rm -rf "$build"
mkdir -p "$build"
tar -xzf "$tarball" -C "$build"
src=$build/openvswitch
cd "$src"
for p in "$top"/vswitchd-patches/*.patch; do
    patch -s -p1 --no-backup-if-mismatch < "$p"
done
mkdir netdev-offload-hw
cp -pR "$top/lib" "$top/tests" "$top/tools" netdev-offload-hw/
patch -s -p1 --no-backup-if-mismatch < "$top/tools/deb/debian.patch"

# The build deps of the changed debian/control, from apt, waiting for the
# dpkg lock as tools/install-deps.sh does.
missing=$(dpkg-checkbuilddeps -P pkg.openvswitch.nodpdk 2>&1 \
          | sed -n 's/.*Unmet build dependencies: //p' \
          | sed 's/([^)]*)//g; s/\[[^]]*\]//g; s/<[^>]*>//g')
if [ -n "$missing" ]; then
    echo "deb: installing the build dependencies:$missing"
    sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get \
        -o DPkg::Lock::Timeout=1800 install -y -q --no-install-recommends \
        $missing
fi

# A changelog entry of our own: the version says which plugin commit.
version=$(dpkg-parsechangelog -S Version)+hw1
commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    echo "openvswitch ($version) bookworm; urgency=medium"
    echo
    echo "  * netdev-offload-hw $commit: vswitchd-patches and the plugin, the"
    echo "    rdma-core backend; without the DPDK flavour."
    echo
    echo " -- netdev-offload-hw <netdev-offload-hw@localhost>  $(date -R)"
    echo
    cat debian/changelog
} > debian/changelog.new
mv debian/changelog.new debian/changelog

# Debian's own tools only: a python3 first in PATH (pyenv, a venv) lacks
# the setuptools of python3-setuptools that debian/rules needs
# ('setup.py install --install-layout=deb').
start=$(date +%s)
PATH=/usr/sbin:/usr/bin:/sbin:/bin \
DEB_BUILD_OPTIONS="nocheck parallel=$jobs" \
DEB_BUILD_PROFILES=pkg.openvswitch.nodpdk \
    nice -n 10 dpkg-buildpackage -b -us -uc -j"$jobs" > "$out/build.log" 2>&1 \
    || { tail -n 40 "$out/build.log"; echo "deb: the build failed;" \
         "$out/build.log has its output" >&2; exit 1; }
echo "deb: built in $(( $(date +%s) - start )) s (log in $out/build.log):"
rm -f "$out"/*.deb "$out"/*.ddeb
mv "$build"/*.deb "$out"/
ls "$out"/*.deb
