/* pool_stress.c - every worker of many teams allocates an escaping local at
 * run time, fills it, and checks it later (ompds GPU stress test).
 *
 * Pattern: check_round() is a non-inlined `declare target` function that
 * every thread of a `parallel for` calls ROUNDS times. Its local array buf[]
 * escapes into fill() and check(), so Clang globalizes it
 * (__kmpc_alloc_shared); at -O0 nothing removes the allocation, and with
 * teams of more than 32 threads the workers' allocations come from the
 * DeviceRTL's global memory pool, whose blocks the threads of all teams claim
 * and free over and over. A block claimed before its previous owner's stores
 * are visible (a claim without acquire or a free without release ordering)
 * shows up as a mismatch. The sequential part of each team calls
 * check_round() once as well: a function that only parallel code runs has
 * its locals moved to the stack at the device link, and the test would no
 * longer allocate. At -O2 openmp-opt keeps the array thread-private (the
 * check still holds).
 *
 * Macros (all optional): TEAMS (default 264, two per SM of an H100; the pool
 * and the device heap serve every resident worker), WORKERS (128), ROUNDS
 * (16), WORDS (16, the array's length in 32-bit words). Output is poisoned.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef TEAMS
#define TEAMS 264
#endif
#ifndef WORKERS
#define WORKERS 128
#endif
#ifndef ROUNDS
#define ROUNDS 16
#endif
#ifndef WORDS
#define WORDS 16
#endif

#define SIZE (TEAMS * WORKERS)
#define POISON 0x7f5eed5e

#pragma omp declare target
__attribute__((noinline)) static void fill(unsigned *buf, unsigned seed) {
  for (int k = 0; k < WORDS; k++)
    buf[k] = seed * 2654435761u + (unsigned)k;
}

__attribute__((noinline)) static int check(const unsigned *buf,
                                           unsigned seed) {
  int bad = 0;
  for (int k = 0; k < WORDS; k++)
    bad += buf[k] != seed * 2654435761u + (unsigned)k;
  return bad;
}

__attribute__((noinline)) static int check_round(unsigned seed) {
  unsigned buf[WORDS];
  fill(buf, seed);
  // Some work between the stores and the loads, so that other threads claim
  // and free blocks meanwhile.
  unsigned spin = seed;
  for (int k = 0; k < 64; k++)
    spin = spin * 1103515245u + 12345u;
  return check(buf, seed) + (spin == 0xdeadbeefu);
}
#pragma omp end declare target

static double kernel_seconds;

static void run_target(int *out, int *info) {
  double t0 = bench_now();
#pragma omp target teams num_teams(TEAMS) thread_limit(WORKERS)               \
    map(tofrom : out[:SIZE], info[:1])
  {
    int team = omp_get_team_num(), nteams = omp_get_num_teams();
    if (team == 0)
      info[0] = nteams;
    for (int t = team; t < TEAMS; t += nteams) {
      int seq_bad = check_round((unsigned)t * 7919u);
#pragma omp parallel for
      for (int i = 0; i < WORKERS; i++) {
        int bad = i == 0 ? seq_bad : 0;
        for (int r = 0; r < ROUNDS; r++)
          bad += check_round((unsigned)((t * WORKERS + i) * ROUNDS + r));
        out[t * WORKERS + i] = bad;
      }
    }
  }
  kernel_seconds = bench_now() - t0;
}

int main(void) {
  static int out[SIZE];
  int info[1] = {-1};
  for (int i = 0; i < SIZE; i++)
    out[i] = POISON;

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  run_target(out, info);

  int errors = 0;
  errors += bench_check_teams(info[0], TEAMS);
  for (int i = 0; i < SIZE; i++)
    if (out[i] != 0 && errors++ < 10)
      printf("error: thread %d of team %d saw %d wrong words\n", i % WORKERS,
             i / WORKERS, out[i]);

  printf("pool_stress TEAMS=%d WORKERS=%d ROUNDS=%d WORDS=%d ran on %s: %s\n",
         TEAMS, WORKERS, ROUNDS, WORDS, bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(tofrom : out[:SIZE], info[:1])
    for (int r = 0; r <= reps; r++) {
      run_target(out, info);
      if (r > 0)
        times[r - 1] = kernel_seconds;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
