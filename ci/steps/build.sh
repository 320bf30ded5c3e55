#!/usr/bin/env bash
# CI step "build": the toolchain (README.md's first command) into
# build/toolchain. Cold about 6 minutes on 2 cores (Debian's source package
# download and unpack included), a few seconds warm; caches live under
# $HOME/.cache (OMPDS_CACHE, CCACHE_DIR).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
bash scripts/build
