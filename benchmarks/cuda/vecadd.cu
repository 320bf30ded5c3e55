// vecadd.cu - CUDA counterpart of ../seeds/vecadd.c (ompds benchmark): the
// CUDA kernels of Figures 6 and 7 of Bertolli et al. (LLVM-HPC'15), grid-
// stride loops over a[i] += b[i] + c[i] (UNROLL=0) or over the unrollable
// inner loop a[i] += b[i] + c[NLOOP * i + j] (UNROLL=1).
//
// Macros: UNROLL 0/1 (default 0), VN vector length (default 16384), NLOOP
// (default 100), THREADS per block (default 256), INNER_UNROLL (if set,
// `#pragma unroll INNER_UNROLL` on the inner loop, as in vecadd.c).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#ifndef UNROLL
#define UNROLL 0
#endif
#ifndef VN
#define VN 16384
#endif
#ifndef NLOOP
#define NLOOP 100
#endif
#ifndef THREADS
#define THREADS 256
#endif
#if UNROLL
#define CLEN ((long)VN * NLOOP)
#else
#define CLEN ((long)VN)
#endif

#ifdef INNER_UNROLL
#define VA_PRAGMA_(x) _Pragma(#x)
#define VA_PRAGMA(x) VA_PRAGMA_(x)
#define INNER_LOOP_HINT VA_PRAGMA(unroll INNER_UNROLL)
#else
#define INNER_LOOP_HINT
#endif

#if !UNROLL
__global__ void vectorAdd(int n, double *a, const double *b, const double *c) {
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n;
       i += blockDim.x * gridDim.x)
    a[i] += b[i] + c[i];
}
#else
__global__ void vectorAddUnroll(int n, double *a, const double *b,
                                const double *c) {
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n;
       i += blockDim.x * gridDim.x)
    INNER_LOOP_HINT
    for (int j = 0; j < NLOOP; j++)
      a[i] += b[i] + c[(long)NLOOP * i + j];
}
#endif

int main(void) {
  double *a = (double *)malloc(sizeof(double) * VN);
  double *a_ref = (double *)malloc(sizeof(double) * VN);
  double *b = (double *)malloc(sizeof(double) * VN);
  double *c = (double *)malloc(sizeof(double) * CLEN);
  if (!a || !a_ref || !b || !c) {
    printf("vecadd (CUDA): out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long i = 0; i < VN; i++) {
    a[i] = a_ref[i] = (double)(i % 17) * 0.25 - 2.0;
    b[i] = 1.0 + (double)(i % 5) * 0.5;
  }
  for (long k = 0; k < CLEN; k++)
    c[k] = (double)(k % 11) * 0.125;
  double *d_a = to_device(a, VN), *d_b = to_device(b, VN),
         *d_c = to_device(c, CLEN);
  int blocks = (VN + THREADS - 1) / THREADS;
  auto launch = [&] {
#if !UNROLL
    vectorAdd<<<blocks, THREADS>>>(VN, d_a, d_b, d_c);
#else
    vectorAddUnroll<<<blocks, THREADS>>>(VN, d_a, d_b, d_c);
#endif
  };
  run_once(launch);
  to_host(a, d_a, VN);

  int errors = 0;
  for (long i = 0; i < VN; i++) {
    double x = a_ref[i];
    for (int j = 0; j < (UNROLL ? NLOOP : 1); j++)
      x = x + (b[i] + c[UNROLL ? (long)NLOOP * i + j : i]);
    double tol = 1e-12 * (fabs(x) > 1.0 ? fabs(x) : 1.0);
    if (!(fabs(a[i] - x) <= tol) && errors++ < 10)
      printf("error: a[%ld] = %.17g, expected %.17g\n", i, a[i], x);
  }
  printf("vecadd (CUDA) UNROLL=%d VN=%d NLOOP=%d ran on device: %s\n", UNROLL,
         VN, UNROLL ? NLOOP : 1, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_c));
  free(a);
  free(a_ref);
  free(b);
  free(c);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
