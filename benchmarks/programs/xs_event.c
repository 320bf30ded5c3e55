/* xs_event.c - XSBench-style event lookup with the unionized energy grid
 * (ompds benchmark; issue 19's yardstick for registers).  The lookups run in
 * a `target teams distribute parallel for` loop through the device functions
 * of xs_event.h; the CUDA twin is ../cuda/xs_event.cu (one thread per lookup).
 * The output (five macroscopic cross sections per lookup) is poisoned and
 * compared with the same lookups computed on the host.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#define XS_FN
#pragma omp declare target
#include "xs_event.h"
#pragma omp end declare target

static void run_lookups(const XSProblem *p, double *out, int *verification) {
  const double *dist = p->dist;
  const int *num_nucs = p->num_nucs, *mats = p->mats,
            *index_grid = p->index_grid;
  const double *concs = p->concs, *union_energy = p->union_energy;
  const GridPoint *grids = p->grids;
  long n_nuclides = NUCLIDES, n_grid = GRIDPOINTS;
  int grid_type = p->grid_type, hash_bins = p->hash_bins;
  int max_num_nucs = XS_MAX_NUCS;
#pragma omp target teams distribute parallel for                              \
    map(to : dist[:XS_MATERIALS], num_nucs[:XS_MATERIALS],                     \
        mats[:XS_MATERIALS * XS_MAX_NUCS], concs[:XS_MATERIALS * XS_MAX_NUCS], \
        union_energy[:XS_UNION], index_grid[:XS_UNION * NUCLIDES],             \
        grids[:XS_UNION])                                                     \
    map(tofrom : out[:5L * LOOKUPS], verification[:LOOKUPS])
  for (long i = 0; i < LOOKUPS; i++)
    xs_lookup(i, n_nuclides, n_grid, grid_type, hash_bins, max_num_nucs, dist,
              num_nucs, concs, union_energy, index_grid, grids, mats, out,
              verification);
}

int main(void) {
  XSProblem p;
  double *out = (double *)malloc(sizeof(double) * 5 * LOOKUPS);
  int *verification = (int *)malloc(sizeof(int) * LOOKUPS);
  if (!out || !verification || !xs_setup(&p)) {
    printf("xs_event: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long k = 0; k < 5L * LOOKUPS; k++)
    out[k] = -1.0e300;
  for (long i = 0; i < LOOKUPS; i++)
    verification[i] = -1;

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  run_lookups(&p, out, verification);
  int errors = xs_check(&p, out, verification);
  printf("xs_event NUCLIDES=%d GRIDPOINTS=%d LOOKUPS=%d ran on %s: %s\n",
         NUCLIDES, GRIDPOINTS, LOOKUPS, bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(to : p.dist[:XS_MATERIALS],                        \
                                p.num_nucs[:XS_MATERIALS],                     \
                                p.mats[:XS_MATERIALS * XS_MAX_NUCS],           \
                                p.concs[:XS_MATERIALS * XS_MAX_NUCS],          \
                                p.union_energy[:XS_UNION],                     \
                                p.index_grid[:XS_UNION * NUCLIDES],            \
                                p.grids[:XS_UNION])                            \
    map(tofrom : out[:5L * LOOKUPS], verification[:LOOKUPS])
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      run_lookups(&p, out, verification);
      if (r > 0)
        times[r - 1] = bench_now() - t0;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  xs_free(&p);
  free(out);
  free(verification);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
