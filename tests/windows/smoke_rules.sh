#!/usr/bin/env bash
# packaging/windows/smoke.ps1 against the rules of Windows PowerShell 5.1
# and of tcptuned, read as text.  Speaks TAP.  Run by
# scripts/test-windows.sh; needs only bash, grep and sed:
#   bash tests/windows/smoke_rules.sh
#
# No PowerShell here, so this parses nothing as PowerShell does.  What it
# checks, line by line:
#   keys     the test config Apply writes holds only keys tcptuned writes
#            (the read-only ones, qos.tcpautotuninglevel, offload.rsc,
#            tcp.timestamps, tcp.congestionprovider.*, are refused by
#            check_managed without AllowAnySysctl, and the reload fails)
#   stderr   every line that merges a native program's stderr (2>&1)
#            sits in a function that sets $ErrorActionPreference to
#            'Continue' first: under 'Stop', 5.1 throws at the first
#            stderr line (PowerShell 7.1 changed this); the 2>&1 of the
#            command line runas hands to cmd is cmd's, not PowerShell's
#   runas    runas's command line quotes with \" (what CommandLineToArgvW
#            unescapes), never "" (which 5.1 passes as is)
#   filter   no Where-Object { $_.Prop } truth test: a property whose
#            value is 0 (AutoTuningLevelLocal Disabled) is false
# Not checked: that the script parses at all, what the cmdlets return,
# the quoting PowerShell finally hands to runas, anything at run time.
# PowerShell's $ and backticks are matched, not expanded:
# shellcheck disable=SC2016
set -u

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$here/../..}"
top_srcdir=$(cd "$top_srcdir" && pwd)
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"

ps1=${SMOKE_PS1:-$top_srcdir/packaging/windows/smoke.ps1}
[ -r "$ps1" ] || bail "no $ps1"

# ---- keys: those Apply puts in the config
# The keys tcptuned writes on Windows: the rows of lib/catalogue.c's
# win_keys marked true (backend_win.c refuses every other with EROFS).
writable=$(sed -n '/^static const struct cat_win_key win_keys/,/^};/p' \
    "$top_srcdir/lib/catalogue.c" |
    sed -n 's/^[[:space:]]*{ "\([a-z.]*\)", [a-z_A-Z]*, true },$/\1/p')
[ -n "$writable" ] || bail "no writable Windows key found in lib/catalogue.c"
keys=$(sed -n '/^function Apply/,/^}/p' "$ps1" |
    grep -o '<key>[a-z.]*</key>' | sed 's/<[^>]*>//g' | grep -v '^CheckInterval$')
bad=$(printf '%s\n' "$keys" | grep -vxF "$writable")
if [ -n "$keys" ] && [ -z "$bad" ]; then
	ok "keys: Apply writes only keys tcptuned writes ($(printf '%s\n' "$keys" | tr '\n' ' '))"
else
	not_ok "keys: Apply writes a read-only key, which tcptuned refuses" \
	    "read-only: ${bad:-none}; keys: ${keys:-none found}"
fi

# ---- stderr: 2>&1 only where errors do not stop the script
# Each function's lines, as "NAME<TAB>LINE", for the lines with 2>&1.
merged=$(awk '
	/^function [A-Za-z]+/ { fn = $2; cont = 0 }
	fn != "" && /\$ErrorActionPreference *= *.Continue./ { cont = 1 }
	/2>&1/ && !/^ *#/ && !/runas/ && !/cmdline *=/ {
		print (fn == "" ? "(top level)" : fn) "\t" cont "\t" $0
	}
	/^}/ || (fn != "" && /^function .*\}$/) { fn = ""; cont = 0 }
' "$ps1")
unsafe=$(printf '%s\n' "$merged" | awk -F '\t' '$2 == 0 && NF > 1')
if [ -n "$merged" ] && [ -z "$unsafe" ]; then
	ok "stderr: each 2>&1 is under ErrorActionPreference Continue"
else
	not_ok "stderr: a 2>&1 under ErrorActionPreference Stop throws on 5.1" \
	    "${unsafe:-no 2>&1 found}"
fi

# ---- runas: \" inside its command line, never ""
runas=$(grep -n 'runas' "$ps1" | grep -v '^[0-9]*: *#')
if [ -n "$runas" ] && ! printf '%s\n' "$runas" | grep -q '`"`"\|""' &&
    printf '%s\n' "$runas$(grep -n 'cmdline *=' "$ps1")" | grep -q '\\"'; then
	ok "runas: quotes inside its command line are \\\""
else
	not_ok "runas: quoted with \"\" (5.1 does not escape it; runas needs \\\")" \
	    "${runas:-no runas line}"
fi

# ---- filter: no truth test of a property
if grep -nE 'Where-Object *\{ *\$_\.[A-Za-z]+ *\}' "$ps1" >/dev/null; then
	not_ok "filter: Where-Object { \$_.Prop } drops a property of 0 (Disabled)" \
	    "$(grep -nE 'Where-Object *\{ *\$_\.[A-Za-z]+ *\}' "$ps1")"
else
	ok "filter: no Where-Object truth test of a property"
fi

tap_end
