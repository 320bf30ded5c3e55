"""The register gaps issue 36 sets goals for, and whether a written reason
explains each one.

    benchmarks/register-gaps [--current CSV] [--reasons MD] [--markdown OUT]
                             [--summary]

Reads one static.csv of benchmarks/run-static (default results/static.csv)
and lists, for sm_90, every ompds kernel that misses one of issue 36's
register goals against the other compilers of the same run:

  stock   more registers than stock's build of the same kernel (any -O);
  spills  spill stores or loads where stock's kernel has none (any -O);
  cuda    a main kernel at -O2 or -O3 with more than 1.2x the registers of
          its CUDA twin's kernel (nvcc).

A reason is a row of the table in the reasons file (default
results/register-gaps.md; a '|' of the regex written '\\|'):

    | programs (regex) | opt | gap | up to | why |

It explains a gap of its kind in a kernel of a matching program (the regex
matches the whole program name; opt may be '*') as long as ompds' kernel has
at most "up to" registers: a kernel that grows past the figure the reason
was written for needs a new look. For spills "up to" bounds the spilled
bytes (stores plus loads).

Exit status: 0 when every gap has a reason, 1 when one has none, 2 on bad
input (a missing file, a malformed reason).
"""

import argparse
import os
import sys

from compare import (emit_report, fail, kernel_keys, program_regex,
                     table_rows)
from report import num, read_csv

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(os.path.dirname(HERE), "results")

ARCH = "sm_90"        # the architecture with a CUDA twin to compare with
CUDA_RATIO = 1.2      # issue 36, item 2: at most 1.2x CUDA's registers
CUDA_OPTS = ("-O2", "-O3")
GAPS = ("stock", "spills", "cuda")


def builds(path):
    """{(program, opt): {compiler: {kernel key: row}}} of the sm_90 kernels
    that built."""
    if not os.path.exists(path):
        fail("%s does not exist (benchmarks/run-static writes it)" % path)
    per = {}
    for r in read_csv(path):
        if r.get("arch") != ARCH or r.get("status") != "ok" or not r.get("kernel"):
            continue
        per.setdefault((r["program"], r["opt"]), {}).setdefault(
            r["compiler"], {})[r["kernel"]] = r
    out = {}
    for b, comps in per.items():
        out[b] = {c: {key: rows[name] for name, key in kernel_keys(rows).items()}
                  for c, rows in comps.items()}
    return out


def spilled(r):
    return (num(r.get("spill_st")) or 0) + (num(r.get("spill_ld")) or 0)


def find_gaps(per_build):
    """[(program, opt, kernel key, gap, ompds, other, figure)]: figure is what
    a reason's "up to" bounds (registers, or spilled bytes for spills)."""
    gaps = []
    for (prog, opt), comps in sorted(per_build.items()):
        ours, stock = comps.get("ompds", {}), comps.get("stock", {})
        twins = [r for r in comps.get("nvcc", {}).values()
                 if r.get("role") == "main"]
        for key, r in sorted(ours.items()):
            regs = num(r.get("regs"))
            if regs is None:
                continue
            s = stock.get(key)
            if s is not None:
                if num(s.get("regs")) is not None and regs > num(s["regs"]):
                    gaps.append((prog, opt, key, "stock", regs,
                                 num(s["regs"]), regs))
                if spilled(r) and not spilled(s):
                    gaps.append((prog, opt, key, "spills",
                                 "%s/%s" % (r.get("spill_st"), r.get("spill_ld")),
                                 "none", spilled(r)))
            if (opt in CUDA_OPTS and r.get("role") == "main" and len(twins) == 1
                    and num(twins[0].get("regs"))
                    and regs > CUDA_RATIO * num(twins[0]["regs"])):
                gaps.append((prog, opt, key, "cuda", regs,
                             num(twins[0]["regs"]), regs))
    return gaps


def load_reasons(path):
    """[(program regex, opt, gap, up to, why, line)]."""
    reasons = []
    for n, cells in table_rows(path, "programs"):
        if len(cells) != 5:
            fail("%s:%d: a reason has 5 cells (programs | opt | gap | up to | "
                 "why), this one %d" % (path, n, len(cells)))
        prog, opt, gap, upto, why = cells
        if gap not in GAPS:
            fail("%s:%d: unknown gap %r (known: %s)"
                 % (path, n, gap, ", ".join(GAPS)))
        if num(upto) is None:
            fail("%s:%d: 'up to' must be a number, not %r" % (path, n, upto))
        if not why:
            fail("%s:%d: a reason needs its why" % (path, n))
        reasons.append((program_regex(path, n, prog), opt, gap, num(upto),
                        why, n))
    return reasons


def explain(gaps, reasons):
    """The gaps with the line of their reason (None without one), and the
    reasons no gap used."""
    out, used = [], set()
    for g in gaps:
        prog, opt, _, gap, _, _, figure = g
        why = next((r for r in reasons if r[0].match(prog)
                    and r[1] in ("*", opt) and r[2] == gap
                    and figure <= r[3]), None)
        if why:
            used.add(why[5])
        out.append(g + (why,))
    return out, [r for r in reasons if r[5] not in used]


def report(explained, unused, args):
    fmt = lambda v: "%g" % v if isinstance(v, (int, float)) else str(v)
    what = {"stock": "registers, stock", "spills": "spill st/ld, stock",
            "cuda": "registers, nvcc"}
    L = ["# ompds kernels that miss a register goal of issue 36 (%s)" % ARCH,
         "", "`benchmarks/register-gaps --current %s` (reasons: `%s`)."
         % (os.path.relpath(args.current), os.path.relpath(args.reasons)), ""]
    missing = [e for e in explained if e[-1] is None]
    L.append("- %d gaps, %d of them without a reason: %s."
             % (len(explained), len(missing), ", ".join(
                 "%d %s" % (sum(1 for e in explained if e[3] == g), g)
                 for g in GAPS)))
    L.append("- reasons no gap of this run needs: %s."
             % (", ".join("line %d" % r[5] for r in unused) or "none"))
    L += ["", "| program | opt | kernel | gap | ompds | other | reason |",
          "|---|---|---|---|---|---|---|"]
    for prog, opt, key, gap, ours, other, _, why in explained:
        L.append("| %s | %s | %s | %s | %s | %s | %s |"
                 % (prog, opt, key, what[gap], fmt(ours), fmt(other),
                    "%s line %d" % (os.path.basename(args.reasons), why[5])
                    if why else "**none**"))
    return "\n".join(L) + "\n", bool(missing)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--current", default=os.path.join(RESULTS, "static.csv"))
    ap.add_argument("--reasons",
                    default=os.path.join(RESULTS, "register-gaps.md"))
    ap.add_argument("--markdown", help="also write the report here")
    ap.add_argument("--summary", action="store_true",
                    help="print only the summary and the gaps without a "
                    "reason (the whole report goes to --markdown)")
    args = ap.parse_args(argv)
    reasons = load_reasons(args.reasons)
    explained, unused = explain(find_gaps(builds(args.current)), reasons)
    text, bad = report(explained, unused, args)
    emit_report(text, args.summary, args.markdown)
    if bad:
        print("register-gaps: some gaps have no reason: close them, or "
              "explain them in %s" % os.path.relpath(args.reasons),
              file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
