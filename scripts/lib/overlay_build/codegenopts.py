"""Clang's CodeGenOptions.def: new options in bits the record layout leaves
unused, and the few sources that must be recompiled for them.

CodeGenOptionsBase declares one bit-field per entry of CodeGenOptions.def
(and of DebugOptions.def, which it includes): first the plain and value
options, then those of enumeration type, in the order of the files. A new
entry normally moves the bit-fields after it, so every Clang source that
includes CodeGenOptions.h (about 370) would read Debian's objects at the wrong
bits: those are all recompiled, as for any touched header. But a bit-field
that cannot straddle its 32-bit unit leaves the rest of the unit unused, and
an entry that fits there (before a 32-bit option, for example) moves nothing.
Then the objects of Debian's sources stay right: they never read or write the
new bits (a bit-field store rewrites its storage unit with the other bits
kept), and their copies of an object copy the new bits along: Clang copies
the record's bit-fields with one memcpy of its size or data size. That is
how Clang generates the copy, not what C++ promises (unused bits are not
part of an object's value), so the overlay checks that Debian built the
base's Clang libraries with Clang (an .llvm_addrsig section in the object of
CodeGenOptions.cpp) before it relies on it. What changes is only the code that names a new option or expands
the .def files itself (the constructor and reset in CodeGenOptions.cpp, the
argument parser in CompilerInvocation.cpp, the AST reader and writer).

So when the series adds entries to those .def files and changes nothing else
there, and leaves CodeGenOptions.h alone, the overlay compares the record
layouts of CodeGenOptionsBase and CodeGenOptions that Debian's clang computes
from the base's headers and from the patched ones (-fdump-record-layouts).
When every field of the base keeps its place and both records keep their
size, data size and alignment, it recompiles the sources that spell a new
option (Name, getName, setName) or include one of the .def files; otherwise it
says why and recompiles every includer."""

import os
import re
import subprocess
import tempfile

from util import note

from .config import DEB_CXX
from .includes import spelling_users

CGO_DIR = "clang/include/clang/Basic"
CGO_HEADER = CGO_DIR + "/CodeGenOptions.h"
OPTION_DEFS = {CGO_DIR + "/CodeGenOptions.def", CGO_DIR + "/DebugOptions.def"}
RECORDS = ("clang::CodeGenOptionsBase", "clang::CodeGenOptions")
# The source whose compile flags the layout probe uses.
PROBE_AS = "clang/lib/Basic/CodeGenOptions.cpp"
ENTRY_RE = re.compile(rb"\b([A-Z_]*(?:CODEGENOPT|DEBUGOPT))\s*\(\s*(\w+)")
DEF_INCLUDE_RE = re.compile(rb"#\s*include\s*[<\"][^>\"]*(?:CodeGenOptions|DebugOptions)\.def[>\"]")


def strip_comments(text):
    # One pass from left to right: a "/*" inside a line comment starts nothing.
    return re.sub(rb"//[^\n]*|/\*.*?\*/", b" ", text, flags=re.S)


def entries(text):
    """[(name, invocation text without spaces)] of the option entries of a
    .def file (comments stripped), and the rest of the file without spaces."""
    text = strip_comments(text)
    found, rest, pos = [], [], 0
    for m in ENTRY_RE.finditer(text):
        if m.start() < pos:
            continue
        depth, i = 0, text.index(b"(", m.end(1))
        while i < len(text):
            depth += {ord("("): 1, ord(")"): -1}.get(text[i], 0)
            i += 1
            if depth == 0:
                break
        rest.append(text[pos:m.start()])
        found.append((m.group(2), re.sub(rb"\s+", b"", text[m.start():i])))
        pos = i
    rest.append(text[pos:])
    return found, re.sub(rb"\s+", b"", b"".join(rest))


def added_entries(old_text, new_text):
    """The names of the entries new_text adds to old_text, or None when it
    changes anything else (an entry removed, reordered or edited, other
    text): then the fields' order may have changed."""
    (old, old_rest), (new, new_rest) = entries(old_text), entries(new_text)
    if old_rest != new_rest:
        return None
    old_names = {n for n, _ in old}
    kept = [e for e in new if e[0] not in old_names]
    if [e for e in new if e[0] in old_names] != old:
        return None
    return [n for n, _ in kept]


def record_layouts(flags, header):
    """{record: dump lines} of RECORDS as Debian's clang lays them out with
    `flags`, from -fdump-record-layouts of a file that includes `header`."""
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.cpp")
        with open(probe, "w") as f:
            f.write('#include "%s"\nunsigned long ompds_probe_size[] = {%s};\n'
                    % (header, ", ".join("sizeof(%s)" % r for r in RECORDS)))
        out = subprocess.run([DEB_CXX] + flags + ["-fsyntax-only", "-Xclang",
                                                  "-fdump-record-layouts", probe],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if out.returncode != 0:
        return None
    layouts = {}
    for block in out.stdout.decode(errors="replace").split("*** Dumping AST Record Layout"):
        lines = [l.rstrip() for l in block.strip("\n").splitlines() if l.strip()]
        m = lines and re.match(r"\s*0 \| (?:class|struct) (\S+)$", lines[0])
        if m and m.group(1) in RECORDS:
            layouts[m.group(1)] = lines
    return layouts if len(layouts) == len(RECORDS) else None


def layout_unchanged(old, new, added):
    """Whether the new layouts are the old ones plus fields named in `added`."""
    def field(line):
        m = re.search(r"\|\s.*\s(\w+)$", line)
        return m.group(1) if m else None
    names = {n.decode() for n in added}
    return all([l for l in new[r] if field(l) not in names] == old[r] for r in RECORDS)


def debian_objects_by_clang(archive, member):
    """Whether Debian's `member` of `archive` was compiled by Clang (it has
    the .llvm_addrsig section Clang emits on ELF by default)."""
    with tempfile.TemporaryDirectory() as tmp:
        if subprocess.run(["ar", "x", archive, member], cwd=tmp,
                          stderr=subprocess.DEVNULL).returncode != 0:
            return False
        out = subprocess.run(["readelf", "-S", "-W", os.path.join(tmp, member)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return b".llvm_addrsig" in out.stdout


def codegen_option_entries(src, base_tree, graph, flags_of, headers, built_by_clang=None):
    """For options the series adds to OPTION_DEFS in unused bits: (headers,
    tus) that must be recompiled for them; None when every includer must be.
    flags_of(tree) gives the probe's compile flags with that tree's headers;
    built_by_clang() says whether Debian's Clang objects came from Clang
    (not asked when None, as in the tests)."""
    touched = sorted(h for h in headers if h in OPTION_DEFS)
    if CGO_HEADER in headers:
        note("the series changes %s itself: recompiling every includer of the code "
             "generation options" % CGO_HEADER)
        return None
    added = []
    for rel in touched:
        with open(os.path.join(base_tree, rel), "rb") as f:
            old_text = f.read()
        with open(os.path.join(src, rel), "rb") as f:
            names = added_entries(old_text, f.read())
        if names is None:
            note("the series changes %s other than by adding entries: recompiling "
                 "every includer of the code generation options" % rel)
            return None
        added += names
    if built_by_clang is not None and not built_by_clang():
        note("Debian's objects of Clang were not compiled by Clang: recompiling every "
             "includer of the code generation options")
        return None
    old = record_layouts(flags_of(base_tree), CGO_HEADER[len("clang/include/"):])
    new = record_layouts(flags_of(src), CGO_HEADER[len("clang/include/"):])
    if old is None or new is None:
        note("cannot lay out %s with Debian's clang: recompiling every includer of "
             "the code generation options" % " and ".join(RECORDS))
        return None
    if not layout_unchanged(old, new, added):
        note("the options the series adds (%s) move fields of %s: recompiling every "
             "includer of the code generation options"
             % (", ".join(n.decode() for n in added), " or ".join(RECORDS)))
        return None
    if added:
        note("the options the series adds (%s) fill unused bits of %s: recompiling "
             "only the sources that name them or expand the option lists"
             % (", ".join(n.decode() for n in added), RECORDS[0]))
    use = re.compile(rb"\b(?:get|set)?(?:%s)\b" % b"|".join(added)) if added else None
    return spelling_users(
        src, graph,
        lambda text: DEF_INCLUDE_RE.search(text) or (use and use.search(text)),
        skip=OPTION_DEFS | {CGO_HEADER})
