# Shared settings for the end-to-end tests. Sourced, not executed.
# shellcheck shell=bash
OMPDS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# The series' base: OMPDS_DEB_LLVM, OMPDS_TOOL_SUFFIX, ...
# shellcheck source=../../scripts/lib/base.sh
. "$OMPDS_ROOT/scripts/lib/base.sh"
OMPDS_BUILD=${OMPDS_BUILD:-$OMPDS_ROOT/build}
TC=${OMPDS_TOOLCHAIN:-$OMPDS_BUILD/toolchain}
SRC=${OMPDS_SRC:-$OMPDS_BUILD/overlay/src}
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$PTXAS" ] || PTXAS=
fail() { echo "FAIL: $*" >&2; exit 1; }

# o0_device_link_flag: the link flag that asks for an -O0 device link (the
# opt-out of the optimizing -O0 link): the linker wrapper's --opt-level up to
# LLVM 19, its --device-compiler= from LLVM 20 on (the last -O wins).
o0_device_link_flag() {
  if "$TC/bin/clang-linker-wrapper" --help 2>&1 | grep -q -- '--opt-level'; then
    echo "-Wl,--opt-level=O0"
  else
    echo "-Wl,--device-compiler=-O0"
  fi
}

# lto_ptx DIR: the PTX that the NVPTX device link of an -save-temps build in
# DIR wrote for sm_90 (its name differs between LLVM versions:
# prog.nvptx64-nvidia-cuda.sm_90.s, prog.nvptx64.sm_90.s).
lto_ptx() {
  local f
  for f in "$1"/prog.nvptx64-nvidia-cuda.sm_90.s "$1"/prog.nvptx64.sm_90.s; do
    [ -f "$f" ] && { echo "$f"; return 0; }
  done
  echo "$1/prog.nvptx64-nvidia-cuda.sm_90.s"
}
[ -x "$TC/bin/clang" ] || fail "no toolchain at $TC; run scripts/build first"
# amdgpu_lds DIR KERNEL-REGEX: prints the group_segment_fixed_size (static LDS
# bytes) of the first kernel whose name matches KERNEL-REGEX in the gfx90a
# image that -save-temps left in DIR (nothing when there is none).
amdgpu_lds() {
  "$TC/bin/llvm-readelf" --notes "$1"/prog.*gfx90a*.img >"$1/notes" || return 1
  awk -v k="$2" '/\.group_segment_fixed_size:/ { g = $2 }
    /\.name:/ && $2 ~ k && !done { print g; done = 1 }' "$1/notes"
}
# devicertl_configure BUILD-DIR CMAKE-ARGS...: configures the patched DeviceRTL
# on its own, for sm_90 and with the toolchain's tools (tests of its build
# options; build with `ninja -C BUILD-DIR omptarget-nvptx-sm_90-bc`).
devicertl_configure() {
  local dir=$1
  shift
  cmake -G Ninja -S "$OMPDS_ROOT/scripts/cmake/devicertl" -B "$dir" \
    -DOMPDS_SOURCE_DIR="$SRC" -DOMPDS_LLVM_INCLUDE_DIR="$OMPDS_DEB_LLVM/include" \
    -DCMAKE_C_COMPILER="clang$OMPDS_TOOL_SUFFIX" -DCMAKE_CXX_COMPILER="clang++$OMPDS_TOOL_SUFFIX" \
    -DLIBOMPTARGET_DEVICE_ARCHITECTURES=sm_90 \
    -DCLANG_TOOL="$TC/bin/clang" -DLINK_TOOL="$TC/bin/llvm-link" \
    -DOPT_TOOL="$TC/bin/opt" -DPACKAGER_TOOL="$TC/bin/clang-offload-packager" "$@"
}
# offload_build DIR ARCH SOURCE CLANG-FLAGS...: builds SOURCE for the host and
# ARCH with -O0 into DIR/prog (-save-temps, the compiler's output in DIR/log)
# and checks that it prints PASS on the host fallback; fails with the log.
offload_build() {
  local d=$1 arch=$2 src=$3
  shift 3
  mkdir -p "$d"
  (cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch="$arch" -O0 \
    "$@" "$src" -o prog -save-temps) >"$d/log" 2>&1 ||
    { cat "$d/log" >&2; fail "$(basename "$d"): build failed"; }
  (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep -q "PASS" ||
    fail "$(basename "$d"): does not print PASS on the host fallback"
}
