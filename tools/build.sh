#!/bin/sh
# Installs the Debian packages, configures and builds OVS with the plugin.
set -e
cd "$(dirname "$0")/.."

./tools/install-deps.sh
if [ ! -x configure ] || [ configure.ac -nt configure ] \
   || [ Makefile.am -nt configure ]; then
    autoreconf -i
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ]; then
    ./configure ${CONFIGURE_FLAGS:-}
fi
make -j"$(nproc)"
