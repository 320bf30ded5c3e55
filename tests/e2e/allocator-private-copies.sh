#!/usr/bin/env bash
# Private copies given a predefined allocator on a target construct (issue 39,
# the -O0 regression against stock 22.1.8; patch clang-OpenMP-Keep-local-
# variables-with-omp_const_mem_alloc-out-of-constant-memory.patch):
#  - `target uses_allocators(omp_const_mem_alloc) allocate(omp_const_mem_alloc:
#    x) firstprivate(x)` and `target teams loop uses_allocators(
#    omp_low_lat_mem_alloc) allocate(omp_low_lat_mem_alloc: local)
#    firstprivate(local)` link for sm_90 and gfx90a at -O0 and -O2 with plain
#    `clang -fopenmp` (before: at -O0 ptxas "State space incorrect for
#    instruction 'st'" on `st.const`, the copy's initializing store);
#  - sm_90: the linked PTX stores to no .const variable, and ptxas accepts it;
#  - gfx90a: the device module stores to no constant (addrspace(4)) memory;
#  - the binaries print PASS on the host fallback.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/const.c" <<'C'
#include <omp.h>
#include <stdio.h>
int main(void) {
  int x = 23, got = 0;
#pragma omp target uses_allocators(omp_const_mem_alloc)                       \
    allocate(omp_const_mem_alloc : x) firstprivate(x) map(tofrom : got)
  for (int i = 0; i < 1024; ++i)
    got += x;
  int ok = got == 1024 * 23;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
C
cat >"$work/lowlat.c" <<'C'
#include <omp.h>
#include <stdio.h>
#define N 1024
int main(void) {
  int a[N], b[N], c[N], local = 5;
  for (int i = 0; i < N; ++i) {
    a[i] = 2 * i;
    b[i] = 2 * i + 1;
    c[i] = -1;
  }
#pragma omp target teams loop map(to : a, b) map(from : c)                    \
    uses_allocators(omp_low_lat_mem_alloc)                                     \
    allocate(omp_low_lat_mem_alloc : local) firstprivate(local)
  for (int i = 0; i < N; ++i)
    c[i] = a[i] + b[i] + local;
  int ok = 1;
  for (int i = 0; i < N; ++i)
    ok &= c[i] == 4 * i + 1 + 5;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
C
for prog in const lowlat; do
  for arch in sm_90 gfx90a; do
    for opt in -O0 -O2; do
      d=$work/$prog-$arch$opt
      mkdir -p "$d"
      (cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=$arch $opt \
        "../$prog.c" -o prog -save-temps) >"$d/log" 2>&1 ||
        { cat "$d/log" >&2; fail "allocator copies: $prog $arch $opt does not link"; }
      (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep -x PASS >/dev/null ||
        fail "allocator copies: $prog $arch $opt does not print PASS on the host"
      if [ $arch = sm_90 ]; then
        keep_for_gpu "$d" "allocator-$prog$opt"
        ptx=$(lto_ptx "$d")
        [ -f "$ptx" ] || fail "allocator copies: $prog $opt: no linked PTX ($ptx)"
        ! grep -Eq '^[[:space:]]*st\.const' "$ptx" ||
          fail "allocator copies: $prog sm_90 $opt: the PTX stores to .const"
        [ -z "$PTXAS" ] || "$PTXAS" -arch=sm_90 -c "$ptx" -o "$d/p.o" ||
          fail "allocator copies: ptxas rejects the $prog $opt PTX"
      else
        bc=$(ls "$d"/prog.*gfx90a*.opt.bc "$d"/prog.*gfx90a*postopt.bc 2>/dev/null | sed -n 1p || true)
        [ -n "$bc" ] || fail "allocator copies: $prog gfx90a $opt: no optimized device module"
        ! "$TC/bin/llvm-dis" "$bc" -o - | grep -E 'store .*ptr addrspace\(4\)' >/dev/null ||
          fail "allocator copies: $prog gfx90a $opt: a store to constant memory"
      fi
    done
  done
done
echo "allocator copies: const and low-latency firstprivate copies link and pass for sm_90 and gfx90a"
