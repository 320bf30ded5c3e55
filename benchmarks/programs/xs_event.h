/* xs_event.h - the XSBench-style event lookup shared by xs_event.c (OpenMP)
 * and ../cuda/xs_event.cu (CUDA): data layout, problem set-up and the
 * device functions.  XS_FN qualifies the device functions (`__host__
 * __device__` for CUDA, nothing inside OpenMP's `declare target`); the
 * statements are the same for both compilers by construction.
 *
 * Pattern: XSBench's event-based lookup with the unionized energy grid
 * (Tramm et al.): one binary search of the particle energy E in the union of
 * all nuclides' energy grids, then, for each nuclide of the sampled material,
 * the nuclide's grid interval from the index grid, an interpolation of five
 * cross sections from a grid-point struct, and an accumulation weighted by
 * the nuclide's concentration.  The lookup runs through three device
 * functions with many pointer arguments and a local array passed by pointer,
 * as in the proxy application.  Written for ompds from that description;
 * not XSBench's code, and with its own data.
 *
 * Sizes, grid type and hash bins are run-time values, as in XSBench; the
 * lookups use the unionized grid (the nuclide and hash grid paths are
 * compiled but not run).  Besides the cross sections, each lookup records
 * the index of its largest one (XSBench's verification).
 *
 * Macros: NUCLIDES (68), GRIDPOINTS (1000), LOOKUPS (200000).
 */
#ifndef XS_EVENT_H
#define XS_EVENT_H

#ifndef NUCLIDES
#define NUCLIDES 68
#endif
#ifndef GRIDPOINTS
#define GRIDPOINTS 1000
#endif
#ifndef LOOKUPS
#define LOOKUPS 200000
#endif
#if NUCLIDES < 34 || GRIDPOINTS < 2 || LOOKUPS < 1
#error "NUCLIDES >= 34, GRIDPOINTS >= 2 and LOOKUPS >= 1 required"
#endif

#define XS_MATERIALS 12
#define XS_MAX_NUCS 34 /* nuclides of the largest material (the fuel) */
#define XS_UNION ((long)NUCLIDES * GRIDPOINTS)

typedef struct {
  double energy;
  double total_xs;
  double elastic_xs;
  double absorbtion_xs;
  double fission_xs;
  double nu_fission_xs;
} GridPoint;

/* 64-bit linear congruential generator, one stream per lookup. */
XS_FN static double xs_lcg(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

XS_FN static unsigned long long xs_seed(long i) {
  unsigned long long s = 0x2545f4914f6cdd1dULL * (unsigned long long)(i + 1);
  return s ^ (s >> 31);
}

/* Material by cumulative probability (dist sums to 1). */
XS_FN static int xs_pick_mat(double u, const double *dist) {
  double c = 0.0;
  for (int m = 0; m < XS_MATERIALS - 1; m++) {
    c += dist[m];
    if (u < c)
      return m;
  }
  return XS_MATERIALS - 1;
}

/* Index of the last union energy <= quarry (0 if none). */
XS_FN static long xs_grid_search(long n, double quarry, const double *A) {
  long lower = 0, upper = n - 1;
  while (upper - lower > 1) {
    long mid = lower + (upper - lower) / 2;
    if (A[mid] > quarry)
      upper = mid;
    else
      lower = mid;
  }
  return lower;
}

/* Index of the last energy <= quarry among grid[low..high] (XSBench's
 * per-nuclide search, used without the unionized grid). */
XS_FN static long xs_nuclide_search(double quarry, const GridPoint *grid,
                                    long low, long high) {
  long length = high - low;
  while (length > 1) {
    long mid = low + length / 2;
    if (grid[mid].energy > quarry)
      high = mid;
    else
      low = mid;
    length = high - low;
  }
  return low;
}

#define XS_UNIONIZED 0
#define XS_NUCLIDE 1
#define XS_HASH 2

/* The five cross sections of nuclide nuc at E, interpolated in the grid
 * interval that the grid type gives: the index grid at union point idx
 * (unionized), a binary search of the nuclide grid (nuclide), or one within
 * the bounds of hash bin idx (hash). */
XS_FN static void xs_micro(double E, int nuc, long n_nuclides, long n_grid,
                           const double *union_energy, const int *index_grid,
                           const GridPoint *grids, long idx, double *xs_vector,
                           int grid_type, int hash_bins) {
  const GridPoint *g = grids + nuc * n_grid;
  long j;
  if (grid_type == XS_NUCLIDE) {
    j = xs_nuclide_search(E, g, 0, n_grid - 1);
  } else if (grid_type == XS_UNIONIZED) {
    j = index_grid[idx * n_nuclides + nuc];
  } else {
    long u_low = index_grid[idx * n_nuclides + nuc];
    long u_high = idx == hash_bins - 1
                      ? n_grid - 1
                      : index_grid[(idx + 1) * n_nuclides + nuc] + 1;
    j = xs_nuclide_search(E, g, u_low, u_high);
  }
  if (j > n_grid - 2)
    j = n_grid - 2;
  const GridPoint *low = g + j;
  const GridPoint *high = low + 1;
  double f = (high->energy - E) / (high->energy - low->energy);
  xs_vector[0] = high->total_xs - f * (high->total_xs - low->total_xs);
  xs_vector[1] = high->elastic_xs - f * (high->elastic_xs - low->elastic_xs);
  xs_vector[2] =
      high->absorbtion_xs - f * (high->absorbtion_xs - low->absorbtion_xs);
  xs_vector[3] = high->fission_xs - f * (high->fission_xs - low->fission_xs);
  xs_vector[4] =
      high->nu_fission_xs - f * (high->nu_fission_xs - low->nu_fission_xs);
  (void)union_energy;
}

/* The five macroscopic cross sections of material mat at E. */
XS_FN static void xs_macro(double E, int mat, long n_nuclides, long n_grid,
                           const int *num_nucs, const double *concs,
                           const double *union_energy, const int *index_grid,
                           const GridPoint *grids, const int *mats,
                           double *macro_xs, int grid_type, int hash_bins,
                           int max_num_nucs) {
  double xs_vector[5];
  for (int k = 0; k < 5; k++)
    macro_xs[k] = 0.0;
  long idx = -1;
  if (grid_type == XS_UNIONIZED)
    idx = xs_grid_search(n_nuclides * n_grid, E, union_energy);
  else if (grid_type == XS_HASH)
    idx = (long)(E * hash_bins);
  for (int j = 0; j < num_nucs[mat]; j++) {
    int nuc = mats[mat * max_num_nucs + j];
    double conc = concs[mat * max_num_nucs + j];
    xs_micro(E, nuc, n_nuclides, n_grid, union_energy, index_grid, grids, idx,
             xs_vector, grid_type, hash_bins);
    for (int k = 0; k < 5; k++)
      macro_xs[k] += xs_vector[k] * conc;
  }
}

/* One lookup: its energy and material from its own random stream; the five
 * cross sections, and (as XSBench's verification) the index of the largest
 * one plus one. */
XS_FN static void xs_lookup(long i, long n_nuclides, long n_grid,
                            int grid_type, int hash_bins, int max_num_nucs,
                            const double *dist, const int *num_nucs,
                            const double *concs, const double *union_energy,
                            const int *index_grid, const GridPoint *grids,
                            const int *mats, double *out, int *verification) {
  unsigned long long seed = xs_seed(i);
  double E = xs_lcg(&seed);
  int mat = xs_pick_mat(xs_lcg(&seed), dist);
  double macro_xs[5];
  xs_macro(E, mat, n_nuclides, n_grid, num_nucs, concs, union_energy,
           index_grid, grids, mats, macro_xs, grid_type, hash_bins,
           max_num_nucs);
  double max = -1.0;
  int max_idx = 0;
  for (int k = 0; k < 5; k++) {
    out[i * 5 + k] = macro_xs[k];
    if (macro_xs[k] > max) {
      max = macro_xs[k];
      max_idx = k;
    }
  }
  verification[i] = max_idx + 1;
}

/* ---- host set-up -------------------------------------------------------- */

static double xs_unit(unsigned k) {
  return (double)(bench_hash(k) >> 8) / (double)(1u << 24);
}

static int xs_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct {
  double dist[XS_MATERIALS];
  int num_nucs[XS_MATERIALS];
  int *mats;            /* [XS_MATERIALS * XS_MAX_NUCS] */
  double *concs;        /* [XS_MATERIALS * XS_MAX_NUCS] */
  GridPoint *grids;     /* [NUCLIDES * GRIDPOINTS], energies ascending */
  double *union_energy; /* [XS_UNION] */
  int *index_grid;      /* [XS_UNION * NUCLIDES] */
  int grid_type;        /* XS_UNIONIZED (the others are compiled, as in
                           XSBench, but not run) */
  int hash_bins;
} XSProblem;

/* Returns 0 when out of memory. */
static int xs_setup(XSProblem *p) {
  static const int nn[XS_MATERIALS] = {34, 5, 4, 4, 27, 21,
                                       21, 21, 21, 21, 9, 9};
  static const double dist[XS_MATERIALS] = {0.140, 0.052, 0.275, 0.134,
                                            0.154, 0.064, 0.066, 0.055,
                                            0.008, 0.015, 0.025, 0.012};
  p->grid_type = XS_UNIONIZED;
  p->hash_bins = 10000;
  for (int m = 0; m < XS_MATERIALS; m++) {
    p->num_nucs[m] = nn[m];
    p->dist[m] = dist[m];
  }
  p->mats = (int *)malloc(sizeof(int) * XS_MATERIALS * XS_MAX_NUCS);
  p->concs = (double *)malloc(sizeof(double) * XS_MATERIALS * XS_MAX_NUCS);
  p->grids = (GridPoint *)malloc(sizeof(GridPoint) * XS_UNION);
  p->union_energy = (double *)malloc(sizeof(double) * XS_UNION);
  p->index_grid = (int *)malloc(sizeof(int) * XS_UNION * NUCLIDES);
  if (!p->mats || !p->concs || !p->grids || !p->union_energy ||
      !p->index_grid)
    return 0;
  for (int m = 0; m < XS_MATERIALS; m++)
    for (int k = 0; k < XS_MAX_NUCS; k++) {
      p->mats[m * XS_MAX_NUCS + k] =
          k < nn[m] ? (m * 13 + k * 7) % NUCLIDES : -1;
      p->concs[m * XS_MAX_NUCS + k] = 0.05 + xs_unit(4099u * m + k);
    }
  /* Strictly increasing energies in (0, 1), different per nuclide. */
  for (int n = 0; n < NUCLIDES; n++)
    for (int j = 0; j < GRIDPOINTS; j++) {
      GridPoint *g = &p->grids[(long)n * GRIDPOINTS + j];
      g->energy = (j + 0.5 + 0.8 * xs_unit(7919u * n + j) - 0.4) / GRIDPOINTS;
      g->total_xs = xs_unit(104729u * n + 31u * j + 1);
      g->elastic_xs = xs_unit(104729u * n + 31u * j + 2);
      g->absorbtion_xs = xs_unit(104729u * n + 31u * j + 3);
      g->fission_xs = xs_unit(104729u * n + 31u * j + 4);
      g->nu_fission_xs = xs_unit(104729u * n + 31u * j + 5);
      p->union_energy[(long)n * GRIDPOINTS + j] = g->energy;
    }
  qsort(p->union_energy, XS_UNION, sizeof(double), xs_cmp);
  /* index_grid[u * NUCLIDES + n]: the interval j of nuclide n's grid with
   * e[j] <= union[u] < e[j + 1], clamped to [0, GRIDPOINTS - 2]. */
  for (int n = 0; n < NUCLIDES; n++) {
    const GridPoint *g = &p->grids[(long)n * GRIDPOINTS];
    int j = 0;
    for (long u = 0; u < XS_UNION; u++) {
      while (j < GRIDPOINTS - 2 && g[j + 1].energy <= p->union_energy[u])
        j++;
      p->index_grid[u * NUCLIDES + n] = j;
    }
  }
  return 1;
}

static void xs_free(XSProblem *p) {
  free(p->mats);
  free(p->concs);
  free(p->grids);
  free(p->union_energy);
  free(p->index_grid);
}

/* Compares out[] with the lookups computed on the host; returns the number
 * of mismatches (prints the first ten). */
static int xs_check(const XSProblem *p, const double *out,
                    const int *verification) {
  int errors = 0;
  double *one = (double *)malloc(sizeof(double) * 5 * LOOKUPS);
  if (!one)
    return 1;
  int *vone = (int *)malloc(sizeof(int) * LOOKUPS);
  if (!vone)
    return 1;
  for (long i = 0; i < LOOKUPS; i++)
    xs_lookup(i, NUCLIDES, GRIDPOINTS, p->grid_type, p->hash_bins,
              XS_MAX_NUCS, p->dist, p->num_nucs, p->concs, p->union_energy,
              p->index_grid, p->grids, p->mats, one, vone);
  for (long i = 0; i < LOOKUPS; i++)
    if (verification[i] != vone[i] && errors++ < 10)
      printf("error: lookup %ld: largest cross section %d, expected %d\n", i,
             verification[i], vone[i]);
  free(vone);
  for (long k = 0; k < 5L * LOOKUPS; k++) {
    double d = out[k] - one[k], a = one[k] < 0 ? -one[k] : one[k];
    if (!((d < 0 ? -d : d) <= 1e-10 * (a > 1.0 ? a : 1.0)) && errors++ < 10)
      printf("error: lookup %ld xs %ld = %.17g, expected %.17g\n", k / 5,
             k % 5, out[k], one[k]);
  }
  free(one);
  return errors;
}

#endif /* XS_EVENT_H */
