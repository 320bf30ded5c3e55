# The series' base (scripts/base.conf) and what follows from it. Sourced, not
# executed: by scripts/lib/common.sh and tests/lib/env.sh. OMPDS_BASE_CONF
# names another base definition (scripts/bases/*.conf) to work on a new base
# beside the current one.
# shellcheck shell=bash
if [ -n "${OMPDS_BASE_CONF:-}" ]; then
  [ -f "$OMPDS_BASE_CONF" ] || { echo "error: no base definition $OMPDS_BASE_CONF" >&2; exit 1; }
  # Another base must not reuse the caches and build of the current one.
  [ -n "${OMPDS_CACHE:-}" ] && [ -n "${OMPDS_BUILD:-}" ] || {
    echo "error: OMPDS_BASE_CONF=$OMPDS_BASE_CONF needs its own OMPDS_CACHE and OMPDS_BUILD" >&2
    exit 1
  }
else
  OMPDS_BASE_CONF=$(dirname "${BASH_SOURCE[0]}")/../base.conf
fi
# Optional: Debian's tarball of the packaging and where both tarballs are, for
# a version whose .dsc apt-get source cannot fetch.
OMPDS_DEB_DEBIAN_TARBALL= OMPDS_DEB_DEBIAN_SHA256= OMPDS_DEB_POOL_ORIG= OMPDS_DEB_POOL_DEBIAN=
# Optional: the directory of the patch series on this base, relative to the
# repository root (patches/ unless a base worked on beside names its own).
OMPDS_PATCH_DIR=patches
# shellcheck source=../base.conf
. "$OMPDS_BASE_CONF"
OMPDS_LLVM_MAJOR=${OMPDS_LLVM_VERSION%%.*}
# Shared libraries are versioned <major>.<minor> (libLLVM.so.<major>.<minor>).
OMPDS_LLVM_SOVERSION=$(echo "$OMPDS_LLVM_VERSION" | cut -d. -f1,2)
# Debian's installation of that LLVM, and the suffix of its tools in /usr/bin.
OMPDS_DEB_LLVM=/usr/lib/llvm-$OMPDS_LLVM_MAJOR
OMPDS_TOOL_SUFFIX=-$OMPDS_LLVM_MAJOR
export OMPDS_PATCH_DIR OMPDS_LLVM_VERSION OMPDS_LLVM_MAJOR OMPDS_LLVM_SOVERSION OMPDS_DEB_LLVM OMPDS_TOOL_SUFFIX
