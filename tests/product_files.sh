# shellcheck shell=bash
#
# product_files MAKEFILE_AM: the .c files of the programs' _SOURCES (and
# CTL_FULL_SOURCES, which both tcptunectl programs take), one a line,
# sorted.  The one list of product files the lints of tests/lint/ count
# (design_files.sh, os_names.sh); sourced.
# product_headers MAKEFILE_AM: the .h files of the same lists, the same
# way (design_files.sh).
product_sources() {
	awk -v ext="$2" '
	/^(lib_libtcptune_a|tcptuned|tcptune_parse|tcptunectl|tcptunectl_full)_SOURCES[ \t]*\+?=/ ||
	    /^CTL_FULL_SOURCES[ \t]*\+?=/ { in_list = 1 }
	in_list {
		for (i = 1; i <= NF; i++)
			if ($i ~ ("\\." ext "$"))
				print $i
		if ($0 !~ /\\$/)
			in_list = 0
	}' "$1" | LC_ALL=C sort -u
}
product_files() { product_sources "$1" c; }
product_headers() { product_sources "$1" h; }
