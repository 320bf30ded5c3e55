#!/usr/bin/env bash
# CI step "gpu", for a runner with an NVIDIA GPU, its driver and CUDA (12 or
# 13) after the build step: builds the benchmark programs with stock clang of
# the base version, ompds and nvcc, runs each on the GPU against its host
# reference (PASS/FAIL; pool-stress among them) and writes the kernel-time
# ratios to OUTDIR (default build/bench/gpu): gpu.md, gpu.csv.
#
#   ci/steps/gpu.sh [OUTDIR]
#
# On a GPU machine without compilers use benchmarks/pack-device where the
# programs were built and benchmarks/run-device there instead
# (benchmarks/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/bench/gpu}
command -v nvidia-smi >/dev/null ||
  { echo "gpu: no nvidia-smi on this runner: it needs an NVIDIA GPU and driver" >&2; exit 2; }
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
python3 benchmarks/run-gpu --out "$out" -j "$(nproc)"
