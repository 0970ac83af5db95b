# shellcheck shell=sh
#
# fuzz_seeds NAME TOP_SRCDIR: the seed inputs of harness NAME, one path a
# line.  The config reader's seeds are the config test files themselves
# (tests/config/good and bad, every form and every error the parser knows)
# and the shipped configs, read where they are rather than from a copy that
# drifts from them; the protocol and value seeds are fuzz/corpus/NAME
# (fuzz/mkcorpus.py writes them).  Sourced by fuzz/run.sh, fuzz/regress.sh
# and scripts/valgrind.sh.
fuzz_seeds() {
	case $1 in
	config)
		for f in "$2"/tests/config/good/*.conf \
		    "$2"/tests/config/bad/*.conf "$2"/etc/tcptune.conf.*; do
			[ -f "$f" ] && printf '%s\n' "$f"
		done
		;;
	*)
		for f in "$2/fuzz/corpus/$1"/*; do
			[ -f "$f" ] && printf '%s\n' "$f"
		done
		;;
	esac
	return 0
}
