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
# amdgpu_lds DIR KERNEL-REGEX: prints the group_segment_fixed_size (static LDS
# bytes) of the first kernel whose name matches KERNEL-REGEX in the gfx90a
# image that -save-temps left in DIR (nothing when there is none).
amdgpu_lds() {
  "$TC/bin/llvm-readelf" --notes "$1"/prog.*gfx90a*.img >"$1/notes" || return 1
  awk -v k="$2" '/\.group_segment_fixed_size:/ { g = $2 }
    /\.name:/ && $2 ~ k && !done { print g; done = 1 }' "$1/notes"
}
