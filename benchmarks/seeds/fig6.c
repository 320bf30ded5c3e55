/* fig6.c - M implicitly shared local arrays between a generic-mode target
 * region and a nested parallel region (ompds seed benchmark).
 *
 * Pattern: Bercea et al., "Implementing implicit OpenMP data sharing on
 * GPUs" (LLVM-HPC'17), Figure 6 and Section 6.2.3 (1 to 4 arrays, each with
 * as many int entries as there are worker threads, 96 * 4 = 384 bytes).
 * The sequential (team-master) part of a `target teams` region declares the
 * M arrays d1..dM and fills them; a nested `parallel for` reads them and, in
 * this version, also writes its own element of each array, which the
 * sequential part reads back after the join.  The arrays are implicitly
 * shared, so each of them has to be globalized.
 *
 * Macros (all optional):
 *   M        number of distinct shared arrays, decimal literal 1..64
 *            (default 1; the paper uses 1..4)
 *   TEAMS    number of teams / row blocks (default 8)
 *   WORKERS  elements per array, iterations of the parallel loop and
 *            thread_limit (default 96, as in the paper)
 *
 * Build: clang -fopenmp --offload-arch=sm_90 -O2 -DM=4 fig6.c
 * Exit status 0 and "PASS" on success, 1 and "FAIL" otherwise.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"
#include "seq.h"

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
#if TEAMS < 1 || WORKERS < 1
#error "TEAMS and WORKERS must be >= 1"
#endif

#define SIZE (TEAMS * WORKERS)
#define POISON 0x7f5eed5e

/* Value the sequential part stores into d<m>[i] of block t. */
#define FILL(m, t, i) (10 * (m) + (i) + 3 * (t))

/* ---- X-macros applied to m = 1..M ------------------------------------- */
#define FOR_EACH_ARRAY(X) SEQ(M, X)
#define DECL(m) int d##m[WORKERS];
#define SEQ_FILL(m) d##m[i] = FILL(m, t, i);
#define PLUS(m) +d##m[i]
#define WORKER_WRITE(m) d##m[i] = 2 * d##m[i] + (m);
#define CHECKSUM(m)                                                            \
  {                                                                            \
    int s = 0;                                                                 \
    for (int i = 0; i < WORKERS; i++)                                          \
      s += (i + 1) * d##m[i];                                                  \
    sums[t * M + (m) - 1] = s;                                                 \
  }

/* Device side.  a[] is updated in place (as in the paper), sums[] receives
 * a position-weighted checksum of every shared array per block after the
 * workers wrote it, info[0] the number of teams, info[1]
 * omp_is_initial_device() (from a separate probe region: OpenMP allows no
 * other runtime call strictly nested in `teams`). */
static double kernel_seconds; /* time of the last main target region */

static void run_target(int *a, int *sums, int *info) {
  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();
  info[1] = on_host;

  double t0 = bench_now();
#pragma omp target teams num_teams(TEAMS) thread_limit(WORKERS)               \
    map(tofrom : a[:SIZE], sums[:TEAMS * M], info[:2])
  {
    int team = omp_get_team_num();
    int nteams = omp_get_num_teams();
    if (team == 0)
      info[0] = nteams;
    /* One block per team when all TEAMS teams are created (the GPU case);
     * otherwise teams take several blocks in turn. */
    for (int t = team; t < TEAMS; t += nteams) {
      FOR_EACH_ARRAY(DECL)
      for (int i = 0; i < WORKERS; i++) {
        FOR_EACH_ARRAY(SEQ_FILL)
      }
      /* a and t are passed by value so that d1..dM are the only shared
       * variables of the parallel region. */
#pragma omp parallel for firstprivate(a, t)
      for (int i = 0; i < WORKERS; i++) {
        a[t * WORKERS + i] += 0 FOR_EACH_ARRAY(PLUS);
        FOR_EACH_ARRAY(WORKER_WRITE)
      }
      FOR_EACH_ARRAY(CHECKSUM)
    }
  }
  kernel_seconds = bench_now() - t0;
}

/* Host reference, written independently of the OpenMP code. */
static void reference(int *a, int *sums) {
  for (int t = 0; t < TEAMS; t++) {
    for (int i = 0; i < WORKERS; i++)
      for (int m = 1; m <= M; m++)
        a[t * WORKERS + i] += FILL(m, t, i);
    for (int m = 1; m <= M; m++) {
      int s = 0;
      for (int i = 0; i < WORKERS; i++)
        s += (i + 1) * (2 * FILL(m, t, i) + m);
      sums[t * M + m - 1] = s;
    }
  }
}

static int initial_a(int i) { return (i * 5) % 11 - 5; }

int main(void) {
  static int a[SIZE], a_ref[SIZE], sums[TEAMS * M], sums_ref[TEAMS * M];
  int info[2] = {-1, -1};

  for (int i = 0; i < SIZE; i++)
    a[i] = a_ref[i] = initial_a(i);
  for (int i = 0; i < TEAMS * M; i++)
    sums[i] = sums_ref[i] = POISON;

  run_target(a, sums, info);
  reference(a_ref, sums_ref);

  int errors = 0;
  errors += bench_check_teams(info[0], TEAMS);
  for (int i = 0; i < SIZE; i++)
    if (a[i] != a_ref[i] && errors++ < 10)
      printf("error: a[%d] = %d, expected %d\n", i, a[i], a_ref[i]);
  for (int i = 0; i < TEAMS * M; i++)
    if (sums[i] != sums_ref[i] && errors++ < 10)
      printf("error: checksum of d%d in block %d = %d, expected %d\n",
             i % M + 1, i / M, sums[i], sums_ref[i]);

  printf("fig6 M=%d TEAMS=%d WORKERS=%d ran on %s with %d teams: %s\n", M,
         TEAMS, WORKERS,
         info[1] == 0   ? "device"
         : info[1] == 1 ? "host"
                        : "?",
         info[0], errors ? "FAIL" : "PASS");

  /* Optional timing (OMPDS_BENCH_REPS, see ../common/bench.h). */
  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(tofrom : a[:SIZE], sums[:TEAMS * M], info[:2])
    for (int r = 0; r <= reps; r++) {
      run_target(a, sums, info);
      if (r > 0)
        times[r - 1] = kernel_seconds;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
