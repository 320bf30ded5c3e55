// fig6.cu - CUDA counterpart of ../seeds/fig6.c (ompds benchmark): M
// team-shared arrays __shared__ int d<m>[WORKERS], filled by thread 0; after
// a barrier thread i reads element i of every array into a[] and writes it
// back; after another barrier thread 0 computes a position-weighted checksum
// of each array.  One block per team, WORKERS threads per block.
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
#define POISON 0x7f5eed5e
#define FILLV(m, t, i) (10 * (m) + (i) + 3 * (t))

#define SHARED(m) __shared__ int d##m[WORKERS];
#define SEQ_FILL(m) d##m[j] = FILLV(m, t, j);
#define PLUS(m) +d##m[i]
#define WORKER_WRITE(m) d##m[i] = 2 * d##m[i] + (m);
#define CHECKSUM(m)                                                            \
  {                                                                            \
    int s = 0;                                                                 \
    for (int j = 0; j < WORKERS; j++)                                          \
      s += (j + 1) * d##m[j];                                                  \
    sums[t * M + (m) - 1] = s;                                                 \
  }

__global__ void fig6_kernel(int *a, int *sums) {
  SEQ(M, SHARED)
  int t = blockIdx.x, i = threadIdx.x;
  if (i == 0)
    for (int j = 0; j < WORKERS; j++) {
      SEQ(M, SEQ_FILL)
    }
  __syncthreads();
  a[t * WORKERS + i] += 0 SEQ(M, PLUS);
  SEQ(M, WORKER_WRITE)
  __syncthreads();
  if (i == 0) {
    SEQ(M, CHECKSUM)
  }
}

int main(void) {
  static int a[SIZE], a_ref[SIZE], sums[TEAMS * M], sums_ref[TEAMS * M];
  for (int i = 0; i < SIZE; i++)
    a[i] = a_ref[i] = (i * 5) % 11 - 5;
  for (int i = 0; i < TEAMS * M; i++)
    sums[i] = POISON;
  int *d_a = to_device(a, SIZE), *d_sums = to_device(sums, TEAMS * M);
  auto launch = [&] { fig6_kernel<<<TEAMS, WORKERS>>>(d_a, d_sums); };
  run_once(launch);
  to_host(a, d_a, SIZE);
  to_host(sums, d_sums, TEAMS * M);

  for (int t = 0; t < TEAMS; t++) {
    for (int i = 0; i < WORKERS; i++)
      for (int m = 1; m <= M; m++)
        a_ref[t * WORKERS + i] += FILLV(m, t, i);
    for (int m = 1; m <= M; m++) {
      int s = 0;
      for (int i = 0; i < WORKERS; i++)
        s += (i + 1) * (2 * FILLV(m, t, i) + m);
      sums_ref[t * M + m - 1] = s;
    }
  }
  int errors = 0;
  for (int i = 0; i < SIZE; i++)
    if (a[i] != a_ref[i] && errors++ < 10)
      printf("error: a[%d] = %d, expected %d\n", i, a[i], a_ref[i]);
  for (int i = 0; i < TEAMS * M; i++)
    if (sums[i] != sums_ref[i] && errors++ < 10)
      printf("error: checksum of d%d in block %d = %d, expected %d\n",
             i % M + 1, i / M, sums[i], sums_ref[i]);
  printf("fig6 (CUDA) M=%d TEAMS=%d WORKERS=%d ran on device: %s\n", M, TEAMS,
         WORKERS, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_sums));
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
