/* fmm_p2p.h - problem set-up and host reference of the miniFMM-style near
 * field (P2P) shared by fmm_p2p.c (OpenMP) and ../cuda/fmm_p2p.cu (CUDA).
 *
 * Pattern: the particle-to-particle phase of a fast multipole method
 * (miniFMM, Atkinson et al.): the particles are sorted into the leaves of a
 * uniform octree (an L x L x L grid of cells), each target leaf walks its
 * interaction list (the leaves that touch it, itself included), loads each
 * source leaf into a tile shared by the team (thread block), and every
 * thread accumulates the potential and the field of its target particles
 * over the tile.  Written for ompds from that description; not miniFMM's
 * code.
 *
 * Macros: LEAVES_PER_DIM (8), TILE (128: the most particles in a leaf).
 */
#ifndef FMM_P2P_H
#define FMM_P2P_H

#include <math.h>

#ifndef LEAVES_PER_DIM
#define LEAVES_PER_DIM 8
#endif
#ifndef TILE
#define TILE 128
#endif
#if LEAVES_PER_DIM < 2 || TILE < 8
#error "LEAVES_PER_DIM >= 2 and TILE >= 8 required"
#endif
#define FMM_LEAVES (LEAVES_PER_DIM * LEAVES_PER_DIM * LEAVES_PER_DIM)

typedef struct {
  int n;              /* particles */
  double *x, *y, *z, *q; /* [n], sorted by leaf */
  int *leaf_start;    /* [FMM_LEAVES + 1] */
  int *ilist_start;   /* [FMM_LEAVES + 1] */
  int *ilist;         /* [ilist_start[FMM_LEAVES]] */
  int n_ilist;
} FMMProblem;

static double fmm_unit(unsigned k) {
  return (double)(bench_hash(k) >> 8) / (double)(1u << 24);
}

/* Returns 0 when out of memory. */
static int fmm_setup(FMMProblem *p) {
  const int L = LEAVES_PER_DIM;
  p->leaf_start = (int *)malloc(sizeof(int) * (FMM_LEAVES + 1));
  p->ilist_start = (int *)malloc(sizeof(int) * (FMM_LEAVES + 1));
  p->ilist = (int *)malloc(sizeof(int) * FMM_LEAVES * 27);
  if (!p->leaf_start || !p->ilist_start || !p->ilist)
    return 0;
  /* Between TILE / 4 and TILE particles per leaf. */
  p->leaf_start[0] = 0;
  for (int c = 0; c < FMM_LEAVES; c++)
    p->leaf_start[c + 1] =
        p->leaf_start[c] + TILE / 4 + (int)(bench_hash(17u * c + 5) %
                                            (unsigned)(TILE - TILE / 4 + 1));
  p->n = p->leaf_start[FMM_LEAVES];
  p->x = (double *)malloc(sizeof(double) * p->n);
  p->y = (double *)malloc(sizeof(double) * p->n);
  p->z = (double *)malloc(sizeof(double) * p->n);
  p->q = (double *)malloc(sizeof(double) * p->n);
  if (!p->x || !p->y || !p->z || !p->q)
    return 0;
  for (int c = 0; c < FMM_LEAVES; c++) {
    int cx = c % L, cy = (c / L) % L, cz = c / (L * L);
    for (int k = p->leaf_start[c]; k < p->leaf_start[c + 1]; k++) {
      p->x[k] = (cx + fmm_unit(4u * k + 1)) / L;
      p->y[k] = (cy + fmm_unit(4u * k + 2)) / L;
      p->z[k] = (cz + fmm_unit(4u * k + 3)) / L;
      p->q[k] = 0.5 + fmm_unit(4u * k + 4);
    }
  }
  /* Interaction lists: the (up to 27) leaves that touch a leaf. */
  int n = 0;
  for (int c = 0; c < FMM_LEAVES; c++) {
    int cx = c % L, cy = (c / L) % L, cz = c / (L * L);
    p->ilist_start[c] = n;
    for (int dz = -1; dz <= 1; dz++)
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          int ax = cx + dx, ay = cy + dy, az = cz + dz;
          if (ax < 0 || ay < 0 || az < 0 || ax >= L || ay >= L || az >= L)
            continue;
          p->ilist[n++] = ax + L * (ay + L * az);
        }
  }
  p->ilist_start[FMM_LEAVES] = n;
  p->n_ilist = n;
  return 1;
}

static void fmm_free(FMMProblem *p) {
  free(p->x);
  free(p->y);
  free(p->z);
  free(p->q);
  free(p->leaf_start);
  free(p->ilist_start);
  free(p->ilist);
}

/* Host reference: direct sums over each particle's neighbour leaves, with no
 * tiles. out holds potential and field, 4 per particle. Returns the number
 * of mismatches. */
static int fmm_check(const FMMProblem *p, const double *out) {
  int errors = 0;
  for (int t = 0; t < FMM_LEAVES; t++)
    for (int i = p->leaf_start[t]; i < p->leaf_start[t + 1]; i++) {
      double ref[4] = {0, 0, 0, 0};
      for (int k = p->ilist_start[t]; k < p->ilist_start[t + 1]; k++) {
        int s = p->ilist[k];
        for (int j = p->leaf_start[s]; j < p->leaf_start[s + 1]; j++) {
          double dx = p->x[j] - p->x[i], dy = p->y[j] - p->y[i],
                 dz = p->z[j] - p->z[i];
          double r2 = dx * dx + dy * dy + dz * dz;
          if (r2 > 0.0) {
            double inv = 1.0 / sqrt(r2);
            ref[0] += p->q[j] * inv;
            double s3 = p->q[j] * inv * inv * inv;
            ref[1] += dx * s3;
            ref[2] += dy * s3;
            ref[3] += dz * s3;
          }
        }
      }
      for (int c = 0; c < 4; c++) {
        double got = out[4L * i + c];
        if (!(fabs(got - ref[c]) <= 1e-9 * fmax(fabs(ref[c]), 1.0)) &&
            errors++ < 10)
          printf("error: particle %d value %d = %.17g, expected %.17g\n", i, c,
                 got, ref[c]);
      }
    }
  return errors;
}

#endif /* FMM_P2P_H */
