/* vecadd.c - vector add with a combined target construct, and its variant
 * with an unrollable inner loop (ompds seed benchmark).
 *
 * Pattern: Bertolli et al., "Integrating GPU Support for OpenMP Offloading
 * Directives into Clang" (LLVM-HPC'15), Figure 6 (vector add,
 * a[i] += b[i] + c[i] under `target teams distribute parallel for
 * schedule(static, 1)`) and Figure 7 (the same loop with a nested
 * n_loop-trip inner loop, a[i] += b[i] + c[n_loop * i + j]).  The combined
 * construct has no sequential team-master code and nothing to share, so it
 * is the SPMD counterpart of fig5/fig6.
 *
 * Macros (all optional):
 *   UNROLL   0: Figure 6 kernel (default); 1: Figure 7 kernel
 *   VN       vector length n (default 16384)
 *   NLOOP    inner trip count n_loop of the UNROLL=1 kernel, a compile-time
 *            constant so the loop can be unrolled (default 100, as in the
 *            paper)
 *   INNER_UNROLL  if set, `#pragma unroll INNER_UNROLL` on that inner loop,
 *            so that every compiler unrolls it by the same factor (the
 *            vecadd-unroll-u2/-u4 experiments of benchmarks/run-gpu)
 *
 * Build: clang -fopenmp --offload-arch=sm_90 -O2 -DUNROLL=1 vecadd.c
 * Exit status 0 and "PASS" on success, 1 and "FAIL" otherwise.
 *
 * a[] is read and written in place, as in the paper.  Its pre-kernel
 * contents act as the poison: every b[i] + c[k] is >= 1, so no element of
 * a[] may keep its old value, and a stale or unwritten element fails.  All
 * values are small multiples of 1/8, so the sums are exact in double; the
 * check still allows a tiny relative tolerance.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef UNROLL
#define UNROLL 0
#endif
#ifndef VN
#define VN 16384
#endif
#ifndef NLOOP
#define NLOOP 100
#endif

#if VN < 1 || NLOOP < 1
#error "VN and NLOOP must be >= 1"
#endif

#ifdef INNER_UNROLL
#define VA_PRAGMA_(x) _Pragma(#x)
#define VA_PRAGMA(x) VA_PRAGMA_(x)
#define INNER_LOOP_HINT VA_PRAGMA(unroll INNER_UNROLL)
#else
#define INNER_LOOP_HINT
#endif

#if UNROLL
#define CLEN ((long)VN * NLOOP)
#else
#define CLEN ((long)VN)
#endif

static double init_a(long i) { return (double)(i % 17) * 0.25 - 2.0; }
static double init_b(long i) { return 1.0 + (double)(i % 5) * 0.5; }
static double init_c(long k) { return (double)(k % 11) * 0.125; }

#if !UNROLL
/* Figure 6. */
static void vector_add(int n, double *a, const double *b, const double *c) {
#pragma omp target teams distribute parallel for schedule(static, 1)          \
    map(tofrom : a[:n]) map(to : b[:n], c[:n])
  for (int i = 0; i < n; i++)
    a[i] += b[i] + c[i];
}

static void reference(int n, double *a, const double *b, const double *c) {
  for (int i = 0; i < n; i++)
    a[i] = a[i] + (b[i] + c[i]);
}
#else
/* Figure 7. */
static void vector_add(int n, double *a, const double *b, const double *c) {
#pragma omp target teams distribute parallel for schedule(static, 1)          \
    map(tofrom : a[:n]) map(to : b[:n], c[:(long)n * NLOOP])
  for (int i = 0; i < n; i++)
    INNER_LOOP_HINT
    for (int j = 0; j < NLOOP; j++)
      a[i] += b[i] + c[(long)NLOOP * i + j];
}

static void reference(int n, double *a, const double *b, const double *c) {
  for (int i = 0; i < n; i++) {
    double x = a[i];
    for (int j = 0; j < NLOOP; j++)
      x = x + (b[i] + c[(long)NLOOP * i + j]);
    a[i] = x;
  }
}
#endif

static double absd(double x) { return x < 0 ? -x : x; }

int main(void) {
  int n = VN;
  double *a = malloc(sizeof(double) * VN);
  double *a_ref = malloc(sizeof(double) * VN);
  double *b = malloc(sizeof(double) * VN);
  double *c = malloc(sizeof(double) * CLEN);
  if (!a || !a_ref || !b || !c) {
    printf("vecadd: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long i = 0; i < VN; i++) {
    a[i] = a_ref[i] = init_a(i);
    b[i] = init_b(i);
  }
  for (long k = 0; k < CLEN; k++)
    c[k] = init_c(k);

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  vector_add(n, a, b, c);
  reference(n, a_ref, b, c);

  int errors = 0;
  for (long i = 0; i < VN; i++) {
    double tol = 1e-12 * (absd(a_ref[i]) > 1.0 ? absd(a_ref[i]) : 1.0);
    if (!(absd(a[i] - a_ref[i]) <= tol) && errors++ < 10)
      printf("error: a[%ld] = %.17g, expected %.17g\n", i, a[i], a_ref[i]);
  }

  printf("vecadd UNROLL=%d VN=%d NLOOP=%d ran on %s: %s\n", UNROLL, VN,
         UNROLL ? NLOOP : 1,
         bench_where(on_host),
         errors ? "FAIL" : "PASS");

  /* Optional timing (OMPDS_BENCH_REPS, see ../common/bench.h): a[] keeps
   * accumulating, which no longer matters after the check. */
  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(tofrom : a[:VN]) map(to : b[:VN], c[:CLEN])
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      vector_add(n, a, b, c);
      if (r > 0)
        times[r - 1] = bench_now() - t0;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  free(a);
  free(a_ref);
  free(b);
  free(c);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
