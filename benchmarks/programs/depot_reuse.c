/* depot_reuse.c - team-shared locals of disjoint scopes share depot space.
 *
 * The sequential part of a generic-mode target region declares, one after
 * the other, an int array and a double array in two blocks, and an int in a
 * loop body; each is shared with a parallel region.  ompds gives the two
 * arrays the same bytes of the kernel's shared-memory depot (their scopes do
 * not overlap) and the loop variable one live range per iteration.  The
 * output tells whether each value reached every thread intact: a wrong
 * overlap shows up as values of the other array.
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
#define ROUNDS 3
#define SIZE (TEAMS * WORKERS)
#define POISON 0x7f5eed5e

static double kernel_seconds;

static void run_target(int *out) {
  double t0 = bench_now();
#pragma omp target teams num_teams(TEAMS) thread_limit(WORKERS)               \
    map(tofrom : out[:3 * SIZE])
  {
    for (int t = omp_get_team_num(); t < TEAMS; t += omp_get_num_teams()) {
      {
        int a[WORKERS];
        for (int i = 0; i < WORKERS; i++)
          a[i] = t * 1000 + i;
#pragma omp parallel for
        for (int i = 0; i < WORKERS; i++)
          out[(3 * t + 0) * WORKERS + i] = a[(i + 1) % WORKERS];
      }
      {
        double b[WORKERS / 2];
        for (int i = 0; i < WORKERS / 2; i++)
          b[i] = t + 0.5 * i;
#pragma omp parallel for
        for (int i = 0; i < WORKERS; i++)
          out[(3 * t + 1) * WORKERS + i] = (int)(2 * b[i % (WORKERS / 2)]);
      }
      for (int r = 0; r < ROUNDS; r++) {
        int c = t * 10 + r;
#pragma omp parallel for
        for (int i = 0; i < WORKERS; i++)
          out[(3 * t + 2) * WORKERS + i] += c;
      }
    }
  }
  kernel_seconds = bench_now() - t0;
}

static int want(int t, int k, int i) {
  if (k == 0)
    return t * 1000 + (i + 1) % WORKERS;
  if (k == 1)
    return 2 * t + i % (WORKERS / 2);
  return ROUNDS * t * 10 + ROUNDS * (ROUNDS - 1) / 2;
}

int main(void) {
  static int out[3 * SIZE];
  for (int i = 0; i < 3 * SIZE; i++)
    out[i] = (i / WORKERS) % 3 == 2 ? 0 : POISON;

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  run_target(out);

  int errors = 0;
  for (int t = 0; t < TEAMS; t++)
    for (int k = 0; k < 3; k++)
      for (int i = 0; i < WORKERS; i++) {
        int got = out[(3 * t + k) * WORKERS + i];
        if (got != want(t, k, i) && errors++ < 10)
          printf("error: team %d part %d thread %d: %d, expected %d\n", t, k,
                 i, got, want(t, k, i));
      }

  printf("depot_reuse TEAMS=%d WORKERS=%d ran on %s: %s\n", TEAMS, WORKERS,
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
