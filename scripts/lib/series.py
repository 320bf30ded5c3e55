#!/usr/bin/env python3
"""The ompds patch-series workflow: apply, export, check and lint.

The series (patches/series + patches/*.patch) is the product. A *work tree* is
a git repository holding a base source tree (tagged ``ompds-base``) with the
series applied on top of it as one commit per patch. Developers edit there and
export back; ``--check`` proves that patches/ and a work tree agree.

Patches are ``git format-patch`` output, normalized so that exporting the same
commits twice is byte-identical: zero commit id, no signature, no diffstat,
full blob ids (abbreviations depend on the repository), subject kept as is
(``[NVPTX] ...`` tags survive because both sides use --keep-subject / -k).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import base
from util import die, note

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATCHES = os.path.join(ROOT, base.PATCH_DIR)
SERIES = os.path.join(PATCHES, "series")
BASE_TAG = "ompds-base"

FORMAT_PATCH_ARGS = [
    "format-patch",
    "--keep-subject",
    "--zero-commit",
    "--no-signature",
    "--no-stat",
    "--full-index",
    "--no-numbered",
    "--no-renames",
    "--stdout",
    "--encoding=UTF-8",
]

UPSTREAM_STATUS_RE = re.compile(
    r"^Upstream-Status: (Pending|Submitted \[\S.*\]|Backport \[\S.*\]|"
    r"Accepted \[\S.*\]|Inappropriate \[\S.*\])\s*$",
    re.M,
)
# Files upstream does not clang-format (tests, inputs, docs, build files).
NO_FORMAT_RE = re.compile(r"(^|/)(test|unittests|docs)/|\.(ll|mir|s|td|txt|rst|md|py|cmake)$")
FORMAT_RE = re.compile(r"\.(c|cc|cpp|cxx|h|hh|hpp|inc|def)$")


def git(args, cwd, check=True, capture=True, env=None):
    genv = dict(os.environ)
    # Deterministic commits regardless of the developer's configuration.
    genv.setdefault("GIT_COMMITTER_NAME", "ompds")
    genv.setdefault("GIT_COMMITTER_EMAIL", "ompds@localhost")
    if env:
        genv.update(env)
    res = subprocess.run(
        ["git", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false",
         "-c", "commit.gpgsign=false", "-c", "diff.noprefix=false",
         "-c", "format.signature=", "-c", "diff.mnemonicprefix=false",
         "-c", "advice.detachedHead=false"] + args,
        cwd=cwd,
        env=genv,
        stdout=subprocess.PIPE if capture else None,
        stderr=subprocess.PIPE if capture else None,
    )
    if check and res.returncode != 0:
        err = res.stderr.decode(errors="replace") if capture else ""
        die("git %s failed in %s:\n%s" % (" ".join(args), cwd, err))
    return res


# --- series file -------------------------------------------------------------


def read_series():
    """Returns (lines, names): the raw lines and the patch names in order."""
    if not os.path.exists(SERIES):
        die("%s is missing" % SERIES)
    with open(SERIES) as f:
        lines = f.read().splitlines()
    names = []
    for line in lines:
        name = line.split("#", 1)[0].strip()
        if name:
            names.append(name)
    return lines, names


STACK_RE = re.compile(r"^#\s*stack\s+([a-z0-9][a-z0-9-]*):\s*(\S.*)$")


def read_stacks():
    """The stacks of the series, in order: [(id, title, [patch names])]. A
    '# stack <id>: <title>' line in series starts a stack; every patch must
    follow one, and ids are unique."""
    lines, names = read_series()
    stacks = []
    for line in lines:
        m = STACK_RE.match(line.strip())
        if m:
            if any(s[0] == m.group(1) for s in stacks):
                die("%s: stack '%s' is named twice" % (SERIES, m.group(1)))
            stacks.append((m.group(1), m.group(2).strip(), []))
            continue
        name = line.split("#", 1)[0].strip()
        if not name:
            continue
        if not stacks:
            die("%s: %s comes before the first '# stack <id>: <title>' line; every "
                "patch belongs to a stack" % (SERIES, name))
        stacks[-1][2].append(name)
    for stack_id, _, members in stacks:
        if not members:
            # Typically a heading that an export moved: put it back above the
            # stack's first patch.
            die("%s: stack '%s' has no patches; move its heading to the line "
                "above the stack's first patch" % (SERIES, stack_id))
    return stacks


def write_series(old_lines, new_names):
    """Rewrites the series keeping comments and group headings in place."""
    out = []
    idx = 0
    pos = {n: i for i, n in enumerate(new_names)}
    for line in old_lines:
        name = line.split("#", 1)[0].strip()
        if not name:
            out.append(line)
            continue
        if name in pos and pos[name] >= idx:
            while idx <= pos[name]:
                out.append(new_names[idx])
                idx += 1
        # else: the patch was dropped (or moved earlier and already emitted).
    out.extend(new_names[idx:])
    with open(SERIES, "w") as f:
        f.write("\n".join(out) + "\n")


def sanitize_subject(subject):
    """The file name a patch with this subject must have (without .patch)."""
    name = re.sub(r"[^A-Za-z0-9._]+", "-", subject)
    name = re.sub(r"\.\.+", ".", name)
    name = name.strip("-.")
    if len(name) > 72:
        name = name[:72].rstrip("-.")
    return name


def parse_patch(path):
    """Returns (subject, body, files) of a format-patch file."""
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", errors="replace")
    head, sep, rest = data.partition("\n\n")
    if not sep:
        die("%s: not a git format-patch file (no header)" % path)
    subj = []
    in_subj = False
    for line in head.splitlines():
        if line.startswith("Subject: "):
            subj.append(line[len("Subject: "):])
            in_subj = True
        elif in_subj and line.startswith((" ", "\t")):
            subj.append(line.strip())
        else:
            in_subj = False
    if not subj:
        die("%s: no Subject header" % path)
    # --no-stat output has no '---' line: the message ends at the first diff.
    m = re.search(r"^(---\n|diff --git )", rest, re.M)
    if not m:
        die("%s: no diff after the message" % path)
    body, diff = rest[:m.start()], rest[m.start():]
    files = []
    for m in re.finditer(r"^diff --git a/(\S+) b/(\S+)$", diff, re.M):
        files.append((m.group(1), m.group(2)))
    return " ".join(subj), body, files


# --- work trees --------------------------------------------------------------


def base_dir(kind):
    res = subprocess.run([os.path.join(ROOT, "scripts", "get-source"), kind],
                         stdout=subprocess.PIPE)
    if res.returncode != 0:
        die("could not provide the %s base (see the message above)" % kind)
    return res.stdout.decode().strip().splitlines()[-1]


def series_touched_files(names):
    files = set()
    for n in names:
        p = os.path.join(PATCHES, n)
        if not os.path.exists(p):
            die("patches/series lists %s, which does not exist" % n)
        for a, b in parse_patch(p)[2]:
            files.add(a)
            files.add(b)
    return sorted(files)


def lit_tests(names):
    """The lit tests (under llvm/test or clang/test, inputs and lit
    configuration left out) that the patches `names` add or change."""
    return [f for f in series_touched_files(names)
            if f.startswith(("llvm/test/", "clang/test/")) and "/Inputs/" not in f
            and not os.path.basename(f).startswith("lit.")]


def make_worktree(kind, dest, sparse, names, extra=()):
    base = base_dir(kind)
    if os.path.exists(dest):
        die("%s exists; remove it first (or pass another --worktree)" % dest)
    os.makedirs(dest)
    if sparse:
        # Only the files the series touches, plus clang-format configuration.
        wanted = series_touched_files(names)
        for rel in extra:
            if os.path.isdir(os.path.join(base, rel)):
                for dirpath, _, files in os.walk(os.path.join(base, rel)):
                    wanted += [os.path.relpath(os.path.join(dirpath, f), base) for f in files]
            elif os.path.isfile(os.path.join(base, rel)):
                wanted.append(rel)
            else:
                die("--include %s: no such file or directory in the %s base" % (rel, kind))
        for rel in wanted:
            src = os.path.join(base, rel)
            if os.path.isfile(src):
                os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
                shutil.copy2(src, os.path.join(dest, rel))
        dirs = set()
        for rel in wanted:
            d = os.path.dirname(rel)
            while True:
                dirs.add(d)
                if not d:
                    break
                d = os.path.dirname(d)
        for d in dirs:
            cf = os.path.join(base, d, ".clang-format")
            if os.path.isfile(cf):
                os.makedirs(os.path.join(dest, d), exist_ok=True)
                shutil.copy2(cf, os.path.join(dest, d, ".clang-format"))
    else:
        sys.stderr.write("-- copying %s to %s (full work tree)\n" % (base, dest))
        subprocess.run(["cp", "-a", base + "/.", dest], check=True)
        shutil.rmtree(os.path.join(dest, ".pc"), ignore_errors=True)
    git(["init", "-q"], dest)
    git(["add", "-A", "-f", "."], dest)
    git(["commit", "-q", "--allow-empty", "-m", "Base: %s" % kind], dest,
        env={"GIT_AUTHOR_NAME": "ompds", "GIT_AUTHOR_EMAIL": "ompds@localhost",
             "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
             "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z"})
    git(["tag", "-f", BASE_TAG], dest)


def apply_series(dest, names):
    for n in names:
        p = os.path.join(PATCHES, n)
        res = git(["am", "-q", "-k", "--keep-cr", "--committer-date-is-author-date", p],
                  dest, check=False)
        if res.returncode != 0:
            err = (res.stdout + res.stderr).decode(errors="replace")
            git(["am", "--abort"], dest, check=False)
            die("patch %s does not apply onto %s:\n%s\n"
                "Rebase it in a work tree (docs/rebasing.md) and export again." % (n, dest, err))


def export_commits(worktree):
    """Returns [(name, bytes)] for the commits ompds-base..HEAD of a work tree."""
    if git(["rev-parse", "-q", "--verify", "refs/tags/" + BASE_TAG], worktree,
           check=False).returncode != 0:
        die("%s is not an ompds work tree (no %s tag)" % (worktree, BASE_TAG))
    revs = git(["rev-list", "--reverse", "--no-merges", BASE_TAG + "..HEAD"],
               worktree).stdout.decode().split()
    out = []
    seen = set()
    for rev in revs:
        data = git(FORMAT_PATCH_ARGS + ["-1", rev], worktree).stdout
        subject = git(["log", "-1", "--format=%s", rev], worktree).stdout.decode().strip()
        name = sanitize_subject(subject) + ".patch"
        if name in seen:
            die("two commits have the subject %r; subjects must be unique" % subject)
        seen.add(name)
        out.append((name, data))
    return out


def default_worktree():
    return os.path.join(os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build")), "work")


# --- commands ----------------------------------------------------------------


def cmd_apply(args):
    _, names = read_series()
    dest = os.path.abspath(args.worktree or default_worktree())
    if args.include and not args.sparse:
        die("--include only makes sense with --sparse")
    make_worktree(args.base, dest, args.sparse, names, args.include or ())
    apply_series(dest, names)
    print(dest)


def round_trip(kind):
    """Applies the series to a scratch sparse tree of `kind` and re-exports it."""
    _, names = read_series()
    tmp = tempfile.mkdtemp(prefix="ompds-series-")
    try:
        wt = os.path.join(tmp, "wt")
        make_worktree(kind, wt, True, names)
        apply_series(wt, names)
        return export_commits(wt), names
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def compare(exported, names):
    problems = []
    got = [n for n, _ in exported]
    if got != names:
        problems.append("series order differs: patches/series has %s, the work tree gives %s"
                        % (names, got))
    for n, data in exported:
        p = os.path.join(PATCHES, n)
        if not os.path.exists(p):
            problems.append("%s: in the work tree but not in patches/" % n)
            continue
        with open(p, "rb") as f:
            if f.read() != data:
                problems.append("%s: differs from its export" % n)
    return problems


def cmd_export(args):
    wt = os.path.abspath(args.worktree or default_worktree())
    if args.check:
        if os.path.isdir(os.path.join(wt, ".git")):
            exported = export_commits(wt)
            where = wt
        else:
            # No work tree: prove the series round-trips byte for byte.
            exported, _ = round_trip("pristine")
            where = "a scratch tree (no work tree at %s)" % wt
        _, names = read_series()
        problems = compare(exported, names)
        if problems:
            for p in problems:
                print("out of date: " + p)
            print("patches/ and %s disagree; run scripts/export-patches (or "
                  "scripts/apply-patches to recreate the work tree)" % where)
            return 1
        print("patches/ agrees with %s (%d patches)" % (where, len(names)))
        return 0
    if not os.path.isdir(os.path.join(wt, ".git")):
        die("no work tree at %s; create it with scripts/apply-patches" % wt)
    for d in ("rebase-merge", "rebase-apply"):
        if os.path.exists(os.path.join(wt, ".git", d)):
            # HEAD is somewhere inside the series: exporting now would drop
            # every patch after it from patches/ (and move the stack
            # headings of patches/series).
            die("a rebase is in progress in %s; finish it (git rebase "
                "--continue) or abort it before exporting" % wt)
    exported = export_commits(wt)
    old_lines, old_names = read_series()
    new_names = [n for n, _ in exported]
    for n, data in exported:
        with open(os.path.join(PATCHES, n), "wb") as f:
            f.write(data)
    for n in old_names:
        if n not in new_names and os.path.exists(os.path.join(PATCHES, n)):
            os.remove(os.path.join(PATCHES, n))
            print("removed %s" % n)
    write_series(old_lines, new_names)
    print("exported %d patches from %s" % (len(new_names), wt))
    return 0


def lint(format_check=True):
    problems = []
    lines, names = read_series()
    seen = set()
    for n in names:
        if n in seen:
            problems.append("patches/series lists %s more than once" % n)
        seen.add(n)
    on_disk = sorted(f for f in os.listdir(PATCHES) if f.endswith(".patch"))
    for f in on_disk:
        if f not in seen:
            problems.append("%s is not listed in %s" % (f, os.path.relpath(SERIES, ROOT)))
    for n in names:
        p = os.path.join(PATCHES, n)
        if not os.path.exists(p):
            problems.append("patches/series lists %s, which does not exist" % n)
            continue
        subject, body, files = parse_patch(p)
        want = sanitize_subject(subject) + ".patch"
        if n != want:
            problems.append("%s: file name must derive from its subject: %s" % (n, want))
        if not files:
            problems.append("%s: changes no file" % n)
        if not UPSTREAM_STATUS_RE.search(body):
            problems.append("%s: no valid 'Upstream-Status: Pending | Submitted [url] | "
                            "Backport [commit] | Inappropriate [reason]' line" % n)
        why = UPSTREAM_STATUS_RE.sub("", body)
        why = re.sub(r"^[\w-]+: .*$", "", why, flags=re.M)  # other trailers
        if len(why.split()) < 15:
            problems.append("%s: the message must say why the patch exists "
                            "(found %d words)" % (n, len(why.split())))
    if format_check and names and not problems:
        problems += format_problems(names)
    return problems


CLANG_FORMAT = "clang-format" + base.SUFFIX  # the base version's


def find_clang_format_diff():
    for c in ("clang-format-diff" + base.SUFFIX,
              base.DEB_LLVM + "/share/clang/clang-format-diff.py"):
        path = shutil.which(c) or (c if os.path.exists(c) else None)
        if path and (shutil.which(CLANG_FORMAT) or
                     os.path.exists(base.DEB_LLVM + "/bin/clang-format")):
            return path
    return None


def format_problems(names):
    """clang-format of the base version on the added lines of each patch, at its
    position."""
    cfd = find_clang_format_diff()
    if not cfd:
        return ["%s is not installed (apt-get install %s); "
                "cannot check that patches are clang-format clean" % (CLANG_FORMAT, CLANG_FORMAT)]
    binary = shutil.which(CLANG_FORMAT) or base.DEB_LLVM + "/bin/clang-format"
    problems = []
    tmp = tempfile.mkdtemp(prefix="ompds-lint-")
    try:
        wt = os.path.join(tmp, "wt")
        make_worktree("pristine", wt, True, names)
        for n in names:
            apply_series(wt, [n])
            diff = git(["diff", "-U0", "--no-color", "HEAD~1", "HEAD"], wt).stdout.decode(
                errors="replace")
            # Keep only the hunks of C/C++ sources that upstream formats.
            keep = []
            cur_ok = False
            for line in diff.splitlines(True):
                if line.startswith("diff --git "):
                    path = line.split(" b/", 1)[1].strip()
                    cur_ok = bool(FORMAT_RE.search(path)) and not NO_FORMAT_RE.search(path)
                if cur_ok:
                    keep.append(line)
            if not keep:
                continue
            res = subprocess.run([sys.executable if cfd.endswith(".py") else cfd]
                                 + ([cfd] if cfd.endswith(".py") else [])
                                 + ["-p1", "-binary", binary],
                                 input="".join(keep).encode(), cwd=wt,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out = res.stdout.decode(errors="replace").strip()
            if res.returncode != 0 and not out:
                problems.append("%s: clang-format-diff failed: %s" % (n, res.stderr.decode()))
            elif out:
                problems.append("%s: added lines are not clang-format clean:\n%s" % (n, out))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return problems


def cmd_lint(args):
    lines, _ = read_series()
    if any(STACK_RE.match(line.strip()) for line in lines):
        read_stacks()  # Stops on a patch outside a stack or an empty stack.
    problems = lint(format_check=not args.no_format)
    for p in problems:
        print("lint: " + p)
    if problems:
        return 1
    _, names = read_series()
    print("series lint clean (%d patches)" % len(names))
    return 0


def cmd_check_apply(args):
    """Applies the series to both bases and checks the round trip."""
    rc = 0
    for kind in args.bases:
        exported, names = round_trip(kind)
        problems = compare(exported, names) if kind == "pristine" else []
        if problems:
            for p in problems:
                print("round trip (%s): %s" % (kind, p))
            rc = 1
        else:
            print("series applies to the %s base%s" % (
                kind, " and re-exports byte-identically" if kind == "pristine" else ""))
    return rc


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("apply", help="create a work tree: base + series as commits")
    a.add_argument("--base", choices=["pristine", "debian"], default="pristine")
    a.add_argument("--worktree", help="where (default: build/work)")
    a.add_argument("--sparse", action="store_true",
                   help="only the files the series touches (fast; for checks and "
                        "small edits)")
    a.add_argument("--include", action="append", metavar="PATH",
                   help="with --sparse: also copy this base file or directory")
    a.set_defaults(func=cmd_apply)
    e = sub.add_parser("export", help="export the work tree's commits to patches/")
    e.add_argument("--worktree", help="the work tree (default: build/work)")
    e.add_argument("--check", action="store_true",
                   help="fail when patches/ and the work tree disagree (without a work "
                        "tree: when the series does not re-export byte-identically)")
    e.set_defaults(func=cmd_export)
    l = sub.add_parser("lint", help="series hygiene: listing, names, why, Upstream-Status, format")
    l.add_argument("--no-format", action="store_true", help="skip the clang-format check")
    l.set_defaults(func=cmd_lint)
    c = sub.add_parser("check-apply", help="apply to the bases and check the round trip")
    c.add_argument("bases", nargs="*", default=["pristine", "debian"])
    c.set_defaults(func=cmd_check_apply)
    args = ap.parse_args()
    sys.exit(args.func(args) or 0)


if __name__ == "__main__":
    main()
