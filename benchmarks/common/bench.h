/* bench.h - optional kernel timing for the ompds benchmark programs.
 *
 * Every program first runs its kernel once, checks the result against a host
 * reference and prints its PASS/FAIL line.  When the environment variable
 * OMPDS_BENCH_REPS is set to R > 0 (benchmarks/run-gpu does this), it then
 * runs the timed kernel R + 1 more times, drops the first (warm-up) run and
 * prints one line per timed kernel:
 *
 *   TIME <label> reps=<R> median_us=<median> min_us=<min>
 *
 * Times are host wall-clock (CLOCK_MONOTONIC) around one synchronous kernel
 * execution: for OpenMP the whole `target` construct, with its data already
 * present on the device (an enclosing `target data`), so no transfer is
 * timed, but the launch and the implicit synchronization are; for CUDA the
 * launch plus cudaDeviceSynchronize(), so that both models pay the same launch
 * latency.  CUDA programs print the cudaEvent kernel time as event_us too.
 * Plain C, usable from C (OpenMP) and CUDA C++.
 */
#ifndef OMPDS_BENCH_H
#define OMPDS_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BENCH_MAX_REPS 10000

/* Number of timed repetitions requested (0: no timing). */
static inline int bench_reps(void) {
  const char *s = getenv("OMPDS_BENCH_REPS");
  int r = s ? atoi(s) : 0;
  if (r < 0)
    r = 0;
  if (r > BENCH_MAX_REPS)
    r = BENCH_MAX_REPS;
  return r;
}

/* Seconds from a monotonic clock. */
static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Sorts t[0..n) in place (insertion sort: n is small). */
static inline void bench_sort(double *t, int n) {
  for (int i = 1; i < n; i++) {
    double x = t[i];
    int j = i - 1;
    while (j >= 0 && t[j] > x) {
      t[j + 1] = t[j];
      j--;
    }
    t[j + 1] = x;
  }
}

static inline double bench_median_sorted(const double *t, int n) {
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Prints the TIME line for n timings in seconds (sorts sec in place).  extra
 * is appended verbatim when not NULL (e.g. " event_us=12.3"). */
static inline void bench_report(const char *label, double *sec, int n,
                                const char *extra) {
  if (n < 1)
    return;
  bench_sort(sec, n);
  printf("TIME %s reps=%d median_us=%.3f min_us=%.3f%s\n", label, n,
         1e6 * bench_median_sorted(sec, n), 1e6 * sec[0], extra ? extra : "");
  fflush(stdout);
}

/* Allocates the array of timings (NULL when no timing was requested). */
static inline double *bench_alloc(int reps) {
  return reps > 0 ? (double *)malloc(sizeof(double) * (size_t)reps) : NULL;
}

/* Where a program's target region ran: omp_is_initial_device() gives 1 (host)
   or 0 (device); anything else means it was not recorded. */
static inline const char *bench_where(int on_host) {
  return on_host == 0 ? "device" : on_host == 1 ? "host" : "?";
}

/* Checks the team count a kernel reported against the TEAMS it asked for
   (1..teams); prints an error and returns 1 when it is out of range. */
static inline int bench_check_teams(int reported, int teams) {
  if (reported >= 1 && reported <= teams)
    return 0;
  printf("error: kernel reported %d teams (expected 1..%d)\n", reported, teams);
  return 1;
}

/* A well-mixed 32-bit hash, for deterministic test data. */
static inline unsigned bench_hash(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

#endif /* OMPDS_BENCH_H */
