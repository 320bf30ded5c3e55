// fig5.cu - CUDA counterpart of ../seeds/fig5.c (ompds benchmark): N
// team-shared scalars c1..cN as __shared__ int, updated by thread 0, read by
// every thread after a barrier, then written by their owner thread
// (thread k-1 owns c<k>) and read back by thread 0.  One block per team
// (block t handles row block t), WORKERS threads per block.
//
// Macros: N (1..64, default 8); INSIDE 1 (default): initial values are
// constants, 0: they come in as kernel arguments (the OpenMP version's
// firstprivate captures); TEAMS (default 8); WORKERS (default 96, >= N).
#include <stdio.h>
#include <stdlib.h>

#include "../seeds/seq.h"
#include "cuda_bench.h"

#ifndef N
#define N 8
#endif
#ifndef INSIDE
#define INSIDE 1
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
#if WORKERS < N
#error "WORKERS must be >= N"
#endif

#define SIZE (TEAMS * WORKERS)
#define POISON 0x7f5eed5e
#define SEED 5
#define INITV(k) (3 * (k) + 1)

#define SHARED(k) __shared__ int c##k;
#if INSIDE
#define PARAM(k)
#define ARG(k)
#define INIT(k) c##k = INITV(k);
#else
#define PARAM(k) , int c##k##_init
#define ARG(k) , INITV(k)
#define INIT(k) c##k = c##k##_init;
#endif
#define SEQ_UPDATE(k) c##k += (k) + t + seed;
#define PLUS(k) +c##k
#define OWNER_WRITE(k)                                                         \
  if (i == (k) - 1)                                                            \
    c##k = 2 * c##k + 1;
#define STORE(k) cout[t * N + (k) - 1] = c##k;

__global__ void fig5_kernel(int *a, int *cout, int seed SEQ(N, PARAM)) {
  SEQ(N, SHARED)
  int t = blockIdx.x, i = threadIdx.x;
  if (i == 0) {
    SEQ(N, INIT)
    SEQ(N, SEQ_UPDATE)
  }
  __syncthreads();
  a[t * WORKERS + i] += 0 SEQ(N, PLUS);
  __syncthreads();
  SEQ(N, OWNER_WRITE)
  __syncthreads();
  if (i == 0) {
    SEQ(N, STORE)
  }
}

int main(void) {
  static int a[SIZE], a_ref[SIZE], cout[TEAMS * N], cout_ref[TEAMS * N];
  for (int i = 0; i < SIZE; i++)
    a[i] = a_ref[i] = (i * 7) % 13 - 6;
  for (int i = 0; i < TEAMS * N; i++)
    cout[i] = POISON;
  int *d_a = to_device(a, SIZE), *d_cout = to_device(cout, TEAMS * N);
  auto launch = [&] {
    fig5_kernel<<<TEAMS, WORKERS>>>(d_a, d_cout, SEED SEQ(N, ARG));
  };
  run_once(launch);
  to_host(a, d_a, SIZE);
  to_host(cout, d_cout, TEAMS * N);

  for (int t = 0; t < TEAMS; t++) {
    int c[N + 1], sum = 0;
    for (int k = 1; k <= N; k++) {
      c[k] = INITV(k) + k + t + SEED;
      sum += c[k];
    }
    for (int i = 0; i < WORKERS; i++)
      a_ref[t * WORKERS + i] += sum;
    for (int k = 1; k <= N; k++)
      cout_ref[t * N + k - 1] = 2 * c[k] + 1;
  }
  int errors = 0;
  for (int i = 0; i < SIZE; i++)
    if (a[i] != a_ref[i] && errors++ < 10)
      printf("error: a[%d] = %d, expected %d\n", i, a[i], a_ref[i]);
  for (int i = 0; i < TEAMS * N; i++)
    if (cout[i] != cout_ref[i] && errors++ < 10)
      printf("error: c%d of block %d = %d, expected %d\n", i % N + 1, i / N,
             cout[i], cout_ref[i]);
  printf("fig5 (CUDA) N=%d INSIDE=%d TEAMS=%d WORKERS=%d ran on device: %s\n",
         N, INSIDE, TEAMS, WORKERS, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_cout));
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
