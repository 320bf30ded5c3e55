#!/usr/bin/env bash
# AMDGPU packs depot objects into one LDS variable per function (patch
# AMDGPU-Pack-depot-objects-into-one-LDS-variable-per-function.patch):
# benchmarks/programs/depot_reuse.c declares an int[64] and a double[32] in
# consecutive blocks and an int in a loop, all shared with parallel regions.
#  - built for gfx90a at -O0 and -O2 with plain `clang -fopenmp`, the device
#    link reports (remark SharedDepot of amdgpu-lower-module-lds) one depot of
#    272 bytes for the 528 bytes of depot objects of the target region (520
#    at -O0, where the parallel regions' wrapper also uses the kernel's copy
#    of `out`, an object without live-range markers that stays apart);
#  - at -O2 the kernel's LDS (group_segment_fixed_size) is that depot and
#    nothing else (without packing it was 528 bytes);
#  - the binaries print PASS on the host fallback.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
P=$OMPDS_ROOT/benchmarks/programs
for opt in -O0 -O2; do
  # At -O0 the parallel regions' wrapper also uses the kernel's copy of
  # `out`, an object without live-range markers, which stays a separate
  # 8-byte global: 520 bytes of objects in the depot then.
  if [ "$opt" = -O0 ]; then objs=520; else objs=528; fi
  WANT="shared depot of 272 bytes for [0-9]* depot objects of $objs bytes"
  d=$work/$opt
  mkdir -p "$d"
  (cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=gfx90a "$opt" \
    "$P/depot_reuse.c" -o prog -save-temps -Rpass-analysis=amdgpu-lower-module-lds) \
    >"$d/log" 2>&1 || { cat "$d/log" >&2; fail "depot_reuse.c gfx90a $opt: build failed"; }
  # ld.lld (the AMDGPU device link from LLVM 20 on) prints remarks without
  # the "remark: " of clang's diagnostics.
  grep ".*_run_target_l[0-9]*\(_omp_outlined\)\?: $WANT" "$d/log" ||
    { grep remark "$d/log" >&2 || true; fail "gfx90a $opt: no depot of 272 bytes for the kernel's $objs bytes of depot objects"; }
  (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep "PASS" >/dev/null ||
    fail "gfx90a $opt: does not print PASS on the host fallback"
done
lds=$(amdgpu_lds "$work/-O2" '_run_target_l[0-9]+$')
echo "depot_reuse.c gfx90a -O2: $lds bytes of LDS"
[ "$lds" = 272 ] || fail "gfx90a -O2: $lds bytes of LDS, expected the 272-byte depot only"

# The seed Fig. 5 with 64 shared scalars (benchmarks/seeds/fig5.c, N=64) at
# -O2: an SPMD kernel with 64 guarded sequential regions, past AMDGPU's
# inlining limit (-amdgpu-inline-max-bb). Its LDS is the 256 bytes of the
# scalars: the runtime's team state folds away only because openmp-opt hints
# the inliner to inline __kmpc_target_init (patch OpenMP-Hint-the-inliner-to-
# inline-the-device-runtime-s-kernel-entry-and.patch; 296 bytes without).
d=$work/fig5-64
mkdir -p "$d"
(cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=gfx90a -O2 -DN=64 \
  "$OMPDS_ROOT/benchmarks/seeds/fig5.c" -o prog -save-temps) >"$d/log" 2>&1 ||
  { cat "$d/log" >&2; fail "seed fig5.c N=64 gfx90a -O2: build failed"; }
(cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep "PASS" >/dev/null ||
  fail "seed fig5.c N=64: does not print PASS on the host fallback"
# Two kernels: the one with the parallel regions has the LDS.
lds=$("$TC/bin/llvm-readelf" --notes "$d"/prog.*gfx90a*.img |
  awk '/\.group_segment_fixed_size:/ { if ($2 > m) m = $2 } END { print m + 0 }')
echo "seed fig5.c N=64 gfx90a -O2: $lds bytes of LDS"
[ "$lds" = 256 ] || fail "seed fig5.c N=64 gfx90a -O2: $lds bytes of LDS, expected the 256 bytes of its 64 scalars"
echo "AMDGPU depots: objects of disjoint scopes share LDS; Fig. 5 with 64 scalars keeps no runtime state"
