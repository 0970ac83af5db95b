# shellcheck shell=sh
#
# Hostile configs that cannot be kept as plain files in git: too big, a
# device, a FIFO, a symlink, a NUL byte, a foreign owner, loose modes, a
# loose directory, a 1 MB flood of attributes or namespace declarations
# (issue 41: quadratic in libxml2 2.9, refused before it by
# lib/plist_scan.c).  Sourced by tests/config/golden.sh (against
# `tcptunectl check` and `tcptuned -n`) and tests/system/hostile_reload.sh
# (against a running daemon).
#
#   hostile_make NAME FILE    make FILE the case NAME (FILE's directory may
#                             have its mode or owner changed)
#   hostile_undo NAME FILE    remove FILE and put its directory back
#                             (root's, mode 0755)
#
# The expected output of each is tests/config/generated/NAME.err, where
# @CONF@ stands for FILE and @DIR@ for the canonical path of its directory
# (see hostile_expected).
#
# HOSTILE_CASES need nothing special; HOSTILE_ROOT_CASES change owners and
# are refused only by tcptuned (CONFIG_CHECK_OWNER), so they need root;
# HOSTILE_GOOD_CASES are the limits on the other side: accepted.

# shellcheck disable=SC2034 # used by the scripts that source this
HOSTILE_CASES="big-10mib over-1mib deep-nesting nul-in-name nul-at-end
symlink-dev-zero fifo directory symlink-loop missing many-errors-huge
long-name-line attribute-flood namespace-flood version-huge"
# shellcheck disable=SC2034
HOSTILE_ROOT_CASES="owner-other group-writable world-writable
dir-world-writable dir-other-owner symlink-to-other-owner"
# shellcheck disable=SC2034
HOSTILE_GOOD_CASES="exactly-1mib dir-sticky"

# The uid and gid that own what root does not (nobody/nogroup on Debian).
HOSTILE_UID=65534

# A good config, its last line left off for the cases to finish.
hostile_head() {
	printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
	    '<plist version="1.0">' '<dict>' \
	    '	<key>CheckInterval</key>' '	<integer>60</integer>' \
	    '	<key>Sysctls</key>' '	<dict>' \
	    '		<key>net.ipv4.tcp_rmem</key>' \
	    '		<string>4096 131072 6291456</string>' \
	    '	</dict>' '</dict>'
}

hostile_good() {
	hostile_head
	printf '%s\n' '</plist>'
}

# hostile_padded SIZE: a good config of exactly SIZE bytes (a comment
# after </plist> fills it).
hostile_padded() {
	hx_n=$(hostile_good | wc -c)
	hostile_good
	printf '<!--'
	# 8 bytes: "<!--", "-->" and the newline.
	head -c $(($1 - hx_n - 8)) /dev/zero | tr '\0' x
	printf -- '-->\n'
}

# hostile_attributes PREFIX [VALUE [N]]: PREFIXaa="VALUE" to PREFIXZZZ,
# every two-letter name of [a-zA-Z] and each followed by N (52 by default)
# more letters: 143,208 attributes, 1,000,480 bytes with neither prefix
# nor value, as issue 41's 1 MB launchd plist, whose duplicate check
# costs libxml2 2.9 quadratic time (lib/plist_scan.c).
hostile_attributes() {
	awk -v pre="$1" -v val="${2:-}" -v n3="${3:-52}" 'BEGIN {
		c = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		for (i = 1; i <= 52; i++) for (j = 1; j <= 52; j++) {
			n = pre substr(c, i, 1) substr(c, j, 1)
			printf " %s=\"%s\"", n, val
			for (k = 1; k <= n3; k++)
				printf " %s%s=\"%s\"", n, substr(c, k, 1), val
		}
	}'
}

# hostile_launchd_flood: a launchd job that runs sysctl, the attributes
# on its <plist> (tcptunectl import's input).
hostile_launchd_flood() {
	printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>'
	printf '<plist version="1.0"'
	hostile_attributes ''
	printf '%s\n' '>' '<dict>' '	<key>Label</key>' \
	    '	<string>com.example.tune</string>' \
	    '	<key>ProgramArguments</key>' '	<array>' \
	    '		<string>/usr/sbin/sysctl</string>' \
	    '		<string>-w</string>' \
	    '		<string>kern.ipc.maxsockbuf=8388608</string>' \
	    '	</array>' '</dict>' '</plist>'
}

hostile_make() {
	hx_name=$1 hx_file=$2
	hx_dir=$(dirname "$hx_file")
	rm -rf "$hx_file"
	case $hx_name in
	big-10mib)
		# The size is refused before one byte is read or parsed.
		head -c 10485760 /dev/zero | tr '\0' ' ' >"$hx_file" ;;
	over-1mib | exactly-1mib)
		hx_size=1048576
		[ "$hx_name" = over-1mib ] && hx_size=1048577
		hostile_padded "$hx_size" >"$hx_file" ;;
	deep-nesting)
		# 40,000 nested <dict>s (520 kB): refused past 32 (plist_scan.c),
		# before libxml2, which would stop at 256.
		awk 'BEGIN {
			printf "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n"
			for (i = 0; i < 40000; i++) printf "<dict>"
			printf "\n"
			for (i = 0; i < 40000; i++) printf "</dict>"
			printf "\n</plist>\n"
		}' >"$hx_file" ;;
	nul-in-name)
		# A NUL would end the name in C: net.ipv4 is all a backend
		# would see.
		{
			printf '%s\n' '<?xml version="1.0"?>' \
			    '<plist version="1.0">' '<dict>' \
			    '	<key>Sysctls</key>' '	<dict>'
			printf '\t\t<key>net.ipv4\000/../../etc/passwd</key>\n'
			printf '%s\n' '		<integer>1</integer>' \
			    '	</dict>' '</dict>' '</plist>'
		} >"$hx_file" ;;
	nul-at-end)
		# A good config followed by a NUL: nothing may follow it.
		{ hostile_good; printf '\000\n'; } >"$hx_file" ;;
	symlink-dev-zero)
		ln -s /dev/zero "$hx_file" ;;
	fifo)
		mkfifo "$hx_file" ;;
	directory)
		mkdir "$hx_file" ;;
	symlink-loop)
		ln -s "$(basename "$hx_file")" "$hx_file" ;;
	missing)
		;;
	many-errors-huge)
		# 30,000 bad names (840 kB), one problem each: only the first
		# 100 are listed, then how many more there are.
		awk 'BEGIN {
			printf "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n"
			printf "<dict>\n<key>Sysctls</key>\n<dict>\n"
			for (i = 1; i <= 30000; i++)
				printf "<key>bad%d</key><true/>\n", i
			printf "</dict>\n</dict>\n</plist>\n"
		}' >"$hx_file" ;;
	long-name-line)
		# One 900 kB name on one line.
		{
			printf '%s\n' '<?xml version="1.0"?>' \
			    '<plist version="1.0">' '<dict>' \
			    '<key>Sysctls</key>' '<dict>'
			printf '<key>net.'
			head -c 921600 /dev/zero | tr '\0' a
			printf '%s\n' '</key><integer>1</integer>' \
			    '</dict>' '</dict>' '</plist>'
		} >"$hx_file" ;;
	attribute-flood)
		# A good config but for its <plist>: 143,208 attributes.
		{
			printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>'
			printf '<plist version="1.0"'
			hostile_attributes ''
			printf '>\n'
			hostile_head | sed '1,2d'
			printf '%s\n' '</plist>'
		} >"$hx_file" ;;
	namespace-flood)
		# 62,192 namespace declarations (xmlns:naa="x" to
		# xmlns:nZZv="x", 930 kB) on the <dict>: libxml2 2.9 checks
		# each against every one before.
		{
			printf '%s\n' '<?xml version="1.0"?>' \
			    '<plist version="1.0">'
			printf '<dict'
			hostile_attributes 'xmlns:n' x 22
			printf '>\n'
			hostile_head | sed '1,3d'
			printf '%s\n' '</plist>'
		} >"$hx_file" ;;
	version-huge)
		# <plist>'s one attribute, 900 kB long.
		{
			printf '%s\n' '<?xml version="1.0"?>'
			printf '<plist version="'
			head -c 921600 /dev/zero | tr '\0' 1
			printf '">\n'
			hostile_head | sed '1,2d'
			printf '%s\n' '</plist>'
		} >"$hx_file" ;;
	owner-other)
		hostile_good >"$hx_file"
		chown "$HOSTILE_UID:$HOSTILE_UID" "$hx_file" ;;
	group-writable)
		hostile_good >"$hx_file"
		chmod 0664 "$hx_file" ;;
	world-writable)
		hostile_good >"$hx_file"
		chmod 0646 "$hx_file" ;;
	dir-world-writable)
		# Anyone could rename another file over it.
		hostile_good >"$hx_file"
		chmod 0777 "$hx_dir" ;;
	dir-other-owner)
		hostile_good >"$hx_file"
		chown "$HOSTILE_UID" "$hx_dir" ;;
	dir-sticky)
		# As /tmp: only root may rename or unlink root's file here.
		hostile_good >"$hx_file"
		chmod 1777 "$hx_dir" ;;
	symlink-to-other-owner)
		# The link is root's, what it points to is not.
		hostile_good >"$hx_file.target"
		chown "$HOSTILE_UID" "$hx_file.target"
		ln -s "$(basename "$hx_file").target" "$hx_file" ;;
	*)
		echo "hostile_make: no case $hx_name" >&2
		return 1 ;;
	esac
	# Files are root's (or the caller's) and 0644 unless the case says.
	case $hx_name in
	group-writable | world-writable | owner-other | missing | \
	    symlink-* | fifo | directory) ;;
	*) chmod 0644 "$hx_file" ;;
	esac
}

hostile_undo() {
	hx_dir=$(dirname "$2")
	rm -rf "$2" "$2.target"
	case $1 in
	dir-*)
		chown 0 "$hx_dir"
		chmod 0755 "$hx_dir" ;;
	esac
}

# hostile_expected NAME FILE: the expected output for FILE, from
# generated/NAME.err with its placeholders filled in.
hostile_expected() {
	hx_dir=$(cd "$(dirname "$2")" && pwd -P)
	sed -e "s|@CONF@|$2|g" -e "s|@DIR@|$hx_dir|g" \
	    "${top_srcdir:?}/tests/config/generated/$1.err"
}
