// xs_struct.cu - CUDA twin of ../programs/xs_struct.c (ompds benchmark;
// issue 36): the kernel takes the inputs struct and the data struct by value,
// as XSBench's CUDA version does, and reads their fields where it calls the
// device functions of ../programs/xs_event.h; one thread per lookup in a
// grid-stride loop, THREADS (256) threads per block.
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#define XS_FN __host__ __device__
#include "../programs/xs_struct.h"

#ifndef THREADS
#define THREADS 256
#endif

__global__ void xs_struct_kernel(XSInputs in, XSData sd, double *out,
                                 int *verification) {
  for (long i = threadIdx.x + (long)blockIdx.x * blockDim.x; i < in.lookups;
       i += (long)blockDim.x * gridDim.x)
    xs_lookup(i, in.n_nuclides, in.n_grid, in.grid_type, in.hash_bins,
              in.max_num_nucs, sd.dist, sd.num_nucs, sd.concs, sd.union_energy,
              sd.index_grid, sd.grids, sd.mats, out, verification);
}

int main(void) {
  XSProblem p;
  double *out = (double *)malloc(sizeof(double) * 5 * LOOKUPS);
  int *verification = (int *)malloc(sizeof(int) * LOOKUPS);
  if (!out || !verification || !xs_setup(&p)) {
    printf("xs_struct (CUDA): out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long k = 0; k < 5L * LOOKUPS; k++)
    out[k] = -1.0e300;
  for (long i = 0; i < LOOKUPS; i++)
    verification[i] = -1;
  XSInputs in = xs_inputs(&p);
  XSData sd = xs_data(&p);
  XSData d_sd = sd;
  d_sd.dist = to_device(sd.dist, sd.length_dist);
  d_sd.num_nucs = to_device(sd.num_nucs, sd.length_num_nucs);
  d_sd.concs = to_device(sd.concs, sd.length_concs);
  d_sd.mats = to_device(sd.mats, sd.length_mats);
  d_sd.union_energy = to_device(sd.union_energy, sd.length_union_energy);
  d_sd.index_grid = to_device(sd.index_grid, sd.length_index_grid);
  d_sd.grids = to_device(sd.grids, sd.length_grids);
  double *d_out = to_device(out, 5L * LOOKUPS);
  int *d_ver = to_device(verification, LOOKUPS);
  int blocks = (int)((LOOKUPS + THREADS - 1) / THREADS);
  auto launch = [&] {
    xs_struct_kernel<<<blocks, THREADS>>>(in, d_sd, d_out, d_ver);
  };
  run_once(launch);
  to_host(out, d_out, 5L * LOOKUPS);
  to_host(verification, d_ver, LOOKUPS);
  int errors = xs_check(&p, out, verification);
  printf("xs_struct (CUDA) NUCLIDES=%d GRIDPOINTS=%d LOOKUPS=%d ran on device: "
         "%s\n",
         NUCLIDES, GRIDPOINTS, LOOKUPS, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  xs_free(&p);
  free(out);
  free(verification);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
