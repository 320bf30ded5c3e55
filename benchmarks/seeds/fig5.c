/* fig5.c - N implicitly shared scalars between a generic-mode target region
 * and nested parallel regions (ompds seed benchmark).
 *
 * Pattern: Bercea et al., "Implementing implicit OpenMP data sharing on
 * GPUs" (LLVM-HPC'17), Figure 5 and Section 6.2.2.  A `target teams` region
 * whose sequential (team-master) part updates N scalars c1..cN and then opens
 * a `parallel for` that reads all of them.  Because the scalars live in the
 * sequential part and are referenced by the parallel region they are
 * implicitly shared, so the compiler has to globalize each one of them.
 * This program goes one step further than the figure and also *writes* the
 * shared scalars from worker threads (a second `parallel for` in which
 * iteration k-1 alone owns c<k>), and the sequential part reads them back
 * afterwards; a private copy would therefore be caught.
 *
 * Macros (all optional):
 *   N        number of distinct shared scalars, integer literal 1..64
 *            (default 8).  The reading parallel region gets N+2 arguments
 *            (c1..cN, a, t); stock LLVM 19's DeviceRTL handles at most 64
 *            outlined-function arguments in invokeMicrotask, so N >= 63 hits
 *            its "Too many arguments" trap at -O2 (see README.md).
 *   INSIDE   1: c1..cN are declared inside the target region (default)
 *            0: declared in the host function and captured by the target
 *               region with firstprivate, then shared by the parallel regions
 *               (the paper's Figure 5 declares them outside)
 *   TEAMS    number of teams / row blocks (default 8)
 *   WORKERS  iterations per parallel loop and thread_limit (default 96, as in
 *            the paper); must be >= N
 *
 * Build: clang -fopenmp --offload-arch=sm_90 -O2 -DN=8 -DINSIDE=0 fig5.c
 * Exit status 0 and "PASS" on success, 1 and "FAIL" otherwise.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"
#include "seq.h"

#ifndef N
#define N 8
#endif
#ifndef INSIDE
#define INSIDE 1
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
#if WORKERS < N
#error "WORKERS must be >= N (iteration k-1 owns c<k> in the write loop)"
#endif
#if TEAMS < 1
#error "TEAMS must be >= 1"
#endif

#define SIZE (TEAMS * WORKERS)
#define POISON 0x7f5eed5e
#define SEED 5

/* Initial value of c<k>. */
#define INIT(k) (3 * (k) + 1)

/* ---- X-macros applied to k = 1..N ------------------------------------- */
#define FOR_EACH_VAR(X) SEQ(N, X)
#define DECL(k) int c##k = INIT(k);
#define NAME_COMMA(k) c##k,
/* Sequential part: read and write every shared scalar. */
#define SEQ_UPDATE(k) c##k += (k) + t + seed;
/* Parallel part: read every shared scalar. */
#define PLUS(k) +c##k
/* Parallel part: iteration k-1 is the only writer of c<k>. */
#define OWNER_WRITE(k)                                                         \
  if (i == (k) - 1)                                                            \
    c##k = 2 * c##k + 1;
/* Sequential part after the join: read back what the workers wrote. */
#define STORE(k) cout[t * N + (k) - 1] = c##k;
#define CHECK_UNCHANGED(k) bad += (c##k != INIT(k));

#if INSIDE
#define CAPTURED_VARS
#else
#define CAPTURED_VARS FOR_EACH_VAR(NAME_COMMA)
#endif

/* Device side.  a[] is updated in place (as in the paper), cout[] receives
 * the final value of every shared scalar per block, info[0] the number of
 * teams, info[1] omp_is_initial_device() (from a separate probe region:
 * OpenMP allows no other runtime call strictly nested in `teams`).  Returns
 * the number of outside scalars whose host value changed (must be 0: they
 * are firstprivate). */
static double kernel_seconds; /* time of the last main target region */

static int run_target(int *a, int *cout, int *info, int seed) {
  int bad = 0;
#if !INSIDE
  FOR_EACH_VAR(DECL)
#endif
  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();
  info[1] = on_host;

  double t0 = bench_now();
#pragma omp target teams num_teams(TEAMS) thread_limit(WORKERS)               \
    map(tofrom : a[:SIZE], cout[:TEAMS * N], info[:2])                        \
    firstprivate(CAPTURED_VARS seed)
  {
#if INSIDE
    FOR_EACH_VAR(DECL)
#endif
    int team = omp_get_team_num();
    int nteams = omp_get_num_teams();
    if (team == 0)
      info[0] = nteams;
    /* One block per team when all TEAMS teams are created (the GPU case);
     * fewer teams (possible on the host fallback) process several blocks
     * each, in order, carrying their copies of c1..cN along. */
    for (int t = team; t < TEAMS; t += nteams) {
      FOR_EACH_VAR(SEQ_UPDATE)
      /* a and t are passed by value so that c1..cN are the only shared
       * variables of the parallel regions. */
#pragma omp parallel for firstprivate(a, t)
      for (int i = 0; i < WORKERS; i++)
        a[t * WORKERS + i] += 0 FOR_EACH_VAR(PLUS);
#pragma omp parallel for
      for (int i = 0; i < WORKERS; i++) {
        FOR_EACH_VAR(OWNER_WRITE)
      }
      FOR_EACH_VAR(STORE)
    }
  }
  kernel_seconds = bench_now() - t0;
#if !INSIDE
  FOR_EACH_VAR(CHECK_UNCHANGED)
#endif
  return bad;
}

/* Host reference, written independently of the OpenMP code: simulates
 * `nteams` teams, each walking its blocks in order. */
static void reference(int *a, int *cout, int nteams, int seed) {
  int c[N + 1];
  for (int team = 0; team < nteams; team++) {
    for (int k = 1; k <= N; k++)
      c[k] = INIT(k);
    for (int t = team; t < TEAMS; t += nteams) {
      int sum = 0;
      for (int k = 1; k <= N; k++) {
        c[k] += k + t + seed;
        sum += c[k];
      }
      for (int i = 0; i < WORKERS; i++)
        a[t * WORKERS + i] += sum;
      for (int k = 1; k <= N; k++) {
        c[k] = 2 * c[k] + 1;
        cout[t * N + k - 1] = c[k];
      }
    }
  }
}

static int initial_a(int i) { return (i * 7) % 13 - 6; }

int main(void) {
  static int a[SIZE], a_ref[SIZE], cout[TEAMS * N], cout_ref[TEAMS * N];
  int info[2] = {-1, -1};
  int seed = SEED;

  for (int i = 0; i < SIZE; i++)
    a[i] = a_ref[i] = initial_a(i);
  for (int i = 0; i < TEAMS * N; i++)
    cout[i] = cout_ref[i] = POISON;

  int changed = run_target(a, cout, info, seed);

  int errors = 0;
  int nteams = info[0];
  if (bench_check_teams(nteams, TEAMS)) {
    errors++;
    nteams = TEAMS;
  }
  if (changed) {
    printf("error: %d firstprivate scalars changed on the host\n", changed);
    errors++;
  }
  reference(a_ref, cout_ref, nteams, seed);
  for (int i = 0; i < SIZE; i++)
    if (a[i] != a_ref[i] && errors++ < 10)
      printf("error: a[%d] = %d, expected %d\n", i, a[i], a_ref[i]);
  for (int i = 0; i < TEAMS * N; i++)
    if (cout[i] != cout_ref[i] && errors++ < 10)
      printf("error: c%d of block %d = %d, expected %d\n", i % N + 1, i / N,
             cout[i], cout_ref[i]);

  printf("fig5 N=%d INSIDE=%d TEAMS=%d WORKERS=%d ran on %s with %d teams: "
         "%s\n",
         N, INSIDE, TEAMS, WORKERS,
         info[1] == 0   ? "device"
         : info[1] == 1 ? "host"
                        : "?",
         info[0], errors ? "FAIL" : "PASS");

  /* Optional timing (OMPDS_BENCH_REPS, see ../common/bench.h): a[] keeps
   * accumulating, which no longer matters after the check. */
  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(tofrom : a[:SIZE], cout[:TEAMS * N], info[:2])
    for (int r = 0; r <= reps; r++) {
      run_target(a, cout, info, seed);
      if (r > 0)
        times[r - 1] = kernel_seconds;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
