/* rs_struct.c - the RSBench-style multipole lookup of rs_event.c in the
 * proxy application's shape (ompds benchmark; issue 36): the kernel reads
 * its run-time inputs from a struct of scalars (`in`) and its data from a
 * struct of pointers, lengths and sizes (`sd`); the inputs struct goes by
 * value through every level of the device functions of rs_struct.h
 * (rs_event.h's arithmetic, complex numbers and the Faddeeva function
 * included), the data struct's fields are passed one by one.  The CUDA
 * twin ../cuda/rs_struct.cu passes both structs by value.
 *
 * Like RSBench, the kernel also sums a verification value (a reduction) and
 * records whether it ran on the device.
 *
 * RS_MAP says how `in` reaches the kernel: 0 (default) referenced in the
 * region without a clause (mapped tofrom, RSBench's OpenMP version),
 * 1 map(to : in), 2 firstprivate(in).  `sd` is always mapped through its
 * members' array sections.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef RS_MAP
#define RS_MAP 0
#endif

#define RS_FN
#pragma omp declare target
#include "rs_struct.h"
#pragma omp end declare target

#if RS_MAP == 1
#define RS_IN_CLAUSE map(to : in)
#elif RS_MAP == 2
#define RS_IN_CLAUSE firstprivate(in)
#else
#define RS_IN_CLAUSE
#endif

static unsigned long run_lookups(RSInputs in, RSData sd, double *out) {
  unsigned long vhash = 0;
  int offloaded = 0;
#pragma omp target teams distribute parallel for RS_IN_CLAUSE                 \
    map(to : sd.dist[:sd.length_dist], sd.num_nucs[:sd.length_num_nucs],      \
        sd.mats[:sd.length_mats], sd.concs[:sd.length_concs],                  \
        sd.n_windows[:sd.length_n_windows],                                    \
        sd.pseudo_K0RS[:sd.length_pseudo_K0RS],                                \
        sd.windows[:sd.length_windows], sd.poles[:sd.length_poles],            \
        sd.max_num_nucs, sd.max_num_windows, sd.max_num_poles)                 \
    map(tofrom : out[:4 * in.lookups], offloaded) reduction(+ : vhash)
  for (long i = 0; i < in.lookups; i++) {
    vhash += rs_lookup_s(i, in, sd.dist, sd.num_nucs, sd.mats,
                         sd.max_num_nucs, sd.concs, sd.n_windows,
                         sd.pseudo_K0RS, sd.windows, sd.poles,
                         sd.max_num_windows, sd.max_num_poles, out);
    if (i == 0)
      offloaded = !omp_is_initial_device();
  }
  return vhash;
}

int main(void) {
  RSProblem p;
  double *out = (double *)malloc(sizeof(double) * 4 * LOOKUPS);
  if (!out || !rs_setup(&p)) {
    printf("rs_struct: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long k = 0; k < 4L * LOOKUPS; k++)
    out[k] = -1.0e300;
  RSInputs in = rs_inputs();
  RSData sd = rs_data(&p);

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  unsigned long vhash = run_lookups(in, sd, out);
  int errors = rs_check(&p, out);
  if (!errors && vhash != rs_vhash(out, LOOKUPS)) {
    printf("rs_struct: verification %lu, expected %lu\n", vhash,
           rs_vhash(out, LOOKUPS));
    errors = 1;
  }
  printf("rs_struct RS_MAP=%d NUCLIDES=%d POLES=%d WINDOWS=%d LOOKUPS=%d ran "
         "on %s: %s\n",
         RS_MAP, NUCLIDES, POLES, WINDOWS, LOOKUPS, bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      run_lookups(in, sd, out);
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
