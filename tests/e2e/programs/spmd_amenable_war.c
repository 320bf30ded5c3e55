// A write of the sequential part that every thread makes in a kernel that
// openmp-opt runs in SPMD mode must wait until the other threads are done with
// the memory it overwrites.
//
// The sequential part of a generic-mode target region declares three arrays
// in disjoint scopes, each read by a parallel region: their depot objects
// share bytes. After the first parallel region the sequential part reads the
// first array (in SPMD mode every thread does); the second and third arrays
// are then filled by fill(), which the user declares ompx_spmd_amenable, so
// every thread calls it too. Without a barrier before the call, a fast
// thread's fill overwrites the bytes of the first array that a slower thread
// has yet to read: a shared-memory race (compute-sanitizer's racecheck) and,
// when it strikes, a wrong result. fill is optnone and called twice, so that
// it keeps its pointer argument and the arrays stay the kernel's own.
#include <omp.h>
#include <stdio.h>

#ifndef TEAMS
#define TEAMS 64
#endif
#define THREADS 128

#pragma omp begin declare target
#pragma omp begin assumes ext_spmd_amenable
__attribute__((noinline, optnone)) void fill(int *B, int N, int V) {
  // Every thread stores the same values: harmless among the callers.
  for (int I = 0; I < N; ++I)
    B[I] = V + I;
}
#pragma omp end assumes
#pragma omp end declare target

int main(void) {
  static int First[TEAMS * THREADS], Second[TEAMS * THREADS],
      Third[TEAMS * THREADS];
  int Threads[TEAMS], OnDevice = 0;
  for (int I = 0; I < TEAMS * THREADS; ++I)
    First[I] = Second[I] = Third[I] = -1;
  for (int I = 0; I < TEAMS; ++I)
    Threads[I] = 0;
#pragma omp target teams num_teams(TEAMS) thread_limit(THREADS)                 \
    map(tofrom : First, Second, Third, Threads, OnDevice)
  {
    int Team = omp_get_team_num();
    if (Team == 0)
      OnDevice = !omp_is_initial_device();
    int Seen;
    {
      int A[THREADS];
      for (int I = 0; I < THREADS; ++I)
        A[I] = 3 * I + Team;
#pragma omp parallel num_threads(THREADS)
      {
        int T = omp_get_thread_num();
        if (T == 0)
          Threads[Team] = omp_get_num_threads();
        First[Team * THREADS + T] = A[T];
      }
      Seen = A[(Team * 7) % THREADS];
    }
    {
      int B[THREADS];
      fill(B, THREADS, 100000 + Team);
#pragma omp parallel num_threads(THREADS) firstprivate(Seen)
      {
        int T = omp_get_thread_num();
        Second[Team * THREADS + T] = B[T] + Seen;
      }
    }
    {
      int C[THREADS];
      fill(C, THREADS, 200000 + Team);
#pragma omp parallel num_threads(THREADS)
      {
        int T = omp_get_thread_num();
        Third[Team * THREADS + T] = C[T];
      }
    }
  }
  // The host fallback may run fewer teams and threads: check those that ran;
  // on the device, every team must have run with all its threads.
  int Bad = 0;
  for (int Team = 0; Team < TEAMS; ++Team) {
    if (OnDevice && Threads[Team] != THREADS)
      Bad += printf("team %d: %d threads instead of %d\n", Team, Threads[Team],
                    THREADS) > 0;
    int Seen = 3 * ((Team * 7) % THREADS) + Team;
    for (int T = 0; T < Threads[Team]; ++T) {
      int I = Team * THREADS + T;
      if (First[I] != 3 * T + Team || Second[I] != 100000 + Team + T + Seen ||
          Third[I] != 200000 + Team + T) {
        if (Bad++ < 5)
          printf("team %d thread %d: first %d (expected %d), second %d "
                 "(expected %d), third %d (expected %d)\n",
                 Team, T, First[I], 3 * T + Team, Second[I],
                 100000 + Team + T + Seen, Third[I], 200000 + Team + T);
      }
    }
  }
  printf("spmd_amenable_war: ran on %s: %s\n", OnDevice ? "device" : "host",
         Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
