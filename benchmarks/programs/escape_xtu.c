/* escape_xtu.c - escaping locals of a device function defined in another
 * translation unit, called from the sequential part of a generic-mode target
 * region (ompds benchmark).  Build together with escape_xtu_dev.c:
 *
 *   clang -fopenmp --offload-arch=sm_90 -O2 escape_xtu.c escape_xtu_dev.c
 *
 * The kernel here only sees the declaration of block_scan() (escape_xtu.h);
 * the globalized locals live in escape_xtu_dev.c.  Without link-time
 * optimization of the device code, neither translation unit can prove that
 * block_scan() has one activation per team.
 *
 * Macros (all optional, the same for both files): TEAMS (default 8), WORKERS
 * (default 96), CHUNKS dividing WORKERS (default 8).  Outputs out[] and
 * totals[] are poisoned.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"
#include "escape_xtu.h"

#define POISON 0x7f5eed5e

static double kernel_seconds;

static void run_target(const int *in, int *out, int *totals, int *info) {
  double t0 = bench_now();
#pragma omp target teams num_teams(TEAMS) thread_limit(WORKERS)               \
    map(to : in[:SIZE]) map(tofrom : out[:SIZE], totals[:TEAMS], info[:1])
  {
    int team = omp_get_team_num(), nteams = omp_get_num_teams();
    if (team == 0)
      info[0] = nteams;
    for (int t = team; t < TEAMS; t += nteams)
      block_scan(in, out, totals, t);
  }
  kernel_seconds = bench_now() - t0;
}

int main(void) {
  static int in[SIZE], out[SIZE], totals[TEAMS];
  int info[1] = {-1};
  for (int i = 0; i < SIZE; i++) {
    in[i] = (i * 13 + 5) % 23 - 11;
    out[i] = POISON;
  }
  for (int t = 0; t < TEAMS; t++)
    totals[t] = POISON;

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  run_target(in, out, totals, info);

  int errors = 0;
  errors += bench_check_teams(info[0], TEAMS);
  for (int t = 0; t < TEAMS; t++) {
    int s = 0;
    for (int i = t * WORKERS; i < (t + 1) * WORKERS; i++) {
      s += in[i];
      if (out[i] != s && errors++ < 10)
        printf("error: out[%d] = %d, expected %d\n", i, out[i], s);
    }
    if (totals[t] != s && errors++ < 10)
      printf("error: totals[%d] = %d, expected %d\n", t, totals[t], s);
  }

  printf("escape_xtu TEAMS=%d WORKERS=%d CHUNKS=%d ran on %s: %s\n", TEAMS,
         WORKERS, CHUNKS,
         bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(to : in[:SIZE])                                    \
    map(tofrom : out[:SIZE], totals[:TEAMS], info[:1])
    for (int r = 0; r <= reps; r++) {
      run_target(in, out, totals, info);
      if (r > 0)
        times[r - 1] = kernel_seconds;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
