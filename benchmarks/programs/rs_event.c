/* rs_event.c - RSBench-style multipole event lookup (ompds benchmark; issue
 * 19's yardstick for registers).  The lookups run in a `target teams
 * distribute parallel for` loop through the device functions of rs_event.h;
 * the CUDA twin is ../cuda/rs_event.cu.  The output (four macroscopic cross
 * sections per lookup) is poisoned and compared with the same lookups
 * computed on the host.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#define RS_FN
#pragma omp declare target
#include "rs_event.h"
#pragma omp end declare target

static void run_lookups(const RSProblem *p, double *out) {
  const double *dist = p->dist, *concs = p->concs,
               *pseudo_K0RS = p->pseudo_K0RS;
  const int *num_nucs = p->num_nucs, *mats = p->mats,
            *n_windows = p->n_windows;
  const Window *windows = p->windows;
  const Pole *poles = p->poles;
  int max_num_nucs = RS_MAX_NUCS, max_num_windows = WINDOWS,
      max_num_poles = POLES;
#pragma omp target teams distribute parallel for                              \
    map(to : dist[:RS_MATERIALS], num_nucs[:RS_MATERIALS],                     \
        mats[:RS_MATERIALS * RS_MAX_NUCS], concs[:RS_MATERIALS * RS_MAX_NUCS], \
        n_windows[:NUCLIDES], pseudo_K0RS[:NUCLIDES * RS_NUML],                \
        windows[:NUCLIDES * WINDOWS], poles[:(long)NUCLIDES * POLES])          \
    map(tofrom : out[:4L * LOOKUPS])
  for (long i = 0; i < LOOKUPS; i++)
    rs_lookup(i, dist, num_nucs, mats, concs, n_windows, pseudo_K0RS, windows,
              poles, max_num_nucs, max_num_windows, max_num_poles, out);
}

int main(void) {
  RSProblem p;
  double *out = (double *)malloc(sizeof(double) * 4 * LOOKUPS);
  if (!out || !rs_setup(&p)) {
    printf("rs_event: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long k = 0; k < 4L * LOOKUPS; k++)
    out[k] = -1.0e300;

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  run_lookups(&p, out);
  int errors = rs_check(&p, out);
  printf("rs_event NUCLIDES=%d POLES=%d WINDOWS=%d LOOKUPS=%d ran on %s: %s\n",
         NUCLIDES, POLES, WINDOWS, LOOKUPS, bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(to : p.dist[:RS_MATERIALS],                        \
                                p.num_nucs[:RS_MATERIALS],                     \
                                p.mats[:RS_MATERIALS * RS_MAX_NUCS],           \
                                p.concs[:RS_MATERIALS * RS_MAX_NUCS],          \
                                p.n_windows[:NUCLIDES],                        \
                                p.pseudo_K0RS[:NUCLIDES * RS_NUML],            \
                                p.windows[:NUCLIDES * WINDOWS],                \
                                p.poles[:(long)NUCLIDES * POLES])              \
    map(tofrom : out[:4L * LOOKUPS])
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      run_lookups(&p, out);
      if (r > 0)
        times[r - 1] = bench_now() - t0;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  rs_free(&p);
  free(out);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
