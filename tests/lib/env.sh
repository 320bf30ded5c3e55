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

# keep_for_gpu DIR NAME: with OMPDS_GPU_KEEP set (tests/gpu/build-held), keeps
# the NVIDIA program DIR/prog as $OMPDS_GPU_KEEP/NAME, to be run on a GPU
# later (tests/gpu/run-held); here the tests only reach the host fallback.
keep_for_gpu() {
  [ -n "${OMPDS_GPU_KEEP:-}" ] || return 0
  mkdir -p "$OMPDS_GPU_KEEP"
  cp "$1/prog" "$OMPDS_GPU_KEEP/$2"
}

# o0_device_link_flag: the link flag that asks for an -O0 device link (the
# opt-out of the optimizing -O0 link): the linker wrapper's --opt-level up to
# LLVM 19, its --device-compiler= from LLVM 20 on (the last -O wins).
o0_device_link_flag() {
  if "$TC/bin/clang-linker-wrapper" --help 2>&1 | grep -- '--opt-level' >/dev/null; then
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
# lto_opt_bc DIR: the optimized device module of the sm_90 link of an
# -save-temps build in DIR (prog...sm_90.postopt.bc up to LLVM 19,
# prog...sm_90.img.0.4.opt.bc from LLVM 20 on).
lto_opt_bc() {
  local f
  for f in "$1"/prog.*sm_90.postopt.bc "$1"/prog.*sm_90.img.0.4.opt.bc; do
    [ -f "$f" ] && { echo "$f"; return 0; }
  done
  echo "$1/prog.nvptx64-nvidia-cuda.sm_90.postopt.bc"
}
# ptx_malloc_calls PTX: how many calls of device malloc the PTX file makes (a
# call's operands are on lines of their own up to LLVM 19, on the call's line
# from LLVM 20 on).
ptx_malloc_calls() {
  grep -Ec '^[[:space:]]+(call[.a-z]* \(retval0\), )?malloc,' "$1" || true
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
# on its own, for NVPTX (sm_90 where it is built per architecture) and with the
# toolchain's tools (tests of its build options); prints the ninja target and
# the bitcode file it builds: `read -r target bc < <(devicertl_configure ...)`.
devicertl_configure() {
  local dir=$1
  shift
  python3 "$OMPDS_ROOT/scripts/lib/overlay.py" --out "$(dirname "$SRC")" --prefix "$TC" \
    --configure-devicertl "$dir" "$@"
}
# devicertl_bc nvptx|amdgpu: the toolchain's DeviceRTL bitcode for sm_90 or
# gfx90a: one file per architecture up to LLVM 20
# (lib/<host>/libomptarget-nvptx-sm_90.bc), one per GPU triple from LLVM 21 on
# (lib/nvptx64-nvidia-cuda/libomptarget-nvptx.bc).
devicertl_bc() {
  local per_arch per_triple
  case "$1" in
    nvptx) per_arch=libomptarget-nvptx-sm_90.bc per_triple=nvptx64-nvidia-cuda ;;
    amdgpu) per_arch=libomptarget-amdgpu-gfx90a.bc per_triple=amdgcn-amd-amdhsa ;;
    *) fail "devicertl_bc: unknown vendor '$1'" ;;
  esac
  if [ -f "$TC/lib/$per_triple/libomptarget-$1.bc" ]; then
    echo "$TC/lib/$per_triple/libomptarget-$1.bc"
  else
    echo "$TC/lib/x86_64-pc-linux-gnu/$per_arch"
  fi
}
# devicertl_include: the include directory of the overlay tree's DeviceRTL.
devicertl_include() {
  local d
  for d in "$SRC/openmp/device/include" "$SRC/offload/DeviceRTL/include"; do
    [ -d "$d" ] && { echo "$d"; return 0; }
  done
  fail "no DeviceRTL include directory under $SRC; run scripts/build first"
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
  (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep "PASS" >/dev/null ||
    fail "$(basename "$d"): does not print PASS on the host fallback"
  case "$arch" in sm_*) keep_for_gpu "$d" "$(basename "$0" .sh)-$(basename "$d")" ;; esac
}

# build_and_run_on_host WORK SRC LABEL KEEP: builds WORK/SRC as a user would
# (`clang -fopenmp --offload-arch=ARCH -O -save-temps`) for sm_90 and gfx90a
# at -O0 and -O2 into WORK/ARCH-O/prog; each must print a line ending in
# ': PASS' on the host fallback. The sm_90 programs are kept for the GPU
# bundle as KEEP-O0 and KEEP-O2, and their PTX goes through ptxas. LABEL
# starts the failure messages.
build_and_run_on_host() {
  local work=$1 src=$2 label=$3 keep=$4 arch opt d
  for arch in sm_90 gfx90a; do
    for opt in -O0 -O2; do
      d=$work/$arch$opt
      mkdir -p "$d"
      (cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=$arch $opt \
        "$work/$src" -o prog -save-temps) >"$d/log" 2>&1 ||
        { cat "$d/log" >&2; fail "$label: $arch $opt does not compile and link"; }
      (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep ': PASS$' >/dev/null ||
        fail "$label: $arch $opt does not print PASS on the host"
      if [ $arch = sm_90 ]; then
        keep_for_gpu "$d" "$keep$opt"
        [ -z "$PTXAS" ] || "$PTXAS" -arch=sm_90 -c "$(lto_ptx "$d")" -o "$d/p.o" ||
          fail "$label: ptxas rejects the $opt PTX"
      fi
    done
  done
}
