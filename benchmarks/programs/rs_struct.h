/* rs_struct.h - the structs of rs_struct.c and ../cuda/rs_struct.cu (ompds
 * benchmark; issue 36): RSBench's application shape of the multipole lookup
 * of rs_event.h.  The proxy application keeps its run-time inputs in a
 * struct of scalars and its simulation data in a struct of pointers, lengths
 * and maximum sizes; the kernel passes the inputs struct by value through
 * every level of its device functions and the data struct's fields one by
 * one, and the CUDA version passes both structs to the kernel by value.  Written
 * for ompds from that description; not RSBench's code.
 */
#ifndef RS_STRUCT_H
#define RS_STRUCT_H

#include "rs_event.h"

/* The inputs: scalars only. */
typedef struct {
  long n_nuclides;
  long lookups;
  int n_materials;
  int max_num_nucs;
  int max_num_windows;
  int max_num_poles;
  int numL;
  int doppler;
} RSInputs;

/* The simulation data: pointers and their lengths. */
typedef struct {
  double *dist;
  long length_dist;
  int *num_nucs;
  long length_num_nucs;
  int *mats;
  long length_mats;
  double *concs;
  long length_concs;
  int *n_windows;
  long length_n_windows;
  double *pseudo_K0RS;
  long length_pseudo_K0RS;
  Window *windows;
  long length_windows;
  Pole *poles;
  long length_poles;
  int max_num_nucs;
  int max_num_windows;
  int max_num_poles;
} RSData;

static RSInputs rs_inputs(void) {
  RSInputs in;
  in.n_nuclides = NUCLIDES;
  in.lookups = LOOKUPS;
  in.n_materials = RS_MATERIALS;
  in.max_num_nucs = RS_MAX_NUCS;
  in.max_num_windows = WINDOWS;
  in.max_num_poles = POLES;
  in.numL = RS_NUML;
  in.doppler = 1;
  return in;
}

static RSData rs_data(RSProblem *p) {
  RSData sd;
  sd.dist = p->dist;
  sd.length_dist = RS_MATERIALS;
  sd.num_nucs = p->num_nucs;
  sd.length_num_nucs = RS_MATERIALS;
  sd.mats = p->mats;
  sd.length_mats = (long)RS_MATERIALS * RS_MAX_NUCS;
  sd.concs = p->concs;
  sd.length_concs = (long)RS_MATERIALS * RS_MAX_NUCS;
  sd.n_windows = p->n_windows;
  sd.length_n_windows = NUCLIDES;
  sd.pseudo_K0RS = p->pseudo_K0RS;
  sd.length_pseudo_K0RS = (long)NUCLIDES * RS_NUML;
  sd.windows = p->windows;
  sd.length_windows = (long)NUCLIDES * WINDOWS;
  sd.poles = p->poles;
  sd.length_poles = (long)NUCLIDES * POLES;
  sd.max_num_nucs = RS_MAX_NUCS;
  sd.max_num_windows = WINDOWS;
  sd.max_num_poles = POLES;
  return sd;
}

/* ---- device functions in RSBench's shape: the inputs struct is passed by
 * value through every level and read where it is needed (the phase-factor
 * stride, the Doppler switch); the same arithmetic as rs_event.h's. ------ */

RS_FN static void rs_sig_T_s(int nuc, double E, RSInputs in,
                             const double *pseudo_K0RS,
                             RSComplex *sigTfactors) {
  double sqrtE = sqrt(E);
  for (int l = 0; l < RS_NUML; l++) {
    double phi = pseudo_K0RS[nuc * in.numL + l] * sqrtE;
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

/* Doppler-broadened (in.doppler == 1, what runs) or 0 K cross sections. */
RS_FN static void rs_micro_s(double *micro_xs, int nuc, double E,
                             RSInputs in, const int *n_windows,
                             const double *pseudo_K0RS, const Window *windows,
                             const Pole *poles, int max_num_windows,
                             int max_num_poles) {
  double spacing = 1.0 / n_windows[nuc];
  int window = (int)(E / spacing);
  if (window == n_windows[nuc])
    window--;
  RSComplex sigTfactors[RS_NUML];
  rs_sig_T_s(nuc, E, in, pseudo_K0RS, sigTfactors);
  Window w = windows[nuc * max_num_windows + window];
  double sigT = E * w.T, sigA = E * w.A, sigF = E * w.F;
  const double dopp = 0.5;
  for (int i = w.start; i < w.end; i++) {
    Pole pole = poles[nuc * max_num_poles + i];
    RSComplex W;
    if (in.doppler == 1) {
      RSComplex diff = {E - pole.MP_EA.r, -pole.MP_EA.i};
      W = rs_W(c_scale(diff, dopp));
    } else {
      RSComplex t1 = {0.0, 1.0}, t2 = {sqrt(E), 0.0}, E_c = {E, 0.0};
      RSComplex d = {pole.MP_EA.r - t2.r, pole.MP_EA.i - t2.i};
      W = c_div(c_div(t1, d), E_c);
    }
    sigT += c_mul(c_mul(pole.MP_RT, W), sigTfactors[pole.l_value]).r;
    sigA += c_mul(pole.MP_RA, W).r;
    sigF += c_mul(pole.MP_RF, W).r;
  }
  micro_xs[0] = sigT;
  micro_xs[1] = sigA;
  micro_xs[2] = sigF;
  micro_xs[3] = sigT - sigA;
}

RS_FN static void rs_macro_s(double *macro_xs, int mat, double E, RSInputs in,
                             const int *num_nucs, const int *mats,
                             int max_num_nucs, const double *concs,
                             const int *n_windows, const double *pseudo_K0RS,
                             const Window *windows, const Pole *poles,
                             int max_num_windows, int max_num_poles) {
  for (int k = 0; k < 4; k++)
    macro_xs[k] = 0.0;
  for (int j = 0; j < num_nucs[mat]; j++) {
    double micro_xs[4];
    int nuc = mats[mat * max_num_nucs + j];
    rs_micro_s(micro_xs, nuc, E, in, n_windows, pseudo_K0RS, windows, poles,
               max_num_windows, max_num_poles);
    for (int k = 0; k < 4; k++)
      macro_xs[k] += micro_xs[k] * concs[mat * max_num_nucs + j];
  }
}

/* One lookup: its four cross sections go to out, and it returns the index
 * (1-4) of the largest, RSBench's verification value. */
RS_FN static int rs_lookup_s(long i, RSInputs in, const double *dist,
                             const int *num_nucs, const int *mats,
                             int max_num_nucs, const double *concs,
                             const int *n_windows, const double *pseudo_K0RS,
                             const Window *windows, const Pole *poles,
                             int max_num_windows, int max_num_poles,
                             double *out) {
  unsigned long long seed = 0x9e3779b97f4a7c15ULL * (unsigned long long)(i + 1);
  seed ^= seed >> 29;
  double E = rs_lcg(&seed);
  int mat = rs_pick_mat(rs_lcg(&seed), dist);
  double macro_xs[4];
  rs_macro_s(macro_xs, mat, E, in, num_nucs, mats, max_num_nucs, concs,
             n_windows, pseudo_K0RS, windows, poles, max_num_windows,
             max_num_poles);
  double max = -1.0e300;
  int max_idx = 0;
  for (int k = 0; k < 4; k++) {
    out[i * 4 + k] = macro_xs[k];
    if (macro_xs[k] > max) {
      max = macro_xs[k];
      max_idx = k;
    }
  }
  return max_idx + 1;
}

/* The verification value of the host reference's cross sections. */
static unsigned long rs_vhash(const double *out, long lookups) {
  unsigned long v = 0;
  for (long i = 0; i < lookups; i++) {
    double max = -1.0e300;
    int max_idx = 0;
    for (int k = 0; k < 4; k++)
      if (out[i * 4 + k] > max) {
        max = out[i * 4 + k];
        max_idx = k;
      }
    v += max_idx + 1;
  }
  return v;
}

#endif
