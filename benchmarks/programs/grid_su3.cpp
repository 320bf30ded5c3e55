/* grid_su3.cpp - a Grid/GridMini-style SU(3) multiply over a four-dimensional
 * lattice (ompds benchmark; issue 36).  Written for ompds from a description
 * of the proxy application's shape; not Grid's code.
 *
 * The shape that matters for the kernels: C++ tensor templates (a site is a
 * 3x3 matrix of complex numbers, each a 16-byte aligned pair of doubles,
 * wrapped in two scalar levels), a matrix product through a local array of
 * the result, lattice views (a grid pointer, a checkerboard, the data pointer
 * and its length) that the kernels reach through the mapped view objects,
 * and expression objects holding views.  The data lives in device memory
 * from omp_target_alloc, as in the application's device-allocation build.
 *
 * FORM selects the kernel (one per build), as the application writes them:
 *   0  the benchmark's own loop: target teams distribute parallel for,
 *      z[s] = x[s] * y[s] over 64-bit sites;
 *   1  a binary expression assigned to a lattice: target teams distribute
 *      num_teams(sites / 64) thread_limit(64) over `int` blocks, a nested
 *      parallel for over the block's 64 sites (generic mode before
 *      SPMD-ization);
 *   2  a unary expression (the adjoint) assigned over `int` sites, the
 *      bound read into a scalar first;
 *   3  a nested binary expression (x * y + w) through the application's loop
 *      macro (a pragma in a macro, unsigned 64-bit sites).
 * Expressions read their lattice operands by reference, site elements where
 * the arithmetic needs them; a result is stored as a copy of the whole site.
 * LSIZE (default 16) is the lattice's extent in each dimension.
 */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bench.h"

#ifndef FORM
#define FORM 0
#endif
#ifndef LSIZE
#define LSIZE 16
#endif

#pragma omp declare target
struct VComplex {
  alignas(16) double V[2];
};

inline VComplex operator*(const VComplex &A, const VComplex &B) {
  VComplex R;
  R.V[0] = A.V[0] * B.V[0] - A.V[1] * B.V[1];
  R.V[1] = A.V[0] * B.V[1] + A.V[1] * B.V[0];
  return R;
}

inline VComplex operator+(const VComplex &A, const VComplex &B) {
  VComplex R;
  R.V[0] = A.V[0] + B.V[0];
  R.V[1] = A.V[1] + B.V[1];
  return R;
}

inline VComplex conjugate(const VComplex &A) {
  VComplex R;
  R.V[0] = A.V[0];
  R.V[1] = -A.V[1];
  return R;
}

template <typename T> struct TScalar {
  T Inner;
};

template <typename T, int N> struct TMatrix {
  T Inner[N][N];
};

/* The product through a local array of the result, then copied out: all
 * first products, then row by row the other two terms of each element. */
template <typename T, int N>
inline void mult(TMatrix<T, N> *__restrict__ Ret,
                 const TMatrix<T, N> *__restrict__ L,
                 const TMatrix<T, N> *__restrict__ R) {
  T Res[N * N];
  for (int I = 0; I < N; I++)
    for (int J = 0; J < N; J++)
      Res[I * N + J] = L->Inner[I][0] * R->Inner[0][J];
  for (int I = 0; I < N; I++)
    for (int K = 1; K < N; K++)
      for (int J = 0; J < N; J++)
        Res[I * N + J] = L->Inner[I][K] * R->Inner[K][J] + Res[I * N + J];
  for (int I = 0; I < N; I++)
    for (int J = 0; J < N; J++)
      Ret->Inner[I][J] = Res[I * N + J];
}

template <typename T, int N>
inline TMatrix<T, N> operator*(const TMatrix<T, N> &L, const TMatrix<T, N> &R) {
  TMatrix<T, N> Ret;
  mult(&Ret, &L, &R);
  return Ret;
}

template <typename T, int N>
inline TMatrix<T, N> operator+(const TMatrix<T, N> &L, const TMatrix<T, N> &R) {
  TMatrix<T, N> Ret;
  for (int I = 0; I < N; I++)
    for (int J = 0; J < N; J++)
      Ret.Inner[I][J] = L.Inner[I][J] + R.Inner[I][J];
  return Ret;
}

template <typename T, int N> inline TMatrix<T, N> adj(const TMatrix<T, N> &A) {
  TMatrix<T, N> Ret;
  for (int I = 0; I < N; I++)
    for (int J = 0; J < N; J++)
      Ret.Inner[I][J] = conjugate(A.Inner[J][I]);
  return Ret;
}

template <typename T>
inline TScalar<T> operator*(const TScalar<T> &L, const TScalar<T> &R) {
  TScalar<T> Ret;
  Ret.Inner = L.Inner * R.Inner;
  return Ret;
}

template <typename T>
inline TScalar<T> operator+(const TScalar<T> &L, const TScalar<T> &R) {
  TScalar<T> Ret;
  Ret.Inner = L.Inner + R.Inner;
  return Ret;
}

template <typename T> inline TScalar<T> adj(const TScalar<T> &A) {
  TScalar<T> Ret;
  Ret.Inner = adj(A.Inner);
  return Ret;
}

typedef TScalar<TScalar<TMatrix<VComplex, 3>>> Site;

struct GridBase {
  int Dims[4];
  uint64_t Volume;
};

/* What a kernel sees of a lattice. */
template <typename Obj> struct LatticeView {
  GridBase *Grid;
  int Checkerboard;
  Obj *OData;
  uint64_t ODataSize;
  Obj &operator[](uint64_t I) const { return OData[I]; }
  uint64_t size() const { return ODataSize; }
};

/* Expression objects: the operation and its operands' views. */
struct MulOp {
  template <typename A> A operator()(const A &L, const A &R) const {
    return L * R;
  }
};
struct AdjOp {
  template <typename A> A operator()(const A &X) const { return adj(X); }
};
struct AddOp {
  template <typename A> A operator()(const A &L, const A &R) const {
    return L + R;
  }
};

template <typename Op, typename L, typename R> struct BinaryExpr {
  Op Operation;
  L Lhs;
  R Rhs;
};
template <typename Op, typename X> struct UnaryExpr {
  Op Operation;
  X Arg;
};
/* A lattice operand is read where the operation reads it, not copied. */
template <typename Obj>
inline const Obj &evalAt(uint64_t I, const LatticeView<Obj> &V) {
  return V[I];
}
template <typename Op, typename L, typename R>
inline Site evalAt(uint64_t I, const BinaryExpr<Op, L, R> &E) {
  return E.Operation(evalAt(I, E.Lhs), evalAt(I, E.Rhs));
}
template <typename Op, typename X>
inline Site evalAt(uint64_t I, const UnaryExpr<Op, X> &E) {
  return E.Operation(evalAt(I, E.Arg));
}
/* A plain store of a whole site. */
inline void vstream(Site &Out, const Site &In) { Out = In; }
#pragma omp end declare target

/* The application's loop macro: a pragma inside a macro. */
#define accelerator_for(Iter, Num, ...)                                        \
  _Pragma("omp target teams distribute parallel for")                         \
  for (uint64_t Iter = 0; Iter < (uint64_t)(Num); Iter++) {                    \
    __VA_ARGS__;                                                               \
  }

typedef LatticeView<Site> View;

extern "C" void run_kernel(View Z, View X, View Y, View W) {
  (void)W;
#if FORM == 0
  int64_t Vol = (int64_t)Z.size();
#pragma omp target teams distribute parallel for
  for (int64_t S = 0; S < Vol; S++)
    Z[S] = X[S] * Y[S];
#elif FORM == 1
  BinaryExpr<MulOp, View, View> Expr = {MulOp(), X, Y};
  int NThreads = 64;
  int NBlocks = (int)Z.size() / NThreads;
#pragma omp target teams distribute num_teams(NBlocks) thread_limit(NThreads)
  for (int SS = 0; SS < NBlocks; SS++) {
#pragma omp parallel for
    for (int TT = 0; TT < NThreads; TT++) {
      Site Tmp = evalAt(SS * NThreads + TT, Expr);
      vstream(Z[SS * NThreads + TT], Tmp);
    }
  }
#elif FORM == 2
  UnaryExpr<AdjOp, View> Expr = {AdjOp(), X};
  int SSSize = (int)Z.size();
#pragma omp target teams distribute parallel for
  for (int SS = 0; SS < SSSize; SS++) {
    Site Tmp = evalAt(SS, Expr);
    vstream(Z[SS], Tmp);
  }
#else
  BinaryExpr<AddOp, BinaryExpr<MulOp, View, View>, View> Expr = {
      AddOp(), {MulOp(), X, Y}, W};
  accelerator_for(SS, Z.size(), {
    Site Tmp = evalAt(SS, Expr);
    vstream(Z[SS], Tmp);
  });
#endif
}

/* The reference on the host for site S. */
static Site expected(const Site *X, const Site *Y, const Site *W, uint64_t S) {
#if FORM == 0 || FORM == 1
  (void)W;
  return X[S] * Y[S];
#elif FORM == 2
  (void)Y;
  (void)W;
  return adj(X[S]);
#else
  return X[S] * Y[S] + W[S];
#endif
}

static void fill(Site *F, uint64_t N, unsigned long Seed) {
  double *D = (double *)F;
  for (uint64_t I = 0; I < N * 18; I++) {
    Seed = Seed * 6364136223846793005UL + 1442695040888963407UL;
    D[I] = (double)(Seed >> 11) / 9007199254740992.0 - 0.5;
  }
}

int main(void) {
  GridBase HostGrid = {{LSIZE, LSIZE, LSIZE, LSIZE},
                       (uint64_t)LSIZE * LSIZE * LSIZE * LSIZE};
  uint64_t N = HostGrid.Volume;
  size_t Bytes = sizeof(Site) * N;
  int Dev = omp_get_default_device();
  int Host = omp_get_initial_device();
  Site *H[4];
  Site *D[4];
  for (int F = 0; F < 4; F++) {
    H[F] = (Site *)malloc(Bytes);
    D[F] = (Site *)omp_target_alloc(Bytes, Dev);
    if (!H[F] || !D[F]) {
      printf("grid_su3: out of memory: FAIL\n");
      return EXIT_FAILURE;
    }
    fill(H[F], N, 1000 + F);
    omp_target_memcpy(D[F], H[F], Bytes, 0, 0, Dev, Host);
  }
  View V[4];
  for (int F = 0; F < 4; F++) {
    V[F].Grid = nullptr;
    V[F].Checkerboard = 0;
    V[F].OData = D[F];
    V[F].ODataSize = N;
  }

  int OnHost = -1;
#pragma omp target map(from : OnHost)
  OnHost = omp_is_initial_device();
  run_kernel(V[0], V[1], V[2], V[3]);
  omp_target_memcpy(H[0], D[0], Bytes, 0, 0, Host, Dev);
  long Errors = 0;
  for (uint64_t S = 0; S < N; S++) {
    Site E = expected(H[1], H[2], H[3], S);
    const double *Got = (const double *)&H[0][S];
    const double *Want = (const double *)&E;
    for (int K = 0; K < 18; K++)
      if (!(fabs(Got[K] - Want[K]) <= 1e-12 * (1.0 + fabs(Want[K]))))
        Errors++;
  }
  printf("grid_su3 FORM=%d LSIZE=%d sites %lu ran on %s: %s\n", FORM, LSIZE,
         (unsigned long)N, bench_where(OnHost),
         Errors ? "FAIL" : "PASS");

  int Reps = bench_reps();
  double *Times = bench_alloc(Reps);
  if (Times) {
    for (int R = 0; R <= Reps; R++) {
      double T0 = bench_now();
      run_kernel(V[0], V[1], V[2], V[3]);
      if (R > 0)
        Times[R - 1] = bench_now() - T0;
    }
    bench_report("main", Times, Reps, NULL);
    free(Times);
  }
  for (int F = 0; F < 4; F++) {
    omp_target_free(D[F], Dev);
    free(H[F]);
  }
  return Errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
