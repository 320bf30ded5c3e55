#!/usr/bin/env python3
"""The overlay build: the patch series on top of Debian's binaries of the base.

Only what the series changes is compiled: the translation units it touches,
plus every translation unit that includes a header it touches (found from an
include graph of the source tree). They are compiled with the flags that
reproduce Debian's objects (../shared/notes, docs/building.md), substituted
into copies of Debian's static archives, and the tools are relinked
statically. The DeviceRTL is rebuilt from the patched sources with the patched
clang through the DeviceRTL's own CMakeLists.txt. The result is a prefix
(build/toolchain) that works with no environment variables and no extra flags.

Everything runs through one generated build.ninja, so a second build only
redoes what changed; ccache is used when installed.
"""

import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import base  # noqa: E402
import series as ser  # noqa: E402
from util import die, note  # noqa: E402

# The overlay build's modules (scripts/lib/overlay_build, docs/building.md has
# the map). Their names are re-exported here: scripts/test, install.py, full.py
# and the tests use them as overlay.<name>.
from overlay_build import state  # noqa: E402
from overlay_build.archives import (  # noqa: E402, F401
    archive_members, defined_symbols, merge_archive)
from overlay_build.codegenopts import (  # noqa: E402, F401
    CGO_HEADER, OPTION_DEFS, PROBE_AS, added_entries, codegen_option_entries,
    debian_objects_by_clang, layout_unchanged, record_layouts)
from overlay_build.config import (  # noqa: E402, F401
    BASE_FLAGS, CLANG_FLAGS, CLANG_LIB_TABLES, DEB, DEB_CC, DEB_CXX, DEB_INC, DEB_LIB,
    DEB_REVISION, DEBIAN_TOOLS, DEFAULT_ARCHS, DEVICE_TRIPLES, DEVICERTL_DIRS,
    DRIVER_OPTIONS_DIRS, EXTRA_PACKAGES, HOST_OFFLOAD_DIRS, HOST_OFFLOAD_LIB, LLD_ALIASES,
    MAX_AFFECTED_TUS, MULTIARCH, PACKAGES, RELINK_LLD, ROCM_DEB, ROOT, SRC_DIRS,
    TARGET_FLAGS, TOOLS, UNPACKED_PACKAGES, UNPACKED_ROOT, V, devicertl_dir,
    driver_options_dir, first_dir_with, per_triple_devicertl)
from overlay_build.devicertl import (  # noqa: E402, F401
    configure_devicertl, devicertl_cmake_per_arch, devicertl_cmake_per_triple,
    devicertl_options, link_compiler_support, write_devicertl, write_devicertl_per_arch,
    write_devicertl_per_triple)
from overlay_build.diagtables import (  # noqa: E402, F401
    DIAG_DIR, DIAG_GROUP_HEADERS, DIAG_GROUP_USE_RE, DIAG_TD_RE, diag_components,
    diag_enumerators, diag_generated, diag_groups, diag_table_dirs, diag_tables,
    diagnostic_tables, tblgen_diag)
from overlay_build.helpers import run, symlink, write_if_changed  # noqa: E402, F401
from overlay_build.identity import check_identity  # noqa: E402
from overlay_build.includes import (  # noqa: E402, F401
    INCLUDE_RE, LIB_DECL_RE, SCAN_DIRS, SOURCE_EXT, archive_of, classify, includers,
    library_decl, library_dir, scan_includes, search_dirs, touches_host_offload)
from overlay_build.metadata import (  # noqa: E402, F401
    FIXED_MD_DEF, FIXED_MD_RE, fixed_metadata_kinds)
from overlay_build.ninja import (  # noqa: E402, F401
    Ninja, compile_flags, ninja_escape, per_file_defines, tblgen_commands, write_generated,
    write_ninja)
from overlay_build.packages import (  # noqa: E402, F401
    check_debian_version, ensure_packages, installed, refuse_removals, system_file,
    unpack_packages)
from overlay_build.prefix import (  # noqa: E402, F401
    HOST_TRIPLE, assemble_prefix, resource_dir, rocm_device_libs, write_config_files)
from overlay_build.source import (  # noqa: E402, F401
    break_link, forget_other_base, prepare_source, ser_version, series_digest,
    series_names)


def unbuilt_sources(src, files):
    """The sources of libraries Debian does not build (ClangIR): in no
    archive the toolchain links, so there is nothing to rebuild."""
    return {f for f in files if archive_of(src, f)
            and not os.path.exists(os.path.join(DEB_LIB, archive_of(src, f)))}


def __getattr__(name):
    """overlay.STOCK, overlay.SERIES_PREFIX, overlay.DIAG_FULL_TABLE_TUS: the
    run-time state of overlay_build/state.py, with the values main() set."""
    if name in ("STOCK", "SERIES_PREFIX", "DIAG_FULL_TABLE_TUS"):
        return getattr(state, name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


# --- main --------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(
        os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build")), "overlay"))
    ap.add_argument("--prefix", default=os.path.join(
        os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build")), "toolchain"))
    ap.add_argument("--archs", default=os.environ.get("OMPDS_DEVICE_ARCHS", DEFAULT_ARCHS),
                    help="DeviceRTL architectures (default: %(default)s)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-install-packages", action="store_true",
                    help="fail instead of installing missing Debian packages")
    ap.add_argument("--dry-run", action="store_true",
                    help="print what would be compiled, build nothing")
    ap.add_argument("--stock", action="store_true",
                    help="build the base without the series (default --out "
                    "<build>/stock-overlay, --prefix <build>/stock): the stock "
                    "toolchain the tests and benchmarks compare with")
    ap.add_argument("--series-prefix", type=int, metavar="N",
                    help="apply only the first N patches of the series (the "
                    "per-position check of scripts/bisect-series); implies --no-stock")
    ap.add_argument("--no-stock", action="store_true",
                    help="do not assemble the stock toolchain as well (it is "
                    "assembled after ours when Debian's packages of the base "
                    "ship no DeviceRTL)")
    ap.add_argument("--check-identity", metavar="FILE", nargs="+",
                    help="compile these files of the unpatched Debian tree with the "
                    "overlay's flags and compare their code with Debian's archive "
                    "members (after a build, which made the generated headers); "
                    "'all': every library source the overlay compiles")
    ap.add_argument("--configure-devicertl", metavar="DIR",
                    help="only configure the DeviceRTL of the overlay tree in DIR for "
                    "NVPTX with the tools of --prefix, passing the remaining "
                    "arguments to CMake; print the ninja target and its bitcode")
    ap.add_argument("--merge-archive", nargs="+", metavar="ARG",
                    help=argparse.SUPPRESS)  # OUT BASE OBJ...: the build's ar_merge step
    args, extra = ap.parse_known_args()
    if args.merge_archive:
        merge_archive(args.merge_archive[0], args.merge_archive[1], args.merge_archive[2:])
        return 0
    if args.configure_devicertl:
        return configure_devicertl(os.path.join(os.path.abspath(args.out), "src"),
                                   os.path.join(os.path.abspath(args.prefix), "bin"),
                                   os.path.abspath(args.configure_devicertl), extra)
    if extra:
        ap.error("unrecognized arguments: %s" % " ".join(extra))
    if args.check_identity:
        return 1 if check_identity(ser.base_dir("debian"), os.path.abspath(args.out),
                                   args.check_identity) else 0
    if args.series_prefix is not None:
        if not 0 < args.series_prefix <= len(ser.read_series()[1]):
            die("--series-prefix %d: the series has %d patches"
                % (args.series_prefix, len(ser.read_series()[1])))
        state.SERIES_PREFIX = args.series_prefix
        args.no_stock = True
    if args.stock:
        state.STOCK = True
        build = os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build"))
        if args.out == ap.get_default("out"):
            args.out = os.path.join(build, "stock-overlay")
        if args.prefix == ap.get_default("prefix"):
            args.prefix = os.path.join(build, "stock")

    ensure_packages(not args.no_install_packages)
    check_debian_version()
    base_tree = ser.base_dir("debian")
    out = os.path.abspath(args.out)
    forget_other_base(out)
    os.makedirs(out, exist_ok=True)
    src, touched = prepare_source(out, base_tree, SRC_DIRS)
    tus, headers, td_targets, ignored = classify(src, touched)
    note("%d touched files need no compile of their own (tests, docs, DeviceRTL, "
         "library CMake files, tool mains)" % len(ignored))

    gen = os.path.join(out, "gen")
    graph = None
    if any(re.match(DIAG_TD_RE, rel) for rel in touched):
        graph = scan_includes(src)
        diag_headers, diag_tus = diagnostic_tables(src, gen, base_tree, graph)
        headers |= diag_headers
        tus |= diag_tus
    else:
        # Tables of an earlier series would shadow Debian's.
        for p in diag_generated(gen):
            os.remove(p)

    if FIXED_MD_DEF in headers:
        headers.discard(FIXED_MD_DEF)
        graph = graph or scan_includes(src)
        md_headers, md_tus = fixed_metadata_kinds(src, base_tree, graph)
        headers |= md_headers
        tus |= md_tus

    if headers & OPTION_DEFS:
        graph = graph or scan_includes(src)
        no_gen = os.path.join(gen, "none")
        cgo = codegen_option_entries(
            src, base_tree, graph,
            lambda tree: compile_flags(tree, gen if tree == src else no_gen, PROBE_AS),
            headers, lambda: debian_objects_by_clang(os.path.join(DEB_LIB, "libclangBasic.a"),
                                                     "CodeGenOptions.cpp.o"))
        if cgo:
            headers -= OPTION_DEFS
            headers |= cgo[0]
            tus |= cgo[1] - unbuilt_sources(src, cgo[1])

    if headers:
        note("computing the include graph for %d touched headers" % len(headers))
        graph = graph or scan_includes(src)
        inc = includers(graph, headers, src)
        extra = {f for f in inc if f.startswith(("llvm/lib/", "clang/lib/"))
                 and f.endswith((".cpp", ".c"))}
        # Includers in libraries Debian does not build (ClangIR) are in no
        # archive the toolchain links: there is nothing to rebuild.
        unbuilt = unbuilt_sources(src, extra)
        if unbuilt:
            note("not rebuilt, though they include a touched header: %d sources of "
                 "libraries Debian does not build (%s)"
                 % (len(unbuilt), ", ".join(sorted({archive_of(src, f) for f in unbuilt}))))
        extra -= unbuilt
        tool_mains = {m for t in TOOLS.values() for m in t[0]}
        extra_tools = {f for f in inc if f.endswith((".cpp", ".c"))
                       and f.startswith(("llvm/tools/", "clang/tools/"))} - tool_mains
        if extra_tools:
            note("not relinked, though they include a touched header: %s"
                 % ", ".join(sorted(extra_tools)))
        if len(extra) > MAX_AFFECTED_TUS:
            die("the touched headers %s are included by %d library translation units; "
                "the overlay stops above %d.\n  Use scripts/build --mode full for this series."
                % (", ".join(sorted(headers)), len(extra), MAX_AFFECTED_TUS))
        tus |= extra
    for t in td_targets:
        for f in glob.glob(os.path.join(src, "llvm/lib/Target", t, "**", "*.cpp"),
                           recursive=True):
            tus.add(os.path.relpath(f, src))
    # Target sources include their tablegen output, which Debian does not
    # ship: generate it for every target something is compiled in.
    td_targets |= {rel.split("/")[3] for rel in tus if rel.startswith("llvm/lib/Target/")}

    write_generated(gen)
    version = ser_version()
    host_offload = touches_host_offload(touched)
    driver_options = driver_options_dir(src) + "/Options.td" in touched
    if not driver_options:
        # The Options.inc of an earlier series (another bisect position) would
        # shadow Debian's.
        stale = os.path.join(gen, "include", os.path.relpath(driver_options_dir(src),
                                                             "clang/include"), "Options.inc")
        if os.path.exists(stale):
            os.remove(stale)
    by_archive = write_ninja(out, src, gen, tus, td_targets, args.archs, version, args.jobs,
                             host_offload, driver_options, diag_generated(gen),
                             host_libomp=not state.STOCK)
    note("series %s: %d translation units into %d archives, %d tools, DeviceRTL for %s%s"
         % (version, len(tus), len(by_archive), len(TOOLS),
            " and ".join(DEVICE_TRIPLES) if per_triple_devicertl(src) else args.archs,
            (", libomptarget" if host_offload else "")
            + ("" if state.STOCK else ", host libomp")))
    for arc, objs in sorted(by_archive.items()):
        note("  %s: %s" % (arc, ", ".join(os.path.basename(o)[:-2] for o in objs)))
    if args.dry_run:
        return 0
    link_compiler_support(out)
    run(["ninja", "-C", out, "-j", str(args.jobs)])
    assemble_prefix(out, os.path.abspath(args.prefix), args.archs, host_offload,
                    per_triple_devicertl(src), host_libomp=not state.STOCK)
    note("done: %s/bin/clang" % os.path.abspath(args.prefix))
    if base.STOCK_PREFIX and not state.STOCK and not args.no_stock:
        note("Debian's packages of %s ship no DeviceRTL: assembling the stock "
             "toolchain as well (--no-stock skips it)" % base.LLVM_VERSION)
        run([sys.executable, os.path.abspath(__file__), "--stock", "--no-install-packages",
             "-j", str(args.jobs)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
