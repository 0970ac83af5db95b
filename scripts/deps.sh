#!/usr/bin/env bash
# Installs the Debian packages tcptune needs: "build" for the programs,
# "test" for the whole test suite as well, "release" for scripts/release.sh,
# "bench" for `make bench` (the test set and Red Hat's tuned, the resident
# peer bench/daemon/tuned.sh measures).  Skips apt when all are there.
set -eu

build="build-essential autoconf automake pkg-config libxml2-dev libcurl4-openssl-dev mandoc libiperf-dev"
# build: mandoc renders the manual pages built into tcptunectl (help PAGE),
# libiperf-dev lets measure test against iperf3 servers (optional to
# configure, which finds it).
# test: the unit, system and packaging tests (mandoc lints the man pages,
# strace checks what a hostile config makes the reader open, lintian the
# .deb, iperf3 and gnuplot the benchmarks' smoke runs), then the sanitizer
# build (clang and its runtime), valgrind and the fuzzers; promtool
# (package prometheus) checks status --prometheus, ruby -c the Homebrew
# formula; openssl makes the certificate of the measure test's TLS
# server; xmllint (libxml2-utils) checks the ADMX template; gdb zeroes
# and writes out the coverage counters of scripts/trips.sh's daemon (a
# measurement run by hand; gcov comes with gcc, in build-essential).
test="$build libcmocka-dev jq shellcheck util-linux iproute2 procps python3
	mandoc strace lintian iperf3 gnuplot-nox openssl dpkg-dev clang libclang-rt-14-dev valgrind
	file prometheus ruby libxml2-utils gdb"
# The shells whose completions tests/system/completion.sh sources (bash
# is there; bash-completion's loader must find the installed one).
test="$test zsh fish bash-completion"
# systemd-nspawn boots the .deb's test container (tests/packaging/systemd.sh).
test="$test systemd-container"
# The macOS cross-build takes zig from npm (scripts/build-macos.sh); a
# node.js that brings its own npm is as good as Debian's package.
command -v npm >/dev/null 2>&1 || test="$test npm"

# release: scripts/release.sh (the .deb's Depends from dpkg-shlibdeps,
# llvm-lipo for the universal macOS programs, ruby -c for the formula;
# the Windows build installs its own); the test stage checks a release.
release="$build dpkg-dev llvm-14 ruby file"
command -v npm >/dev/null 2>&1 || release="$release npm"
test="$test llvm-14"

# bench: tuned is never started here (see tuned_quietly); the rest of what
# the benchmarks run (valgrind, jq, gnuplot, strace, python3, iperf3) is in
# the test set.
bench="$test tuned"

case "${1:-build}" in
build) want=$build ;;
test) want=$test ;;
release) want=$release ;;
bench) want=$bench ;;
*) echo "usage: $0 build|test|release|bench" >&2; exit 64 ;;
esac

die() { echo "deps.sh: $*" >&2; exit 1; }
# shellcheck source=scripts/need-packages.sh
. "$(dirname "$0")/need-packages.sh"

# tuned_quietly: install tuned without letting it start or change what
# /usr/bin/awk is.  Its postinst starts tuned.service only under systemd
# (/run/systemd/system) and through invoke-rc.d/deb-systemd-invoke, which
# obey policy-rc.d: a policy that refuses every start (exit 101) is put in
# place for the install where none is.  A running tuned would apply its
# recommended profile to the host's sysctls, CPU governor and disks;
# bench/daemon/tuned.sh starts its own in a sandbox.  tuned depends on
# gawk, whose alternative outranks mawk: awk is pinned to what it was, as
# the tests run on Debian's default.
tuned_quietly() {
	local policy=/usr/sbin/policy-rc.d added=0 awk_now
	dpkg-query -W -f='${Status}' tuned 2>/dev/null |
	    grep -q "install ok installed" && return 0
	[ "$(id -u)" -eq 0 ] || die "missing package: tuned; run as root (sudo) to install it"
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\n# deps.sh: no service starts while tuned installs\nexit 101\n' \
		    >"$policy" && chmod 755 "$policy" && added=1
	fi
	# shellcheck disable=SC2064 # the values of now
	[ "$added" -eq 1 ] && trap "rm -f '$policy'" EXIT
	awk_now=$(readlink -f /usr/bin/awk 2>/dev/null || true)
	[ -n "$awk_now" ] && update-alternatives --set awk "$awk_now" >/dev/null 2>&1
	need_packages tuned
	if [ "$added" -eq 1 ]; then rm -f "$policy"; trap - EXIT; fi
}

if [ "${1:-build}" = bench ]; then
	want=${want% tuned}
	# shellcheck disable=SC2086 # one word per package
	need_packages $want
	tuned_quietly
	exit 0
fi
# shellcheck disable=SC2086 # one word per package
need_packages $want
