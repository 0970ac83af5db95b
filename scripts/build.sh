#!/usr/bin/env bash
# Configures (once) and builds tcptune in the source tree.
set -eu
cd "$(dirname "$0")/.."
if [ ! -x configure ] || [ configure.ac -nt configure ] ||
    [ Makefile.am -nt configure ]; then
	# Quiet when it works; run again to show why when it does not.
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ]; then
	./configure -q --enable-werror "$@"
fi
make -j"$(nproc 2>/dev/null || echo 2)"
