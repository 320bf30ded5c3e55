/* escape_par.c - an escaping local of a device function that every thread of
 * a parallel region calls, in a generic-mode target region (ompds benchmark).
 *
 * Pattern: window_score() is a non-inlined `declare target` function called
 * by each worker of a `parallel for` nested in the sequential part of a
 * `target teams` region.  Its local array win[] escapes into load_window(),
 * so Clang globalizes it (__kmpc_alloc_shared) although it is thread-private:
 * many activations exist at once, one per thread, so it must NOT go to a
 * per-team depot; this program checks that each thread keeps its own copy.
 * With teams of more than 32 threads, stock LLVM 19's 512-byte smart stack
 * has no room per thread, so the allocation falls back to device malloc.
 * The sequential part also owns `bias`, shared with the parallel loop.
 *
 * Macros (all optional): TEAMS (default 8), WORKERS (default 96), WIN window
 * length (default 5).  Output out[] is poisoned.
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
#ifndef WIN
#define WIN 5
#endif

#define SIZE (TEAMS * WORKERS)
#define POISON 0x7f5eed5e

#pragma omp declare target
__attribute__((noinline)) static void load_window(int *win, const int *in,
                                                  int i, int n) {
  for (int k = 0; k < WIN; k++) {
    int j = i + k - WIN / 2;
    win[k] = j >= 0 && j < n ? in[j] : 0;
  }
}

__attribute__((noinline)) static int window_score(const int *in, int i,
                                                  int n) {
  int win[WIN];
  load_window(win, in, i, n);
  int s = 0;
  for (int k = 0; k < WIN; k++)
    s += (k + 1) * win[k];
  return s;
}
#pragma omp end declare target

static double kernel_seconds;

static void run_target(const int *in, int *out, int *info) {
  double t0 = bench_now();
#pragma omp target teams num_teams(TEAMS) thread_limit(WORKERS)               \
    map(to : in[:SIZE]) map(tofrom : out[:SIZE], info[:1])
  {
    int team = omp_get_team_num(), nteams = omp_get_num_teams();
    if (team == 0)
      info[0] = nteams;
    for (int t = team; t < TEAMS; t += nteams) {
      int bias = 1000 * t;
#pragma omp parallel for
      for (int i = 0; i < WORKERS; i++)
        out[t * WORKERS + i] = window_score(in, t * WORKERS + i, SIZE) + bias;
    }
  }
  kernel_seconds = bench_now() - t0;
}

int main(void) {
  static int in[SIZE], out[SIZE];
  int info[1] = {-1};
  for (int i = 0; i < SIZE; i++) {
    in[i] = (i * 29 + 3) % 61 - 30;
    out[i] = POISON;
  }

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  run_target(in, out, info);

  int errors = 0;
  errors += bench_check_teams(info[0], TEAMS);
  for (int i = 0; i < SIZE; i++) {
    int want = 1000 * (i / WORKERS);
    for (int k = 0; k < WIN; k++) {
      int j = i + k - WIN / 2;
      want += (k + 1) * (j >= 0 && j < SIZE ? in[j] : 0);
    }
    if (out[i] != want && errors++ < 10)
      printf("error: out[%d] = %d, expected %d\n", i, out[i], want);
  }

  printf("escape_par TEAMS=%d WORKERS=%d WIN=%d ran on %s: %s\n", TEAMS,
         WORKERS, WIN,
         bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(to : in[:SIZE]) map(tofrom : out[:SIZE], info[:1])
    for (int r = 0; r <= reps; r++) {
      run_target(in, out, info);
      if (r > 0)
        times[r - 1] = kernel_seconds;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
