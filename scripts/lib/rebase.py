#!/usr/bin/env python3
"""Rebase the patch series onto another base tree.

  rebase.py (--onto DIR | --onto-debian VERSION) [--worktree DIR] [--full]
            [--include PATH]... [--json FILE]
  rebase.py --continue | --skip [--worktree DIR]

Creates a scratch git repository (default build/rebase) that holds

  ompds-old-base    the pinned base (only the files the series touches),
  ompds-old-series  the series applied to it (so every preimage blob of every
                    patch is known, which three-way merges need),
  ompds-base        the new base: DIR, or Debian's llvm-toolchain-<major>
                    source package VERSION unpacked with its quilt patches,

and applies each patch in order onto ompds-base, reporting per patch:

  clean        applies exactly (git apply, no offsets);
  fuzzed       applies with line offsets, or only through a three-way merge
               (offsets are checked against a three-way merge: when they would
               put a hunk elsewhere, the merge's result is taken and reported);
  conflicting  does not apply, or applies only with offsets where a three-way
               merge conflicts (the hunk most likely found its context in the
               wrong place); the files are listed.

The report comes from a preview (branch ompds-rebase-preview) in which a
conflicting patch is left out and the later ones are tried without it. The
result for the user is branch `rebase` of the work tree: every patch up to the
first conflict committed, and the conflicting patch applied with
`git apply --3way` (conflict markers in the files). Resolve, `git add`, then
`--continue` (commits it with the patch's author and message, goes on to the
next patch) or `--skip` (drops the patch). When all are applied, export with
`scripts/export-patches --worktree DIR` and update the pinned base
(docs/rebasing.md). Exit status: 0 when every patch is applied, 1 while one
waits for a resolution.

The work tree is sparse (the files the series touches, plus --include) unless
--full copies the whole new base.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import series as ser  # noqa: E402
import base  # noqa: E402
from util import die, note  # noqa: E402

BUILD = os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build"))
CACHE = os.environ.get("OMPDS_CACHE", os.path.join(
    os.environ.get("XDG_CACHE_HOME", os.path.join(os.path.expanduser("~"), ".cache")), "ompds"))
AM = ["am", "-k", "--keep-cr", "--committer-date-is-author-date"]
IDENT = {"GIT_AUTHOR_NAME": "ompds", "GIT_AUTHOR_EMAIL": "ompds@localhost",
         "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z"}


# git with the settings of the series tools (fixed identity, no autocrlf).
git = ser.git


def common_var(name):
    """A variable of scripts/base.conf (the pinned base)."""
    try:
        return base.var(name)
    except KeyError as e:
        die(str(e))


def llvm_version(tree):
    p = os.path.join(tree, "cmake", "Modules", "LLVMVersion.cmake")
    if not os.path.exists(p):
        p = os.path.join(tree, "llvm", "CMakeLists.txt")
    try:
        with open(p) as f:
            text = f.read()
    except OSError:
        return "unknown"
    parts = [re.search(r"set\(LLVM_VERSION_%s (\d+)\)" % k, text) for k in
             ("MAJOR", "MINOR", "PATCH")]
    return ".".join(m.group(1) for m in parts) if all(parts) else "unknown"


# --- the new base ------------------------------------------------------------


def debian_base(version, package):
    """Debian's source package VERSION, unpacked with its quilt patches."""
    if version == common_var("OMPDS_DEB_VERSION") and \
            package == common_var("OMPDS_DEB_SRC_PKG"):
        return ser.base_dir("debian")
    safe = re.sub(r"[^A-Za-z0-9.+~-]", "_", version)
    out = os.path.join(CACHE, "base", "debian-%s-%s" % (package, safe))
    if os.path.isdir(out) and os.path.exists(out + ".stamp"):
        return out
    for tool, pkg in (("dpkg-source", "dpkg-dev"), ("apt-get", "apt")):
        if not shutil.which(tool):
            die("%s is missing; install it: apt-get install %s" % (tool, pkg))
    listing = subprocess.run(["apt-get", "indextargets", "--format", "$(CREATED_BY)"],
                             stdout=subprocess.PIPE).stdout.decode().split()
    if "Sources" not in listing:
        die("apt has no deb-src entries, so Debian source packages cannot be fetched.\n"
            "  Run scripts/get-source debian once (it adds them), or add a deb-src line "
            "for your suite and run apt-get update.")
    dl = os.path.join(CACHE, "dl", "%s-%s" % (package, safe))
    os.makedirs(dl, exist_ok=True)
    note("downloading %s=%s (apt-get source --download-only)" % (package, version))
    res = subprocess.run(["apt-get", "source", "--download-only", "-q",
                          "%s=%s" % (package, version)], cwd=dl,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if res.returncode != 0:
        if not os.listdir(dl):
            os.rmdir(dl)
        avail = subprocess.run(["apt-cache", "showsrc", package], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL).stdout.decode()
        versions = sorted(set(re.findall(r"^Version: (\S+)", avail, re.M)))
        die("apt-get source %s=%s failed:\n%s\n  Versions apt knows: %s\n  (apt-get update "
            "first; a version must be in the configured Debian suites)"
            % (package, version, res.stdout.decode(errors="replace").strip(),
               ", ".join(versions) or "none"))
    dscs = [f for f in os.listdir(dl) if f.endswith(".dsc")]
    if len(dscs) != 1:
        die("expected one .dsc in %s, found %s" % (dl, dscs))
    shutil.rmtree(out + ".tmp", ignore_errors=True)
    res = subprocess.run(["dpkg-source", "-q", "-x", os.path.join(dl, dscs[0]), out + ".tmp"])
    if res.returncode != 0:
        die("dpkg-source -x %s failed" % dscs[0])
    shutil.rmtree(out, ignore_errors=True)
    os.rename(out + ".tmp", out)
    open(out + ".stamp", "w").close()
    return out


# --- the scratch repository --------------------------------------------------


def sparse_files(base, touched, include):
    """Files of BASE to copy: the touched ones, --include, and .clang-format."""
    wanted = [f for f in touched if os.path.isfile(os.path.join(base, f))]
    for rel in include:
        p = os.path.join(base, rel)
        if os.path.isdir(p):
            for dirpath, _, files in os.walk(p):
                wanted += [os.path.relpath(os.path.join(dirpath, f), base) for f in files]
        elif os.path.isfile(p):
            wanted.append(rel)
        else:
            note("warning: --include %s: not in %s" % (rel, base))
    dirs = set()
    for rel in touched + list(include):
        d = os.path.dirname(rel)
        while True:
            dirs.add(d)
            if not d:
                break
            d = os.path.dirname(d)
    wanted += [os.path.join(d, ".clang-format") for d in dirs
               if os.path.isfile(os.path.join(base, d, ".clang-format"))]
    return sorted(set(wanted))


def copy_files(base, dest, files):
    for rel in files:
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copy2(os.path.join(base, rel), os.path.join(dest, rel))


def clear_tree(dest):
    for name in os.listdir(dest):
        if name == ".git":
            continue
        p = os.path.join(dest, name)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        else:
            os.remove(p)


def commit_all(dest, message):
    git(["add", "-A", "-f", "."], dest)
    git(["commit", "-q", "--allow-empty", "-m", message], dest, env=IDENT)


def make_repo(dest, old_base, new_base, new_desc, names, full, include):
    touched = ser.series_touched_files(names)
    os.makedirs(dest)
    git(["init", "-q"], dest)
    git(["checkout", "-q", "-b", "ompds-old"], dest)
    copy_files(old_base, dest, sparse_files(old_base, touched, include))
    commit_all(dest, "Base: pinned %s (only the files the series touches)"
               % common_var("OMPDS_BASE_TAG"))
    git(["tag", "ompds-old-base"], dest)
    for n in names:
        res = git(AM + [os.path.join(ser.PATCHES, n)], dest, check=False)
        if res.returncode != 0:
            die("%s does not apply to the pinned base itself; fix the series first "
                "(scripts/check-series)" % n)
    git(["tag", "ompds-old-series"], dest)

    git(["checkout", "-q", "--orphan", "rebase"], dest)
    git(["rm", "-r", "-q", "-f", "--cached", "."], dest)
    clear_tree(dest)
    if full:
        note("copying %s (full work tree)" % new_base)
        res = subprocess.run("tar -C %s --exclude=./.git --exclude=./.pc -cf - . | "
                             "tar -C %s -xf -" % (shlex.quote(new_base), shlex.quote(dest)),
                             shell=True)
        if res.returncode != 0:
            die("copying %s into %s failed" % (new_base, dest))
    else:
        copy_files(new_base, dest, sparse_files(new_base, touched, include))
    commit_all(dest, "Base: %s" % new_desc)
    git(["tag", ser.BASE_TAG], dest)


# --- classification ----------------------------------------------------------


def apply_to_tree(repo, rev, patch, three_way):
    """The tree of REV with PATCH applied in a scratch index, or None when it
    does not apply. three_way: `git apply --3way`, which merges first (git >=
    2.32) and falls back to a direct application; else direct only."""
    index = os.path.join(git(["rev-parse", "--absolute-git-dir"], repo).stdout.decode()
                         .strip(), "ompds-scratch-index")
    env = {"GIT_INDEX_FILE": index}
    try:
        git(["read-tree", rev], repo, env=env)
        res = git(["apply", "--cached"] + (["--3way"] if three_way else []) + [patch],
                      repo, check=False, env=env)
        if res.returncode != 0:
            return None
        res = git(["write-tree"], repo, check=False, env=env)
        return res.stdout.decode().strip() if res.returncode == 0 else None
    finally:
        if os.path.exists(index):
            os.remove(index)


def check_direct(dest, patch):
    """(applies directly, [(file, offset description)])."""
    res = git(["apply", "--check", "-v", patch], dest, check=False)
    text = (res.stdout + res.stderr).decode(errors="replace")
    offsets, cur = [], None
    for line in text.splitlines():
        m = re.match(r"Checking patch (\S+?)\.\.\.", line)
        if m:
            cur = m.group(1)
        m = re.match(r"Hunk #(\d+) succeeded at (\d+) \(offset (-?\d+) lines?\)", line)
        if m:
            offsets.append((cur, "%s hunk %s %+d lines" % (cur, m.group(1), int(m.group(3)))))
    return res.returncode == 0, offsets


def try_patch(dest, patch):
    """Classifies PATCH at HEAD and commits it unless it conflicts.

    Returns (status, detail, files). A patch that applies directly only with
    line offsets is checked against a three-way merge: a hunk whose context
    upstream changed can find identical context elsewhere (repeated code) and
    land in the wrong place; then the merge's result wins, or, when the merge
    conflicts, the patch counts as conflicting."""
    direct_ok, offsets = check_direct(dest, patch)
    if direct_ok and not offsets:
        r = git(AM + [patch], dest, check=False)
        if r.returncode == 0:
            return "clean", "", []
        git(["am", "--abort"], dest, check=False)
        return "conflicting", (r.stdout + r.stderr).decode(errors="replace").strip(), []
    merged = apply_to_tree(dest, "HEAD", patch, True)
    if direct_ok:
        files = sorted(set(f for f, _ in offsets))
        where = "; ".join(o for _, o in offsets)
        if merged is None:
            return "conflicting", ("applies only with offsets (%s), and a three-way merge "
                                   "conflicts: the hunks would likely land in the wrong "
                                   "place" % where), files
        direct = apply_to_tree(dest, "HEAD", patch, False)
        r = git(AM + [patch], dest, check=False)
        if r.returncode != 0:
            git(["am", "--abort"], dest, check=False)
            return "conflicting", (r.stdout + r.stderr).decode(errors="replace").strip(), files
        if direct != merged:
            wrong = git(["diff", "--name-only", direct, merged], dest).stdout.decode().split()
            git(["read-tree", "--reset", "-u", merged], dest)
            git(["commit", "-q", "--amend", "--no-edit", "--allow-empty"], dest)
            return "fuzzed", ("offsets (%s) would place hunks differently from a three-way "
                              "merge in %s: took the merge, check it"
                              % (where, ", ".join(wrong))), wrong
        return "fuzzed", "offsets: " + where, files
    r = git(AM[:1] + ["-3"] + AM[1:] + [patch], dest, check=False)
    text = (r.stdout + r.stderr).decode(errors="replace")
    if r.returncode == 0:
        files = sorted(set(re.findall(r"^Auto-merging (\S+)", text, re.M)))
        return "fuzzed", "three-way merge" + (" of " + ", ".join(files) if files else ""), files
    files = git(["diff", "--name-only", "--diff-filter=U"], dest,
                check=False).stdout.decode().split()
    files += re.findall(r"^error: (?:patch failed: )?(\S+?):(?:\d+$| does not exist)", text, re.M)
    files += re.findall(r"^CONFLICT \([^)]*\): .*? (\S+)(?: deleted| in | left)", text, re.M)
    git(["am", "--abort"], dest, check=False)
    return "conflicting", text.strip(), sorted(set(files))


def leave_conflict(dest, patch):
    """Applies PATCH with `git apply --3way`, leaving conflict markers for the
    user; returns (files with conflicts, what git said)."""
    r = git(["apply", "--3way", patch], dest, check=False)
    text = (r.stdout + r.stderr).decode(errors="replace").strip()
    files = git(["diff", "--name-only", "--diff-filter=U"], dest).stdout.decode().split()
    return files, text


# --- driving -----------------------------------------------------------------

STATE = "ompds-rebase.json"


def state_path(dest):
    gitdir = git(["rev-parse", "--absolute-git-dir"], dest).stdout.decode().strip()
    return os.path.join(gitdir, STATE)


def old_commits(dest):
    """The commits of the series on the pinned base, in order."""
    return git(["rev-list", "--reverse", "ompds-old-base..ompds-old-series"],
               dest).stdout.decode().split()


def advance(dest, state):
    """Applies state['names'][state['next']:] on branch rebase until one conflicts."""
    names = state["names"]
    while state["next"] < len(names):
        n = names[state["next"]]
        status, detail, files = try_patch(dest, os.path.join(ser.PATCHES, n))
        if status == "conflicting":
            marked, text = leave_conflict(dest, os.path.join(ser.PATCHES, n))
            state["stopped"] = {"patch": n, "files": sorted(set(files) | set(marked)),
                                "detail": detail, "apply": text}
            break
        state["applied"].append({"patch": n, "status": status, "detail": detail})
        state["next"] += 1
    else:
        state["stopped"] = None
    with open(state_path(dest), "w") as f:
        json.dump(state, f, indent=1)
        f.write("\n")


def print_report(title, report, names):
    width = max(len(n) for n in names)
    print(title)
    for i, r in enumerate(report, 1):
        extra = ""
        if r["status"] == "fuzzed":
            extra = " (%s)" % r["detail"]
        elif r["status"] == "conflicting":
            extra = ": %s" % (" ".join(r["files"]) or "see the work tree")
            if r["detail"] and r["detail"].startswith("applies only with offsets"):
                extra += " (%s)" % r["detail"]
        if r.get("after_skipping") and r["status"] != "conflicting":
            extra += " [tried without %s]" % ", ".join(r["after_skipping"])
        print("  %2d %-*s  %s%s" % (i, width, r["patch"], r["status"], extra))


def print_next(dest, state):
    st = state["stopped"]
    if st:
        print("work tree: %s, branch rebase: %d of %d patches applied; stopped at %s.\n"
              "  conflicts%s: %s\n"
              "  Resolve (edit, `git add`), then continue:\n"
              "    scripts/rebase-series --continue --worktree %s\n"
              "  or drop the patch from the series: scripts/rebase-series --skip --worktree %s"
              % (dest, len(state["applied"]), len(state["names"]), st["patch"],
                 " (markers left by git apply --3way)" if st["files"] else "",
                 " ".join(st["files"]) or "none marked; " + st["apply"].replace("\n", "; "),
                 dest, dest))
        return 1
    print("work tree: %s, branch rebase: all %d patches applied (ompds-base is the new base)."
          % (dest, len(state["applied"])))
    print("Export and update the pinned base (docs/rebasing.md):\n"
          "  scripts/export-patches --worktree %s" % dest)
    return 0


def cmd_rebase(args):
    _, names = ser.read_series()
    if not names:
        die("patches/series lists no patches; nothing to rebase")
    if args.onto:
        new_base = os.path.abspath(args.onto)
        if not os.path.isfile(os.path.join(new_base, "llvm", "CMakeLists.txt")):
            die("%s is not an llvm-project source tree (no llvm/CMakeLists.txt)" % new_base)
        new_desc = "%s (LLVM %s)" % (new_base, llvm_version(new_base))
    else:
        m = re.match(r"(?:\d+:)?(\d+)\.", args.onto_debian)
        if not m:
            die("%r is not a Debian version of LLVM (e.g. %s)" % (args.onto_debian, base.DEB_VERSION))
        package = args.debian_package or "llvm-toolchain-%s" % m.group(1)
        new_base = debian_base(args.onto_debian, package)
        new_desc = "Debian %s %s (LLVM %s, with Debian's patches)" % (
            package, args.onto_debian, llvm_version(new_base))
    dest = os.path.abspath(args.worktree or os.path.join(BUILD, "rebase"))
    if os.path.exists(dest):
        die("%s exists; remove it (rm -rf %s) or pass another --worktree" % (dest, dest))
    old_base = ser.base_dir("pristine")
    if os.path.realpath(old_base) == os.path.realpath(new_base):
        note("the new base is the pinned base itself: every patch should be clean")
    note("rebasing %d patches onto %s in %s" % (len(names), new_desc, dest))
    make_repo(dest, old_base, new_base, new_desc, names, args.full, args.include or [])

    # Preview: every patch in order; a conflicting one is left out and the
    # patches after it are tried without it.
    git(["checkout", "-q", "-b", "ompds-rebase-preview", ser.BASE_TAG], dest)
    report = []
    for n in names:
        status, detail, files = try_patch(dest, os.path.join(ser.PATCHES, n))
        skipped = [r["patch"] for r in report if r["status"] == "conflicting"]
        report.append({"patch": n, "status": status, "detail": detail, "files": files,
                       "after_skipping": skipped})
    print_report("rebase onto %s:" % new_desc, report, names)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"onto": new_desc, "worktree": dest, "patches": report}, f, indent=1)
            f.write("\n")

    # The work tree for the user: branch rebase, stopped at the first conflict.
    git(["checkout", "-q", "-B", "rebase", ser.BASE_TAG], dest)
    state = {"onto": new_desc, "names": names, "next": 0, "applied": [], "stopped": None}
    advance(dest, state)
    return print_next(dest, state)


def cmd_continue(args, skip):
    dest = os.path.abspath(args.worktree or os.path.join(BUILD, "rebase"))
    if not os.path.isdir(os.path.join(dest, ".git")):
        die("no rebase work tree at %s (pass --worktree)" % dest)
    try:
        with open(state_path(dest)) as f:
            state = json.load(f)
    except OSError:
        die("%s has no rebase in progress (%s missing)" % (dest, STATE))
    st = state.get("stopped")
    if not st:
        print("nothing to continue: all patches are applied")
        return print_next(dest, state)
    _, names = ser.read_series()
    if names != state["names"]:
        die("patches/series changed since the rebase started; start it again")
    branch = git(["rev-parse", "--abbrev-ref", "HEAD"], dest).stdout.decode().strip()
    if branch != "rebase":
        die("%s is on %s; check out branch rebase first" % (dest, branch))
    n = st["patch"]
    if skip:
        git(["reset", "-q", "--hard", "HEAD"], dest)
        state["applied"].append({"patch": n, "status": "dropped", "detail": "--skip"})
        note("dropped %s (export-patches will delete its file)" % n)
    else:
        unmerged = git(["diff", "--name-only", "--diff-filter=U"], dest).stdout.decode().split()
        if unmerged:
            die("still unmerged: %s; resolve them and `git add` them" % " ".join(unmerged))
        markers = git(["diff", "--cached", "--check"], dest, check=False).stdout.decode()
        if "conflict marker" in markers:
            die("conflict markers are still staged:\n%s" % markers)
        if not git(["diff", "--cached", "--name-only"], dest).stdout.strip():
            die("nothing is staged for %s: `git add` your resolution, or drop the patch with "
                "--skip" % n)
        old = old_commits(dest)[state["names"].index(n)]
        git(["commit", "-q", "--no-verify", "-C", old], dest)
        state["applied"].append({"patch": n, "status": "resolved", "detail": "by hand"})
    state["next"] += 1
    state["stopped"] = None
    advance(dest, state)
    report = [dict(r, files=[]) for r in state["applied"]]
    if state["stopped"]:
        report.append({"patch": state["stopped"]["patch"], "status": "conflicting",
                       "detail": state["stopped"]["detail"],
                       "files": state["stopped"]["files"]})
    print_report("rebase onto %s:" % state["onto"], report, names)
    return print_next(dest, state)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--onto", metavar="DIR", help="an llvm-project source tree (only read)")
    g.add_argument("--onto-debian", metavar="VERSION",
                   help="Debian's llvm-toolchain-<major> source package of this version "
                        "(fetched with apt-get source, unpacked with Debian's patches)")
    g.add_argument("--continue", dest="cont", action="store_true",
                   help="after resolving a conflict (git add): commit it, go on")
    g.add_argument("--skip", action="store_true",
                   help="drop the conflicting patch from the rebased series, go on")
    ap.add_argument("--debian-package", metavar="NAME",
                    help="the source package for --onto-debian (default: "
                         "llvm-toolchain-<major of VERSION>)")
    ap.add_argument("--worktree", help="where the result goes (default: build/rebase)")
    ap.add_argument("--full", action="store_true",
                    help="copy the whole new base into the work tree (default: only the "
                         "files the series touches)")
    ap.add_argument("--include", action="append", metavar="PATH",
                    help="also copy this file or directory of the bases (repeatable)")
    ap.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    args = ap.parse_args()
    if args.cont or args.skip:
        sys.exit(cmd_continue(args, args.skip))
    sys.exit(cmd_rebase(args))


if __name__ == "__main__":
    main()
