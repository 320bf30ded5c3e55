/* paper_fig6.c - the kernel of Figure 6 of Bercea et al., "Implementing
 * implicit OpenMP data sharing on GPUs" (LLVM-HPC'17), as printed (ompds
 * benchmark), for comparing the paper's and the issues' figures.
 *
 * `target` with a nested `teams thread_limit(WORKERS) num_teams(TEAMS)`: the
 * sequential part declares M arrays int d1[WORKERS] .. dM[WORKERS] and fills
 * them (d<m>[i] = 10 * m; the figure has one array filled with 10), then a
 * plain `parallel` region adds element omp_get_thread_num() of every array
 * to a[team * WORKERS + thread].  Nothing else is in the module: no probe
 * kernel (see paper_fig5.c).  benchmarks/seeds/fig6.c is the stronger test of
 * the same pattern (workers also write the arrays back).
 *
 * Macros (all optional): M arrays, integer literal 1..64 (default 1; the
 * paper measures 1..4); TEAMS (default 8); WORKERS (default 96).
 *
 * Check: as in paper_fig5.c, each block of a[] must be untouched or updated
 * by exactly 10 * (1 + .. + M) in a non-empty prefix (fewer threads or teams
 * on the host fallback); on a device every block completely.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"
#include "../seeds/seq.h"

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
#define DECL(m) int d##m[WORKERS];
#define FILL(m) d##m[i] = 10 * m;
#define PLUS(m) +d##m[omp_get_thread_num()]

static double kernel_seconds;

void increment_array(int *a) {
  double t0 = bench_now();
#pragma omp target map(tofrom : a[:SIZE])
#pragma omp teams thread_limit(WORKERS) num_teams(TEAMS)
  {
    SEQ(M, DECL)
    for (int i = 0; i < WORKERS; i++) {
      SEQ(M, FILL)
    }
#pragma omp parallel
    {
      a[omp_get_team_num() * WORKERS + omp_get_thread_num()] += 0 SEQ(M, PLUS);
    }
  }
  kernel_seconds = bench_now() - t0;
}

/* No probe target region (see paper_fig5.c). */
static int on_device(void) {
  return omp_get_num_devices() > 0 &&
         omp_get_default_device() != omp_get_initial_device();
}

static int initial_a(int i) { return (i * 5) % 11 - 5; }

int main(void) {
  static int a[SIZE];
  const int sum = 10 * M * (M + 1) / 2;
  for (int i = 0; i < SIZE; i++)
    a[i] = initial_a(i);
  int device = on_device();

  increment_array(a);

  int errors = 0, full_blocks = 0, threads = -1;
  for (int t = 0; t < TEAMS; t++) {
    int k = 0; /* length of the updated prefix of block t */
    while (k < WORKERS &&
           a[t * WORKERS + k] == initial_a(t * WORKERS + k) + sum)
      k++;
    for (int i = k; i < WORKERS; i++)
      if (a[t * WORKERS + i] != initial_a(t * WORKERS + i) && errors++ < 10)
        printf("error: a[%d] = %d, expected %d or %d\n", t * WORKERS + i,
               a[t * WORKERS + i], initial_a(t * WORKERS + i),
               initial_a(t * WORKERS + i) + sum);
    /* Every team's parallel region has the same number of threads, at most
     * WORKERS: generic-mode kernels (-O0) give the main thread's warp no
     * part in it, so 96 threads per team run 64 of them. */
    if (t == 0)
      threads = k;
    full_blocks += k == threads;
    if (t == 0 && k == 0 && errors++ < 10)
      printf("error: block 0 was not updated\n");
  }
  if (device && (threads < 1 || full_blocks != TEAMS) && errors++ < 10)
    printf("error: %d of %d blocks updated by the %d threads of block 0\n",
           full_blocks, TEAMS, threads);

  printf("paper_fig6 M=%d TEAMS=%d WORKERS=%d THREADS=%d ran on %s: %s\n", M,
         TEAMS, WORKERS, threads, device ? "device" : "host",
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(tofrom : a[:SIZE])
    for (int r = 0; r <= reps; r++) {
      increment_array(a);
      if (r > 0)
        times[r - 1] = kernel_seconds;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
