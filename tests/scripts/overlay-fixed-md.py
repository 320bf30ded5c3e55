#!/usr/bin/env python3
"""The overlay rebuilds what a metadata kind appended to FixedMetadataKinds.def
changes (scripts/lib/overlay.py: fixed_metadata_kinds): LLVMContext.cpp and
the sources and headers that spell a new enumerator, nothing else; any other
change to the list stops the build. Runs on small synthetic trees."""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import overlay  # noqa: E402

DEF = overlay.FIXED_MD_DEF
BASE = ('LLVM_FIXED_MD_KIND(MD_dbg, "dbg", 0)\n'
        'LLVM_FIXED_MD_KIND(MD_tbaa, "tbaa", 1)\n')
OTHER = {
    "llvm/include/llvm/IR/LLVMContext.h": '#include "llvm/IR/FixedMetadataKinds.def"\n',
    "llvm/lib/IR/LLVMContext.cpp": '#include "llvm/IR/LLVMContext.h"\n',
    "llvm/lib/IR/Verifier.cpp": '#include "llvm/IR/LLVMContext.h"\nint x = MD_new;\n',
    "llvm/lib/IR/Other.cpp": '#include "llvm/IR/LLVMContext.h"\nint y = MD_tbaa;\n',
    "llvm/include/llvm/IR/User.h": "inline int z() { return MD_new; }\n",
    "clang/lib/CodeGen/Newer.cpp": "int w = MD_newer_kind;\n",
}


def tree(root, fixed):
    for rel, text in dict(OTHER, **{DEF: fixed}).items():
        os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)


def run(fixed):
    with tempfile.TemporaryDirectory() as tmp:
        base, src = os.path.join(tmp, "base"), os.path.join(tmp, "src")
        tree(base, BASE)
        tree(src, fixed)
        try:
            return overlay.fixed_metadata_kinds(src, base, overlay.scan_includes(src))
        except SystemExit:
            return "refused"


def main():
    failures = []

    def expect(what, got, want):
        if got != want:
            failures.append("%s: got %r, want %r" % (what, got, want))

    expect("two kinds appended",
           run(BASE + 'LLVM_FIXED_MD_KIND(MD_new, "new", 2)\n'
                      'LLVM_FIXED_MD_KIND(MD_newer_kind, "newer", 3)\n'),
           ({"llvm/include/llvm/IR/User.h"},
            {"llvm/lib/IR/LLVMContext.cpp", "llvm/lib/IR/Verifier.cpp",
             "clang/lib/CodeGen/Newer.cpp"}))
    expect("nothing appended", run(BASE), (set(), {"llvm/lib/IR/LLVMContext.cpp"}))
    expect("appended with a gap in the numbers",
           run(BASE + 'LLVM_FIXED_MD_KIND(MD_new, "new", 3)\n'), "refused")
    expect("inserted before the last kind",
           run('LLVM_FIXED_MD_KIND(MD_dbg, "dbg", 0)\n'
               'LLVM_FIXED_MD_KIND(MD_new, "new", 1)\n'
               'LLVM_FIXED_MD_KIND(MD_tbaa, "tbaa", 2)\n'), "refused")
    expect("a kind renamed",
           run('LLVM_FIXED_MD_KIND(MD_dbg, "dbg", 0)\n'
               'LLVM_FIXED_MD_KIND(MD_tbaa, "tbaa.x", 1)\n'), "refused")
    if failures:
        print("\n".join(failures))
        return 1
    print("fixed metadata kinds: appended kinds rebuild their users only; "
          "other changes are refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
