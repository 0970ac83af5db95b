#!/bin/bash
# Every seed and every saved crash input through the harnesses, built as
# plain programs (fuzz/replay_NAME): TAP, one line per file.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=seeds.sh
. "$top_srcdir/fuzz/seeds.sh"
# shellcheck source=../tests/tap.sh
. "$top_srcdir/tests/tap.sh"
for name in config proto value reply answer; do
	bin=$top_builddir/fuzz/replay_$name
	if [ ! -x "$bin" ]; then
		bail "$bin not built"
	fi
	inputs=$(fuzz_seeds "$name" "$top_srcdir"
	    for f in "$top_srcdir/fuzz/regress/$name"/*; do
		[ -f "$f" ] && printf '%s\n' "$f"
	    done)
	if [ -z "$inputs" ]; then
		bail "no seeds for $name"
	fi
	while IFS= read -r f; do
		rel=${f#"$top_srcdir/"}
		if out=$("$bin" "$f" 2>&1); then
			ok "$name: $rel"
		else
			not_ok "$name: $rel" "$(printf '%s\n' "$out" | tail -n 20)"
		fi
	done <<EOF
$inputs
EOF
done
tap_end
