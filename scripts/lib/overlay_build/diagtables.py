"""Clang's diagnostic tables: regenerating them from the patched tree and
telling which translation units a changed diagnostic .td file renumbers."""

import glob
import os
import re
import subprocess

from util import die, note

from . import state
from .config import DEB, DEB_INC
from .helpers import write_if_changed

# A new diagnostic or diagnostic group changes the tables clang-tblgen makes
# from clang/include/clang/Basic/Diagnostic*.td. Every Clang source includes
# some of them, but what reaches a translation unit's code is narrower:
#  - the enumerators of a component's diagnostics (diag::err_x), through
#    Diagnostic<Component>Interface.inc: only their order matters, and the
#    order is by name, so a new diagnostic renumbers those after it in its
#    component only;
#  - the enumerators of diag::Group (DiagnosticCategories.h): only the sources
#    that spell one (diag::Group::X, NUM_GROUPS) or read the group tables;
#  - everything else (texts, groups and categories of each diagnostic, group
#    members, compatibility IDs) only through DiagnosticIDs.cpp's tables.
# So the overlay regenerates all the tables and recompiles DiagnosticIDs.cpp,
# the includers of each component whose enumerators changed, and the users of
# diag::Group when the groups changed. A change to the Common component (every
# source includes it) or to the categories is refused: build with --mode full.
DIAG_TD_RE = r"clang/include/clang/Basic/Diagnostic[A-Za-z]*\.td$"
DIAG_DIR = "clang/include/clang/Basic"
# Sources that spell diag::Group's enumerators or read the group tables.
DIAG_GROUP_USE_RE = re.compile(rb"diag::Group::|\bNUM_GROUPS\b|DiagnosticGroups\.inc")
# Headers known to spell them only where DiagnosticIDs.cpp compiles the code:
# DiagnosticIDs.h uses NUM_GROUPS in the member initializer of DiagnosticIDs,
# whose constructor is defined in DiagnosticIDs.cpp.
DIAG_GROUP_HEADERS = {DIAG_DIR + "/DiagnosticCategories.h", DIAG_DIR + "/DiagnosticIDs.h"}


def diag_components(src):
    """The diagnostic components, from clang_diag_gen() in the CMakeLists.txt."""
    with open(os.path.join(src, DIAG_DIR, "CMakeLists.txt")) as f:
        return re.findall(r"^clang_diag_gen\((\w+)\)", f.read(), re.M)


def diag_tables(src):
    """{file name: clang-tblgen options} of the tables clang/include/clang/Basic
    generates from Diagnostic.td."""
    tables = {}
    for c in diag_components(src):
        tables["Diagnostic%sKinds.inc" % c] = ["-gen-clang-diags-defs", "-clang-component=" + c]
        tables["Diagnostic%sEnums.inc" % c] = ["-gen-clang-diags-enums", "-clang-component=" + c]
        tables["Diagnostic%sCompatIDs.inc" % c] = ["-gen-clang-diags-compat-ids",
                                                   "-clang-component=" + c]
        tables["Diagnostic%sInterface.inc" % c] = ["-gen-clang-diags-iface",
                                                   "-clang-component=" + c]
    tables["DiagnosticGroups.inc"] = ["-gen-clang-diag-groups"]
    tables["DiagnosticIndexName.inc"] = ["-gen-clang-diags-index-name"]
    tables["DiagnosticAllCompatIDs.inc"] = ["-gen-clang-diags-compat-ids"]
    return tables


def tblgen_diag(tree, opts):
    d = os.path.join(tree, DIAG_DIR)
    return subprocess.run([DEB + "/bin/clang-tblgen"] + opts +
                          ["-I", d, "-I", os.path.join(tree, "clang/include"),
                           os.path.join(d, "Diagnostic.td")],
                          check=True, stdout=subprocess.PIPE).stdout


def diag_enumerators(text):
    """The diagnostic names of a Diagnostic<Component>Kinds.inc, in order."""
    return re.findall(rb"^DIAG\((\w+),", text, re.M)


def diag_groups(text):
    """The group flags of DiagnosticGroups.inc in diag::Group's order, and its
    category table."""
    flags = re.findall(rb"^DIAG_ENTRY\(\w+ /\* (.*?) \*/", text, re.M)
    m = re.search(rb"#ifdef GET_CATEGORY_TABLE\n(.*?)#endif", text, re.S)
    return flags, m.group(1) if m else b""


def diag_table_dirs(gen):
    """(all regenerated tables, the changed components' tables): directories
    that hold clang/Basic/Diagnostic*.inc."""
    return os.path.join(gen, "diag-tables"), os.path.join(gen, "include")


def diag_generated(gen):
    return sorted(p for d in diag_table_dirs(gen)
                  for p in glob.glob(os.path.join(d, "clang/Basic/Diagnostic*.inc")))


def diagnostic_tables(src, gen, base_tree, graph):
    """Regenerates Clang's diagnostic tables from the patched tree (into
    diag_table_dirs()) and returns (headers, tus): generated headers whose
    includers must be recompiled, and translation units to recompile."""
    tables = diag_tables(src)
    full_dir, changed_dir = (os.path.join(d, "clang/Basic") for d in diag_table_dirs(gen))
    os.makedirs(full_dir, exist_ok=True)
    os.makedirs(changed_dir, exist_ok=True)
    new = {name: tblgen_diag(src, opts) for name, opts in tables.items()}
    deb = {}
    for name, opts in tables.items():
        with open(os.path.join(DEB_INC, "clang/Basic", name), "rb") as f:
            deb[name] = f.read()
    if any(tblgen_diag(base_tree, opts) != deb[name] for name, opts in tables.items()):
        die("Debian's clang-tblgen does not reproduce Debian's diagnostic tables from "
            "the unpatched tree;\n  the overlay cannot tell what a changed diagnostic "
            ".td renumbers. Build with scripts/build --mode full.")
    for name, text in new.items():
        write_if_changed(os.path.join(full_dir, name), text)
    headers, tus = set(), {"clang/lib/Basic/DiagnosticIDs.cpp"}
    changed = set()
    for c in diag_components(src):
        kinds, files = "Diagnostic%sKinds.inc" % c, ["Diagnostic%s%s.inc" % (c, k) for k in
                                                    ("Enums", "CompatIDs", "Interface")]
        if diag_enumerators(new[kinds]) == diag_enumerators(deb[kinds]) and \
                all(new[f] == deb[f] for f in files):
            continue
        if c == "Common":
            die("the series renumbers Clang's Common diagnostics, which every Clang "
                "source includes.\n  Build with scripts/build --mode full.")
        note("the series renumbers Clang's %s diagnostics: recompiling their includers" % c)
        headers.add(os.path.join(DIAG_DIR, "Diagnostic%sInterface.inc" % c))
        for f in [kinds] + files:
            write_if_changed(os.path.join(changed_dir, f), new[f])
            changed.add(f)
    # Tables of components an earlier series changed would shadow Debian's.
    for p in glob.glob(os.path.join(changed_dir, "Diagnostic*.inc")):
        if os.path.basename(p) not in changed:
            os.remove(p)
    groups, categories = diag_groups(new["DiagnosticGroups.inc"])
    old_groups, old_categories = diag_groups(deb["DiagnosticGroups.inc"])
    if categories != old_categories:
        die("the series changes Clang's diagnostic categories.\n"
            "  Build with scripts/build --mode full.")
    if groups != old_groups:
        users = set()
        for rel in graph:
            if not rel.startswith(("clang/", "llvm/")):
                continue
            with open(os.path.join(src, rel), "rb") as f:
                if not DIAG_GROUP_USE_RE.search(f.read()):
                    continue
            if rel.endswith((".cpp", ".c")):
                users.add(rel)
            elif rel not in DIAG_GROUP_HEADERS:
                die("%s spells diag::Group's enumerators in a header: the overlay cannot "
                    "tell which sources a new diagnostic group changes.\n"
                    "  Build with scripts/build --mode full." % rel)
        users = {u for u in users if u.startswith("clang/lib/")}
        note("the series changes Clang's diagnostic groups: recompiling %s"
             % ", ".join(sorted(users)))
        tus |= users
    state.DIAG_FULL_TABLE_TUS.update(tus)
    return headers, tus
