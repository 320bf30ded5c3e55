#!/usr/bin/env python3
"""Install the ompds toolchain into a prefix, relocatable and self-contained.

  install.py install --prefix DIR [--toolchain build/toolchain]
             [--modulefiles DIR] [--tcl-modulefiles DIR] [--no-check]
  install.py uninstall --prefix DIR [--dry-run]

build/toolchain links much of itself to Debian's /usr/lib/llvm-<major> (tools,
libomp, libomptarget, the clang resource directory) and to rocm-device-libs.
The install copies real files instead (symlinks are dereferenced), keeps the
layout clang expects relative to its binary (lib/clang/<major>, lib/<triple>,
amdgcn/bitcode), and follows the ELF dependencies of everything it copies:
a library that a copied file finds in /usr/lib/llvm-<major> through its RUNPATH
(libLLVM, libclang-cpp for Debian's tools; libLLVM for libomptarget) is copied
to where that RUNPATH finds it in the prefix. Links inside the prefix are
relative, so the prefix can be moved or copied as a whole. Debian's system
libraries (libc, libstdc++, libz3, libxml2, ...) stay dependencies; the list
is written to share/ompds/system-dependencies.txt.

Every installed path is recorded in share/ompds/install-manifest.txt, which
`uninstall` reads to remove exactly those paths (and the directories the
install created, when empty). Lmod (Lua) and Tcl modulefiles are generated
from patches/VERSION; they find the prefix from their own location, so they
keep working after the prefix moves.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import base  # noqa: E402
import series as ser  # noqa: E402
from modulefiles import device_archs, lua_modulefile, tcl_modulefile  # noqa: E402
from util import die, note  # noqa: E402

DEB = base.DEB_LLVM
MANIFEST = "share/ompds/install-manifest.txt"
SYSDEPS = "share/ompds/system-dependencies.txt"
LUA_DIR = "share/modulefiles"
TCL_DIR = "share/modulefiles-tcl"
MAN_SRC = "/usr/share/man/man1"
# Libraries that must come from the prefix, wherever the system would find them.
OURS_RE = re.compile(r"^lib(LLVM|clang|lld|omp|omptarget|archer)\b")


def under(path, root):
    return path == root or path.startswith(root.rstrip("/") + "/")


# --- ELF ---------------------------------------------------------------------


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def readelf_tool():
    for c in ("readelf", "llvm-readelf" + base.SUFFIX, os.path.join(DEB, "bin", "llvm-readelf")):
        p = shutil.which(c) or (c if os.path.isabs(c) and os.access(c, os.X_OK) else None)
        if p:
            return p
    die("neither readelf (package binutils) nor llvm-readelf%s is installed; "
        "install one: apt-get install binutils" % base.SUFFIX)


def dynamic_info(path, readelf):
    """(NEEDED names, RUNPATH/RPATH entries) of an ELF file."""
    res = subprocess.run([readelf, "-d", "-W", path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if res.returncode != 0:
        return [], []
    needed, runpath = [], []
    for line in res.stdout.decode(errors="replace").splitlines():
        m = re.search(r"\((NEEDED|RUNPATH|RPATH)\)\s+.*?\[(.*)\]", line)
        if not m:
            continue
        if m.group(1) == "NEEDED":
            needed.append(m.group(2))
        else:
            runpath += [e for e in m.group(2).split(":") if e]
    return needed, runpath


# --- planning ----------------------------------------------------------------


class Plan:
    """What to install: relative destination -> ('file', source) | ('link', target)."""

    def __init__(self):
        self.entries = {}
        self.order = []

    def add(self, dest, kind, value):
        dest = os.path.normpath(dest)
        if dest in self.entries:
            return False
        self.entries[dest] = (kind, value)
        self.order.append(dest)
        return True

    def walk(self, src, dest, root):
        """Adds the tree at SRC as DEST. Links that stay inside ROOT (the tree
        being walked) stay links; others are dereferenced."""
        for name in sorted(os.listdir(src)):
            s, d = os.path.join(src, name), os.path.join(dest, name)
            if os.path.islink(s):
                target = os.readlink(s)
                real = os.path.realpath(s)
                if not os.path.exists(real):
                    die("%s is a dangling link (to %s); rebuild the toolchain "
                        "(scripts/build) or install the missing package" % (s, target))
                if not os.path.isabs(target) and under(real, root) and \
                        under(os.path.normpath(os.path.join(src, target)), root):
                    self.add(d, "link", target)
                elif os.path.isdir(real):
                    self.walk(real, d, real)
                else:
                    self.add(d, "file", real)
            elif os.path.isdir(s):
                self.walk(s, d, root)
            elif os.path.isfile(s):
                self.add(d, "file", os.path.realpath(s))
            else:
                die("%s is neither a file, a directory nor a link" % s)

    def close_over_libraries(self, readelf):
        """Adds what copied ELF files find in Debian's LLVM through RUNPATH."""
        i = 0
        while i < len(self.order):
            dest = self.order[i]
            i += 1
            kind, src = self.entries[dest]
            if kind != "file" or not is_elf(src):
                continue
            needed, runpath = dynamic_info(src, readelf)
            for lib in needed:
                for entry in runpath:
                    if "$ORIGIN" not in entry and "${ORIGIN}" not in entry:
                        if os.path.exists(os.path.join(entry, lib)) and under(entry, DEB):
                            die("%s finds %s through the absolute RUNPATH %s; it cannot "
                                "be made relocatable" % (src, lib, entry))
                        continue
                    s_dir = entry.replace("${ORIGIN}", "$ORIGIN").replace(
                        "$ORIGIN", os.path.dirname(src))
                    cand = os.path.join(s_dir, lib)
                    if not os.path.exists(cand):
                        continue
                    if under(os.path.normpath(cand), DEB) or \
                            under(os.path.realpath(cand), DEB):
                        d_dir = entry.replace("${ORIGIN}", "$ORIGIN").replace(
                            "$ORIGIN", os.path.dirname(dest))
                        d = os.path.normpath(os.path.join(d_dir, lib))
                        if d.startswith("../") or d == "..":
                            die("%s would need %s outside the prefix (%s)" % (src, lib, d))
                        self.add(d, "file", os.path.realpath(cand))
                    break  # found: the loader stops at the first hit

    def deduplicate(self):
        """One copy per source file; the other destinations become relative
        links to it (ld.lld -> lld keeps argv[0], lib/<triple>/libLLVM -> ../)."""
        groups = {}
        for dest in self.order:
            kind, src = self.entries[dest]
            if kind == "file":
                groups.setdefault(src, []).append(dest)
        for src, dests in groups.items():
            if len(dests) < 2:
                continue
            canon = next((d for d in dests if os.path.basename(d) == os.path.basename(src)),
                         dests[0])
            for d in dests:
                if d != canon:
                    self.entries[d] = ("link", os.path.relpath(canon, os.path.dirname(d)))

    def dirs(self):
        out = set()
        for dest in self.order:
            d = os.path.dirname(dest)
            while d:
                out.add(d)
                d = os.path.dirname(d)
        return sorted(out)


def plan_install(tc, readelf):
    plan = Plan()
    plan.walk(tc, "", os.path.realpath(tc))
    plan.close_over_libraries(readelf)
    # Man pages of the installed tools (Debian ships them as <tool>-<major>.<minor>.gz).
    for dest in list(plan.order):
        if os.path.dirname(dest) == "bin":
            man = os.path.join(MAN_SRC, "%s-%s.gz" % (os.path.basename(dest), base.SOVERSION))
            if os.path.exists(man):
                plan.add("share/man/man1/%s.1.gz" % os.path.basename(dest), "file",
                         os.path.realpath(man))
    plan.deduplicate()
    return plan


# --- manifest ----------------------------------------------------------------
# One entry a line: "<type> <path>". f/l/d: a file, link or directory (created
# by the install) relative to the prefix; F/D: the same outside the prefix
# (modulefiles written with --modulefiles), absolute.


def read_manifest(prefix):
    path = os.path.join(prefix, MANIFEST)
    if not os.path.exists(path):
        die("%s has no ompds install manifest (%s); nothing to uninstall. "
            "Was it installed with scripts/install --prefix %s?" % (prefix, MANIFEST, prefix))
    entries, info = [], {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#"):
                m = re.match(r"#\s*(\w+):\s*(.*)$", line)
                if m:
                    info[m.group(1)] = m.group(2)
                continue
            if not line:
                continue
            kind, _, p = line.partition(" ")
            if kind in "fld" and len(kind) == 1:
                norm = os.path.normpath(p)
                if os.path.isabs(p) or norm == ".." or norm.startswith("../"):
                    die("%s:%d: %r leaves the prefix; the manifest is damaged, remove "
                        "the install by hand" % (path, n, p))
            elif kind in ("F", "D"):
                if not os.path.isabs(p) or ".." in p.split("/"):
                    die("%s:%d: %r is not an absolute path; the manifest is damaged"
                        % (path, n, p))
            else:
                die("%s:%d: unknown entry %r; the manifest is damaged" % (path, n, line))
            entries.append((kind, p))
    return entries, info


# --- install -----------------------------------------------------------------


def series_version():
    with open(os.path.join(ser.PATCHES, "VERSION")) as f:
        return f.read().strip()


def check_toolchain(tc, version):
    clang = os.path.join(tc, "bin", "clang")
    if not os.access(clang, os.X_OK):
        die("no toolchain at %s (bin/clang missing); build it first: bash scripts/build" % tc)
    res = subprocess.run([clang, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = res.stdout.decode(errors="replace")
    if res.returncode != 0:
        die("%s --version failed:\n%s" % (clang, out))
    if "(ompds %s)" % version not in out:
        die("%s does not report (ompds %s) (patches/VERSION): it was built from another "
            "state of the series. Rebuild it: bash scripts/build\n%s"
            % (clang, version, out.splitlines()[0] if out else ""))
    info = os.path.join(tc, "ompds-build.json")
    if os.path.exists(info):
        try:
            sys.path.insert(0, HERE)
            import overlay
            with open(info) as f:
                built = json.load(f).get("series_digest")
            if built and built != overlay.series_digest():
                note("warning: %s was built from another state of patches/ than the "
                     "checkout (same VERSION); run scripts/build to install the current "
                     "series" % tc)
        except Exception as e:  # informational only
            note("warning: could not compare the toolchain with patches/: %s" % e)


def ldd(path):
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
    res = subprocess.run(["ldd", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         env=env)
    out = res.stdout.decode(errors="replace")
    if "not a dynamic executable" in out or "statically linked" in out:
        return []
    deps = []
    for line in out.splitlines():
        m = re.match(r"\s*(\S+) => (.*?)(?: \(0x[0-9a-f]+\))?$", line)
        if m:
            deps.append((m.group(1), m.group(2).strip()))
    return deps


def check_dependencies(prefix, files):
    """ldd every installed ELF: nothing may resolve into Debian's LLVM,
    nothing may be missing, and LLVM/OpenMP libraries must come from the
    prefix. Returns {system library path: [installed files needing it]}."""
    problems, system = [], {}
    for rel in files:
        p = os.path.join(prefix, rel)
        if os.path.islink(p) or not is_elf(p):
            continue
        for name, where in ldd(p):
            if where == "not found":
                problems.append("%s: %s not found" % (rel, name))
            elif under(where, DEB) or under(os.path.realpath(where), DEB):
                problems.append("%s: %s resolves into %s (%s)" % (rel, name, DEB, where))
            elif not under(os.path.realpath(where), os.path.realpath(prefix)):
                if OURS_RE.match(name):
                    problems.append("%s: %s resolves outside the prefix (%s)" % (rel, name, where))
                else:
                    system.setdefault(os.path.realpath(where), []).append(rel)
    return problems, system


def packages_of(paths):
    """{path: Debian package} via one dpkg -S (usrmerge: /lib and /usr/lib)."""
    cands = {}
    for p in paths:
        for c in (p, p[4:] if p.startswith("/usr/") else "/usr" + p):
            cands[c] = p
    res = subprocess.run(["dpkg", "-S"] + sorted(cands), stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    out = {p: "?" for p in paths}
    for line in res.stdout.decode(errors="replace").splitlines():
        pkg, _, path = line.partition(": ")
        if path in cands and ", " not in pkg:
            out[cands[path]] = pkg.strip()
    return out


def cmd_install(args):
    version = series_version()
    tc = os.path.abspath(args.toolchain)
    prefix = os.path.abspath(args.prefix)
    if under(os.path.realpath(prefix), os.path.realpath(tc)):
        die("the prefix %s is the toolchain or inside it; choose another --prefix" % prefix)
    if os.path.exists(os.path.join(prefix, MANIFEST)):
        _, info = read_manifest(prefix)
        die("%s already holds an ompds install (version %s); remove it first: "
            "scripts/uninstall --prefix %s" % (prefix, info.get("version", "?"), prefix))
    if os.path.exists(prefix) and not os.path.isdir(prefix):
        die("%s exists and is not a directory" % prefix)
    check_toolchain(tc, version)
    readelf = readelf_tool()

    note("planning the install of %s (ompds %s) into %s" % (tc, version, prefix))
    plan = plan_install(tc, readelf)
    modfiles = []  # (absolute path, text, inside prefix)
    lua_dir = os.path.abspath(args.modulefiles) if args.modulefiles else \
        os.path.join(prefix, LUA_DIR)
    tcl_dir = os.path.abspath(args.tcl_modulefiles) if args.tcl_modulefiles else \
        os.path.join(prefix, TCL_DIR)
    modfiles.append((os.path.join(lua_dir, "ompds", version + ".lua"),
                     lua_modulefile(version, prefix, LUA_DIR + "/ompds", device_archs(tc))))
    modfiles.append((os.path.join(tcl_dir, "ompds", version),
                     tcl_modulefile(version, prefix, TCL_DIR + "/ompds", device_archs(tc))))
    for path, _ in modfiles:
        if under(path, prefix):
            plan.add(os.path.relpath(path, prefix), "text", path)
    plan.add(SYSDEPS, "text", SYSDEPS)
    plan.add(MANIFEST, "text", MANIFEST)

    # Nothing may be overwritten: uninstall would remove another's file.
    clashes = [d for d in plan.order if os.path.lexists(os.path.join(prefix, d))]
    clashes += [p for p, _ in modfiles if not under(p, prefix) and os.path.lexists(p)]
    for d in plan.dirs():
        p = os.path.join(prefix, d)
        if os.path.lexists(p) and not os.path.isdir(p):
            clashes.append(d)
    if clashes:
        die("the install would overwrite %d existing path(s), e.g.:\n  %s\n"
            "  Install into an empty or new prefix, or remove them first."
            % (len(clashes), "\n  ".join(sorted(clashes)[:10])))

    size = sum(os.path.getsize(v) for k, v in plan.entries.values() if k == "file")
    probe = prefix
    while not os.path.exists(probe):
        probe = os.path.dirname(probe)
    free = shutil.disk_usage(probe).free
    if free < size * 1.05:
        die("%s has %.0f MB free, the install needs %.0f MB" % (probe, free / 1e6, size / 1e6))

    # Directories that this install creates (so that uninstall removes them).
    new_dirs = []
    if not os.path.exists(prefix):
        new_dirs.append(("d", "."))
    for d in plan.dirs():
        if not os.path.exists(os.path.join(prefix, d)):
            new_dirs.append(("d", d))
    ext = []
    for path, _ in modfiles:
        if under(path, prefix):
            continue
        d, missing = os.path.dirname(path), []
        while not os.path.exists(d):
            missing.append(d)
            d = os.path.dirname(d)
        ext += [("D", m) for m in reversed(missing) if ("D", m) not in ext] + [("F", path)]

    # The manifest first: an install that fails halfway can still be removed.
    os.makedirs(os.path.join(prefix, os.path.dirname(MANIFEST)), exist_ok=True)
    entries = new_dirs + ext + [("l" if plan.entries[d][0] == "link" else "f", d)
                                for d in plan.order]
    with open(os.path.join(prefix, MANIFEST), "w") as f:
        f.write("# ompds install manifest: scripts/uninstall --prefix DIR removes exactly\n"
                "# these paths (f file, l link, d directory created by the install,\n"
                "# relative to the prefix; F/D outside it). Do not edit.\n")
        f.write("# version: %s\n# toolchain: %s\n# installed: %s\n# prefix: %s\n"
                % (version, tc, datetime.datetime.now().isoformat(timespec="seconds"), prefix))
        for kind, p in entries:
            f.write("%s %s\n" % (kind, p))

    note("copying %d files (%.0f MB)" % (
        sum(1 for k, _ in plan.entries.values() if k == "file"), size / 1e6))
    try:
        for d in plan.dirs():
            os.makedirs(os.path.join(prefix, d), exist_ok=True)
        for dest in plan.order:
            kind, value = plan.entries[dest]
            p = os.path.join(prefix, dest)
            if kind == "file":
                shutil.copy2(value, p)
            elif kind == "link":
                os.symlink(value, p)
        for path, text in modfiles:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
    except OSError as e:
        die("copying failed: %s\n  (Did %s change during the install? Do not run "
            "scripts/build meanwhile.)\n  Remove the partial install with scripts/uninstall "
            "--prefix %s and retry." % (e, tc, prefix))

    problems, system = ([], {}) if args.no_check else check_dependencies(prefix, plan.order)
    pkgs = packages_of(sorted(system)) if system else {}
    with open(os.path.join(prefix, SYSDEPS), "w") as f:
        f.write("# Libraries outside the prefix that the installed files load (Debian\n"
                "# packages). The host linker, C library headers and CUDA are needed\n"
                "# too, see docs/installing.md.\n")
        if args.no_check:
            f.write("# (not computed: installed with --no-check)\n")
        for lib in sorted(system):
            f.write("%-45s %s\n" % (lib, pkgs[lib]))
    if problems:
        die("the installed files are not self-contained:\n  %s\n  The install is in %s; "
            "remove it with scripts/uninstall --prefix %s"
            % ("\n  ".join(problems[:30]), prefix, prefix))
    if not args.no_check:
        clang = os.path.join(prefix, "bin", "clang")
        res = subprocess.run([clang, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        if res.returncode != 0 or ("(ompds %s)" % version).encode() not in res.stdout:
            die("the installed %s does not run or does not report ompds %s:\n%s"
                % (clang, version, res.stdout.decode(errors="replace")))
        note("checked: no installed file loads anything from %s; %d Debian system "
             "libraries needed (%s)" % (DEB, len(system), SYSDEPS))
    print("installed ompds %s into %s" % (version, prefix))
    print("  compiler:    %s/bin/clang" % prefix)
    for path, _ in modfiles:
        print("  modulefile:  %s" % path)
    print("  use it:      module use %s && module load ompds/%s" % (lua_dir, version))
    print("  remove it:   scripts/uninstall --prefix %s" % prefix)
    return 0


# --- uninstall ---------------------------------------------------------------


def cmd_uninstall(args):
    prefix = os.path.abspath(args.prefix)
    if not os.path.isdir(prefix):
        die("%s does not exist or is not a directory" % prefix)
    entries, info = read_manifest(prefix)
    manifest = os.path.join(prefix, MANIFEST)

    def full(kind, p):
        return p if kind in "FD" else os.path.normpath(os.path.join(prefix, p))

    removed = missing = 0
    kept = []
    for kind, p in entries:
        if kind in "dD":
            continue
        path = full(kind, p)
        if path == manifest:
            continue  # last
        if not os.path.lexists(path):
            missing += 1
            continue
        if os.path.isdir(path) and not os.path.islink(path):
            kept.append("%s (a directory now; the install put a file there)" % path)
            continue
        if args.dry_run:
            print("would remove %s" % path)
        else:
            os.remove(path)
        removed += 1
    dirs = sorted((full(k, p) for k, p in entries if k in "dD"),
                  key=lambda d: d.count("/"), reverse=True)
    if args.dry_run:
        print("would remove %s" % manifest)
    else:
        os.remove(manifest)
    removed += 1
    for d in dirs:
        if not os.path.isdir(d):
            continue
        if args.dry_run:
            print("would remove directory %s (if empty)" % d)
            continue
        try:
            os.rmdir(d)
        except OSError:
            kept.append("%s (not empty: holds files the install did not put there)" % d)
    verb = "would remove" if args.dry_run else "removed"
    print("%s ompds %s from %s: %d files and links%s" % (
        verb, info.get("version", "?"), prefix, removed,
        ", %d were already gone" % missing if missing else ""))
    for k in kept:
        print("  kept %s" % k)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("install", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter, help="install the toolchain into a prefix")
    i.add_argument("--prefix", required=True, help="where to install (created if missing)")
    i.add_argument("--toolchain", default=os.path.join(
        os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build")), "toolchain"),
        help="the toolchain to install (default: %(default)s)")
    i.add_argument("--modulefiles", metavar="DIR",
                   help="write the Lmod modulefile to DIR/ompds/<version>.lua "
                        "(default: PREFIX/%s)" % LUA_DIR)
    i.add_argument("--tcl-modulefiles", metavar="DIR",
                   help="write the Tcl modulefile to DIR/ompds/<version> "
                        "(default: PREFIX/%s)" % TCL_DIR)
    i.add_argument("--no-check", action="store_true",
                   help="skip the ldd check of the installed files")
    i.set_defaults(func=cmd_install)
    u = sub.add_parser("uninstall", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter, help="remove what install put into a prefix")
    u.add_argument("--prefix", required=True)
    u.add_argument("--dry-run", action="store_true", help="only list what would be removed")
    u.set_defaults(func=cmd_uninstall)
    args = ap.parse_args()
    sys.exit(args.func(args) or 0)


if __name__ == "__main__":
    main()
