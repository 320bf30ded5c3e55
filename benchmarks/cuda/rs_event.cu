// rs_event.cu - CUDA twin of ../programs/rs_event.c (ompds benchmark): the
// device functions of ../programs/rs_event.h, one thread per lookup in a
// grid-stride loop, THREADS (256) threads per block.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#define RS_FN __host__ __device__
#include "../programs/rs_event.h"

#ifndef THREADS
#define THREADS 256
#endif

__global__ void rs_event_kernel(const double *dist, const int *num_nucs,
                                const int *mats, const double *concs,
                                const int *n_windows,
                                const double *pseudo_K0RS,
                                const Window *windows, const Pole *poles,
                                int max_num_nucs, int max_num_windows,
                                int max_num_poles, double *out) {
  for (long i = threadIdx.x + (long)blockIdx.x * blockDim.x; i < LOOKUPS;
       i += (long)blockDim.x * gridDim.x)
    rs_lookup(i, dist, num_nucs, mats, concs, n_windows, pseudo_K0RS, windows,
              poles, max_num_nucs, max_num_windows, max_num_poles, out);
}

int main(void) {
  RSProblem p;
  double *out = (double *)malloc(sizeof(double) * 4 * LOOKUPS);
  if (!out || !rs_setup(&p)) {
    printf("rs_event (CUDA): out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long k = 0; k < 4L * LOOKUPS; k++)
    out[k] = -1.0e300;
  double *d_dist = to_device(p.dist, RS_MATERIALS);
  int *d_num = to_device(p.num_nucs, RS_MATERIALS);
  int *d_mats = to_device(p.mats, RS_MATERIALS * RS_MAX_NUCS);
  double *d_concs = to_device(p.concs, RS_MATERIALS * RS_MAX_NUCS);
  int *d_nw = to_device(p.n_windows, NUCLIDES);
  double *d_k0rs = to_device(p.pseudo_K0RS, NUCLIDES * RS_NUML);
  Window *d_win = to_device(p.windows, NUCLIDES * WINDOWS);
  Pole *d_poles = to_device(p.poles, (long)NUCLIDES * POLES);
  double *d_out = to_device(out, 4L * LOOKUPS);
  int blocks = (int)((LOOKUPS + THREADS - 1) / THREADS);
  auto launch = [&] {
    rs_event_kernel<<<blocks, THREADS>>>(d_dist, d_num, d_mats, d_concs, d_nw,
                                         d_k0rs, d_win, d_poles, RS_MAX_NUCS,
                                         WINDOWS, POLES, d_out);
  };
  run_once(launch);
  to_host(out, d_out, 4L * LOOKUPS);
  int errors = rs_check(&p, out);
  printf("rs_event (CUDA) NUCLIDES=%d POLES=%d WINDOWS=%d LOOKUPS=%d ran on "
         "device: %s\n",
         NUCLIDES, POLES, WINDOWS, LOOKUPS, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  rs_free(&p);
  free(out);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
