#!/bin/bash
# The commit messages of new commits keep docs/HACKING.md's rule
# ("Commits"): a subject of at most 72 characters, no ';' in it (two
# changes joined are two commits), in the form "area: what changed"
# (the file or the area first) or an imperative sentence ("Merge branch
# 'x'").  New means after BASE, main's head when the rule became a test
# (issue 44): the commits before it are history and are not rewritten.
# Merge commits are checked too, git's own "Merge branch" passing as an
# imperative.
#
# Skipped where there is no .git in the source tree (the distcheck
# tarball, the copies scripts/sanitize.sh and coverage.sh build from)
# or no git.  A shallow clone that does not reach BASE checks the
# commits it has that are younger than BASE (its commit time, BASE_TIME,
# below), so a fresh clone of any depth passes or fails as the full
# history would.  Speaks TAP.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"

# shellcheck source-path=SCRIPTDIR source=../tap.sh
. "$top_srcdir/tests/tap.sh"

BASE=385217fac52b1da9deebfcab6512a48a30887475
BASE_TIME=1796542530		# its committer time, for a shallow clone
MAX=72

# subject_problem SUBJECT: why the subject breaks the rule; nothing when
# it keeps it.
subject_problem() {
	local s=$1 first
	if [ "${#s}" -gt "$MAX" ]; then
		echo "${#s} characters, at most $MAX"
		return
	fi
	case $s in
	*';'*)
		echo "a ';' joins two changes: make them two commits"
		return ;;
	esac
	# area: what changed (the area one to three words, no sentence)
	if printf '%s\n' "$s" |
	    grep -Eq '^[A-Za-z0-9_.,/*{}+@-]+( [A-Za-z0-9_.,/*{}+@-]+){0,2}: [^ ]'; then
		return
	fi
	# an imperative: a capitalised verb, not "Added", "Adding", "Adds"
	first=${s%% *}
	if [ "$first" != "$s" ] && printf '%s\n' "$first" |
	    grep -Eq '^[A-Z][a-z]+$' && ! printf '%s\n' "$first" |
	    grep -Eq '(ed|ing|[^s]s)$'; then
		return
	fi
	echo "not \"area: what changed\" nor an imperative (\"Fix ...\")"
}

[ -e "$top_srcdir/.git" ] || skip_all "no .git here (a tarball): no commits to check"
command -v git >/dev/null 2>&1 || skip_all "git is missing"
# The tree may be another user's (root runs the suite on a checkout).
git() { command git -c safe.directory='*' -C "$top_srcdir" "$@"; }
git rev-parse -q --verify HEAD >/dev/null 2>&1 ||
    skip_all "git cannot read this checkout: $(git rev-parse HEAD 2>&1 | head -n 1)"

# The check itself, on made-up subjects.
bad=0
for s in "control.c: take in the log limit" "tests/unit: name each test" \
    "make coverage: exit 0" "Merge branch 'h-tidy'" "Fix the build" \
    "Revert \"util.c: one edit distance\"" "$(printf 'x.c: %067d' 0)"; do
	[ -z "$(subject_problem "$s")" ] || { bad=1; diag "refused: $s"; }
done
for s in "control.c: a; b" "$(printf 'x.c: %068d' 0)" "fixed the build" \
    "Added a test" "Fixes the build" "wip" "this and that and more: words"; do
	[ -n "$(subject_problem "$s")" ] || { bad=1; diag "taken: $s"; }
done
[ "$bad" -eq 0 ]
report $? "the check refuses long subjects, a ';', and other forms, and only those"

if git cat-file -e "$BASE^{commit}" 2>/dev/null; then
	range=("$BASE..HEAD")
	from="since ${BASE:0:7}"
else
	range=(--since="@$((BASE_TIME + 1))" HEAD)
	from="younger than ${BASE:0:7} (a shallow clone without it)"
fi
commits=$(git rev-list "${range[@]}") || bail "git rev-list ${range[*]} failed"
n=0
for c in $commits; do
	n=$((n + 1))
	subject=$(git log -1 --format=%s "$c")
	why=$(subject_problem "$subject")
	[ -z "$why" ]
	report $? "${c:0:7} $subject" "$why"
done
[ "$n" -gt 0 ] || ok "no commit $from: nothing to check"
diag "$n commits $from"
tap_end
