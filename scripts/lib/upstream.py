#!/usr/bin/env python3
"""Send one patch of the series upstream, and record where it went.

  upstream.py export PATCH --repo CLONE [--onto REF] [--branch NAME]
                     [--bin DIR] [--description FILE] [--no-tests] [--finish]
  upstream.py status PATCH 'Submitted [url]' [--worktree DIR | --no-worktree]

export: in the user's llvm-project clone, creates a branch at REF (default:
the clone's HEAD), applies the one patch as a standalone commit with
`git am -3 -k` (three-way where the blobs are known), drops the
`Upstream-Status:` trailer from the commit message, writes the PR description
(subject, blank line, message body) to a file, and runs the lit tests the patch
touches (under llvm/test or clang/test) from the clone's tree against our
toolchain's binaries (scripts/lib/lit_suites.py), requiring them to pass.
When `git am` stops on a conflict, resolve it in the clone, `git am
--continue`, and rerun with --finish.

status: rewrites the patch's `Upstream-Status:` line (Pending, Submitted [url],
Backport [commit], Accepted [commit], Inappropriate [reason]). When a work
tree exists (build/work) and agrees with patches/, the patch's commit there is
reworded too (trees unchanged), so `scripts/export-patches --check` keeps
passing; without one the new file is proven to round-trip.

PATCH is a file name in patches/series (with or without .patch) or its
1-based position in the series.
"""

import argparse
import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import series as ser  # noqa: E402
import rebase  # noqa: E402
from util import die, note  # noqa: E402

BUILD = os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build"))
STATUS_LINE_RE = re.compile(r"^Upstream-Status:.*$", re.M)


def git(args, cwd, check=True, env=None, input=None):
    """git in CWD with the user's own configuration (identity included)."""
    genv = dict(os.environ)
    if env:
        genv.update(env)
    res = subprocess.run(["git"] + args, cwd=cwd, env=genv, input=input,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and res.returncode != 0:
        die("git %s failed in %s:\n%s" % (" ".join(args), cwd,
                                          (res.stdout + res.stderr).decode(errors="replace")))
    return res


def out(res):
    return res.stdout.decode(errors="replace").strip()


def resolve_patch(arg):
    """The series file name for a name or a 1-based position."""
    _, names = ser.read_series()
    if re.fullmatch(r"\d+", arg):
        i = int(arg)
        if not 1 <= i <= len(names):
            die("patch number %d is out of range: the series has %d patches (1..%d)"
                % (i, len(names), len(names)))
        return names[i - 1]
    base = os.path.basename(arg)
    for cand in (base, base + ".patch"):
        if cand in names:
            return cand
    close = difflib.get_close_matches(base, names, n=3, cutoff=0.4)
    die("%s is not in patches/series%s" % (
        arg, "; did you mean: %s" % ", ".join(close) if close else
        " (give a file name from patches/series or its position 1..%d)" % len(names)))


def split_message(message):
    """(subject, body) of a commit message."""
    lines = message.strip("\n").split("\n")
    return lines[0], "\n".join(lines[1:]).strip("\n")


def drop_status(message):
    """The message without Upstream-Status lines, whitespace tidied."""
    text = STATUS_LINE_RE.sub("", message)
    text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")
    return text + "\n"


# --- export ------------------------------------------------------------------


def patch_tests(name):
    """Lit test files the patch adds or changes (not Inputs/ or lit configs)."""
    _, _, files = ser.parse_patch(os.path.join(ser.PATCHES, name))
    tests = set()
    for a, b in files:
        for f in (a, b):
            if f.startswith(("llvm/test/", "clang/test/")) and "/Inputs/" not in f \
                    and not os.path.basename(f).startswith("lit."):
                tests.add(f)
    return sorted(tests)


def find_ptxas():
    p = os.environ.get("PTXAS") or shutil.which("ptxas")
    if not p and os.access("/usr/local/cuda/bin/ptxas", os.X_OK):
        p = "/usr/local/cuda/bin/ptxas"
    return p or ""


def run_lit(repo, bindir, name, tests, workdir):
    missing = [f for f in ("llvm/utils/lit/lit/main.py", "llvm/test/lit.cfg.py",
                           "llvm/test/lit.site.cfg.py.in", "clang/test/lit.cfg.py",
                           "clang/test/lit.site.cfg.py.in")
               if not os.path.exists(os.path.join(repo, f))]
    if missing:
        die("%s cannot run lit tests: it lacks %s (not a full llvm-project checkout?).\n"
            "  Use a full clone, or skip the tests with --no-tests." % (repo, ", ".join(missing)))
    if not os.access(os.path.join(bindir, "clang"), os.X_OK):
        die("no clang in %s: build the toolchain first (bash scripts/build) or pass --bin"
            % bindir)
    present = [t for t in tests if os.path.exists(os.path.join(repo, t))]
    gone = sorted(set(tests) - set(present))
    if gone:
        note("not run (the patch deletes them): %s" % ", ".join(gone))
    if not present:
        print("lit:         the patch only deletes tests; nothing to run")
        return 0
    shutil.rmtree(workdir, ignore_errors=True)
    result = os.path.join(os.path.dirname(workdir), "lit.json")
    cmd = [sys.executable, os.path.join(HERE, "lit_suites.py"), "--src", repo, "--bin", bindir,
           "--work", workdir, "--json", result]
    ptxas = find_ptxas()
    if ptxas:
        cmd += ["--ptxas", ptxas]
    for t in present:
        cmd += ["--tests", t]
    note("lit: %s against %s" % (" ".join(present), bindir))
    res = subprocess.run(cmd)
    if res.returncode != 0:
        die("lit_suites.py could not run the tests (see above); results in %s" % workdir)
    res = subprocess.run([sys.executable, os.path.join(HERE, "lit_suites.py"),
                          "--require-pass", result])
    if res.returncode != 0:
        sys.stderr.write("error: the patch's lit tests do not pass in %s against %s "
                         "(logs in %s)\n" % (repo, bindir, workdir))
    return res.returncode


def drop_status_from_head(repo):
    """Removes the Upstream-Status trailer from the message of HEAD in `repo`
    (amending the commit); returns the new message."""
    msg = git(["log", "-1", "--format=%B", "HEAD"], repo).stdout.decode("utf-8", "replace")
    new = drop_status(msg)
    if new.strip("\n") != msg.strip("\n"):
        with tempfile.NamedTemporaryFile("w", delete=False, suffix=".msg") as f:
            f.write(new)
        try:
            git(["commit", "-q", "--amend", "--no-verify", "--cleanup=verbatim", "-F", f.name],
                repo)
        finally:
            os.remove(f.name)
    if STATUS_LINE_RE.search(git(["log", "-1", "--format=%B", "HEAD"], repo).stdout.decode()):
        die("the Upstream-Status trailer is still in HEAD's message in %s" % repo)
    return new


def finish(repo, name, args, onto_desc):
    subject, _, _ = ser.parse_patch(os.path.join(ser.PATCHES, name))
    head_subject = out(git(["log", "-1", "--format=%s", "HEAD"], repo))
    if head_subject != subject:
        die("HEAD of %s is %r, not the patch %s (%r).\n  Check out the export branch "
            "(and finish any git am) first." % (repo, head_subject, name, subject))
    subj, body = split_message(drop_status_from_head(repo))
    stem = name[:-len(".patch")]
    outdir = os.path.join(BUILD, "upstream", stem)
    os.makedirs(outdir, exist_ok=True)
    desc = os.path.abspath(args.description or os.path.join(outdir, "pr-description.md"))
    with open(desc, "w") as f:
        f.write(subj + "\n\n" + (body + "\n" if body else ""))
    head = out(git(["rev-parse", "--short=12", "HEAD"], repo))
    branch = out(git(["rev-parse", "--abbrev-ref", "HEAD"], repo))
    author = out(git(["log", "-1", "--format=%an <%ae>", "HEAD"], repo))
    print("patch:       %s" % name)
    print("branch:      %s in %s%s" % (branch, repo, onto_desc))
    print("commit:      %s %s" % (head, subj))
    print("author:      %s (from the patch; git commit --amend --reset-author to change)"
          % author)
    print("description: %s" % desc)
    rc = 0
    tests = patch_tests(name)
    if args.no_tests:
        print("lit:         skipped (--no-tests)")
    elif not tests:
        print("lit:         the patch touches no test under llvm/test or clang/test")
    else:
        rc = run_lit(repo, os.path.abspath(args.bin), name, tests, os.path.join(outdir, "lit"))
        if rc == 0:
            print("lit:         %d test file(s) pass: %s" % (len(tests), " ".join(tests)))
    print("next:        git -C %s push <your fork> %s; open the PR with the title and text "
          "of %s;\n             then: scripts/upstream-status %s 'Submitted [<PR url>]'"
          % (repo, branch, desc, name))
    return rc


def cmd_export(args):
    name = resolve_patch(args.patch)
    patch = os.path.join(ser.PATCHES, name)
    if args.finish:
        return finish(clone_top(args.repo), name, args, "")
    repo = check_clone(args.repo)
    if not os.path.isdir(os.path.join(repo, "llvm")):
        note("warning: %s has no llvm/ directory; is it an llvm-project clone?" % repo)
    onto = args.onto or "HEAD"
    onto_sha = resolve_commit(repo, onto)
    branch = args.branch or "ompds/" + name[:-len(".patch")]
    if git(["check-ref-format", "--branch", branch], repo, check=False).returncode != 0:
        die("%r is not a valid branch name; pass another --branch" % branch)
    if git(["show-ref", "--verify", "-q", "refs/heads/" + branch], repo,
           check=False).returncode == 0:
        die("branch %s exists in %s; pass another --branch or delete it: "
            "git -C %s branch -D %s" % (branch, repo, repo, branch))

    git(["checkout", "-q", "-b", branch, onto_sha], repo)
    note("branch %s at %s (%s); git am -3 -k %s" % (branch, onto, onto_sha[:12], name))
    # git am applies directly first; with line offsets a hunk can find its
    # context in the wrong place (repeated code). Compare with a three-way
    # merge, which follows the blobs' history when the clone has them.
    direct_ok, offsets = rebase.check_direct(repo, patch)
    direct = merged = None
    if direct_ok and offsets:
        direct = rebase.apply_to_tree(repo, "HEAD", patch, False)
        merged = rebase.apply_to_tree(repo, "HEAD", patch, True)
    res = git(["am", "-q", "-3", "-k", "--keep-cr", patch], repo, check=False)
    if res.returncode == 0 and direct_ok and offsets:
        where = "; ".join(o for _, o in offsets)
        if merged is None:
            die("the patch applied only with line offsets (%s), and a three-way merge "
                "conflicts: the hunks may have found their context in the wrong place.\n"
                "  Check the commit (git -C %s show HEAD), fix it with git commit --amend "
                "if needed, then:\n    scripts/upstream-export %s --repo %s --finish"
                % (where, repo, name, repo))
        elif merged != direct:
            files = out(git(["diff", "--name-only", direct, merged], repo)).split()
            git(["read-tree", "--reset", "-u", merged], repo)
            git(["commit", "-q", "--amend", "--no-edit", "--no-verify"], repo)
            note("warning: line offsets (%s) would place hunks differently from a three-way "
                 "merge in %s; took the merge, check it" % (where, ", ".join(files)))
        else:
            note("applied with line offsets: %s" % where)
    if res.returncode != 0:
        text = (res.stdout + res.stderr).decode(errors="replace")
        conflicts = out(git(["diff", "--name-only", "--diff-filter=U"], repo)).split()
        failed = sorted(set(re.findall(r"^error: (?:patch failed: )?(\S+?):(?:\d+| does not)",
                                       text, re.M)))
        sys.stderr.write(text)
        die("%s does not apply onto %s (%s).\n%s"
            "  Resolve in %s (edit, git add), then `git am --continue`, and finish with:\n"
            "    scripts/upstream-export %s --repo %s --finish\n"
            "  or give up: git -C %s am --abort; git -C %s checkout -; git -C %s branch -D %s"
            % (name, onto, onto_sha[:12],
               "  conflicts in: %s\n" % " ".join(conflicts or failed) if conflicts or failed
               else "", repo, name, repo, repo, repo, repo, branch))
    return finish(repo, name, args, " (onto %s %s)" % (onto, onto_sha[:12]))


# --- stacks ------------------------------------------------------------------


def patch_status(name):
    """The patch's Upstream-Status value ('Pending', 'Inappropriate [...]')."""
    with open(os.path.join(ser.PATCHES, name), encoding="utf-8", errors="replace") as f:
        m = re.search(r"^Upstream-Status:\s*(.*)$", f.read(), re.M)
    return m.group(1).strip() if m else "missing"


def posted(name):
    """Whether the patch goes upstream (everything but Inappropriate ones)."""
    return not patch_status(name).startswith("Inappropriate")


def clone_top(path):
    """The top of the git clone at `path`."""
    res = git(["rev-parse", "--show-toplevel"], path, check=False) \
        if os.path.isdir(path) else None
    if res is None or res.returncode != 0:
        die("%s is not a git clone (of llvm-project); pass --repo <your clone>" % path)
    return out(res)


def resolve_commit(repo, ref):
    """The commit id `ref` names in `repo`."""
    res = git(["rev-parse", "--verify", "-q", ref + "^{commit}"], repo, check=False)
    if res.returncode != 0:
        die("%s is not a commit in %s (fetch it first: git -C %s fetch origin)"
            % (ref, repo, repo))
    return out(res)


def check_clone(path):
    """The top of the clone at `path`, ready for new branches and commits."""
    repo = clone_top(path)
    for state in ("rebase-apply", "rebase-merge", "MERGE_HEAD", "CHERRY_PICK_HEAD"):
        if os.path.exists(out(git(["rev-parse", "--git-path", state], repo))):
            die("%s has a git am/rebase/merge in progress; finish or abort it first" % repo)
    dirty = out(git(["status", "--porcelain", "--untracked-files=no"], repo))
    if dirty:
        die("%s has uncommitted changes; commit or stash them first:\n%s" % (repo, dirty))
    if git(["var", "GIT_COMMITTER_IDENT"], repo, check=False).returncode != 0:
        die("git has no identity in %s; set one: git -C %s config user.name 'Your Name'; "
            "git -C %s config user.email you@example.com" % (repo, repo, repo))
    return repo


def cmd_stacks(args):
    stacks = ser.read_stacks()
    known = [s[0] for s in stacks]
    if args.stack and args.stack not in known:
        die("no stack '%s' in patches/series (stacks: %s)" % (args.stack, ", ".join(known)))
    if args.list:
        # Quiet when the reader stops early (| head).
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        for i, (sid, title, names) in enumerate(stacks, 1):
            print("%d. %s: %s" % (i, sid, title))
            for name in names:
                print("   %s %s%s" % ("PR " if posted(name) else "-- ", name[:-len(".patch")],
                                      "" if posted(name) else "  (%s)" % patch_status(name)))
        return 0
    if not args.repo:
        die("pass --repo <your llvm-project clone> (or --list)")
    repo = check_clone(args.repo)
    onto = args.onto or "HEAD"
    start = resolve_commit(repo, onto)
    todo = [s for s in stacks if not args.stack or s[0] == args.stack]
    todo = [(sid, title, names) for sid, title, names in todo if any(map(posted, names))]
    outdir = os.path.join(BUILD, "upstream", "stacks")
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    index = ["# The series as upstream PR stacks", "",
             "Made by `scripts/upstream-export --stacks` onto %s (%s). Post the stacks "
             "in this order; within a stack, one PR per commit, each stacked on the one "
             "before it. Patches marked Inappropriate stay downstream." % (onto, start[:12]),
             ""]
    for k, (sid, title, names) in enumerate(todo, 1):
        branch = "ompds/stack-%d-%s" % (k, sid)
        if git(["show-ref", "--verify", "-q", "refs/heads/" + branch], repo,
               check=False).returncode == 0:
            die("branch %s exists in %s; delete it first: git -C %s branch -D %s"
                % (branch, repo, repo, branch))
        git(["checkout", "-q", "-b", branch, start], repo)
        sdir = os.path.join(outdir, "%d-%s" % (k, sid))
        os.makedirs(sdir)
        mine = [n for n in names if posted(n)]
        index += ["## %d. %s: %s" % (k, sid, title), "",
                  "Branch `%s`, on %s." % (branch, "`%s`" % onto if k == 1 or args.stack
                                           else "`ompds/stack-%d-%s`" % (k - 1, todo[k - 2][0])),
                  ""]
        subjects = []
        for j, name in enumerate(mine, 1):
            res = git(["am", "-q", "-3", "-k", "--keep-cr", os.path.join(ser.PATCHES, name)],
                      repo, check=False)
            if res.returncode != 0:
                sys.stderr.write((res.stdout + res.stderr).decode(errors="replace"))
                git(["am", "--abort"], repo, check=False)
                skipped = [n for n in names[:names.index(name)] if not posted(n)]
                die("%s (stack %s) does not apply on %s%s.\n  The branch is left at the "
                    "patch before it; fix the series (a posted patch must not need a "
                    "downstream one) or pass --onto a base it applies to."
                    % (name, sid, branch, "; the stack keeps %s downstream, which it may "
                       "need" % ", ".join(skipped) if skipped else ""))
            subj, body = split_message(drop_status_from_head(repo))
            desc = os.path.join(sdir, "%02d-%s.md" % (j, name[:-len(".patch")]))
            with open(desc, "w") as f:
                f.write(subj + "\n\n" + (body + "\n" if body else ""))
                f.write("\n---\nPR %d of %d of the stack \"%s\"" % (j, len(mine), title))
                if subjects:
                    f.write("; stacked on: %s" % "; ".join(subjects))
                f.write(".\n")
            subjects.append(subj)
            head = out(git(["rev-parse", "--short=12", "HEAD"], repo))
            index.append("%d. %s `%s` ([description](%s/%s))"
                         % (j, subj, head, os.path.basename(sdir), os.path.basename(desc)))
        kept = [n for n in names if not posted(n)]
        if kept:
            index += ["", "Kept downstream: %s." % ", ".join(
                "%s (%s)" % (n[:-len(".patch")], patch_status(n)) for n in kept)]
        index.append("")
        note("stack %d %s: %d commits on %s" % (k, sid, len(mine), branch))
        start = out(git(["rev-parse", "HEAD"], repo))
    with open(os.path.join(outdir, "README.md"), "w") as f:
        f.write("\n".join(index))
    print("stacks:      %d, branches ompds/stack-<n>-<id> in %s" % (len(todo), repo))
    print("order:       %s" % os.path.join(outdir, "README.md"))
    print("next:        per-position proof: scripts/bisect-series; push each branch and "
          "open its PRs in order")
    return 0


# --- status ------------------------------------------------------------------


def message_region(data):
    """(start, end) of the commit message of a format-patch file's text."""
    head_end = data.find("\n\n")
    if head_end < 0:
        die("not a git format-patch file (no header)")
    m = re.search(r"^(---\n|diff --git )", data[head_end:], re.M)
    if not m:
        die("no diff after the message")
    return head_end + 2, head_end + m.start()


def replace_status(msg, status):
    """(MSG with its one Upstream-Status line set to STATUS, the old line)."""
    lines = STATUS_LINE_RE.findall(msg)
    if len(lines) != 1:
        die("the patch message has %d Upstream-Status lines; it must have exactly one "
            "(scripts/lint-series)" % len(lines))
    return STATUS_LINE_RE.sub(lambda m: "Upstream-Status: " + status, msg), lines[0]


def rewrite_text(data, status):
    """The format-patch text DATA with its Upstream-Status line set to STATUS."""
    start, end = message_region(data)
    msg, old_line = replace_status(data[start:end], status)
    return data[:start] + msg + data[end:], old_line


def worktree_commit(wt, name):
    """The commit of patch NAME in work tree WT (and the linear list after base)."""
    revs = ser.git(["rev-list", "--reverse", "--topo-order", ser.BASE_TAG + "..HEAD"],
                   wt).stdout.decode().split()
    merges = ser.git(["rev-list", "--merges", ser.BASE_TAG + "..HEAD"], wt).stdout.decode().split()
    if merges:
        die("%s has merge commits after %s; rewording needs a linear history" % (wt, ser.BASE_TAG))
    for i, rev in enumerate(revs):
        subject = ser.git(["log", "-1", "--format=%s", rev], wt).stdout.decode().strip()
        if ser.sanitize_subject(subject) + ".patch" == name:
            return revs, i
    return revs, None


def reword(wt, revs, index, transform):
    """Recreates revs[index:] with the message of revs[index] transformed.
    Trees, authors and dates stay; only HEAD's branch moves (update-ref)."""
    old_head = revs[-1]
    parent = ser.git(["rev-parse", revs[index] + "^"], wt).stdout.decode().strip()
    for i, rev in enumerate(revs[index:]):
        raw = ser.git(["cat-file", "commit", rev], wt).stdout.decode("utf-8")
        header, _, message = raw.partition("\n\n")
        if re.search(r"^(encoding|gpgsig|mergetag) ", header, re.M):
            die("%s: commit %s has headers this script does not rewrite (%s); edit it "
                "with git rebase -i instead" % (wt, rev[:12], header.split("\n")[0]))
        fields = dict(re.findall(r"^(author|committer) (.*)$", header, re.M))
        env = {}
        for role in ("author", "committer"):
            m = re.match(r"(.*) <(.*)> (\d+ [+-]\d{4})$", fields[role])
            env["GIT_%s_NAME" % role.upper()] = m.group(1)
            env["GIT_%s_EMAIL" % role.upper()] = m.group(2)
            env["GIT_%s_DATE" % role.upper()] = m.group(3)
        if i == 0:
            message = transform(message)
        tree = ser.git(["rev-parse", rev + "^{tree}"], wt).stdout.decode().strip()
        res = subprocess.run(["git", "commit-tree", tree, "-p", parent], cwd=wt,
                             input=message.encode("utf-8"), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=dict(os.environ, **env))
        if res.returncode != 0:
            die("git commit-tree failed in %s: %s" % (wt, res.stderr.decode()))
        parent = res.stdout.decode().strip()
    ser.git(["update-ref", "-m", "ompds upstream-status", "HEAD", parent, old_head], wt)
    return parent


def cmd_status(args):
    name = resolve_patch(args.patch)
    status = args.status.strip()
    if status.startswith("Upstream-Status:"):
        status = status[len("Upstream-Status:"):].strip()
    if not ser.UPSTREAM_STATUS_RE.fullmatch("Upstream-Status: " + status):
        die("%r is not a valid status; use one of: Pending | Submitted [url] | "
            "Backport [commit] | Accepted [commit] | Inappropriate [reason]" % status)
    if not status.isascii() or "\n" in status:
        die("the status must be one line of ASCII (the patch must round-trip unchanged)")
    path = os.path.join(ser.PATCHES, name)
    with open(path, "rb") as f:
        old_bytes = f.read()
    old = old_bytes.decode("utf-8")
    new, old_line = rewrite_text(old, status)
    if new == old:
        print("%s: already %s" % (name, old_line))
        return 0

    wt = None if args.no_worktree else os.path.abspath(args.worktree or ser.default_worktree())
    if wt and not os.path.isdir(os.path.join(wt, ".git")):
        if args.worktree:
            die("%s is not a work tree (no .git); create it with scripts/apply-patches" % wt)
        wt = None
    if wt:
        for state in ("rebase-apply", "rebase-merge"):
            p = ser.git(["rev-parse", "--git-path", state], wt).stdout.decode().strip()
            if os.path.exists(os.path.join(wt, p)):
                die("%s has a git am/rebase in progress; finish it, or pass --no-worktree" % wt)
        exported = dict(ser.export_commits(wt))
        if exported.get(name) != old_bytes:
            die("the work tree %s does not agree with patches/%s (unexported edits, or an "
                "older tree).\n  Export it first (scripts/export-patches), or recreate it "
                "(scripts/apply-patches), or pass --no-worktree and recreate it afterwards."
                % (wt, name))
        revs, index = worktree_commit(wt, name)
        if index is None:
            die("no commit for %s in %s" % (name, wt))
        reword(wt, revs, index, lambda m: replace_status(m, status)[0])
        data = dict(ser.export_commits(wt))[name]
        if data != new.encode("utf-8"):
            die("internal: the reworded commit in %s does not export to the edited patch; "
                "patches/ is unchanged, fix the work tree with git reflog" % wt)
        with open(path, "wb") as f:
            f.write(data)
        where = "patches/%s and its commit in %s" % (name, wt)
    else:
        with open(path, "wb") as f:
            f.write(new.encode("utf-8"))
        exported, names = ser.round_trip("pristine")
        problems = [p for p in ser.compare(exported, names) if p.startswith(name)]
        if problems:
            with open(path, "wb") as f:
                f.write(old_bytes)
            die("the edited patch would not round-trip (%s); restored the old file"
                % "; ".join(problems))
        where = "patches/%s (no work tree to reword)" % name
    print("%s -> Upstream-Status: %s" % (old_line, status))
    print("updated %s" % where)
    problems = [p for p in ser.lint(format_check=False) if name in p]
    if problems:
        for p in problems:
            print("lint: " + p)
        return 1
    print("check: scripts/lint-series --no-format && scripts/export-patches --check")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter, help="apply one patch to a branch of an llvm-project clone")
    e.add_argument("patch", help="file name in patches/series, or its position (1-based)")
    e.add_argument("--repo", required=True, help="your llvm-project clone")
    e.add_argument("--onto", help="where the branch starts (default: the clone's HEAD)")
    e.add_argument("--branch", help="branch name (default: ompds/<patch name>)")
    e.add_argument("--bin", default=os.path.join(BUILD, "toolchain", "bin"),
                   help="tools the lit tests run against (default: %(default)s)")
    e.add_argument("--description", metavar="FILE",
                   help="where to write the PR description (default: "
                        "build/upstream/<patch>/pr-description.md)")
    e.add_argument("--no-tests", action="store_true", help="do not run the lit tests")
    e.add_argument("--finish", action="store_true",
                   help="after resolving a conflict and `git am --continue`: drop the "
                        "trailer, write the description, run the tests")
    e.set_defaults(func=cmd_export)
    k = sub.add_parser("stacks", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       help="every stack of patches/series onto branches, with PR descriptions")
    k.add_argument("--repo", help="your llvm-project clone")
    k.add_argument("--onto", help="where the first stack starts (default: the clone's HEAD)")
    k.add_argument("--stack", help="only this stack (onto --onto, which must hold the "
                                   "stacks before it)")
    k.add_argument("--list", action="store_true", help="print the stacks and exit")
    k.set_defaults(func=cmd_stacks)
    s = sub.add_parser("status", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter, help="set a patch's Upstream-Status line")
    s.add_argument("patch", help="file name in patches/series, or its position (1-based)")
    s.add_argument("status", help="'Submitted [url]', 'Backport [commit]', "
                                  "'Accepted [commit]', 'Pending' or 'Inappropriate [reason]'")
    s.add_argument("--worktree", help="the work tree to reword too (default: build/work "
                                      "when it exists)")
    s.add_argument("--no-worktree", action="store_true",
                   help="only edit the patch file (recreate work trees afterwards)")
    s.set_defaults(func=cmd_status)
    args = ap.parse_args()
    sys.exit(args.func(args) or 0)


if __name__ == "__main__":
    main()
