#!/usr/bin/env bash
# CI step "build": the toolchain (README.md's first command) into
# build/toolchain (and build/stock, the stock side of the comparisons, where
# the base's Debian packages ship no DeviceRTL). Cold about 8 minutes on 2
# cores (Debian's source download and unpack included), a few seconds warm;
# caches live under $HOME/.cache (OMPDS_CACHE, CCACHE_DIR).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
bash scripts/build
# The Debian packages scripts/build installed stay installed; their
# downloaded .deb files (about 1.5 GB) are not needed again.
if [ "$(id -u)" = 0 ]; then apt-get clean; fi
