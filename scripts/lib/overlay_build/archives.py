"""Debian's static archives: their members, and the merge of recompiled
objects into a copy of one in Debian's member order (--merge-archive)."""

import functools
import os
import subprocess
import tempfile

from util import die

from .config import DEB_LIB


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
