"""LLVM's fixed metadata kinds: which sources a kind appended to
FixedMetadataKinds.def changes (any other change to the list is refused)."""

import os
import re

from util import die, note

from .includes import spelling_users

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
    if not names:
        return set(), {"llvm/lib/IR/LLVMContext.cpp"}
    use = re.compile(rb"\b(?:%s)\b" % b"|".join(names))
    headers, tus = spelling_users(src, graph, use.search, skip={FIXED_MD_DEF})
    return headers, tus | {"llvm/lib/IR/LLVMContext.cpp"}
