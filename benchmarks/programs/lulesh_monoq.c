/* lulesh_monoq.c - a LULESH-like monotonic artificial-viscosity kernel (ompds
 * benchmark).
 *
 * Pattern: the CalcMonotonicQRegionForElems loop as Bertolli et al.,
 * "Integrating GPU Support for OpenMP Offloading Directives into Clang"
 * (LLVM-HPC'15), Section 5.3, describe it: a loop over the elements of one
 * material region, reached through an index list (indirection), "more
 * compute- and data-intensive ... and exposes more control-flow logic" than
 * the boundary-condition kernel, under `target teams distribute parallel for
 * schedule(static, 1)`.  For every element it forms, in each of the three
 * mesh directions, the ratios of the neighbours' velocity gradients to its own
 * (the neighbour is found through a connectivity array, or replaced by a
 * boundary condition: symmetry or free surface), limits them monotonically,
 * and combines them into a linear and a quadratic viscosity term.  Written
 * for ompds from that description and the published algorithm; not LULESH's
 * code.
 *
 * Macros (all optional): EDGE elements per mesh edge (default 30, as in the
 * paper's 30^3 run).  Every element whose hash is not 0 mod 4 belongs to the
 * region (about 3/4 of the mesh).
 *
 * Outputs ql[] and qq[] are poisoned; elements outside the region must keep
 * the poison.  The host reference is a separate plain-C implementation;
 * results are compared with a relative tolerance because the device may
 * contract a * b + c into fused multiply-adds.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef EDGE
#define EDGE 30
#endif
#if EDGE < 2
#error "EDGE must be >= 2"
#endif

#define NUM_ELEM (EDGE * EDGE * EDGE)
#define ELEM(x, y, z) (((z) * EDGE + (y)) * EDGE + (x))
#define POISON (-777.0)

/* Boundary condition of one face: 2 bits per face, faces in the order
 * xi-, xi+, eta-, eta+, zeta-, zeta+. */
#define BC_NEIGHBOR 0 /* interior (or another domain): use the neighbour */
#define BC_SYMM 1     /* symmetry plane: mirror the element itself */
#define BC_FREE 2     /* free surface: zero gradient */
#define FACE_BC(bc, face) (((bc) >> (2 * (face))) & 3)

#define PTINY 1.e-36
#define QLC_MONOQ 0.5
#define QQC_MONOQ (2.0 / 3.0)
#define MONOQ_LIMITER_MULT 2.0
#define MONOQ_MAX_SLOPE 1.0

struct mesh {
  int *lxim, *lxip, *letam, *letap, *lzetam, *lzetap; /* neighbours */
  int *elem_bc;
  double *delv_xi, *delv_eta, *delv_zeta; /* velocity gradients */
  double *delx_xi, *delx_eta, *delx_zeta; /* position gradients */
  double *vdov, *elem_mass, *volo, *vnew;
  int *reg_elem_list;
  int reg_size;
};

static void calc_monotonic_q_region(
    int reg_size, const int *restrict reg_elem_list, const int *restrict lxim,
    const int *restrict lxip, const int *restrict letam,
    const int *restrict letap, const int *restrict lzetam,
    const int *restrict lzetap, const int *restrict elem_bc,
    const double *restrict delv_xi, const double *restrict delv_eta,
    const double *restrict delv_zeta, const double *restrict delx_xi,
    const double *restrict delx_eta, const double *restrict delx_zeta,
    const double *restrict vdov, const double *restrict elem_mass,
    const double *restrict volo, const double *restrict vnew,
    double *restrict ql, double *restrict qq) {
#pragma omp target teams distribute parallel for schedule(static, 1)          \
    map(to : reg_elem_list[:reg_size], lxim[:NUM_ELEM], lxip[:NUM_ELEM],       \
        letam[:NUM_ELEM], letap[:NUM_ELEM], lzetam[:NUM_ELEM],                 \
        lzetap[:NUM_ELEM], elem_bc[:NUM_ELEM], delv_xi[:NUM_ELEM],             \
        delv_eta[:NUM_ELEM], delv_zeta[:NUM_ELEM], delx_xi[:NUM_ELEM],         \
        delx_eta[:NUM_ELEM], delx_zeta[:NUM_ELEM], vdov[:NUM_ELEM],            \
        elem_mass[:NUM_ELEM], volo[:NUM_ELEM], vnew[:NUM_ELEM])                \
    map(tofrom : ql[:NUM_ELEM], qq[:NUM_ELEM])
  for (int ielem = 0; ielem < reg_size; ielem++) {
    int i = reg_elem_list[ielem];
    int bc = elem_bc[i];
    double delvm, delvp, norm;

    /* xi */
    norm = 1.0 / (delv_xi[i] + PTINY);
    switch (FACE_BC(bc, 0)) {
    case BC_SYMM: delvm = delv_xi[i]; break;
    case BC_FREE: delvm = 0.0; break;
    default: delvm = delv_xi[lxim[i]]; break;
    }
    switch (FACE_BC(bc, 1)) {
    case BC_SYMM: delvp = delv_xi[i]; break;
    case BC_FREE: delvp = 0.0; break;
    default: delvp = delv_xi[lxip[i]]; break;
    }
    delvm *= norm;
    delvp *= norm;
    double phixi = 0.5 * (delvm + delvp);
    delvm *= MONOQ_LIMITER_MULT;
    delvp *= MONOQ_LIMITER_MULT;
    if (delvm < phixi) phixi = delvm;
    if (delvp < phixi) phixi = delvp;
    if (phixi < 0.0) phixi = 0.0;
    if (phixi > MONOQ_MAX_SLOPE) phixi = MONOQ_MAX_SLOPE;

    /* eta */
    norm = 1.0 / (delv_eta[i] + PTINY);
    switch (FACE_BC(bc, 2)) {
    case BC_SYMM: delvm = delv_eta[i]; break;
    case BC_FREE: delvm = 0.0; break;
    default: delvm = delv_eta[letam[i]]; break;
    }
    switch (FACE_BC(bc, 3)) {
    case BC_SYMM: delvp = delv_eta[i]; break;
    case BC_FREE: delvp = 0.0; break;
    default: delvp = delv_eta[letap[i]]; break;
    }
    delvm *= norm;
    delvp *= norm;
    double phieta = 0.5 * (delvm + delvp);
    delvm *= MONOQ_LIMITER_MULT;
    delvp *= MONOQ_LIMITER_MULT;
    if (delvm < phieta) phieta = delvm;
    if (delvp < phieta) phieta = delvp;
    if (phieta < 0.0) phieta = 0.0;
    if (phieta > MONOQ_MAX_SLOPE) phieta = MONOQ_MAX_SLOPE;

    /* zeta */
    norm = 1.0 / (delv_zeta[i] + PTINY);
    switch (FACE_BC(bc, 4)) {
    case BC_SYMM: delvm = delv_zeta[i]; break;
    case BC_FREE: delvm = 0.0; break;
    default: delvm = delv_zeta[lzetam[i]]; break;
    }
    switch (FACE_BC(bc, 5)) {
    case BC_SYMM: delvp = delv_zeta[i]; break;
    case BC_FREE: delvp = 0.0; break;
    default: delvp = delv_zeta[lzetap[i]]; break;
    }
    delvm *= norm;
    delvp *= norm;
    double phizeta = 0.5 * (delvm + delvp);
    delvm *= MONOQ_LIMITER_MULT;
    delvp *= MONOQ_LIMITER_MULT;
    if (delvm < phizeta) phizeta = delvm;
    if (delvp < phizeta) phizeta = delvp;
    if (phizeta < 0.0) phizeta = 0.0;
    if (phizeta > MONOQ_MAX_SLOPE) phizeta = MONOQ_MAX_SLOPE;

    double qlin, qquad;
    if (vdov[i] > 0.0) {
      qlin = 0.0;
      qquad = 0.0;
    } else {
      double dxi = delv_xi[i] * delx_xi[i];
      double deta = delv_eta[i] * delx_eta[i];
      double dzeta = delv_zeta[i] * delx_zeta[i];
      if (dxi > 0.0) dxi = 0.0;
      if (deta > 0.0) deta = 0.0;
      if (dzeta > 0.0) dzeta = 0.0;
      double rho = elem_mass[i] / (volo[i] * vnew[i]);
      qlin = -QLC_MONOQ * rho *
             (dxi * (1.0 - phixi) + deta * (1.0 - phieta) +
              dzeta * (1.0 - phizeta));
      qquad = QQC_MONOQ * rho *
              (dxi * dxi * (1.0 - phixi * phixi) +
               deta * deta * (1.0 - phieta * phieta) +
               dzeta * dzeta * (1.0 - phizeta * phizeta));
    }
    qq[i] = qquad;
    ql[i] = qlin;
  }
}

/* ---- host side --------------------------------------------------------- */

/* Deterministic value in [lo, hi) for element e, field f. */
static double field(int e, int f, double lo, double hi) {
  return lo + (hi - lo) * (double)(bench_hash((unsigned)e * 16u + (unsigned)f) >> 8) /
                  (double)(1u << 24);
}

/* Reference: the limited slope of one direction, computed from scratch. */
static double ref_phi(double own, double minus, double plus) {
  double n = 1.0 / (own + PTINY);
  double m = minus * n, p = plus * n;
  double phi = 0.5 * (m + p);
  phi = fmin(phi, MONOQ_LIMITER_MULT * m);
  phi = fmin(phi, MONOQ_LIMITER_MULT * p);
  return fmin(fmax(phi, 0.0), MONOQ_MAX_SLOPE);
}
static double ref_face(int bc, const double *delv, int own, int nb) {
  return bc == BC_SYMM ? delv[own] : bc == BC_FREE ? 0.0 : delv[nb];
}

int main(void) {
  struct mesh m;
  int **iarr[] = {&m.lxim,   &m.lxip,   &m.letam,   &m.letap,
                  &m.lzetam, &m.lzetap, &m.elem_bc, &m.reg_elem_list};
  double **darr[] = {&m.delv_xi, &m.delv_eta,  &m.delv_zeta, &m.delx_xi,
                     &m.delx_eta, &m.delx_zeta, &m.vdov,      &m.elem_mass,
                     &m.volo,    &m.vnew};
  for (unsigned k = 0; k < sizeof iarr / sizeof *iarr; k++)
    *iarr[k] = malloc(sizeof(int) * NUM_ELEM);
  for (unsigned k = 0; k < sizeof darr / sizeof *darr; k++)
    *darr[k] = malloc(sizeof(double) * NUM_ELEM);
  double *ql = malloc(sizeof(double) * NUM_ELEM);
  double *qq = malloc(sizeof(double) * NUM_ELEM);
  int ok = ql && qq;
  for (unsigned k = 0; k < sizeof iarr / sizeof *iarr; k++)
    ok = ok && *iarr[k];
  for (unsigned k = 0; k < sizeof darr / sizeof *darr; k++)
    ok = ok && *darr[k];
  if (!ok) {
    printf("lulesh_monoq: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }

  /* Mesh: neighbours on a structured grid; minus faces of the low planes are
   * symmetry planes, plus faces of the high planes free surfaces, and the
   * boundary neighbour index points to the element itself (never read). */
  m.reg_size = 0;
  for (int z = 0; z < EDGE; z++)
    for (int y = 0; y < EDGE; y++)
      for (int x = 0; x < EDGE; x++) {
        int e = ELEM(x, y, z), bc = 0;
        m.lxim[e] = x > 0 ? ELEM(x - 1, y, z) : e;
        m.lxip[e] = x < EDGE - 1 ? ELEM(x + 1, y, z) : e;
        m.letam[e] = y > 0 ? ELEM(x, y - 1, z) : e;
        m.letap[e] = y < EDGE - 1 ? ELEM(x, y + 1, z) : e;
        m.lzetam[e] = z > 0 ? ELEM(x, y, z - 1) : e;
        m.lzetap[e] = z < EDGE - 1 ? ELEM(x, y, z + 1) : e;
        bc |= (x == 0 ? BC_SYMM : BC_NEIGHBOR) << 0;
        bc |= (x == EDGE - 1 ? BC_FREE : BC_NEIGHBOR) << 2;
        bc |= (y == 0 ? BC_SYMM : BC_NEIGHBOR) << 4;
        bc |= (y == EDGE - 1 ? BC_FREE : BC_NEIGHBOR) << 6;
        bc |= (z == 0 ? BC_SYMM : BC_NEIGHBOR) << 8;
        bc |= (z == EDGE - 1 ? BC_FREE : BC_NEIGHBOR) << 10;
        m.elem_bc[e] = bc;
        m.delv_xi[e] = field(e, 0, -1.0, 1.0);
        m.delv_eta[e] = field(e, 1, -1.0, 1.0);
        m.delv_zeta[e] = field(e, 2, -1.0, 1.0);
        m.delx_xi[e] = field(e, 3, 0.5, 1.5);
        m.delx_eta[e] = field(e, 4, 0.5, 1.5);
        m.delx_zeta[e] = field(e, 5, 0.5, 1.5);
        m.vdov[e] = field(e, 6, -1.0, 0.5);
        m.elem_mass[e] = field(e, 7, 0.5, 1.5);
        m.volo[e] = field(e, 8, 0.5, 1.5);
        m.vnew[e] = field(e, 9, 0.5, 1.5);
        ql[e] = qq[e] = POISON;
        if (bench_hash((unsigned)e) % 4 != 0)
          m.reg_elem_list[m.reg_size++] = e;
      }

  int on_host = -1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();

#define CALL_KERNEL()                                                          \
  calc_monotonic_q_region(m.reg_size, m.reg_elem_list, m.lxim, m.lxip,        \
                          m.letam, m.letap, m.lzetam, m.lzetap, m.elem_bc,    \
                          m.delv_xi, m.delv_eta, m.delv_zeta, m.delx_xi,      \
                          m.delx_eta, m.delx_zeta, m.vdov, m.elem_mass,       \
                          m.volo, m.vnew, ql, qq)
  CALL_KERNEL();

  int errors = 0, in_region = 0, next = 0, nonzero = 0;
  for (int e = 0; e < NUM_ELEM; e++) {
    double rl = POISON, rq = POISON;
    if (next < m.reg_size && m.reg_elem_list[next] == e) {
      next++;
      in_region++;
      int bc = m.elem_bc[e];
      double px = ref_phi(m.delv_xi[e],
                          ref_face(FACE_BC(bc, 0), m.delv_xi, e, m.lxim[e]),
                          ref_face(FACE_BC(bc, 1), m.delv_xi, e, m.lxip[e]));
      double pe = ref_phi(m.delv_eta[e],
                          ref_face(FACE_BC(bc, 2), m.delv_eta, e, m.letam[e]),
                          ref_face(FACE_BC(bc, 3), m.delv_eta, e, m.letap[e]));
      double pz =
          ref_phi(m.delv_zeta[e],
                  ref_face(FACE_BC(bc, 4), m.delv_zeta, e, m.lzetam[e]),
                  ref_face(FACE_BC(bc, 5), m.delv_zeta, e, m.lzetap[e]));
      rl = rq = 0.0;
      if (!(m.vdov[e] > 0.0)) {
        double g[3] = {fmin(m.delv_xi[e] * m.delx_xi[e], 0.0),
                       fmin(m.delv_eta[e] * m.delx_eta[e], 0.0),
                       fmin(m.delv_zeta[e] * m.delx_zeta[e], 0.0)};
        double p[3] = {px, pe, pz};
        double rho = m.elem_mass[e] / (m.volo[e] * m.vnew[e]);
        for (int d = 0; d < 3; d++) {
          rl += -QLC_MONOQ * rho * g[d] * (1.0 - p[d]);
          rq += QQC_MONOQ * rho * g[d] * g[d] * (1.0 - p[d] * p[d]);
        }
      }
    }
    double tl = 1e-9 * fmax(fabs(rl), 1e-3), tq = 1e-9 * fmax(fabs(rq), 1e-3);
    if (!(fabs(ql[e] - rl) <= tl && fabs(qq[e] - rq) <= tq) && errors++ < 10)
      printf("error: element %d: ql = %.17g qq = %.17g, expected %.17g %.17g\n",
             e, ql[e], qq[e], rl, rq);
    nonzero += rl != 0.0 && rl != POISON;
  }
  if (nonzero == 0 && errors++ < 10)
    printf("error: the test data produce no viscosity at all\n");

  printf("lulesh_monoq EDGE=%d region=%d/%d ran on %s: %s\n", EDGE, in_region,
         NUM_ELEM,
         bench_where(on_host),
         errors ? "FAIL" : "PASS");

  int reps = bench_reps();
  double *times = bench_alloc(reps);
  if (times) {
#pragma omp target data map(to : m.reg_elem_list[:m.reg_size],                 \
                                m.lxim[:NUM_ELEM], m.lxip[:NUM_ELEM],          \
                                m.letam[:NUM_ELEM], m.letap[:NUM_ELEM],        \
                                m.lzetam[:NUM_ELEM], m.lzetap[:NUM_ELEM],      \
                                m.elem_bc[:NUM_ELEM], m.delv_xi[:NUM_ELEM],    \
                                m.delv_eta[:NUM_ELEM], m.delv_zeta[:NUM_ELEM], \
                                m.delx_xi[:NUM_ELEM], m.delx_eta[:NUM_ELEM],   \
                                m.delx_zeta[:NUM_ELEM], m.vdov[:NUM_ELEM],     \
                                m.elem_mass[:NUM_ELEM], m.volo[:NUM_ELEM],     \
                                m.vnew[:NUM_ELEM])                             \
    map(tofrom : ql[:NUM_ELEM], qq[:NUM_ELEM])
    for (int r = 0; r <= reps; r++) {
      double t0 = bench_now();
      CALL_KERNEL();
      if (r > 0)
        times[r - 1] = bench_now() - t0;
    }
    bench_report("main", times, reps, NULL);
    free(times);
  }
  for (unsigned k = 0; k < sizeof iarr / sizeof *iarr; k++)
    free(*iarr[k]);
  for (unsigned k = 0; k < sizeof darr / sizeof *darr; k++)
    free(*darr[k]);
  free(ql);
  free(qq);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
