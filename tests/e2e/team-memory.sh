#!/usr/bin/env bash
# Team memory (`#pragma omp allocate(x) allocator(omp_pteam_mem_alloc)`) on
# file-scope variables, statics and locals of device functions and of a
# target region (issue 5 item 2; patch clang-OpenMP-Emit-variables-in-team-
# memory-without-an-initializer.patch; stock 19.1.7 does not link for AMDGPU:
# "unsupported initializer for address space"):
#  - links for sm_90 and gfx90a at -O0 and -O2 with plain `clang -fopenmp`;
#  - sm_90: the variables are .shared in the linked PTX, which ptxas accepts;
#  - gfx90a: the kernel has LDS for them (group_segment_fixed_size > 0);
#  - the binaries print PASS on the host fallback.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/team.c" <<'C'
#include <omp.h>
#include <stdio.h>
int team_total;
#pragma omp allocate(team_total) allocator(omp_pteam_mem_alloc)
#pragma omp declare target(team_total)

#pragma omp declare target
int add_team(int v) {
  static int calls;
#pragma omp allocate(calls) allocator(omp_pteam_mem_alloc)
  int scratch[4];
#pragma omp allocate(scratch) allocator(omp_pteam_mem_alloc)
  scratch[0] = v;
  calls = 1;
  team_total += scratch[0];
  return calls;
}
#pragma omp end declare target

int main(void) {
  int out[4] = {0, 0, 0, 0};
  int on_device = 0;
#pragma omp target teams num_teams(4) map(tofrom : out, on_device)
  {
    if (omp_get_team_num() == 0)
      on_device = !omp_is_initial_device();
    int seen;
#pragma omp allocate(seen) allocator(omp_pteam_mem_alloc)
    team_total = 0;
    seen = add_team(omp_get_team_num() + 1);
    if (omp_get_team_num() < 4)
      out[omp_get_team_num()] = seen ? team_total : -1;
  }
  /* On a GPU each team has its own team_total. On the host fallback teams
   * may run one after the other, fewer, or at the same time in host threads
   * that share team_total (omp_pteam_mem_alloc is a hint there): then a team
   * may see the others' additions too, at most 1 + 2 + 3 + 4. */
  int ok = 1;
  for (int t = 0; t < 4; t++)
    ok &= out[t] == 0 || out[t] == t + 1 ||
          (!on_device && out[t] > 0 && out[t] <= 10);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
C
for arch in sm_90 gfx90a; do
  for opt in -O0 -O2; do
    d=$work/$arch$opt
    mkdir -p "$d"
    (cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=$arch $opt \
      ../team.c -o prog -save-temps) >"$d/log" 2>&1 ||
      { cat "$d/log" >&2; fail "team memory: $arch $opt does not link"; }
    (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep -x PASS >/dev/null ||
      fail "team memory: $arch $opt does not print PASS on the host"
    if [ $arch = sm_90 ]; then
      keep_for_gpu "$d" "team-memory$opt"
      ptx=$(lto_ptx "$d")
      grep -q "\.shared .*team_total" "$ptx" || fail "team memory: sm_90 $opt: team_total is not .shared"
      [ -z "$PTXAS" ] || "$PTXAS" -arch=sm_90 -c "$ptx" -o "$d/p.o" || fail "team memory: ptxas rejects the $opt PTX"
    else
      lds=$(amdgpu_lds "$d" '_main_l[0-9]+$')
      [ "${lds:-0}" -gt 0 ] || fail "team memory: gfx90a $opt: the kernel has no LDS"
    fi
  done
done
echo "team memory: globals, statics and locals link for sm_90 and gfx90a"
