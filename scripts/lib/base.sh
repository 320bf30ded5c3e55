# The series' base (scripts/base.conf) and what follows from it. Sourced, not
# executed: by scripts/lib/common.sh and tests/lib/env.sh.
# shellcheck shell=bash
# shellcheck source=../base.conf
. "$(dirname "${BASH_SOURCE[0]}")/../base.conf"
OMPDS_LLVM_MAJOR=${OMPDS_LLVM_VERSION%%.*}
# Shared libraries are versioned <major>.<minor> (libLLVM.so.<major>.<minor>).
OMPDS_LLVM_SOVERSION=$(echo "$OMPDS_LLVM_VERSION" | cut -d. -f1,2)
# Debian's installation of that LLVM, and the suffix of its tools in /usr/bin.
OMPDS_DEB_LLVM=/usr/lib/llvm-$OMPDS_LLVM_MAJOR
OMPDS_TOOL_SUFFIX=-$OMPDS_LLVM_MAJOR
export OMPDS_LLVM_VERSION OMPDS_LLVM_MAJOR OMPDS_LLVM_SOVERSION OMPDS_DEB_LLVM OMPDS_TOOL_SUFFIX
