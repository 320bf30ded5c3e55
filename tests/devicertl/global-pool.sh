#!/usr/bin/env bash
# The DeviceRTL's global memory pool (patch OpenMP-DeviceRTL-Serve-
# __kmpc_alloc_shared-from-a-global-pool-when-the-s.patch):
#  - the allocator (include/GlobalPool.h) passes its host test
#    (global-pool.cpp: sizes, alignment, exhaustion, reuse, 8 threads), also
#    under ThreadSanitizer;
#  - the toolchain's NVPTX and AMDGPU DeviceRTLs have the 4 MiB pool;
#  - an -O0 program whose workers allocate at run time (a device function
#    called in a parallel region, locals escaping) links for sm_90 with the
#    pool in its PTX before device malloc, a fence after each of its claims
#    and before its free, and ptxas accepts it; built with
#    -fopenmp-target-debug it also reports the fallbacks; the paper's Fig. 5
#    at -O0, which allocates nothing at run time, has no pool;
#  - a DeviceRTL configured without a pool (LIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE
#    =0) has none, and a size that is not whole bitmap words is rejected.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
inc=$(devicertl_include)
[ -f "$inc/GlobalPool.h" ] || fail "no $inc/GlobalPool.h; run scripts/build first"

"$TC/bin/clang++" -std=c++17 -O2 -pthread -I"$inc" "$here/global-pool.cpp" -o "$work/pool" ||
  fail "the pool's host test does not build"
"$work/pool" || fail "the pool's host test fails"
if "$TC/bin/clang++" -std=c++17 -O1 -g -fsanitize=thread -pthread -I"$inc" \
  "$here/global-pool.cpp" -o "$work/pool-tsan" 2>"$work/tsan.log"; then
  TSAN_OPTIONS=halt_on_error=1 "$work/pool-tsan" || fail "the pool's host test fails under ThreadSanitizer"
else
  cat "$work/tsan.log" >&2
  fail "no ThreadSanitizer runtime (install libclang-rt$OMPDS_TOOL_SUFFIX-dev)"
fi

# pool_type BITCODE: the type of the DeviceRTL's global pool (State.cpp's
# GlobalPool; AMDGPU's malloc has a pool of its own, MallocPool), or nothing.
pool_type() {
  "$TC/bin/llvm-dis" "$1" -o "$work/rtl.ll"
  local t
  t=$(sed -n 's/^@_ZN12_GLOBAL__N_110GlobalPoolE = .* global \(%"[^"]*"\) .*/\1/p' "$work/rtl.ll")
  [ -z "$t" ] || grep -m1 -F "$t = type" "$work/rtl.ll" || true
}
for vendor in nvptx amdgpu; do
  lib=$(devicertl_bc $vendor)
  t=$(pool_type "$lib")
  [[ "$t" == *"{ [4194304 x i8], [2048 x i32] }"* ]] || fail "$lib: global pool: '$t'"
done

cat >"$work/par.c" <<'C'
#include <stdio.h>
/* At -O0 the escaping local of work() is globalized in every worker. The
   sequential part calls work() too: otherwise the device link moves the
   local to each worker's stack (a function that only parallel code runs). */
static void bump(int *p) { *p += 1; }
#pragma omp declare target
int work(int i) {
  int x = i;
  bump(&x);
  return x;
}
#pragma omp end declare target
int main(void) {
  int out[256];
#pragma omp target teams num_teams(2) thread_limit(128) map(from : out)
  {
    int zero = work(-1);
#pragma omp parallel for
    for (int i = 0; i < 256; ++i)
      out[i] = work(i) + zero;
  }
  int ok = 1;
  for (int i = 0; i < 256; ++i)
    ok &= out[i] == i + 1;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
C
build() { # NAME SOURCE FLAGS...
  local d=$work/$1 src=$2
  shift 2
  mkdir -p "$d"
  (cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=sm_90 -O0 "$@" \
    "$src" -o prog -save-temps) >"$d/log" 2>&1 || { cat "$d/log" >&2; fail "$1: build failed"; }
  (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep PASS >/dev/null || fail "$1: no PASS on the host"
  [ -z "$PTXAS" ] || "$PTXAS" -arch=sm_90 -c "$d"/prog.*sm_90.s -o "$d/p.o" || fail "$1: ptxas rejects the PTX"
}
build plain "$work/par.c"
ptx=$(echo "$work"/plain/prog.*sm_90.s)
grep -Eq '^\.global \.align 16 \.b8 .*GlobalPool.*\[4202496\];' "$ptx" ||
  fail "the -O0 worker allocations cannot fall back to the global pool (no 4 MiB + bitmap pool in the PTX)"
grep -q 'atom\..*or\.b32' "$ptx" || fail "no atomic or (pool bitmap) in the PTX"
# The pool claims blocks with an acquire fetch_or and frees them with a release
# fetch_and: PTX's atom is relaxed, so a fence must follow every claim and
# precede the free (0.3.0 had neither: the next owner of a block could see the
# last owner's stores land after its own; patch NVPTX-Bracket-atomicrmw-and-
# cmpxchg-stronger-than-monotonic-with-fences.patch).
awk '/atom\.global\.or\.b32/ { claims++; getline; if ($1 ~ /^(membar|fence)\./) fenced++ }
     END { if (!claims || claims != fenced) exit 1 }' "$ptx" ||
  fail "a claim of the pool (atom.global.or.b32) is not followed by a fence"
awk '/(membar|fence)\./ { f = NR } /atom\.global\.and\.b32/ && f == NR - 1 { released++ }
     END { exit !released }' "$ptx" ||
  fail "the pool's free (atom.global.and.b32) has no fence before it"
[ "$(ptx_malloc_calls "$ptx")" != 0 ] || fail "device malloc is gone: the pool must fall back to it"
# The linked, optimized device IR keeps the messages as text.
messages() { "$TC/bin/llvm-dis" "$(lto_opt_bc "$work/$1")" -o - | grep -c "$2" || true; }
[ "$(messages plain 'Global memory pool full')" = 0 ] ||
  fail "fallback messages in a build without -fopenmp-target-debug"
echo "sm_90 -O0: worker allocations fall back to the 4 MiB global pool before malloc"

# A kernel whose allocations all have a place at compile time (the paper's
# Fig. 5 at -O0: a depot and the argument slots) does not carry the pool.
build fig5 "$OMPDS_ROOT/benchmarks/programs/paper_fig5.c" -DN=1 -DINSIDE=1
! grep -q 'GlobalPool' "$work"/fig5/prog.*sm_90.s || fail "the Fig. 5 kernel carries the global pool"

build debug "$work/par.c" -fopenmp-target-debug=4
[ "$(messages debug 'Global memory pool full')" != 0 ] ||
  fail "-fopenmp-target-debug=4 does not report pool fallbacks"
[ "$(messages debug 'Shared memory stack full')" != 0 ] ||
  fail "-fopenmp-target-debug=4 does not report shared stack fallbacks"

configure() { # DIR SIZE
  devicertl_configure "$work/$1" -DLIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE="$2"
}
configure none 0 >"$work/none.log" 2>&1 || { cat "$work/none.log" >&2; fail "configure with no pool failed"; }
read -r target bc < <(tail -1 "$work/none.log")
ninja -C "$work/none" "$target" >>"$work/none.log" 2>&1 ||
  { tail -20 "$work/none.log" >&2; fail "DeviceRTL without a pool does not build"; }
[ -z "$(pool_type "$bc")" ] || fail "LIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE=0 still has a pool"
if configure odd 1000 >"$work/odd.log" 2>&1; then
  fail "LIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE=1000 was accepted"
fi
# CMake wraps its messages: compare with whitespace folded.
tr -s ' \n' ' ' <"$work/odd.log" |
  grep "LIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE must be a multiple of 2048 .* not '1000'" >/dev/null ||
  { cat "$work/odd.log" >&2; fail "no clear message for a bad pool size"; }
echo "PASS: global memory pool"
