/* empty_target.c - the cost of launching an empty `target teams` region
 * (ompds benchmark, issue 19): what every kernel pays before its first
 * statement (the launch, the runtime's kernel prologue and epilogue, the
 * synchronization).  The region writes one flag so that it is not empty to
 * the compiler's eyes; the CUDA twin (../cuda/empty_target.cu) launches a
 * kernel that does the same.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef TEAMS
#define TEAMS 132
#endif

static void run_target(int *flag) {
#pragma omp target teams num_teams(TEAMS) map(tofrom : flag[:1])
  {
    if (omp_get_team_num() == 0)
      flag[0] = 1;
  }
}

int main(void) {
  int flag[1] = {0};
  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();
  run_target(flag);
  printf("empty_target TEAMS=%d ran on %s: %s\n", TEAMS, bench_where(on_host),
         flag[0] == 1 ? "PASS" : "FAIL");
  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(tofrom : flag[:1])
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      run_target(flag);
      if (r > 0)
        times[r - 1] = bench_now() - t0;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  return flag[0] == 1 ? EXIT_SUCCESS : EXIT_FAILURE;
}
