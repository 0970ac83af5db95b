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
	    --exclude=./packaging/macos/build -cf - . |
	    tar -C "$copy" -xf - || return 1
	make -C "$copy" distclean >/dev/null 2>&1 || return 1
	echo "$copy"
}
