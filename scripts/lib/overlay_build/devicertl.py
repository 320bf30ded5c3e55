"""The DeviceRTL: its build options, its CMake configuration (per architecture
in offload/DeviceRTL, per GPU triple in openmp/device), its rules in the
generated build, and what the patched clang needs to compile it."""

import glob
import os
import re
import shlex
import subprocess

import base
from util import die

from .config import (DEB, DEB_CC, DEB_CXX, DEB_INC, DEVICE_TRIPLES, RELINK_LLD, ROOT,
                     devicertl_dir, per_triple_devicertl)
from .helpers import symlink
from .prefix import resource_dir


# The DeviceRTL options the toolchain sets where the patched runtime's own
# default differs from what ompds ships: the global memory pool for
# __kmpc_alloc_shared's overflow (patch OpenMP-DeviceRTL-Serve-__kmpc_alloc_
# shared-from-a-global-pool-when-the-s) is off by default upstream-style; the
# toolchain reserves 4 MiB. OMPDS_DEVICERTL_OPTIONS overrides them by name.
DEVICERTL_DEFAULTS = {"LIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE": "4194304"}


def devicertl_options():
    """-D arguments for the DeviceRTL's build options: DEVICERTL_DEFAULTS and
    those a site sets in OMPDS_DEVICERTL_OPTIONS (NAME=VALUE ..., e.g.
    LIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE=16777216), which win by name; the
    DeviceRTL's CMake checks the values."""
    opts = dict(DEVICERTL_DEFAULTS)
    for opt in shlex.split(os.environ.get("OMPDS_DEVICERTL_OPTIONS", "")):
        if not re.fullmatch(r"LIBOMPTARGET_DEVICE_[A-Z0-9_]+=\S+", opt):
            die("OMPDS_DEVICERTL_OPTIONS: '%s' is not NAME=VALUE with a "
                "LIBOMPTARGET_DEVICE_ option name (see docs/building.md)" % opt)
        name, value = opt.split("=", 1)
        opts[name] = value
    return ["-D%s=%s" % (name, value) for name, value in opts.items()]


def devicertl_cmake_per_arch(src, tc, rtl, archs):
    """The CMake command that configures offload/DeviceRTL in `rtl` for
    `archs` with the tools in `tc` (scripts/cmake/devicertl)."""
    return [
        "cmake", "-G", "Ninja", "-S", os.path.join(ROOT, "scripts/cmake/devicertl"),
        "-B", rtl, "-DOMPDS_SOURCE_DIR=" + src, "-DOMPDS_LLVM_INCLUDE_DIR=" + DEB_INC,
        "-DCMAKE_C_COMPILER=" + DEB_CC, "-DCMAKE_CXX_COMPILER=" + DEB_CXX,
        "-DLIBOMPTARGET_DEVICE_ARCHITECTURES=" + archs,
        "-DCLANG_TOOL=" + os.path.join(tc, "clang"),
        "-DLINK_TOOL=" + os.path.join(tc, "llvm-link"),
        "-DOPT_TOOL=" + os.path.join(tc, "opt"),
        "-DPACKAGER_TOOL=" + DEB + "/bin/clang-offload-packager",
    ]


def devicertl_cmake_per_triple(src, tc, d, triple):
    """The CMake command that configures openmp/device in `d` for `triple`
    through runtimes/, with the clang in `tc` as the compiler."""
    return [
        "cmake", "-G", "Ninja", "-S", os.path.join(src, "runtimes"), "-B", d,
        "-DLLVM_ENABLE_RUNTIMES=openmp", "-DLLVM_DEFAULT_TARGET_TRIPLE=" + triple,
        "-DCMAKE_C_COMPILER=" + os.path.join(tc, "clang"),
        "-DCMAKE_CXX_COMPILER=" + os.path.join(tc, "clang++"),
        "-DCMAKE_C_COMPILER_TARGET=" + triple, "-DCMAKE_CXX_COMPILER_TARGET=" + triple,
        "-DCMAKE_C_COMPILER_WORKS=ON", "-DCMAKE_CXX_COMPILER_WORKS=ON",
        "-DLLVM_ENABLE_PER_TARGET_RUNTIME_DIR=ON", "-DCMAKE_BUILD_TYPE=Release",
        "-DLLVM_INCLUDE_TESTS=OFF",
        # The archive holds bitcode: Debian's tools of the base read it.
        "-DCMAKE_AR=" + DEB + "/bin/llvm-ar", "-DCMAKE_RANLIB=" + DEB + "/bin/llvm-ranlib",
        "-DCMAKE_CXX_COMPILER_AR=" + DEB + "/bin/llvm-ar",
        "-DCMAKE_CXX_COMPILER_RANLIB=" + DEB + "/bin/llvm-ranlib",
    ]


def configure_devicertl(src, tc, d, extra):
    """--configure-devicertl: configures the DeviceRTL of the overlay tree
    `src` alone in `d`, for NVPTX (sm_90 where it is built per architecture),
    with the tools in `tc` and the extra CMake arguments `extra` (tests of its
    build options). Prints the ninja target and the bitcode it builds; exits
    with CMake's status."""
    if per_triple_devicertl(src):
        cmd = devicertl_cmake_per_triple(src, tc, d, DEVICE_TRIPLES[0])
        target = "ompdevice"
        bc = os.path.join(d, "lib", DEVICE_TRIPLES[0], "libomptarget-nvptx.bc")
    else:
        cmd = devicertl_cmake_per_arch(src, tc, d, "sm_90")
        target = "omptarget-nvptx-sm_90-bc"
        bc = os.path.join(d, "lib", "libomptarget-nvptx-sm_90.bc")
    res = subprocess.run(cmd + list(extra))
    if res.returncode == 0:
        print("%s %s" % (target, bc))
    return res.returncode


def write_devicertl_per_arch(n, src, tc, rtl, archs, jobs):
    """offload/DeviceRTL: one bitcode library per architecture, built through
    scripts/cmake/devicertl with the patched tools. Returns the outputs."""
    cmake_args = devicertl_cmake_per_arch(src, tc, rtl, archs) + devicertl_options()
    # The DeviceRTL's own rules do not depend on the tools (they are given as
    # paths); this rule only runs when a tool or a source changed, so start
    # from a clean DeviceRTL build.
    rtl_cmd = "%s >%s/cmake.log && ninja -C %s -t clean >/dev/null && " \
              "ninja -C %s -j%d omptarget.devicertl omptarget.devicertl.nvptx " \
              "omptarget.devicertl.amdgpu" % (
                  " ".join(map(shlex.quote, cmake_args)), rtl, rtl, rtl, jobs)
    devsrc = sorted(glob.glob(os.path.join(src, "offload/DeviceRTL/src/*"))
                    + glob.glob(os.path.join(src, "offload/DeviceRTL/include/*"))
                    + [os.path.join(src, "offload/DeviceRTL/CMakeLists.txt")])
    n.build([os.path.join(rtl, "lib/libomptarget.devicertl.a")], "devicertl", devsrc,
            implicit=[os.path.join(tc, t) for t in ("clang", "opt", "llvm-link")],
            variables={"cmd": "mkdir -p %s && %s" % (rtl, rtl_cmd), "archs": archs})
    return [os.path.join(rtl, "lib/libomptarget.devicertl.a")]


def write_devicertl_per_triple(n, out, src, tc, rtl, jobs):
    """openmp/device: libompdevice.a per GPU triple, built through runtimes/
    with the patched clang as the compiler (its resource directory and ld.lld
    are Debian's, linked next to it by link_compiler_support). Returns the
    outputs."""
    outs = []
    devsrc = sorted(glob.glob(os.path.join(src, devicertl_dir(src), "**", "*"), recursive=True))
    devsrc = [f for f in devsrc if os.path.isfile(f)]
    for triple in DEVICE_TRIPLES:
        d = os.path.join(rtl, triple)
        cmake_args = devicertl_cmake_per_triple(src, tc, d, triple) + devicertl_options()
        # The rule runs only when a tool or a source changed: start clean.
        cmd = "mkdir -p %s && %s >%s/cmake.log && ninja -C %s -t clean >/dev/null && " \
              "ninja -C %s -j%d ompdevice" % (
                  d, " ".join(map(shlex.quote, cmake_args)), d, d, d, jobs)
        o = os.path.join(d, "lib", triple, "libompdevice.a")
        n.build([o], "devicertl", devsrc,
                implicit=[os.path.join(tc, t) for t in ("clang", "clang-nvlink-wrapper")
                          + (("lld",) if RELINK_LLD else ())],
                variables={"cmd": cmd, "archs": triple})
        outs.append(o)
    return outs


def write_devicertl(n, out, src, archs, jobs):
    """The DeviceRTL through its own CMakeLists.txt, with the patched tools of
    <out>/bin, into <out>/devicertl. Returns the outputs."""
    tc = os.path.join(out, "bin")
    rtl = os.path.join(out, "devicertl")
    if per_triple_devicertl(src):
        return write_devicertl_per_triple(n, out, src, tc, rtl, jobs)
    return write_devicertl_per_arch(n, src, tc, rtl, archs, jobs)


def link_compiler_support(out):
    """The patched clang in <out>/bin compiles the DeviceRTL of openmp/device:
    it needs its resource directory (<out>/lib/clang/<major>, Debian's
    headers), clang++ and ld.lld next to it."""
    os.makedirs(os.path.join(out, "bin"), exist_ok=True)
    resource_dir(os.path.join(out, "lib", "clang", base.MAJOR))
    symlink("clang", os.path.join(out, "bin", "clang++"))
    symlink("lld" if RELINK_LLD else os.path.join(DEB, "bin", "ld.lld"),
            os.path.join(out, "bin", "ld.lld"))
