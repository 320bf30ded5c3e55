// escape_seq.cu - CUDA counterpart of ../programs/escape_seq.c (ompds
// benchmark).  The device function's team-shared locals are what CUDA
// programmers write by hand: static __shared__ variables declared inside the
// __device__ function, one instance per block -- the depot the OpenMP
// version could use.  Thread 0 runs the sequential parts, barriers separate
// them from the parallel parts.
//
// Macros: TEAMS (8), WORKERS (96), NBINS (8, a power of two <= WORKERS).
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#ifndef TEAMS
#define TEAMS 8
#endif
#ifndef WORKERS
#define WORKERS 96
#endif
#ifndef NBINS
#define NBINS 8
#endif
#if NBINS < 1 || NBINS > WORKERS || (NBINS & (NBINS - 1))
#error "NBINS must be a power of two <= WORKERS"
#endif

#define SIZE (TEAMS * WORKERS)
#define POISON 0x7f5eed5e

__device__ __noinline__ void block_stats(const int *in, int *out, int *bins,
                                         int t) {
  __shared__ int hist[NBINS];
  __shared__ int total;
  int i = threadIdx.x;
  if (i == 0) {
    total = 0;
    for (int b = 0; b < NBINS; b++)
      hist[b] = 0;
    for (int j = 0; j < WORKERS; j++) {
      int v = in[t * WORKERS + j];
      hist[v & (NBINS - 1)]++;
      total += v;
    }
  }
  __syncthreads();
  out[t * WORKERS + i] = in[t * WORKERS + i] * hist[i % NBINS] + total;
  __syncthreads();
  if (i < NBINS)
    hist[i] = 3 * hist[i] + i;
  __syncthreads();
  if (i == 0)
    for (int b = 0; b < NBINS; b++)
      bins[t * NBINS + b] = hist[b] + total;
}

__global__ void escape_seq_kernel(const int *in, int *out, int *bins) {
  block_stats(in, out, bins, blockIdx.x);
}

int main(void) {
  static int in[SIZE], out[SIZE], bins[TEAMS * NBINS];
  for (int i = 0; i < SIZE; i++) {
    in[i] = (i * 37 + 11) % 101;
    out[i] = POISON;
  }
  for (int i = 0; i < TEAMS * NBINS; i++)
    bins[i] = POISON;
  int *d_in = to_device(in, SIZE), *d_out = to_device(out, SIZE),
      *d_bins = to_device(bins, TEAMS * NBINS);
  auto launch = [&] {
    escape_seq_kernel<<<TEAMS, WORKERS>>>(d_in, d_out, d_bins);
  };
  run_once(launch);
  to_host(out, d_out, SIZE);
  to_host(bins, d_bins, TEAMS * NBINS);

  int errors = 0;
  for (int t = 0; t < TEAMS; t++) {
    int hist[NBINS] = {0}, total = 0;
    for (int i = 0; i < WORKERS; i++) {
      hist[in[t * WORKERS + i] % NBINS] += 1;
      total += in[t * WORKERS + i];
    }
    for (int i = 0; i < WORKERS; i++) {
      int want = in[t * WORKERS + i] * hist[i % NBINS] + total;
      if (out[t * WORKERS + i] != want && errors++ < 10)
        printf("error: out[%d] = %d, expected %d\n", t * WORKERS + i,
               out[t * WORKERS + i], want);
    }
    for (int b = 0; b < NBINS; b++) {
      int want = 3 * hist[b] + b + total;
      if (bins[t * NBINS + b] != want && errors++ < 10)
        printf("error: bins[%d] = %d, expected %d\n", t * NBINS + b,
               bins[t * NBINS + b], want);
    }
  }
  printf("escape_seq (CUDA) TEAMS=%d WORKERS=%d NBINS=%d ran on device: %s\n",
         TEAMS, WORKERS, NBINS, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_bins));
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
