#!/bin/sh
# scripts/man2txt.sh PAGE [MANDOC]: a manual page as plain text, the one
# rendering every copy of the pages outside man(1) is made from: the
# pages built into tcptunectl (scripts/man2c.sh), the text files the
# Windows installer ships (packaging/windows/build-msi.sh), and the tests
# that compare them (tests/lint/man.sh, tests/windows/wine.sh).  mandoc's
# ASCII output at 78 columns with its overstrikes ("c\bc" bold, "_\bc"
# underline) reduced to the plain character; spaces stay spaces.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 PAGE [MANDOC]" >&2
	exit 64
fi
bs=$(printf '\b')
"${2:-mandoc}" -T ascii -O width=78 "$1" | sed "s/.$bs//g"
