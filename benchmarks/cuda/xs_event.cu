// xs_event.cu - CUDA twin of ../programs/xs_event.c (ompds benchmark): the
// device functions of ../programs/xs_event.h, one thread per lookup in a
// grid-stride loop, THREADS (256) threads per block.
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#define XS_FN __host__ __device__
#include "../programs/xs_event.h"

#ifndef THREADS
#define THREADS 256
#endif

__global__ void xs_event_kernel(long n_nuclides, long n_grid, int grid_type,
                                int hash_bins, int max_num_nucs,
                                const double *dist, const int *num_nucs,
                                const double *concs,
                                const double *union_energy,
                                const int *index_grid, const GridPoint *grids,
                                const int *mats, double *out,
                                int *verification) {
  for (long i = threadIdx.x + (long)blockIdx.x * blockDim.x; i < LOOKUPS;
       i += (long)blockDim.x * gridDim.x)
    xs_lookup(i, n_nuclides, n_grid, grid_type, hash_bins, max_num_nucs, dist,
              num_nucs, concs, union_energy, index_grid, grids, mats, out,
              verification);
}

int main(void) {
  XSProblem p;
  double *out = (double *)malloc(sizeof(double) * 5 * LOOKUPS);
  int *verification = (int *)malloc(sizeof(int) * LOOKUPS);
  if (!out || !verification || !xs_setup(&p)) {
    printf("xs_event (CUDA): out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long k = 0; k < 5L * LOOKUPS; k++)
    out[k] = -1.0e300;
  for (long i = 0; i < LOOKUPS; i++)
    verification[i] = -1;
  double *d_dist = to_device(p.dist, XS_MATERIALS);
  int *d_num = to_device(p.num_nucs, XS_MATERIALS);
  int *d_mats = to_device(p.mats, XS_MATERIALS * XS_MAX_NUCS);
  double *d_concs = to_device(p.concs, XS_MATERIALS * XS_MAX_NUCS);
  double *d_union = to_device(p.union_energy, XS_UNION);
  int *d_index = to_device(p.index_grid, XS_UNION * NUCLIDES);
  GridPoint *d_grids = to_device(p.grids, XS_UNION);
  double *d_out = to_device(out, 5L * LOOKUPS);
  int *d_ver = to_device(verification, LOOKUPS);
  int blocks = (int)((LOOKUPS + THREADS - 1) / THREADS);
  auto launch = [&] {
    xs_event_kernel<<<blocks, THREADS>>>(
        NUCLIDES, GRIDPOINTS, p.grid_type, p.hash_bins, XS_MAX_NUCS, d_dist,
        d_num, d_concs, d_union, d_index, d_grids, d_mats, d_out, d_ver);
  };
  run_once(launch);
  to_host(out, d_out, 5L * LOOKUPS);
  to_host(verification, d_ver, LOOKUPS);
  int errors = xs_check(&p, out, verification);
  printf("xs_event (CUDA) NUCLIDES=%d GRIDPOINTS=%d LOOKUPS=%d ran on device: "
         "%s\n",
         NUCLIDES, GRIDPOINTS, LOOKUPS, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  xs_free(&p);
  free(out);
  free(verification);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
