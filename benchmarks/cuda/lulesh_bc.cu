// lulesh_bc.cu - CUDA counterpart of ../programs/lulesh_bc.c (ompds
// benchmark).  Like the OpenMP version, and unlike LULESH's CUDA port (which
// launches one kernel per plane), one grid-stride kernel over the boundary
// nodes with the three if-then statements, 128 threads per block (LULESH's
// CUDA block size).
//
// Macros: EDGE (default 30), PLANES bit mask (default 7), THREADS (128).
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#ifndef EDGE
#define EDGE 30
#endif
#ifndef PLANES
#define PLANES 7
#endif
#ifndef THREADS
#define THREADS 128
#endif

#define NPE (EDGE + 1)
#define NUM_NODE (NPE * NPE * NPE)
#define NUM_NODE_BC (NPE * NPE)
#define NODE(x, y, z) (((z) * NPE + (y)) * NPE + (x))

__global__ void apply_accel_bc(int num_node_bc, int planes, double *xdd,
                               double *ydd, double *zdd, const int *symm_x,
                               const int *symm_y, const int *symm_z) {
  int has_x = planes & 1, has_y = planes & 2, has_z = planes & 4;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < num_node_bc;
       i += blockDim.x * gridDim.x) {
    if (has_x)
      xdd[symm_x[i]] = 0.0;
    if (has_y)
      ydd[symm_y[i]] = 0.0;
    if (has_z)
      zdd[symm_z[i]] = 0.0;
  }
}

static double init_acc(int n, int c) {
  return 1.0 + 0.125 * (double)((n * 7 + c * 3) % 29);
}

int main(void) {
  double *acc[3], *d_acc[3];
  int *symm[3], *d_symm[3];
  for (int c = 0; c < 3; c++) {
    acc[c] = (double *)malloc(sizeof(double) * NUM_NODE);
    symm[c] = (int *)malloc(sizeof(int) * NUM_NODE_BC);
    if (!acc[c] || !symm[c]) {
      printf("lulesh_bc (CUDA): out of memory: FAIL\n");
      return EXIT_FAILURE;
    }
    for (int n = 0; n < NUM_NODE; n++)
      acc[c][n] = init_acc(n, c);
  }
  for (int a = 0; a < NPE; a++)
    for (int b = 0; b < NPE; b++) {
      symm[0][a * NPE + b] = NODE(0, b, a);
      symm[1][a * NPE + b] = NODE(b, 0, a);
      symm[2][a * NPE + b] = NODE(b, a, 0);
    }
  for (int c = 0; c < 3; c++) {
    d_acc[c] = to_device(acc[c], NUM_NODE);
    d_symm[c] = to_device(symm[c], NUM_NODE_BC);
  }
  int blocks = (NUM_NODE_BC + THREADS - 1) / THREADS;
  auto launch = [&] {
    apply_accel_bc<<<blocks, THREADS>>>(NUM_NODE_BC, PLANES, d_acc[0],
                                        d_acc[1], d_acc[2], d_symm[0],
                                        d_symm[1], d_symm[2]);
  };
  run_once(launch);
  for (int c = 0; c < 3; c++)
    to_host(acc[c], d_acc[c], NUM_NODE);

  int errors = 0;
  for (int z = 0; z < NPE; z++)
    for (int y = 0; y < NPE; y++)
      for (int x = 0; x < NPE; x++) {
        int n = NODE(x, y, z), on[3] = {x == 0, y == 0, z == 0};
        for (int c = 0; c < 3; c++) {
          double want = on[c] && (PLANES >> c & 1) ? 0.0 : init_acc(n, c);
          if (acc[c][n] != want && errors++ < 10)
            printf("error: %cdd[%d] = %g, expected %g\n", "xyz"[c], n,
                   acc[c][n], want);
        }
      }
  printf("lulesh_bc (CUDA) EDGE=%d PLANES=%d ran on device: %s\n", EDGE,
         PLANES, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  for (int c = 0; c < 3; c++) {
    CUDA_CHECK(cudaFree(d_acc[c]));
    CUDA_CHECK(cudaFree(d_symm[c]));
    free(acc[c]);
    free(symm[c]);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
