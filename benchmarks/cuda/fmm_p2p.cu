// fmm_p2p.cu - CUDA twin of ../programs/fmm_p2p.c (ompds benchmark): one
// block of TILE threads per target leaf (grid-stride over the leaves), the
// source leaf in a __shared__ tile, __syncthreads() around its loads.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"
#include "../programs/fmm_p2p.h"

#ifndef TEAMS
#define TEAMS 264
#endif

__global__ void fmm_p2p_kernel(const double *x, const double *y,
                               const double *z, const double *q,
                               const int *leaf_start, const int *ilist_start,
                               const int *ilist, double *out) {
  __shared__ double tile[4][TILE];
  for (int t = blockIdx.x; t < FMM_LEAVES; t += gridDim.x) {
    int tstart = leaf_start[t], tcount = leaf_start[t + 1] - tstart;
    for (int i = threadIdx.x; i < tcount; i += blockDim.x)
      for (int c = 0; c < 4; c++)
        out[4L * (tstart + i) + c] = 0.0;
    for (int k = ilist_start[t]; k < ilist_start[t + 1]; k++) {
      int s = ilist[k];
      int sstart = leaf_start[s], scount = leaf_start[s + 1] - sstart;
      __syncthreads();
      for (int j = threadIdx.x; j < scount; j += blockDim.x) {
        tile[0][j] = x[sstart + j];
        tile[1][j] = y[sstart + j];
        tile[2][j] = z[sstart + j];
        tile[3][j] = q[sstart + j];
      }
      __syncthreads();
      for (int i = threadIdx.x; i < tcount; i += blockDim.x) {
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
    __syncthreads();
  }
}

int main(void) {
  FMMProblem p;
  if (!fmm_setup(&p)) {
    printf("fmm_p2p (CUDA): out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  double *out = (double *)malloc(sizeof(double) * 4 * p.n);
  for (long k = 0; k < 4L * p.n; k++)
    out[k] = -1.0e300;
  double *d_x = to_device(p.x, p.n), *d_y = to_device(p.y, p.n),
         *d_z = to_device(p.z, p.n), *d_q = to_device(p.q, p.n);
  int *d_ls = to_device(p.leaf_start, FMM_LEAVES + 1);
  int *d_is = to_device(p.ilist_start, FMM_LEAVES + 1);
  int *d_il = to_device(p.ilist, p.n_ilist);
  double *d_out = to_device(out, 4L * p.n);
  auto launch = [&] {
    fmm_p2p_kernel<<<TEAMS, TILE>>>(d_x, d_y, d_z, d_q, d_ls, d_is, d_il,
                                    d_out);
  };
  run_once(launch);
  to_host(out, d_out, 4L * p.n);
  int errors = fmm_check(&p, out);
  printf("fmm_p2p (CUDA) LEAVES=%d PARTICLES=%d TILE=%d ran on device: %s\n",
         FMM_LEAVES, p.n, TILE, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  fmm_free(&p);
  free(out);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
