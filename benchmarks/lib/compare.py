"""Compare two static.csv files of benchmarks/run-static: which kernels ompds
now compiles to more registers, shared memory, stack, spills or runtime
allocations than it did in the baseline, and whether a written reason
accepts each such change.

    benchmarks/compare-static [--baseline CSV] [--current CSV]
                              [--accepted MD] [--markdown OUT] [--summary]

The baseline defaults to results/static-port-22.1.8.csv (the figures of the
series when it was ported to 22.1.8), the current run to results/static.csv,
the reasons to results/accepted-changes.md. Kernels are matched by program,
architecture, optimization level and kernel name without the file ID that
every build of a kernel name carries (__omp_offloading_<dev>_<file>_...).
Stock is the control: a build whose stock kernels differ between the two
runs (the program changed, or the tools that measure it) is not compared,
and a build that fails for stock too (no ptxas) is not a new failure.

A reason is a row of the table in the reasons file (a '|' of the regex
written '\\|', as markdown wants it in a table):

    | programs (regex) | arch | opt | columns | why |

It accepts a change of one of its columns in a kernel of a matching program
(the regex must match the whole program name; arch and opt may be '*').

Exit status: 0 when every change is accepted, 1 when one is not, 2 on bad
input (a missing file, a malformed reason).
"""

import argparse
import os
import re
import sys

from report import num, read_csv

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(os.path.dirname(HERE), "results")

# Columns where more is worse, in the order they are reported.
METRICS = ["regs", "smem", "stack", "spill_st", "spill_ld", "vgpr", "sgpr",
           "agpr", "lds", "scratch", "vgpr_spill", "sgpr_spill",
           "alloc_shared", "malloc", "bar_sync"]

FILE_ID = re.compile(r"^__omp_offloading_[0-9a-f]+_[0-9a-f]+_")
LINE = re.compile(r"_l(\d+)$")


def fail(msg):
    print("compare-static: error: " + msg, file=sys.stderr)
    sys.exit(2)


def kernel_keys(names):
    """{name: key} for the kernels of one build: the name without its file ID
    and line (edits of a program move its kernels' lines), with #2, #3 ...
    after the function name when it has several kernels, in line order."""
    def split(n):
        base = FILE_ID.sub("", n)
        m = LINE.search(base)
        return (base[:m.start()], int(m.group(1))) if m else (base, 0)
    parts = {n: split(n) for n in names}
    keys = {}
    for n, (fn, line) in parts.items():
        same = sorted(l for f, l in parts.values() if f == fn)
        keys[n] = fn if len(same) == 1 else "%s#%d" % (fn, same.index(line) + 1)
    return keys


def load(path, compiler):
    """{(program, arch, opt, kernel): row} of one compiler's kernels, and
    {(program, arch, opt): status} of its builds."""
    if not os.path.exists(path):
        fail("%s does not exist (benchmarks/run-static writes it)" % path)
    per_build, builds = {}, {}
    for r in read_csv(path):
        if r.get("compiler") != compiler:
            continue
        b = (r["program"], r["arch"], r["opt"])
        builds[b] = r.get("status", "")
        if r.get("kernel"):
            per_build.setdefault(b, {})[r["kernel"]] = r
    kernels = {}
    for b, rows in per_build.items():
        for name, key in kernel_keys(rows).items():
            kernels[b + (key,)] = rows[name]
    return kernels, builds


def table_rows(path, header):
    """(line number, [cells]) of the rows of the markdown table in path,
    without its header (the row whose first cell starts with header) and
    separator. A cell writes a '|' as '\\|' (markdown); the cells come back
    with it unescaped."""
    if not os.path.exists(path):
        fail("%s does not exist" % path)
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line.startswith("|") or set(line) <= set("|-: "):
                continue
            cells = [c.strip().replace("\\|", "|")
                     for c in re.split(r"(?<!\\)\|", line[1:-1])]
            if not cells[0].startswith(header):
                yield n, cells


def program_regex(path, n, cell):
    """The compiled regex of a reason's programs cell (whole names)."""
    prog = cell.strip("`")
    try:
        return re.compile(prog + r"\Z")
    except re.error as e:
        fail("%s:%d: bad program regex %r: %s" % (path, n, prog, e))


def load_reasons(path):
    """[(program regex, arch, opt, {columns}, why)] from the markdown table."""
    reasons = []
    for n, cells in table_rows(path, "programs"):
        if len(cells) != 5:
            fail("%s:%d: a reason has 5 cells (programs | arch | opt | "
                 "columns | why), this one %d" % (path, n, len(cells)))
        prog, arch, opt, cols, why = cells
        rx = program_regex(path, n, prog)
        cols = {c.strip().strip("`") for c in cols.split(",")}
        unknown = cols - set(METRICS)
        if unknown:
            fail("%s:%d: unknown columns %s (known: %s)"
                 % (path, n, ", ".join(sorted(unknown)), ", ".join(METRICS)))
        reasons.append((rx, arch, opt, cols, why, n))
    return reasons


def emit_report(text, summary, markdown):
    """Prints the markdown report text, or with summary only its summary
    lines and the rows without a reason, and writes it all to markdown."""
    if summary:
        sys.stdout.write("".join(
            line + "\n" for line in text.splitlines()
            if line.startswith("- ") or "**none**" in line))
    else:
        sys.stdout.write(text)
    if markdown:
        with open(markdown, "w") as f:
            f.write(text)


def fmt(x):
    v = num(x)
    return "%g" % v if v is not None else (x or "")


def changed_builds(base, cur):
    """The builds (program, arch, opt) whose stock kernels differ between the
    two runs: the program or the tools that measure it changed, so ompds'
    figures cannot be compared either."""
    bk, _ = base
    ck, _ = cur
    builds = {k[:3] for k in bk} & {k[:3] for k in ck}
    changed = set()
    for b in builds:
        old = {k: r for k, r in bk.items() if k[:3] == b}
        new = {k: r for k, r in ck.items() if k[:3] == b}
        # A column one of the runs does not have (a metric added since the
        # older run) says nothing.
        if set(old) != set(new) or any(
                num(old[k].get(c)) != num(new[k].get(c))
                for k in old for c in METRICS
                if old[k].get(c) not in (None, "") and new[k].get(c) not in (None, "")):
            changed.add(b)
    return changed


def compare(base, cur, reasons, skip=frozenset(), stock_now=None):
    """[(program, arch, opt, kernel, column, old, new, reason or None)], the
    number of smaller columns, the builds that now fail, and the kernels
    present in only one of the runs."""
    bk, bb = base
    ck, cb = cur
    worse, better = [], 0
    for key in sorted(ck):
        old = bk.get(key)
        if old is None or key[:3] in skip:
            continue
        new = ck[key]
        prog, arch, opt, _ = key
        for col in METRICS:
            o, n = num(old.get(col)), num(new.get(col))
            if o is None or n is None or n == o:
                continue
            if n < o:
                better += 1
                continue
            why = next((r for r in reasons
                        if r[0].match(prog) and r[1] in ("*", arch)
                        and r[2] in ("*", opt) and col in r[3]), None)
            worse.append(key + (col, old.get(col), new.get(col), why))
    # A build that fails for stock too failed for want of a tool (ptxas).
    failed = sorted(b for b, s in cb.items()
                    if s != "ok" and bb.get(b) == "ok"
                    and (stock_now is None or stock_now.get(b) == "ok"))
    only = (sorted(set(bk) - set(ck)), sorted(set(ck) - set(bk)))
    return worse, better, failed, only


def report(worse, better, failed, only, skipped, args):
    L = ["# ompds kernels worse than the baseline", "",
         "`benchmarks/compare-static --baseline %s --current %s` "
         "(reasons: `%s`)." % (os.path.relpath(args.baseline),
                               os.path.relpath(args.current),
                               os.path.relpath(args.accepted)), ""]
    unexplained = [w for w in worse if w[-1] is None]
    L.append("- %d kernel columns got worse, %d of them without a reason; "
             "%d builds fail that did not; %d kernel columns got better."
             % (len(worse), len(unexplained), len(failed), better))
    L.append("- kernels only in the baseline: %d, only in the current run: "
             "%d (programs added or kernels renamed)." % (len(only[0]),
                                                          len(only[1])))
    L.append("- not compared, since stock's kernels differ too (the program "
             "or the measuring tools changed): %s."
             % (", ".join("%s %s %s" % b for b in sorted(skipped)) or "none"))
    L += ["", "| program | arch | opt | kernel | column | baseline | now "
          "| reason |", "|---|---|---|---|---|---|---|---|"]
    for prog, arch, opt, kern, col, o, n, why in worse:
        L.append("| %s | %s | %s | %s | %s | %s | %s | %s |"
                 % (prog, arch, opt, kern, col, fmt(o), fmt(n),
                    "%s line %d" % (os.path.basename(args.accepted), why[5])
                    if why else "**none**"))
    for prog, arch, opt in failed:
        L.append("| %s | %s | %s | | status | ok | failed | **none** |"
                 % (prog, arch, opt))
    return "\n".join(L) + "\n", bool(unexplained or failed)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline",
                    default=os.path.join(RESULTS, "static-port-22.1.8.csv"))
    ap.add_argument("--current", default=os.path.join(RESULTS, "static.csv"))
    ap.add_argument("--accepted",
                    default=os.path.join(RESULTS, "accepted-changes.md"))
    ap.add_argument("--markdown", help="also write the report here")
    ap.add_argument("--summary", action="store_true",
                    help="print only the summary and the changes without "
                    "a reason (the whole report goes to --markdown)")
    args = ap.parse_args(argv)
    reasons = load_reasons(args.accepted)
    stock_now = load(args.current, "stock")
    skipped = changed_builds(load(args.baseline, "stock"), stock_now)
    worse, better, failed, only = compare(
        load(args.baseline, "ompds"), load(args.current, "ompds"), reasons,
        skipped, stock_now[1])
    text, bad = report(worse, better, failed, only, skipped, args)
    emit_report(text, args.summary, args.markdown)
    if bad:
        print("compare-static: some changes have no reason: fix them, or add "
              "a reason to %s" % os.path.relpath(args.accepted),
              file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
