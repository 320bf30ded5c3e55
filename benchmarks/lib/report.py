"""CSV and Markdown output of benchmarks/run-static (ompds)."""

import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "scripts", "lib"))
import base  # noqa: E402  (the series' base: scripts/base.conf)

COLUMNS = [
    "program", "family", "defines", "arch", "opt", "compiler", "method",
    "status", "kernel", "role", "exec_mode", "regs", "smem", "smem_rsv",
    "smem_raw", "stack", "spill_st", "spill_ld", "vgpr", "sgpr", "agpr", "lds",
    "scratch", "dyn_stack", "vgpr_spill", "sgpr_spill", "alloc_shared",
    "malloc", "bar_sync", "build_s",
]

# The stock LLVM 19.1.7 figures the ompds issues quote, and where run-static
# measures them.  paper-fig5-n1-in is Figure 5 of the 2017 paper with c1
# declared inside the teams region: the form that gives all the quoted
# numbers (the figure as printed, paper-fig5-n1-out, differs at -O2).
QUOTED = [
    ("Fig. 5, 1 scalar, sm_90 -O0: registers", "paper-fig5-n1-in", "sm_90", "-O0", "stock", "regs", 59),
    ("Fig. 5, 1 scalar, sm_90 -O0: shared memory (B)", "paper-fig5-n1-in", "sm_90", "-O0", "stock", "smem", 2140),
    ("Fig. 5, 1 scalar, sm_90 -O2: registers", "paper-fig5-n1-in", "sm_90", "-O2", "stock", "regs", 24),
    ("Fig. 5, 1 scalar, sm_90 -O2: shared memory (B)", "paper-fig5-n1-in", "sm_90", "-O2", "stock", "smem", 12),
    ("Fig. 5, 1 scalar, CUDA: registers", "paper-fig5-n1-in", "sm_90", "-O2", "nvcc", "regs", 8),
    ("Fig. 5, 1 scalar, CUDA: shared memory (B)", "paper-fig5-n1-in", "sm_90", "-O2", "nvcc", "smem", 4),
    ("Fig. 6, one int[96], sm_90 -O0: shared memory (B)", "paper-fig6-m1", "sm_90", "-O0", "stock", "smem", 2140),
    ("Fig. 6, one int[96], sm_90 -O2: shared memory (B)", "paper-fig6-m1", "sm_90", "-O2", "stock", "smem", 396),
    ("Fig. 6, one int[96], CUDA: shared memory (B)", "paper-fig6-m1", "sm_90", "-O2", "nvcc", "smem", 384),
    ("Fig. 5, 1 scalar, gfx90a -O0: VGPRs", "paper-fig5-n1-in", "gfx90a", "-O0", "stock", "vgpr", 48),
    ("Fig. 5, 1 scalar, gfx90a -O0: SGPRs", "paper-fig5-n1-in", "gfx90a", "-O0", "stock", "sgpr", 82),
    ("Fig. 5, 1 scalar, gfx90a -O0: LDS (B)", "paper-fig5-n1-in", "gfx90a", "-O0", "stock", "lds", 2112),
]
# Other forms of the same kernel, shown next to the quoted figure.
QUOTED_CONTEXT = [("figure as printed", "paper-fig5-n1-out", "paper-fig6-m1"),
                  ("seed fig5.c / fig6.c", "fig5-n1-in", "fig6-m1")]


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in COLUMNS})


def num(x):
    """x as a float, or None when the cell is empty or not a number."""
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main_rows(rows):
    """{(program, arch, opt, compiler): row} of the reported kernels, and of
    the builds that produced no kernel (their row carries the failure)."""
    return {(r["program"], r["arch"], r["opt"], r["compiler"]): r for r in rows
            if r.get("role") == "main" or not r.get("kernel")}


def _v(r, field):
    x = r.get(field) if r else None
    return "" if x is None else str(x)


def quoted_check(rows):
    """[(label, quoted, measured, match, context...)] for the quoted figures
    whose program is in `rows`."""
    main = main_rows(rows)
    out = []
    for label, prog, arch, opt, comp, field, want in QUOTED:
        r = main.get((prog, arch, opt, comp))
        if r is None:
            continue
        got = _v(r, field) if _measured(r) else ""
        ctx = []
        for _, p5, p6 in QUOTED_CONTEXT:
            alt = p6 if prog.startswith("paper-fig6") else p5
            ar = main.get((alt, arch, opt, comp))
            ctx.append(_v(ar, field) if ar is not None and _measured(ar) else "")
        match = "yes" if got == str(want) else ("no" if got else "not measured")
        out.append((label, str(want), got or r.get("status", ""), match,
                    r.get("method", ""), ctx))
    return out


def _measured(r):
    return r.get("status") == "ok" or r.get("method")


def _cell_status(r):
    if r.get("method"):
        return (r.get("exec_mode") or "?") + " †"
    if r.get("status") != "ok":
        return r.get("status")
    return r.get("exec_mode") or ("–" if r["compiler"] == "nvcc" else "?")


def _pair(r, a, b):
    x, y = _v(r, a), _v(r, b)
    return "%s / %s" % (x, y) if x or y else ""


SM_HEAD = ["program", "opt", "compiler", "mode", "regs", "smem", "smem+1K",
           "stack", "spill st/ld", "alloc_shared", "malloc", "bar.sync"]
AMD_HEAD = ["program", "opt", "compiler", "mode", "VGPR", "SGPR", "LDS",
            "scratch", "spill v/s", "alloc_shared", "malloc"]


def _row_cells(r, arch):
    ok = _measured(r)
    st = _cell_status(r)
    if not ok:
        head = SM_HEAD if arch.startswith("sm_") else AMD_HEAD
        return [st] + [""] * (len(head) - 4)
    if arch.startswith("sm_"):
        return [st, _v(r, "regs"), _v(r, "smem"), _v(r, "smem_rsv"),
                _v(r, "stack"), _pair(r, "spill_st", "spill_ld"),
                _v(r, "alloc_shared"), _v(r, "malloc"), _v(r, "bar_sync")]
    scratch = _v(r, "scratch")
    if str(r.get("dyn_stack")) == "True":
        scratch += "+dyn"
    return [st, _v(r, "vgpr"), _v(r, "sgpr"), _v(r, "lds"), scratch,
            _pair(r, "vgpr_spill", "sgpr_spill"), _v(r, "alloc_shared"),
            _v(r, "malloc")]


def _table(head, lines):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---" for _ in head) + "|"]
    for l in lines:
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in l) + " |")
    return out


def markdown(rows, meta, programs):
    """The Markdown report (benchmarks/results/static.md)."""
    main = main_rows(rows)
    L = ["# Static resource usage: stock LLVM %s, ompds, nvcc" % base.LLVM_VERSION, "",
         "Generated by `benchmarks/run-static%s` (do not edit by hand; see "
         "[../README.md](../README.md) for what the columns mean and how they "
         "are measured)." % meta.get("args", ""), ""]
    L += ["- date: %s; machine: %s" % (meta["date"], meta["machine"]),
          "- run time: %s s (%s builds, -j%s)" % (meta["seconds"], meta["builds"], meta["jobs"])]
    for c, v in meta["versions"].items():
        L.append("- %s: %s" % (c, v))
    for w in meta.get("warnings", []):
        L.append("- **warning: %s**" % w)
    L.append("")

    q = quoted_check(rows)
    if q:
        L += ["## Figures quoted in the issues (stock LLVM 19.1.7)", "",
              "`paper-fig5-n1-in` is Figure 5 of the 2017 paper with `c1` "
              "declared in the teams region (`programs/paper_fig5.c -DINSIDE=1`), "
              "the form that gives every quoted number; the next columns measure "
              "the figure as printed (`c1` declared in the host function, "
              "`-DINSIDE=0`) and the seed programs.", ""]
        lines = []
        for label, want, got, match, method, ctx in q:
            lines.append([label, want, got + (" †" if method else ""), match] + ctx)
        L += _table(["figure", "quoted", "measured", "match"] +
                    [c[0] for c in QUOTED_CONTEXT], lines)
        L += [""]

    for arch in meta["archs"]:
        head = SM_HEAD if arch.startswith("sm_") else AMD_HEAD
        L += ["## %s" % arch, ""]
        families = []
        for p in programs:
            if p.family not in families:
                families.append(p.family)
        for fam in families:
            lines = []
            for p in (p for p in programs if p.family == fam):
                for opt in meta["opts"]:
                    for comp in meta["compilers"]:
                        r = main.get((p.name, arch, opt, comp))
                        if r is None:
                            continue
                        name = p.name + (" (%s)" % p.note if p.note else "")
                        lines.append([name, opt, comp] + _row_cells(r, arch))
            if lines:
                L += ["### %s" % fam, ""] + _table(head, lines) + [""]
    if any(r.get("method") for r in rows):
        L += ["† the gfx90a `-O0` device link crashes in stock %s " % base.LLVM_VERSION +
              "(llvm-project#65188; ompds fixes it); these rows measure the `-O0` "
              "objects linked with `-O1`, which is how the issues' gfx90a `-O0` "
              "figures were obtained.", ""]
    regress = meta.get("regressions") or []
    L += ["## Builds that fail with ompds but not with stock", ""]
    L += ["- " + x for x in regress] if regress else ["none"]
    L += ["", "See [../README.md](../README.md#caveats) for the caveats of "
          "these numbers.", ""]
    return "\n".join(L)
