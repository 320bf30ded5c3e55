#!/usr/bin/env bash
# CI step "setup": the tools the project's scripts need before they can
# install the rest (scripts/build installs Debian's LLVM packages itself), and
# a bounded ccache where the next run on the same machine finds it.
# Run as root or with sudo on a Debian 12 machine that reaches Debian's archive.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../../scripts/lib/base.sh
. scripts/lib/base.sh
need=()
for p in python3 git cmake ninja-build ccache; do
  command -v "${p%-build}" >/dev/null 2>&1 || need+=("$p")
done
# The lint step checks patches with clang-format of the base version, and the
# series on a next base (scripts/bases/*.conf) with that base's.
command -v "clang-format$OMPDS_TOOL_SUFFIX" >/dev/null 2>&1 || need+=("clang-format$OMPDS_TOOL_SUFFIX")
for conf in scripts/bases/*.conf; do
  [ -f "$conf" ] || continue
  suffix=$(OMPDS_BASE_CONF=$conf OMPDS_CACHE=/nonexistent OMPDS_BUILD=/nonexistent \
    bash -c '. scripts/lib/base.sh && echo "$OMPDS_TOOL_SUFFIX"')
  command -v "clang-format$suffix" >/dev/null 2>&1 || need+=("clang-format$suffix")
done
if [ ${#need[@]} -gt 0 ]; then
  pre=()
  [ "$(id -u)" = 0 ] || pre=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${pre[@]}" apt-get update -q && "${pre[@]}" apt-get install -y -q --no-install-recommends "${need[@]}"
fi
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
ccache --max-size=5G >/dev/null 2>&1 || true
echo "setup: $(nproc) cores, ccache in $CCACHE_DIR"
