#!/usr/bin/env bash
# `#pragma omp critical` in device code links on NVPTX (the 0.3.x line's
# patch OpenMP-DeviceRTL-Define-the-critical-region-lock-on-NVPTX.patch, in
# upstream from LLVM 20; stock 19.1.7 fails with "Undefined reference to
# '_ZN4impl15setCriticalLockEP10omp_lock_t'"). Kept as a regression test:
#  - the NVPTX DeviceRTL bitcode has no undefined impl::setCriticalLock;
#  - a program with a critical region in a parallel region links for sm_90
#    and gfx90a at -O0 and -O2, its linked PTX passes ptxas, and it prints
#    PASS on the host fallback;
#  - a program without one links at -O0 with device debug information (-g:
#    nvlink then keeps the runtime's unreferenced __kmpc_critical).
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$TC/bin/llvm-nm" "$(devicertl_bc nvptx)" >"$work/nm"
grep -q " T __kmpc_critical\$" "$work/nm" || fail "the NVPTX DeviceRTL has no __kmpc_critical"
! grep "CriticalLock" "$work/nm" | grep " U " >/dev/null ||
  fail "the NVPTX DeviceRTL references a critical region lock it does not define"

cat >"$work/crit.c" <<'C'
#include <stdio.h>
int main(void) {
  int n = 0, teams = 0;
#pragma omp target teams num_teams(4) thread_limit(64) map(tofrom : n, teams)
  {
    if (omp_get_team_num() == 0)
      teams = omp_get_num_teams();
#pragma omp parallel
    {
#pragma omp critical
      n += 1;
    }
  }
  /* Every thread of every team entered the critical region once. */
  int ok = n >= teams && teams >= 1;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
C
sed -i '1i #include <omp.h>' "$work/crit.c"
for arch in sm_90 gfx90a; do
  for opt in -O0 -O2; do
    d=$work/$arch$opt
    mkdir -p "$d"
    (cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=$arch $opt \
      ../crit.c -o prog -save-temps) >"$d/log" 2>&1 || { cat "$d/log" >&2; fail "critical region: $arch $opt does not link"; }
    (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep -x PASS >/dev/null || fail "critical region: $arch $opt does not print PASS on the host"
    [ $arch != sm_90 ] || keep_for_gpu "$d" "critical$opt"
    if [ $arch = sm_90 ] && [ -n "$PTXAS" ]; then
      "$PTXAS" -arch=sm_90 -c "$(lto_ptx "$d")" -o "$d/p.o" ||
        fail "critical region: ptxas rejects the $opt PTX"
    fi
  done
done

cat >"$work/plain.c" <<'C'
#include <stdio.h>
int main(void) {
  int a[64] = {0};
#pragma omp target teams num_teams(1) map(tofrom : a)
#pragma omp parallel num_threads(64)
  a[omp_get_thread_num()] = 1;
  printf("PASS\n");
  return 0;
}
C
sed -i '1i #include <omp.h>' "$work/plain.c"
(cd "$work" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=sm_90 -O0 -g \
  plain.c -o plain) >"$work/glog" 2>&1 || { cat "$work/glog" >&2; fail "sm_90 -O0 -g does not link"; }
echo "critical regions link on NVPTX and AMDGPU; -O0 -g links on NVPTX"
