#!/usr/bin/env python3
"""The overlay build: the patch series on top of Debian's binaries of the base.

Only what the series changes is compiled: the translation units it touches,
plus every translation unit that includes a header it touches (found from an
include graph of the source tree). They are compiled with the flags that
reproduce Debian's objects (../shared/notes, docs/building.md), substituted
into copies of Debian's static archives, and the tools are relinked
statically. The DeviceRTL is rebuilt from the patched sources with the patched
clang through the DeviceRTL's own CMakeLists.txt. The result is a prefix
(build/toolchain) that works with no environment variables and no extra flags.

Everything runs through one generated build.ninja, so a second build only
redoes what changed; ccache is used when installed.
"""

import argparse
import functools
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import base  # noqa: E402
import series as ser  # noqa: E402
from util import die, note  # noqa: E402

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


def devicertl_options():
    """-D arguments for the DeviceRTL's build options a site sets in
    OMPDS_DEVICERTL_OPTIONS (NAME=VALUE ..., e.g.
    LIBOMPTARGET_DEVICE_GLOBAL_POOL_SIZE=16777216); the DeviceRTL's CMake
    checks the values."""
    opts = []
    for opt in shlex.split(os.environ.get("OMPDS_DEVICERTL_OPTIONS", "")):
        if not re.fullmatch(r"LIBOMPTARGET_DEVICE_[A-Z0-9_]+=\S+", opt):
            die("OMPDS_DEVICERTL_OPTIONS: '%s' is not NAME=VALUE with a "
                "LIBOMPTARGET_DEVICE_ option name (see docs/building.md)" % opt)
        opts.append("-D" + opt)
    return opts


def run(cmd, **kw):
    res = subprocess.run(cmd, **kw)
    if res.returncode != 0:
        die("command failed (%d): %s" % (res.returncode, " ".join(map(shlex.quote, cmd))))
    return res


# --- packages ----------------------------------------------------------------


def installed(pkg):
    res = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    # "install ok installed"; "unknown ok not-installed" when it is not.
    return res.stdout.decode().split()[-1:] == ["installed"]


def ensure_packages(install):
    unpack_packages()
    missing = [p for p, f in PACKAGES.items() if not os.path.exists(f)]
    missing += [p for p in EXTRA_PACKAGES if not installed(p)]
    if not missing:
        return
    if not install:
        die("missing Debian packages: %s\n  Install them: apt-get install %s"
            % (" ".join(missing), " ".join(missing)))
    note("installing Debian packages: %s" % " ".join(missing))
    pre = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    refuse_removals(missing, env)
    # --no-remove: apt stops rather than remove a package of the host's.
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "--no-remove"]
    res = subprocess.run(pre + install + missing, env=env)
    if res.returncode != 0:
        subprocess.run(pre + ["apt-get", "update", "-q"], env=env)
        refuse_removals(missing, env)
        res = subprocess.run(pre + install + missing, env=env)
    if res.returncode != 0:
        die("apt-get install %s failed; the overlay needs Debian's LLVM %s packages "
            "(or use scripts/build --mode full)" % (" ".join(missing), base.LLVM_VERSION))
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "llvm%s-dev" % V],
                         stdout=subprocess.PIPE).stdout.decode()
    check_debian_version(out)


def refuse_removals(missing, env):
    """Stops when installing MISSING would remove packages of the host: a
    build script must never uninstall what the machine's users installed
    (a libomp-dev of another LLVM, say)."""
    sim = subprocess.run(["apt-get", "install", "-s", "-q", "--no-install-recommends"]
                         + missing, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True)
    removed = [line.split()[1] for line in sim.stdout.splitlines()
               if line.startswith("Remv ")]
    if removed:
        die("installing %s would remove these packages of this machine: %s\n"
            "  scripts/build never removes packages. Remove them yourself if nothing "
            "needs them (apt-get remove %s), or build where they are not installed "
            "(a chroot or container of Debian 12; docs/building.md)"
            % (" ".join(missing), " ".join(removed), " ".join(removed)))


def unpack_packages():
    """Unpacks UNPACKED_PACKAGES of the base's Debian version into
    UNPACKED_ROOT (a tree laid out like /), downloading them with apt-get."""
    if not UNPACKED_PACKAGES:
        return
    stamp = os.path.join(UNPACKED_ROOT + ".stamp")
    want = " ".join("%s=%s" % (p, base.DEB_VERSION) for p in UNPACKED_PACKAGES)
    if os.path.exists(stamp) and open(stamp).read() == want:
        return
    debs = os.path.join(base.CACHE, "debs")
    shutil.rmtree(UNPACKED_ROOT, ignore_errors=True)
    os.makedirs(UNPACKED_ROOT)
    os.makedirs(debs, exist_ok=True)
    note("unpacking %s into %s (not installed: they conflict with other LLVM versions' "
         "packages)" % (want, UNPACKED_ROOT))
    res = subprocess.run(["apt-get", "download", "-q"] + want.split(), cwd=debs)
    if res.returncode != 0:
        # The package lists of a fresh machine may not know the version yet.
        pre = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(pre + ["apt-get", "update", "-q"])
        res = subprocess.run(["apt-get", "download", "-q"] + want.split(), cwd=debs)
    if res.returncode != 0:
        die("apt-get download %s failed: the base's Debian version must be in the archive "
            "(run apt-get update, or see docs/rebasing.md)" % want)
    for p in UNPACKED_PACKAGES:
        found = glob.glob(os.path.join(debs, "%s_*.deb" % p))
        if len(found) != 1:
            die("expected one %s_*.deb in %s, found %s" % (p, debs, found))
        run(["dpkg-deb", "-x", found[0], UNPACKED_ROOT])
        os.remove(found[0])
    with open(stamp, "w") as f:
        f.write(want)


def system_file(path, depth=0):
    """The file that `path` (an absolute path of an installed system) is, on
    this machine or in UNPACKED_ROOT, following symbolic links through both;
    None when neither has it."""
    if depth > 16:
        return None
    for cand in (path, os.path.join(UNPACKED_ROOT, path.lstrip("/"))):
        if os.path.islink(cand):
            t = os.readlink(cand)
            if not os.path.isabs(t):
                t = os.path.normpath(os.path.join(os.path.dirname(path), t))
            return system_file(t, depth + 1)
        if os.path.exists(cand):
            return cand
    return None


def check_debian_version(version=None):
    if version is None:
        version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "llvm%s-dev" % V],
                                 stdout=subprocess.PIPE).stdout.decode()
    want = base.DEB_VERSION
    if version != want:
        die("Debian's llvm%s-dev is %r but the overlay needs exactly %s (the objects it "
            "substitutes must match the base source).\n  Install that version, or use "
            "scripts/build --mode full." % (V, version, want))


# --- patched source tree -----------------------------------------------------


# --stock: the same build with no patch at all, the stock toolchain of the
# base (Debian's objects, relinked, with a DeviceRTL built from Debian's
# source by Debian's clang) for the comparisons of the tests and benchmarks,
# where Debian ships no DeviceRTL (LLVM 22).
STOCK = False
# --series-prefix N: only the first N patches (scripts/bisect-series).
SERIES_PREFIX = None


def series_names():
    """The patches the build applies: the series (its first SERIES_PREFIX
    patches), or none with --stock."""
    if STOCK:
        return []
    names = ser.read_series()[1]
    return names if SERIES_PREFIX is None else names[:SERIES_PREFIX]


def series_digest():
    h = hashlib.sha256()
    names = series_names()
    if STOCK:
        h.update(b"stock\0")
    for n in ["series", "VERSION"] + names:
        with open(os.path.join(ser.PATCHES, n), "rb") as f:
            h.update(n.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def break_link(path):
    """Gives `path` its own inode so that edits never reach the cached base."""
    if os.path.isfile(path) and os.stat(path).st_nlink > 1:
        tmp = path + ".ompds-tmp"
        shutil.copy2(path, tmp)
        os.replace(tmp, path)


def forget_other_base(out):
    """Removes the build directory `out` when it was made for another base
    (its objects were compiled against another Debian release of LLVM)."""
    mark = os.path.join(out, "base-version")
    if os.path.exists(mark) and open(mark).read().strip() != base.DEB_VERSION:
        note("%s was built for %s: starting it over for %s"
             % (out, open(mark).read().strip(), base.DEB_VERSION))
        shutil.rmtree(out)
    os.makedirs(out, exist_ok=True)
    with open(mark, "w") as f:
        f.write(base.DEB_VERSION + "\n")


def prepare_source(out, base_tree, dirs=None):
    """<out>/src: hard-linked copy of `base_tree` (only `dirs`, default all) with
    the series applied. Recreated when the series changes."""
    src = os.path.join(out, "src")
    stamp = os.path.join(out, "src.stamp")
    digest = series_digest()
    names = series_names()
    touched = ser.series_touched_files(names)
    old = {}
    if os.path.exists(stamp):
        with open(stamp) as f:
            old = json.load(f)
    if old.get("digest") == digest and old.get("dirs") == dirs and \
            old.get("base") == base.DEB_VERSION and os.path.isdir(src):
        return src, touched
    note("preparing the patched source tree (%d patches on Debian's base)" % len(names))
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    for d in dirs or sorted(os.listdir(base_tree)):
        if d.startswith(".") or d.endswith(".stamp"):
            continue
        run(["cp", "-al", os.path.join(base_tree, d), os.path.join(src, d)])
    run(["git", "init", "-q", src])
    # Files that changed between the old and the new series get fresh inodes
    # and mtimes, so ninja rebuilds what depends on them (also on revert).
    for rel in set(touched) | set(old.get("touched", [])):
        p = os.path.join(src, rel)
        if os.path.isfile(p):
            break_link(p)
            os.utime(p)
    for n in names:
        res = subprocess.run(["git", "apply", "--whitespace=nowarn",
                              os.path.join(ser.PATCHES, n)], cwd=src,
                             stderr=subprocess.PIPE)
        if res.returncode != 0:
            die("patch %s does not apply to Debian's base:\n%s" % (
                n, res.stderr.decode(errors="replace")))
    with open(stamp, "w") as f:
        json.dump({"digest": digest, "touched": touched, "dirs": dirs,
                   "base": base.DEB_VERSION}, f)
    return src, touched


# --- what to compile ---------------------------------------------------------

INCLUDE_RE = re.compile(rb'^\s*#\s*(?:include|import)\s*([<"])([^>"]+)[>"]', re.M)
SCAN_DIRS = ["llvm/include", "llvm/lib", "llvm/tools", "clang/include", "clang/lib",
             "clang/tools"]
SOURCE_EXT = (".cpp", ".c", ".h", ".inc", ".def")


def scan_includes(src):
    """{relative path: [include names]} for the sources of the tree."""
    graph = {}
    for d in SCAN_DIRS:
        for dirpath, _, files in os.walk(os.path.join(src, d)):
            if "/test" in dirpath or "/unittests" in dirpath:
                continue
            for fn in files:
                if fn.endswith(SOURCE_EXT):
                    path = os.path.join(dirpath, fn)
                    with open(path, "rb") as f:
                        data = f.read()
                    graph[os.path.relpath(path, src)] = [
                        (q == b'"', m.decode(errors="replace"))
                        for q, m in INCLUDE_RE.findall(data)]
    return graph


def search_dirs(src, rel):
    """The directories the overlay's compile of `rel` searches, in the order of
    its -I flags (compile_flags), that can hold a source file: the library's
    directory, the target's directory, then llvm/include and clang/include.
    None when `rel` is not in a library (tools): no order is known."""
    lib_dir = library_dir(src, rel) if src else None
    if not lib_dir:
        return None
    dirs = [lib_dir]
    m = re.match(r"(llvm/lib/Target/[^/]+)/", rel)
    if m and m.group(1) != lib_dir:
        dirs.append(m.group(1))
    return dirs + ["llvm/include", "clang/include"]


def includers(graph, headers, src=None):
    """Every file that includes one of `headers`, transitively.

    A quoted include names the file next to the includer when there is one,
    as the compiler's lookup does. Otherwise, for a file in a library (with
    `src`), the include resolves through the library's, the target's and the
    two include directories, in the compiler's order, to the first file of the
    tree found there. Failing that, an include name matches a file when the
    file's path ends with it, which over-approximates the lookup through the
    include path: never fewer files, maybe more."""
    affected = set(headers)
    by_base = {}
    for h in affected:
        by_base.setdefault(os.path.basename(h), set()).add(h)
    dirs_of = {}
    changed = True
    while changed:
        changed = False
        for f, incs in graph.items():
            if f in affected:
                continue
            for quoted, inc in incs:
                if quoted:
                    local = os.path.normpath(os.path.join(os.path.dirname(f), inc))
                    if local in graph:
                        if local in affected:
                            affected.add(f)
                            by_base.setdefault(os.path.basename(f), set()).add(f)
                            changed = True
                            break
                        continue
                if f not in dirs_of:
                    dirs_of[f] = search_dirs(src, f)
                resolved = next((os.path.join(d, inc) for d in dirs_of[f] or ()
                                 if os.path.join(d, inc) in graph), None)
                if resolved:
                    if resolved in affected:
                        affected.add(f)
                        by_base.setdefault(os.path.basename(f), set()).add(f)
                        changed = True
                        break
                    continue
                cands = by_base.get(os.path.basename(inc))
                if cands and any(c == inc or c.endswith("/" + inc) for c in cands):
                    affected.add(f)
                    by_base.setdefault(os.path.basename(f), set()).add(f)
                    changed = True
                    break
    return affected - set(headers)


LIB_DECL_RE = re.compile(
    r"^\s*(add_llvm_component_library|add_llvm_library|add_clang_library|add_llvm_target)"
    r"\s*\(\s*([A-Za-z0-9_]+)", re.M)


@functools.lru_cache(maxsize=None)
def library_decl(src, rel):
    """(directory, archive file name) of the library `rel` is compiled into:
    the nearest enclosing CMakeLists.txt that declares a library."""
    d = os.path.dirname(rel)
    while d and d not in ("llvm/lib", "clang/lib", "llvm", "clang"):
        cm = os.path.join(src, d, "CMakeLists.txt")
        if os.path.exists(cm):
            with open(cm) as f:
                m = LIB_DECL_RE.search(f.read())
            if m:
                kind, name = m.groups()
                if kind == "add_llvm_target":
                    name = "LLVM" + name
                return d, "lib%s.a" % name
        d = os.path.dirname(d)
    return None, None


def library_dir(src, rel):
    return library_decl(src, rel)[0]


def archive_of(src, rel):
    """The Debian archive (file name) whose member `rel` is compiled into."""
    return library_decl(src, rel)[1]


def classify(src, touched):
    """Splits the touched files into what the overlay must do with them."""
    tus, headers, td_targets, ignored, refused = set(), set(), set(), [], []
    for rel in touched:
        if re.match(r"(llvm|clang)/(test|unittests|docs|utils/lit)/", rel) or \
                rel.endswith((".md", ".rst", ".txt")) and not rel.endswith("CMakeLists.txt"):
            ignored.append(rel)
        elif rel.startswith(devicertl_dir(src) + "/"):
            ignored.append(rel)  # the DeviceRTL is always rebuilt
        elif rel.startswith(HOST_OFFLOAD_DIRS):
            ignored.append(rel)  # libomptarget is rebuilt when touched
        elif rel == driver_options_dir(src) + "/Options.td":
            # Its includers see the new Options.inc.
            headers.add(driver_options_dir(src) + "/Options.h")
        elif re.match(r"llvm/lib/Target/[^/]+/[^/]+\.td$", rel):
            td_targets.add(rel.split("/")[3])
        elif re.match(DIAG_TD_RE, rel):
            ignored.append(rel)  # diagnostic_tables() regenerates their tables
        elif any(rel in t[1] for t in TOOLS.values()):
            ignored.append(rel)  # a relinked tool's option table is tablegen'd
        elif rel.endswith(".td"):
            refused.append(rel)
        elif rel.endswith("CMakeLists.txt"):
            if rel.startswith(("llvm/lib/", "clang/lib/")):
                ignored.append(rel)  # new sources are added to the archive
            else:
                refused.append(rel)
        elif rel.startswith(("llvm/lib/", "clang/lib/")) and rel.endswith((".cpp", ".c")):
            tus.add(rel)
        elif rel.startswith(("llvm/", "clang/")) and rel.endswith((".h", ".inc", ".def")):
            headers.add(rel)
        elif rel.startswith(("clang/tools/", "llvm/tools/")) and \
                any(rel in t[0] for t in TOOLS.values()):
            ignored.append(rel)  # tool mains are always compiled
        else:
            refused.append(rel)
    if refused:
        die("the overlay build cannot rebuild what these files change:\n  %s\n"
            "  (it rebuilds LLVM/Clang libraries, NVPTX/AMDGPU target .td files, the "
            "relinked tools and the DeviceRTL).\n  Build with scripts/build --mode full, or "
            "teach scripts/lib/overlay.py how to rebuild them." % "\n  ".join(refused))
    return tus, headers, td_targets, ignored


# --- Clang's diagnostic tables ----------------------------------------------
#
# A new diagnostic or diagnostic group changes the tables clang-tblgen makes
# from clang/include/clang/Basic/Diagnostic*.td. Every Clang source includes
# some of them, but what reaches a translation unit's code is narrower:
#  - the enumerators of a component's diagnostics (diag::err_x), through
#    Diagnostic<Component>Interface.inc: only their order matters, and the
#    order is by name, so a new diagnostic renumbers those after it in its
#    component only;
#  - the enumerators of diag::Group (DiagnosticCategories.h): only the sources
#    that spell one (diag::Group::X, NUM_GROUPS) or read the group tables;
#  - everything else (texts, groups and categories of each diagnostic, group
#    members, compatibility IDs) only through DiagnosticIDs.cpp's tables.
# So the overlay regenerates all the tables and recompiles DiagnosticIDs.cpp,
# the includers of each component whose enumerators changed, and the users of
# diag::Group when the groups changed. A change to the Common component (every
# source includes it) or to the categories is refused: build with --mode full.
DIAG_TD_RE = r"clang/include/clang/Basic/Diagnostic[A-Za-z]*\.td$"
DIAG_DIR = "clang/include/clang/Basic"
# Sources that spell diag::Group's enumerators or read the group tables.
DIAG_GROUP_USE_RE = re.compile(rb"diag::Group::|\bNUM_GROUPS\b|DiagnosticGroups\.inc")
# Headers known to spell them only where DiagnosticIDs.cpp compiles the code:
# DiagnosticIDs.h uses NUM_GROUPS in the member initializer of DiagnosticIDs,
# whose constructor is defined in DiagnosticIDs.cpp.
DIAG_GROUP_HEADERS = {DIAG_DIR + "/DiagnosticCategories.h", DIAG_DIR + "/DiagnosticIDs.h"}


def diag_components(src):
    """The diagnostic components, from clang_diag_gen() in the CMakeLists.txt."""
    with open(os.path.join(src, DIAG_DIR, "CMakeLists.txt")) as f:
        return re.findall(r"^clang_diag_gen\((\w+)\)", f.read(), re.M)


def diag_tables(src):
    """{file name: clang-tblgen options} of the tables clang/include/clang/Basic
    generates from Diagnostic.td."""
    tables = {}
    for c in diag_components(src):
        tables["Diagnostic%sKinds.inc" % c] = ["-gen-clang-diags-defs", "-clang-component=" + c]
        tables["Diagnostic%sEnums.inc" % c] = ["-gen-clang-diags-enums", "-clang-component=" + c]
        tables["Diagnostic%sCompatIDs.inc" % c] = ["-gen-clang-diags-compat-ids",
                                                   "-clang-component=" + c]
        tables["Diagnostic%sInterface.inc" % c] = ["-gen-clang-diags-iface",
                                                   "-clang-component=" + c]
    tables["DiagnosticGroups.inc"] = ["-gen-clang-diag-groups"]
    tables["DiagnosticIndexName.inc"] = ["-gen-clang-diags-index-name"]
    tables["DiagnosticAllCompatIDs.inc"] = ["-gen-clang-diags-compat-ids"]
    return tables


def tblgen_diag(tree, opts):
    d = os.path.join(tree, DIAG_DIR)
    return subprocess.run([DEB + "/bin/clang-tblgen"] + opts +
                          ["-I", d, "-I", os.path.join(tree, "clang/include"),
                           os.path.join(d, "Diagnostic.td")],
                          check=True, stdout=subprocess.PIPE).stdout


def diag_enumerators(text):
    """The diagnostic names of a Diagnostic<Component>Kinds.inc, in order."""
    return re.findall(rb"^DIAG\((\w+),", text, re.M)


def diag_groups(text):
    """The group flags of DiagnosticGroups.inc in diag::Group's order, and its
    category table."""
    flags = re.findall(rb"^DIAG_ENTRY\(\w+ /\* (.*?) \*/", text, re.M)
    m = re.search(rb"#ifdef GET_CATEGORY_TABLE\n(.*?)#endif", text, re.S)
    return flags, m.group(1) if m else b""


# Sources compiled with all of the regenerated diagnostic tables (the
# directory diag_table_dirs() names first on their include path); the other
# compiles see only the tables of the components whose enumerators changed,
# so that their preprocessed text, and ccache's result, stays Debian's.
DIAG_FULL_TABLE_TUS = set()


def diag_table_dirs(gen):
    """(all regenerated tables, the changed components' tables): directories
    that hold clang/Basic/Diagnostic*.inc."""
    return os.path.join(gen, "diag-tables"), os.path.join(gen, "include")


def diag_generated(gen):
    return sorted(p for d in diag_table_dirs(gen)
                  for p in glob.glob(os.path.join(d, "clang/Basic/Diagnostic*.inc")))


def write_if_changed(path, data):
    if not os.path.exists(path) or open(path, "rb").read() != data:
        with open(path, "wb") as f:
            f.write(data)


def diagnostic_tables(src, gen, base_tree, graph):
    """Regenerates Clang's diagnostic tables from the patched tree (into
    diag_table_dirs()) and returns (headers, tus): generated headers whose
    includers must be recompiled, and translation units to recompile."""
    tables = diag_tables(src)
    full_dir, changed_dir = (os.path.join(d, "clang/Basic") for d in diag_table_dirs(gen))
    os.makedirs(full_dir, exist_ok=True)
    os.makedirs(changed_dir, exist_ok=True)
    new = {name: tblgen_diag(src, opts) for name, opts in tables.items()}
    deb = {}
    for name, opts in tables.items():
        with open(os.path.join(DEB_INC, "clang/Basic", name), "rb") as f:
            deb[name] = f.read()
    if any(tblgen_diag(base_tree, opts) != deb[name] for name, opts in tables.items()):
        die("Debian's clang-tblgen does not reproduce Debian's diagnostic tables from "
            "the unpatched tree;\n  the overlay cannot tell what a changed diagnostic "
            ".td renumbers. Build with scripts/build --mode full.")
    for name, text in new.items():
        write_if_changed(os.path.join(full_dir, name), text)
    headers, tus = set(), {"clang/lib/Basic/DiagnosticIDs.cpp"}
    changed = set()
    for c in diag_components(src):
        kinds, files = "Diagnostic%sKinds.inc" % c, ["Diagnostic%s%s.inc" % (c, k) for k in
                                                    ("Enums", "CompatIDs", "Interface")]
        if diag_enumerators(new[kinds]) == diag_enumerators(deb[kinds]) and \
                all(new[f] == deb[f] for f in files):
            continue
        if c == "Common":
            die("the series renumbers Clang's Common diagnostics, which every Clang "
                "source includes.\n  Build with scripts/build --mode full.")
        note("the series renumbers Clang's %s diagnostics: recompiling their includers" % c)
        headers.add(os.path.join(DIAG_DIR, "Diagnostic%sInterface.inc" % c))
        for f in [kinds] + files:
            write_if_changed(os.path.join(changed_dir, f), new[f])
            changed.add(f)
    # Tables of components an earlier series changed would shadow Debian's.
    for p in glob.glob(os.path.join(changed_dir, "Diagnostic*.inc")):
        if os.path.basename(p) not in changed:
            os.remove(p)
    groups, categories = diag_groups(new["DiagnosticGroups.inc"])
    old_groups, old_categories = diag_groups(deb["DiagnosticGroups.inc"])
    if categories != old_categories:
        die("the series changes Clang's diagnostic categories.\n"
            "  Build with scripts/build --mode full.")
    if groups != old_groups:
        users = set()
        for rel in graph:
            if not rel.startswith(("clang/", "llvm/")):
                continue
            with open(os.path.join(src, rel), "rb") as f:
                if not DIAG_GROUP_USE_RE.search(f.read()):
                    continue
            if rel.endswith((".cpp", ".c")):
                users.add(rel)
            elif rel not in DIAG_GROUP_HEADERS:
                die("%s spells diag::Group's enumerators in a header: the overlay cannot "
                    "tell which sources a new diagnostic group changes.\n"
                    "  Build with scripts/build --mode full." % rel)
        users = {u for u in users if u.startswith("clang/lib/")}
        note("the series changes Clang's diagnostic groups: recompiling %s"
             % ", ".join(sorted(users)))
        tus |= users
    DIAG_FULL_TABLE_TUS.update(tus)
    return headers, tus


# --- LLVM's fixed metadata kinds ---------------------------------------------
#
# FixedMetadataKinds.def lists the metadata kinds every LLVMContext registers
# when it is constructed, each with an explicit number, and LLVMContext.h makes
# them the LLVMContext::MD_* enumerators that nearly every LLVM source
# includes. A kind appended with the next number renumbers nothing: a source
# compiled without it sees the same value for every kind it names. Only
# LLVMContext.cpp (which registers the kinds and asserts their numbers) and the
# sources that spell a new enumerator need the new list. Any other change to
# the list (an entry edited, removed, inserted or numbered out of order)
# changes the code of sources the overlay does not recompile, and is refused.
FIXED_MD_DEF = "llvm/include/llvm/IR/FixedMetadataKinds.def"
FIXED_MD_RE = re.compile(rb'^LLVM_FIXED_MD_KIND\((\w+),\s*"([^"]*)",\s*(\d+)\)', re.M)


def fixed_metadata_kinds(src, base_tree, graph):
    """For metadata kinds appended to FixedMetadataKinds.def: (headers, tus)
    that spell a new enumerator, and must be recompiled with the new list."""
    def kinds(tree):
        with open(os.path.join(tree, FIXED_MD_DEF), "rb") as f:
            return FIXED_MD_RE.findall(f.read())
    old, new = kinds(base_tree), kinds(src)
    added = new[len(old):]
    if not old or new[:len(old)] != old or any(
            int(num) != int(old[-1][2]) + 1 + i for i, (_, _, num) in enumerate(added)):
        die("the series changes %s other than by appending kinds numbered after the "
            "last one;\n  that renumbers enumerators every LLVM source includes. Build "
            "with scripts/build --mode full." % FIXED_MD_DEF)
    names = [name for name, _, _ in added]
    note("the series appends fixed metadata kinds %s: recompiling their users"
         % ", ".join(n.decode() for n in names))
    use = re.compile(rb"\b(?:%s)\b" % b"|".join(names)) if names else None
    headers, tus = set(), {"llvm/lib/IR/LLVMContext.cpp"}
    for rel in graph:
        if not use or rel == FIXED_MD_DEF or not rel.startswith(("clang/", "llvm/")):
            continue
        with open(os.path.join(src, rel), "rb") as f:
            if not use.search(f.read()):
                continue
        if not rel.endswith((".cpp", ".c")):
            headers.add(rel)
        elif rel.startswith(("llvm/lib/", "clang/lib/")):
            tus.add(rel)  # a tool main spelling one is always compiled
    return headers, tus


@functools.lru_cache(maxsize=None)
def archive_members(arc):
    """The member names of Debian's archive `arc`, in order (a tuple)."""
    return tuple(subprocess.run(["ar", "t", os.path.join(DEB_LIB, arc)], check=True,
                                stdout=subprocess.PIPE, text=True).stdout.split())


def defined_symbols(obj):
    """The external symbols an object file defines."""
    out = subprocess.run(["nm", "-g", "--defined-only", "-P", obj], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.strip()}


def merge_archive(out, base, objs):
    """Writes `out`: Debian's archive `base` with members replaced by `objs`
    (CMake's object names, <file>.cpp.o), in Debian's member order. Where
    several of Debian's members share a name (clangCodeGen's Targets/X86.cpp
    and TargetBuiltins/X86.cpp), which `ar r` cannot tell apart, an object
    replaces the one whose defined symbols it shares most. Objects with no
    member of their name are appended (new sources)."""
    members = archive_members(os.path.basename(base))
    by_name = {}
    for o in objs:
        by_name.setdefault(os.path.basename(o), []).append(o)
    with tempfile.TemporaryDirectory(dir=os.path.dirname(out)) as tmp:
        # Debian's members, each extracted into a directory of its own (`ar
        # xN` picks the N-th member of a name).
        paths, seen = [], {}
        for i, m in enumerate(members):
            seen[m] = seen.get(m, 0) + 1
            d = os.path.join(tmp, str(i))
            os.makedirs(d)
            subprocess.run(["ar", "xN", str(seen[m]), base, m], cwd=d, check=True)
            paths.append(os.path.join(d, m))
        for name, ours in by_name.items():
            slots = [i for i, m in enumerate(members) if m == name]
            if not slots:
                continue  # new sources, appended below
            if len(slots) == 1 and len(ours) == 1:
                paths[slots[0]] = ours[0]
                continue
            theirs = {i: defined_symbols(paths[i]) for i in slots}
            for o in ours:
                syms = defined_symbols(o)
                score = sorted(((len(syms & theirs[i]), i) for i in theirs), reverse=True)
                if not score or score[0][0] == 0 or \
                        (len(score) > 1 and score[1][0] == score[0][0]):
                    die("%s: cannot tell which of the %d members named %s the object %s "
                        "replaces (no member shares most of its symbols)"
                        % (base, len(slots), name, o))
                paths[score[0][1]] = o
                del theirs[score[0][1]]
        extra = [o for name, ours in by_name.items() if name not in members for o in ours]
        tmp_out = out + ".tmp"
        if os.path.exists(tmp_out):
            os.remove(tmp_out)
        subprocess.run(["ar", "qc", tmp_out] + paths + extra, check=True)
        subprocess.run(["ar", "s", tmp_out], check=True)
        os.replace(tmp_out, out)


def touches_host_offload(touched):
    """Whether the series changes libomptarget (libomptarget and its plugins)."""
    return any(rel.startswith(HOST_OFFLOAD_DIRS) for rel in touched)


# --- ninja generation --------------------------------------------------------


def tblgen_commands(src, target_dir):
    """(output, flags, td) triples from a CMakeLists.txt's tablegen() calls."""
    with open(os.path.join(src, target_dir, "CMakeLists.txt")) as f:
        text = f.read()
    out = []
    td = None
    for line in text.splitlines():
        m = re.match(r"\s*set\(LLVM_TARGET_DEFINITIONS\s+(\S+)\)", line)
        if m:
            td = m.group(1)
        m = re.match(r"\s*tablegen\(LLVM\s+(\S+)\s*(.*?)\)\s*$", line)
        if m:
            out.append((m.group(1), m.group(2).split(), td))
    return out


def ninja_escape(s):
    return s.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


class Ninja:
    def __init__(self):
        self.lines = []

    def var(self, k, v):
        self.lines.append("%s = %s" % (k, v))

    def build(self, outs, rule, ins, implicit=(), order=(), variables=None):
        line = "build %s: %s %s" % (" ".join(map(ninja_escape, outs)), rule,
                                     " ".join(map(ninja_escape, ins)))
        if implicit:
            line += " | " + " ".join(map(ninja_escape, implicit))
        if order:
            line += " || " + " ".join(map(ninja_escape, order))
        self.lines.append(line)
        for k, v in (variables or {}).items():
            self.lines.append("  %s = %s" % (k, v))

    def text(self):
        return "\n".join(self.lines) + "\n"


def compile_flags(src, gen, rel):
    d = os.path.dirname(rel)
    flags = list(BASE_FLAGS)
    if rel.startswith("clang/"):
        flags += CLANG_FLAGS
    if rel.startswith("llvm/lib/Target/"):
        flags += TARGET_FLAGS
    # The file's directory, the directory of the library it belongs to (as
    # CMake's current source directory), and the target directory.
    inc = [os.path.join(src, d), os.path.join(gen, d)]
    lib_dir = library_dir(src, rel)
    if lib_dir and lib_dir != d:
        inc += [os.path.join(src, lib_dir), os.path.join(gen, lib_dir)]
    m = re.match(r"(llvm/lib/Target/[^/]+)/", rel)
    if m:
        inc += [os.path.join(src, m.group(1)), os.path.join(gen, m.group(1))]
    inc += [os.path.join(src, "llvm/include"), os.path.join(src, "clang/include"),
            os.path.join(src, "lld/include"), os.path.join(gen, "include"), DEB_INC]
    if rel in DIAG_FULL_TABLE_TUS:
        inc.insert(0, diag_table_dirs(gen)[0])
    return flags + ["-I" + i for i in inc]


def per_file_defines(rel, version):
    if rel == "clang/lib/Basic/Version.cpp":
        return ['-DCLANG_VENDOR="Debian "', '-DOMPDS_SERIES_VERSION="%s"' % version]
    return []


def check_identity(base_tree, out, rels):
    """--check-identity: compiles each file `rels` of the unpatched Debian tree
    with the overlay's flags (and the overlay's generated headers in
    <out>/gen) and compares the code with the member of Debian's archive:
    disassembly with relocations, llvm-objdump -d -r. The series' objects are
    only trustworthy if the unpatched ones come out identical. Returns the
    number of files that differ."""
    work = os.path.join(out, "identity")
    os.makedirs(work, exist_ok=True)
    # The generated headers of the overlay, less those made from a .td file
    # the series changed (Clang's Options.inc: the unpatched sources must see
    # Debian's, whose option IDs they were compiled with).
    gen = os.path.join(work, "gen")
    shutil.rmtree(gen, ignore_errors=True)
    shutil.copytree(os.path.join(out, "gen"), gen, symlinks=True)
    for inc in glob.glob(os.path.join(gen, "include", "clang", "*", "Options.inc")):
        os.remove(inc)
    objdump = DEB + "/bin/llvm-objdump"
    if rels == ["all"]:
        # Every library source the last build compiled (Version.cpp differs
        # by design: it names ompds).
        with open(os.path.join(out, "build.ninja")) as f:
            rels = [r for r in re.findall(r"^build \S+/obj/((?:llvm|clang)/lib/\S+)\.o: cxx ",
                                          f.read(), re.M)
                    if r != "clang/lib/Basic/Version.cpp"]
    differ = new = 0
    for rel in rels:
        if not os.path.exists(os.path.join(base_tree, rel)):
            new += 1
            print("new       %s (added by the series: nothing to compare)" % rel)
            continue
        arc = archive_of(base_tree, rel)
        if not arc or not os.path.exists(os.path.join(DEB_LIB, arc)):
            die("cannot tell which of Debian's archives %s belongs to" % rel)
        member = os.path.basename(rel) + ".o"
        ours = os.path.join(work, member)
        run([DEB_CXX] + compile_flags(base_tree, gen, rel) +
            ["-c", os.path.join(base_tree, rel), "-o", ours])

        def disassembly(o):
            res = run([objdump, "-d", "-r", "--no-show-raw-insn", o], stdout=subprocess.PIPE)
            # The first lines name the file.
            return res.stdout.decode(errors="replace").split("\n")[3:]

        mine = disassembly(ours)
        # Members can share a name (clangCodeGen's Targets/X86.cpp and
        # TargetBuiltins/X86.cpp): ours must equal one of them.
        same, theirs = False, []
        for k in range(1, archive_members(arc).count(member) + 1):
            inst = os.path.join(work, "deb%d" % k)
            os.makedirs(inst, exist_ok=True)
            run(["ar", "xN", str(k), os.path.join(DEB_LIB, arc), member], cwd=inst)
            theirs = disassembly(os.path.join(inst, member))
            if mine == theirs and len(mine) > 10:
                same = True
                break
        dis = [mine, theirs]
        differ += not same
        print("%s %s (%s, %d lines of disassembly)" % (
            "identical" if same else "DIFFERENT", rel, arc, len(dis[1])), flush=True)
    print("%d identical, %d different, %d new in the series"
          % (len(rels) - differ - new, differ, new))
    return differ


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


def resource_dir(dst):
    """Clang's resource directory at `dst`: a link to Debian's, or, when an
    unpacked package adds files to it (omp.h of libomp-<major>-dev), a
    directory of links to both."""
    deb = os.path.join(DEB_LIB, "clang", base.MAJOR)
    extra = UNPACKED_ROOT + deb
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if os.path.lexists(dst):
        if os.path.islink(dst) or os.path.isfile(dst):
            os.remove(dst)
        else:
            shutil.rmtree(dst)
    if not os.path.isdir(extra):
        os.symlink(deb, dst)
        return

    def merge(rel):
        os.makedirs(os.path.join(dst, rel))
        names = set(os.listdir(os.path.join(deb, rel)) if os.path.isdir(
            os.path.join(deb, rel)) else ()) | set(os.listdir(os.path.join(extra, rel)))
        for name in sorted(names):
            r = os.path.join(rel, name)
            a, b = os.path.join(deb, r), os.path.join(extra, r)
            if os.path.isdir(a) and os.path.isdir(b) and not os.path.islink(a):
                merge(r)
            else:
                os.symlink(a if os.path.exists(a) else b, os.path.join(dst, r))
    merge("")


def link_compiler_support(out):
    """The patched clang in <out>/bin compiles the DeviceRTL of openmp/device:
    it needs its resource directory (<out>/lib/clang/<major>, Debian's
    headers), clang++ and ld.lld next to it."""
    os.makedirs(os.path.join(out, "bin"), exist_ok=True)
    resource_dir(os.path.join(out, "lib", "clang", base.MAJOR))
    symlink("clang", os.path.join(out, "bin", "clang++"))
    symlink("lld" if RELINK_LLD else os.path.join(DEB, "bin", "ld.lld"),
            os.path.join(out, "bin", "ld.lld"))


def write_ninja(out, src, gen, tus, td_targets, archs, version, jobs, host_offload,
                driver_options, diag_tables_written=()):
    n = Ninja()
    cxx = DEB_CXX
    # Paths under the build directory are hashed relative to it, so a fresh
    # clone (another path) still hits the cache of an earlier one.
    launcher = ("CCACHE_BASEDIR=%s CCACHE_NOHASHDIR=1 ccache " % shlex.quote(
        os.path.dirname(src))) if shutil.which("ccache") and \
        not os.environ.get("OMPDS_NO_CCACHE") else ""
    n.var("cxx", launcher + cxx)
    n.var("tblgen", DEB + "/bin/llvm-tblgen")
    n.lines.append("rule cxx\n  command = $cxx $flags -MD -MF $out.d -c $in -o $out\n"
                   "  depfile = $out.d\n  deps = gcc\n  description = CXX $in")
    # --write-if-changed + restat: a regenerated but identical file (the
    # patched tree is recreated when the series changes) rebuilds nothing.
    n.lines.append("rule tblgen\n  command = $tblgen $args --write-if-changed -d $out.d "
                   "-o $out $in\n  depfile = $out.d\n  deps = gcc\n  restat = 1\n"
                   "  description = TBLGEN $out")
    n.lines.append("rule ar\n  command = rm -f $out.tmp && cp $base $out.tmp && "
                   "ar r $out.tmp $in && mv $out.tmp $out\n  description = AR $out")
    n.lines.append("rule ar_merge\n  command = %s %s --merge-archive $out $base $in\n"
                   "  description = AR $out" % (shlex.quote(sys.executable),
                                                shlex.quote(os.path.abspath(__file__))))
    n.lines.append("rule ar_new\n  command = rm -f $out.tmp && ar qc $out.tmp $in && "
                   "ar s $out.tmp && mv $out.tmp $out\n  description = AR $out")
    n.lines.append("rule link\n  command = %s -fuse-ld=lld -o $out $in @$out.rsp\n"
                   "  rspfile = $out.rsp\n  rspfile_content = $libs\n"
                   "  description = LINK $out" % cxx)
    n.lines.append("rule devicertl\n  command = $cmd\n  description = DEVICERTL $archs\n"
                   "  pool = console")

    tblgen_outputs = []
    # Target .td changes: regenerate that target's tablegen output.
    for t in sorted(td_targets):
        tdir = "llvm/lib/Target/%s" % t
        for ofn, flags, td in tblgen_commands(src, tdir):
            o = os.path.join(gen, tdir, ofn)
            args = " ".join(flags + ["-I", os.path.join(src, tdir),
                                     "-I", os.path.join(src, "llvm/include"),
                                     "-I", os.path.join(src, "llvm/lib/Target"),
                                     "-I", DEB_INC])
            n.build([o], "tblgen", [os.path.join(src, tdir, td)],
                    variables={"args": args})
            tblgen_outputs.append(o)

    # Compiles that must rerun when a generated header appears or changes: the
    # depfiles of earlier builds name Debian's copy of Options.inc, not ours.
    # The diagnostic tables diagnostic_tables() wrote, likewise.
    regen_deps = list(diag_tables_written)
    if driver_options:
        opt_dir = driver_options_dir(src)
        o = os.path.join(gen, "include", os.path.relpath(opt_dir, "clang/include"),
                         "Options.inc")
        args = " ".join(["-gen-opt-parser-defs", "-I", os.path.join(src, "clang/include"),
                         "-I", DEB_INC])
        n.build([o], "tblgen", [os.path.join(src, opt_dir, "Options.td")],
                variables={"args": args})
        tblgen_outputs.append(o)
        regen_deps.append(o)

    # Private tables of the Clang libraries compiled here: Debian ships only
    # the public ones (under include/clang). The series changes none of
    # their .td files.
    lib_dirs = {library_dir(src, rel) for rel in tus}
    for lib_dir, tables in CLANG_LIB_TABLES.items():
        if lib_dir not in lib_dirs:
            continue
        for name, option, td in tables:
            o = os.path.join(gen, lib_dir, name)
            args = " ".join([option, "-I", os.path.join(src, os.path.dirname(td)),
                             "-I", os.path.join(src, "clang/include"), "-I", DEB_INC])
            n.build([o], "tblgen", [os.path.join(src, td)],
                    variables={"tblgen": DEB + "/bin/clang-tblgen", "args": args})
            tblgen_outputs.append(o)

    objs_by_archive = {}
    tool_objs = {}
    for rel in sorted(tus):
        arc = archive_of(src, rel)
        if not arc or not os.path.exists(os.path.join(DEB_LIB, arc)):
            die("cannot tell which of Debian's archives %s belongs to (found %s)" % (rel, arc))
        o = os.path.join(out, "obj", rel + ".o")
        flags = compile_flags(src, gen, rel) + per_file_defines(rel, version)
        n.build([o], "cxx", [os.path.join(src, rel)], implicit=regen_deps,
                order=tblgen_outputs,
                variables={"flags": " ".join(map(shlex.quote, flags))})
        objs_by_archive.setdefault(arc, []).append(o)

    # Archive copies with substituted members. Member names are the object
    # names CMake gives (<file>.cpp.o); `ar r` replaces or adds them.
    archive_paths = {}
    for arc, objs in sorted(objs_by_archive.items()):
        members = {}
        for o in objs:
            members.setdefault(os.path.basename(o), []).append(o)
        dup = [m for m, v in members.items() if len(v) > 1]
        a = os.path.join(out, "lib", arc)
        if sorted(archive_members(arc)) == sorted(os.path.basename(o) for o in objs):
            # Every member is rebuilt (a header all of them include changed):
            # a new archive, which also holds the members that share a name
            # (clangCodeGen's Targets/X86.cpp and TargetBuiltins/X86.cpp).
            n.build([a], "ar_new", objs)
        elif dup or any(archive_members(arc).count(m) > 1 for m in members):
            # `ar r` cannot tell apart Debian's members that share a name.
            n.build([a], "ar_merge", objs, variables={"base": os.path.join(DEB_LIB, arc)})
        else:
            # ar names members after the file; objects are named like CMake's.
            n.build([a], "ar", objs, variables={"base": os.path.join(DEB_LIB, arc)})
        archive_paths[arc] = a

    # Tool mains.
    for tool, (mains, opt_tds) in TOOLS.items():
        objs = []
        tool_gen = []
        for td in opt_tds:
            o = os.path.join(gen, os.path.dirname(td),
                             os.path.basename(td).replace(".td", ".inc"))
            n.build([o], "tblgen", [os.path.join(src, td)], variables={
                "args": "-gen-opt-parser-defs -I %s -I %s -I %s" % (
                    os.path.join(src, os.path.dirname(td)),
                    os.path.join(src, "llvm/include"), DEB_INC)})
            tool_gen.append(o)
        # Debian's Extension.def names Polly (not shipped): every tool that
        # pulls in the pass builder needs the stub.
        for m in mains + ["@gen/polly-stub.cpp"]:
            if m.startswith("@gen/"):
                path = os.path.join(gen, m[5:])
                # Generated mains compile like their tool's sources; the
                # Polly stub like clang's driver.
                rel = ("clang/tools/driver" if m == "@gen/polly-stub.cpp"
                       else os.path.dirname(mains[0])) + "/" + m[5:]
            else:
                path = os.path.join(src, m)
                rel = m
            o = os.path.join(out, "obj", "tools", tool, os.path.basename(rel) + ".o")
            flags = compile_flags(src, gen, rel)
            n.build([o], "cxx", [path], implicit=regen_deps, order=tool_gen + tblgen_outputs,
                    variables={"flags": " ".join(map(shlex.quote, flags))})
            objs.append(o)
        tool_objs[tool] = objs

    # Every Debian archive, substituted where the series changed members; lld
    # only pulls the members a tool needs. Polly is named by Debian's
    # Extension.def but not shipped: polly-stub.cpp stands in.
    archives = []
    for a in sorted(glob.glob(os.path.join(DEB_LIB, "lib*.a"))):
        b = os.path.basename(a)
        if not re.match(r"lib(LLVM|clang|lld)[A-Za-z0-9_]*\.a$", b) or "Polly" in b:
            continue
        archives.append(archive_paths.get(b, a))
    syslibs = [os.path.join(MULTIARCH, x) for x in
               ("libz.so.1", "libzstd.so.1", "libxml2.so.2", "libz3.so.4", "libtinfo.so.6",
                "libffi.so.8", "libedit.so.2")]
    libs = ["-Wl,--gc-sections", "-Wl,--start-group"] + archives + ["-Wl,--end-group"] + \
        [x for x in syslibs if os.path.exists(x)] + ["-lrt", "-ldl", "-lm", "-lpthread"]
    bins = []
    for tool, objs in tool_objs.items():
        b = os.path.join(out, "bin", tool)
        n.build([b], "link", objs, implicit=list(archive_paths.values()),
                variables={"libs": " ".join(libs)})
        bins.append(b)

    # DeviceRTL through its own CMakeLists.txt, with the patched tools.
    tc = os.path.join(out, "bin")
    rtl = os.path.join(out, "devicertl")
    if per_triple_devicertl(src):
        defaults = bins + write_devicertl_per_triple(n, out, src, tc, rtl, jobs)
    else:
        defaults = bins + write_devicertl_per_arch(n, src, tc, rtl, archs, jobs)

    # libomptarget through offload/'s standalone CMake build against Debian's
    # LLVM package (its libLLVM is what the library links, as Debian's does).
    # The DeviceRTL is not built there: the rule above builds ours.
    if host_offload:
        off = os.path.join(out, "offload")
        off_args = [
            "cmake", "-G", "Ninja", "-S", os.path.join(src, "offload"), "-B", off,
            "-DCMAKE_PROJECT_INCLUDE=" + os.path.join(ROOT, "scripts/cmake/offload-standalone.cmake"),
            "-DLLVM_DIR=" + DEB + "/lib/cmake/llvm", "-DCMAKE_BUILD_TYPE=Release",
            "-DCMAKE_C_COMPILER=" + DEB_CC, "-DCMAKE_CXX_COMPILER=" + DEB_CXX,
            "-DLIBOMPTARGET_PLUGINS_TO_BUILD=cuda;amdgpu;host",
            "-DLIBOMPTARGET_BUILD_DEVICERTL_BCLIB=OFF", "-DLIBOMPTARGET_OMPT_SUPPORT=ON",
            # Debian's RUNPATH ($ORIGIN), not the build tree's.
            "-DCMAKE_BUILD_WITH_INSTALL_RPATH=ON",
        ]
        if launcher:
            off_args += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache",
                         "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        env = launcher.replace(" ccache ", " ") if launcher else ""
        off_cmd = "mkdir -p %s && %s%s >%s/cmake.log && %sninja -C %s -j%d omptarget" % (
            off, env, " ".join(map(shlex.quote, off_args)), off, env, off, jobs)
        offsrc = sorted(f for f in glob.glob(os.path.join(src, "offload", "**", "*"),
                                             recursive=True)
                        if os.path.isfile(f) and
                        os.path.relpath(f, src).startswith(HOST_OFFLOAD_DIRS) and
                        "/test/" not in f)
        n.lines.append("rule offload\n  command = $cmd\n  description = LIBOMPTARGET\n"
                       "  pool = console")
        n.build([os.path.join(off, HOST_OFFLOAD_LIB)], "offload", offsrc,
                variables={"cmd": off_cmd})
        defaults.append(os.path.join(off, HOST_OFFLOAD_LIB))
    n.lines.append("default %s" % " ".join(map(ninja_escape, defaults)))
    path = os.path.join(out, "build.ninja")
    text = n.text()
    old = open(path).read() if os.path.exists(path) else None
    if old != text:
        with open(path, "w") as f:
            f.write(text)
    return objs_by_archive


def write_generated(gen):
    os.makedirs(os.path.join(gen, "include/clang/Basic"), exist_ok=True)
    files = {
        # Debian builds from a tarball: no VCS revision is recorded.
        "clang/lib/Basic/VCSVersion.inc": "// No VCS revision (Debian source build).\n",
        "clang-driver.cpp": (
            '#include "llvm/ADT/ArrayRef.h"\n#include "llvm/Support/InitLLVM.h"\n'
            '#include "llvm/Support/LLVMDriver.h"\n\n'
            "int clang_main(int argc, char **, const llvm::ToolContext &);\n\n"
            "int main(int argc, char **argv) {\n  llvm::InitLLVM X(argc, argv);\n"
            "  return clang_main(argc, argv, {argv[0], nullptr, false});\n}\n"),
        "lld-driver.cpp": (
            '#include "llvm/Support/InitLLVM.h"\n'
            '#include "llvm/Support/LLVMDriver.h"\n\n'
            "int lld_main(int argc, char **, const llvm::ToolContext &);\n\n"
            "int main(int argc, char **argv) {\n  llvm::InitLLVM X(argc, argv);\n"
            "  return lld_main(argc, argv, {argv[0], nullptr, false});\n}\n"),
        # Debian's Extension.def names Polly, which is not shipped as an archive.
        "polly-stub.cpp": (
            # LLVM 22 moved PassPlugin.h from llvm/Passes to llvm/Plugins.
            '#if __has_include("llvm/Plugins/PassPlugin.h")\n'
            '#include "llvm/Plugins/PassPlugin.h"\n#else\n'
            '#include "llvm/Passes/PassPlugin.h"\n#endif\n'
            "llvm::PassPluginLibraryInfo getPollyPluginInfo() {\n"
            '  return {LLVM_PLUGIN_API_VERSION, "Polly", "none (ompds overlay)",\n'
            "          [](llvm::PassBuilder &) {}};\n}\n"),
    }
    for rel, text in files.items():
        p = os.path.join(gen, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        write_if_changed(p, text.encode())


# --- prefix ------------------------------------------------------------------


def symlink(target, link):
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(target, link)


HOST_TRIPLE = "x86_64-pc-linux-gnu"


def assemble_prefix(out, prefix, archs, host_offload, per_triple):
    """build/toolchain: our tools and DeviceRTL, Debian's runtimes and headers.

    Runtimes go to lib/<host triple>/, the per-target runtime directory that
    clang searches next to its binary: the DeviceRTL and libomp are found with
    no LIBRARY_PATH and no flags, and Debian's DeviceRTL is never picked up."""
    note("assembling %s" % prefix)
    b = os.path.join(prefix, "bin")
    rt = os.path.join(prefix, "lib", HOST_TRIPLE)
    shutil.rmtree(rt, ignore_errors=True)
    os.makedirs(b, exist_ok=True)
    os.makedirs(rt)
    for t in TOOLS:
        dst = os.path.join(b, t)
        if os.path.lexists(dst):
            os.remove(dst)
        shutil.copy2(os.path.join(out, "bin", t), dst)
    for alias in ("clang++", "clang" + V, "clang-cpp", "clang-cl"):
        symlink("clang", os.path.join(b, alias))
    if RELINK_LLD:
        for alias in LLD_ALIASES:
            symlink("lld", os.path.join(b, alias))
    for t in DEBIAN_TOOLS:
        if RELINK_LLD and (t == "lld" or t in LLD_ALIASES):
            continue
        if os.path.exists(os.path.join(DEB, "bin", t)):
            symlink(os.path.join(DEB, "bin", t), os.path.join(b, t))
    # Host runtimes: Debian's, unchanged; libomptarget and its plugins too
    # unless the series changes them (then ours, built against Debian's
    # libLLVM).
    ours = os.path.join(out, "offload", HOST_OFFLOAD_LIB)
    names = {os.path.basename(f) for d in (DEB_LIB, UNPACKED_ROOT + DEB_LIB)
             for pat in ("libomp*.so*", "libarcher*.so") for f in glob.glob(os.path.join(d, pat))}
    for name in sorted(names):
        if host_offload and name.startswith("libomptarget.so"):
            continue
        f = system_file(os.path.join(DEB_LIB, name))
        if f:
            symlink(f, os.path.join(rt, name))
    if host_offload:
        shutil.copy2(ours, os.path.join(rt, HOST_OFFLOAD_LIB))
        symlink(HOST_OFFLOAD_LIB, os.path.join(rt, "libomptarget.so"))
        # Its RUNPATH is $ORIGIN, as Debian's: libLLVM next to it, as there.
        libllvm = "libLLVM.so." + base.SOVERSION
        symlink(os.path.join(DEB_LIB, libllvm), os.path.join(rt, libllvm))
    # Our DeviceRTL only: per architecture next to the host runtimes, or per
    # GPU triple in lib/<triple>, where the device link's -lompdevice finds it.
    if per_triple:
        for triple in DEVICE_TRIPLES:
            d = os.path.join(prefix, "lib", triple)
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            built = os.path.join(out, "devicertl", triple, "lib", triple)
            for f in glob.glob(os.path.join(built, "libompdevice.a")) + \
                    glob.glob(os.path.join(built, "libomptarget-*.bc")):
                shutil.copy2(f, os.path.join(d, os.path.basename(f)))
    else:
        rtl = os.path.join(out, "devicertl", "lib")
        for f in glob.glob(os.path.join(rtl, "libomptarget-*.bc")) + \
                [os.path.join(rtl, "libomptarget.devicertl.a")]:
            shutil.copy2(f, os.path.join(rt, os.path.basename(f)))
    # The resource directory (headers such as omp.h, compiler-rt): Debian's.
    resource_dir(os.path.join(prefix, "lib", "clang", base.MAJOR))
    # ROCm device libraries, found by clang next to its installation
    # (<prefix>/amdgcn/bitcode).
    os.makedirs(os.path.join(prefix, "amdgcn"), exist_ok=True)
    write_config_files(b)
    symlink(rocm_device_libs(), os.path.join(prefix, "amdgcn", "bitcode"))
    with open(os.path.join(prefix, "ompds-build.json"), "w") as f:
        json.dump({"mode": "overlay", "series_version": ser_version(),
                   "libomptarget": "ours" if host_offload else "debian",
                   "series_digest": series_digest(),
                   "device_archs": list(DEVICE_TRIPLES) if per_triple else archs.split(";")},
                  f, indent=1)


def rocm_device_libs():
    """The directory of ROCm's device library bitcode: Debian 12's package, or
    the one the base definition names, downloaded by URL (checked against its
    sha256) and unpacked into the cache."""
    if not ROCM_DEB:
        return os.path.join(MULTIARCH, "amdgcn", "bitcode")
    path, sha256, inner = (base.var("OMPDS_ROCM_DEVICE_LIBS_DEB"),
                           base.var("OMPDS_ROCM_DEVICE_LIBS_SHA256"),
                           base.var("OMPDS_ROCM_DEVICE_LIBS_DIR"))
    cache = os.path.join(base.CACHE, "rocm")
    deb = os.path.join(cache, os.path.basename(path))
    unpacked = deb[:-len(".deb")]
    bitcode = os.path.join(unpacked, inner.lstrip("/"))
    if os.path.exists(os.path.join(bitcode, "ocml.bc")):
        return bitcode
    os.makedirs(cache, exist_ok=True)
    run([os.path.join(ROOT, "scripts", "get-source"), "--fetch",
         "http://deb.debian.org/debian/" + path, deb, sha256])
    shutil.rmtree(unpacked, ignore_errors=True)
    run(["dpkg-deb", "-x", deb, unpacked])
    if not os.path.exists(os.path.join(bitcode, "ocml.bc")):
        die("%s has no %s/ocml.bc (OMPDS_ROCM_DEVICE_LIBS_DIR in %s)" % (deb, inner, base.CONF))
    return bitcode


def write_config_files(bindir):
    """clang.cfg/clang++.cfg next to clang (read by default since clang 16):
    executables find libomp and libomptarget without LD_LIBRARY_PATH. lit sets
    CLANG_NO_DEFAULT_CONFIG, so regression tests do not see it."""
    text = ("# ompds: OpenMP executables find this toolchain's runtimes\n"
            "# (lib/<triple>) through their RUNPATH.\n-frtlib-add-rpath\n")
    for name in ("clang.cfg", "clang++.cfg"):
        with open(os.path.join(bindir, name), "w") as f:
            f.write(text)


def ser_version():
    if STOCK:
        return "none (stock)"
    with open(os.path.join(ser.PATCHES, "VERSION")) as f:
        return f.read().strip()


# --- main --------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(
        os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build")), "overlay"))
    ap.add_argument("--prefix", default=os.path.join(
        os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build")), "toolchain"))
    ap.add_argument("--archs", default=os.environ.get("OMPDS_DEVICE_ARCHS", DEFAULT_ARCHS),
                    help="DeviceRTL architectures (default: %(default)s)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-install-packages", action="store_true",
                    help="fail instead of installing missing Debian packages")
    ap.add_argument("--dry-run", action="store_true",
                    help="print what would be compiled, build nothing")
    ap.add_argument("--stock", action="store_true",
                    help="build the base without the series (default --out "
                    "<build>/stock-overlay, --prefix <build>/stock): the stock "
                    "toolchain the tests and benchmarks compare with")
    ap.add_argument("--series-prefix", type=int, metavar="N",
                    help="apply only the first N patches of the series (the "
                    "per-position check of scripts/bisect-series); implies --no-stock")
    ap.add_argument("--no-stock", action="store_true",
                    help="do not assemble the stock toolchain as well (it is "
                    "assembled after ours when Debian's packages of the base "
                    "ship no DeviceRTL)")
    ap.add_argument("--check-identity", metavar="FILE", nargs="+",
                    help="compile these files of the unpatched Debian tree with the "
                    "overlay's flags and compare their code with Debian's archive "
                    "members (after a build, which made the generated headers); "
                    "'all': every library source the overlay compiles")
    ap.add_argument("--configure-devicertl", metavar="DIR",
                    help="only configure the DeviceRTL of the overlay tree in DIR for "
                    "NVPTX with the tools of --prefix, passing the remaining "
                    "arguments to CMake; print the ninja target and its bitcode")
    ap.add_argument("--merge-archive", nargs="+", metavar="ARG",
                    help=argparse.SUPPRESS)  # OUT BASE OBJ...: the build's ar_merge step
    args, extra = ap.parse_known_args()
    if args.merge_archive:
        merge_archive(args.merge_archive[0], args.merge_archive[1], args.merge_archive[2:])
        return 0
    if args.configure_devicertl:
        return configure_devicertl(os.path.join(os.path.abspath(args.out), "src"),
                                   os.path.join(os.path.abspath(args.prefix), "bin"),
                                   os.path.abspath(args.configure_devicertl), extra)
    if extra:
        ap.error("unrecognized arguments: %s" % " ".join(extra))
    if args.check_identity:
        return 1 if check_identity(ser.base_dir("debian"), os.path.abspath(args.out),
                                   args.check_identity) else 0
    if args.series_prefix is not None:
        global SERIES_PREFIX
        if not 0 < args.series_prefix <= len(ser.read_series()[1]):
            die("--series-prefix %d: the series has %d patches"
                % (args.series_prefix, len(ser.read_series()[1])))
        SERIES_PREFIX = args.series_prefix
        args.no_stock = True
    if args.stock:
        global STOCK
        STOCK = True
        build = os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build"))
        if args.out == ap.get_default("out"):
            args.out = os.path.join(build, "stock-overlay")
        if args.prefix == ap.get_default("prefix"):
            args.prefix = os.path.join(build, "stock")

    ensure_packages(not args.no_install_packages)
    check_debian_version()
    base_tree = ser.base_dir("debian")
    out = os.path.abspath(args.out)
    forget_other_base(out)
    os.makedirs(out, exist_ok=True)
    src, touched = prepare_source(out, base_tree, SRC_DIRS)
    tus, headers, td_targets, ignored = classify(src, touched)
    note("%d touched files need no compile of their own (tests, docs, DeviceRTL, "
         "library CMake files, tool mains)" % len(ignored))

    gen = os.path.join(out, "gen")
    graph = None
    if any(re.match(DIAG_TD_RE, rel) for rel in touched):
        graph = scan_includes(src)
        diag_headers, diag_tus = diagnostic_tables(src, gen, base_tree, graph)
        headers |= diag_headers
        tus |= diag_tus
    else:
        # Tables of an earlier series would shadow Debian's.
        for p in diag_generated(gen):
            os.remove(p)

    if FIXED_MD_DEF in headers:
        headers.discard(FIXED_MD_DEF)
        graph = graph or scan_includes(src)
        md_headers, md_tus = fixed_metadata_kinds(src, base_tree, graph)
        headers |= md_headers
        tus |= md_tus

    if headers:
        note("computing the include graph for %d touched headers" % len(headers))
        graph = graph or scan_includes(src)
        inc = includers(graph, headers, src)
        extra = {f for f in inc if f.startswith(("llvm/lib/", "clang/lib/"))
                 and f.endswith((".cpp", ".c"))}
        # Includers in libraries Debian does not build (ClangIR) are in no
        # archive the toolchain links: there is nothing to rebuild.
        unbuilt = {f for f in extra if archive_of(src, f)
                   and not os.path.exists(os.path.join(DEB_LIB, archive_of(src, f)))}
        if unbuilt:
            note("not rebuilt, though they include a touched header: %d sources of "
                 "libraries Debian does not build (%s)"
                 % (len(unbuilt), ", ".join(sorted({archive_of(src, f) for f in unbuilt}))))
        extra -= unbuilt
        tool_mains = {m for t in TOOLS.values() for m in t[0]}
        extra_tools = {f for f in inc if f.endswith((".cpp", ".c"))
                       and f.startswith(("llvm/tools/", "clang/tools/"))} - tool_mains
        if extra_tools:
            note("not relinked, though they include a touched header: %s"
                 % ", ".join(sorted(extra_tools)))
        if len(extra) > MAX_AFFECTED_TUS:
            die("the touched headers %s are included by %d library translation units; "
                "the overlay stops above %d.\n  Use scripts/build --mode full for this series."
                % (", ".join(sorted(headers)), len(extra), MAX_AFFECTED_TUS))
        tus |= extra
    for t in td_targets:
        for f in glob.glob(os.path.join(src, "llvm/lib/Target", t, "**", "*.cpp"),
                           recursive=True):
            tus.add(os.path.relpath(f, src))
    # Target sources include their tablegen output, which Debian does not
    # ship: generate it for every target something is compiled in.
    td_targets |= {rel.split("/")[3] for rel in tus if rel.startswith("llvm/lib/Target/")}

    write_generated(gen)
    version = ser_version()
    host_offload = touches_host_offload(touched)
    driver_options = driver_options_dir(src) + "/Options.td" in touched
    if not driver_options:
        # The Options.inc of an earlier series (another bisect position) would
        # shadow Debian's.
        stale = os.path.join(gen, "include", os.path.relpath(driver_options_dir(src),
                                                             "clang/include"), "Options.inc")
        if os.path.exists(stale):
            os.remove(stale)
    by_archive = write_ninja(out, src, gen, tus, td_targets, args.archs, version, args.jobs,
                             host_offload, driver_options, diag_generated(gen))
    note("series %s: %d translation units into %d archives, %d tools, DeviceRTL for %s%s"
         % (version, len(tus), len(by_archive), len(TOOLS),
            " and ".join(DEVICE_TRIPLES) if per_triple_devicertl(src) else args.archs,
            ", libomptarget" if host_offload else ""))
    for arc, objs in sorted(by_archive.items()):
        note("  %s: %s" % (arc, ", ".join(os.path.basename(o)[:-2] for o in objs)))
    if args.dry_run:
        return 0
    link_compiler_support(out)
    run(["ninja", "-C", out, "-j", str(args.jobs)])
    assemble_prefix(out, os.path.abspath(args.prefix), args.archs, host_offload,
                    per_triple_devicertl(src))
    note("done: %s/bin/clang" % os.path.abspath(args.prefix))
    if base.STOCK_PREFIX and not STOCK and not args.no_stock:
        note("Debian's packages of %s ship no DeviceRTL: assembling the stock "
             "toolchain as well (--no-stock skips it)" % base.LLVM_VERSION)
        run([sys.executable, os.path.abspath(__file__), "--stock", "--no-install-packages",
             "-j", str(args.jobs)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
