#!/usr/bin/env bash
# The Group Policy template (packaging/windows/tcptune.admx and
# en-US/tcptune.adml): both well formed (xmllint); the ADMX schema's
# structure checked with XPath, since Microsoft's PolicyDefinitionFiles.xsd
# is not published in any package here: the document elements and their
# namespace, every policy a Machine policy under
# SOFTWARE\Policies\tcptune naming the registry value each element writes,
# every string and presentation it refers to present in the ADML, each
# presentation control bound to an element of its policy.  Then what
# tcptuned reads: CheckInterval as a decimal within the config's bounds
# (lib/tcptune.h), and an enum for each writable Windows key under
# Sysctls whose values are tcptuned's (lib/catalogue.c, lib/backend_win.c)
# and pass tcptunectl check.  The checker is shown to fail on broken copies.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

ADMX=$top_srcdir/packaging/windows/tcptune.admx
ADML=$top_srcdir/packaging/windows/en-US/tcptune.adml
NS=http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions
command -v xmllint >/dev/null 2>&1 ||
    skip_all "xmllint not installed (libxml2-utils, scripts/deps.sh test)"

T=$(mktemp -d "${TMPDIR:-/tmp}/tcptune-admx.XXXXXX") || bail "mktemp failed"
trap 'rm -rf "$T"' EXIT

# x FILE XPATH: the XPath's string value ("" for none).
x() { xmllint --xpath "$2" "$1" 2>/dev/null; }
el() { printf "*[local-name()='%s']" "$1"; }
POL="/$(el policyDefinitions)/$(el policies)/$(el policy)"

# One policy's problems, one a line (nothing when it is good).
check_policy() {
	local admx=$1 adml=$2 i=$3 p name key pres ids id
	p="($POL)[$i]"
	name=$(x "$admx" "string($p/@name)")
	key=$(x "$admx" "string($p/@key)")
	pres=$(x "$admx" "string($p/@presentation)")
	pres=${pres#\$(presentation.}
	pres=${pres%)}
	[ "$(x "$admx" "string($p/@class)")" = Machine ] ||
	    echo "$name: class is not Machine (tcptuned reads HKLM only)"
	case $key in
	'SOFTWARE\Policies\tcptune' | 'SOFTWARE\Policies\tcptune\Sysctls') ;;
	*) printf '%s\n' "$name: key '$key' is not under SOFTWARE\\Policies\\tcptune" ;;
	esac
	[ "$(x "$admx" "count($p/$(el parentCategory))")" = 1 ] ||
	    echo "$name: no parentCategory"
	[ "$(x "$admx" "count($p/$(el supportedOn))")" = 1 ] ||
	    echo "$name: no supportedOn"
	ids=$(x "$admx" "$p/$(el elements)/*/@id" | sed 's/^ *id="\(.*\)"$/\1/')
	[ -n "$ids" ] || echo "$name: no elements"
	for id in $ids; do
		[ -n "$(x "$admx" "string($p/$(el elements)/*[@id='$id']/@valueName)")" ] ||
		    echo "$name: element $id names no registry value"
		[ "$(x "$adml" "count(//$(el presentation)[@id='$pres']/*[@refId='$id'])")" != 0 ] ||
		    echo "$name: element $id has no control in presentation $pres"
	done
}

# Every $(string.X) and $(presentation.X) of the ADMX defined in the ADML.
check_refs() {
	local admx=$1 adml=$2 ref kind id
	# shellcheck disable=SC2016 # a literal $( of the template
	grep -o '\$([a-z]*\.[A-Za-z0-9_]*)' "$admx" | sort -u | while read -r ref; do
		kind=${ref#\$(}; kind=${kind%%.*}
		id=${ref#*.}; id=${id%)}
		[ "$(x "$adml" "count(//$(el "$kind")[@id='$id'])")" = 1 ] ||
		    echo "$ref is not defined (once) in the ADML"
	done
}

# Every problem of a template, one a line; nothing when it is good.
check_template() {
	local admx=$1 adml=$2 n i
	xmllint --noout "$admx" 2>&1 || { echo "$admx: not well formed"; return; }
	xmllint --noout "$adml" 2>&1 || { echo "$adml: not well formed"; return; }
	[ "$(x "$admx" "namespace-uri(/*)")" = "$NS" ] &&
	    [ "$(x "$admx" "local-name(/*)")" = policyDefinitions ] ||
	    echo "the ADMX is not a policyDefinitions document of $NS"
	[ "$(x "$adml" "namespace-uri(/*)")" = "$NS" ] &&
	    [ "$(x "$adml" "local-name(/*)")" = policyDefinitionResources ] ||
	    echo "the ADML is not a policyDefinitionResources document of $NS"
	for f in "$admx" "$adml"; do
		[ -n "$(x "$f" "string(/*/@revision)")" ] &&
		    [ "$(x "$f" "string(/*/@schemaVersion)")" = 1.0 ] ||
		    echo "$f: revision or schemaVersion 1.0 missing"
	done
	[ -n "$(x "$admx" "string(/*/$(el policyNamespaces)/$(el target)/@namespace)")" ] ||
	    echo "the ADMX has no target namespace"
	n=$(x "$admx" "count($POL)")
	[ "${n:-0}" -gt 0 ] || echo "the ADMX has no policy"
	for i in $(seq 1 "${n:-0}"); do
		check_policy "$admx" "$adml" "$i"
	done
	check_refs "$admx" "$adml"
}

check_template "$ADMX" "$ADML" >"$T/problems"
report $? "check_template ran" &&
    check_eq "the ADMX and ADML are well formed and keep the schema's structure" \
    "" "$(cat "$T/problems")"

# ---- what tcptuned reads
CI="${POL}[@name='CheckInterval']/$(el elements)/$(el decimal)"
hmin=$(sed -n 's/^#define TT_CHECK_MIN[[:space:]]*\([0-9]*\).*/\1/p' "$top_srcdir/lib/tcptune.h")
hmax=$(sed -n 's/^#define TT_CHECK_MAX[[:space:]]*\([0-9]*\).*/\1/p' "$top_srcdir/lib/tcptune.h")
check_eq "CheckInterval: a decimal, REG_DWORD CheckInterval in SOFTWARE\\Policies\\tcptune, $hmin to $hmax" \
    "SOFTWARE\\Policies\\tcptune CheckInterval $hmin $hmax" \
    "$(x "$ADMX" "string(${POL}[@name='CheckInterval']/@key)") $(x "$ADMX" "string($CI/@valueName)") $(x "$ADMX" "string($CI/@minValue)") $(x "$ADMX" "string($CI/@maxValue)")"

# The words of a NULL-ended table FILE:NAME of lib/, one a line: the
# catalogue's (lib/catalogue.c owns every Windows key's words, which
# lib/backend_win.c takes from its win_keys[] rows).
backend_table() {
	awk -v t="${1#*:}" '$0 ~ "^static const char \\*const " t "\\[\\]" { on = 1 }
	    on { print } on && /NULL/ { exit }' "$top_srcdir/lib/${1%%:*}" |
	    grep -o '"[a-z]*"' | tr -d '"'
}
# An enum's string values for a registry value, one a line.
enum_values() {
	x "$ADMX" "${POL}[@key='SOFTWARE\\Policies\\tcptune\\Sysctls']/$(el elements)/$(el enum)[@valueName='$1']//$(el string)" |
	    sed 's/<[^>]*>/\n/g' | sed '/^$/d'
}
for pair in tcp.autotuninglevel:catalogue.c:win_levels \
    offload.rss:catalogue.c:win_onoff; do
	key=${pair%%:*}
	want=$(backend_table "${pair#*:}" | sort)
	got=$(enum_values "$key" | sort)
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "$key: an enum in Sysctls with the values tcptuned takes ($(echo "$got" | tr '\n' ' '))"
	else
		not_ok "$key: an enum in Sysctls with the values tcptuned takes" \
		    "backend: $(echo "$want" | tr '\n' ' ')" \
		    "   ADMX: $(echo "$got" | tr '\n' ' ')"
	fi
done

# Each value a policy can write is one a config may hold.
CTL=$top_builddir/tcptunectl
if [ -x "$CTL" ]; then
	bad=""
	for key in tcp.autotuninglevel offload.rss; do
		for v in $(enum_values "$key"); do
			printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
			    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict><key>$key</key><string>$v</string></dict></dict></plist>" \
			    >"$T/v.conf"
			"$CTL" check --platform windows "$T/v.conf" >/dev/null 2>&1 || bad="$bad $key=$v"
		done
	done
	check_eq "every value the template can write passes tcptunectl check" "" "$bad"
else
	skip "every value the template can write passes tcptunectl check" \
	    "no $CTL built"
fi

# ---- the checker fails when it should
broken() {	# DESC SED-EXPRESSION FILE(admx|adml)
	local desc=$1 expr=$2 which=$3
	cp "$ADMX" "$T/b.admx"
	cp "$ADML" "$T/b.adml"
	sed -i "$expr" "$T/b.$which"
	if [ -n "$(check_template "$T/b.admx" "$T/b.adml")" ]; then
		ok "the check finds $desc"
	else
		not_ok "the check finds $desc" "it passed a copy changed by: $expr"
	fi
}
broken "an element without its registry value" \
    's/ valueName="tcp.autotuninglevel"//' admx
broken "a policy writing outside SOFTWARE\\Policies\\tcptune" \
    's/key="SOFTWARE\\Policies\\tcptune\\Sysctls"/key="SOFTWARE\\Contoso"/' admx
broken "a string missing from the ADML" 's/<string id="AutoTuningLevel_Help">/<string id="Other">/' adml
broken "a control bound to no element" 's/refId="ReceiveSideScaling"/refId="Rss"/' adml
broken "a user policy" '0,/class="Machine"/s//class="User"/' admx
broken "a file that is not well formed" 's|</policies>||' admx

tap_end
