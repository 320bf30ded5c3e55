#!/usr/bin/env python3
"""The full build: the patch series on the pristine base, CMake + Ninja.

Builds clang and lld with the X86, NVPTX and AMDGPU targets and the openmp and
offload runtimes (DeviceRTL included) from the base (scripts/base.conf) with the series
applied, and installs them into a prefix. For big build nodes and for upstream
work; the overlay build (scripts/build, the default) is the quick path.
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import base  # noqa: E402
import overlay  # noqa: E402
import series as ser  # noqa: E402

ROOT = overlay.ROOT
BUILD = os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build"))

NVPTX_ARCHS = "sm_70;sm_72;sm_75;sm_80;sm_86;sm_87;sm_89;sm_90"
AMDGPU_ARCHS = "gfx906;gfx908;gfx90a;gfx940;gfx941;gfx942;gfx1030;gfx1100"


def cmake_command(src, build, prefix, archs, jobs):
    cc = shutil.which("clang" + base.SUFFIX) or shutil.which("clang") or "cc"
    cxx = shutil.which("clang++" + base.SUFFIX) or shutil.which("clang++") or "c++"
    args = [
        "cmake", "-G", "Ninja", "-S", os.path.join(src, "llvm"), "-B", build,
        "-DCMAKE_BUILD_TYPE=Release",
        "-DCMAKE_INSTALL_PREFIX=" + prefix,
        "-DCMAKE_C_COMPILER=" + cc,
        "-DCMAKE_CXX_COMPILER=" + cxx,
        "-DLLVM_ENABLE_PROJECTS=clang;lld",
        "-DLLVM_ENABLE_RUNTIMES=openmp;offload",
        "-DLLVM_TARGETS_TO_BUILD=X86;NVPTX;AMDGPU",
        "-DLLVM_ENABLE_ASSERTIONS=OFF",
        "-DLLVM_INCLUDE_BENCHMARKS=OFF",
        "-DLLVM_INCLUDE_EXAMPLES=OFF",
        "-DLLVM_ENABLE_PER_TARGET_RUNTIME_DIR=ON",
        "-DLLVM_PARALLEL_LINK_JOBS=%d" % max(1, jobs // 8),
        "-DLIBOMPTARGET_DEVICE_ARCHITECTURES=" + archs,
        "-DOMPDS_SERIES_VERSION=" + overlay.ser_version(),
        "-DCLANG_VENDOR=ompds",
    ] + overlay.devicertl_options()
    if shutil.which("ld.lld") or shutil.which("ld.lld" + base.SUFFIX):
        args.append("-DLLVM_USE_LINKER=lld")
    if shutil.which("ccache"):
        args.append("-DLLVM_CCACHE_BUILD=ON")
    return args


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(BUILD, "full"))
    ap.add_argument("--prefix", default=os.path.join(BUILD, "full", "install"))
    ap.add_argument("--archs", default=os.environ.get(
        "OMPDS_DEVICE_ARCHS", NVPTX_ARCHS + ";" + AMDGPU_ARCHS))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--dry-run", action="store_true",
                    help="print the exact configuration and build commands, build nothing")
    args = ap.parse_args()

    out = os.path.abspath(args.out)
    src = os.path.join(out, "src")
    build = os.path.join(out, "build")
    cmake = cmake_command(src, build, os.path.abspath(args.prefix), args.archs, args.jobs)
    ninja = ["ninja", "-C", build, "-j", str(args.jobs), "install"]
    if args.dry_run:
        print("# source: the pristine base (scripts/get-source pristine) with the "
              "series applied, in %s" % src)
        print(" ".join(map(shlex.quote, cmake)))
        print(" ".join(map(shlex.quote, ninja)))
        return 0
    for tool in ("cmake", "ninja"):
        if not shutil.which(tool):
            sys.exit("error: %s is missing (apt-get install cmake ninja-build)" % tool)
    base = ser.base_dir("pristine")
    os.makedirs(out, exist_ok=True)
    overlay.prepare_source(out, base)
    if not os.path.exists(os.path.join(build, "build.ninja")):
        overlay.run(cmake)
    overlay.run(ninja)
    return 0


if __name__ == "__main__":
    sys.exit(main())
