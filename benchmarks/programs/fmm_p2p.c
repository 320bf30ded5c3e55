/* fmm_p2p.c - miniFMM-style near-field (P2P) traversal (ompds benchmark;
 * issue 19's generic-mode yardstick).  `target teams distribute` over the
 * target leaves; per source leaf of the interaction list the team loads the
 * source particles into `tile`, a local of the sequential part shared by two
 * parallel loops (a depot object with ompds, a runtime allocation with
 * stock), then each thread accumulates over the tile for its target
 * particles.  CUDA twin: ../cuda/fmm_p2p.cu (a __shared__ tile).  Output
 * (potential and field per particle) is poisoned and checked against a
 * direct host sum (fmm_p2p.h).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"
#include "fmm_p2p.h"

#ifndef TEAMS
#define TEAMS 264
#endif

static void p2p(const FMMProblem *p, double *out) {
  int n = p->n, n_ilist = p->n_ilist;
  const double *x = p->x, *y = p->y, *z = p->z, *q = p->q;
  const int *leaf_start = p->leaf_start, *ilist_start = p->ilist_start,
            *ilist = p->ilist;
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(TILE)        \
    map(to : x[:n], y[:n], z[:n], q[:n], leaf_start[:FMM_LEAVES + 1],          \
        ilist_start[:FMM_LEAVES + 1], ilist[:n_ilist])                         \
    map(tofrom : out[:4L * n])
  for (int t = 0; t < FMM_LEAVES; t++) {
    int tstart = leaf_start[t], tcount = leaf_start[t + 1] - tstart;
    double tile[4][TILE];
    for (int i = 0; i < tcount; i++)
      for (int c = 0; c < 4; c++)
        out[4L * (tstart + i) + c] = 0.0;
    for (int k = ilist_start[t]; k < ilist_start[t + 1]; k++) {
      int s = ilist[k];
      int sstart = leaf_start[s], scount = leaf_start[s + 1] - sstart;
#pragma omp parallel for
      for (int j = 0; j < scount; j++) {
        tile[0][j] = x[sstart + j];
        tile[1][j] = y[sstart + j];
        tile[2][j] = z[sstart + j];
        tile[3][j] = q[sstart + j];
      }
#pragma omp parallel for
      for (int i = 0; i < tcount; i++) {
        double xi = x[tstart + i], yi = y[tstart + i], zi = z[tstart + i];
        double pot = 0.0, fx = 0.0, fy = 0.0, fz = 0.0;
        for (int j = 0; j < scount; j++) {
          double dx = tile[0][j] - xi, dy = tile[1][j] - yi,
                 dz = tile[2][j] - zi;
          double r2 = dx * dx + dy * dy + dz * dz;
          if (r2 > 0.0) {
            double inv = 1.0 / sqrt(r2);
            pot += tile[3][j] * inv;
            double s3 = tile[3][j] * inv * inv * inv;
            fx += dx * s3;
            fy += dy * s3;
            fz += dz * s3;
          }
        }
        out[4L * (tstart + i) + 0] += pot;
        out[4L * (tstart + i) + 1] += fx;
        out[4L * (tstart + i) + 2] += fy;
        out[4L * (tstart + i) + 3] += fz;
      }
    }
  }
}

int main(void) {
  FMMProblem p;
  if (!fmm_setup(&p)) {
    printf("fmm_p2p: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  double *out = (double *)malloc(sizeof(double) * 4 * p.n);
  if (!out) {
    printf("fmm_p2p: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  for (long k = 0; k < 4L * p.n; k++)
    out[k] = -1.0e300;

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  p2p(&p, out);
  int errors = fmm_check(&p, out);
  printf("fmm_p2p LEAVES=%d PARTICLES=%d TILE=%d ran on %s: %s\n", FMM_LEAVES,
         p.n, TILE, bench_where(on_host), errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(to : p.x[:p.n], p.y[:p.n], p.z[:p.n], p.q[:p.n],  \
                                p.leaf_start[:FMM_LEAVES + 1],                 \
                                p.ilist_start[:FMM_LEAVES + 1],                \
                                p.ilist[:p.n_ilist])                           \
    map(tofrom : out[:4L * p.n])
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      p2p(&p, out);
      if (r > 0)
        times[r - 1] = bench_now() - t0;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  fmm_free(&p);
  free(out);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
