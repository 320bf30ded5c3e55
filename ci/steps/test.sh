#!/usr/bin/env bash
# CI step "test": README.md's test command, against the toolchain the build
# step made (needs CUDA's ptxas and nvlink under /usr/local/cuda). Results in
# build/test-results.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
bash scripts/test
