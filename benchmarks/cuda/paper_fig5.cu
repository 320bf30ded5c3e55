// paper_fig5.cu - CUDA counterpart of ../programs/paper_fig5.c (ompds
// benchmark): the paper's CUDA comparison for Figure 5 of Bercea et al.
// (LLVM-HPC'17).  The team-shared scalars c1..cN are __shared__ variables,
// set by thread 0 (their initial values come in as kernel arguments, as the
// OpenMP version's firstprivate captures do), then read by all threads after
// a barrier.  One block per team, WORKERS threads per block.
//
// Macros: N (1..64, default 1), TEAMS (default 8), WORKERS (default 96).
#include <stdio.h>
#include <stdlib.h>

#include "../seeds/seq.h"
#include "cuda_bench.h"

#ifndef N
#define N 1
#endif
#ifndef TEAMS
#define TEAMS 8
#endif
#ifndef WORKERS
#define WORKERS 96
#endif
#if N < 1 || N > SEQ_MAX
#error "N must be an integer literal in 1..64"
#endif

#define SIZE (TEAMS * WORKERS)
#define PARAM(k) , int c##k##_init
#define ARG(k) , 0
#define SHARED(k) __shared__ int c##k;
#define INIT(k) c##k = c##k##_init;
#define UPDATE(k) c##k += k;
#define PLUS(k) +c##k

__global__ void increment_array(int *a SEQ(N, PARAM)) {
  SEQ(N, SHARED)
  if (threadIdx.x == 0) {
    SEQ(N, INIT)
    SEQ(N, UPDATE)
  }
  __syncthreads();
  a[blockIdx.x * WORKERS + threadIdx.x] += 0 SEQ(N, PLUS);
}

static int initial_a(int i) { return (i * 7) % 13 - 6; }

int main(void) {
  static int a[SIZE];
  for (int i = 0; i < SIZE; i++)
    a[i] = initial_a(i);
  int *d_a = to_device(a, SIZE);
  auto launch = [&] { increment_array<<<TEAMS, WORKERS>>>(d_a SEQ(N, ARG)); };
  run_once(launch);
  to_host(a, d_a, SIZE);

  const int sum = N * (N + 1) / 2;
  int errors = 0;
  for (int i = 0; i < SIZE; i++)
    if (a[i] != initial_a(i) + sum && errors++ < 10)
      printf("error: a[%d] = %d, expected %d\n", i, a[i], initial_a(i) + sum);
  printf("paper_fig5 (CUDA) N=%d TEAMS=%d WORKERS=%d ran on device: %s\n", N,
         TEAMS, WORKERS, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  CUDA_CHECK(cudaFree(d_a));
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
