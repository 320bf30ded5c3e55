"""The generated build: <out>/build.ninja, one function per kind of artifact
(tablegen'd tables, library objects, archives, tool objects, tool links, the
DeviceRTL, libomptarget, the host libomp), the compile flags, and the generated sources it
compiles."""

import glob
import os
import re
import shlex
import shutil
import sys

from util import die

from . import state
from .archives import archive_members
from .config import (BASE_FLAGS, CLANG_FLAGS, CLANG_LIB_TABLES, DEB, DEB_CC, DEB_CXX,
                     DEB_INC, DEB_LIB, HOST_OFFLOAD_DIRS, HOST_OFFLOAD_LIB, MULTIARCH,
                     OVERLAY_PY, ROOT, TARGET_FLAGS, TOOLS, driver_options_dir)
from .devicertl import write_devicertl
from .diagtables import diag_table_dirs
from .helpers import cmake_build_command, write_if_changed
from .hostomp import write_host_libomp
from .includes import archive_of, library_dir


def tblgen_commands(src, target_dir):
    """(output, flags, td) triples from a CMakeLists.txt's tablegen() calls."""
    with open(os.path.join(src, target_dir, "CMakeLists.txt")) as f:
        text = f.read()
    out = []
    td = None
    for line in text.splitlines():
        m = re.match(r"\s*set\(LLVM_TARGET_DEFINITIONS\s+(\S+)\)", line)
        if m:
            td = m.group(1)
        m = re.match(r"\s*tablegen\(LLVM\s+(\S+)\s*(.*?)\)\s*$", line)
        if m:
            out.append((m.group(1), m.group(2).split(), td))
    return out


def ninja_escape(s):
    return s.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


class Ninja:
    def __init__(self):
        self.lines = []

    def var(self, k, v):
        self.lines.append("%s = %s" % (k, v))

    def build(self, outs, rule, ins, implicit=(), order=(), variables=None):
        line = "build %s: %s %s" % (" ".join(map(ninja_escape, outs)), rule,
                                     " ".join(map(ninja_escape, ins)))
        if implicit:
            line += " | " + " ".join(map(ninja_escape, implicit))
        if order:
            line += " || " + " ".join(map(ninja_escape, order))
        self.lines.append(line)
        for k, v in (variables or {}).items():
            self.lines.append("  %s = %s" % (k, v))

    def text(self):
        return "\n".join(self.lines) + "\n"


def compile_flags(src, gen, rel):
    d = os.path.dirname(rel)
    flags = list(BASE_FLAGS)
    if rel.startswith("clang/"):
        flags += CLANG_FLAGS
    if rel.startswith("llvm/lib/Target/"):
        flags += TARGET_FLAGS
    # The file's directory, the directory of the library it belongs to (as
    # CMake's current source directory), and the target directory.
    inc = [os.path.join(src, d), os.path.join(gen, d)]
    lib_dir = library_dir(src, rel)
    if lib_dir and lib_dir != d:
        inc += [os.path.join(src, lib_dir), os.path.join(gen, lib_dir)]
    m = re.match(r"(llvm/lib/Target/[^/]+)/", rel)
    if m:
        inc += [os.path.join(src, m.group(1)), os.path.join(gen, m.group(1))]
    inc += [os.path.join(src, "llvm/include"), os.path.join(src, "clang/include"),
            os.path.join(src, "lld/include"), os.path.join(gen, "include"), DEB_INC]
    if rel in state.DIAG_FULL_TABLE_TUS:
        inc.insert(0, diag_table_dirs(gen)[0])
    return flags + ["-I" + i for i in inc]


def per_file_defines(rel, version):
    if rel == "clang/lib/Basic/Version.cpp":
        return ['-DCLANG_VENDOR="Debian "', '-DOMPDS_SERIES_VERSION="%s"' % version]
    return []


def write_rules(n, src):
    """The variables and rules of the build. Returns the ccache launcher of
    the compiles ("" without ccache), which libomptarget's build uses too."""
    cxx = DEB_CXX
    # Paths under the build directory are hashed relative to it, so a fresh
    # clone (another path) still hits the cache of an earlier one.
    launcher = ("CCACHE_BASEDIR=%s CCACHE_NOHASHDIR=1 ccache " % shlex.quote(
        os.path.dirname(src))) if shutil.which("ccache") and \
        not os.environ.get("OMPDS_NO_CCACHE") else ""
    n.var("cxx", launcher + cxx)
    n.var("tblgen", DEB + "/bin/llvm-tblgen")
    n.lines.append("rule cxx\n  command = $cxx $flags -MD -MF $out.d -c $in -o $out\n"
                   "  depfile = $out.d\n  deps = gcc\n  description = CXX $in")
    # --write-if-changed + restat: a regenerated but identical file (the
    # patched tree is recreated when the series changes) rebuilds nothing.
    n.lines.append("rule tblgen\n  command = $tblgen $args --write-if-changed -d $out.d "
                   "-o $out $in\n  depfile = $out.d\n  deps = gcc\n  restat = 1\n"
                   "  description = TBLGEN $out")
    n.lines.append("rule ar\n  command = rm -f $out.tmp && cp $base $out.tmp && "
                   "ar r $out.tmp $in && mv $out.tmp $out\n  description = AR $out")
    n.lines.append("rule ar_merge\n  command = %s %s --merge-archive $out $base $in\n"
                   "  description = AR $out" % (shlex.quote(sys.executable),
                                                shlex.quote(OVERLAY_PY)))
    n.lines.append("rule ar_new\n  command = rm -f $out.tmp && ar qc $out.tmp $in && "
                   "ar s $out.tmp && mv $out.tmp $out\n  description = AR $out")
    n.lines.append("rule link\n  command = %s -fuse-ld=lld -o $out $in @$out.rsp\n"
                   "  rspfile = $out.rsp\n  rspfile_content = $libs\n"
                   "  description = LINK $out" % cxx)
    n.lines.append("rule devicertl\n  command = $cmd\n  description = DEVICERTL $archs\n"
                   "  pool = console")
    return launcher


def write_target_tables(n, src, gen, td_targets):
    """Target .td changes: regenerate that target's tablegen output. Returns
    the generated files."""
    outputs = []
    for t in sorted(td_targets):
        tdir = "llvm/lib/Target/%s" % t
        for ofn, flags, td in tblgen_commands(src, tdir):
            o = os.path.join(gen, tdir, ofn)
            args = " ".join(flags + ["-I", os.path.join(src, tdir),
                                     "-I", os.path.join(src, "llvm/include"),
                                     "-I", os.path.join(src, "llvm/lib/Target"),
                                     "-I", DEB_INC])
            n.build([o], "tblgen", [os.path.join(src, tdir, td)],
                    variables={"args": args})
            outputs.append(o)
    return outputs


def write_driver_options(n, src, gen):
    """Clang's Options.inc from the patched Options.td. Returns the file."""
    opt_dir = driver_options_dir(src)
    o = os.path.join(gen, "include", os.path.relpath(opt_dir, "clang/include"),
                     "Options.inc")
    args = " ".join(["-gen-opt-parser-defs", "-I", os.path.join(src, "clang/include"),
                     "-I", DEB_INC])
    n.build([o], "tblgen", [os.path.join(src, opt_dir, "Options.td")],
            variables={"args": args})
    return o


def write_clang_lib_tables(n, src, gen, tus):
    """Private tables of the Clang libraries compiled here: Debian ships only
    the public ones (under include/clang). The series changes none of their
    .td files. Returns the generated files."""
    outputs = []
    lib_dirs = {library_dir(src, rel) for rel in tus}
    for lib_dir, tables in CLANG_LIB_TABLES.items():
        if lib_dir not in lib_dirs:
            continue
        for name, option, td in tables:
            o = os.path.join(gen, lib_dir, name)
            args = " ".join([option, "-I", os.path.join(src, os.path.dirname(td)),
                             "-I", os.path.join(src, "clang/include"), "-I", DEB_INC])
            n.build([o], "tblgen", [os.path.join(src, td)],
                    variables={"tblgen": DEB + "/bin/clang-tblgen", "args": args})
            outputs.append(o)
    return outputs


def write_library_objects(n, out, src, gen, tus, version, regen_deps, tblgen_outputs):
    """The compiles of the library translation units `tus`. Returns
    {Debian archive: [objects]}."""
    objs_by_archive = {}
    for rel in sorted(tus):
        arc = archive_of(src, rel)
        if not arc or not os.path.exists(os.path.join(DEB_LIB, arc)):
            die("cannot tell which of Debian's archives %s belongs to (found %s)" % (rel, arc))
        o = os.path.join(out, "obj", rel + ".o")
        flags = compile_flags(src, gen, rel) + per_file_defines(rel, version)
        n.build([o], "cxx", [os.path.join(src, rel)], implicit=regen_deps,
                order=tblgen_outputs,
                variables={"flags": " ".join(map(shlex.quote, flags))})
        objs_by_archive.setdefault(arc, []).append(o)
    return objs_by_archive


def write_archives(n, out, objs_by_archive):
    """Archive copies with substituted members. Member names are the object
    names CMake gives (<file>.cpp.o); `ar r` replaces or adds them. Returns
    {Debian archive: our copy}."""
    archive_paths = {}
    for arc, objs in sorted(objs_by_archive.items()):
        members = {}
        for o in objs:
            members.setdefault(os.path.basename(o), []).append(o)
        dup = [m for m, v in members.items() if len(v) > 1]
        a = os.path.join(out, "lib", arc)
        if sorted(archive_members(arc)) == sorted(os.path.basename(o) for o in objs):
            # Every member is rebuilt (a header all of them include changed):
            # a new archive, which also holds the members that share a name
            # (clangCodeGen's Targets/X86.cpp and TargetBuiltins/X86.cpp).
            n.build([a], "ar_new", objs)
        elif dup or any(archive_members(arc).count(m) > 1 for m in members):
            # `ar r` cannot tell apart Debian's members that share a name.
            n.build([a], "ar_merge", objs, variables={"base": os.path.join(DEB_LIB, arc)})
        else:
            # ar names members after the file; objects are named like CMake's.
            n.build([a], "ar", objs, variables={"base": os.path.join(DEB_LIB, arc)})
        archive_paths[arc] = a
    return archive_paths


def write_tool_objects(n, out, src, gen, regen_deps, tblgen_outputs):
    """The compiles of the tool mains (and of their tablegen'd option tables).
    Returns {tool: [objects]}."""
    tool_objs = {}
    for tool, (mains, opt_tds) in TOOLS.items():
        objs = []
        tool_gen = []
        for td in opt_tds:
            o = os.path.join(gen, os.path.dirname(td),
                             os.path.basename(td).replace(".td", ".inc"))
            n.build([o], "tblgen", [os.path.join(src, td)], variables={
                "args": "-gen-opt-parser-defs -I %s -I %s -I %s" % (
                    os.path.join(src, os.path.dirname(td)),
                    os.path.join(src, "llvm/include"), DEB_INC)})
            tool_gen.append(o)
        # Debian's Extension.def names Polly (not shipped): every tool that
        # pulls in the pass builder needs the stub.
        for m in mains + ["@gen/polly-stub.cpp"]:
            if m.startswith("@gen/"):
                path = os.path.join(gen, m[5:])
                # Generated mains compile like their tool's sources; the
                # Polly stub like clang's driver.
                rel = ("clang/tools/driver" if m == "@gen/polly-stub.cpp"
                       else os.path.dirname(mains[0])) + "/" + m[5:]
            else:
                path = os.path.join(src, m)
                rel = m
            o = os.path.join(out, "obj", "tools", tool, os.path.basename(rel) + ".o")
            flags = compile_flags(src, gen, rel)
            n.build([o], "cxx", [path], implicit=regen_deps, order=tool_gen + tblgen_outputs,
                    variables={"flags": " ".join(map(shlex.quote, flags))})
            objs.append(o)
        tool_objs[tool] = objs
    return tool_objs


def write_links(n, out, tool_objs, archive_paths):
    """The static links of the tools. Returns the binaries."""
    # Every Debian archive, substituted where the series changed members; lld
    # only pulls the members a tool needs. Polly is named by Debian's
    # Extension.def but not shipped: polly-stub.cpp stands in.
    archives = []
    for a in sorted(glob.glob(os.path.join(DEB_LIB, "lib*.a"))):
        b = os.path.basename(a)
        if not re.match(r"lib(LLVM|clang|lld)[A-Za-z0-9_]*\.a$", b) or "Polly" in b:
            continue
        archives.append(archive_paths.get(b, a))
    syslibs = [os.path.join(MULTIARCH, x) for x in
               ("libz.so.1", "libzstd.so.1", "libxml2.so.2", "libz3.so.4", "libtinfo.so.6",
                "libffi.so.8", "libedit.so.2")]
    libs = ["-Wl,--gc-sections", "-Wl,--start-group"] + archives + ["-Wl,--end-group"] + \
        [x for x in syslibs if os.path.exists(x)] + ["-lrt", "-ldl", "-lm", "-lpthread"]
    bins = []
    for tool, objs in tool_objs.items():
        b = os.path.join(out, "bin", tool)
        n.build([b], "link", objs, implicit=list(archive_paths.values()),
                variables={"libs": " ".join(libs)})
        bins.append(b)
    return bins


def write_host_offload(n, out, src, jobs, launcher, libomp=None):
    """libomptarget through offload/'s standalone CMake build against Debian's
    LLVM package (its libLLVM is what the library links, as Debian's does).
    The DeviceRTL is not built there: write_devicertl's rules build ours.
    A standalone offload/ looks for the host libomp and its omp.h; `libomp`,
    the library write_host_libomp builds (Debian 12 installs no libomp of the
    base), is given to it and built first. Returns the library."""
    off = os.path.join(out, "offload")
    off_args = [
        "cmake", "-G", "Ninja", "-S", os.path.join(src, "offload"), "-B", off,
        "-DCMAKE_PROJECT_INCLUDE=" + os.path.join(ROOT, "scripts/cmake/offload-standalone.cmake"),
        "-DLLVM_DIR=" + DEB + "/lib/cmake/llvm", "-DCMAKE_BUILD_TYPE=Release",
        "-DCMAKE_C_COMPILER=" + DEB_CC, "-DCMAKE_CXX_COMPILER=" + DEB_CXX,
        "-DLIBOMPTARGET_PLUGINS_TO_BUILD=cuda;amdgpu;host",
        "-DLIBOMPTARGET_BUILD_DEVICERTL_BCLIB=OFF", "-DLIBOMPTARGET_OMPT_SUPPORT=ON",
        # Debian's RUNPATH ($ORIGIN), not the build tree's.
        "-DCMAKE_BUILD_WITH_INSTALL_RPATH=ON",
        # Only an LLVM build defines it (HandleLLVMOptions.cmake); without it
        # the library exports every symbol unversioned, and programs linked
        # against Debian's (VERS1.0) warn at start.
        "-DLLVM_HAVE_LINK_VERSION_SCRIPT=ON",
    ]
    # The host plugin links libffi statically when CMake finds an archive;
    # Debian's libffi.a is not position-independent, its libffi_pic.a is.
    ffi_pic = sorted(glob.glob("/usr/lib/*/libffi_pic.a"))
    if ffi_pic:
        off_args.append("-DFFI_STATIC_LIBRARIES=" + ffi_pic[0])
    if libomp:
        off_args += ["-DLIBOMP_STANDALONE=" + libomp,
                     "-DLIBOMP_INCLUDE_DIR=" + os.path.dirname(libomp)]
    if launcher:
        off_args += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache",
                     "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
    off_cmd = cmake_build_command(off, off_args, "omptarget", jobs, launcher)
    offsrc = sorted(f for f in glob.glob(os.path.join(src, "offload", "**", "*"),
                                         recursive=True)
                    if os.path.isfile(f) and
                    os.path.relpath(f, src).startswith(HOST_OFFLOAD_DIRS) and
                    "/test/" not in f)
    n.lines.append("rule offload\n  command = $cmd\n  description = LIBOMPTARGET\n"
                   "  pool = console")
    n.build([os.path.join(off, HOST_OFFLOAD_LIB)], "offload", offsrc,
            implicit=[libomp] if libomp else [], variables={"cmd": off_cmd})
    return os.path.join(off, HOST_OFFLOAD_LIB)


def write_ninja(out, src, gen, tus, td_targets, archs, version, jobs, host_offload,
                driver_options, diag_tables_written=(), host_libomp=False):
    """<out>/build.ninja (rewritten only when it changes): one function per
    kind of artifact. Returns {Debian archive: [objects]}."""
    n = Ninja()
    launcher = write_rules(n, src)
    tblgen_outputs = write_target_tables(n, src, gen, td_targets)
    # Compiles that must rerun when a generated header appears or changes: the
    # depfiles of earlier builds name Debian's copy of Options.inc, not ours.
    # The diagnostic tables diagnostic_tables() wrote, likewise.
    regen_deps = list(diag_tables_written)
    if driver_options:
        o = write_driver_options(n, src, gen)
        tblgen_outputs.append(o)
        regen_deps.append(o)
    tblgen_outputs += write_clang_lib_tables(n, src, gen, tus)
    objs_by_archive = write_library_objects(n, out, src, gen, tus, version, regen_deps,
                                            tblgen_outputs)
    archive_paths = write_archives(n, out, objs_by_archive)
    tool_objs = write_tool_objects(n, out, src, gen, regen_deps, tblgen_outputs)
    defaults = write_links(n, out, tool_objs, archive_paths)
    defaults += write_devicertl(n, out, src, archs, jobs)
    libomp = write_host_libomp(n, out, src, jobs, launcher) if host_libomp else None
    if host_offload:
        defaults.append(write_host_offload(n, out, src, jobs, launcher, libomp))
    if libomp:
        defaults.append(libomp)
    n.lines.append("default %s" % " ".join(map(ninja_escape, defaults)))
    path = os.path.join(out, "build.ninja")
    text = n.text()
    old = open(path).read() if os.path.exists(path) else None
    if old != text:
        with open(path, "w") as f:
            f.write(text)
    return objs_by_archive


def write_generated(gen):
    os.makedirs(os.path.join(gen, "include/clang/Basic"), exist_ok=True)
    files = {
        # Debian builds from a tarball: no VCS revision is recorded.
        "clang/lib/Basic/VCSVersion.inc": "// No VCS revision (Debian source build).\n",
        "clang-driver.cpp": (
            '#include "llvm/ADT/ArrayRef.h"\n#include "llvm/Support/InitLLVM.h"\n'
            '#include "llvm/Support/LLVMDriver.h"\n\n'
            "int clang_main(int argc, char **, const llvm::ToolContext &);\n\n"
            "int main(int argc, char **argv) {\n  llvm::InitLLVM X(argc, argv);\n"
            "  return clang_main(argc, argv, {argv[0], nullptr, false});\n}\n"),
        "lld-driver.cpp": (
            '#include "llvm/Support/InitLLVM.h"\n'
            '#include "llvm/Support/LLVMDriver.h"\n\n'
            "int lld_main(int argc, char **, const llvm::ToolContext &);\n\n"
            "int main(int argc, char **argv) {\n  llvm::InitLLVM X(argc, argv);\n"
            "  return lld_main(argc, argv, {argv[0], nullptr, false});\n}\n"),
        # Debian's Extension.def names Polly, which is not shipped as an archive.
        "polly-stub.cpp": (
            # LLVM 22 moved PassPlugin.h from llvm/Passes to llvm/Plugins.
            '#if __has_include("llvm/Plugins/PassPlugin.h")\n'
            '#include "llvm/Plugins/PassPlugin.h"\n#else\n'
            '#include "llvm/Passes/PassPlugin.h"\n#endif\n'
            "llvm::PassPluginLibraryInfo getPollyPluginInfo() {\n"
            '  return {LLVM_PLUGIN_API_VERSION, "Polly", "none (ompds overlay)",\n'
            "          [](llvm::PassBuilder &) {}};\n}\n"),
    }
    for rel, text in files.items():
        p = os.path.join(gen, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        write_if_changed(p, text.encode())
