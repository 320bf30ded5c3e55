#!/usr/bin/env python3
"""The stock results cache of scripts/lib/lit_suites.py (--cache,
scripts/lib/lit_cache.py): a suite's
key changes with each thing its results depend on (a test, an Inputs file
beside a test, a lit.local.cfg above it, the tree's lit configuration, lit
itself, a tool of the bin directory, --ptxas) and not with files the suite
does not read. Runs on a small synthetic tree; no lit run."""
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import lit_cache  # noqa: E402
import lit_suites  # noqa: E402

FILES = {
    "llvm/utils/lit/lit/__init__.py": "__version__ = '1'\n",
    "llvm/test/lit.cfg.py": "config.name = 'LLVM'\n",
    "llvm/test/CodeGen/lit.local.cfg": "# above the suite\n",
    "llvm/test/CodeGen/X/a.ll": "; RUN: true\n",
    "llvm/test/CodeGen/X/Inputs/i.ll": "; input\n",
    "llvm/test/CodeGen/X/lit.local.cfg": "# the suite's\n",
    "llvm/test/CodeGen/Y/b.ll": "; RUN: true\n",
    "llvm/test/Other/c.ll": "; RUN: true\n",
    "bin/opt": "tool",
}


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        for rel, text in FILES.items():
            os.makedirs(os.path.join(src, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(src, rel), "w") as f:
                f.write(text)
        bindir = os.path.join(src, "bin")

        def key(paths=("llvm/test/CodeGen/X/a.ll",), ptxas=""):
            return lit_cache.suite_key(src, bindir, "x", list(paths), ptxas,
                                       lit_suites.TEST_TREES, [lit_suites.__file__])

        def edit(rel, text="changed\n"):
            path = os.path.join(src, rel)
            with open(path) as f:
                old = f.read()
            with open(path, "w") as f:
                f.write(text)
            return path, old

        base = key()
        if key() != base:
            failures.append("the key is not stable")
        for rel in ("llvm/test/CodeGen/Y/b.ll", "llvm/test/Other/c.ll"):
            path, old = edit(rel)
            if key() != base:
                failures.append("%s is not read by the suite but changes its key" % rel)
            edit(rel, old)
        for rel in ("llvm/test/CodeGen/X/a.ll", "llvm/test/CodeGen/X/Inputs/i.ll",
                    "llvm/test/CodeGen/X/lit.local.cfg", "llvm/test/CodeGen/lit.local.cfg",
                    "llvm/test/lit.cfg.py", "llvm/utils/lit/lit/__init__.py"):
            path, old = edit(rel)
            if key() == base:
                failures.append("a change to %s keeps the key" % rel)
            edit(rel, old)
        if key() != base:
            failures.append("restoring every file does not restore the key")
        tool = os.path.join(bindir, "opt")
        os.utime(tool, (time.time() + 100, time.time() + 100))
        if key() == base:
            failures.append("a newer tool keeps the key")
        base = key()
        if key(ptxas="/usr/local/cuda/bin/ptxas") == base:
            failures.append("--ptxas keeps the key")
        if key(paths=("llvm/test/CodeGen/X",)) == key(paths=("llvm/test/CodeGen/Y",)):
            failures.append("two suites share a key")
    if failures:
        print("\n".join(failures))
        return 1
    print("lit stock cache: the key follows the tests, their inputs and configs, lit "
          "and the tools, and nothing else")
    return 0


if __name__ == "__main__":
    sys.exit(main())
