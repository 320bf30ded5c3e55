"""--check-identity: whether the overlay's flags reproduce Debian's archive
members from the unpatched tree."""

import glob
import os
import re
import shutil
import subprocess

from util import die

from .archives import archive_members
from .config import DEB, DEB_CXX, DEB_LIB
from .helpers import run
from .includes import archive_of
from .ninja import compile_flags


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
