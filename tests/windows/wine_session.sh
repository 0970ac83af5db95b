# shellcheck shell=bash
#
# wine_session_start: the Wine session the tests under tests/windows run
# in (sourced by wine.sh and msi.sh; WINEPREFIX made by the caller).
# Prints the process id of the keep-alive process, which the caller ends.
# Returns 1 when the wineserver or Wine's services do not come up.
# winpath FILE: the Z: path Wine gives a Unix file.
#
# The server first, holding none of our descriptors: started by one of
# the wine commands below, it would keep that command's output pipe open
# for its whole life, and the reader of the pipe would wait forever for
# an end of file (seen: the first config golden hung).
# Wine ends its services when the last ordinary process ends: one stays
# up for the whole run.  The first wine process starts the prefix's
# services (services.exe, explorer.exe, ...), which keep its standard
# error: so they are started here, with /dev/null, and waited for, before
# any wine command whose output is piped.
wine_session_start() {
	local i=0 keepalive
	wineserver -p </dev/null >/dev/null 2>&1
	until pgrep -f wineserver >/dev/null 2>&1; do
		i=$((i + 1))
		[ "$i" -le $((${TT_WAIT_LIMIT:-120} * 5)) ] || return 1
		sleep 0.2
	done
	wine cmd /c 'ping -n 3600 127.0.0.1 >nul' </dev/null >/dev/null 2>&1 &
	keepalive=$!
	timeout 120 wine cmd /c exit </dev/null >/dev/null 2>&1
	i=0
	until pgrep -f 'services\.exe' >/dev/null 2>&1; do
		i=$((i + 1))
		[ "$i" -le $((${TT_WAIT_LIMIT:-120} * 5)) ] || { kill "$keepalive"; return 1; }
		sleep 0.2
	done
	echo "$keepalive"
}

winpath() { printf 'Z:%s' "$1" | tr / '\134'; }
