"""The prefix (build/toolchain, build/stock): assembling the relinked tools,
the DeviceRTL, Debian's tools and runtimes, Clang's resource directory, ROCm's
device libraries and the configuration files."""

import glob
import json
import os
import shutil

import base
from util import die, note

from .config import (DEB, DEB_LIB, DEBIAN_TOOLS, DEVICE_TRIPLES, HOST_OFFLOAD_LIB,
                     LLD_ALIASES, MULTIARCH, RELINK_LLD, ROCM_DEB, ROOT, TOOLS,
                     UNPACKED_ROOT, V)
from .helpers import run, symlink
from .hostomp import HOST_LIBOMP, HOST_LIBOMP_NAMES
from .packages import system_file
from .source import ser_version, series_digest

HOST_TRIPLE = "x86_64-pc-linux-gnu"


def assemble_prefix(out, prefix, archs, host_offload, per_triple, host_libomp=False):
    """build/toolchain: our tools and DeviceRTL, Debian's runtimes and headers
    (with host_libomp, the libomp that write_host_libomp built instead of
    Debian's).

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
    # libLLVM); libomp the base's own (hostomp.py says why) unless stock.
    ours = os.path.join(out, "offload", HOST_OFFLOAD_LIB)
    names = {os.path.basename(f) for d in (DEB_LIB, UNPACKED_ROOT + DEB_LIB)
             for pat in ("libomp*.so*", "libarcher*.so") for f in glob.glob(os.path.join(d, pat))}
    for name in sorted(names):
        if host_offload and name.startswith("libomptarget.so"):
            continue
        if host_libomp and name in HOST_LIBOMP_NAMES:
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
    if host_libomp:
        shutil.copy2(os.path.join(out, "libomp", HOST_LIBOMP),
                     os.path.join(rt, HOST_LIBOMP_NAMES[0]))
        for name in HOST_LIBOMP_NAMES[1:]:
            symlink(HOST_LIBOMP_NAMES[0], os.path.join(rt, name))
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
                   "libomp": "base" if host_libomp else "debian",
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
