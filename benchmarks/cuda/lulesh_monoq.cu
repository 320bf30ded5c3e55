// lulesh_monoq.cu - CUDA counterpart of ../programs/lulesh_monoq.c (ompds
// benchmark): the same loop body, data and host reference, as a grid-stride
// kernel with 128 threads per block (LULESH's CUDA block size).  Keep the two
// in step.
//
// Macros: EDGE (default 30), THREADS (default 128).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#ifndef THREADS
#define THREADS 128
#endif
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

__global__ void calc_monotonic_q_region(
    int reg_size, const int *__restrict__ reg_elem_list,
    const int *__restrict__ lxim, const int *__restrict__ lxip,
    const int *__restrict__ letam, const int *__restrict__ letap,
    const int *__restrict__ lzetam, const int *__restrict__ lzetap,
    const int *__restrict__ elem_bc, const double *__restrict__ delv_xi,
    const double *__restrict__ delv_eta, const double *__restrict__ delv_zeta,
    const double *__restrict__ delx_xi, const double *__restrict__ delx_eta,
    const double *__restrict__ delx_zeta, const double *__restrict__ vdov,
    const double *__restrict__ elem_mass, const double *__restrict__ volo,
    const double *__restrict__ vnew, double *__restrict__ ql,
    double *__restrict__ qq) {
  for (int ielem = blockIdx.x * blockDim.x + threadIdx.x; ielem < reg_size;
       ielem += blockDim.x * gridDim.x) {
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
    *iarr[k] = (int *)malloc(sizeof(int) * NUM_ELEM);
  for (unsigned k = 0; k < sizeof darr / sizeof *darr; k++)
    *darr[k] = (double *)malloc(sizeof(double) * NUM_ELEM);
  double *ql = (double *)malloc(sizeof(double) * NUM_ELEM);
  double *qq = (double *)malloc(sizeof(double) * NUM_ELEM);
  int ok = ql && qq;
  for (unsigned k = 0; k < sizeof iarr / sizeof *iarr; k++)
    ok = ok && *iarr[k];
  for (unsigned k = 0; k < sizeof darr / sizeof *darr; k++)
    ok = ok && *darr[k];
  if (!ok) {
    printf("lulesh_monoq (CUDA): out of memory: FAIL\n");
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

  /* Device copies of every array. */
  struct mesh d = m;
  d.reg_elem_list = to_device(m.reg_elem_list, m.reg_size);
  d.lxim = to_device(m.lxim, NUM_ELEM);
  d.lxip = to_device(m.lxip, NUM_ELEM);
  d.letam = to_device(m.letam, NUM_ELEM);
  d.letap = to_device(m.letap, NUM_ELEM);
  d.lzetam = to_device(m.lzetam, NUM_ELEM);
  d.lzetap = to_device(m.lzetap, NUM_ELEM);
  d.elem_bc = to_device(m.elem_bc, NUM_ELEM);
  d.delv_xi = to_device(m.delv_xi, NUM_ELEM);
  d.delv_eta = to_device(m.delv_eta, NUM_ELEM);
  d.delv_zeta = to_device(m.delv_zeta, NUM_ELEM);
  d.delx_xi = to_device(m.delx_xi, NUM_ELEM);
  d.delx_eta = to_device(m.delx_eta, NUM_ELEM);
  d.delx_zeta = to_device(m.delx_zeta, NUM_ELEM);
  d.vdov = to_device(m.vdov, NUM_ELEM);
  d.elem_mass = to_device(m.elem_mass, NUM_ELEM);
  d.volo = to_device(m.volo, NUM_ELEM);
  d.vnew = to_device(m.vnew, NUM_ELEM);
  double *d_ql = to_device(ql, NUM_ELEM), *d_qq = to_device(qq, NUM_ELEM);
  int blocks = (m.reg_size + THREADS - 1) / THREADS;
  auto launch = [&] {
    calc_monotonic_q_region<<<blocks, THREADS>>>(
        d.reg_size, d.reg_elem_list, d.lxim, d.lxip, d.letam, d.letap,
        d.lzetam, d.lzetap, d.elem_bc, d.delv_xi, d.delv_eta, d.delv_zeta,
        d.delx_xi, d.delx_eta, d.delx_zeta, d.vdov, d.elem_mass, d.volo,
        d.vnew, d_ql, d_qq);
  };
  run_once(launch);
  to_host(ql, d_ql, NUM_ELEM);
  to_host(qq, d_qq, NUM_ELEM);

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

  printf("lulesh_monoq (CUDA) EDGE=%d region=%d/%d ran on device: %s\n",
         EDGE, in_region, NUM_ELEM, errors ? "FAIL" : "PASS");
  bench_kernel("main", launch);
  int *dint[] = {d.lxim,   d.lxip,   d.letam,   d.letap,
                 d.lzetam, d.lzetap, d.elem_bc, d.reg_elem_list};
  double *ddbl[] = {d.delv_xi,  d.delv_eta,  d.delv_zeta, d.delx_xi,
                    d.delx_eta, d.delx_zeta, d.vdov,      d.elem_mass,
                    d.volo,     d.vnew};
  for (unsigned k = 0; k < sizeof dint / sizeof *dint; k++)
    CUDA_CHECK(cudaFree(dint[k]));
  for (unsigned k = 0; k < sizeof ddbl / sizeof *ddbl; k++)
    CUDA_CHECK(cudaFree(ddbl[k]));
  CUDA_CHECK(cudaFree(d_ql));
  CUDA_CHECK(cudaFree(d_qq));
  for (unsigned k = 0; k < sizeof iarr / sizeof *iarr; k++)
    free(*iarr[k]);
  for (unsigned k = 0; k < sizeof darr / sizeof *darr; k++)
    free(*darr[k]);
  free(ql);
  free(qq);
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
