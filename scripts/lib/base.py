"""The series' base (scripts/base.conf) and what follows from it.

scripts/base.conf is the one place that names the LLVM release the series
applies to and Debian's packages of it; everything else derives from it here
(and in scripts/lib/base.sh for the shell scripts).
"""

import os
import re

# OMPDS_BASE_CONF names another base definition (scripts/bases/*.conf), to work
# on a new base beside the current one.
CONF = os.environ.get("OMPDS_BASE_CONF") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "base.conf")
if os.environ.get("OMPDS_BASE_CONF") and not (os.environ.get("OMPDS_CACHE") and
                                             os.environ.get("OMPDS_BUILD")):
    raise SystemExit("error: OMPDS_BASE_CONF=%s needs its own OMPDS_CACHE and OMPDS_BUILD"
                     % CONF)


def _read(path=CONF):
    values = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^(OMPDS_[A-Z0-9_]+)=(\S+)\s*$", line)
            if m:
                values[m.group(1)] = m.group(2)
    return values


_V = _read()


def optional(name, default=None):
    """A variable a base definition may leave out."""
    return _V.get(name, default)


def var(name):
    """A variable of scripts/base.conf."""
    if name not in _V:
        raise KeyError("scripts/base.conf does not set %s" % name)
    return _V[name]


LLVM_VERSION = var("OMPDS_LLVM_VERSION")          # <major>.<minor>.<patch>
BASE_TAG = var("OMPDS_BASE_TAG")
BASE_COMMIT = var("OMPDS_BASE_COMMIT")
DEB_SRC_PKG = var("OMPDS_DEB_SRC_PKG")
DEB_VERSION = var("OMPDS_DEB_VERSION")            # <epoch>:<version>-<revision>
DEB_ORIG = var("OMPDS_DEB_ORIG")
DEB_ORIG_SHA256 = var("OMPDS_DEB_ORIG_SHA256")

MAJOR = LLVM_VERSION.split(".")[0]
SOVERSION = ".".join(LLVM_VERSION.split(".")[:2])  # libLLVM.so.<major>.<minor>
SUFFIX = "-" + MAJOR                               # clang-<major>, llvm-<major>-dev
DEB_REVISION = DEB_VERSION.rsplit("-", 1)[1]
DEB_LLVM = "/usr/lib/llvm-" + MAJOR                # Debian's installation
# The cache of downloads and unpacked sources (scripts/lib/common.sh).
CACHE = os.environ.get("OMPDS_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "ompds")
# The patch series on this base (relative to the repository root): patches/,
# unless a base worked on beside the current one keeps its own.
PATCH_DIR = _V.get("OMPDS_PATCH_DIR", "patches")
# Debian's package of the host offload runtime (libomptarget.so):
# libomp-<major>-dev unless the base definition names another.
DEB_OFFLOAD_PACKAGE = _V.get("OMPDS_DEB_OFFLOAD_PACKAGE", "libomp%s-dev" % SUFFIX)
# Whether Debian's packages of the base ship no GPU device runtime, so that
# the stock side of the comparisons is a prefix of Debian's tools with a
# DeviceRTL built from Debian's source (scripts/build --stock, which
# scripts/build then runs too; the harness and tests use <build>/stock).
STOCK_PREFIX = _V.get("OMPDS_STOCK_PREFIX", "no") == "yes"
# The GPU architectures the toolchain must compile and link the seed programs
# for (tests/e2e/seeds.py; the first NVIDIA and the first AMD one get the whole
# matrix), and the NVIDIA ones whose PTX must pass CUDA's ptxas.
GPU_ARCHS = _V.get("OMPDS_GPU_ARCHS", "sm_90,gfx90a").split(",")
PTX_ARCHS = _V.get("OMPDS_PTX_ARCHS", "sm_90,sm_75").split(",")
