"""The overlay's fixed configuration: Debian's paths, compilers and flags of
the base, the packages it needs, the tools it relinks, and where the files
that move between LLVM versions live in a source tree."""

import os

import base
from util import die

# scripts/lib, and the overlay's entry point there: the generated build runs
# it for its archive merges (--merge-archive).
LIB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OVERLAY_PY = os.path.join(LIB, "overlay.py")
ROOT = os.path.dirname(os.path.dirname(LIB))

DEB = base.DEB_LLVM
DEB_LIB = DEB + "/lib"
DEB_INC = DEB + "/include"
DEB_REVISION = base.DEB_REVISION
V = base.SUFFIX  # Debian's package and tool suffix, "-<major>"
# Debian's compilers of the base version: they built Debian's objects, so the
# overlay compiles with them.
DEB_CC = "/usr/bin/clang" + V
DEB_CXX = "/usr/bin/clang++" + V
MULTIARCH = "/usr/lib/x86_64-linux-gnu"

# Packages the overlay needs (Debian 12 names), and a file proving each.
PACKAGES = {
    "clang" + V: DEB_CXX,
    # ThreadSanitizer, for the host test of the DeviceRTL's global memory pool.
    "libclang-rt%s-dev" % V: DEB_LIB + "/clang/%s/lib/linux/libclang_rt.tsan-x86_64.a"
    % base.MAJOR,
    "llvm%s-dev" % V: DEB_LIB + "/libLLVMCore.a",
    "libclang%s-dev" % V: DEB_LIB + "/libclangCodeGen.a",
    "llvm%s-tools" % V: DEB + "/bin/FileCheck",
    "lld" + V: DEB + "/bin/ld.lld",
    # clang-offload-packager (the DeviceRTL's packaging) and the offload tools
    # that the stock side of the tests runs.
    "clang-tools" + V: DEB + "/bin/clang-offload-packager",
    "libomp%s-dev" % V: DEB_LIB + "/libomp.so",
    # The host offload runtime (libomptarget.so): in libomp-<major>-dev up to
    # LLVM 19, in its own package later (scripts/base.conf names it).
    base.DEB_OFFLOAD_PACKAGE: DEB_LIB + "/libomptarget.so",
    "clang-format" + V: "/usr/bin/clang-format" + V,
    "cmake": "/usr/bin/cmake",
    "ninja-build": "/usr/bin/ninja",
    "ccache": "/usr/bin/ccache",
    "dpkg-dev": "/usr/bin/dpkg-source",
    # LLVM's CMake package needs zstd's and libffi's to configure offload/.
    "libzstd-dev": MULTIARCH + "/libzstd.so",
    "libffi-dev": MULTIARCH + "/libffi.so",
}
# ROCm's device libraries (ocml, ockl, oclc_*), which clang links into AMDGPU
# code: Debian 12's rocm-device-libs unless the base definition names a newer
# package (OMPDS_ROCM_DEVICE_LIBS_DEB: its pool path, sha256, and the
# directory of the bitcode inside it), fetched and unpacked into the cache.
ROCM_DEB = base.optional("OMPDS_ROCM_DEVICE_LIBS_DEB")
if not ROCM_DEB:
    PACKAGES["rocm-device-libs"] = MULTIARCH + "/amdgcn/bitcode/ocml.bc"
# Packages of the base that conflict with the same package of another LLVM
# version (libomp-<major>-dev conflicts with every other libomp-x.y-dev): they
# are unpacked into the cache instead of installed, so that the toolchains of
# two bases can be built on one machine. Other packages they need that the
# base definition names (OMPDS_DEB_EXTRA_PACKAGES) are installed.
UNPACKED_PACKAGES = base.optional("OMPDS_DEB_UNPACKED_PACKAGES", "").split(",")
UNPACKED_PACKAGES = [p for p in UNPACKED_PACKAGES if p]
for _p in UNPACKED_PACKAGES:
    PACKAGES = {k: v for k, v in PACKAGES.items() if k != _p}
EXTRA_PACKAGES = [p for p in base.optional("OMPDS_DEB_EXTRA_PACKAGES", "").split(",") if p]
UNPACKED_ROOT = os.path.join(base.CACHE, "debs", "root")

# Debian's flags (measured: these reproduce Debian's archive members).
BASE_FLAGS = (
    "-fstack-protector-strong -Wformat -Werror=format-security -Wdate-time "
    "-D_FORTIFY_SOURCE=2 -fPIC -fno-semantic-interposition "
    "-fvisibility-inlines-hidden -ffunction-sections -fdata-sections -O2 -DNDEBUG "
    "-std=c++17 -fno-exceptions -funwind-tables -D_GNU_SOURCE "
    "-D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS -w"
).split()
CLANG_FLAGS = ["-fno-common", '-DCLANG_REPOSITORY_STRING="%s"' % DEB_REVISION]
TARGET_FLAGS = ["-fvisibility=hidden"]

# The directories of the Debian source tree the overlay needs (runtimes/ and
# libc/ for the DeviceRTL of openmp/device).
SRC_DIRS = ["llvm", "clang", "offload", "openmp", "cmake", "third-party", "runtimes", "libc",
            "lld"]

# Sources of the host offload runtime (libomptarget.so with its plugins): when
# the series touches one, the overlay builds the library from the patched tree
# against Debian's libLLVM instead of using Debian's.
HOST_OFFLOAD_DIRS = ("offload/src/", "offload/libomptarget/", "offload/include/",
                     "offload/plugins-nextgen/", "offload/cmake/", "offload/CMakeLists.txt")
HOST_OFFLOAD_LIB = "libomptarget.so." + base.SOVERSION

# Clang's driver options: a change regenerates Options.inc (Debian's is
# reproduced byte for byte by Debian's llvm-tblgen from the unpatched file) and
# recompiles every includer of Options.h. LLVM 22 moved them from
# clang/Driver/ to clang/Options/.
DRIVER_OPTIONS_DIRS = ("clang/include/clang/Options", "clang/include/clang/Driver")


def first_dir_with(src, dirs, name):
    """The first of `dirs` (relative to the tree `src`) that holds `name`:
    where a file of one LLVM version or another lives."""
    for d in dirs:
        if os.path.exists(os.path.join(src, d, name)):
            return d
    die("no %s in %s (looked in %s)" % (name, src, ", ".join(dirs)))


def driver_options_dir(src):
    """The directory of Clang's Options.td in the tree `src`."""
    return first_dir_with(src, DRIVER_OPTIONS_DIRS, "Options.td")


# The DeviceRTL's directory: openmp/device from LLVM 21 on (one bitcode
# library per GPU triple, libompdevice.a, built through runtimes/), before that
# offload/DeviceRTL (one library per architecture).
DEVICERTL_DIRS = ("openmp/device", "offload/DeviceRTL")
# The GPU triples of openmp/device's DeviceRTL.
DEVICE_TRIPLES = ("nvptx64-nvidia-cuda", "amdgcn-amd-amdhsa")


def devicertl_dir(src):
    """The directory of the DeviceRTL in the tree `src`."""
    return first_dir_with(src, DEVICERTL_DIRS, "CMakeLists.txt")


def per_triple_devicertl(src):
    return devicertl_dir(src) == DEVICERTL_DIRS[0]


# Tools relinked statically: name -> (main sources, tablegen'd option files).
TOOLS = {
    "clang": (["clang/tools/driver/driver.cpp", "clang/tools/driver/cc1_main.cpp",
               "clang/tools/driver/cc1as_main.cpp",
               "clang/tools/driver/cc1gen_reproducer_main.cpp", "@gen/clang-driver.cpp"],
              []),
    "clang-linker-wrapper": (["clang/tools/clang-linker-wrapper/ClangLinkerWrapper.cpp"],
                             ["clang/tools/clang-linker-wrapper/LinkerWrapperOpts.td"]),
    "clang-nvlink-wrapper": (["clang/tools/clang-nvlink-wrapper/ClangNVLinkWrapper.cpp"],
                             ["clang/tools/clang-nvlink-wrapper/NVLinkOpts.td"]),
    "opt": (["llvm/tools/opt/opt.cpp"], []),
    "llc": (["llvm/tools/llc/llc.cpp", "llvm/tools/llc/NewPMDriver.cpp"], []),
    "llvm-link": (["llvm/tools/llvm-link/llvm-link.cpp"], []),
    # The LTO pipeline tests of the targets the series changes run it.
    "llvm-lto2": (["llvm/tools/llvm-lto2/llvm-lto2.cpp"], []),
}
# lld, relinked when the base definition says the device link of AMDGPU code
# runs LLVM inside ld.lld (OMPDS_RELINK_LLD=yes: LLVM 20 and later, whose
# linker wrapper hands AMDGPU LTO to ld.lld), with Debian's lld archives.
RELINK_LLD = base.optional("OMPDS_RELINK_LLD") == "yes"
if RELINK_LLD:
    TOOLS["lld"] = (["lld/tools/lld/lld.cpp", "@gen/lld-driver.cpp"], [])
    PACKAGES["liblld%s-dev" % V] = DEB_LIB + "/liblldELF.a"
# The names lld answers to (its flavor comes from the name).
LLD_ALIASES = ("ld.lld", "ld64.lld", "lld-link", "wasm-ld")

# Debian binaries the prefix links to unchanged (nothing in the series builds them).
DEBIAN_TOOLS = ["ld.lld", "lld", "clang-offload-packager", "clang-offload-bundler",
                "llvm-ar", "llvm-as", "llvm-dis", "llvm-nm", "llvm-objdump",
                "llvm-readobj", "llvm-readelf", "llvm-objcopy", "llvm-strip",
                "nvptx-arch", "amdgpu-arch", "llvm-mc", "llvm-config", "FileCheck",
                "not", "count", "split-file", "llvm-profdata", "llvm-symbolizer",
                # LLVM 20 and later: the offload packager and architecture tools.
                "llvm-offload-binary", "llvm-offload-wrapper", "offload-arch", "llvm-ranlib"]

DEFAULT_ARCHS = ("sm_70;sm_72;sm_75;sm_80;sm_86;sm_87;sm_89;sm_90;"
                 "gfx906;gfx908;gfx90a;gfx940;gfx941;gfx942;gfx1030;gfx1100")

# The tables Clang's libraries generate for themselves (clang_tablegen in
# their CMakeLists.txt): library directory -> (file, clang-tblgen option, .td).
CLANG_LIB_TABLES = {
    "clang/lib/AST": [("Opcodes.inc", "-gen-clang-opcodes", "clang/lib/AST/ByteCode/Opcodes.td"),
                      ("AttrDocTable.inc", "-gen-clang-attr-doc-table",
                       "clang/include/clang/Basic/Attr.td")],
    "clang/lib/Sema": [("OpenCLBuiltins.inc", "-gen-clang-opencl-builtins",
                        "clang/lib/Sema/OpenCLBuiltins.td")],
}

# When a touched header is included by more translation units than this, the
# overlay is no faster than a full build, and less trustworthy: refuse.
MAX_AFFECTED_TUS = 600
