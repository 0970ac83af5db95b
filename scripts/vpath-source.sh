# shellcheck shell=bash
#
# vpath_source SRCDIR WORKDIR: print a source tree that a build in another
# directory (VPATH) can use.  configure refuses a source tree that was
# configured in place, as scripts/build.sh does for the quick start, so
# then this prints a cleaned copy of it made under WORKDIR/src.  WORKDIR
# is opened to all (mktemp makes it 0700): the system tests run tcptunectl
# and a raw client from the build and source trees as uid 65534.
vpath_source() {
	local src=$1 copy=$2/src
	chmod go+rx "$2" || return 1
	if [ ! -f "$src/config.status" ]; then
		echo "$src"
		return 0
	fi
	rm -rf "$copy" && mkdir -p "$copy" || return 1
	tar -C "$src" --exclude=./.git --exclude=./autom4te.cache \
	    --exclude=./packaging/macos/build \
	    --exclude=./packaging/windows/build --exclude=./build -cf - . |
	    tar -C "$copy" -xf - || return 1
	make -C "$copy" distclean >/dev/null 2>&1 || return 1
	echo "$copy"
}

# vpath_setup SRCDIR BUILDDIR: the start of scripts/sanitize.sh, valgrind.sh
# and fuzz.sh, before their configure: refuse to build in the source tree,
# run autoreconf when there is no configure yet, set src to the tree to
# configure from (vpath_source) and cd to BUILDDIR.  A failure calls the
# caller's die, which exits.
vpath_setup() {
	[ "$2" != "$1" ] || die "refusing to build in the source tree"
	if [ ! -x "$1/configure" ]; then
		(cd "$1" && autoreconf -fi >/dev/null 2>&1) || die "autoreconf failed"
	fi
	src=$(vpath_source "$1" "$2") ||
	    die "cannot copy the configured source tree"
	cd "$2" || die "cannot cd to $2"
}
