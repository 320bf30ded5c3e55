#!/usr/bin/env bash
# scripts/base.conf names the series' base in one place. Nothing else in the
# scripts, tests, benchmarks or CI definitions may spell out what follows from
# it: Debian's packages, tools and paths of that LLVM (clang-<major>,
# llvm-<major>-dev, /usr/lib/llvm-<major>, lib/clang/<major>), its library
# versions (libomptarget.so.<major>.<minor>), its tag or source package. They
# come from scripts/lib/base.sh and scripts/lib/base.py. Documentation and
# recorded results may name versions. The pattern is checked on a line that
# has such a name first, so that this test can fail.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib/base.sh
. "$root/scripts/lib/base.sh"
M=$OMPDS_LLVM_MAJOR
S=${OMPDS_LLVM_SOVERSION//./\\.}
V=${OMPDS_LLVM_VERSION//./\\.}
re="((llvm|clang|lld|libomp|libclang|clang-format|clang-tools|libclang-rt)(\+\+)?-$M([^0-9.]|$))"
re+="|(/llvm-$M([^0-9]|$))|(/clang/$M([^0-9]|$))|(\.so\.$S([^0-9]|$))"
re+="|(llvmorg-$V)|(llvm-toolchain-$M([^0-9]|$))|(1:$V-)"

echo "clang++-$M and /usr/lib/llvm-$M/lib/libLLVM.so.$OMPDS_LLVM_SOVERSION" | grep -E "$re" >/dev/null ||
  { echo "FAIL: the pattern does not find the base's names"; exit 1; }

cd "$root"
hits=$(git ls-files --cached --others --exclude-standard scripts tests benchmarks ci .ci 2>/dev/null |
  grep -v -e '\.md$' -e '^benchmarks/results/' -e '^scripts/base\.conf$' -e '^scripts/bases/' |
  xargs -r grep -nE "$re" -- 2>/dev/null || true)
if [ -n "$hits" ]; then
  echo "$hits"
  echo "FAIL: the lines above repeat the base that scripts/base.conf defines;"
  echo "use scripts/lib/base.sh (OMPDS_DEB_LLVM, OMPDS_TOOL_SUFFIX, ...) or base.py"
  exit 1
fi
echo "the base is named only in scripts/base.conf"

# Another base beside it (scripts/bases/*.conf): its values and derived names
# reach the scripts, and it must come with its own caches and build.
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
sed -e 's/^OMPDS_LLVM_VERSION=.*/OMPDS_LLVM_VERSION=42.3.1/' scripts/base.conf >"$t/next.conf"
got=$(OMPDS_BASE_CONF=$t/next.conf OMPDS_CACHE=$t/c OMPDS_BUILD=$t/b bash -c \
  '. scripts/lib/base.sh; echo "$OMPDS_LLVM_MAJOR $OMPDS_LLVM_SOVERSION $OMPDS_DEB_LLVM $OMPDS_TOOL_SUFFIX"')
[ "$got" = "42 42.3 /usr/lib/llvm-42 -42" ] || { echo "FAIL: base.sh with another base gives '$got'"; exit 1; }
got=$(OMPDS_BASE_CONF=$t/next.conf OMPDS_CACHE=$t/c OMPDS_BUILD=$t/b python3 -c \
  'import sys; sys.path.insert(0, "scripts/lib"); import base; print(base.MAJOR, base.SOVERSION, base.DEB_LLVM, base.SUFFIX)')
[ "$got" = "42 42.3 /usr/lib/llvm-42 -42" ] || { echo "FAIL: base.py with another base gives '$got'"; exit 1; }
for cmd in "bash scripts/get-source debian" "python3 scripts/lib/overlay.py --help"; do
  if out=$(env -u OMPDS_CACHE -u OMPDS_BUILD OMPDS_BASE_CONF=$t/next.conf $cmd 2>&1); then
    echo "FAIL: '$cmd' accepted another base without its own OMPDS_CACHE and OMPDS_BUILD"; exit 1
  fi
  [[ $out == *"needs its own OMPDS_CACHE and OMPDS_BUILD"* ]] ||
    { echo "FAIL: '$cmd' with another base and shared caches says: $out"; exit 1; }
done
echo "another base (OMPDS_BASE_CONF) is honoured and kept apart"
