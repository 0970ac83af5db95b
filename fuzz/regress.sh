#!/bin/sh
# Every seed and every saved crash input through the harnesses, built as
# plain programs (fuzz/replay_NAME): TAP, one line per file.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=seeds.sh
. "$top_srcdir/fuzz/seeds.sh"
n=0 failed=0
for name in config proto value reply; do
	bin=$top_builddir/fuzz/replay_$name
	if [ ! -x "$bin" ]; then
		echo "Bail out! $bin not built"
		exit 99
	fi
	inputs=$(fuzz_seeds "$name" "$top_srcdir"
	    for f in "$top_srcdir/fuzz/regress/$name"/*; do
		[ -f "$f" ] && printf '%s\n' "$f"
	    done)
	if [ -z "$inputs" ]; then
		echo "Bail out! no seeds for $name"
		exit 99
	fi
	while IFS= read -r f; do
		n=$((n + 1))
		rel=${f#"$top_srcdir/"}
		if out=$("$bin" "$f" 2>&1); then
			echo "ok $n - $name: $rel"
		else
			failed=$((failed + 1))
			echo "not ok $n - $name: $rel"
			printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'
		fi
	done <<EOF
$inputs
EOF
done
echo "1..$n"
echo "# fuzz/regress.sh: $failed of $n failed"
exit 0
