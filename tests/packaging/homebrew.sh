#!/usr/bin/env bash
# The Homebrew formula (packaging/homebrew/tcptune.rb): ruby -c accepts it;
# loaded under a stand-in for Homebrew's DSL (brew_stub.rb) it builds from
# the release tarball of this version with the .pkg's paths, installs
# tcptunectl and its pages but never tcptuned, and its caveats send the
# root daemon to the .pkg; release.sh points it at a tarball with that
# tarball's SHA-256.  Needs ruby (scripts/deps.sh test) and jq; no root.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

FORMULA=$top_srcdir/packaging/homebrew/tcptune.rb
RELEASE=$top_srcdir/packaging/homebrew/release.sh
command -v ruby >/dev/null 2>&1 ||
    skip_all "ruby not installed (Debian package ruby, scripts/deps.sh test)"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

T=$(mktemp -d "${TMPDIR:-/tmp}/tcptune-brew.XXXXXX") || bail "mktemp failed"
trap 'rm -rf "$T"' EXIT

check "ruby -c accepts the formula" ruby -c "$FORMULA"

# The formula as Homebrew would see it, or nothing.
ruby "$top_srcdir/tests/packaging/brew_stub.rb" "$FORMULA" Tcptune \
    >"$T/brew.json" 2>"$T/brew.err"
rc=$?
if [ "$rc" -eq 0 ] && jq -e . "$T/brew.json" >/dev/null 2>&1; then
	ok "the formula loads and its install runs under the DSL stand-in"
else
	not_ok "the formula loads and its install runs under the DSL stand-in" \
	    "exit $rc" "$(cat "$T/brew.err")"
fi
j() { jq -r "$1" "$T/brew.json" 2>/dev/null; }

version=$(sed -n 's/^AC_INIT(\[tcptune\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
url=$(j .fields.url)
if [ "$(j .fields.version)" = "$version" ] &&
    [ "${url##*/}" = "tcptune-$version.tar.gz" ]; then
	ok "version $version and url .../tcptune-$version.tar.gz, as make dist names it"
else
	not_ok "version and url follow configure.ac ($version)" \
	    "version $(j .fields.version), url $url"
fi
sha=$(j .fields.sha256)
case $sha in
*[!0-9a-f]*) not_ok "sha256 is 64 hex digits" "$sha" ;;
*) [ ${#sha} -eq 64 ] && ok "sha256 is 64 hex digits" ||
    not_ok "sha256 is 64 hex digits" "$sha" ;;
esac

# Built from the tarball as shipped (configure is in it): no autoreconf.
first=$(j '.system[0][0]')
if [ "$first" = ./configure ] && ! j '.system[][]' | grep -q autoreconf; then
	ok "it runs the tarball's ./configure, no autoreconf"
else
	not_ok "it runs the tarball's ./configure, no autoreconf" "$(j -c .system)"
fi
# The .pkg daemon's paths, so the tool finds its socket and config.
missing=
for flag in --sysconfdir=/etc --localstatedir=/var --with-statedir=/var/db/tcptune; do
	grep -qF -- "$flag" "$top_srcdir/packaging/macos/build-pkg.sh" ||
	    missing="$missing $flag(not in build-pkg.sh)"
	j '.system[0][]' | grep -qxF -- "$flag" || missing="$missing $flag"
done
if [ -z "$missing" ]; then
	ok "configure gets the same paths as the .pkg's build (build-pkg.sh)"
else
	not_ok "configure gets the same paths as the .pkg's build" "missing:$missing"
fi

installed=$(j '.install[] | .[0] + " " + (.[1:] | join(" "))')
if [ "$(j '[.install[] | select(.[0] == "bin")] | .[0][1:] | join(" ")')" = tcptunectl ] &&
    ! printf '%s\n' "$installed" | tr ' ' '\n' | sed 's|.*/||' | grep -qx tcptuned &&
    ! printf '%s\n' "$installed" | grep -q '^sbin'; then
	ok "it installs tcptunectl and never tcptuned or anything in sbin"
else
	not_ok "it installs tcptunectl and never tcptuned or anything in sbin" "$installed"
fi
# The program is what `make tcptunectl` builds; every other file must
# come in the tarball as it is.
missing=
while read -r _ file; do
	[ "$file" = tcptunectl ] && continue
	[ -e "$top_srcdir/$file" ] || missing="$missing $file"
done < <(printf '%s\n' "$installed")
if [ -z "$missing" ] && [ "$(j '.system[1] | join(" ")')" = "make tcptunectl" ]; then
	ok "it builds tcptunectl; every other file it installs is in the source tree"
else
	not_ok "it builds tcptunectl; every other file it installs is in the source tree" \
	    "missing:$missing" "build: $(j -c '.system[1]')"
fi

caveats=$(j .caveats)
if printf '%s' "$caveats" | grep -qF .pkg && printf '%s' "$caveats" | grep -qF root &&
    printf '%s' "$caveats" | grep -qF /opt/homebrew; then
	ok "caveats: the root daemon comes from the .pkg, not the user-writable prefix"
else
	not_ok "caveats send the root daemon to the .pkg" "$caveats"
fi
[ "$(j .fields.test)" = true ]
if [ $? -eq 0 ]; then ok "it has a test block"; else not_ok "it has a test block"; fi
# The license of the sources (LICENSE), by its SPDX name.
if [ "$(j .fields.license)" = ISC ] && grep -q '^Permission to use, copy, modify, and distribute' \
    "$top_srcdir/LICENSE"; then
	ok "license \"ISC\", the license LICENSE states"
else
	not_ok "license \"ISC\", the license LICENSE states" "license: $(j .fields.license)"
fi

# ---- release.sh

cp "$FORMULA" "$T/f.rb"
printf 'not really a tarball\n' >"$T/tcptune-9.8.7.tar.gz"
want=$(sha256sum "$T/tcptune-9.8.7.tar.gz" | cut -d' ' -f1)
check "release.sh fills a formula for a tarball" \
    sh "$RELEASE" "$T/tcptune-9.8.7.tar.gz" \
    https://example.org/r/tcptune-9.8.7.tar.gz "$T/f.rb"
ruby "$top_srcdir/tests/packaging/brew_stub.rb" "$T/f.rb" Tcptune >"$T/r.json" 2>&1
got=$(jq -r '[.fields.version, .fields.url, .fields.sha256] | join(" ")' "$T/r.json" 2>/dev/null)
if [ "$got" = "9.8.7 https://example.org/r/tcptune-9.8.7.tar.gz $want" ]; then
	ok "release.sh: version, url and the tarball's sha256 written"
else
	not_ok "release.sh: version, url and the tarball's sha256 written" "got '$got'" \
	    "want '9.8.7 https://example.org/r/tcptune-9.8.7.tar.gz $want'"
fi
check "release.sh: the formula it wrote passes ruby -c" ruby -c "$T/f.rb"
cp "$T/f.rb" "$T/before.rb"
if sh "$RELEASE" "$T/tcptune-9.8.7.tar.gz" https://example.org/other.tar.gz \
    "$T/f.rb" >"$T/bad.out" 2>&1; then
	not_ok "release.sh refuses a URL that is not .../tcptune-VERSION.tar.gz"
elif cmp -s "$T/f.rb" "$T/before.rb"; then
	ok "release.sh refuses a URL that is not .../tcptune-VERSION.tar.gz, formula untouched"
else
	not_ok "release.sh left the formula changed after refusing"
fi

tap_end
