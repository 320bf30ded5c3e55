#!/usr/bin/env bash
# The CUDA plugin's launch geometry and synchronization (issue 36; patches
# Offload-CUDA-Keep-four-warps-per-team-in-low-trip-count-loops and
# Offload-CUDA-Poll-the-stream-before-blocking-in-synchronize):
#  - the toolchain ships the host offload runtime built from the patched tree
#    (ompds-build.json: "libomptarget": "ours"), and that runtime reads
#    LIBOMPTARGET_CUDA_STREAM_BUSYWAIT;
#  - programs/launch_geometry.c builds for sm_90 at -O2 and prints PASS on the
#    host fallback; tests/gpu/build-held keeps it for a GPU, where it also
#    checks that 50000 iterations run as 391 teams of 128 threads (1563 of 32
#    without the first patch) and that results of short and long kernels are
#    there when their regions return.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

grep -q '"libomptarget": "ours"' "$TC/ompds-build.json" ||
  fail "the toolchain's libomptarget is not built from the patched tree (ompds-build.json)"
lib=$(ls "$TC"/lib/x86_64-pc-linux-gnu/libomptarget.so.[0-9]* | sed -n 1p)
grep -aq LIBOMPTARGET_CUDA_STREAM_BUSYWAIT "$lib" ||
  fail "$lib does not read LIBOMPTARGET_CUDA_STREAM_BUSYWAIT"

offload_build "$work/o2" sm_90 "$OMPDS_ROOT/tests/e2e/programs/launch_geometry.c" -O2
echo "launch-geometry: PASS (static and host fallback; the geometry needs a GPU)"
