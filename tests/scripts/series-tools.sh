#!/usr/bin/env bash
# The series tools must fail on a broken series. Each case copies the project's
# scripts and patches into a scratch checkout, breaks one thing, and expects
# the named tool to fail with the named message.
set -euo pipefail
# A command that fails outside a check ends the script under set -e; say
# where, so the step's log is never empty.
trap 'echo "FAIL: ${BASH_SOURCE[0]}:$LINENO: a command failed (exit $?)"' ERR
root=$(cd "$(dirname "$0")/../.." && pwd)
# The series of the base under test (patches/, or a next base's directory).
# shellcheck source=../../scripts/lib/base.sh
. "$root/scripts/lib/base.sh"
P=$OMPDS_PATCH_DIR
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0

scratch() {
  rm -rf "$work/p"
  mkdir -p "$work/p"
  cp -r "$root/scripts" "$root/$P" "$work/p/"
}

expect_fail() { # description, expected message, command...
  local what=$1 msg=$2
  shift 2
  local out
  if out=$(cd "$work/p" && OMPDS_BUILD="$work/p/build" "$@" 2>&1); then
    echo "FAIL: $what: '$*' succeeded"
    fails=$((fails + 1))
  elif ! grep -q -- "$msg" <<<"$out"; then
    echo "FAIL: $what: '$*' failed without saying '$msg':"
    echo "$out" | sed 's/^/    /'
    fails=$((fails + 1))
  else
    echo "ok: $what"
  fi
}

# The first patch of the series. (Not `sed | head -1`: under pipefail, head
# exiting first makes sed die of SIGPIPE once the listing is over a pipe
# buffer, and set -e then ends this script without a word.)
first=$(awk '{ sub(/#.*/, "") } NF { print $1; exit }' "$root/$P/series")

scratch
sed -i '/^Upstream-Status:/d' "$work/p/$P/$first"
expect_fail "missing Upstream-Status" "Upstream-Status" scripts/lint-series --no-format

scratch
cp "$work/p/$P/$first" "$work/p/$P/Stray.patch"
expect_fail "unlisted patch file" "not listed in $P/series" scripts/lint-series --no-format

scratch
mv "$work/p/$P/$first" "$work/p/$P/renamed.patch"
sed -i "s/^$first\$/renamed.patch/" "$work/p/$P/series"
expect_fail "file name not derived from the subject" "must derive from its subject" scripts/lint-series --no-format

scratch
python3 - "$work/p/$P/$first" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
# Drop the explanation: keep the subject and the trailer only.
head, _, rest = s.partition("\n\n")
status = re.search(r"^Upstream-Status: .*$", rest, re.M).group(0)
diff = rest[re.search(r"^diff --git ", rest, re.M).start():]
open(p, "w").write(head + "\n\nShort.\n\n" + status + "\n\n" + diff)
PY
expect_fail "no explanation of why" "must say why" scripts/lint-series --no-format

scratch
python3 - "$work/p/$P/$first" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
cur = ""
for i, l in enumerate(lines):
    if l.startswith("diff --git "):
        cur = l
    elif cur.endswith(".cpp") and l.startswith("+") and not l.startswith("+++") and "(" in l:
        lines[i] = l.replace("(", " ( ", 1)
        break
open(p, "w").write("\n".join(lines))
PY
if grep -q '^diff --git .*\.cpp$' "$work/p/$P/$first"; then
  expect_fail "added lines not clang-format clean" "not clang-format clean" scripts/lint-series
fi

scratch
sed -i 's/^ \(.*\)$/ \1 broken-context/' "$work/p/$P/$first"
expect_fail "patch that no longer applies" "does not apply" scripts/check-series pristine

scratch
# A hand edit that git am still accepts but that export would not produce.
sed -i '0,/^Date: .*/s//Date: Thu, 1 Jan 2099 00:00:00 +0000/' "$work/p/$P/$first"
printf '\n' >>"$work/p/$P/$first"
expect_fail "patch file that does not round-trip" "differs from its export" scripts/export-patches --check

scratch
# A stack heading that an export left below the stack's patches (a series
# with stacks; the 0.3.x one has none).
if [ "$(grep -c '^# stack ' "$work/p/$P/series")" -ge 3 ]; then
python3 - "$work/p/$P/series" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
heads = [i for i, l in enumerate(lines) if l.startswith("# stack ")]
h = lines.pop(heads[1])
lines.insert(heads[2] - 1, h)
open(p, "w").write("\n".join(lines))
PY
expect_fail "empty stack" "has no patches" scripts/lint-series --no-format
fi

scratch
# A work tree stopped inside an interactive rebase: its HEAD is inside the
# series, so an export would drop the patches after it.
mkdir -p "$work/p/build/work/.git/rebase-merge"
expect_fail "export during a rebase" "a rebase is in progress" scripts/export-patches

scratch
expect_fail "DeviceRTL option that is not one" "is not NAME=VALUE" \
  env OMPDS_DEVICERTL_OPTIONS="GLOBAL_POOL_SIZE=1" scripts/build --mode full --dry-run
# expect_dry_run_arg DESCRIPTION OPTIONS ARG: a full-mode dry run with
# OMPDS_DEVICERTL_OPTIONS=OPTIONS passes ARG to CMake. (The output is captured
# first: `grep -q` in a pipeline under pipefail fails whenever it stops
# reading before the writer is done.)
expect_dry_run_arg() {
  local dry
  dry=$(cd "$work/p" && OMPDS_BUILD="$work/p/build" OMPDS_DEVICERTL_OPTIONS="$2" \
    scripts/build --mode full --dry-run 2>&1) || true
  if grep -q -- "$3" <<<"$dry"; then
    echo "ok: $1"
  else
    echo "FAIL: $1: no $3 in the CMake command"
    fails=$((fails + 1))
  fi
}
expect_dry_run_arg "DeviceRTL options reach CMake" \
  "LIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE=8388608" \
  "-DLIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE=8388608"
# Without OMPDS_DEVICERTL_OPTIONS the toolchain still sets its own defaults
# (the 4 MiB global pool, which the patched DeviceRTL leaves off).
expect_dry_run_arg "the toolchain's DeviceRTL defaults reach CMake" "" \
  "-DLIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE=4194304"

[ "$fails" = 0 ] || { echo "FAIL: $fails series-tool checks"; exit 1; }
echo "PASS: series tools reject broken series"
