#!/bin/sh
# release.sh TARBALL URL [FORMULA]: point the Homebrew formula at a
# release: TARBALL is what `make dist` made (tcptune-VERSION.tar.gz), URL
# where it is published.  Writes url, version and sha256 into FORMULA
# (default: tcptune.rb beside this script) and checks it with ruby -c.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 TARBALL URL [FORMULA]" >&2; exit 64; }
tarball=$1 url=$2
formula=${3:-$(dirname "$0")/tcptune.rb}
name=$(basename "$tarball")
case $name in
tcptune-*.tar.gz) version=${name#tcptune-}; version=${version%.tar.gz} ;;
*) echo "release.sh: $name is not tcptune-VERSION.tar.gz" >&2; exit 1 ;;
esac
case $url in
https://*/"$name") ;;
*) echo "release.sh: URL must be https://.../$name" >&2; exit 1 ;;
esac
if command -v sha256sum >/dev/null 2>&1; then
	sum=$(sha256sum "$tarball" | cut -d' ' -f1)
else
	sum=$(shasum -a 256 "$tarball" | cut -d' ' -f1)
fi
tmp=$formula.tmp.$$
sed -e "s|^  url \".*\"\$|  url \"$url\"|" \
    -e "s|^  version \".*\"\$|  version \"$version\"|" \
    -e "s|^  sha256 \".*\"\$|  sha256 \"$sum\"|" "$formula" >"$tmp"
if command -v ruby >/dev/null 2>&1 && ! ruby -c "$tmp" >/dev/null; then
	rm -f "$tmp"
	exit 1
fi
mv "$tmp" "$formula"
echo "$formula: tcptune $version, sha256 $sum"
