#!/usr/bin/env python3
"""The overlay's include graph resolves includes as the compiler does where it
can (scripts/lib/overlay.py: includers): a touched header with a common name
must not pull in unrelated libraries, and nothing that really includes it may
be missed.  Runs on a small synthetic tree."""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import overlay  # noqa: E402

FILES = {
    # A library of the AMDGPU target; "AMDGPU.h" is the target's own header.
    "llvm/lib/Target/AMDGPU/CMakeLists.txt": "add_llvm_target(AMDGPUCodeGen\n",
    "llvm/lib/Target/AMDGPU/AMDGPU.h": "",
    "llvm/lib/Target/AMDGPU/Utils/CMakeLists.txt":
        "add_llvm_component_library(LLVMAMDGPUUtils\n",
    "llvm/lib/Target/AMDGPU/Utils/Base.cpp": '#include "AMDGPU.h"\n',
    # The driver's AMDGPU.h, which the touched header reaches.
    "clang/lib/Driver/CMakeLists.txt": "add_clang_library(clangDriver\n",
    "clang/include/clang/Driver/Options.h": "",
    "clang/lib/Driver/ToolChains/AMDGPU.h": '#include "clang/Driver/Options.h"\n',
    "clang/lib/Driver/ToolChains/AMDGPU.cpp": '#include "AMDGPU.h"\n',
    "clang/lib/Driver/ToolChains/Arch/X.cpp": '#include "ToolChains/AMDGPU.h"\n',
    # A tool (no library): its include path is unknown, so it over-approximates.
    "llvm/tools/t/t.cpp": '#include "AMDGPU.h"\n',
}


def main():
    with tempfile.TemporaryDirectory() as src:
        for rel, text in FILES.items():
            os.makedirs(os.path.join(src, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(src, rel), "w") as f:
                f.write(text)
        graph = overlay.scan_includes(src)
        got = overlay.includers(graph, {"clang/include/clang/Driver/Options.h"}, src)
    want = {"clang/lib/Driver/ToolChains/AMDGPU.h",
            "clang/lib/Driver/ToolChains/AMDGPU.cpp",
            "clang/lib/Driver/ToolChains/Arch/X.cpp",
            "llvm/tools/t/t.cpp"}
    if got != want:
        print("overlay-includes: FAIL\n  got:  %s\n  want: %s" % (sorted(got), sorted(want)))
        return 1
    print("PASS: overlay include resolution (library search order, tool fallback)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
