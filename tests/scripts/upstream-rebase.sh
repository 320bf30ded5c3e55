#!/usr/bin/env bash
# scripts/upstream-export, scripts/upstream-status and scripts/rebase-series on
# scratch copies (the project's scripts and patches are copied, the cached
# bases are only read):
#  - export patch 1 onto the base of a sparse scratch clone (apply-patches
#    --sparse, checked out at ompds-base): a branch with one commit, no
#    Upstream-Status trailer, the PR description written, its lit tests pass
#    against the toolchain (skipped without one);
#  - upstream-export --stacks onto the same base: one branch per stack that
#    has posted patches, chained, every non-Inappropriate patch once, no
#    trailer, a PR description per patch and the index;
#  - upstream-status 'Submitted [url]' with a work tree and without one: the
#    series still lints and round-trips (export-patches --check);
#  - rebase-series onto the pristine base: every patch clean;
#  - rebase-series onto a copy of the base with a line a patch changes edited:
#    that patch conflicts, the file is named, --continue refuses until it is
#    resolved, and after resolving the rebase completes.
set -euo pipefail
# A command that fails outside a check ends the script under set -e; say
# where, so the step's log is never empty.
trap 'echo "FAIL: ${BASH_SOURCE[0]}:$LINENO: a command failed (exit $?)"' ERR
root=$(cd "$(dirname "$0")/../.." && pwd)
TC=${OMPDS_TOOLCHAIN:-${OMPDS_BUILD:-$root/build}/toolchain}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

p=$work/p
mkdir -p "$p"
export OMPDS_BUILD=$work/build
# The series of the base under test: OMPDS_PATCH_DIR.
# shellcheck source=../../scripts/lib/base.sh
. "$root/scripts/lib/base.sh"
cp -r "$root/scripts" "$root/$OMPDS_PATCH_DIR" "$p/"
pd=$OMPDS_PATCH_DIR
cd "$p"
pristine=$(scripts/get-source pristine 2>/dev/null | tail -1)
[ -f "$pristine/llvm/CMakeLists.txt" ] || fail "scripts/get-source pristine did not give a base"

# --- upstream-export --------------------------------------------------------------
lit=(--include llvm/utils/lit --include llvm/test/lit.cfg.py --include llvm/test/lit.site.cfg.py.in
  --include clang/test/lit.cfg.py --include clang/test/lit.site.cfg.py.in)
for f in $(cd "$pristine" && find llvm/test clang/test -maxdepth 3 -name lit.local.cfg | sort); do
  lit+=(--include "$f")
done
scripts/apply-patches --sparse --worktree "$work/x" "${lit[@]}" >/dev/null 2>&1 ||
  fail "scripts/apply-patches --sparse failed"
# The scratch clones commit as a test identity: git refuses to commit on a
# host without one (no user.email and a host name without a domain, as on a
# fresh CI machine), and upstream-export then stops and says how to set one.
ident() { git -C "$1" config user.name "ompds test" && git -C "$1" config user.email test@ompds.invalid; }
cp -a "$work/x" "$work/clone"
git -C "$work/clone" checkout -q ompds-base
out=$(env -u GIT_COMMITTER_NAME -u GIT_COMMITTER_EMAIL -u GIT_AUTHOR_NAME -u GIT_AUTHOR_EMAIL -u EMAIL \
  HOME="$work" XDG_CONFIG_HOME="$work" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_COUNT=1 \
  GIT_CONFIG_KEY_0=user.useConfigOnly GIT_CONFIG_VALUE_0=true \
  scripts/upstream-export 1 --repo "$work/clone" --no-tests 2>&1) &&
  fail "upstream-export ran without a git identity"
grep -q "git has no identity in .*config user.email" <<<"$out" ||
  fail "upstream-export without a git identity did not say how to set one: $out"
ident "$work/clone"
if [ -x "$TC/bin/clang" ]; then tests=(--bin "$TC/bin"); else tests=(--no-tests); fi
out=$(scripts/upstream-export 1 --repo "$work/clone" "${tests[@]}" 2>&1) ||
  fail "upstream-export 1 failed:
$out"
# The first patch of the series. (Not `sed | head -1`: under pipefail, head
# exiting first makes sed die of SIGPIPE once the listing is over a pipe
# buffer, and set -e then ends this script without a word.)
first=$(awk '{ sub(/#.*/, "") } NF { print $1; exit }' $pd/series)
branch="ompds/${first%.patch}"
[ "$(git -C "$work/clone" rev-parse --abbrev-ref HEAD)" = "$branch" ] || fail "not on branch $branch"
[ "$(git -C "$work/clone" rev-list --count ompds-base..HEAD)" = 1 ] || fail "not one commit on ompds-base"
git -C "$work/clone" log -1 --format=%B | grep >/dev/null '^Upstream-Status:' && fail "the commit keeps Upstream-Status"
desc=$(sed -n 's/^description: *//p' <<<"$out")
subject=$(git -C "$work/clone" log -1 --format=%s)
if [ ! -f "$desc" ] || [ "$(head -1 "$desc")" != "$subject" ]; then
  fail "no PR description starting with the subject ($desc)"
fi
grep -q '^Upstream-Status' "$desc" && fail "the PR description has the trailer"
grep -q "^lit: .*pass\|^lit: .*no test\|^lit: .*skipped" <<<"$out" || fail "no lit result:
$out"
ok "upstream-export 1 onto ompds-base: branch, trailer dropped, description, lit ($(sed -n 's/^lit: *//p' <<<"$out"))"
out=$(scripts/upstream-export 1 --repo "$work/clone" --no-tests 2>&1) && fail "a second export onto the same branch succeeded"
grep -q "exists" <<<"$out" || fail "second export did not say the branch exists: $out"
ok "upstream-export refuses an existing branch"

# --- upstream-export --stacks ------------------------------------------------------
cp -a "$work/x" "$work/clone2"
git -C "$work/clone2" checkout -q ompds-base
ident "$work/clone2"
out=$(scripts/upstream-export --stacks --repo "$work/clone2" 2>&1) ||
  fail "upstream-export --stacks failed:
$out"
nstacks=$(grep -c '^# stack ' $pd/series)
posted=$(grep -L '^Upstream-Status: Inappropriate' $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e "s|^|$pd/|" $pd/series) | wc -l)
last=$(git -C "$work/clone2" for-each-ref --format='%(refname:short)' 'refs/heads/ompds/stack-*' | sort -t- -k2 -n | tail -1)
[ "$(git -C "$work/clone2" rev-list --count "ompds-base..$last")" = "$posted" ] ||
  fail "the last stack branch $last does not hold the $posted posted patches"
git -C "$work/clone2" log --format=%B "ompds-base..$last" | grep >/dev/null '^Upstream-Status:' &&
  fail "a stack commit keeps Upstream-Status"
ndesc=$(find "$work/build/upstream/stacks" -name '[0-9][0-9]-*.md' | wc -l)
[ "$ndesc" = "$posted" ] || fail "$ndesc PR descriptions for $posted posted patches"
[ -f "$work/build/upstream/stacks/README.md" ] || fail "no stack index"
stacks_made=$(git -C "$work/clone2" for-each-ref 'refs/heads/ompds/stack-*' | wc -l)
ok "upstream-export --stacks: $stacks_made of $nstacks stacks as chained branches, $posted commits, one PR description each, index"
list=$(scripts/upstream-export --stacks --list) || fail "--stacks --list failed"
grep -q '^1\. ' <<<"$list" || fail "--stacks --list printed no stack"

# --- upstream-status --------------------------------------------------------------
second=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' $pd/series | sed -n 2p)
[ -n "$second" ] || second=$first
# Lint and the round trip must pass afterwards wherever they passed before (a
# series being worked on may not lint yet; that is not upstream-status's doing).
lint_ok=0; scripts/lint-series --no-format >/dev/null 2>&1 || lint_ok=1
lints=", lints"
[ "$lint_ok" = 0 ] || { lints=""; echo "note: the series does not lint before upstream-status; lint is not compared"; }
scripts/apply-patches --sparse >/dev/null 2>&1 || fail "apply-patches (work tree) failed"
scripts/upstream-status "$second" 'Submitted [https://github.com/llvm/llvm-project/pull/1]' >/dev/null ||
  fail "upstream-status with a work tree failed"
grep -q '^Upstream-Status: Submitted \[https://github.com/llvm/llvm-project/pull/1\]$' "$pd/$second" ||
  fail "the status line was not rewritten"
[ "$lint_ok" = 1 ] || scripts/lint-series --no-format >/dev/null || fail "lint-series fails after upstream-status"
scripts/export-patches --check >/dev/null || fail "export-patches --check (work tree) fails after upstream-status"
rm -rf "$OMPDS_BUILD/work"
scripts/upstream-status "$second" 'Backport [0123456789abcdef]' >/dev/null || fail "upstream-status without a work tree failed"
scripts/export-patches --check >/dev/null || fail "export-patches --check (round trip) fails after upstream-status"
[ "$lint_ok" = 1 ] || scripts/lint-series --no-format >/dev/null || fail "lint-series fails after upstream-status (no work tree)"
scripts/upstream-status "$second" 'Sent [x]' >/dev/null 2>&1 && fail "an invalid status was accepted"
ok "upstream-status: rewritten with and without a work tree; round trip passes$lints; bad status refused"

# --- rebase-series ----------------------------------------------------------------
out=$(scripts/rebase-series --onto "$pristine" --worktree "$work/r1" 2>&1) || fail "rebase onto the pristine base failed:
$out"
n=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' $pd/series | wc -l)
[ "$(grep -cE '^ +[0-9]+ .* clean$' <<<"$out")" = "$n" ] || fail "not every patch is clean on the pinned base:
$out"
ok "rebase-series onto the pristine base: $n clean"

# A base where one line that a patch removes or changes is edited.
read -r file line < <(python3 - "$pristine" <<'PY'
import os, re, sys
sys.path.insert(0, "scripts/lib")
import series
base = sys.argv[1]
_, names = series.read_series()
for n in names:
    text = open(os.path.join(series.PATCHES, n)).read()
    for d in re.split(r"^diff --git ", text, flags=re.M)[1:]:
        path = d.split(" b/", 1)[0][2:]
        f = os.path.join(base, path)
        if not os.path.isfile(f):
            continue
        lines = open(f).read().split("\n")
        for l in d.split("\n"):
            if l.startswith("-") and not l.startswith("---") and len(l.strip()) > 8 \
                    and lines.count(l[1:]) == 1:
                print(path, lines.index(l[1:]) + 1)
                sys.exit(0)
sys.exit("no patch changes an existing line")
PY
) || fail "found no line of the base that a patch changes"
mkdir -p "$work/nb"
python3 - "$pristine" "$work/nb" <<'PY'
import os, shutil, sys
sys.path.insert(0, "scripts/lib")
import series
base, out = sys.argv[1:]
_, names = series.read_series()
for rel in series.series_touched_files(names) + ["llvm/CMakeLists.txt", "cmake/Modules/LLVMVersion.cmake"]:
    if os.path.isfile(os.path.join(base, rel)):
        os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
        shutil.copy(os.path.join(base, rel), os.path.join(out, rel))
PY
sed -i "${line}s/\$/ \/\/ edited upstream/" "$work/nb/$file"
out=$(scripts/rebase-series --onto "$work/nb" --worktree "$work/r2" 2>&1) && fail "rebase onto the edited base succeeded:
$out"
grep -q "conflicting: .*$file" <<<"$out" || fail "the conflict in $file was not reported:
$out"
git -C "$work/r2" diff --name-only --diff-filter=U | grep -x >/dev/null "$file" || fail "$file is not left unmerged in the work tree"
scripts/rebase-series --continue --worktree "$work/r2" >/dev/null 2>&1 && fail "--continue succeeded with $file unresolved"
ok "rebase-series onto a base with $file:$line edited: conflicting, $file left unmerged, --continue refuses"
git -C "$work/r2" checkout -q --theirs -- "$file"
git -C "$work/r2" add "$file"
out=$(scripts/rebase-series --continue --worktree "$work/r2" 2>&1) || fail "--continue after resolving failed:
$out"
[ "$(git -C "$work/r2" rev-list --count ompds-base..rebase)" = "$n" ] || fail "the rebased branch does not have $n commits"
scripts/export-patches --worktree "$work/r2" >/dev/null || fail "export-patches from the rebased work tree failed"
[ "$lint_ok" = 1 ] || scripts/lint-series --no-format >/dev/null || fail "the exported rebased series does not lint"
ok "resolved, --continue: $n patches on the new base, exported$lints"
echo "PASS: upstream export/status and rebase-series"
