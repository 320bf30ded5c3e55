/* cuda_bench.h - error checking and kernel timing for the CUDA equivalents of
 * the ompds benchmarks.  See ../common/bench.h for the TIME line. */
#ifndef OMPDS_CUDA_BENCH_H
#define OMPDS_CUDA_BENCH_H

#include <cuda_runtime.h>

#include "../common/bench.h"

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      printf("CUDA error '%s' at %s:%d: FAIL\n", cudaGetErrorString(err_),     \
             __FILE__, __LINE__);                                              \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

/* Copies n elements host -> device (fresh allocation). */
template <class T> static T *to_device(const T *h, size_t n) {
  T *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, sizeof(T) * (n ? n : 1)));
  if (n)
    CUDA_CHECK(cudaMemcpy(d, h, sizeof(T) * n, cudaMemcpyHostToDevice));
  return d;
}

template <class T> static void to_host(T *h, const T *d, size_t n) {
  CUDA_CHECK(cudaMemcpy(h, d, sizeof(T) * n, cudaMemcpyDeviceToHost));
}

/* Runs launch() once and checks for launch and execution errors. */
template <class F> static void run_once(F launch) {
  launch();
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

/* Optional timing (OMPDS_BENCH_REPS): R + 1 launches, the first dropped;
 * wall-clock around launch + cudaDeviceSynchronize(), as the OpenMP programs
 * time a synchronous target region, plus the cudaEvent time (event_us). */
template <class F> static void bench_kernel(const char *label, F launch) {
  int reps = bench_reps();
  if (reps < 1)
    return;
  double *wall = bench_alloc(reps), *ev = bench_alloc(reps);
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int r = 0; r <= reps; r++) {
    double t0 = bench_now();
    CUDA_CHECK(cudaEventRecord(e0));
    launch();
    CUDA_CHECK(cudaEventRecord(e1));
    CUDA_CHECK(cudaDeviceSynchronize());
    double t1 = bench_now();
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    if (r > 0) {
      wall[r - 1] = t1 - t0;
      ev[r - 1] = 1e-3 * ms;
    }
  }
  bench_sort(ev, reps);
  char extra[64];
  snprintf(extra, sizeof extra, " event_us=%.3f",
           1e6 * bench_median_sorted(ev, reps));
  bench_report(label, wall, reps, extra);
  free(wall);
  free(ev);
  CUDA_CHECK(cudaEventDestroy(e0));
  CUDA_CHECK(cudaEventDestroy(e1));
}

#endif
