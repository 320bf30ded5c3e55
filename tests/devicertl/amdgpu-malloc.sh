#!/usr/bin/env bash
# Device malloc that gives memory back on AMDGPU without a GPU libc (patch
# OpenMP-DeviceRTL-Give-malloc-memory-back-on-AMDGPU-without-a-GPU-libc.patch).
# Before it, the AMDGPU DeviceRTL's malloc was a bump pointer over 1 MiB whose
# free did nothing, for all kernel launches of a program together. No AMD GPU
# runs here, so this checks what the images hold:
#  - the AMDGPU DeviceRTL has MallocPool, a 1 MiB pool of 64-byte blocks that
#    searches its whole bitmap, and its malloc and free use it; the NVPTX
#    DeviceRTL has none (CUDA's malloc);
#  - a program that calls omp_alloc and omp_free in a loop in a target region
#    links for gfx90a at -O0 and -O2 with the pool in the device image, and
#    prints PASS on the host fallback (which runs the host's libomp, not this
#    code: the upstream-style GPU test is the patch's
#    offload/test/offloading/malloc_free_reuse.c, which needs an AMD GPU).
# The pool itself is tested on the host by tests/devicertl/global-pool.sh.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# body FILE FUNCTION: the body of FUNCTION in the textual IR FILE.
body() {
  awk -v f="@$2(" 'index($0, "define") == 1 && index($0, f) { on = 1 } on { print }
    on && /^}/ { exit }' "$1"
}
for vendor in amdgpu nvptx; do
  lib=$(devicertl_bc $vendor)
  "$TC/bin/llvm-dis" "$lib" -o "$work/$vendor.ll"
  # MallocPool is in an anonymous namespace: @_ZN12_GLOBAL__N_110MallocPoolE.
  pool=$(grep -E '^@[_A-Za-z0-9]*MallocPool[_A-Za-z0-9]* = ' "$work/$vendor.ll" | sed -n 1p || true)
  if [ $vendor = nvptx ]; then
    [ -z "$pool" ] || fail "$lib: a malloc pool where CUDA's malloc serves: $pool"
    continue
  fi
  type=$(sed -n 's/^@[_A-Za-z0-9]* = .* global \(%"[^"]*"\) .*/\1/p' <<<"$pool")
  def=$([ -n "$type" ] && grep -m1 -F "$type = type" "$work/$vendor.ll" || true)
  [[ "$def" == *"{ [1048576 x i8], [512 x i32] }"* ]] ||
    fail "$lib: no 1 MiB malloc pool of 64-byte blocks: '$pool' '$def'"
  for fn in malloc free; do
    body "$work/$vendor.ll" $fn | grep 'MallocPool' >/dev/null ||
      fail "$lib: $fn does not use the malloc pool"
  done
done

cat >"$work/loop.c" <<'C'
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
  int errors = -1;
#pragma omp target map(from : errors)
  {
    int e = 0;
    /* 100000 allocations of 1000 bytes: 100 MB in all, 2 KB at a time. */
    for (int i = 0; i < 100000; i++) {
      char *p = (char *)omp_alloc(1000, omp_default_mem_alloc);
      char *q = (char *)omp_alloc(1000, omp_default_mem_alloc);
      e += !p || !q || (uintptr_t)p % 16 || p == q;
      if (p && q) {
        p[999] = (char)i;
        q[0] = (char)~i;
        e += p[999] != (char)i;
      }
      omp_free(q, omp_default_mem_alloc);
      omp_free(p, omp_default_mem_alloc);
    }
    errors = e;
  }
  printf("omp_alloc/omp_free in a loop: %d errors: %s\n", errors,
         errors ? "FAIL" : "PASS");
  return errors != 0;
}
C
for opt in -O0 -O2; do
  d=$work/gfx90a$opt
  mkdir -p "$d"
  (cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=gfx90a $opt \
    "$work/loop.c" -o prog -save-temps) >"$d/log" 2>&1 ||
    { cat "$d/log" >&2; fail "gfx90a $opt: the omp_alloc loop does not compile and link"; }
  (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep ': PASS$' >/dev/null ||
    fail "gfx90a $opt: the omp_alloc loop does not print PASS on the host"
  bc=$(ls "$d"/*amdgcn*gfx90a*precodegen.bc "$d"/*gfx90a*.precodegen.bc 2>/dev/null | sed -n 1p)
  [ -n "$bc" ] || fail "gfx90a $opt: no device module before code generation in $d"
  "$TC/bin/llvm-dis" "$bc" -o "$d/dev.ll"
  grep -qE '^@[_A-Za-z0-9]*MallocPool[_A-Za-z0-9]* = ' "$d/dev.ll" ||
    fail "gfx90a $opt: the device image has no malloc pool"
  echo "gfx90a $opt: omp_alloc/omp_free link with the malloc pool, host PASS"
done
echo "AMDGPU device malloc frees: the pool is in the DeviceRTL and in the images that allocate"
