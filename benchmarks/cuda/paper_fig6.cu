// paper_fig6.cu - CUDA counterpart of ../programs/paper_fig6.c (ompds
// benchmark): the M team-shared arrays of Figure 6 of Bercea et al.
// (LLVM-HPC'17) as __shared__ int d<m>[WORKERS], filled by thread 0, read
// after a barrier by all threads.
//
// Macros: M (1..64, default 1), TEAMS (default 8), WORKERS (default 96).
#include <stdio.h>
#include <stdlib.h>

#include "../seeds/seq.h"
#include "cuda_bench.h"

#ifndef M
#define M 1
#endif
#ifndef TEAMS
#define TEAMS 8
#endif
#ifndef WORKERS
#define WORKERS 96
#endif
#if M < 1 || M > SEQ_MAX
#error "M must be an integer literal in 1..64"
#endif

#define SIZE (TEAMS * WORKERS)
#define SHARED(m) __shared__ int d##m[WORKERS];
#define FILL(m) d##m[i] = 10 * m;
#define PLUS(m) +d##m[threadIdx.x]

__global__ void increment_array(int *a) {
  SEQ(M, SHARED)
  if (threadIdx.x == 0)
    for (int i = 0; i < WORKERS; i++) {
      SEQ(M, FILL)
    }
  __syncthreads();
  a[blockIdx.x * WORKERS + threadIdx.x] += 0 SEQ(M, PLUS);
}

static int initial_a(int i) { return (i * 5) % 11 - 5; }

int main(void) {
  static int a[SIZE];
  for (int i = 0; i < SIZE; i++)
    a[i] = initial_a(i);
  int *d_a = to_device(a, SIZE);
  auto launch = [&] { increment_array<<<TEAMS, WORKERS>>>(d_a); };
  run_once(launch);
  to_host(a, d_a, SIZE);

  const int sum = 10 * M * (M + 1) / 2;
  int errors = 0;
  for (int i = 0; i < SIZE; i++)
    if (a[i] != initial_a(i) + sum && errors++ < 10)
      printf("error: a[%d] = %d, expected %d\n", i, a[i], initial_a(i) + sum);
  printf("paper_fig6 (CUDA) M=%d TEAMS=%d WORKERS=%d ran on device: %s\n", M,
         TEAMS, WORKERS, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  CUDA_CHECK(cudaFree(d_a));
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
