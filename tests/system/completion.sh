#!/bin/bash
# System test: the shell completions (etc/completion/) in bash, zsh and
# fish, each sourced in its shell and asked, as a user's TAB asks, for a
# command, an option of one command (and not another's), a config key of
# this OS and of --platform's, --platform's OS and a help page.  And the
# words they offer are the program's own: tcptunectl --complete lists
# the commands and options --help -v shows, and each OS's keys.  The
# shells are in scripts/deps.sh's test set: a missing one fails.  Needs
# no root and no daemon.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

COMP=$top_srcdir/etc/completion
# the completions run "tcptunectl" as typed: this build's
PATH=$(cd "$top_builddir" && pwd):$PATH
export PATH
command -v tcptunectl >/dev/null 2>&1 || bail "no tcptunectl in $top_builddir"

# has LIST WORD: WORD is one of LIST's lines.
has() {
	printf '%s\n' "$1" | grep -qxF -- "$2"
}

# ---- the words are the program's own

help_cmds=$(tcptunectl --help -v | sed -n '/^Commands:$/,/^$/s/^  \([a-z][a-z]*\).*/\1/p')
comp_cmds=$(tcptunectl --complete commands | cut -f1)
[ -n "$comp_cmds" ] && [ "$help_cmds" = "$comp_cmds" ]
report $? "--complete commands: the commands of --help -v" \
    "help: $(echo "$help_cmds" | tr '\n' ' ')" \
    "complete: $(echo "$comp_cmds" | tr '\n' ' ')"
# option_labels: the long options a help's option list defines
option_labels() {
	sed -n 's/^  \(-[a-zA-Z], \|    \)\(--[a-z][a-z-]*\).*/\2/p' | sort -u
}
help_opts=$(tcptunectl --help -v | sed -n '/^Options/,/^$/p' | option_labels)
comp_opts=$(tcptunectl --complete options | cut -f1 | sort -u)
[ -n "$comp_opts" ] && [ "$help_opts" = "$comp_opts" ]
report $? "--complete options: the options of --help -v" \
    "help: $(echo "$help_opts" | tr '\n' ' ')" \
    "complete: $(echo "$comp_opts" | tr '\n' ' ')"
# per command: the options "help COMMAND" lists
bad=''
for c in $comp_cmds; do
	h=$(tcptunectl help "$c" | sed -n '/^Options:$/,/^$/p' | option_labels)
	o=$(tcptunectl --complete options "$c" | cut -f1 | sort -u)
	[ "$h" = "$o" ] || bad="$bad $c"
done
[ -z "$bad" ]
report $? "--complete options COMMAND: the options help COMMAND lists" \
    "differ for:$bad"
linux=$(tcptunectl --complete keys linux | cut -f1)
mac=$(tcptunectl --complete keys macos | cut -f1)
has "$linux" net.ipv4.tcp_rmem && ! has "$linux" kern.ipc.maxsockbuf &&
    has "$mac" kern.ipc.maxsockbuf && ! has "$mac" net.ipv4.tcp_rmem
report $? "--complete keys OS: that OS's keys only" \
    "linux: $(echo "$linux" | tr '\n' ' ' | head -c 300)" \
    "macos: $(echo "$mac" | tr '\n' ' ' | head -c 300)"
# every key listed is one check takes for that OS
bad=''
for k in $linux; do
	case $k in *.) continue ;; esac	# a family, no key itself
	printf '<plist><dict><key>Sysctls</key><dict><key>%s</key><integer>1</integer></dict></dict></plist>\n' \
	    "$k" >"${TMPDIR:-/tmp}/completion.$$.conf"
	tcptunectl check --platform linux "${TMPDIR:-/tmp}/completion.$$.conf" 2>&1 |
	    grep -qi 'unknown\|not a linux\|is a .* key' && bad="$bad $k"
done
rm -f "${TMPDIR:-/tmp}/completion.$$.conf"
[ -z "$bad" ]
report $? "each key --complete lists for linux is a Linux key to check" \
    "refused as unknown:$bad"
tcptunectl --complete frobs >/dev/null 2>&1
[ $? -eq 64 ]
report $? "--complete with an unknown list: a usage error (64)"

# ---- bash: COMP_WORDS and COMP_CWORD set, the function called

# bash_complete WORD...: what _tcptunectl offers for the last WORD.
bash_complete() {
	bash --norc --noprofile -c '
	    . "$1"; shift
	    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
	    _tcptunectl; printf "%s\n" "${COMPREPLY[@]}"' \
	    bash "$COMP/tcptunectl" "$@" 2>&1
}
command -v bash >/dev/null || bail "bash not found (scripts/deps.sh test)"
out=$(bash_complete tcptunectl st)
[ "$out" = status ]
report $? "bash: tcptunectl st<TAB> is status" "$out"
out=$(bash_complete tcptunectl check --pl)
out2=$(bash_complete tcptunectl status --pl)
[ "$out" = --platform ] && [ -z "$out2" ]
report $? "bash: check --pl<TAB> is --platform, status --pl<TAB> nothing" \
    "check: $out" "status: $out2"
out=$(bash_complete tcptunectl set net.ipv4.tcp_rm)
[ "$out" = net.ipv4.tcp_rmem= ]
report $? "bash: set net.ipv4.tcp_rm<TAB> is the key, with =" "$out"
# the VALUE of KEY=VALUE (COMP_WORDBREAKS splits at '='): no key again
out=$(bash_complete tcptunectl set net.ipv4.tcp_rmem = '')
[ -z "$out" ]
report $? "bash: set net.ipv4.tcp_rmem=<TAB> offers no key" "$out"
out=$(bash_complete tcptunectl advise --platform macos --set kern.ipc.maxs)
[ "$out" = kern.ipc.maxsockbuf= ]
report $? "bash: advise --platform macos --set: macOS's keys" "$out"
out=$(bash_complete tcptunectl check --platform ma)
has "$out" macos
report $? "bash: --platform ma<TAB> offers macos" "$out"
out=$(bash_complete tcptunectl help tcptune.c)
out2=$(bash_complete tcptunectl help adv)
[ "$out" = tcptune.conf ] && [ "$out2" = advise ]
report $? "bash: help offers the manual pages and the commands" \
    "$out" "$out2"

# bash-completion's loader, as a login shell runs it, finds the file
# where make install puts it ($(datadir)/bash-completion/completions)
loader=/usr/share/bash-completion/bash_completion
[ -r "$loader" ] || bail "no $loader (bash-completion, scripts/deps.sh test)"
share=$(mktemp -d "${TMPDIR:-/tmp}/completion.XXXXXX") || bail "mktemp failed"
trap 'rm -rf "$share"' EXIT
mkdir -p "$share/bash-completion/completions"
cp "$COMP/tcptunectl" "$share/bash-completion/completions/"
out=$(XDG_DATA_DIRS=$share bash --norc --noprofile -c '
    . "$1"; __load_completion tcptunectl; complete -p tcptunectl' \
    bash "$loader" 2>&1)
[ "$out" = "complete -F _tcptunectl tcptunectl" ]
report $? "bash-completion loads it from DATADIR/bash-completion/completions" "$out"

# ---- zsh: compinit finds it; compadd stands in to print what it gets

command -v zsh >/dev/null || bail "zsh not found (scripts/deps.sh test)"
# whatever a shell would keep (a compinit dump, fish's variables) goes
# into the test's directory: -D keeps compinit from dumping at all, as a
# dump file -d names is replaced whole (-d /dev/null replaced /dev/null)
HOME=$share XDG_CONFIG_HOME=$share/config XDG_DATA_HOME=$share/data \
    XDG_CACHE_HOME=$share/cache ZDOTDIR=$share
export HOME XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME ZDOTDIR
# zsh_complete WORD...: what _tcptunectl hands compadd for the last WORD
# (filtered by the word as compadd's PREFIX is).
zsh_complete() {
	zsh -f -c '
	    fpath=("$1" $fpath); shift
	    autoload -U compinit; compinit -u -D
	    [[ $_comps[tcptunectl] == _tcptunectl ]] || { print "no compdef"; exit 1; }
	    compadd() {
	        local suffix= w
	        while (( $# )); do
	            case $1 in
	            --) shift; break ;;
	            -S) suffix=$2; shift 2 ;;
	            -[dJXPpsiIWFxVMrR]) shift 2 ;;
	            *) shift ;;
	            esac
	        done
	        for w in "$@"; do [[ $w == ${PREFIX}* ]] && print -r -- "$w$suffix"; done
	        return 0
	    }
	    compset() { [[ $1 == -P ]] && PREFIX=${PREFIX#*=}; }
	    _files() { :; }
	    _message() { :; }
	    words=("$@"); CURRENT=$#; PREFIX=${words[-1]}
	    autoload -U _tcptunectl; _tcptunectl' zsh "$COMP" "$@" 2>&1 \
	    </dev/null
}
out=$(zsh_complete tcptunectl st)
[ "$out" = status ]
report $? "zsh: tcptunectl st<TAB> is status (compinit registers it)" "$out"
out=$(zsh_complete tcptunectl check --pl)
out2=$(zsh_complete tcptunectl status --pl)
[ "$out" = --platform ] && [ -z "$out2" ]
report $? "zsh: check --pl<TAB> is --platform, status --pl<TAB> nothing" \
    "check: $out" "status: $out2"
out=$(zsh_complete tcptunectl set net.ipv4.tcp_rm)
[ "$out" = net.ipv4.tcp_rmem= ]
report $? "zsh: set net.ipv4.tcp_rm<TAB> is the key, with =" "$out"
out=$(zsh_complete tcptunectl advise --platform=macos --set kern.ipc.maxs)
[ "$out" = kern.ipc.maxsockbuf= ]
report $? "zsh: advise --platform=macos --set: macOS's keys" "$out"
out=$(zsh_complete tcptunectl help tcptune.c)
[ "$out" = tcptune.conf ]
report $? "zsh: help offers the manual pages" "$out"

# ---- fish: complete -C, as fish's own TAB does

command -v fish >/dev/null || bail "fish not found (scripts/deps.sh test)"
# fish_complete LINE: the words fish offers at the end of LINE.
fish_complete() {
	# shellcheck disable=SC2016 # fish's $argv, expanded by fish
	fish --no-config -c 'source $argv[1]; complete -C$argv[2]' \
	    "$COMP/tcptunectl.fish" "$1" 2>&1 | cut -f1
}
out=$(fish_complete "tcptunectl st")
[ "$out" = status ]
report $? "fish: tcptunectl st<TAB> is status" "$out"
# (fish offers fuzzy matches when no word begins with the token: the
# options status takes are compared whole)
out=$(fish_complete "tcptunectl check --pl")
out2=$(fish_complete "tcptunectl status --")
[ "$out" = --platform ] && has "$out2" --short && ! has "$out2" --platform
report $? "fish: check --pl<TAB> is --platform, status --<TAB> has --short, not it" \
    "check: $out" "status: $out2"
out=$(fish_complete "tcptunectl set net.ipv4.tcp_rm")
[ "$out" = net.ipv4.tcp_rmem= ]
report $? "fish: set net.ipv4.tcp_rm<TAB> is the key, with =" "$out"
out=$(fish_complete "tcptunectl set net.ipv4.tcp_rmem=")
[ -z "$out" ]
report $? "fish: set net.ipv4.tcp_rmem=<TAB> offers no key" "$out"
out=$(fish_complete "tcptunectl advise --platform macos --set kern.ipc.maxs")
[ "$out" = kern.ipc.maxsockbuf= ]
report $? "fish: advise --platform macos --set: macOS's keys" "$out"
out=$(fish_complete "tcptunectl help tcptune.c")
[ "$out" = tcptune.conf ]
report $? "fish: help offers the manual pages" "$out"

tap_end
