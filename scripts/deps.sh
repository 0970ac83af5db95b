#!/usr/bin/env bash
# Installs the Debian packages tcptune needs: "build" for the programs,
# "test" for the whole test suite as well, "release" for scripts/release.sh.
# Skips apt when all are there.
set -eu

build="build-essential autoconf automake pkg-config libxml2-dev libcurl4-openssl-dev mandoc"
# build: mandoc renders the manual pages built into tcptunectl (help PAGE).
# test: the unit, system and packaging tests (mandoc lints the man pages,
# strace checks what a hostile config makes the reader open, lintian the
# .deb, iperf3 and gnuplot the benchmarks' smoke runs), then the sanitizer
# build (clang and its runtime), valgrind and the fuzzers; promtool
# (package prometheus) checks status --prometheus, ruby -c the Homebrew
# formula; openssl makes the certificate of the measure test's TLS
# server; xmllint (libxml2-utils) checks the ADMX template.
test="$build libcmocka-dev jq shellcheck util-linux iproute2 procps python3
	mandoc strace lintian iperf3 gnuplot-nox openssl dpkg-dev clang libclang-rt-14-dev valgrind
	file prometheus ruby libxml2-utils"
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

case "${1:-build}" in
build) want=$build ;;
test) want=$test ;;
release) want=$release ;;
*) echo "usage: $0 build|test|release" >&2; exit 64 ;;
esac

die() { echo "deps.sh: $*" >&2; exit 1; }
# shellcheck source=scripts/need-packages.sh
. "$(dirname "$0")/need-packages.sh"
# shellcheck disable=SC2086 # one word per package
need_packages $want
