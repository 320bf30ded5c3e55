/* snap_ui.cpp - a TestSNAP-style computation of the Wigner U functions of
 * every (atom, neighbour) pair (ompds benchmark; issue 36).  Written for ompds
 * from a description of the proxy application's shape; not TestSNAP's code.
 *
 * The shape that matters for the kernel: C++, the arrays are members of one
 * object (descriptors of sizes and a data pointer, first index fastest), the
 * object is mapped with `target enter data map(to : this[0:1])` and its
 * buffers one by one, and the kernels are member functions that reach every
 * array through `this`.  The main kernel is `target teams distribute parallel
 * for collapse(2) nowait` over (neighbour, atom); each pair calls member
 * functions with scalars (the U recursion over the layers j, reading and
 * writing the pair's slice of `ulist` in global memory, with integer / and %
 * of a flattened (ma, mb) loop), sqrt, tan and cos, and adds its slice to the
 * atom's total with two atomics per element.
 *
 * TWOJMAX (default 8), ATOMS (2000) and NBORS (26) set the problem.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench.h"

#ifndef TWOJMAX
#define TWOJMAX 8
#endif
#ifndef ATOMS
#define ATOMS 2000
#endif
#ifndef NBORS
#define NBORS 26
#endif

struct Cplx {
  double re, im;
};

/* Arrays of the object: sizes, then the data (first index fastest). */
template <typename T> struct Vec1 {
  unsigned n1, size;
  T *dptr;
  T &operator()(unsigned I) const { return dptr[I]; }
};
template <typename T> struct Vec2 {
  unsigned n1, n2, size;
  T *dptr;
  T &operator()(unsigned I, unsigned J) const { return dptr[I + n1 * J]; }
};
template <typename T> struct Vec3 {
  unsigned n1, n2, n3, size;
  T *dptr;
  T &operator()(unsigned I, unsigned J, unsigned K) const {
    return dptr[I + n1 * J + n1 * n2 * K];
  }
};

template <typename T> static void vecInit(Vec1<T> &V, unsigned N1) {
  V.n1 = N1;
  V.size = N1;
  V.dptr = (T *)calloc(V.size, sizeof(T));
}
template <typename T> static void vecInit(Vec2<T> &V, unsigned N1, unsigned N2) {
  V.n1 = N1;
  V.n2 = N2;
  V.size = N1 * N2;
  V.dptr = (T *)calloc(V.size, sizeof(T));
}
template <typename T>
static void vecInit(Vec3<T> &V, unsigned N1, unsigned N2, unsigned N3) {
  V.n1 = N1;
  V.n2 = N2;
  V.n3 = N3;
  V.size = N1 * N2 * N3;
  V.dptr = (T *)calloc(V.size, sizeof(T));
}

/* First element of layer J of a pair's U array. */
static inline int layerStart(int J) { return J * (J + 1) * (2 * J + 1) / 6; }

class Snap {
public:
  int TwoJMax, NumAtoms, NumNbors, IdxUMax, SwitchFlag;
  double RMin0, RFac0, WSelf;
  Vec3<double> Rij;     // (atom, neighbour, xyz)
  Vec2<double> Wj;      // (atom, neighbour)
  Vec2<double> RCutij;  // (atom, neighbour)
  Vec2<double> RootPQ;  // (p, q): sqrt(p / q)
  Vec1<int> Parity;     // (jju): +1 or -1
  Vec3<Cplx> UList;     // (atom, neighbour, jju)
  Vec2<Cplx> UListTot;  // (atom, jju)

  Snap(int TwoJ, int Atoms, int Nbors);
  void fill();
  void mapToDevice();
  void unmapFromDevice();
  void computeUi(int *Offloaded);

  double computeSfac(double R, double RCut) const;
  void computeUarray(int Atom, int Nbor, double AR, double AI, double BR,
                     double BI);
  void addUarrayTot(int Atom, int Nbor, double Sfac);
};

Snap::Snap(int TwoJ, int Atoms, int Nbors)
    : TwoJMax(TwoJ), NumAtoms(Atoms), NumNbors(Nbors),
      IdxUMax(layerStart(TwoJ + 1)), SwitchFlag(1), RMin0(0.0),
      RFac0(0.99363), WSelf(1.0) {
  vecInit(Rij, Atoms, Nbors, 3);
  vecInit(Wj, Atoms, Nbors);
  vecInit(RCutij, Atoms, Nbors);
  vecInit(RootPQ, TwoJ + 2, TwoJ + 2);
  vecInit(Parity, IdxUMax);
  vecInit(UList, Atoms, Nbors, IdxUMax);
  vecInit(UListTot, Atoms, IdxUMax);
}

/* Deterministic neighbour positions inside the cutoff. */
void Snap::fill() {
  unsigned long S = 12345;
  for (int A = 0; A < NumAtoms; A++)
    for (int N = 0; N < NumNbors; N++) {
      double V[3];
      for (int D = 0; D < 3; D++) {
        S = S * 6364136223846793005UL + 1442695040888963407UL;
        V[D] = ((double)(S >> 11) / 9007199254740992.0 - 0.5) * 2.4;
      }
      Rij(A, N, 0) = V[0];
      Rij(A, N, 1) = V[1];
      Rij(A, N, 2) = V[2] + 0.5;
      Wj(A, N) = 1.0;
      RCutij(A, N) = 4.9;
    }
  for (int P = 1; P <= TwoJMax; P++)
    for (int Q = 1; Q <= TwoJMax; Q++)
      RootPQ(P, Q) = sqrt((double)P / Q);
  for (int J = 0; J <= TwoJMax; J++) {
    int Jju = layerStart(J);
    int MbPar = 1;
    for (int Mb = 0; Mb <= J; Mb++) {
      int MaPar = MbPar;
      for (int Ma = 0; Ma <= J; Ma++) {
        Parity(Jju++) = MaPar;
        MaPar = -MaPar;
      }
      MbPar = -MbPar;
    }
  }
}

double Snap::computeSfac(double R, double RCut) const {
  if (SwitchFlag == 0)
    return 1.0;
  if (R <= RMin0)
    return 1.0;
  if (R > RCut)
    return 0.0;
  double RCutFac = M_PI / (RCut - RMin0);
  return 0.5 * (cos((R - RMin0) * RCutFac) + 1.0);
}

/* The U recursion of one pair: layer J from layer J - 1, the left half of
 * each layer's columns computed, the right half by symmetry. */
void Snap::computeUarray(int Atom, int Nbor, double AR, double AI, double BR,
                         double BI) {
  UList(Atom, Nbor, 0).re = 1.0;
  UList(Atom, Nbor, 0).im = 0.0;
  for (int J = 1; J <= TwoJMax; J++) {
    int Jju = layerStart(J);
    int Jjup = layerStart(J - 1);
    // Columns Mb < (J + 1) / 2, rows Ma < J, as one loop.
    for (int Xb = 0; Xb < ((J + 1) / 2) * J; Xb++) {
      int Ma = Xb % J;
      int Mb = Xb / J;
      int Up = Jjup + Mb * J + Ma;
      int Here = Jju + Mb * (J + 1) + Ma;
      Cplx U = UList(Atom, Nbor, Up);
      if (Ma == 0) {
        UList(Atom, Nbor, Here).re = 0.0;
        UList(Atom, Nbor, Here).im = 0.0;
      }
      double Root = RootPQ(J - Ma, J - Mb);
      UList(Atom, Nbor, Here).re += Root * (AR * U.re + AI * U.im);
      UList(Atom, Nbor, Here).im += Root * (AR * U.im - AI * U.re);
      Root = RootPQ(Ma + 1, J - Mb);
      UList(Atom, Nbor, Here + 1).re = -Root * (BR * U.re + BI * U.im);
      UList(Atom, Nbor, Here + 1).im = -Root * (BR * U.im - BI * U.re);
    }
    // The middle column of an even layer.
    if (J % 2 == 0) {
      int Mb = J / 2;
      int Here = Jju + Mb * (J + 1);
      UList(Atom, Nbor, Here).re = 0.0;
      UList(Atom, Nbor, Here).im = 0.0;
      for (int Ma = 0; Ma < J; Ma++) {
        int Up = Jjup + Mb * J - J + Ma; // mirror of column J - Mb of J - 1
        Cplx U = UList(Atom, Nbor, Up);
        double Sign = Parity(Up);
        double Root = RootPQ(J - Ma, J - Mb);
        UList(Atom, Nbor, Here + Ma).re += Sign * Root * (AR * U.re - AI * U.im);
        UList(Atom, Nbor, Here + Ma).im += Sign * Root * (AR * U.im + AI * U.re);
        Root = RootPQ(Ma + 1, J - Mb);
        UList(Atom, Nbor, Here + Ma + 1).re = -Root * (BR * U.re - BI * U.im);
        UList(Atom, Nbor, Here + Ma + 1).im = -Root * (BR * U.im + BI * U.re);
      }
    }
    // The right half by symmetry: U(J - ma, J - mb) = +-conj(U(ma, mb)).
    int From = Jju;
    int To = Jju + (J + 1) * (J + 1) - 1;
    for (int Mb = 0; 2 * Mb < J; Mb++)
      for (int Ma = 0; Ma <= J; Ma++) {
        double Sign = Parity(From);
        UList(Atom, Nbor, To).re = Sign * UList(Atom, Nbor, From).re;
        UList(Atom, Nbor, To).im = -Sign * UList(Atom, Nbor, From).im;
        From++;
        To--;
      }
  }
}

void Snap::addUarrayTot(int Atom, int Nbor, double Sfac) {
  for (int J = 0; J <= TwoJMax; J++) {
    int Jju = layerStart(J);
    for (int K = 0; K < (J + 1) * (J + 1); K++) {
      double Re = Sfac * UList(Atom, Nbor, Jju + K).re;
      double Im = Sfac * UList(Atom, Nbor, Jju + K).im;
#pragma omp atomic
      UListTot(Atom, Jju + K).re += Re;
#pragma omp atomic
      UListTot(Atom, Jju + K).im += Im;
    }
  }
}

void Snap::mapToDevice() {
#pragma omp target enter data map(to : this[0 : 1])
#pragma omp target enter data map(to : this->Rij.dptr[0 : this->Rij.size])
#pragma omp target enter data map(to : this->Wj.dptr[0 : this->Wj.size])
#pragma omp target enter data map(to : this->RCutij.dptr[0 : this->RCutij.size])
#pragma omp target enter data map(to : this->RootPQ.dptr[0 : this->RootPQ.size])
#pragma omp target enter data map(to : this->Parity.dptr[0 : this->Parity.size])
#pragma omp target enter data map(alloc : this->UList.dptr[0 : this->UList.size])
#pragma omp target enter data map(alloc                                        \
                                  : this->UListTot.dptr[0 : this->UListTot.size])
}

void Snap::unmapFromDevice() {
#pragma omp target exit data map(from                                          \
                                 : this->UListTot.dptr[0 : this->UListTot.size])
#pragma omp target exit data map(release : this->UList.dptr[0 : this->UList.size])
#pragma omp target exit data map(release : this->Parity.dptr[0 : this->Parity.size])
#pragma omp target exit data map(release : this->RootPQ.dptr[0 : this->RootPQ.size])
#pragma omp target exit data map(release : this->RCutij.dptr[0 : this->RCutij.size])
#pragma omp target exit data map(release : this->Wj.dptr[0 : this->Wj.size])
#pragma omp target exit data map(release : this->Rij.dptr[0 : this->Rij.size])
#pragma omp target exit data map(release : this[0 : 1])
}

/* Three kernels, as the proxy application: zero the totals, add the self
 * term, then the pairs (the kernel the tables report).  *Offloaded tells
 * whether the pairs ran on the device. */
void Snap::computeUi(int *Offloaded) {
#pragma omp target teams distribute parallel for collapse(2)
  for (int Jju = 0; Jju < IdxUMax; Jju++)
    for (int Atom = 0; Atom < NumAtoms; Atom++) {
      UListTot(Atom, Jju).re = 0.0;
      UListTot(Atom, Jju).im = 0.0;
    }

#pragma omp target teams distribute parallel for
  for (int Atom = 0; Atom < NumAtoms; Atom++)
    for (int J = 0; J <= TwoJMax; J++) {
      int Jju = layerStart(J);
      for (int Ma = 0; Ma <= J; Ma++) {
        UListTot(Atom, Jju).re = WSelf;
        Jju += J + 2;
      }
    }

#pragma omp target teams distribute parallel for collapse(2) nowait           \
    map(tofrom : Offloaded[0 : 1])
  for (int Nbor = 0; Nbor < NumNbors; Nbor++)
    for (int Atom = 0; Atom < NumAtoms; Atom++) {
      double X = Rij(Atom, Nbor, 0);
      double Y = Rij(Atom, Nbor, 1);
      double Z = Rij(Atom, Nbor, 2);
      double R = sqrt(X * X + Y * Y + Z * Z);
      double RCut = RCutij(Atom, Nbor);
      double Theta0 = (R - RMin0) * RFac0 * M_PI / (RCut - RMin0);
      double Z0 = R / tan(Theta0);
      double R0Inv = 1.0 / sqrt(R * R + Z0 * Z0);
      computeUarray(Atom, Nbor, R0Inv * Z0, -R0Inv * Z, R0Inv * Y, -R0Inv * X);
      double Sfac = computeSfac(R, RCut) * Wj(Atom, Nbor);
      addUarrayTot(Atom, Nbor, Sfac);
      if (Atom == 0 && Nbor == 0)
        *Offloaded = !omp_is_initial_device();
    }
#pragma omp taskwait
}

/* The same totals on the host, for the check. */
static double hostTotals(Snap &S, double *Tot) {
  double Sum = 0.0;
  for (int I = 0; I < S.NumAtoms * S.IdxUMax; I++)
    Tot[I] = 0.0;
  for (int Atom = 0; Atom < S.NumAtoms; Atom++)
    for (int J = 0; J <= S.TwoJMax; J++) {
      int Jju = layerStart(J);
      for (int Ma = 0; Ma <= J; Ma++) {
        Tot[Atom + S.NumAtoms * Jju] = S.WSelf;
        Jju += J + 2;
      }
    }
  for (int Nbor = 0; Nbor < S.NumNbors; Nbor++)
    for (int Atom = 0; Atom < S.NumAtoms; Atom++) {
      double X = S.Rij(Atom, Nbor, 0), Y = S.Rij(Atom, Nbor, 1),
             Z = S.Rij(Atom, Nbor, 2);
      double R = sqrt(X * X + Y * Y + Z * Z);
      double RCut = S.RCutij(Atom, Nbor);
      double Theta0 = (R - S.RMin0) * S.RFac0 * M_PI / (RCut - S.RMin0);
      double Z0 = R / tan(Theta0);
      double R0Inv = 1.0 / sqrt(R * R + Z0 * Z0);
      S.computeUarray(Atom, Nbor, R0Inv * Z0, -R0Inv * Z, R0Inv * Y,
                      -R0Inv * X);
      double Sfac = S.computeSfac(R, RCut) * S.Wj(Atom, Nbor);
      for (int K = 0; K < S.IdxUMax; K++)
        Tot[Atom + S.NumAtoms * K] += Sfac * S.UList(Atom, Nbor, K).re;
    }
  for (int I = 0; I < S.NumAtoms * S.IdxUMax; I++)
    Sum += Tot[I];
  return Sum;
}

int main(void) {
  Snap S(TWOJMAX, ATOMS, NBORS);
  if (!S.Rij.dptr || !S.UList.dptr || !S.UListTot.dptr) {
    printf("snap_ui: out of memory: FAIL\n");
    return EXIT_FAILURE;
  }
  S.fill();
  S.mapToDevice();
  int Offloaded = 0;
  S.computeUi(&Offloaded);
  S.unmapFromDevice();

  double *Tot = (double *)malloc(sizeof(double) * S.NumAtoms * S.IdxUMax);
  double Dev = 0.0;
  for (int I = 0; I < S.NumAtoms * S.IdxUMax; I++)
    Dev += S.UListTot.dptr[I].re;
  double Ref = hostTotals(S, Tot);
  int Errors = !(fabs(Dev - Ref) <= 1e-9 * (fabs(Ref) + 1.0)) || Ref == 0.0;
  printf("snap_ui TWOJMAX=%d ATOMS=%d NBORS=%d sum %.12g (host %.12g) ran on "
         "%s: %s\n",
         TWOJMAX, ATOMS, NBORS, Dev, Ref,
         Offloaded ? "the device" : "the host", Errors ? "FAIL" : "PASS");

  int Reps = bench_reps();
  double *Times = bench_alloc(Reps);
  if (Times) {
    S.mapToDevice();
    for (int R = 0; R <= Reps; R++) {
      double T0 = bench_now();
      S.computeUi(&Offloaded);
      if (R > 0)
        Times[R - 1] = bench_now() - T0;
    }
    S.unmapFromDevice();
    bench_report("main", Times, Reps, NULL);
    free(Times);
  }
  free(Tot);
  return Errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
