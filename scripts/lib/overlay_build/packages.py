"""Debian's packages of the base: installing the missing ones (never removing
one of the host's), unpacking those that conflict with other LLVM versions
into the cache, finding files in either, and checking Debian's version."""

import glob
import os
import shutil
import subprocess

import base
from util import die, note

from .config import EXTRA_PACKAGES, PACKAGES, UNPACKED_PACKAGES, UNPACKED_ROOT, V
from .helpers import run


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
