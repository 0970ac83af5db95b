#!/bin/sh
# run.sh NAME BINARY FUZZDIR SECONDS WORKDIR: one libFuzzer run of NAME for
# SECONDS on a copy of its seeds (fuzz/seeds.sh; plus FUZZDIR/regress/NAME,
# read only), in WORKDIR/NAME.  Prints "PASS: fuzz_NAME ..." or "FAIL: ...".
# Called by `make fuzz`; a crash leaves its input in WORKDIR/NAME/crash-*:
# copy it into fuzz/regress/NAME/ once fixed, so `make check` keeps it.
set -u
name=$1 bin=$2 fuzzdir=$3 secs=$4 work=$5/$1
# shellcheck source=seeds.sh
. "$fuzzdir/seeds.sh"

case $name in
proto|reply) maxlen=66000 ;;	# a reply stream of several messages
value) maxlen=1024 ;;	# past TT_VALUE_MAX, not far
*) maxlen=16384 ;;
esac
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts" || exit 1
fuzz_seeds "$name" "$fuzzdir/.." >"$work/seeds" || exit 1
[ -s "$work/seeds" ] || { echo "FAIL: fuzz_$name: no seeds"; exit 1; }
while IFS= read -r f; do
	cp "$f" "$work/corpus/" || exit 1
done <"$work/seeds"
# Only the first directory grows: the copy, never the tree.
"$bin" -max_total_time="$secs" -max_len="$maxlen" -timeout=30 \
    -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" \
    "$work/corpus" "$fuzzdir/regress/$name" >"$work/log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log")
units=$(find "$work/corpus" -type f | wc -l)
if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
	echo "PASS: fuzz_$name ${secs}s, ${runs} runs, ${rate} exec/s, corpus $units"
	exit 0
fi
echo "FAIL: fuzz_$name exit $rc (log $work/log)"
tail -n 40 "$work/log" | sed 's/^/    /'
for f in "$work/artifacts"/*; do
	[ -e "$f" ] && echo "    input saved: $f"
done
exit 1
