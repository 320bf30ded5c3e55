#!/usr/bin/env bash
# CI step "lint" (no build needed, about a minute): the series is well formed
# (names, why, Upstream-Status, clang-format of added lines), applies to both
# bases and re-exports byte for byte, and the scripts name the base only in
# scripts/base.conf. scripts/test repeats these checks; running them first
# fails a broken series before the build.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/lint-series
bash scripts/check-series pristine debian
bash tests/scripts/base-defined-once.sh
