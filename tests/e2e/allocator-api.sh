#!/usr/bin/env bash
# The OpenMP allocator routines in device code (issue 39 item 1; patch
# OpenMP-DeviceRTL-Implement-the-memory-allocator-routines-on-the-device.patch):
# omp_alloc, omp_aligned_alloc, omp_calloc, omp_aligned_calloc, omp_realloc,
# omp_free, omp_init_allocator with the alignment, pool_size and fallback
# traits, omp_destroy_allocator and omp_get_max_teams, called in a target
# region (before: undefined at the device link, "omp_calloc" etc.):
#  - the program links for sm_90 and gfx90a at -O0 and -O2 with plain
#    `clang -fopenmp`, and ptxas accepts the sm_90 PTX;
#  - it prints PASS on the host fallback (the host runtime's routines); kept
#    for the GPU bundle, where the device's run.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/api.c" <<'C'
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  int errors = -1, on_device = 0;
#pragma omp target map(from : errors, on_device)
  {
    int e = 0;
    on_device = !omp_is_initial_device();
    e += omp_alloc(0, omp_default_mem_alloc) != NULL;
    char *p = (char *)omp_alloc(100, omp_default_mem_alloc);
    e += !p;
    if (p)
      for (int i = 0; i < 100; i++)
        p[i] = (char)i;
    double *a = (double *)omp_aligned_alloc(256, 1000, omp_default_mem_alloc);
    e += !a || (uintptr_t)a % 256;
    int *c = (int *)omp_calloc(10, sizeof(int), omp_high_bw_mem_alloc);
    e += !c;
    for (int i = 0; c && i < 10; i++)
      e += c[i] != 0;
    long *ac = (long *)omp_aligned_calloc(128, 16, sizeof(long),
                                          omp_low_lat_mem_alloc);
    e += !ac || (uintptr_t)ac % 128;
    for (int i = 0; ac && i < 16; i++)
      e += ac[i] != 0;
    char *r = (char *)omp_realloc(p, 200, omp_default_mem_alloc,
                                  omp_default_mem_alloc);
    e += !r;
    for (int i = 0; r && i < 100; i++)
      e += r[i] != (char)i;
    /* An allocator of its own: 64-byte alignment, a 4 KiB pool, null when
       the pool cannot serve a request; on the host fallback too (the
       toolchain's libomp is the base's, whose memory-space handles are those
       of omp.h: tests/e2e/host-runtime.sh). */
    omp_alloctrait_t traits[3] = {{omp_atk_alignment, 64},
                                  {omp_atk_pool_size, 4096},
                                  {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t al =
        omp_init_allocator(omp_default_mem_space, 3, traits);
    e += al == omp_null_allocator;
    if (al != omp_null_allocator) {
      void *x = omp_alloc(1024, al);
      e += !x || (uintptr_t)x % 64;
      void *y = omp_alloc(8192, al); /* over the pool: null_fb */
      e += y != NULL;
      omp_free(y, al);
      omp_free(x, al);
      omp_destroy_allocator(al);
    }
    e += omp_get_max_teams() < (on_device ? 1 : 0);
    omp_free(ac, omp_low_lat_mem_alloc);
    omp_free(c, omp_high_bw_mem_alloc);
    omp_free(a, omp_default_mem_alloc);
    omp_free(r, omp_default_mem_alloc);
    errors = e;
  }
  printf("allocator API on the %s: %d errors: %s\n",
         on_device ? "device" : "host", errors, errors ? "FAIL" : "PASS");
  return errors != 0;
}
C
build_and_run_on_host "$work" api.c "allocator API" allocator-api
echo "allocator API: the routines link in device code for sm_90 and gfx90a and pass on the host"
