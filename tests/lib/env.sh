# Shared settings for the end-to-end tests. Sourced, not executed.
# shellcheck shell=bash
OMPDS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OMPDS_BUILD=${OMPDS_BUILD:-$OMPDS_ROOT/build}
TC=${OMPDS_TOOLCHAIN:-$OMPDS_BUILD/toolchain}
SRC=${OMPDS_SRC:-$OMPDS_BUILD/overlay/src}
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$PTXAS" ] || PTXAS=
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$TC/bin/clang" ] || fail "no toolchain at $TC; run scripts/build first"
