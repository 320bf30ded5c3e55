#!/usr/bin/env bash
# The toolchain's host OpenMP runtime matches its omp.h (issue 39): Debian 12's
# LLVM 22 packages pair 22's omp.h with libomp 19, which does not know 22's
# memory-space values (omp_default_mem_space is 99 in 22's header) and stops
# on an assertion in kmp_alloc.cpp at omp_init_allocator(omp_default_mem_space,
# ...). The overlay builds libomp from the base's source
# (scripts/lib/overlay_build/hostomp.py):
#  - executables of the toolchain load its libomp.so.5 (RUNPATH), not
#    Debian's or another LLVM's;
#  - an allocator with traits on the default memory space works on the host,
#    in a host-only program and in the host fallback of an offload program.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rt=$TC/lib/x86_64-pc-linux-gnu
[ -f "$rt/libomp.so.5" ] && [ ! -L "$rt/libomp.so.5" ] ||
  fail "$rt/libomp.so.5 is not the toolchain's own library (scripts/build builds it)"
cat >"$work/host.c" <<'C'
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
  int e = 0, on_device = -1;
  omp_alloctrait_t traits[3] = {{omp_atk_alignment, 64},
                                {omp_atk_pool_size, 4096},
                                {omp_atk_fallback, omp_atv_null_fb}};
  omp_allocator_handle_t al =
      omp_init_allocator(omp_default_mem_space, 3, traits);
  e += al == omp_null_allocator;
  if (al != omp_null_allocator) {
    void *x = omp_alloc(1000, al);
    e += !x || (uintptr_t)x % 64;
    e += omp_alloc(8192, al) != NULL; /* over the pool, null fallback */
    omp_free(x, al);
    omp_destroy_allocator(al);
  }
  omp_alloctrait_t big[1] = {{omp_atk_alignment, 4096}};
  omp_allocator_handle_t al2 =
      omp_init_allocator(omp_default_mem_space, 1, big);
  e += al2 == omp_null_allocator;
  if (al2 != omp_null_allocator) {
    double *d = (double *)omp_calloc(100, sizeof(double), al2);
    e += !d || (uintptr_t)d % 4096 || d[99] != 0.0;
    omp_free(d, al2);
    omp_destroy_allocator(al2);
  }
#pragma omp target map(from : on_device)
  on_device = !omp_is_initial_device();
  printf("host runtime (target region on the %s): %d errors: %s\n",
         on_device ? "device" : "host", e, e ? "FAIL" : "PASS");
  return e != 0;
}
C
for offload in "" --offload-arch=sm_90; do
  d=$work/prog${offload:+-sm_90}
  "$TC/bin/clang" -fopenmp $offload -O2 "$work/host.c" -o "$d" ||
    fail "host runtime: clang -fopenmp $offload does not compile and link"
  lib=$(ldd "$d" | awk '$1 == "libomp.so.5" { print $3 }')
  [ "$(realpath "$lib")" = "$(realpath "$rt/libomp.so.5")" ] ||
    fail "host runtime: ${d##*/} loads libomp.so.5 from '$lib', not from $rt"
  out=$(OMP_TARGET_OFFLOAD=DISABLED "$d" 2>&1) || true
  echo "$out" | grep ': PASS$' >/dev/null ||
    fail "host runtime: ${d##*/} does not print PASS on the host: $out"
done
echo "host runtime: the toolchain's libomp serves allocators with traits on the host"
