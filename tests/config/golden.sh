#!/bin/sh
#
# Golden files for the config parser, through `tcptunectl check`, the
# command users run.  Speaks TAP.
#
# Each case's stdout (the plan, "configuration OK") is NAME.out, its
# stderr (the errors and warnings, each at its line) NAME.err; a stream
# with no file must be empty.
#
#   good/NAME.conf    `check -v` must print good/NAME.out and exit 0
#   bad/NAME.conf     `check` must print bad/NAME.err and exit 1 (the
#                     daemon's reload bad/NAME.reload where that differs:
#                     tests/system/hostile_reload.sh)
#   etc/tcptune.conf.OS, the shipped defaults, are good files too; their
#   expected output is shipped/tcptune.conf.OS.out
#   managed/NAME.conf with managed/NAME.managed.plist over it (check -m,
#                     as tcptuned -m lays it): good.out (-v, exit 0),
#                     bad.err (exit 1)
#   generated/NAME.err  the hostile cases that cannot be kept in git
#                     (hostile.sh makes them in a temp dir): `check`, or
#                     `tcptuned -n` for those about owners and modes; the
#                     findings on stderr, "configuration OK" on stdout
#
# Every bad and generated case also runs under strace (when it works here)
# and must open no file but its own and the shared libraries, open nothing
# for writing and make no socket: an entity, DTD or XInclude that reached
# out would show.  Each run is bounded by timeout(1), and must exit 1 (0
# for the good ones): a crash or a hang fails.
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

# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"

if [ ! -x "$ctl" ]; then
	skip_all "$ctl is not built"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-golden.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/empty"
trap 'exit 99' HUP INT TERM
# check names the other places that set a key (lib/other_sources.c):
# none here, whatever this machine's /etc holds; sources.sh tests them.
mkdir "$tmp/no-sources" || exit 99
TT_SOURCES_ROOT=$tmp/no-sources
export TT_SOURCES_ROOT

# shellcheck source=/dev/null # tests/config/hostile.sh
. "$cfg/hostile.sh"

# A hang must fail, not stall the suite: TT_WAIT_LIMIT (120 s) is far
# more than any case takes, even on a busy machine (docs/HACKING.md);
# where timeout(1) is not installed, runs are unbounded.
bounded() {
	if command -v timeout >/dev/null 2>&1; then
		timeout "${TT_WAIT_LIMIT:-120}" "$@"
	else
		"$@"
	fi
}

# strace, if it can trace here (ptrace may be forbidden in a container).
tracer=
if command -v strace >/dev/null 2>&1 &&
    strace -o /dev/null true >/dev/null 2>&1; then
	tracer=strace
fi

# run_apart DIR CMD...: CMD from DIR, bounded, stdout into $tmp/stdout and
# stderr into $tmp/stderr: the findings of check and tcptuned -n are
# diagnostics, on stderr, the plan and "configuration OK" the report, on
# stdout (issue 45).
run_apart() {
	r_dir=$1
	shift
	(cd "$r_dir" && bounded "$@") >"$tmp/stdout" 2>"$tmp/stderr"
}

# compare NAME EXPECTED STATUS WANT: $tmp/out against EXPECTED.
compare() {
	if [ ! -f "$2" ]; then
		not_ok "$1: $2 is missing" "$(cat "$tmp/out")"
	elif ! diff -u "$2" "$tmp/out" >"$tmp/diff" 2>&1; then
		not_ok "$1: output differs" "$(cat "$tmp/diff")"
	elif [ "$3" -ne "$4" ]; then
		not_ok "$1: exit status $3, expected $4 $([ "$3" -eq 124 ] &&
		    echo '(timed out: a hang)')"
	else
		ok "$1"
	fi
}

# stream_golden GOLDEN GOT: with TT_GOLDEN_UPDATE, GOT into GOLDEN, or
# no GOLDEN when GOT is empty; then the file to compare GOT with (an
# empty one when there is no GOLDEN: nothing is expected on that stream).
stream_golden() {
	if [ "${TT_GOLDEN_UPDATE:-0}" = 1 ]; then
		if [ -s "$2" ]; then cp "$2" "$1"; else rm -f "$1"; fi
	fi
	if [ -f "$1" ]; then echo "$1"; else echo "$tmp/empty"; fi
}

# golden_case NAME DIR FILE BASE STATUS ARGS...: check's stdout against
# BASE.out and its stderr against BASE.err, each empty when its file is
# not there.
golden_case() {
	name=$1 dir=$2 file=$3 base=$4 want=$5
	shift 5
	run_apart "$dir" "$ctl" check "$@" "$file"
	status=$?
	cp "$tmp/stdout" "$tmp/out"
	compare "$name: stdout" "$(stream_golden "$base.out" "$tmp/stdout")" \
	    "$status" "$want"
	cp "$tmp/stderr" "$tmp/out"
	compare "$name: stderr" "$(stream_golden "$base.err" "$tmp/stderr")" \
	    "$status" "$want"
}

# confined NAME DIR FILE CMD...: CMD, run from DIR on FILE, opens FILE and
# the shared libraries (and, for sanitizers, /proc but not /proc/sys), all
# read-only, and no socket; in a coverage build, also its own *.gcda.
confined() {
	name=$1 dir=$2 file=$3
	shift 3
	if [ -z "$tracer" ]; then
		skip "$name: opens nothing else" "strace cannot trace here"
		return 0
	fi
	# A trace left by the previous case, or none at all (strace did not
	# run the command), must not pass: the loader's opens are always in a
	# real one.
	rm -f "$tmp/trace"
	(cd "$dir" && bounded strace -f -qq -o "$tmp/trace" \
	    -e trace='/^(open|openat|openat2|creat|socket|connect)$' \
	    "$@" "$file") >/dev/null 2>&1
	if ! grep -qE ' (open|openat|openat2)\(' "$tmp/trace" 2>/dev/null; then
		not_ok "$name: strace recorded no open at all"
	elif awk -v file="$file" -v base="${file##*/}" -v build="$top_builddir/" '
		# tcptuned -n: its parse helper (daemon/parse_helper.c)
		# looks up the user it becomes (getpwnam: nscd, nsswitch,
		# passwd, group) before it gives up root and confines itself.
		# Its sockets are counted against it unless it is the
		# process that went on to connect to nscd.
		/ connect\(.*"\/var\/run\/nscd\/socket"/ { nscd[$1] = 1; next }
		/ socket\(AF_UNIX, / { sock[$1] = sock[$1] $0 "\n"; next }
		/ (socket|connect)\(/ { print; bad = 1; next }
		/ (open|openat|openat2|creat)\(/ {
			if (match($0, /"[^"]*"/) == 0) { print; bad = 1; next }
			path = substr($0, RSTART + 1, RLENGTH - 2)
			# the counters of a gcc --coverage build (make coverage)
			if (path ~ /\.gcda$/ && index(path, build) == 1)
				next
			if ($0 ~ /O_WRONLY|O_RDWR|O_CREAT|creat\(/) {
				print; bad = 1; next
			}
			if (path == file || path == file ".target")
				next
			# tcptuned -n reaches the file by the trust rule
			# (lib/trust_posix.c): "/", each directory on the
			# way read-only with O_DIRECTORY, then the file by
			# its name in the last one.
			if (path == base || path == base ".target")
				next
			# the program run beside it, opened read-only by
			# the sibling rule (lib/trust_posix.c)
			if (path == "tcptune-parse" || path == "tcptunectl-full" ||
			    path ~ /^\/etc\/(nsswitch\.conf|passwd|group|localtime)$/)
				next
			if ($0 ~ /O_DIRECTORY/ && path !~ /^\/proc\/sys/)
				next
			# getpwnam through nss-systemd ("passwd: files
			# systemd", the libnss-systemd that systemd
			# recommends): its drop-in user records, read-only,
			# reached a component at a time with O_PATH
			# (nss-systemd(8), "Static drop-in JSON user/group
			# records": https://man7.org/linux/man-pages/man8/nss-systemd.8.html)
			if (path ~ /^\/(etc|run|run\/host|usr\/local\/lib|usr\/lib)\/userdb(\/|$)/ ||
			    ($0 ~ /O_PATH/ && path ~ /^(etc|run|host|usr|local|lib|userdb)$/))
				next
			if (path ~ /^\/proc\/sys(\/|$)/) { print; bad = 1; next }
			if (path ~ /^\/(etc\/ld\.so\.(cache|preload)|lib|lib64|usr\/lib|usr\/lib64|usr\/local\/lib|usr\/share\/locale|proc)(\/|$)/)
				next
			print; bad = 1
		}
		END {
			for (p in sock)
				if (!(p in nscd)) { printf "%s", sock[p]; bad = 1 }
			exit bad
		}' "$tmp/trace" >"$tmp/bad-opens"; then
		ok "$name: opens nothing but its file, no socket"
	else
		not_ok "$name: opens something else or a socket" \
		    "$(cat "$tmp/bad-opens")"
	fi
}

# generated NAME STATUS CMD...: make the case in a directory of its own,
# run CMD on it, compare its stderr then its stdout with generated/NAME.err;
# its stdout holds nothing but "configuration OK".
generated() {
	gname=$1 want=$2
	shift 2
	gdir=$tmp/gen/$gname
	gfile=$gdir/tcptune.conf
	mkdir -p "$gdir" && chmod 0755 "$gdir"
	hostile_make "$gname" "$gfile"
	run_apart "$gdir" "$@" "$gfile"
	status=$?
	cat "$tmp/stderr" "$tmp/stdout" >"$tmp/out"
	expected=$cfg/generated/$gname.err
	if [ "${TT_GOLDEN_UPDATE:-0}" = 1 ]; then
		real=$(cd "$gdir" && pwd -P)
		sed -e "s|$gfile|@CONF@|g" -e "s|$real|@DIR@|g" "$tmp/out" \
		    >"$expected"
	fi
	if [ -f "$expected" ]; then
		hostile_expected "$gname" "$gfile" >"$tmp/want"
		expected=$tmp/want
	fi
	compare "generated/$gname" "$expected" "$status" "$want"
	! grep -qvx 'configuration OK' "$tmp/stdout"
	report_ok $? "generated/$gname: findings on stderr, the report on stdout" \
	    "$(cat "$tmp/stdout")"
	confined "generated/$gname" "$gdir" "$gfile" "$@"
	hostile_undo "$gname" "$gfile"
}

# The owner and mode cases need root to chown; as anyone else they skip.
generated_root() {
	if [ "$(id -u)" -ne 0 ]; then
		skip "generated/$1" "needs root to chown"
		skip "generated/$1: findings on stderr, the report on stdout" \
		    "needs root"
		skip "generated/$1: opens nothing else" "needs root"
		return 0
	fi
	generated "$@"
}

# good/ and bad/ are Linux configs (the daemon's side, hostile_reload.sh,
# runs on Linux), checked offline against Linux's catalogue; good/NAME.os
# names another OS for one.
for f in "$cfg"/good/*.conf; do
	b=$(basename "$f" .conf)
	os=linux
	[ -f "$cfg/good/$b.os" ] && os=$(cat "$cfg/good/$b.os")
	golden_case "good/$b" "$cfg/good" "$b.conf" "$cfg/good/$b" 0 -v \
	    --platform "$os"
done
for os in darwin freebsd linux windows; do
	golden_case "etc/tcptune.conf.$os" "$top_srcdir/etc" "tcptune.conf.$os" \
	    "$cfg/shipped/tcptune.conf.$os" 0 -v --platform "$os"
done
for f in "$cfg"/bad/*.conf; do
	b=$(basename "$f" .conf)
	golden_case "bad/$b" "$cfg/bad" "$b.conf" "$cfg/bad/$b" 1 \
	    --platform linux
	confined "bad/$b" "$cfg/bad" "$b.conf" "$ctl" check --platform linux
done
for c in good:0:-v bad:1:; do
	b=${c%%:*} rest=${c#*:}
	# shellcheck disable=SC2086 # the -v, or nothing
	golden_case "managed/$b" "$cfg/managed" "$b.conf" \
	    "$cfg/managed/$b" "${rest%%:*}" ${rest#*:} --platform linux \
	    -m "$b.managed.plist"
done
# catalogue/OS-NAME.conf: what each OS's catalogue refuses, with the fix
# (.err, exit 1) or takes with a warning (.out, exit 0).
for f in "$cfg"/catalogue/*.conf; do
	b=$(basename "$f" .conf)
	if [ -f "$cfg/catalogue/$b.out" ]; then
		golden_case "catalogue/$b" "$cfg/catalogue" "$b.conf" \
		    "$cfg/catalogue/$b" 0 -v --platform "${b%%-*}"
	else
		golden_case "catalogue/$b" "$cfg/catalogue" "$b.conf" \
		    "$cfg/catalogue/$b" 1 --platform "${b%%-*}"
	fi
done
# On the running machine check asks the kernel too: here a sysctl tree
# (-r) that lacks one key of the catalogue and one outside it.
golden_case "catalogue/kernel" "$cfg/catalogue" kernel.xml \
    "$cfg/catalogue/kernel" 1 -r "$cfg/catalogue/sysroot"
# ... and names the congestion controls that kernel offers beside one it
# does not (a warning: the write may still load its module).
golden_case "catalogue/kernel-cc" "$cfg/catalogue" kernel-cc.xml \
    "$cfg/catalogue/kernel-cc" 0 -r "$cfg/catalogue/sysroot"

# check -: the config on standard input (issue 45), named "-" in its
# findings, as good/simple and bad/interval-not-integer are by their name
stdin_case() {
	sname=$1 sfile=$2 swant=$3
	shift 3
	(cd "${sfile%/*}" && bounded "$ctl" check --platform linux "$@" - \
	    <"$sfile") >"$tmp/out" 2>&1
	sstatus=$?
	(cd "${sfile%/*}" && "$ctl" check --platform linux "$@" \
	    "${sfile##*/}") 2>&1 | sed "s|^${sfile##*/}:|-:|" >"$tmp/want"
	compare "$sname" "$tmp/want" "$sstatus" "$swant"
}
stdin_case "check -: a good config" "$cfg/good/simple.conf" 0 -v
stdin_case "check -: a bad config" "$cfg/bad/interval-not-integer.conf" 1
# advise's config, written to /dev/stdout, then read by check from
# standard input: the config alone, nothing else on that stream
"$ctl" advise --platform linux --rate 1g --rtt 150ms --config /dev/stdout \
    >"$tmp/adv" 2>"$tmp/err"
astatus=$?
bounded "$ctl" check --platform linux - <"$tmp/adv" >"$tmp/out" 2>&1
cstatus=$?
[ -s "$tmp/err" ] && cat "$tmp/err" >>"$tmp/out"
printf 'configuration OK\n' >"$tmp/want"
compare "advise --config /dev/stdout, then check -" "$tmp/want" \
    "$((astatus + cstatus))" 0

# import/FILE: `tcptunectl import` prints import/FILE.out (stdout) and
# import/FILE.err (stderr), and what it prints passes check for its OS.
# Exit 1 with an .out: something was not carried over (said on stderr),
# the rest was; exit 1 without one (garbage): nothing on stdout.
import_case() {
	ifile=$1 os=$2 want=$3
	shift 3
	(cd "$cfg/import" && bounded "$ctl" import "$@" "$ifile") \
	    >"$tmp/imp.out" 2>"$tmp/out"
	istatus=$?
	if [ "${TT_GOLDEN_UPDATE:-0}" = 1 ] && [ -s "$tmp/imp.out" ]; then
		cp "$tmp/imp.out" "$cfg/import/$ifile.out"
	fi
	if [ "${TT_GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$tmp/out" "$cfg/import/$ifile.err"
	fi
	compare "import/$ifile: stderr" "$cfg/import/$ifile.err" "$istatus" \
	    "$want"
	if [ "$want" -ne 0 ] && [ ! -f "$cfg/import/$ifile.out" ]; then
		[ ! -s "$tmp/imp.out" ]
		report_ok $? "import/$ifile: nothing on stdout"
		return 0
	fi
	cp "$tmp/imp.out" "$tmp/out"
	compare "import/$ifile: stdout" "$cfg/import/$ifile.out" 0 0
	"$ctl" check --platform "$os" "$tmp/imp.out" >"$tmp/out" 2>&1
	istatus=$?
	[ "$istatus" -eq 0 ] && grep -q '^configuration OK$' "$tmp/out"
	report_ok $? "import/$ifile: the output passes check --platform $os" \
	    "$(cat "$tmp/out")"
}
report_ok() {
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi
}
import_case launchd-sh.plist darwin 0
# its maxsockbuf is clamped as the shipped macOS config clamps it (the
# mode is the import's own: the values a script set by hand, held)
reject_of() {
	"$ctl" check -v --platform darwin "$1" 2>&1 |
	    sed -n 's/.* kern\.ipc\.maxsockbuf = .*, \(on reject [a-z]*\))$/\1/p'
}
(cd "$cfg/import" && "$ctl" import launchd-sh.plist) >"$tmp/imp.conf" \
    2>/dev/null
shipped=$(reject_of "$top_srcdir/etc/tcptune.conf.darwin")
imported=$(reject_of "$tmp/imp.conf")
[ -n "$shipped" ] && [ "$imported" = "$shipped" ]
report_ok $? "import/launchd-sh.plist: maxsockbuf $shipped, as shipped" \
    "imported: $imported"
# net.inet.tcp.mssdflt is in no catalogue: carried over with check's
# warning, at its own line
import_case launchd-args.plist darwin 0
# what check warns of (a key in no catalogue, a sendspace above
# maxsockbuf) carried over with the same warning
import_case launchd-warnings.plist darwin 0
# sysctl after sudo, env, exec, a path, then, do, && and ||, carried
# over; a variable for the program, an expansion for the value and a
# wrapper not followed (nice) each said at their line
import_case launchd-wrapped.plist darwin 1
# a binary launchd plist (plutil -convert binary1) read as tcptuned reads
# a binary managed file (bplist.c); an entity refused by the config's own
# hardened reader (config.c), as in a tcptune.conf
import_case launchd-binary.plist darwin 0
import_case launchd-entity.plist darwin 1
# (its -net/ipv4/tcp_rmem, a sysctl.d "ignore a failure", is noted: the
# key is enforced)
import_case sysctl.d.conf linux 1 --platform linux
# a directory: said, with what import wants instead (issue 45: it said
# "nothing to carry over"), nothing on stdout
(cd "$cfg" && bounded "$ctl" import import) >"$tmp/imp.out" 2>"$tmp/out"
istatus=$?
[ "${TT_GOLDEN_UPDATE:-0}" = 1 ] && cp "$tmp/out" "$cfg/import/directory.err"
compare "import DIR: a directory, said" "$cfg/import/directory.err" \
    "$istatus" 1
[ ! -s "$tmp/imp.out" ]
report_ok $? "import DIR: nothing on stdout" "$(cat "$tmp/imp.out")"
# sizes with units: refused in words that do not offer "16M" as a form
# import takes, with the bytes they would be
import_case sysctl-units.conf linux 1 --platform linux
import_case netsh.cmd windows 1
# a netsh command that is not set global, and exit 0: each said, the
# rest carried over
import_case netsh-lines.cmd windows 1
# a boot script: sudo, a path, if/then/fi; sysctl -p and set -e said
import_case tune.sh linux 1 --platform linux
# import has one output, the tcptune.conf it writes: --json is refused
# where the format is chosen, as for check, with nothing on stdout (the
# first line: the synopsis after it is every usage error's)
(cd "$cfg/import" && bounded "$ctl" import --json sysctl.d.conf) \
    >"$tmp/imp.out" 2>"$tmp/all"
istatus=$?
head -n 1 "$tmp/all" >"$tmp/out"
[ "${TT_GOLDEN_UPDATE:-0}" = 1 ] && cp "$tmp/out" "$cfg/import/json.err"
compare "import --json: a usage error" "$cfg/import/json.err" "$istatus" 64
[ ! -s "$tmp/imp.out" ]
report_ok $? "import --json: nothing on stdout" "$(cat "$tmp/imp.out")"
import_case garbage.txt linux 1 --platform linux
# a Mac's sysctl.conf read without --platform on Linux: each key said,
# and the --platform that reads it
import_case sysctl-mac.conf linux 1
import_case launchd-on-windows.plist windows 1 --platform windows
import_case empty.conf linux 1 --platform linux

# usage_case DIR NAME ARGS...: tcptunectl ARGS is a usage error, exit 64,
# whose first line (the synopsis follows) is DIR/NAME.err, with nothing
# on stdout.
usage_case() {
	udir=$1 name=$2
	shift 2
	(cd "$cfg/import" && bounded "$ctl" "$@") >"$tmp/u.out" 2>"$tmp/all"
	ustatus=$?
	head -n 1 "$tmp/all" >"$tmp/out"
	[ "${TT_GOLDEN_UPDATE:-0}" = 1 ] && cp "$tmp/out" "$cfg/$udir/$name.err"
	compare "$udir/$name: a usage error" "$cfg/$udir/$name.err" \
	    "$ustatus" 64
	[ ! -s "$tmp/u.out" ]
	report_ok $? "$udir/$name: nothing on stdout" "$(cat "$tmp/u.out")"
}
# platform/: an OS --platform does not know, for check, import and
# advise: one usage error naming every OS and alias, all from the
# catalogue's one list (issue 33); and --help -v's --platform entry,
# which takes the same list.
usage_case platform check check --platform amiga sysctl.d.conf
usage_case platform import import --platform amiga sysctl.d.conf
usage_case platform advise advise --rate 1g --rtt 1 --platform win32
"$ctl" --help -v 2>&1 | sed -n '/^      --platform OS/,/^  -f, --file/p' |
    sed '$d' >"$tmp/out"
[ "${TT_GOLDEN_UPDATE:-0}" = 1 ] && cp "$tmp/out" "$cfg/platform/help.out"
compare "platform/help: --help -v names every OS" "$cfg/platform/help.out" 0 0
# usage/: an option a command does not honour is a usage error naming
# both (issue 31), as --json for import above: set, unset and help have
# no JSON (nothing is set: the error comes before the command runs)
usage_case usage set-json set --json net.ipv4.tcp_rmem=1
usage_case usage unset-json unset -j net.ipv4.tcp_rmem
usage_case usage help-json help --json tcptuned
# an unknown long option: the option meant, by the same nearest word as
# a mistyped command's (issue 45); help with neither a command nor a
# page: the one meant, the commands and pages follow on stderr
usage_case usage status-jsn status --jsn
usage_case usage help-stauts help stauts

# help_case NAME ARGS...: tcptunectl ARGS prints a command's help,
# help/NAME.out, on stdout and nothing on stderr, exit 0 (issue 45).
# The socket's default path, which configure's directories choose, is
# replaced by SOCKET.
help_case() {
	hname=$1
	shift
	(cd "$cfg/import" && bounded "$ctl" "$@") >"$tmp/h.out" 2>"$tmp/h.err"
	hstatus=$?
	sed '/^  -s, --socket PATH /{n;s|^\( *\)/.*|\1SOCKET|;}' "$tmp/h.out" \
	    >"$tmp/out"
	[ "${TT_GOLDEN_UPDATE:-0}" = 1 ] && cp "$tmp/out" "$cfg/help/$hname.out"
	compare "help/$hname: ${*}" "$cfg/help/$hname.out" "$hstatus" 0
	[ ! -s "$tmp/h.err" ]
	report_ok $? "help/$hname: nothing on stderr" "$(cat "$tmp/h.err")"
}
help_case status help status
help_case advise advise --help
help_case check check -h

tcptuned=$top_builddir/tcptuned
for c in $HOSTILE_CASES; do
	generated "$c" 1 "$ctl" check --platform linux
done
for c in $HOSTILE_ROOT_CASES; do
	generated_root "$c" 1 "$tcptuned" -P "$top_builddir/tcptune-parse" -n -f
done
generated exactly-1mib 0 "$ctl" check --platform linux
generated_root dir-sticky 0 "$tcptuned" -P "$top_builddir/tcptune-parse" -n -f

tap_end
