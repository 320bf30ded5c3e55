"""The patched source tree: which patches the build applies (all, a prefix of
the series, or none for the stock toolchain), their digest and version, and
<out>/src, Debian's base tree with them applied."""

import hashlib
import json
import os
import shutil
import subprocess

import base
import series as ser
from util import die, note

from . import state
from .helpers import run


def series_names():
    """The patches the build applies: the series (its first SERIES_PREFIX
    patches), or none with --stock."""
    if state.STOCK:
        return []
    names = ser.read_series()[1]
    return names if state.SERIES_PREFIX is None else names[:state.SERIES_PREFIX]


def series_digest():
    h = hashlib.sha256()
    names = series_names()
    if state.STOCK:
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


def ser_version():
    if state.STOCK:
        return "none (stock)"
    with open(os.path.join(ser.PATCHES, "VERSION")) as f:
        return f.read().strip()
