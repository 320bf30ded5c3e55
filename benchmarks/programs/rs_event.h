/* rs_event.h - the RSBench-style event lookup shared by rs_event.c (OpenMP)
 * and ../cuda/rs_event.cu (CUDA): data, problem set-up and device functions.
 * RS_FN qualifies the device functions (`__host__ __device__` for CUDA,
 * nothing inside OpenMP's `declare target`).
 *
 * Pattern: RSBench's multipole cross-section lookup (Tramm et al.): for each
 * nuclide of the sampled material, the energy window gives a fitted
 * background and a range of resonance poles; every pole adds the real part
 * of complex products with a Faddeeva-type function of the Doppler-scaled
 * distance to the pole (a rational approximation with a complex exponential
 * near the pole, an asymptotic form far from it), and l-dependent phase
 * factors from trigonometric functions.  Complex arithmetic on a small
 * struct, device functions with many pointer arguments, a local array of
 * four cross sections passed by pointer, `teams distribute parallel for`.
 * Written for ompds from that description; not RSBench's code, nor its
 * constants: the numbers only have to be the same on the host and the GPU.
 *
 * Macros: NUCLIDES (68), POLES (1000 per nuclide), WINDOWS (100 per
 * nuclide), LOOKUPS (50000).
 */
#ifndef RS_EVENT_H
#define RS_EVENT_H

#include <math.h>

#ifndef NUCLIDES
#define NUCLIDES 68
#endif
#ifndef POLES
#define POLES 1000
#endif
#ifndef WINDOWS
#define WINDOWS 100
#endif
#ifndef LOOKUPS
#define LOOKUPS 50000
#endif
#if NUCLIDES < 34 || WINDOWS < 1 || POLES < WINDOWS || LOOKUPS < 1
#error "NUCLIDES >= 34, 1 <= WINDOWS <= POLES and LOOKUPS >= 1 required"
#endif

#define RS_MATERIALS 12
#define RS_MAX_NUCS 34
#define RS_NUML 4

typedef struct {
  double r, i;
} RSComplex;

typedef struct {
  RSComplex MP_EA, MP_RT, MP_RA, MP_RF;
  short l_value;
} Pole;

typedef struct {
  double T, A, F;
  int start, end;
} Window;

RS_FN static RSComplex c_add(RSComplex a, RSComplex b) {
  RSComplex c = {a.r + b.r, a.i + b.i};
  return c;
}
RS_FN static RSComplex c_sub(RSComplex a, RSComplex b) {
  RSComplex c = {a.r - b.r, a.i - b.i};
  return c;
}
RS_FN static RSComplex c_mul(RSComplex a, RSComplex b) {
  RSComplex c = {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
  return c;
}
RS_FN static RSComplex c_div(RSComplex a, RSComplex b) {
  double d = b.r * b.r + b.i * b.i;
  RSComplex c = {(a.r * b.r + a.i * b.i) / d, (a.i * b.r - a.r * b.i) / d};
  return c;
}
RS_FN static RSComplex c_scale(RSComplex a, double s) {
  RSComplex c = {a.r * s, a.i * s};
  return c;
}
RS_FN static double c_abs(RSComplex a) { return sqrt(a.r * a.r + a.i * a.i); }
RS_FN static RSComplex c_exp(RSComplex a) {
  double m = exp(a.r);
  RSComplex c = {m * cos(a.i), m * sin(a.i)};
  return c;
}

/* A Faddeeva-type function: near the origin a ten-term rational sum with
 * e^{i tau z}; far from it a two-term asymptotic form. */
RS_FN static RSComplex rs_W(RSComplex Z) {
  const RSComplex I = {0.0, 1.0}, ONE = {1.0, 0.0};
  if (c_abs(Z) < 6.0) {
    const double tau = 12.0;
    RSComplex E = c_exp(c_scale(c_mul(I, Z), tau));
    RSComplex Z2 = c_scale(c_mul(Z, Z), tau * tau);
    RSComplex sum = {0.0, 0.0};
    for (int n = 1; n <= 10; n++) {
      double a = exp(-(double)(n * n) * 0.0685389); /* e^{-(n pi / tau)^2} */
      RSComplex num = c_sub(c_scale(E, (n & 1) ? -1.0 : 1.0), ONE);
      RSComplex den = {(double)(n * n) * 9.8696044 - Z2.r, -Z2.i};
      sum = c_add(sum, c_scale(c_div(num, den), a));
    }
    RSComplex first = c_div(c_sub(ONE, E), c_scale(Z, tau));
    return c_add(c_mul(I, first), c_scale(c_mul(c_mul(I, Z), sum), tau));
  }
  RSComplex Z2 = c_mul(Z, Z);
  RSComplex a = {Z2.r - 0.2752551, Z2.i}, b = {Z2.r - 2.724745, Z2.i};
  RSComplex t = c_add(c_div(c_scale(ONE, 0.5124242), a),
                      c_div(c_scale(ONE, 0.05176536), b));
  return c_mul(c_mul(I, Z), t);
}

/* The l-dependent phase factors of nuclide nuc at E. */
RS_FN static void rs_sig_T(int nuc, double E, const double *pseudo_K0RS,
                           RSComplex *sigTfactors) {
  double sqrtE = sqrt(E);
  for (int l = 0; l < RS_NUML; l++) {
    double phi = pseudo_K0RS[nuc * RS_NUML + l] * sqrtE;
    if (l == 1)
      phi -= -atan(phi);
    else if (l == 2)
      phi -= atan(3.0 * phi / (3.0 - phi * phi));
    else if (l == 3)
      phi -= atan(phi * (15.0 - phi * phi) / (15.0 - 6.0 * phi * phi));
    phi *= 2.0;
    sigTfactors[l].r = cos(phi);
    sigTfactors[l].i = -sin(phi);
  }
}

/* Total, absorption, fission and elastic cross sections of nuclide nuc. */
RS_FN static void rs_micro(double *micro_xs, int nuc, double E,
                           const int *n_windows, const double *pseudo_K0RS,
                           const Window *windows, const Pole *poles,
                           int max_num_windows, int max_num_poles) {
  double spacing = 1.0 / n_windows[nuc];
  int window = (int)(E / spacing);
  if (window == n_windows[nuc])
    window--;
  RSComplex sigTfactors[RS_NUML];
  rs_sig_T(nuc, E, pseudo_K0RS, sigTfactors);
  Window w = windows[nuc * max_num_windows + window];
  double sigT = E * w.T, sigA = E * w.A, sigF = E * w.F;
  const double dopp = 0.5;
  for (int i = w.start; i < w.end; i++) {
    Pole pole = poles[nuc * max_num_poles + i];
    RSComplex diff = {E - pole.MP_EA.r, -pole.MP_EA.i};
    RSComplex W = rs_W(c_scale(diff, dopp));
    sigT += c_mul(c_mul(pole.MP_RT, W), sigTfactors[pole.l_value]).r;
    sigA += c_mul(pole.MP_RA, W).r;
    sigF += c_mul(pole.MP_RF, W).r;
  }
  micro_xs[0] = sigT;
  micro_xs[1] = sigA;
  micro_xs[2] = sigF;
  micro_xs[3] = sigT - sigA;
}

RS_FN static void rs_macro(double *macro_xs, int mat, double E,
                           const int *num_nucs, const int *mats,
                           const double *concs, const int *n_windows,
                           const double *pseudo_K0RS, const Window *windows,
                           const Pole *poles, int max_num_nucs,
                           int max_num_windows, int max_num_poles) {
  for (int k = 0; k < 4; k++)
    macro_xs[k] = 0.0;
  for (int j = 0; j < num_nucs[mat]; j++) {
    double micro_xs[4];
    int nuc = mats[mat * max_num_nucs + j];
    rs_micro(micro_xs, nuc, E, n_windows, pseudo_K0RS, windows, poles,
             max_num_windows, max_num_poles);
    for (int k = 0; k < 4; k++)
      macro_xs[k] += micro_xs[k] * concs[mat * max_num_nucs + j];
  }
}

RS_FN static double rs_lcg(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

RS_FN static int rs_pick_mat(double u, const double *dist) {
  double c = 0.0;
  for (int m = 0; m < RS_MATERIALS - 1; m++) {
    c += dist[m];
    if (u < c)
      return m;
  }
  return RS_MATERIALS - 1;
}

/* One lookup; out gets its four macroscopic cross sections. */
RS_FN static void rs_lookup(long i, const double *dist, const int *num_nucs,
                            const int *mats, const double *concs,
                            const int *n_windows, const double *pseudo_K0RS,
                            const Window *windows, const Pole *poles,
                            int max_num_nucs, int max_num_windows,
                            int max_num_poles, double *out) {
  unsigned long long seed = 0x9e3779b97f4a7c15ULL * (unsigned long long)(i + 1);
  seed ^= seed >> 29;
  double E = rs_lcg(&seed);
  int mat = rs_pick_mat(rs_lcg(&seed), dist);
  double macro_xs[4];
  rs_macro(macro_xs, mat, E, num_nucs, mats, concs, n_windows, pseudo_K0RS,
           windows, poles, max_num_nucs, max_num_windows, max_num_poles);
  for (int k = 0; k < 4; k++)
    out[i * 4 + k] = macro_xs[k];
}

/* ---- host set-up -------------------------------------------------------- */

static double rs_unit(unsigned k) {
  return (double)(bench_hash(k) >> 8) / (double)(1u << 24);
}

typedef struct {
  double dist[RS_MATERIALS];
  int num_nucs[RS_MATERIALS];
  int *mats;           /* [RS_MATERIALS * RS_MAX_NUCS] */
  double *concs;       /* [RS_MATERIALS * RS_MAX_NUCS] */
  int *n_windows;      /* [NUCLIDES] */
  double *pseudo_K0RS; /* [NUCLIDES * RS_NUML] */
  Window *windows;     /* [NUCLIDES * WINDOWS] */
  Pole *poles;         /* [NUCLIDES * POLES] */
} RSProblem;

static int rs_setup(RSProblem *p) {
  static const int nn[RS_MATERIALS] = {34, 5, 4, 4, 27, 21,
                                       21, 21, 21, 21, 9, 9};
  static const double dist[RS_MATERIALS] = {0.140, 0.052, 0.275, 0.134,
                                            0.154, 0.064, 0.066, 0.055,
                                            0.008, 0.015, 0.025, 0.012};
  p->mats = (int *)malloc(sizeof(int) * RS_MATERIALS * RS_MAX_NUCS);
  p->concs = (double *)malloc(sizeof(double) * RS_MATERIALS * RS_MAX_NUCS);
  p->n_windows = (int *)malloc(sizeof(int) * NUCLIDES);
  p->pseudo_K0RS = (double *)malloc(sizeof(double) * NUCLIDES * RS_NUML);
  p->windows = (Window *)malloc(sizeof(Window) * NUCLIDES * WINDOWS);
  p->poles = (Pole *)malloc(sizeof(Pole) * NUCLIDES * POLES);
  if (!p->mats || !p->concs || !p->n_windows || !p->pseudo_K0RS ||
      !p->windows || !p->poles)
    return 0;
  for (int m = 0; m < RS_MATERIALS; m++) {
    p->num_nucs[m] = nn[m];
    p->dist[m] = dist[m];
    for (int k = 0; k < RS_MAX_NUCS; k++) {
      p->mats[m * RS_MAX_NUCS + k] =
          k < nn[m] ? (m * 13 + k * 7) % NUCLIDES : -1;
      p->concs[m * RS_MAX_NUCS + k] = 0.05 + rs_unit(4099u * m + k);
    }
  }
  for (int n = 0; n < NUCLIDES; n++) {
    /* Between WINDOWS / 2 and WINDOWS windows, the poles split evenly. */
    int nw = WINDOWS / 2 + (int)(rs_unit(31u * n + 7) * (WINDOWS / 2 + 1));
    if (nw > WINDOWS)
      nw = WINDOWS;
    if (nw < 1)
      nw = 1;
    p->n_windows[n] = nw;
    for (int l = 0; l < RS_NUML; l++)
      p->pseudo_K0RS[n * RS_NUML + l] = 0.5 + 2.0 * rs_unit(811u * n + l);
    for (int w = 0; w < nw; w++) {
      Window *win = &p->windows[n * WINDOWS + w];
      win->T = rs_unit(59u * n + 3u * w);
      win->A = rs_unit(59u * n + 3u * w + 1);
      win->F = rs_unit(59u * n + 3u * w + 2);
      win->start = (int)((long)POLES * w / nw);
      win->end = (int)((long)POLES * (w + 1) / nw);
    }
    for (int k = 0; k < POLES; k++) {
      Pole *q = &p->poles[(long)n * POLES + k];
      unsigned b = 977u * n + 13u * k;
      q->MP_EA.r = (k + rs_unit(b)) / POLES;
      q->MP_EA.i = 0.01 + 0.1 * rs_unit(b + 1);
      q->MP_RT.r = rs_unit(b + 2);
      q->MP_RT.i = rs_unit(b + 3) - 0.5;
      q->MP_RA.r = rs_unit(b + 4);
      q->MP_RA.i = rs_unit(b + 5) - 0.5;
      q->MP_RF.r = rs_unit(b + 6);
      q->MP_RF.i = rs_unit(b + 7) - 0.5;
      q->l_value = (short)(bench_hash(b + 8) % RS_NUML);
    }
  }
  return 1;
}

static void rs_free(RSProblem *p) {
  free(p->mats);
  free(p->concs);
  free(p->n_windows);
  free(p->pseudo_K0RS);
  free(p->windows);
  free(p->poles);
}

/* Compares out[] with the lookups computed on the host. */
static int rs_check(const RSProblem *p, const double *out) {
  int errors = 0;
  double *ref = (double *)malloc(sizeof(double) * 4 * LOOKUPS);
  if (!ref)
    return 1;
  for (long i = 0; i < LOOKUPS; i++)
    rs_lookup(i, p->dist, p->num_nucs, p->mats, p->concs, p->n_windows,
              p->pseudo_K0RS, p->windows, p->poles, RS_MAX_NUCS, WINDOWS,
              POLES, ref);
  for (long k = 0; k < 4L * LOOKUPS; k++) {
    double d = fabs(out[k] - ref[k]);
    if (!(d <= 1e-8 * fmax(fabs(ref[k]), 1.0)) && errors++ < 10)
      printf("error: lookup %ld xs %ld = %.17g, expected %.17g\n", k / 4,
             k % 4, out[k], ref[k]);
  }
  free(ref);
  return errors;
}

#endif /* RS_EVENT_H */
