#!/bin/bash
#
# bench/flows/run.sh [SOCKETS]: one diagnose sampling pass with SOCKETS
# (10000) TCP sockets open, in a private network namespace (unshare -n,
# lo up there): bench/flows/flowbench prints the figure that
# docs/BENCHMARKS.md quotes.  Needs root; writes no sysctl.
set -u
: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
bin=$top_builddir/bench/flows/flowbench
[ -x "$bin" ] || { echo "bench/flows/run.sh: $bin not built" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "bench/flows/run.sh: needs root" >&2; exit 1; }
# shellcheck disable=SC2016 # expanded by the inner shell
exec unshare -n sh -c 'ip link set lo up && exec "$0" "$1" 20' "$bin" \
    "${1:-10000}"
