#!/usr/bin/env bash
# A call that every thread makes once openmp-opt runs a generic-mode kernel in
# SPMD mode must not overwrite depot bytes that other threads still read
# (OpenMP-Synchronize-threads-before-guarded-regions-in-SPMD-ized-kernels.patch).
# tests/e2e/programs/spmd_amenable_war.c: three arrays of disjoint scopes of
# the sequential part share depot bytes; every thread reads the first, then
# the second and third are filled by an ompx_spmd_amenable function that every
# thread calls.
#  - sm_90 -O2: the kernel is SPMD-ized (openmp-opt remark), the arrays share
#    the depot (516 bytes for 1540 bytes of objects: the three arrays and the
#    team number), and in the link's IR the last call before the first call
#    to fill is a barrier (without one, a fast thread's fill overwrites bytes
#    of the first array a slow thread has yet to read);
#  - PTX through ptxas; PASS on the host fallback; the binary is kept for the
#    GPU (tests/gpu/build-held: run-held, and racecheck in run-all).
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
d=$work/sm_90-O2
mkdir -p "$d"
(cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=sm_90 -O2 \
  "$OMPDS_ROOT/tests/e2e/programs/spmd_amenable_war.c" -o prog -save-temps \
  -Rpass=openmp-opt -Rpass-analysis=nvptx-lower-depot-objects) >"$d/log" 2>&1 ||
  { cat "$d/log" >&2; fail "spmd_amenable_war.c: build failed"; }
grep -q "Transformed generic-mode kernel to SPMD-mode" "$d/log" ||
  { cat "$d/log" >&2; fail "the kernel was not SPMD-ized: the test checks nothing"; }
line=$(grep -o "_main_l[0-9]*[a-z_]*: shared depot of [0-9]* bytes for [0-9]* depot objects of [0-9]* bytes" "$d/log" | sed -n 1p)
echo "depot: $line"
[[ $line == *"shared depot of 516 bytes for 4 depot objects of 1540 bytes" ]] ||
  fail "the three arrays should share the depot, else the test checks nothing ($line)"
# The optimized device IR of the link: between every thread's load of the
# first array (after the first parallel region) and the first call to fill,
# whose array shares those bytes, the threads meet at a barrier: the last call
# before fill (live-range markers aside) is one.
bc=$(lto_opt_bc "$d")
ll=$d/device.ll
"$TC/bin/llvm-dis" "$bc" -o "$ll"
awk '/^define .*_main_l[0-9]*\(/{k=1} k && /^}/{k=0}
     k && / call / && /@fill/ {print (last ~ /barrier/ ? "barrier before fill" : "no barrier before fill: " last); exit}
     k && / call / && !/__depot_live_/ {last=$0}' "$ll" | tee "$d/order"
grep -qx "barrier before fill" "$d/order" ||
  fail "no barrier right before the SPMD-amenable call to fill in the kernel ($ll)"
if [ -n "$PTXAS" ]; then
  "$PTXAS" -arch=sm_90 -c "$(lto_ptx "$d")" -o "$d/ptxas.o" ||
    fail "ptxas rejects the PTX"
fi
(cd "$d" && OMP_TARGET_OFFLOAD=DISABLED OMP_THREAD_LIMIT=8 ./prog 2>"$d/run.err") | tee "$d/run" |
  grep "ran on host: PASS" >/dev/null || { cat "$d/run" >&2; fail "no PASS on the host fallback"; }
keep_for_gpu "$d" spmd-amenable-war-O2
echo "an SPMD-amenable call waits for the other threads' reads of the depot"
