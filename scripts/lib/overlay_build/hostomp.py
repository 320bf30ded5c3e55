"""The host OpenMP runtime (libomp) of the base, built from the overlay's
source tree.

Debian 12's packages of the base (bookworm-security, LLVM 22.1.8 when this
was written) build no libomp5 of their own version: libomp-<major>-dev
installs the base's omp.h but points libomp.so at libomp5-19's library. The
two disagree on the values of omp.h's handles: the base's header gives
omp_default_mem_space the value 99, which libomp 19 does not know, so a host
program that calls omp_init_allocator(omp_default_mem_space, ...) stops on an
assertion in kmp_alloc.cpp. The toolchain therefore ships the libomp of the
base's own source, which matches the header clang finds; the stock toolchain
keeps Debian's pairing, as Debian ships it."""

import glob
import os

from .config import DEB_CC, DEB_CXX
from .helpers import cmake_build_command

# The library the build produces, relative to its build directory, and the
# names the toolchain's lib/<host triple> gives it (Debian's: the soname and
# the two that -lomp and -lomp5 link).
HOST_LIBOMP = os.path.join("openmp", "runtime", "src", "libomp.so.5")
HOST_LIBOMP_NAMES = ("libomp.so.5", "libomp.so", "libomp5.so")
# What the build reads: a change under these paths reconfigures and rebuilds.
HOST_LIBOMP_INPUTS = ("openmp/runtime/src/", "openmp/runtime/cmake/",
                      "openmp/runtime/tools/", "openmp/runtime/CMakeLists.txt",
                      "openmp/cmake/", "openmp/CMakeLists.txt")


def host_libomp_cmake(src, d, launcher):
    """The CMake command that configures openmp/ through runtimes/ for the
    host in `d`, with Debian's compilers of the base (as Debian's own runtimes
    are built). libomptarget and libompd are not built here: the first is
    offload/'s (Debian's or write_host_offload's), the second Debian's."""
    args = [
        "cmake", "-G", "Ninja", "-S", os.path.join(src, "runtimes"), "-B", d,
        "-DLLVM_ENABLE_RUNTIMES=openmp", "-DCMAKE_BUILD_TYPE=Release",
        "-DCMAKE_C_COMPILER=" + DEB_CC, "-DCMAKE_CXX_COMPILER=" + DEB_CXX,
        "-DLLVM_INCLUDE_TESTS=OFF", "-DOPENMP_ENABLE_LIBOMPTARGET=OFF",
        "-DLIBOMP_OMPD_SUPPORT=OFF", "-DLIBOMP_OMPT_SUPPORT=ON",
    ]
    if launcher:
        args += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache",
                 "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
    return args


def write_host_libomp(n, out, src, jobs, launcher):
    """libomp.so.5 of the base's source in <out>/libomp, rebuilt when one of
    its sources changes. Returns the library."""
    d = os.path.join(out, "libomp")
    cmd = cmake_build_command(d, host_libomp_cmake(src, d, launcher), "omp", jobs, launcher)
    ins = sorted(f for f in glob.glob(os.path.join(src, "openmp", "**", "*"), recursive=True)
                 if os.path.isfile(f)
                 and os.path.relpath(f, src).startswith(HOST_LIBOMP_INPUTS))
    n.lines.append("rule libomp\n  command = $cmd\n  description = LIBOMP (host)\n"
                   "  pool = console")
    lib = os.path.join(d, HOST_LIBOMP)
    n.build([lib], "libomp", ins, variables={"cmd": cmd})
    return lib
