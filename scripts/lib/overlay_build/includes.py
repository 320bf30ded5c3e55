"""What to compile: the include graph of the source tree, who includes a
touched header, the library (and Debian archive) a source belongs to, and the
classification of the files the series touches."""

import functools
import os
import re

from util import die

from .config import HOST_OFFLOAD_DIRS, TOOLS, devicertl_dir, driver_options_dir
from .diagtables import DIAG_TD_RE

INCLUDE_RE = re.compile(rb'^\s*#\s*(?:include|import)\s*([<"])([^>"]+)[>"]', re.M)
SCAN_DIRS = ["llvm/include", "llvm/lib", "llvm/tools", "clang/include", "clang/lib",
             "clang/tools"]
SOURCE_EXT = (".cpp", ".c", ".h", ".inc", ".def")


def scan_includes(src):
    """{relative path: [include names]} for the sources of the tree."""
    graph = {}
    for d in SCAN_DIRS:
        for dirpath, _, files in os.walk(os.path.join(src, d)):
            if "/test" in dirpath or "/unittests" in dirpath:
                continue
            for fn in files:
                if fn.endswith(SOURCE_EXT):
                    path = os.path.join(dirpath, fn)
                    with open(path, "rb") as f:
                        data = f.read()
                    graph[os.path.relpath(path, src)] = [
                        (q == b'"', m.decode(errors="replace"))
                        for q, m in INCLUDE_RE.findall(data)]
    return graph


def search_dirs(src, rel):
    """The directories the overlay's compile of `rel` searches, in the order of
    its -I flags (compile_flags), that can hold a source file: the library's
    directory, the target's directory, then llvm/include and clang/include.
    None when `rel` is not in a library (tools): no order is known."""
    lib_dir = library_dir(src, rel) if src else None
    if not lib_dir:
        return None
    dirs = [lib_dir]
    m = re.match(r"(llvm/lib/Target/[^/]+)/", rel)
    if m and m.group(1) != lib_dir:
        dirs.append(m.group(1))
    return dirs + ["llvm/include", "clang/include"]


def includers(graph, headers, src=None):
    """Every file that includes one of `headers`, transitively.

    A quoted include names the file next to the includer when there is one,
    as the compiler's lookup does. Otherwise, for a file in a library (with
    `src`), the include resolves through the library's, the target's and the
    two include directories, in the compiler's order, to the first file of the
    tree found there. Failing that, an include name matches a file when the
    file's path ends with it, which over-approximates the lookup through the
    include path: never fewer files, maybe more."""
    affected = set(headers)
    by_base = {}
    for h in affected:
        by_base.setdefault(os.path.basename(h), set()).add(h)
    dirs_of = {}
    changed = True
    while changed:
        changed = False
        for f, incs in graph.items():
            if f in affected:
                continue
            for quoted, inc in incs:
                if quoted:
                    local = os.path.normpath(os.path.join(os.path.dirname(f), inc))
                    if local in graph:
                        if local in affected:
                            affected.add(f)
                            by_base.setdefault(os.path.basename(f), set()).add(f)
                            changed = True
                            break
                        continue
                if f not in dirs_of:
                    dirs_of[f] = search_dirs(src, f)
                resolved = next((os.path.join(d, inc) for d in dirs_of[f] or ()
                                 if os.path.join(d, inc) in graph), None)
                if resolved:
                    if resolved in affected:
                        affected.add(f)
                        by_base.setdefault(os.path.basename(f), set()).add(f)
                        changed = True
                        break
                    continue
                cands = by_base.get(os.path.basename(inc))
                if cands and any(c == inc or c.endswith("/" + inc) for c in cands):
                    affected.add(f)
                    by_base.setdefault(os.path.basename(f), set()).add(f)
                    changed = True
                    break
    return affected - set(headers)


def spelling_users(src, graph, matches, skip=()):
    """(headers, tus) of the tree whose text `matches` (a function of the
    bytes): headers for the includer computation, and library sources to
    recompile (a tool main is always compiled). Files in `skip` and outside
    clang/ and llvm/ are not read."""
    headers, tus = set(), set()
    for rel in graph:
        if rel in skip or not rel.startswith(("clang/", "llvm/")):
            continue
        with open(os.path.join(src, rel), "rb") as f:
            if not matches(f.read()):
                continue
        if not rel.endswith((".cpp", ".c")):
            headers.add(rel)
        elif rel.startswith(("llvm/lib/", "clang/lib/")):
            tus.add(rel)
    return headers, tus


LIB_DECL_RE = re.compile(
    r"^\s*(add_llvm_component_library|add_llvm_library|add_clang_library|add_llvm_target)"
    r"\s*\(\s*([A-Za-z0-9_]+)", re.M)


@functools.lru_cache(maxsize=None)
def library_decl(src, rel):
    """(directory, archive file name) of the library `rel` is compiled into:
    the nearest enclosing CMakeLists.txt that declares a library."""
    d = os.path.dirname(rel)
    while d and d not in ("llvm/lib", "clang/lib", "llvm", "clang"):
        cm = os.path.join(src, d, "CMakeLists.txt")
        if os.path.exists(cm):
            with open(cm) as f:
                m = LIB_DECL_RE.search(f.read())
            if m:
                kind, name = m.groups()
                if kind == "add_llvm_target":
                    name = "LLVM" + name
                return d, "lib%s.a" % name
        d = os.path.dirname(d)
    return None, None


def library_dir(src, rel):
    return library_decl(src, rel)[0]


def archive_of(src, rel):
    """The Debian archive (file name) whose member `rel` is compiled into."""
    return library_decl(src, rel)[1]


def classify(src, touched):
    """Splits the touched files into what the overlay must do with them."""
    tus, headers, td_targets, ignored, refused = set(), set(), set(), [], []
    for rel in touched:
        if re.match(r"(llvm|clang)/(test|unittests|docs|utils/lit)/", rel) or \
                re.match(r"(offload|openmp)/test/", rel) or \
                rel.endswith((".md", ".rst", ".txt")) and not rel.endswith("CMakeLists.txt"):
            ignored.append(rel)
        elif rel.startswith(devicertl_dir(src) + "/"):
            ignored.append(rel)  # the DeviceRTL is always rebuilt
        elif rel.startswith(HOST_OFFLOAD_DIRS):
            ignored.append(rel)  # libomptarget is rebuilt when touched
        elif rel.startswith("openmp/runtime/"):
            ignored.append(rel)  # the host libomp is rebuilt when touched
        elif rel == driver_options_dir(src) + "/Options.td":
            # Its includers see the new Options.inc.
            headers.add(driver_options_dir(src) + "/Options.h")
        elif re.match(r"llvm/lib/Target/[^/]+/[^/]+\.td$", rel):
            td_targets.add(rel.split("/")[3])
        elif re.match(DIAG_TD_RE, rel):
            ignored.append(rel)  # diagnostic_tables() regenerates their tables
        elif any(rel in t[1] for t in TOOLS.values()):
            ignored.append(rel)  # a relinked tool's option table is tablegen'd
        elif rel.endswith(".td"):
            refused.append(rel)
        elif rel.endswith("CMakeLists.txt"):
            if rel.startswith(("llvm/lib/", "clang/lib/")):
                ignored.append(rel)  # new sources are added to the archive
            else:
                refused.append(rel)
        elif rel.startswith(("llvm/lib/", "clang/lib/")) and rel.endswith((".cpp", ".c")):
            tus.add(rel)
        elif rel.startswith(("llvm/", "clang/")) and rel.endswith((".h", ".inc", ".def")):
            headers.add(rel)
        elif rel.startswith(("clang/tools/", "llvm/tools/")) and \
                any(rel in t[0] for t in TOOLS.values()):
            ignored.append(rel)  # tool mains are always compiled
        else:
            refused.append(rel)
    if refused:
        die("the overlay build cannot rebuild what these files change:\n  %s\n"
            "  (it rebuilds LLVM/Clang libraries, NVPTX/AMDGPU target .td files, the "
            "relinked tools, the DeviceRTL, libomptarget and the host libomp).\n  Build with scripts/build --mode full, or "
            "teach scripts/lib/overlay.py how to rebuild them." % "\n  ".join(refused))
    return tus, headers, td_targets, ignored


def touches_host_offload(touched):
    """Whether the series changes libomptarget (libomptarget and its plugins)."""
    return any(rel.startswith(HOST_OFFLOAD_DIRS) for rel in touched)
