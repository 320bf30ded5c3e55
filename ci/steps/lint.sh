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
python3 tests/scripts/no-early-exit-pipes.py

# The series on a next base (scripts/bases/*.conf, docs/port-22.md) is linted
# and must keep applying to that base's trees, in caches of its own.
for conf in scripts/bases/*.conf; do
  [ -f "$conf" ] || continue
  name=$(basename "$conf" .conf)
  echo "lint: the series on base $name"
  OMPDS_BASE_CONF=$conf \
    OMPDS_CACHE=${OMPDS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ompds}-$name \
    OMPDS_BUILD=${OMPDS_BUILD:-$PWD/build}/bases/$name \
    bash -c 'bash scripts/lint-series && bash scripts/check-series pristine debian'
done
