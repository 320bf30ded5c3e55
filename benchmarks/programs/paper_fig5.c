/* paper_fig5.c - the kernel of Figure 5 of Bercea et al., "Implementing
 * implicit OpenMP data sharing on GPUs" (LLVM-HPC'17), as printed, so that
 * the paper's and the issues' register and shared-memory figures can be
 * compared with ours (ompds benchmark).
 *
 * The target region is exactly the figure's: `target` with a nested `teams
 * num_teams(TEAMS) thread_limit(WORKERS)`, whose sequential part updates the
 * scalars c1..cN and opens a plain `parallel` region in which every thread
 * adds all of them to a[team * WORKERS + thread].  Nothing else runs in the
 * module: there is no device/host probe kernel, and the check happens on the
 * host.  (benchmarks/seeds/fig5.c is the stronger test of the
 * same pattern: it also writes the scalars from the workers and reads them
 * back; its kernel is therefore bigger.)
 *
 * Macros (all optional):
 *   N        number of shared scalars, integer literal 1..64 (default 1; the
 *            figure shows 7 plus the array reference)
 *   INSIDE   0: c1..cN are declared in the host function, as in the figure
 *               (default); the target region captures them firstprivate
 *            1: they are declared at the top of the teams region instead.
 *               This is the form whose stock-LLVM 19 figures the ompds issues
 *               quote (59 registers / 2140 B at -O0, 24 / 12 B at -O2 on sm_90)
 *   TEAMS    number of teams (default 8), WORKERS thread_limit (default 96)
 *
 * The check knows that `parallel` may run fewer threads than WORKERS and
 * `teams` fewer teams than TEAMS (host fallback): each block of a[] must be
 * either untouched, or updated by exactly c1+..+cN in a non-empty prefix of
 * its elements; on a device every block must be updated completely.  With
 * INSIDE=0 the figure's scalars are shared by all teams (a race in the
 * figure); a GPU gives each team its own copy, the host fallback may not, so
 * there the check accepts any sum up to TEAMS times the exact one.  a[] is
 * updated in place (its initial contents are the poison: the sum is >= 1).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"
#include "../seeds/seq.h"

#ifndef N
#define N 1
#endif
#ifndef INSIDE
#define INSIDE 0
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
#define DECL(k) int c##k = 0;
#define UPDATE(k) c##k += k;
#define PLUS(k) +c##k

static double kernel_seconds;

void increment_array(int *a) {
#if !INSIDE
  SEQ(N, DECL)
#endif
  double t0 = bench_now();
#pragma omp target map(tofrom : a[:SIZE])
#pragma omp teams num_teams(TEAMS) thread_limit(WORKERS)
  {
#if INSIDE
    SEQ(N, DECL)
#endif
    SEQ(N, UPDATE)
#pragma omp parallel
    {
      a[omp_get_team_num() * WORKERS + omp_get_thread_num()] += 0 SEQ(N, PLUS);
    }
  }
  kernel_seconds = bench_now() - t0;
}

/* Whether target regions run on a device.  Deliberately not a probe target
 * region: a second kernel in the module moves the shared-memory layout nvlink
 * gives the first one (by 4 bytes at -O0 on sm_90). */
static int on_device(void) {
  return omp_get_num_devices() > 0 &&
         omp_get_default_device() != omp_get_initial_device();
}

static int initial_a(int i) { return (i * 7) % 13 - 6; }

int main(void) {
  static int a[SIZE];
  const int sum = N * (N + 1) / 2; /* c1 + .. + cN after the updates */
  for (int i = 0; i < SIZE; i++)
    a[i] = initial_a(i);
  int device = on_device();

  increment_array(a);

  /* With INSIDE=0 the scalars are shared by the whole league of teams, as
   * in the figure: the teams race on them.  On a GPU each team still works on
   * its own copy (the kernel's firstprivate), so the sum is exact; on the
   * host fallback several teams may add to the same copy first. */
  const int maxsum = INSIDE || device ? sum : TEAMS * sum;
  int errors = 0, full_blocks = 0, threads = -1;
  for (int t = 0; t < TEAMS; t++) {
    int k = 0; /* length of the updated prefix of block t */
    while (k < WORKERS) {
      int d = a[t * WORKERS + k] - initial_a(t * WORKERS + k);
      if (d < sum || d > maxsum)
        break;
      k++;
    }
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

  printf("paper_fig5 N=%d INSIDE=%d TEAMS=%d WORKERS=%d THREADS=%d ran on %s: "
         "%s\n",
         N, INSIDE, TEAMS, WORKERS, threads, device ? "device" : "host",
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
