#!/usr/bin/env bash
# The device link deduces the device runtime's no-nested-parallelism and
# no-thread-state assumptions from the whole program (patch
# OpenMP-Deduce-the-device-runtime-s-nesting-and-thread-state-assumptions.patch;
# issue 6, "no device malloc reachable in a kernel whose allocations all fit
# their reservation"). Built with `clang -O0` (the user's code is optnone, so
# only these flags remove the runtime's serialized path):
#  - the 2017 paper's Fig. 5 (benchmarks/programs/paper_fig5.c) gets both
#    remarks (OMP200, OMP201) on sm_90 and on gfx90a, and its PTX calls no malloc; with
#    -openmp-opt-disable-runtime-assumptions at the device link it gets no
#    remark and malloc is back (the thread states), so this test can fail;
#  - a parallel region that reaches another one through a device function,
#    a parallel region with a run-time if clause, and an explicit task each
#    keep what they need: no remark for nesting, resp. no remark for thread
#    states, and the thread states' malloc stays;
#  - every program prints the right result on the host fallback, and ptxas
#    accepts every PTX.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
NESTED="Deduced -fopenmp-assume-no-nested-parallelism for the device program"
NOSTATE="Deduced -fopenmp-assume-no-thread-state for the device program"

cat >"$work/nested.c" <<'EOF'
#include <omp.h>
#include <stdio.h>
/* A device function that opens a parallel region, called from one. */
#pragma omp declare target
static void inner(int *sum) {
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic
    *sum += 1;
  }
}
#pragma omp end declare target
int main(void) {
  int sum = 0;
#pragma omp target map(tofrom : sum)
#pragma omp parallel num_threads(4)
  inner(&sum);
  /* Nested regions are serialized on the device (4 x 1); the host may run
   * them with 2 threads each. */
  printf("nested: %s\n", sum == 4 || sum == 8 ? "PASS" : "FAIL");
  return 0;
}
EOF
cat >"$work/ifclause.c" <<'EOF'
#include <omp.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int n = 0;
  (void)argv;
#pragma omp target map(tofrom : n)
#pragma omp parallel if (argc > 5)
  {
#pragma omp atomic
    n += 1;
  }
  printf("ifclause: %s\n", n == 1 ? "PASS" : "FAIL");
  return 0;
}
EOF
cat >"$work/task.c" <<'EOF'
#include <omp.h>
#include <stdio.h>
int main(void) {
  int n = 0;
#pragma omp target map(tofrom : n)
  {
#pragma omp task shared(n)
    n += 2;
#pragma omp taskwait
#pragma omp parallel num_threads(1)
    n += 1;
  }
  printf("task: %s\n", n == 3 ? "PASS" : "FAIL");
  return 0;
}
EOF

build() { # NAME ARCH SOURCE FLAGS...: builds $work/NAME, remarks in NAME/log
  local name=$1 arch=$2 src=$3 d=$work/$1
  shift 3
  offload_build "$d" "$arch" "$src" -I"$OMPDS_ROOT/benchmarks/common" "$@" \
    -Wl,--offload-opt=-pass-remarks=openmp-opt
  if [ "$arch" = sm_90 ] && [ -n "$PTXAS" ]; then
    "$PTXAS" -arch=sm_90 -c "$(lto_ptx "$d")" -o "$d/p.o" ||
      fail "$name: ptxas rejects the PTX"
  fi
}
has_remark() { grep -q "$2" "$work/$1/log"; }
mallocs() { ptx_malloc_calls "$(lto_ptx "$work/$1")"; }

# expect NAME NESTED(yes|no) NOSTATE(yes|no)
expect() {
  local r
  for r in "$2:$NESTED" "$3:$NOSTATE"; do
    if [ "${r%%:*}" = yes ]; then
      has_remark "$1" "${r#*:}" || fail "$1: no remark '${r#*:}'"
    else
      ! has_remark "$1" "${r#*:}" || fail "$1: unexpected remark '${r#*:}'"
    fi
  done
}

F5="$OMPDS_ROOT/benchmarks/programs/paper_fig5.c -DN=1 -DINSIDE=1"
# shellcheck disable=SC2086
build fig5 sm_90 $F5
expect fig5 yes yes
[ "$(mallocs fig5)" = 0 ] || fail "fig5: the -O0 PTX still calls malloc $(mallocs fig5) times"
echo "fig5 (sm_90 -O0): both assumptions, no malloc"
# shellcheck disable=SC2086
build fig5-amd gfx90a $F5
expect fig5-amd yes yes
echo "fig5 (gfx90a -O0): both assumptions"
# shellcheck disable=SC2086
build fig5-off sm_90 $F5 -Wl,--offload-opt=-openmp-opt-disable-runtime-assumptions
expect fig5-off no no
[ "$(mallocs fig5-off)" -gt 0 ] || fail "fig5-off: no malloc without the deduction; revisit this test"
echo "fig5 without the deduction: $(mallocs fig5-off) malloc calls"

build nested sm_90 "$work/nested.c"
expect nested no no
[ "$(mallocs nested)" -gt 0 ] || fail "nested: the serialized region lost its thread states"
build ifclause sm_90 "$work/ifclause.c"
expect ifclause yes no
[ "$(mallocs ifclause)" -gt 0 ] || fail "ifclause: the serialized region lost its thread states"
build task sm_90 "$work/task.c"
expect task yes no
echo "nested region, run-time if clause, explicit task: the runtime keeps what they need"
