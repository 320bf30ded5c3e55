// rs_struct.cu - CUDA twin of ../programs/rs_struct.c (ompds benchmark;
// issue 36): the kernel takes the inputs struct and the data struct by value,
// as RSBench's CUDA version does, and passes the inputs struct on by value
// to the device functions of ../programs/rs_struct.h; one thread per lookup in a
// grid-stride loop, THREADS (256) threads per block.
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#define RS_FN __host__ __device__
#include "../programs/rs_struct.h"

#ifndef THREADS
#define THREADS 256
#endif

__global__ void rs_struct_kernel(RSInputs in, RSData sd, double *out,
                                 unsigned long long *vhash) {
  unsigned long long v = 0;
  for (long i = threadIdx.x + (long)blockIdx.x * blockDim.x; i < in.lookups;
       i += (long)blockDim.x * gridDim.x)
    v += rs_lookup_s(i, in, sd.dist, sd.num_nucs, sd.mats, sd.max_num_nucs,
                     sd.concs, sd.n_windows, sd.pseudo_K0RS, sd.windows,
                     sd.poles, sd.max_num_windows, sd.max_num_poles, out);
  atomicAdd(vhash, v);
}

int main(void) {
  RSProblem p;
  double *out = (double *)malloc(sizeof(double) * 4 * LOOKUPS);
  if (!out || !rs_setup(&p)) {
    printf("rs_struct (CUDA): out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long k = 0; k < 4L * LOOKUPS; k++)
    out[k] = -1.0e300;
  RSInputs in = rs_inputs();
  RSData sd = rs_data(&p);
  RSData d_sd = sd;
  d_sd.dist = to_device(sd.dist, sd.length_dist);
  d_sd.num_nucs = to_device(sd.num_nucs, sd.length_num_nucs);
  d_sd.mats = to_device(sd.mats, sd.length_mats);
  d_sd.concs = to_device(sd.concs, sd.length_concs);
  d_sd.n_windows = to_device(sd.n_windows, sd.length_n_windows);
  d_sd.pseudo_K0RS = to_device(sd.pseudo_K0RS, sd.length_pseudo_K0RS);
  d_sd.windows = to_device(sd.windows, sd.length_windows);
  d_sd.poles = to_device(sd.poles, sd.length_poles);
  double *d_out = to_device(out, 4L * LOOKUPS);
  unsigned long long zero = 0, vhash = 0;
  unsigned long long *d_vhash = to_device(&zero, 1);
  int blocks = (int)((LOOKUPS + THREADS - 1) / THREADS);
  auto launch = [&] {
    rs_struct_kernel<<<blocks, THREADS>>>(in, d_sd, d_out, d_vhash);
  };
  run_once(launch);
  to_host(out, d_out, 4L * LOOKUPS);
  to_host(&vhash, d_vhash, 1);
  int errors = rs_check(&p, out);
  if (!errors && vhash != rs_vhash(out, LOOKUPS)) {
    printf("rs_struct (CUDA): verification %llu, expected %lu\n", vhash,
           rs_vhash(out, LOOKUPS));
    errors = 1;
  }
  printf("rs_struct (CUDA) NUCLIDES=%d POLES=%d WINDOWS=%d LOOKUPS=%d ran on "
         "device: %s\n",
         NUCLIDES, POLES, WINDOWS, LOOKUPS, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  rs_free(&p);
  free(out);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
