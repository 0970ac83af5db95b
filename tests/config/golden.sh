#!/bin/sh
#
# Golden files for the config parser, through `tcptunectl check`, the
# command users run.  Speaks TAP.
#
#   good/NAME.conf    `check -v` must print good/NAME.out and exit 0
#   bad/NAME.conf     `check` must print bad/NAME.err and exit 1
#   etc/tcptune.conf.OS, the shipped defaults, are good files too; their
#   expected output is shipped/tcptune.conf.OS.out
#
# Each file is checked from its own directory by its bare name, so the
# "file:line:" prefixes do not depend on where the tree is.  `check` does
# not ask for root ownership (only the daemon does), so the tests pass
# whoever owns the checkout.
#
# TT_GOLDEN_UPDATE=1 rewrites the expected files from the current output:
# review the diff before committing it.

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$here/../..}"
: "${top_builddir:=$here/../..}"
# Absolute, since each check runs from the directory of its file.
top_srcdir=$(cd "$top_srcdir" && pwd) || exit 99
top_builddir=$(cd "$top_builddir" && pwd) || exit 99
ctl=$top_builddir/tcptunectl
cfg=$top_srcdir/tests/config

if [ ! -x "$ctl" ]; then
	echo "1..0 # SKIP $ctl is not built"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-golden.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 99' HUP INT TERM

n=0
failed=0

# check NAME DIR FILE EXPECTED STATUS ARGS...
check() {
	name=$1 dir=$2 file=$3 expected=$4 want=$5
	shift 5
	n=$((n + 1))
	(cd "$dir" && "$ctl" check "$@" "$file") >"$tmp/out" 2>&1
	status=$?
	if [ "${TT_GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$tmp/out" "$expected"
	fi
	if [ ! -f "$expected" ]; then
		echo "not ok $n - $name: $expected is missing"
		sed 's/^/# /' "$tmp/out"
		failed=$((failed + 1))
	elif ! diff -u "$expected" "$tmp/out" >"$tmp/diff" 2>&1; then
		echo "not ok $n - $name: output differs"
		sed 's/^/# /' "$tmp/diff"
		failed=$((failed + 1))
	elif [ "$status" -ne "$want" ]; then
		echo "not ok $n - $name: exit status $status, expected $want"
		failed=$((failed + 1))
	else
		echo "ok $n - $name"
	fi
}

set -- "$cfg"/good/*.conf
ngood=$#
set -- "$cfg"/bad/*.conf
nbad=$#
echo "1..$((ngood + 3 + nbad))"

for f in "$cfg"/good/*.conf; do
	b=$(basename "$f" .conf)
	check "good/$b" "$cfg/good" "$b.conf" "$cfg/good/$b.out" 0 -v
done
for os in darwin freebsd linux; do
	check "etc/tcptune.conf.$os" "$top_srcdir/etc" "tcptune.conf.$os" \
	    "$cfg/shipped/tcptune.conf.$os.out" 0 -v
done
for f in "$cfg"/bad/*.conf; do
	b=$(basename "$f" .conf)
	check "bad/$b" "$cfg/bad" "$b.conf" "$cfg/bad/$b.err" 1
done

# The "not ok" lines carry the failures; a non-zero exit would make the
# TAP driver count one more.
echo "# $failed of $n failed"
exit 0
