/* guard_race.c - stress test: team-shared locals updated by the sequential
 * part of a target region that openmp-opt turns into an SPMD kernel.
 *
 * Each team walks many tiles with a loop variable `t` and a counter `k` that
 * its parallel regions read, so both are team-shared (depot objects).  After
 * SPMDization every thread evaluates the loop condition `t < TILES` (a load
 * of t), and only thread 0 performs the update `t += num_teams` (a store).
 * The update must not happen while another thread of the team has yet to
 * read the old value: a thread that reads the new one skips a tile, the team's
 * threads disagree about the trip count, and tiles go missing or the kernel
 * hangs at a barrier.  Few teams and many tiles give that window many chances.
 *
 * Every tile is written by exactly one team; the output records the tile,
 * the team's counter and the reading thread, and is checked in full.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef TEAMS
#define TEAMS 8
#endif
#ifndef TILES
#define TILES 8192
#endif
#ifndef WORKERS
#define WORKERS 128
#endif
#define POISON (-7)

static double kernel_seconds;

static void run_target(int *out, int *trips) {
  double t0 = bench_now();
#pragma omp target teams num_teams(TEAMS) thread_limit(WORKERS)               \
    map(tofrom : out[:(long)TILES * WORKERS], trips[:TEAMS])
  {
    int k = 0;
    for (int t = omp_get_team_num(); t < TILES; t += omp_get_num_teams()) {
      k = k + 1;
#pragma omp parallel for
      for (int i = 0; i < WORKERS; i++)
        out[(long)t * WORKERS + i] = t * 16 + (k & 15);
    }
    trips[omp_get_team_num()] = k;
  }
  kernel_seconds = bench_now() - t0;
}

int main(void) {
  int *out = malloc(sizeof(int) * (size_t)TILES * WORKERS);
  int trips[TEAMS];
  if (!out) {
    printf("guard_race: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long i = 0; i < (long)TILES * WORKERS; i++)
    out[i] = POISON;
  for (int i = 0; i < TEAMS; i++)
    trips[i] = POISON;

  int on_host = -1, teams = 0;
#pragma omp target teams num_teams(TEAMS) map(from : on_host, teams)
  if (omp_get_team_num() == 0) {
    on_host = omp_is_initial_device();
    teams = omp_get_num_teams();
  }

  run_target(out, trips);

  int errors = bench_check_teams(teams, TEAMS);
  for (long t = 0; t < TILES; t++) {
    int team = (int)(t % teams);
    int k = (int)(t / teams) + 1; /* the team's trip in which it wrote t */
    for (int i = 0; i < WORKERS; i++) {
      int got = out[t * WORKERS + i];
      int want = (int)t * 16 + (k & 15);
      if (got != want && errors++ < 10)
        printf("error: tile %ld (team %d) thread %d: %d, expected %d\n", t,
               team, i, got, want);
    }
  }
  for (int team = 0; team < teams; team++) {
    int want = (TILES - team + teams - 1) / teams;
    if (trips[team] != want && errors++ < 10)
      printf("error: team %d made %d trips, expected %d\n", team, trips[team],
             want);
  }

  printf("guard_race TEAMS=%d TILES=%d WORKERS=%d ran on %s: %s\n", TEAMS,
         TILES, WORKERS, bench_where(on_host), errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
    for (int r = 0; r <= reps; r++) {
      run_target(out, trips);
      if (r > 0)
        times[r - 1] = kernel_seconds;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  free(out);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
