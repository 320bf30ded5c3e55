#!/usr/bin/env bash
# Allocators that a uses_allocators clause of a target construct defines with
# traits (issue 39; patches
# clang-OpenMP-Capture-uses_allocators-allocators-in-the-regions-nested-in.patch
# and clang-OpenMP-Create-the-uses_allocators-allocators-with-traits-on-the-GP.patch):
# the region allocates from the allocator, in its sequential part, in a
# nested parallel region, and in the loop of a combined construct. Before,
# Clang crashed (EmitLValueForLambdaField) on the device for any use of the
# allocator in the region, and on the host too for a use in a region nested in
# a combined construct.
#  - the program links for sm_90 and gfx90a at -O0 and -O2, and ptxas accepts
#    the sm_90 PTX;
#  - it prints PASS on the host fallback; kept for the GPU bundle.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/traits.c" <<'C'
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#define N 1000

int main(void) {
  omp_alloctrait_t traits[2] = {{omp_atk_alignment, 64},
                                {omp_atk_pool_size, 1 << 20}};
  omp_allocator_handle_t alloc = omp_null_allocator;
  int errors = -1, sum = 0, on_device = 0;
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = i;

  /* A generic-mode kernel: the sequential part and a parallel region. */
#pragma omp target uses_allocators(alloc(traits)) map(from : errors, sum, on_device)
  {
    int e = 0, s = 0;
    on_device = !omp_is_initial_device();
    int *p = (int *)omp_aligned_alloc(64, 16 * sizeof(int), alloc);
    e += !p || (uintptr_t)p % 64;
    for (int i = 0; p && i < 16; i++)
      p[i] = i;
#pragma omp parallel for reduction(+ : s, e) num_threads(8)
    for (int i = 0; i < 16; i++) {
      int *q = (int *)omp_alloc(sizeof(int), alloc);
      e += !q || (uintptr_t)q % 64;
      if (q) {
        *q = p ? p[i] : 0;
        s += *q;
      }
      omp_free(q, alloc);
    }
    omp_free(p, alloc);
    sum = s;
    errors = e;
  }

  /* A combined construct: the allocator is used in its loop. */
  int bad = 0;
#pragma omp target teams distribute parallel for uses_allocators(alloc(traits)) \
    map(tofrom : a) reduction(+ : bad)
  for (int i = 0; i < N; i++) {
    int *q = (int *)omp_aligned_alloc(64, sizeof(int), alloc);
    bad += !q || (uintptr_t)q % 64;
    if (q) {
      *q = 2 * a[i];
      a[i] = *q;
    }
    omp_free(q, alloc);
  }
  for (int i = 0; i < N; i++)
    bad += a[i] != 2 * i;

  int fail = errors != 0 || sum != 120 || bad != 0;
  printf("uses_allocators with traits on the %s: %d errors, sum %d, %d bad: "
         "%s\n",
         on_device ? "device" : "host", errors, sum, bad,
         fail ? "FAIL" : "PASS");
  return fail;
}
C
build_and_run_on_host "$work" traits.c "uses_allocators traits" allocator-traits
echo "uses_allocators traits: allocators with traits compile and link in device code for sm_90 and gfx90a and pass on the host"
