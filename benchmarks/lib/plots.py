#!/usr/bin/env python3
"""PNG plots of benchmarks/run-static's or benchmarks/run-gpu's CSV (ompds);
needs matplotlib.

    plots.py static.csv OUTDIR
    plots.py gpu.csv OUTDIR      # gpu_O2.png, gpu_O0.png: device time / CUDA's

run-static calls it with a Python that has matplotlib (Debian's
python3-matplotlib), run-gpu with the Python that runs it when that has
matplotlib; it can also be rerun by hand on a CSV.
"""

import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from report import num  # noqa: E402

STYLE = {  # (compiler, opt) -> line style
    ("stock", "-O0"): dict(color="tab:red", ls="--", marker="o"),
    ("stock", "-O2"): dict(color="tab:red", ls="-", marker="o"),
    ("ompds", "-O0"): dict(color="tab:blue", ls="--", marker="s"),
    ("ompds", "-O2"): dict(color="tab:blue", ls="-", marker="s"),
    ("nvcc", "-O0"): dict(color="tab:green", ls="--", marker="^"),
    ("nvcc", "-O2"): dict(color="tab:green", ls="-", marker="^"),
}


def measured(r):
    return r["role"] == "main" and (r["status"] == "ok" or r["method"])


def fig5_sweep(rows, arch, fields, out):
    sel = [r for r in rows if r["family"] == "fig5" and r["arch"] == arch
           and measured(r)]
    if not sel:
        return None
    fig, axes = plt.subplots(len(fields), 2, figsize=(11, 3.6 * len(fields)),
                             squeeze=False)
    for col, side in enumerate(("in", "out")):
        for row, (field, title) in enumerate(fields):
            ax = axes[row][col]
            for (comp, opt), st in STYLE.items():
                pts = sorted((int(r["program"].split("-")[1][1:]), num(r[field]))
                             for r in sel if r["compiler"] == comp
                             and r["opt"] == opt and r["program"].endswith(side)
                             and num(r[field]) is not None)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts],
                            label="%s %s" % (comp, opt), ms=3, lw=1.2, **st)
            ax.set_title("%s; scalars declared %s" % (
                title, "in the target region" if side == "in" else "in the host function"),
                fontsize=9)
            ax.set_xlabel("N (shared scalars)")
            ax.grid(alpha=0.3)
            if row == 0 and col == 0:
                ax.legend(fontsize=7)
    fig.suptitle("seeds/fig5.c on %s (main kernel)" % arch)
    fig.tight_layout()
    path = os.path.join(out, "fig5_%s.png" % arch.replace("_", ""))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def program_bars(rows, arch, fields, out):
    sel = [r for r in rows if r["family"] != "fig5" and r["arch"] == arch
           and measured(r)]
    if not sel:
        return None
    progs = []
    for r in sel:
        if r["program"] not in progs:
            progs.append(r["program"])
    series = [(c, o) for (c, o) in STYLE if any(
        r["compiler"] == c and r["opt"] == o for r in sel)]
    fig, axes = plt.subplots(len(fields), 1, figsize=(12, 3.4 * len(fields)),
                             squeeze=False)
    w = 0.8 / max(1, len(series))
    for i, (field, title) in enumerate(fields):
        ax = axes[i][0]
        for j, (comp, opt) in enumerate(series):
            xs, ys = [], []
            for k, p in enumerate(progs):
                for r in sel:
                    if r["program"] == p and r["compiler"] == comp and \
                            r["opt"] == opt and num(r[field]) is not None:
                        xs.append(k + (j - (len(series) - 1) / 2) * w)
                        ys.append(num(r[field]))
            ax.bar(xs, ys, width=w, label="%s %s" % (comp, opt),
                   color=STYLE[(comp, opt)]["color"],
                   alpha=0.45 if opt == "-O0" else 0.9)
        ax.set_xticks(range(len(progs)))
        ax.set_xticklabels(progs, rotation=30, ha="right", fontsize=7)
        ax.set_title(title, fontsize=9)
        ax.grid(axis="y", alpha=0.3)
        if i == 0:
            ax.legend(fontsize=7, ncol=3)
    fig.suptitle("programs on %s (main kernel)" % arch)
    fig.tight_layout()
    path = os.path.join(out, "programs_%s.png" % arch.replace("_", ""))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def gpu_bars(rows, opt, out):
    """Device time of stock and ompds over the CUDA twin's, per program, on a
    log scale (1 = CUDA's time), for the programs with a CUDA twin; programs
    without one get ompds over stock."""
    sel = [r for r in rows if r["opt"] == opt and num(r.get("ompds dev us")) is not None]
    if not sel:
        return None
    fig, ax = plt.subplots(figsize=(13, 4.2))
    names = [r["program"] for r in sel]
    w = 0.4
    for j, (comp, color) in enumerate((("stock", "tab:red"), ("ompds", "tab:blue"))):
        xs, ys = [], []
        for k, r in enumerate(sel):
            cuda = num(r["CUDA dev us"])
            if not cuda and comp == "stock":
                continue  # stock is the baseline of a program without a twin
            base = cuda or num(r["stock dev us"])
            t = num(r["%s dev us" % comp])
            if base and t:
                xs.append(k + (j - 0.5) * w)
                ys.append(t / base)
        ax.bar(xs, ys, width=w, color=color, label=comp)
    ax.axhline(1.0, color="tab:green", lw=1, label="CUDA (nvcc -O2) = 1")
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=40, ha="right", fontsize=7)
    ax.set_ylabel("device time / CUDA's (ompds / stock without a twin)", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("device time at %s (CUPTI, median)" % opt, fontsize=9)
    fig.tight_layout()
    path = os.path.join(out, "gpu_%s.png" % opt.replace("-", ""))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if rows and "ompds dev us" in rows[0]:
        for p in (gpu_bars(rows, "-O2", out), gpu_bars(rows, "-O0", out)):
            if p:
                print(p)
        return
    made = [
        fig5_sweep(rows, "sm_90", [("regs", "registers"),
                                   ("smem", "static smem (B, no 1 KiB reserve)")], out),
        fig5_sweep(rows, "gfx90a", [("vgpr", "VGPRs"), ("lds", "LDS (B)")], out),
        program_bars(rows, "sm_90", [("regs", "registers"),
                                     ("smem", "static shared memory (B, without reserve)"),
                                     ("stack", "stack (B)")], out),
        program_bars(rows, "gfx90a", [("vgpr", "VGPRs"), ("lds", "LDS (B)"),
                                      ("scratch", "scratch (B)")], out),
    ]
    for p in made:
        if p:
            print(p)


if __name__ == "__main__":
    main()
