/* xs_struct.c - the XSBench-style event lookup of xs_event.c in the proxy
 * application's shape (ompds benchmark; issue 36): the kernel reads its
 * run-time inputs from a struct of scalars (`in`) and its data from a struct
 * of pointers and lengths (`sd`), field by field where it calls the device
 * functions of xs_event.h, as XSBench does.  The CUDA twin
 * ../cuda/xs_struct.cu passes both structs by value.
 *
 * XS_MAP says how `in` reaches the kernel:
 *   0 (default) referenced in the region without a clause: mapped tofrom
 *     (XSBench's OpenMP version);
 *   1 map(to : in);
 *   2 firstprivate(in).
 * `sd` is always mapped through its members' array sections, which attaches
 * the device copies of the arrays to the device copy of the struct.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef XS_MAP
#define XS_MAP 0
#endif

#define XS_FN
#pragma omp declare target
#include "xs_struct.h"
#pragma omp end declare target

#if XS_MAP == 1
#define XS_IN_CLAUSE map(to : in)
#elif XS_MAP == 2
#define XS_IN_CLAUSE firstprivate(in)
#else
#define XS_IN_CLAUSE
#endif

static void run_lookups(XSInputs in, XSData sd, double *out,
                        int *verification) {
#pragma omp target teams distribute parallel for XS_IN_CLAUSE                 \
    map(to : sd.dist[:sd.length_dist], sd.num_nucs[:sd.length_num_nucs],      \
        sd.concs[:sd.length_concs], sd.mats[:sd.length_mats],                  \
        sd.union_energy[:sd.length_union_energy],                              \
        sd.index_grid[:sd.length_index_grid], sd.grids[:sd.length_grids])     \
    map(tofrom : out[:5 * in.lookups], verification[:in.lookups])
  for (long i = 0; i < in.lookups; i++)
    xs_lookup(i, in.n_nuclides, in.n_grid, in.grid_type, in.hash_bins,
              in.max_num_nucs, sd.dist, sd.num_nucs, sd.concs, sd.union_energy,
              sd.index_grid, sd.grids, sd.mats, out, verification);
}

int main(void) {
  XSProblem p;
  double *out = (double *)malloc(sizeof(double) * 5 * LOOKUPS);
  int *verification = (int *)malloc(sizeof(int) * LOOKUPS);
  if (!out || !verification || !xs_setup(&p)) {
    printf("xs_struct: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long k = 0; k < 5L * LOOKUPS; k++)
    out[k] = -1.0e300;
  for (long i = 0; i < LOOKUPS; i++)
    verification[i] = -1;
  XSInputs in = xs_inputs(&p);
  XSData sd = xs_data(&p);

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  run_lookups(in, sd, out, verification);
  int errors = xs_check(&p, out, verification);
  printf("xs_struct XS_MAP=%d NUCLIDES=%d GRIDPOINTS=%d LOOKUPS=%d ran on %s: "
         "%s\n",
         XS_MAP, NUCLIDES, GRIDPOINTS, LOOKUPS, bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      run_lookups(in, sd, out, verification);
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
