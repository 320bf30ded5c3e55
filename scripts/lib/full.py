#!/usr/bin/env python3
"""The full build: the patch series on the pristine base, CMake + Ninja.

Builds clang and lld with the X86, NVPTX and AMDGPU targets and the openmp and
offload runtimes (DeviceRTL included) from the base (scripts/base.conf) with the series
applied, and installs them into a prefix. For big build nodes and for upstream
work; the overlay build (scripts/build, the default) is the quick path.
"""

import argparse
import os
import re
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

# The architectures of a per-architecture DeviceRTL (offload/DeviceRTL, up to
# LLVM 20). From LLVM 21 on the DeviceRTL (openmp/device) is one library per
# GPU triple, built as a runtime of that triple.
NVPTX_ARCHS = "sm_70;sm_72;sm_75;sm_80;sm_86;sm_87;sm_89;sm_90"
AMDGPU_ARCHS = "gfx906;gfx908;gfx90a;gfx940;gfx941;gfx942;gfx1030;gfx1100"


def devicertl_cmake_args(src, archs):
    """How the base's CMake builds the DeviceRTL of the tree `src`."""
    if not overlay.per_triple_devicertl(src):
        return ["-DLIBOMPTARGET_DEVICE_ARCHITECTURES=" + archs]
    args = ["-DLLVM_RUNTIME_TARGETS=" + ";".join(("default",) + overlay.DEVICE_TRIPLES)]
    for triple in overlay.DEVICE_TRIPLES:
        args.append("-DRUNTIMES_%s_LLVM_ENABLE_RUNTIMES=openmp" % triple)
        for opt in overlay.devicertl_options():
            args.append("-DRUNTIMES_%s_%s" % (triple, opt[2:]))
    return args


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
        "-DOMPDS_SERIES_VERSION=" + overlay.ser_version(),
        "-DCLANG_VENDOR=ompds",
    ] + devicertl_cmake_args(src, archs) + overlay.devicertl_options()
    if shutil.which("ld.lld") or shutil.which("ld.lld" + base.SUFFIX):
        args.append("-DLLVM_USE_LINKER=lld")
    if shutil.which("ccache"):
        args.append("-DLLVM_CCACHE_BUILD=ON")
    return args


def sample(src, build, args):
    """--sample: the object files of the C++ sources the series touches."""
    cmake = cmake_command(src, build, os.path.abspath(args.prefix), args.archs, args.jobs)
    cmake += ["-DLLVM_TABLEGEN=" + base.DEB_LLVM + "/bin/llvm-tblgen",
              "-DCLANG_TABLEGEN=" + base.DEB_LLVM + "/bin/clang-tblgen"]
    overlay.run(cmake, stdout=subprocess.DEVNULL)
    _, names = ser.read_series()
    touched = [f for f in ser.series_touched_files(names)
               if f.endswith(".cpp") and f.startswith(("llvm/lib/", "clang/lib/", "lld/"))]
    res = subprocess.run(["ninja", "-C", build, "-t", "targets", "all"],
                         stdout=subprocess.PIPE, check=True)
    objects = {}
    for line in res.stdout.decode().splitlines():
        target = line.split(":")[0]
        # CMake names the object of <dir>/<sub>/<file>.cpp of a library in
        # <dir> <dir>/CMakeFiles/<lib>.dir/<sub>/<file>.cpp.o, with clang and
        # lld under tools/.
        rel = re.sub(r"CMakeFiles/[^/]+\.dir/", "", target)
        if rel.startswith("tools/clang/") or rel.startswith("tools/lld/"):
            rel = rel[len("tools/"):]
        elif not rel.startswith("tools/"):
            rel = "llvm/" + rel
        if rel.endswith(".o") and rel[:-2] in touched:
            objects.setdefault(rel[:-2], target)
    missing = sorted(set(touched) - set(objects))
    if missing:
        overlay.note("no CMake object for: %s" % ", ".join(missing))
    overlay.note("compiling %d touched sources with the full build's flags in %s"
                 % (len(objects), build))
    overlay.run(["ninja", "-C", build, "-j", str(args.jobs)] + sorted(objects.values()))
    print("sampled: %d of %d touched sources compile in the full build"
          % (len(objects), len(touched)))
    return 1 if missing else 0


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
    ap.add_argument("--configure-only", action="store_true",
                    help="prepare the patched tree and run CMake, build nothing "
                    "(what CI checks)")
    ap.add_argument("--sample", action="store_true",
                    help="compile only the library and tool sources the series "
                    "touches, with CMake's flags, in <out>/sample (Debian's "
                    "llvm-tblgen and clang-tblgen of the base generate the "
                    "tables): a check of the full build that fits 2 cores")
    args = ap.parse_args()

    out = os.path.abspath(args.out)
    src = os.path.join(out, "src")
    build = os.path.join(out, "build")
    ninja = ["ninja", "-C", build, "-j", str(args.jobs), "install"]
    if args.dry_run:
        # The DeviceRTL's layout is the base's: look at the pristine tree.
        cmake = cmake_command(ser.base_dir("pristine"), build,
                              os.path.abspath(args.prefix), args.archs, args.jobs)
        cmake[cmake.index("-S") + 1] = os.path.join(src, "llvm")
        print("# source: the pristine base (scripts/get-source pristine) with the "
              "series applied, in %s" % src)
        print(" ".join(map(shlex.quote, cmake)))
        print(" ".join(map(shlex.quote, ninja)))
        return 0
    for tool in ("cmake", "ninja"):
        if not shutil.which(tool):
            sys.exit("error: %s is missing (apt-get install cmake ninja-build)" % tool)
    base_tree = ser.base_dir("pristine")
    overlay.forget_other_base(out)
    overlay.prepare_source(out, base_tree)
    if args.sample:
        return sample(src, os.path.join(out, "sample"), args)
    cmake = cmake_command(src, build, os.path.abspath(args.prefix), args.archs, args.jobs)
    if args.configure_only or not os.path.exists(os.path.join(build, "build.ninja")):
        overlay.run(cmake)
    if args.configure_only:
        print("configured: %s (build with: %s)" % (build, " ".join(ninja)))
        return 0
    overlay.run(ninja)
    return 0


if __name__ == "__main__":
    sys.exit(main())
