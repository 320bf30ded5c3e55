/* xsbench.c - an event-based macroscopic cross-section lookup kernel in the
 * style of XSBench (ompds benchmark).
 *
 * Pattern: the event-based Monte Carlo neutron-transport proxy XSBench (Tramm
 * et al.): every lookup samples a particle energy E and a material, and for
 * each nuclide of the material finds E in that nuclide's energy grid with a
 * binary search, interpolates its five microscopic cross sections (total,
 * elastic, absorption, fission, nu-fission) and accumulates them, weighted by
 * the nuclide's concentration, into the five macroscopic cross sections.  As
 * in XSBench, the lookup is split into device functions that receive pointers
 * to the caller's local arrays (calculate_macro_xs -> calculate_micro_xs ->
 * grid_search): locals whose address escapes into device functions, inside
 * a `target teams distribute parallel for` loop.  Written for ompds from
 * that description; not XSBench's code, and with its own data.
 *
 * Macros (all optional):
 *   NUCLIDES    number of nuclides (default 68, XSBench's "small" problem)
 *   GRIDPOINTS  energy grid points per nuclide (default 2000)
 *   LOOKUPS     number of lookups (default 100000)
 *
 * Output macro_xs[5 * LOOKUPS] is poisoned; the host reference is a separate
 * plain-C loop (with its own upper-bound search), compared with a relative
 * tolerance.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef NUCLIDES
#define NUCLIDES 68
#endif
#ifndef GRIDPOINTS
#define GRIDPOINTS 2000
#endif
#ifndef LOOKUPS
#define LOOKUPS 100000
#endif
#if NUCLIDES < 16 || GRIDPOINTS < 2 || LOOKUPS < 1
#error "NUCLIDES >= 16, GRIDPOINTS >= 2 and LOOKUPS >= 1 required"
#endif

#define MATERIALS 12
#define MAX_NUCS 32 /* nuclides in the largest material (the fuel) */
#define NXS 5       /* cross sections per grid point */
#define POISON (-1.0e300)

/* Per nuclide n: energy[n * GRIDPOINTS + j] ascending, and
 * xs[(n * GRIDPOINTS + j) * NXS + t]. */

#pragma omp declare target
/* Nuclides per material: fuel first, then cladding, coolant, ... */
static const int num_nucs[MATERIALS] = {32, 5,  4,  4,  27, 21,
                                        21, 21, 21, 21, 9,  9};
/* Relative frequency of each material along a particle's path (sums to 1). */
static const double mat_dist[MATERIALS] = {0.140, 0.052, 0.275, 0.134,
                                           0.154, 0.064, 0.066, 0.055,
                                           0.008, 0.015, 0.025, 0.012};

/* 64-bit linear congruential generator, one stream per lookup. */
static double lcg_next(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

static unsigned long long lookup_seed(int i) {
  unsigned long long s = 0x9e3779b97f4a7c15ULL * (unsigned long long)(i + 1);
  s ^= s >> 29;
  return s;
}

static int pick_material(double u) {
  double c = 0.0;
  for (int m = 0; m < MATERIALS - 1; m++) {
    c += mat_dist[m];
    if (u < c)
      return m;
  }
  return MATERIALS - 1;
}

/* Index j of the grid interval [e[j], e[j+1]) that holds E, clamped to
 * [0, n - 2]. */
static int grid_search(int n, double E, const double *e) {
  int lo = 0, hi = n - 1;
  if (E <= e[lo])
    return 0;
  if (E >= e[hi])
    return n - 2;
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (e[mid] > E)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

/* The five interpolated cross sections of nuclide nuc at energy E. */
static void calculate_micro_xs(double E, int nuc, const double *energy,
                               const double *xs, double *micro) {
  const double *e = energy + (long)nuc * GRIDPOINTS;
  int j = grid_search(GRIDPOINTS, E, e);
  const double *lo = xs + ((long)nuc * GRIDPOINTS + j) * NXS;
  const double *hi = lo + NXS;
  double f = (e[j + 1] - E) / (e[j + 1] - e[j]);
  for (int t = 0; t < NXS; t++)
    micro[t] = hi[t] - f * (hi[t] - lo[t]);
}

static void calculate_macro_xs(double E, int mat, const int *mats,
                               const double *concs, const double *energy,
                               const double *xs, double *macro) {
  for (int t = 0; t < NXS; t++)
    macro[t] = 0.0;
  for (int k = 0; k < num_nucs[mat]; k++) {
    double micro[NXS];
    int nuc = mats[mat * MAX_NUCS + k];
    calculate_micro_xs(E, nuc, energy, xs, micro);
    for (int t = 0; t < NXS; t++)
      macro[t] += concs[mat * MAX_NUCS + k] * micro[t];
  }
}
#pragma omp end declare target

static void run_lookups(const int *mats, const double *concs,
                        const double *energy, const double *xs, double *out) {
#pragma omp target teams distribute parallel for                              \
    map(to : mats[:MATERIALS * MAX_NUCS], concs[:MATERIALS * MAX_NUCS],        \
        energy[:NUCLIDES * GRIDPOINTS], xs[:NUCLIDES * GRIDPOINTS * NXS])      \
    map(tofrom : out[:LOOKUPS * NXS])
  for (int i = 0; i < LOOKUPS; i++) {
    unsigned long long seed = lookup_seed(i);
    double E = lcg_next(&seed);
    int mat = pick_material(lcg_next(&seed));
    double macro[NXS];
    calculate_macro_xs(E, mat, mats, concs, energy, xs, macro);
    for (int t = 0; t < NXS; t++)
      out[(long)i * NXS + t] = macro[t];
  }
}

static double unit(unsigned k) {
  return (double)(bench_hash(k) >> 8) / (double)(1u << 24);
}

int main(void) {
  int *mats = malloc(sizeof(int) * MATERIALS * MAX_NUCS);
  double *concs = malloc(sizeof(double) * MATERIALS * MAX_NUCS);
  double *energy = malloc(sizeof(double) * NUCLIDES * GRIDPOINTS);
  double *xs = malloc(sizeof(double) * NUCLIDES * GRIDPOINTS * NXS);
  double *out = malloc(sizeof(double) * LOOKUPS * NXS);
  if (!mats || !concs || !energy || !xs || !out) {
    printf("xsbench: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  /* Distinct nuclides per material: consecutive indices from an offset. */
  for (int m = 0; m < MATERIALS; m++)
    for (int k = 0; k < MAX_NUCS; k++) {
      mats[m * MAX_NUCS + k] = k < num_nucs[m] ? (m * 11 + k) % NUCLIDES : -1;
      concs[m * MAX_NUCS + k] = 0.1 + unit(1000u * m + k);
    }
  /* Strictly increasing energies in (0, 1), different per nuclide. */
  for (int n = 0; n < NUCLIDES; n++)
    for (int j = 0; j < GRIDPOINTS; j++) {
      double jitter = 0.8 * unit(7919u * n + j) - 0.4;
      energy[(long)n * GRIDPOINTS + j] = (j + 0.5 + jitter) / GRIDPOINTS;
      for (int t = 0; t < NXS; t++)
        xs[((long)n * GRIDPOINTS + j) * NXS + t] =
            unit(104729u * n + 31u * j + t + 1);
    }
  for (long k = 0; k < (long)LOOKUPS * NXS; k++)
    out[k] = POISON;

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  run_lookups(mats, concs, energy, xs, out);

  /* Reference: the same sampling; the grid interval from an upper-bound
   * search written independently of grid_search(). */
  int errors = 0;
  for (int i = 0; i < LOOKUPS; i++) {
    unsigned long long seed = lookup_seed(i);
    double E = lcg_next(&seed);
    int mat = pick_material(lcg_next(&seed));
    double ref[NXS] = {0, 0, 0, 0, 0};
    for (int k = 0; k < num_nucs[mat]; k++) {
      int n = mats[mat * MAX_NUCS + k];
      const double *e = energy + (long)n * GRIDPOINTS;
      /* j = (index of the first energy > E) - 1, clamped to [0, G - 2] */
      int first = 0, count = GRIDPOINTS;
      while (count > 0) {
        int half = count / 2;
        if (e[first + half] <= E) {
          first += half + 1;
          count -= half + 1;
        } else {
          count = half;
        }
      }
      int j = first - 1;
      j = j < 0 ? 0 : j > GRIDPOINTS - 2 ? GRIDPOINTS - 2 : j;
      double f = (e[j + 1] - E) / (e[j + 1] - e[j]);
      for (int t = 0; t < NXS; t++) {
        double lo = xs[((long)n * GRIDPOINTS + j) * NXS + t];
        double hi = xs[((long)n * GRIDPOINTS + j + 1) * NXS + t];
        ref[t] += concs[mat * MAX_NUCS + k] * (hi - f * (hi - lo));
      }
    }
    for (int t = 0; t < NXS; t++) {
      double got = out[(long)i * NXS + t];
      if (!(fabs(got - ref[t]) <= 1e-9 * fmax(fabs(ref[t]), 1.0)) &&
          errors++ < 10)
        printf("error: lookup %d xs %d = %.17g, expected %.17g\n", i, t, got,
               ref[t]);
    }
  }

  printf("xsbench NUCLIDES=%d GRIDPOINTS=%d LOOKUPS=%d ran on %s: %s\n",
         NUCLIDES, GRIDPOINTS, LOOKUPS,
         bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(to : mats[:MATERIALS * MAX_NUCS],                  \
                                concs[:MATERIALS * MAX_NUCS],                  \
                                energy[:NUCLIDES * GRIDPOINTS],                \
                                xs[:NUCLIDES * GRIDPOINTS * NXS])              \
    map(tofrom : out[:LOOKUPS * NXS])
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      run_lookups(mats, concs, energy, xs, out);
      if (r > 0)
        times[r - 1] = bench_now() - t0;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  free(mats);
  free(concs);
  free(energy);
  free(xs);
  free(out);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
