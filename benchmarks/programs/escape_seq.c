/* escape_seq.c - escaping locals of a device function that the sequential
 * part of a generic-mode target region calls (ompds benchmark).
 *
 * Pattern: the team's initial thread calls block_stats() (a separate,
 * non-inlined `declare target` function, as in real codes); its locals
 * hist[] and total are shared with the parallel regions it opens, so Clang
 * globalizes them (__kmpc_alloc_shared in the device function, since Clang
 * cannot know who calls it).  Only one activation per team exists, so they
 * could live in a static shared-memory depot.  The workers read the shared
 * locals, then write them (iteration b alone owns hist[b]), and the
 * sequential part reads them back, so a private copy would be caught.
 *
 * Macros (all optional): TEAMS (default 8), WORKERS iterations per parallel
 * loop and thread_limit (default 96), NBINS histogram bins, a power of two
 * <= WORKERS (default 8).
 *
 * Outputs out[] and bins[] are poisoned before the kernel runs.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef TEAMS
#define TEAMS 8
#endif
#ifndef WORKERS
#define WORKERS 96
#endif
#ifndef NBINS
#define NBINS 8
#endif
#if NBINS < 1 || NBINS > WORKERS || (NBINS & (NBINS - 1))
#error "NBINS must be a power of two <= WORKERS"
#endif

#define SIZE (TEAMS * WORKERS)
#define POISON 0x7f5eed5e

#pragma omp declare target
__attribute__((noinline)) static void block_stats(const int *in, int *out,
                                                  int *bins, int t) {
  int hist[NBINS];
  int total = 0;
  for (int b = 0; b < NBINS; b++)
    hist[b] = 0;
  for (int i = 0; i < WORKERS; i++) {
    int v = in[t * WORKERS + i];
    hist[v & (NBINS - 1)]++;
    total += v;
  }
#pragma omp parallel for
  for (int i = 0; i < WORKERS; i++)
    out[t * WORKERS + i] = in[t * WORKERS + i] * hist[i % NBINS] + total;
#pragma omp parallel for
  for (int b = 0; b < NBINS; b++)
    hist[b] = 3 * hist[b] + b;
  for (int b = 0; b < NBINS; b++)
    bins[t * NBINS + b] = hist[b] + total;
}
#pragma omp end declare target

static double kernel_seconds;

static void run_target(const int *in, int *out, int *bins, int *info) {
  double t0 = bench_now();
#pragma omp target teams num_teams(TEAMS) thread_limit(WORKERS)               \
    map(to : in[:SIZE]) map(tofrom : out[:SIZE], bins[:TEAMS * NBINS], info[:1])
  {
    int team = omp_get_team_num(), nteams = omp_get_num_teams();
    if (team == 0)
      info[0] = nteams;
    for (int t = team; t < TEAMS; t += nteams)
      block_stats(in, out, bins, t);
  }
  kernel_seconds = bench_now() - t0;
}

int main(void) {
  static int in[SIZE], out[SIZE], bins[TEAMS * NBINS];
  int info[1] = {-1};
  for (int i = 0; i < SIZE; i++) {
    in[i] = (i * 37 + 11) % 101;
    out[i] = POISON;
  }
  for (int i = 0; i < TEAMS * NBINS; i++)
    bins[i] = POISON;

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  run_target(in, out, bins, info);

  int errors = 0;
  errors += bench_check_teams(info[0], TEAMS);
  for (int t = 0; t < TEAMS; t++) {
    int hist[NBINS] = {0}, total = 0;
    for (int i = 0; i < WORKERS; i++) {
      hist[in[t * WORKERS + i] % NBINS] += 1;
      total += in[t * WORKERS + i];
    }
    for (int i = 0; i < WORKERS; i++) {
      int want = in[t * WORKERS + i] * hist[i % NBINS] + total;
      if (out[t * WORKERS + i] != want && errors++ < 10)
        printf("error: out[%d] = %d, expected %d\n", t * WORKERS + i,
               out[t * WORKERS + i], want);
    }
    for (int b = 0; b < NBINS; b++) {
      int want = 3 * hist[b] + b + total;
      if (bins[t * NBINS + b] != want && errors++ < 10)
        printf("error: bins[%d] = %d, expected %d\n", t * NBINS + b,
               bins[t * NBINS + b], want);
    }
  }

  printf("escape_seq TEAMS=%d WORKERS=%d NBINS=%d ran on %s: %s\n", TEAMS,
         WORKERS, NBINS,
         bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(to : in[:SIZE])                                    \
    map(tofrom : out[:SIZE], bins[:TEAMS * NBINS], info[:1])
    for (int r = 0; r <= reps; r++) {
      run_target(in, out, bins, info);
      if (r > 0)
        times[r - 1] = kernel_seconds;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
