/* many_args.c - parallel regions with more than 64 arguments on the GPU.
 *
 * The DeviceRTL spreads out at most 64 arguments to the outlined function of
 * a parallel region; stock LLVM 19 traps ("Too many arguments in
 * kmp_invoke_microtask") whenever a region with more runs through that path:
 * SPMD kernels, generic kernels that openmp-opt makes SPMD (-O2), serialized
 * regions (if(0)).  ompds passes such regions their arguments as one array.
 * Three kernels, each with 72 arguments:
 *   spmd       target teams distribute parallel for, 70 firstprivate scalars
 *   generic    70 locals of the teams region, shared by a parallel for
 *   serialized a parallel if(0) inside a generic target region
 * Each checks its output against a host reference.  Prints one line ending in
 * PASS or FAIL.
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

#define SIZE (TEAMS * WORKERS)
#define POISON 0x7f5eed5e

/* 70 scalars: ten groups of seven. */
#define G7(p, v)                                                               \
  p##0 = (v), p##1 = (v) + 1, p##2 = (v) + 2, p##3 = (v) + 3, p##4 = (v) + 4,  \
  p##5 = (v) + 5, p##6 = (v) + 6
#define S7(p) (p##0 + p##1 + p##2 + p##3 + p##4 + p##5 + p##6)
#define DECL70(s)                                                              \
  int G7(a, 1 + (s)), G7(b, 8 + (s)), G7(c, 15 + (s)), G7(d, 22 + (s)),        \
      G7(e, 29 + (s)), G7(f, 36 + (s)), G7(g, 43 + (s)), G7(h, 50 + (s)),      \
      G7(k, 57 + (s)), G7(m, 64 + (s))
#define SUM70                                                                  \
  (S7(a) + S7(b) + S7(c) + S7(d) + S7(e) + S7(f) + S7(g) + S7(h) + S7(k) +     \
   S7(m))
/* 1 + 2 + ... + 70, shifted by s for each of the 70 scalars. */
#define WANT70(s) (70 * 71 / 2 + 70 * (s))

static double kernel_seconds;

static void run_target(int *spmd, int *generic, int *serial, int shift) {
  double t0 = bench_now();
  DECL70(shift);
#pragma omp target teams distribute parallel for num_teams(TEAMS)             \
    thread_limit(WORKERS) map(from : spmd[:SIZE])
  for (int i = 0; i < SIZE; i++)
    spmd[i] = SUM70 + i;

#pragma omp target teams num_teams(TEAMS) thread_limit(WORKERS)               \
    map(from : generic[:SIZE])
  {
    /* The host fallback may form fewer teams than asked for. */
    for (int t = omp_get_team_num(); t < TEAMS; t += omp_get_num_teams()) {
      DECL70(t);
#pragma omp parallel for
      for (int i = 0; i < WORKERS; i++)
        generic[t * WORKERS + i] = SUM70 + i;
    }
  }

#pragma omp target map(from : serial[:1])
  {
    DECL70(3);
#pragma omp parallel if (0)
    serial[0] = SUM70 + omp_get_num_threads();
  }
  kernel_seconds = bench_now() - t0;
}

int main(void) {
  static int spmd[SIZE], generic[SIZE];
  int serial[1] = {POISON};
  for (int i = 0; i < SIZE; i++)
    spmd[i] = generic[i] = POISON;

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  const int shift = 5;
  run_target(spmd, generic, serial, shift);

  int errors = 0;
  for (int i = 0; i < SIZE; i++) {
    if (spmd[i] != WANT70(shift) + i && errors++ < 10)
      printf("error: spmd[%d] = %d, expected %d\n", i, spmd[i],
             WANT70(shift) + i);
    int t = i / WORKERS, w = i % WORKERS;
    if (generic[i] != WANT70(t) + w && errors++ < 10)
      printf("error: generic[%d] = %d, expected %d\n", i, generic[i],
             WANT70(t) + w);
  }
  if (serial[0] != WANT70(3) + 1 && errors++ < 10)
    printf("error: serial = %d, expected %d\n", serial[0], WANT70(3) + 1);

  printf("many_args TEAMS=%d WORKERS=%d ran on %s: %s\n", TEAMS, WORKERS,
         bench_where(on_host), errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
    for (int r = 0; r <= reps; r++) {
      run_target(spmd, generic, serial, shift);
      if (r > 0)
        times[r - 1] = kernel_seconds;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
