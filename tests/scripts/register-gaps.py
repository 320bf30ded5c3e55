#!/usr/bin/env python3
"""benchmarks/register-gaps on a hand-made static.csv: it finds each kind of
gap, a reason explains a gap only up to its figure, and a malformed reason
is an input error."""

import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "benchmarks", "register-gaps")
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "lib"))
from report import COLUMNS  # noqa: E402

K = "__omp_offloading_fe00_1234_%s_l10"


def row(prog, opt, comp, kernel, regs, spill=0, role="main", arch="sm_90"):
    r = dict.fromkeys(COLUMNS, "")
    r.update(program=prog, arch=arch, opt=opt, compiler=comp, status="ok",
             kernel=kernel, role=role, regs=regs, spill_st=spill,
             spill_ld=spill)
    return r


ROWS = [
    # ompds above stock at -O0 (a "stock" gap), not a "cuda" one (-O0)
    row("p-stock", "-O0", "stock", K % "f", 40),
    row("p-stock", "-O0", "ompds", K % "f", 44),
    row("p-stock", "-O0", "nvcc", "_Z1kv", 10),
    # spills where stock has none; fewer registers than stock
    row("p-spill", "-O2", "stock", K % "f", 80),
    row("p-spill", "-O2", "ompds", K % "f", 48, spill=8),
    # spills where stock spills too: no gap
    row("p-spill", "-O0", "stock", K % "f", 80, spill=100),
    row("p-spill", "-O0", "ompds", K % "f", 48, spill=8),
    # 1.25x nvcc at -O2 in the main kernel, none in the other one
    row("p-cuda", "-O2", "stock", K % "f", 90),
    row("p-cuda", "-O2", "ompds", K % "f", 50),
    row("p-cuda", "-O2", "stock", K % "g", 90, role="other"),
    row("p-cuda", "-O2", "ompds", K % "g", 60, role="other"),
    row("p-cuda", "-O2", "nvcc", "_Z1kv", 40),
    # exactly 1.2x: no gap; other architectures are not looked at
    row("p-ok", "-O2", "stock", K % "f", 90),
    row("p-ok", "-O2", "ompds", K % "f", 48),
    row("p-ok", "-O2", "nvcc", "_Z1kv", 40),
    row("p-ok", "-O2", "stock", K % "f", 10, arch="gfx90a"),
    row("p-ok", "-O2", "ompds", K % "f", 20, arch="gfx90a"),
]

HEAD = "| programs (regex) | opt | gap | up to | why |\n|---|---|---|---|---|\n"


def run(tmp, reasons):
    path = os.path.join(tmp, "reasons.md")
    with open(path, "w") as f:
        f.write(HEAD + reasons)
    p = subprocess.run([TOOL, "--current", os.path.join(tmp, "static.csv"),
                        "--reasons", path], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    failures = []

    def check(cond, what, out):
        if not cond:
            failures.append("%s\n%s" % (what, out))

    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "static.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(ROWS)

        rc, out = run(tmp, "")
        check(rc == 1, "gaps without reasons fail", out)
        check("3 gaps, 3 of them without a reason: 1 stock, 1 spills, 1 cuda"
              in out, "each kind found once", out)
        check("p-ok" not in out.split("reasons no gap")[1],
              "no gap at 1.2x or on gfx90a", out)

        full = ("| `p-stock` | -O0 | stock | 44 | why |\n"
                "| `p-spill` | * | spills | 16 | why |\n"
                "| `p-c.*` | -O2 | cuda | 50 | why |\n")
        rc, out = run(tmp, full)
        check(rc == 0 and "0 of them without a reason" in out,
              "every gap explained", out)

        rc, out = run(tmp, full.replace("| cuda | 50 |", "| cuda | 49 |"))
        check(rc == 1 and "| p-cuda | -O2 | f | registers, nvcc | 50 | 40 | "
              "**none** |" in out, "a reason covers up to its figure", out)

        rc, out = run(tmp, full + "| `p-never` | -O2 | stock | 10 | why |\n")
        check(rc == 0 and "line 6" in out, "an unused reason is reported", out)

        for bad in ("| `p` | -O2 | regs | 10 | why |\n",
                    "| `p` | -O2 | stock | ten | why |\n",
                    "| `p(` | -O2 | stock | 10 | why |\n",
                    "| `p` | -O2 | stock | 10 |\n"):
            rc, out = run(tmp, bad)
            check(rc == 2 and "error" in out,
                  "malformed reason %r is an input error" % bad, out)

    if failures:
        print("register-gaps: FAIL\n" + "\n".join(failures))
        return 1
    print("register-gaps: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
