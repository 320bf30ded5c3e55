/* big_shared.c - a team-shared array larger than a block's shared memory.
 *
 * The sequential part of a generic-mode target region fills a 64 KiB array
 * that a parallel region reads.  No NVIDIA GPU gives a block 64 KiB of static
 * shared memory (48 KiB), so the array must stay a runtime allocation: ompds
 * keeps it out of the depot (budget 32 KiB per kernel, with a remark) and out
 * of openmp-opt's shared buffers (32 KiB per function).  Without the budgets
 * the program does not link ("uses too much shared data"): ompds 0.1.0's
 * first depot at -O0, stock clang 19 at -O2.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef TEAMS
#define TEAMS 8
#endif
#ifndef WORKERS
#define WORKERS 64
#endif
#define BIG 8192 /* doubles: 64 KiB */
#define POISON (-1.0)

static double kernel_seconds;

static void run_target(double *out) {
  double t0 = bench_now();
#pragma omp target teams num_teams(TEAMS) thread_limit(WORKERS)               \
    map(tofrom : out[:TEAMS * WORKERS])
  {
    for (int t = omp_get_team_num(); t < TEAMS; t += omp_get_num_teams()) {
      double big[BIG];
      for (int i = 0; i < BIG; i++)
        big[i] = t + 0.25 * i;
#pragma omp parallel for
      for (int i = 0; i < WORKERS; i++)
        out[t * WORKERS + i] = big[(i * 127) % BIG] + big[BIG - 1 - i];
    }
  }
  kernel_seconds = bench_now() - t0;
}

int main(void) {
  static double out[TEAMS * WORKERS];
  for (int i = 0; i < TEAMS * WORKERS; i++)
    out[i] = POISON;

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  run_target(out);

  int errors = 0;
  for (int t = 0; t < TEAMS; t++)
    for (int i = 0; i < WORKERS; i++) {
      double want = (t + 0.25 * ((i * 127) % BIG)) + (t + 0.25 * (BIG - 1 - i));
      if (out[t * WORKERS + i] != want && errors++ < 10)
        printf("error: out[%d] = %g, expected %g\n", t * WORKERS + i,
               out[t * WORKERS + i], want);
    }

  printf("big_shared TEAMS=%d WORKERS=%d ran on %s: %s\n", TEAMS, WORKERS,
         bench_where(on_host), errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
    for (int r = 0; r <= reps; r++) {
      run_target(out);
      if (r > 0)
        times[r - 1] = kernel_seconds;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
