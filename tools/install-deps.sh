#!/bin/sh
# Installs the Debian 12 packages needed to build and test netdev-offload-hw.
# Does nothing (and needs no root) when they are all installed already.
set -e

PKGS="openvswitch-source autoconf automake libtool pkg-config make gcc \
libssl-dev libcap-ng-dev libibverbs-dev ibverbs-providers python3 \
python3-sortedcontainers openssl procps iproute2 iputils-ping bzip2 bc \
patch"

missing=
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' \
        || missing="$missing $p"
done
if [ -z "$missing" ]; then
    exit 0
fi

echo "installing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then
    SUDO=
else
    SUDO=sudo
fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q \
    --no-install-recommends $missing
