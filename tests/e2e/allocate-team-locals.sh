#!/usr/bin/env bash
# Local variables that an allocate directive gives an allocator on the device
# (issue 39 item 2; patch
# clang-OpenMP-Give-allocate-directive-locals-on-the-GPU-a-variable-per-act.patch).
# Each thread that executes a declaration gets its own variable; only where
# one thread of each team executes it (the sequential part of a generic-mode
# target region) is a team-memory variable one per team, a depot object.
# Before, Clang (stock 22.1.8 and upstream) made every such local one static
# variable, shared by all the threads of a team (omp_pteam_mem_alloc) or of
# all teams (the other allocators): the parallel region and the loop below
# then read other threads' values on a GPU.
#  - links for sm_90 and gfx90a at -O0 and -O2; ptxas accepts the sm_90 PTX;
#  - sm_90: no per-thread local is a static .shared or .global variable (stock names
#    them mine, local_a and scratch in the PTX);
#  - prints PASS on the host fallback; kept for the GPU bundle.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/locals.c" <<'C'
#include <omp.h>
#include <stdio.h>

#define TEAMS 4
#define THREADS 64
#define N 4096

#pragma omp declare target
/* A device function: every thread that calls it gets its own scratch. */
static int twice(int v) {
  int scratch[2];
#pragma omp allocate(scratch) allocator(omp_cgroup_mem_alloc)
  scratch[0] = v;
#pragma omp barrier
  scratch[1] = scratch[0] + v;
  return scratch[1];
}
#pragma omp end declare target

int main(void) {
  static int out[TEAMS * THREADS], a[N];
  int team_ok[TEAMS] = {1, 1, 1, 1}, on_device = 0; /* teams that do not run stay 1 */
  for (int i = 0; i < N; i++)
    a[i] = i;

  /* Generic mode: `team` is one variable per team (the sequential part),
   * `mine` and `heap` one per thread of the parallel region. */
#pragma omp target teams num_teams(TEAMS) thread_limit(THREADS)               \
    map(tofrom : out, team_ok, on_device)
  {
    int t = omp_get_team_num();
    if (t == 0)
      on_device = !omp_is_initial_device();
    int team = 1000 * (t + 1);
#pragma omp allocate(team) allocator(omp_pteam_mem_alloc)
    int ok = 1;
#pragma omp parallel num_threads(THREADS) reduction(&& : ok)
    {
      int id = omp_get_thread_num();
      int mine = id;
#pragma omp allocate(mine) allocator(omp_pteam_mem_alloc)
      int heap = 2 * id;
#pragma omp allocate(heap) allocator(omp_default_mem_alloc)
      ok = ok && team == 1000 * (t + 1);
#pragma omp barrier
      if (t < TEAMS)
        out[t * THREADS + id] = mine + heap + twice(id);
    }
    if (t < TEAMS)
      team_ok[t] = ok;
  }

  /* SPMD mode: a team-memory scratch array per iteration, as in
   * clang/test/OpenMP/target_team_variable_codegen.cpp. */
#pragma omp target teams distribute parallel for map(tofrom : a)
  for (int i = 0; i < N; i++) {
    int local_a[10];
#pragma omp allocate(local_a) allocator(omp_pteam_mem_alloc)
    for (int j = 0; j < 10; j++)
      local_a[j] = 3 * i + j;
    a[i] = local_a[0] + local_a[9];
  }

  int bad = 0;
  for (int t = 0; t < TEAMS; t++)
    bad += !team_ok[t];
  for (int i = 0; i < TEAMS * THREADS; i++) {
    /* On the host fallback a team may have fewer threads: 0 stays 0. */
    int id = i % THREADS;
    bad += out[i] != 0 && out[i] != 5 * id;
  }
  for (int i = 0; i < N; i++)
    bad += a[i] != 6 * i + 9;
  printf("allocate-directive locals on the %s: %d bad: %s\n",
         on_device ? "device" : "host", bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}
C
build_and_run_on_host "$work" locals.c "allocate-directive locals" allocate-team-locals
for opt in -O0 -O2; do
  ptx=$(lto_ptx "$work/sm_90$opt")
  if grep -qE '\.(shared|global) .*[^_a-zA-Z0-9](mine|heap|local_a|scratch)[^_a-zA-Z0-9]' "$ptx"; then
    fail "allocate-directive locals: sm_90 $opt: a per-thread local is a static .shared or .global variable"
  fi
done
echo "allocate-directive locals: one variable per thread, one per team in the sequential part; sm_90 and gfx90a link and pass on the host"
