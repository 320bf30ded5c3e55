/* lulesh_bc.c - a LULESH-like boundary-condition kernel (ompds benchmark).
 *
 * Pattern: the ApplyAccelerationBoundaryConditionsForNodes loop as Bertolli
 * et al., "Integrating GPU Support for OpenMP Offloading Directives into
 * Clang" (LLVM-HPC'15), Section 5.3, describe it: one loop over the boundary
 * nodes, "similar to the vector add benchmark with additional control-flow
 * instructions (three if-then statements)", under `target teams distribute
 * parallel for schedule(static, 1)`.  Each symmetry plane (x = 0, y = 0,
 * z = 0) of a structured hexahedral mesh lists its nodes; the kernel zeroes
 * the acceleration component normal to each plane that the mesh has.  Written
 * for ompds from that description; not LULESH's code.
 *
 * Macros (all optional):
 *   EDGE   elements per mesh edge (default 30, one of the paper's sizes:
 *          12, 30, 100); nodes per edge EDGE + 1
 *   PLANES bit mask of the symmetry planes present: 1 x, 2 y, 4 z
 *          (default 7); passed to the kernel at run time, as in LULESH
 *
 * The accelerations are updated in place and start non-zero everywhere, so
 * an element the kernel missed (or zeroed wrongly) fails the check.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef EDGE
#define EDGE 30
#endif
#ifndef PLANES
#define PLANES 7
#endif
#if EDGE < 1
#error "EDGE must be >= 1"
#endif

#define NPE (EDGE + 1)              /* nodes per edge */
#define NUM_NODE (NPE * NPE * NPE)  /* nodes */
#define NUM_NODE_BC (NPE * NPE)     /* nodes per symmetry plane */
#define NODE(x, y, z) (((z) * NPE + (y)) * NPE + (x))

static void apply_accel_bc(int num_node_bc, int planes, double *xdd,
                           double *ydd, double *zdd, const int *symm_x,
                           const int *symm_y, const int *symm_z) {
  int has_x = planes & 1, has_y = planes & 2, has_z = planes & 4;
#pragma omp target teams distribute parallel for schedule(static, 1)          \
    map(tofrom : xdd[:NUM_NODE], ydd[:NUM_NODE], zdd[:NUM_NODE])               \
    map(to : symm_x[:num_node_bc], symm_y[:num_node_bc], symm_z[:num_node_bc])
  for (int i = 0; i < num_node_bc; i++) {
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
  double *acc[3], *ref[3];
  int *symm[3];
  for (int c = 0; c < 3; c++) {
    acc[c] = malloc(sizeof(double) * NUM_NODE);
    ref[c] = malloc(sizeof(double) * NUM_NODE);
    symm[c] = malloc(sizeof(int) * NUM_NODE_BC);
    if (!acc[c] || !ref[c] || !symm[c]) {
      printf("lulesh_bc: out of memory: FAIL\n");
      return EXIT_FAILURE;
    }
    for (int n = 0; n < NUM_NODE; n++)
      acc[c][n] = init_acc(n, c);
  }
  /* Node lists of the planes x = 0, y = 0 and z = 0. */
  for (int a = 0; a < NPE; a++)
    for (int b = 0; b < NPE; b++) {
      symm[0][a * NPE + b] = NODE(0, b, a);
      symm[1][a * NPE + b] = NODE(b, 0, a);
      symm[2][a * NPE + b] = NODE(b, a, 0);
    }

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

  apply_accel_bc(NUM_NODE_BC, PLANES, acc[0], acc[1], acc[2], symm[0], symm[1],
                 symm[2]);

  /* Reference: a node's component c is zero iff the node lies on plane c
   * and that plane is present. */
  for (int z = 0; z < NPE; z++)
    for (int y = 0; y < NPE; y++)
      for (int x = 0; x < NPE; x++) {
        int n = NODE(x, y, z), on[3] = {x == 0, y == 0, z == 0};
        for (int c = 0; c < 3; c++)
          ref[c][n] = on[c] && (PLANES >> c & 1) ? 0.0 : init_acc(n, c);
      }
  int errors = 0;
  for (int c = 0; c < 3; c++)
    for (int n = 0; n < NUM_NODE; n++)
      if (acc[c][n] != ref[c][n] && errors++ < 10)
        printf("error: %cdd[%d] = %g, expected %g\n", "xyz"[c], n, acc[c][n],
               ref[c][n]);

  printf("lulesh_bc EDGE=%d PLANES=%d ran on %s: %s\n", EDGE, PLANES,
         bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
    double *x = acc[0], *y = acc[1], *z = acc[2];
    int *sx = symm[0], *sy = symm[1], *sz = symm[2];
#pragma omp target data map(tofrom : x[:NUM_NODE], y[:NUM_NODE], z[:NUM_NODE]) \
    map(to : sx[:NUM_NODE_BC], sy[:NUM_NODE_BC], sz[:NUM_NODE_BC])
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      apply_accel_bc(NUM_NODE_BC, PLANES, x, y, z, sx, sy, sz);
      if (r > 0)
        times[r - 1] = bench_now() - t0;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  for (int c = 0; c < 3; c++) {
    free(acc[c]);
    free(ref[c]);
    free(symm[c]);
  }
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
