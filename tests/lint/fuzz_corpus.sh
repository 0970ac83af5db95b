#!/bin/bash
# The fuzzers' seeds speak the protocol the code speaks.  fuzz/mkcorpus.py
# once kept version 5 after lib/proto.h went to 6, and every seed of
# fuzz_proto and fuzz_reply then reached only the version mismatch.
# Checked: each seed of fuzz/corpus/proto and fuzz/corpus/reply (after
# fuzz_reply's two leading bytes) has TT_PROTO_VERSION in its first
# header, and each of fuzz/corpus/answer PW_VERSION, except the seeds
# named *version*, which are the mismatch on purpose and must carry
# another; and mkcorpus.py, run into a temporary directory, writes
# exactly the committed proto, reply, value and answer corpora, no file
# more or less (fuzz/corpus/config is made by hand).  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-fuzz-corpus.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

corpus=$top_srcdir/fuzz/corpus
regenerate="cd fuzz && python3 mkcorpus.py"

# define_of NAME FILE: the number #define NAME gives in FILE.
define_of() {
	awk -v name="$1" '$1 == "#define" && $2 == name {
		sub(/u$/, "", $3); print $3 }' "$2"
}
proto_version=$(define_of TT_PROTO_VERSION "$top_srcdir/lib/proto.h")
pw_version=$(define_of PW_VERSION "$top_srcdir/lib/parse_wire.h")
if [ -z "$proto_version" ] || [ -z "$pw_version" ]; then
	bail "no TT_PROTO_VERSION in lib/proto.h or PW_VERSION in" \
	    "lib/parse_wire.h"
fi

# le_at FILE OFFSET BYTES: the little-endian number there (the corpus is
# written little-endian whatever the host), empty past the end.
le_at() {
	od -An -tu1 -v -j "$2" -N "$3" "$1" | awk -v n="$3" '
		{ for (i = 1; i <= NF; i++) b[c++] = $i }
		END { if (c < n) exit; v = 0
		      for (i = n - 1; i >= 0; i--) v = v * 256 + b[i]
		      print v }'
}

# check_versions DIR OFFSET BYTES WANT: each seed of DIR.
check_versions() {
	local f name got
	for f in "$corpus/$1"/*; do
		name=${f##*/}
		got=$(le_at "$f" "$2" "$3")
		case $name in
		*version*)
			if [ -n "$got" ] && [ "$got" != "$4" ]; then
				ok "$1/$name: another version ($got), on purpose"
			else
				not_ok "$1/$name: another version, on purpose" \
				    "its first header has version ${got:-none}," \
				    "so it mismatches nothing"
			fi
			;;
		*)
			if [ "$got" = "$4" ]; then
				ok "$1/$name: version $4"
			else
				not_ok "$1/$name: version $4" \
				    "its first header has version ${got:-none}," \
				    "so the harness stops at the version check" \
				    "Regenerate: $regenerate"
			fi
			;;
		esac
	done
}

# msg_hdr's version at 12 (u16); pw_head's at 4 (u32).
check_versions proto 12 2 "$proto_version"
check_versions reply 14 2 "$proto_version"
check_versions answer 4 4 "$pw_version"

if ! out=$(python3 "$top_srcdir/fuzz/mkcorpus.py" "$T" 2>&1); then
	not_ok "mkcorpus.py runs" "$out"
	tap_end
	exit
fi
ok "mkcorpus.py runs"
for d in proto reply value answer; do
	if out=$(diff -r "$T/$d" "$corpus/$d" 2>&1); then
		ok "fuzz/corpus/$d is what mkcorpus.py writes"
	else
		not_ok "fuzz/corpus/$d is what mkcorpus.py writes" \
		    "$(printf '%s\n' "$out" |
		    sed "s|$T/|mkcorpus.py's |; s|$top_srcdir/||")" \
		    "Stale: regenerate it ($regenerate) and commit it."
	fi
done

tap_end
