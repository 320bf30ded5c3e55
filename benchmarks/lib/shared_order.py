#!/usr/bin/env python3
"""Shared memory of each kernel under both NVIDIA link paths, per .shared order.

    python3 benchmarks/lib/shared_order.py [-j N] [--opt O0,O2] [PROGRAM...]

For every benchmark program (benchmarks/lib/programs.py; fig5 only with 1
and 64 scalars when none is named), builds the sm_90 device code with ompds
(build/toolchain) twice, keeping the PTX the device link assembles, with
-nvptx-shared-variable-order=ir (as without patch
NVPTX-Define-shared-variables-in-an-order-that-leaves-little-padding) and
=whole-program (what the ompds whole-program link asks for). Measures each
kernel's static shared memory as a whole program (ptxas without -c, what
the ompds link does) and as a relocatable object linked by nvlink (ptxas
-c, then nvlink: upstream's path and ompds' fallback, which keep the IR
order; sm_90's 1 KiB reserve subtracted). Prints, per kernel whose numbers
differ, both paths in both orders, and the totals of all kernels.

Needs /usr/local/cuda/bin (ptxas, nvlink). Exit status 2 when a tool is
missing or a build fails.
"""

import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import programs  # noqa: E402

CUDA = "/usr/local/cuda/bin"


def die(msg):
    print("error: " + msg, file=sys.stderr)
    sys.exit(2)


def smem_per_kernel(log, kernel_re, reserve=0):
    """{kernel: bytes} from the first 'N bytes smem' after each line that
    kernel_re names a kernel in, less reserve."""
    out, kernel = {}, None
    for line in log.splitlines():
        m = re.search(kernel_re, line)
        if m:
            kernel = m.group(1)
        m = re.search(r"(\d+) bytes smem", line)
        if m and kernel:
            out.setdefault(kernel, int(m.group(1)) - reserve)
            kernel = None
    return out


def smem(ptx_path, work):
    """{kernel: (whole, nvlink)} static shared bytes of one PTX file."""
    def run(cmd):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            die("%s failed:\n%s" % (" ".join(cmd), r.stderr[-2000:]))
        return r.stdout + r.stderr
    whole = smem_per_kernel(
        run([CUDA + "/ptxas", "-arch=sm_90", "-v", ptx_path, "-o",
             os.path.join(work, "w.cubin")]),
        r"Compiling entry function '([^']+)'")
    run([CUDA + "/ptxas", "-arch=sm_90", "-c", ptx_path, "-o",
         os.path.join(work, "r.o")])
    # nvlink counts sm_90's 1 KiB reserve in each kernel's shared memory.
    linked = smem_per_kernel(
        run([CUDA + "/nvlink", "-arch=sm_90", "-v", os.path.join(work, "r.o"),
             "-o", os.path.join(work, "r.out")]),
        r"Function properties for '?([^'\s]+)'?", reserve=1024)
    return {k: (whole[k], linked.get(k)) for k in whole}


def build_ptx(prog, opt, clang, work, extra):
    """Builds prog and returns the path of its device PTX."""
    srcs = [os.path.join(ROOT, "benchmarks", s) for s in prog.omp]
    cmd = [clang, "-fopenmp", "--offload-arch=sm_90", "-" + opt,
           "-I" + os.path.join(ROOT, "benchmarks", "common"),
           "-Xoffload-linker", "--save-temps", "-o",
           os.path.join(work, "a.out")] + extra + prog.defines + srcs + prog.libs
    r = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
    if r.returncode:
        die("building %s -%s failed:\n%s" % (prog.name, opt, r.stderr[-2000:]))
    ptxs = programs.linked_ptx(glob.glob(os.path.join(work, "*nvptx64*sm_90*.s")))
    if len(ptxs) != 1:
        die("%s -%s: expected one device PTX, found %s" % (prog.name, opt, ptxs))
    return ptxs[0]


def measure(prog, opt, clang):
    res = {}
    for order in ("ir", "whole-program"):
        work = tempfile.mkdtemp(prefix="shared-order-")
        extra = ["-Xoffload-linker", "-mllvm", "-Xoffload-linker",
                 "-nvptx-shared-variable-order=" + order]
        try:
            res[order] = smem(build_ptx(prog, opt, clang, work, extra), work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return [(prog.name, opt, k, res["ir"][k], res["whole-program"][k])
            for k in sorted(res["ir"])]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--opt", default="O0,O2")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    clang = os.path.join(ROOT, "build", "toolchain", "bin", "clang")
    for tool in (clang, CUDA + "/ptxas", CUDA + "/nvlink"):
        if not os.path.exists(tool):
            die("%s is missing (build the toolchain with scripts/build; CUDA "
                "under /usr/local/cuda)" % tool)
    progs = [p for p in programs.all_programs(sweep=[1, 64])
             if (p.name in args.names if args.names else p.family != "fig5"
                 or p.name in ("fig5-n1-in", "fig5-n64-in"))]
    jobs = [(p, o) for p in progs for o in args.opt.split(",")]
    rows = []
    with concurrent.futures.ThreadPoolExecutor(args.j) as ex:
        for res in ex.map(lambda j: measure(j[0], j[1], clang), jobs):
            rows += res
    print("| program | -O | kernel | IR order: ptxas | nvlink "
          "| whole-program order: ptxas | nvlink |")
    print("|---|---|---|---|---|---|---|")
    tot = [0, 0, 0, 0]
    for name, opt, k, ir, whole in rows:
        vals = [ir[0], ir[1] or 0, whole[0], whole[1] or 0]
        tot = [a + b for a, b in zip(tot, vals)]
        if ir != whole:
            print("| %s | %s | %s | %d | %d | %d | %d |"
                  % ((name, opt, k[-40:]) + tuple(vals)))
    print("| **all %d kernels** | | | %d | %d | %d | %d |"
          % ((len(rows),) + tuple(tot)))

if __name__ == "__main__":
    main()
