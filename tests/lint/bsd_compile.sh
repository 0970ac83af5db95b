#!/bin/bash
# The macOS and FreeBSD sources cannot be built on Linux, so compile them
# here for syntax and types only, against the shims in tests/shim, with
# the project's full warning set as errors: once as macOS (__APPLE__, xnu's
# struct kevent, O_EVTONLY, NOTE_MACH_CONTINUOUS_TIME), once as FreeBSD.
# Speaks TAP.  Run by make check, or by hand from anywhere in the tree.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
cc=${CC:-cc}
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

# Linux headers hide POSIX (O_CLOEXEC, sigaction) under -std=c11 unless
# asked; the BSDs show it by default, so this is for the host only.
compile() {
	# CC may carry options of its own ("gcc -m32"): split it on purpose.
	# shellcheck disable=SC2086
	$cc -std=c11 -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes \
	    -Wshadow -Wpointer-arith -Wcast-qual -Wsign-compare -Wformat=2 \
	    -Werror -D_DEFAULT_SOURCE \
	    -I"$top_srcdir/tests/shim" -I"$top_srcdir/lib" \
	    -I"$top_srcdir/daemon" -fsyntax-only "$@"
}

# On macOS and FreeBSD the real build compiles these files against the
# real headers, which the shims would only shadow.
if [ "$(uname -s)" != Linux ]; then
	skip_all "built for real on this system"
fi

# compiles DESC ARGS...: ok when the file compiles with every warning.
compiles() {
	local desc=$1 out
	shift
	if out=$(compile "$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc" "$out"
	fi
}

compiles "daemon/event_bsd.c as macOS" -D__APPLE__ \
    "$top_srcdir/daemon/event_bsd.c"
compiles "daemon/event_bsd.c as FreeBSD" \
    "$top_srcdir/daemon/event_bsd.c"
compiles "lib/backend_bsd.c as macOS" -D__APPLE__ \
    "$top_srcdir/lib/backend_bsd.c"
compiles "lib/backend_bsd.c as FreeBSD" \
    "$top_srcdir/lib/backend_bsd.c"
# diagnose's pcblist_n sampler (the parser is unit-tested on Linux)
# (config.h from this build: the file needs no macOS answer from it)
compiles "daemon/flows/flows_darwin.c as macOS" -D__APPLE__ \
    -I"${top_builddir:-$top_srcdir}" "$top_srcdir/daemon/flows/flows_darwin.c"
# the running program's path, for the sibling rule (lib/trust_posix.c)
compiles "lib/self_freebsd.c as FreeBSD" \
    -I"${top_builddir:-$top_srcdir}" "$top_srcdir/lib/self_freebsd.c"
# measure's TCP_CONNECTION_INFO branch (shim: tests/shim/netinet/tcp.h)
compiles "tools/measure/measure_net.c as macOS" -D__APPLE__ \
    -DPACKAGE_VERSION='"0"' -I"$top_srcdir/tools" \
    "$top_srcdir/tools/measure/measure_net.c"
tap_end
