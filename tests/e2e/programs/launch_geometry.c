/* launch_geometry.c - what the CUDA plugin's launch path does (patches
 * Offload-CUDA-Keep-four-warps-per-team-in-low-trip-count-loops and
 * Offload-CUDA-Poll-the-stream-before-blocking-in-synchronize; issue 36):
 *
 *  - a combined `target teams distribute parallel for` of 50000 iterations
 *    (below the runtime's low-trip-count bound of 3200 x 128) runs in teams of
 *    128 threads (4 warps), 391 of them, not 1563 teams of 32 threads;
 *  - 200 short target regions and a kernel that runs for milliseconds (longer
 *    than the 100 us the plugin polls before it blocks) have their results
 *    in place when the region returns.
 *
 * On the host fallback only the results are checked; on an NVIDIA GPU the
 * geometry too (tests/gpu/run-held).  Prints PASS or FAIL.
 */
#include <omp.h>
#include <stdio.h>

#define N 50000
#define LONG_N 4096

static double out[N], slow[LONG_N];

int main(void) {
  int threads = -1, teams = -1, on_host = 1, errors = 0;
#pragma omp target teams distribute parallel for map(from : out)              \
    map(tofrom : threads, teams, on_host)
  for (int i = 0; i < N; i++) {
    out[i] = 0.5 * i;
    if (i == 0) {
      threads = omp_get_num_threads();
      teams = omp_get_num_teams();
      on_host = omp_is_initial_device();
    }
  }
  for (int i = 0; i < N; i++)
    errors += out[i] != 0.5 * i;
  if (!on_host && (threads != 128 || teams != 391)) {
    printf("error: %d teams of %d threads, expected 391 of 128\n", teams,
           threads);
    errors++;
  }

  int count = 0;
  for (int r = 0; r < 200; r++) {
#pragma omp target map(tofrom : count)
    count++;
  }
  errors += count != 200;

#pragma omp target teams distribute parallel for map(from : slow)
  for (int i = 0; i < LONG_N; i++) {
    double x = i;
    for (int j = 0; j < 400000; j++)
      x = x * 0.5 + 1.0;
    slow[i] = x;
  }
  for (int i = 0; i < LONG_N; i++)
    errors += slow[i] < 1.99 || slow[i] > 2.01;

  printf("launch_geometry ran on %s (%d teams of %d threads): %s\n",
         on_host ? "host" : "device", teams, threads, errors ? "FAIL" : "PASS");
  return errors != 0;
}
