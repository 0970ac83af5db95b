#!/bin/bash
# Every config the documentation shows passes `tcptunectl check` for its
# OS (issue 45: the README's example mixed macOS and Linux keys and failed
# check on every OS, so a newcomer's first copy-paste failed).  The
# configs are the blocks holding a plist: in README.md and docs/*.md a
# fenced block (```) with a line starting <plist or <dict>; in man/*.5
# and man/*.8 a .Bd/.Ed display with one (roff's \e, \- and \& undone).
# A line starting <plist outside such a block fails the lint: a config
# it would not see.
#
# Each block's OS is named by a marker, the last one since the block
# before it:
#   Markdown: <!-- tcptunectl check --platform OS -->
#   roff:     .\" tcptunectl check --platform OS
# An example meant to be refused adds `fails "MESSAGE"` to its marker
# (<!-- tcptunectl check --platform linux fails "unknown key" -->): check
# must then exit 1 and say MESSAGE.  Without a marker the OS is taken from
# the keys (net.ipv4., net.ipv6., net.core.: linux; net.inet.tcp.autorcv or
# autosnd: macos; net.inet.tcp.sendbuf_max or recvbuf_max: freebsd;
# tcp. or offload.: windows, first match wins), so a block mixing OSes
# fails on the keys of the others.  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
TCPTUNECTL=${TCPTUNECTL:-$top_builddir/tcptunectl}
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-doc-configs.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

[ -x "$TCPTUNECTL" ] || bail "no $TCPTUNECTL: build it first"

# extract FILE KIND: each config of FILE (KIND md or roff) as
# $T/N.conf, N counting on from the files before, and a line in
# $T/list: "N<TAB>FILE:LINE<TAB>OS or -<TAB>MESSAGE or -"; a line starting
# <plist outside a block as "stray<TAB>FILE:LINE".
extract() {
	awk -v kind="$2" -v file="${1#"$top_srcdir"/}" -v dir="$T" '
		function marker(l,   m) {
			if (kind == "md" &&
			    l !~ /^[ \t]*<!-- tcptunectl check --platform /)
				return 0
			if (kind == "roff" &&
			    l !~ /^\.\\" tcptunectl check --platform /)
				return 0
			sub(/^.*--platform[ \t]+/, "", l)
			sub(/[ \t]*-->[ \t]*$/, "", l)
			os = l
			sub(/[ \t].*$/, "", os)
			msg = "-"
			if (l ~ /[ \t]fails[ \t]+"/) {
				msg = l
				sub(/^[^"]*"/, "", msg)
				sub(/"[^"]*$/, "", msg)
			}
			return 1
		}
		BEGIN {
			n = 0
			while ((getline l < (dir "/count")) > 0)
				n = l + 0
			os = "-"; msg = "-"
		}
		!inside && marker($0) { next }
		!inside && ((kind == "md" && /^[ \t]*```/) ||
		    (kind == "roff" && /^\.Bd/)) {
			inside = 1; start = FNR + 1; body = ""; conf = 0
			next
		}
		inside && ((kind == "md" && /^[ \t]*```[ \t]*$/) ||
		    (kind == "roff" && /^\.Ed/)) {
			inside = 0
			if (conf) {
				n++
				printf "%s", body > (dir "/" n ".conf")
				close(dir "/" n ".conf")
				printf "%d\t%s:%d\t%s\t%s\n", n, file, start,
				    os, msg >> (dir "/list")
				os = "-"; msg = "-"
			}
			next
		}
		inside {
			l = $0
			if (kind == "roff") {
				gsub(/\\e/, "\\", l)
				gsub(/\\-/, "-", l)
				gsub(/\\&/, "", l)
			}
			if (l ~ /^[ \t]*<(plist|dict>)/)
				conf = 1
			body = body l "\n"
			next
		}
		/^[ \t]*<plist/ {
			printf "stray\t%s:%d\n", file, FNR >> (dir "/list")
		}
		END { print n > (dir "/count") }' "$1"
}

: >"$T/list"
echo 0 >"$T/count"
for f in "$top_srcdir/README.md" "$top_srcdir"/docs/*.md; do
	[ -f "$f" ] && extract "$f" md
done
for f in "$top_srcdir"/man/*.5 "$top_srcdir"/man/*.8; do
	[ -f "$f" ] && extract "$f" roff
done

# os_of_keys FILE: the OS the keys of FILE name first, or "".
os_of_keys() {
	local keys
	keys=$(sed -n 's/.*<key>\([^<]*\)<\/key>.*/\1/p' "$1")
	if grep -qE '^net\.(ipv4|ipv6|core)\.' <<<"$keys"; then
		echo linux
	elif grep -qE '^net\.inet\.tcp\.auto(rcv|snd)' <<<"$keys"; then
		echo macos
	elif grep -qE '^net\.inet\.tcp\.(send|recv)buf_max' <<<"$keys"; then
		echo freebsd
	elif grep -qE '^(tcp|offload)\.' <<<"$keys"; then
		echo windows
	fi
}

# told N WHERE: check's output for $T/N.conf, its lines as the
# document's (WHERE is FILE:LINE of the block's first line).
told() {
	awk -v conf="$T/$1.conf:" -v file="${2%:*}" -v first="${2##*:}" '
		index($0, conf) == 1 {
			rest = substr($0, length(conf) + 1)
			line = rest
			sub(/:.*/, "", line)
			if (line ~ /^[0-9]+$/) {
				sub(/^[0-9]+/, "", rest)
				$0 = file ":" (first + line - 1) rest
			}
		}
		{ print }' "$T/out"
}

while IFS=$'\t' read -r n where os msg; do
	if [ "$n" = stray ]; then
		not_ok "$where: a plist outside a fenced block or .Bd/.Ed display" \
		    "the lint cannot check a config it does not find: put it in one"
		continue
	fi
	how=marked
	if [ "$os" = - ]; then
		how="from its keys"
		os=$(os_of_keys "$T/$n.conf")
		if [ -z "$os" ]; then
			not_ok "$where: the config's OS" \
			    "no marker and no key naming an OS: add a marker" \
			    "$(cat "$T/$n.conf")"
			continue
		fi
	fi
	"$TCPTUNECTL" check --platform "$os" "$T/$n.conf" >"$T/out" 2>&1
	rc=$?
	if [ "$msg" = - ]; then
		report "$rc" "$where ($os, $how): tcptunectl check passes" \
		    "tcptunectl check --platform $os -> exit $rc" \
		    "$(told "$n" "$where")"
	else
		[ "$rc" -eq 1 ] && grep -qF -- "$msg" "$T/out"
		report $? "$where ($os, $how): tcptunectl check fails with \"$msg\"" \
		    "tcptunectl check --platform $os -> exit $rc" \
		    "$(told "$n" "$where")"
	fi
done <"$T/list"

count=$(cat "$T/count")
if [ "$count" -gt 0 ]; then
	ok "configs found in the documentation: $count"
else
	not_ok "configs found in the documentation: none" \
	    "README.md's ## Configuration shows some: the extraction is broken"
fi

tap_end
