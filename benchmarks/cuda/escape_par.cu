// escape_par.cu - CUDA counterpart of ../programs/escape_par.c (ompds
// benchmark).  In CUDA the escaping local win[] of window_score() is simply
// thread-private (local memory, on the stack frame): what the OpenMP
// version's globalized allocation should cost at most.  The team's `bias`
// is a __shared__ variable set by thread 0.
//
// Macros: TEAMS (8), WORKERS (96), WIN (5).
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#ifndef TEAMS
#define TEAMS 8
#endif
#ifndef WORKERS
#define WORKERS 96
#endif
#ifndef WIN
#define WIN 5
#endif

#define SIZE (TEAMS * WORKERS)
#define POISON 0x7f5eed5e

__device__ __noinline__ void load_window(int *win, const int *in, int i,
                                         int n) {
  for (int k = 0; k < WIN; k++) {
    int j = i + k - WIN / 2;
    win[k] = j >= 0 && j < n ? in[j] : 0;
  }
}

__device__ __noinline__ int window_score(const int *in, int i, int n) {
  int win[WIN];
  load_window(win, in, i, n);
  int s = 0;
  for (int k = 0; k < WIN; k++)
    s += (k + 1) * win[k];
  return s;
}

__global__ void escape_par_kernel(const int *in, int *out) {
  __shared__ int bias;
  int t = blockIdx.x, i = threadIdx.x;
  if (i == 0)
    bias = 1000 * t;
  __syncthreads();
  out[t * WORKERS + i] = window_score(in, t * WORKERS + i, SIZE) + bias;
}

int main(void) {
  static int in[SIZE], out[SIZE];
  for (int i = 0; i < SIZE; i++) {
    in[i] = (i * 29 + 3) % 61 - 30;
    out[i] = POISON;
  }
  int *d_in = to_device(in, SIZE), *d_out = to_device(out, SIZE);
  auto launch = [&] { escape_par_kernel<<<TEAMS, WORKERS>>>(d_in, d_out); };
  run_once(launch);
  to_host(out, d_out, SIZE);

  int errors = 0;
  for (int i = 0; i < SIZE; i++) {
    int want = 1000 * (i / WORKERS);
    for (int k = 0; k < WIN; k++) {
      int j = i + k - WIN / 2;
      want += (k + 1) * (j >= 0 && j < SIZE ? in[j] : 0);
    }
    if (out[i] != want && errors++ < 10)
      printf("error: out[%d] = %d, expected %d\n", i, out[i], want);
  }
  printf("escape_par (CUDA) TEAMS=%d WORKERS=%d WIN=%d ran on device: %s\n",
         TEAMS, WORKERS, WIN, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
