// xsbench.cu - CUDA counterpart of ../programs/xsbench.c (ompds benchmark):
// the same device functions, data and host reference; one thread per lookup
// in a grid-stride loop, 256 threads per block.  The material tables live in
// __constant__ memory.  Keep the two files in step.
//
// Macros: NUCLIDES (68), GRIDPOINTS (2000), LOOKUPS (100000), THREADS (256).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#ifndef THREADS
#define THREADS 256
#endif
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

/* Nuclides per material (fuel first) and relative frequency of each material
 * along a particle's path: __constant__ for the device, plain arrays for the
 * host reference; TABLE(x) picks the right one. */
#define NUM_NUCS_INIT {32, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9}
#define MAT_DIST_INIT                                                          \
  {0.140, 0.052, 0.275, 0.134, 0.154, 0.064,                                   \
   0.066, 0.055, 0.008, 0.015, 0.025, 0.012}
__constant__ int num_nucs_dev[MATERIALS] = NUM_NUCS_INIT;
__constant__ double mat_dist_dev[MATERIALS] = MAT_DIST_INIT;
#ifdef __CUDA_ARCH__
#define TABLE(x) x##_dev
#else
static const int num_nucs_host[MATERIALS] = NUM_NUCS_INIT;
static const double mat_dist_host[MATERIALS] = MAT_DIST_INIT;
#define TABLE(x) x##_host
#endif

/* 64-bit linear congruential generator, one stream per lookup. */
__host__ __device__ static double lcg_next(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

__host__ __device__ static unsigned long long lookup_seed(int i) {
  unsigned long long s = 0x9e3779b97f4a7c15ULL * (unsigned long long)(i + 1);
  s ^= s >> 29;
  return s;
}

__host__ __device__ static int pick_material(double u) {
  double c = 0.0;
  for (int m = 0; m < MATERIALS - 1; m++) {
    c += TABLE(mat_dist)[m];
    if (u < c)
      return m;
  }
  return MATERIALS - 1;
}

/* Index j of the grid interval [e[j], e[j+1]) that holds E, clamped to
 * [0, n - 2]. */
__host__ __device__ static int grid_search(int n, double E, const double *e) {
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
__host__ __device__ static void
calculate_micro_xs(double E, int nuc, const double *energy, const double *xs,
                   double *micro) {
  const double *e = energy + (long)nuc * GRIDPOINTS;
  int j = grid_search(GRIDPOINTS, E, e);
  const double *lo = xs + ((long)nuc * GRIDPOINTS + j) * NXS;
  const double *hi = lo + NXS;
  double f = (e[j + 1] - E) / (e[j + 1] - e[j]);
  for (int t = 0; t < NXS; t++)
    micro[t] = hi[t] - f * (hi[t] - lo[t]);
}

__host__ __device__ static void
calculate_macro_xs(double E, int mat, const int *mats, const double *concs,
                   const double *energy, const double *xs, double *macro) {
  for (int t = 0; t < NXS; t++)
    macro[t] = 0.0;
  for (int k = 0; k < TABLE(num_nucs)[mat]; k++) {
    double micro[NXS];
    int nuc = mats[mat * MAX_NUCS + k];
    calculate_micro_xs(E, nuc, energy, xs, micro);
    for (int t = 0; t < NXS; t++)
      macro[t] += concs[mat * MAX_NUCS + k] * micro[t];
  }
}
__global__ void run_lookups(const int *mats, const double *concs,
                            const double *energy, const double *xs,
                            double *out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < LOOKUPS;
       i += blockDim.x * gridDim.x) {
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
  int *mats = (int *)malloc(sizeof(int) * MATERIALS * MAX_NUCS);
  double *concs = (double *)malloc(sizeof(double) * MATERIALS * MAX_NUCS);
  double *energy = (double *)malloc(sizeof(double) * NUCLIDES * GRIDPOINTS);
  double *xs = (double *)malloc(sizeof(double) * NUCLIDES * GRIDPOINTS * NXS);
  double *out = (double *)malloc(sizeof(double) * LOOKUPS * NXS);
  if (!mats || !concs || !energy || !xs || !out) {
    printf("xsbench (CUDA): out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  /* Distinct nuclides per material: consecutive indices from an offset. */
  for (int m = 0; m < MATERIALS; m++)
    for (int k = 0; k < MAX_NUCS; k++) {
      mats[m * MAX_NUCS + k] =
          k < TABLE(num_nucs)[m] ? (m * 11 + k) % NUCLIDES : -1;
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

  int *d_mats = to_device(mats, MATERIALS * MAX_NUCS);
  double *d_concs = to_device(concs, MATERIALS * MAX_NUCS);
  double *d_energy = to_device(energy, (size_t)NUCLIDES * GRIDPOINTS);
  double *d_xs = to_device(xs, (size_t)NUCLIDES * GRIDPOINTS * NXS);
  double *d_out = to_device(out, (size_t)LOOKUPS * NXS);
  int blocks = (LOOKUPS + THREADS - 1) / THREADS;
  auto launch = [&] {
    run_lookups<<<blocks, THREADS>>>(d_mats, d_concs, d_energy, d_xs, d_out);
  };
  run_once(launch);
  to_host(out, d_out, (size_t)LOOKUPS * NXS);

  /* Reference: the same sampling; the grid interval from an upper-bound
   * search written independently of grid_search(). */
  int errors = 0;
  for (int i = 0; i < LOOKUPS; i++) {
    unsigned long long seed = lookup_seed(i);
    double E = lcg_next(&seed);
    int mat = pick_material(lcg_next(&seed));
    double ref[NXS] = {0, 0, 0, 0, 0};
    for (int k = 0; k < TABLE(num_nucs)[mat]; k++) {
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

  printf("xsbench (CUDA) NUCLIDES=%d GRIDPOINTS=%d LOOKUPS=%d ran on device: "
         "%s\n",
         NUCLIDES, GRIDPOINTS, LOOKUPS, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  CUDA_CHECK(cudaFree(d_mats));
  CUDA_CHECK(cudaFree(d_concs));
  CUDA_CHECK(cudaFree(d_energy));
  CUDA_CHECK(cudaFree(d_xs));
  CUDA_CHECK(cudaFree(d_out));
  free(mats);
  free(concs);
  free(energy);
  free(xs);
  free(out);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
