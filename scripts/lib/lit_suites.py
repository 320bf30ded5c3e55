#!/usr/bin/env python3
"""Upstream lit regression suites against a directory of prebuilt binaries.

Runs tests of a source tree's llvm/test and clang/test against the tools in
one bin directory, with no CMake and no build tree: the lit site configs are
generated in a work directory from the source tree's own lit.site.cfg.py.in
templates, filled in from what the binaries report about themselves
(llvm-config, LLVMConfig.cmake). The source tree is only read; the tests run
in the work directory. lit is the source tree's own (llvm/utils/lit), driven
through a generated WORK/llvm-lit that maps each source suite to its site
config, as CMake's llvm-lit does; it can be used by hand to rerun one test.

Run the same suites against Debian's binaries and against ours, then compare:

  lit_suites.py --src SRC --bin /usr/lib/llvm-<major>/bin --work W/stock --json stock.json
  lit_suites.py --src SRC --bin build/toolchain/bin --work W/ours --json ours.json
  lit_suites.py --compare stock.json ours.json     # exit 1 on new failures

Tests with no stock reference (those the series adds) are checked on their own:

  lit_suites.py --src SRC --bin BIN --work W/new --tests PATH --json new.json
  lit_suites.py --require-pass new.json            # exit 1 if one failed

With --cache DIR, a suite whose inputs are unchanged since a run recorded
there is not run again: its results come from DIR (meant for the stock tools,
which change only with Debian's packages; lit_cache.py says what the key
covers). Remove DIR to run everything again.

The JSON holds {"results": {test path relative to SRC: lit result code},
"suites": {name: {"paths", "time_s", "counts"}}}. Each suite's lit output is
kept in WORK/<suite>.log, lit's own JSON report (with the output of failing
tests) in WORK/<suite>.lit.json.
"""

import argparse
import glob
import importlib.util
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time
import lit_cache  # noqa: E402
from util import die, note  # noqa: E402

# Suite name -> glob patterns relative to the source tree.
SUITES = {
    "nvptx": ["llvm/test/CodeGen/NVPTX"],
    "openmp-opt": ["llvm/test/Transforms/OpenMP"],
    "globalopt": ["llvm/test/Transforms/GlobalOpt"],
    "attributor": ["llvm/test/Transforms/Attributor"],
    "atomicexpand": ["llvm/test/Transforms/AtomicExpand"],
    "simplifycfg-nvptx": ["llvm/test/Transforms/SimplifyCFG/NVPTX"],
    "linker": ["llvm/test/Linker"],
    # The pass pipelines (openmp-opt's printed name, the AMDGPU LTO
    # pipeline's extra GlobalOpt) and the IR verifier (the depot metadata).
    "pipelines": ["llvm/test/Other", "llvm/test/Transforms/PhaseOrdering"],
    "verifier": ["llvm/test/Verifier"],
    "amdgpu-lds": ["llvm/test/CodeGen/AMDGPU/lower-module-lds*"],
    "amdgpu-resource-usage": ["llvm/test/CodeGen/AMDGPU/*resource-usage*",
                              "llvm/test/CodeGen/AMDGPU/call-graph-register-usage.ll",
                              "llvm/test/CodeGen/AMDGPU/indirect-call*.ll",
                              "llvm/test/CodeGen/AMDGPU/recursion.ll",
                              "llvm/test/CodeGen/AMDGPU/codegen-internal-only-func.ll"],
    "clang-openmp-gpu": ["clang/test/OpenMP/*nvptx*", "clang/test/OpenMP/*amdgcn*",
                         "clang/test/OpenMP/*gpu*"],
    # The driver's OpenMP offloading tests (the series changes its defaults).
    "clang-driver-openmp": ["clang/test/Driver/openmp*", "clang/test/Driver/*offload*",
                            "clang/test/Driver/amdgpu-openmp*",
                            "clang/test/Driver/gpu-libc*.c"],
    # The wrapper that links NVPTX device code (the series changes how it
    # assembles the LTO output).
    "clang-nvlink-wrapper": ["clang/test/Driver/nvlink-wrapper*.c"],
}
# The test trees this script configures: directory -> lit suite name.
TEST_TREES = {"llvm/test": "LLVM", "clang/test": "Clang"}

# lit result codes (lit.Test.ResultCode names).
FAILING = {"FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"}
PASSING = {"PASS", "FLAKYPASS", "XFAIL"}

NATIVE_ARCH = {"x86_64": "X86", "i686": "X86", "aarch64": "AArch64",
               "ppc64le": "PowerPC", "riscv64": "RISCV", "s390x": "SystemZ"}


# --- configuration -----------------------------------------------------------


def llvm_config(bindir, arg):
    """The output of BINDIR/llvm-config ARG.

    One option per call: llvm-config does not print its answers in the order
    of its options (--shared-mode comes last).
    """
    exe = os.path.join(bindir, "llvm-config")
    if not os.path.exists(exe):
        die("%s not found: lit's configs ask it for the targets and asserts" % exe)
    res = subprocess.run([exe, arg], capture_output=True, text=True)
    if res.returncode != 0:
        die("%s %s failed: %s" % (exe, arg, res.stderr.strip()))
    return res.stdout.strip()


def cmake_vars(path):
    """The set(NAME value) assignments of a CMake package config file."""
    if not os.path.exists(path):
        die("%s not found (Debian package llvm-<major>-dev): it says how LLVM was configured" % path)
    with open(path) as f:
        return dict(re.findall(r"^set\((\w+) ?(.*)\)$", f.read(), re.M))


def cmake_bool(value):
    """CMake's truth value of a string, as llvm_canonicalize_cmake_booleans."""
    v = value.strip('"').upper()
    return v not in ("", "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND") \
        and not v.endswith("-NOTFOUND")


def site_values(src, bindir, work, ptxas=""):
    """Values for the @NAME@ placeholders of llvm/ and clang/test/lit.site.cfg.py.in.

    Paths point at SRC (sources), BINDIR (tools) and WORK (object roots, hence
    lit's exec roots). How LLVM was configured comes from llvm-config and
    LLVMConfig.cmake; what the host offers (compilers, gold, Python modules)
    is looked up here, as CMake does.
    """
    version, host, targets, assertions, cmakedir = (llvm_config(bindir, a) for a in (
        "--version", "--host-target", "--targets-built", "--assertion-mode", "--cmakedir"))
    cm = cmake_vars(os.path.join(cmakedir, "LLVMConfig.cmake"))

    def on(name):
        return cmake_bool(cm.get(name, "OFF"))

    major, minor = version.split(".")[:2]
    libdir = os.path.normpath(os.path.join(bindir, "..", "lib"))
    cc, cxx = shutil.which("cc") or "", shutil.which("c++") or ""
    opt_viewer = all(importlib.util.find_spec(m) for m in ("pygments", "yaml"))
    return {
        # Paths.
        "LLVM_SOURCE_DIR": os.path.join(src, "llvm"),
        "LLVM_BINARY_DIR": os.path.join(work, "llvm"),
        "CLANG_SOURCE_DIR": os.path.join(src, "clang"),
        "CLANG_BINARY_DIR": os.path.join(work, "clang"),
        "LLVM_TOOLS_DIR": bindir,
        "CURRENT_TOOLS_DIR": bindir,
        "LLVM_LIBS_DIR": libdir,
        "SHLIBDIR": libdir,
        "CMAKE_LIBRARY_OUTPUT_DIRECTORY": libdir,
        "LLVM_LIT_TOOLS_DIR": "",
        "LLVM_EXTERNAL_LIT": "",
        # Host and tools found on it.
        "LLVM_HOST_TRIPLE": host,
        "LLVM_TARGET_TRIPLE": host,
        "HOST_OS": platform.system(),
        "HOST_ARCH": platform.machine(),
        "LLVM_NATIVE_ARCH": NATIVE_ARCH.get(platform.machine(), platform.machine()),
        "HOST_CC": cc,
        "HOST_CXX": cxx,
        "CMAKE_C_COMPILER": cc,
        "CMAKE_CXX_COMPILER": cxx,
        "HOST_LDFLAGS": "",
        "Python3_EXECUTABLE": sys.executable,
        "PERL_EXECUTABLE": shutil.which("perl") or "",
        "GOLD_EXECUTABLE": shutil.which("ld.gold") or "",
        "LD64_EXECUTABLE": "",
        "CMAKE_OSX_SYSROOT": "",
        "OCAMLFIND": "",
        "HAVE_OCAMLOPT": False,
        "OCAMLFLAGS": "",
        # Not set by CMake unless asked for (LLVM_PTXAS_EXECUTABLE); --ptxas.
        "PTXAS_EXECUTABLE": ptxas,
        "LLVM_HAVE_OPT_VIEWER_MODULES": opt_viewer,
        "LLVM_LIT_ERRC_MESSAGES": "",
        "SHLIBEXT": ".so",
        "LLVM_PLUGIN_EXT": cm.get("LLVM_PLUGIN_EXT", ".so"),
        "EXEEXT": "",
        # How LLVM was built.
        "LLVM_VERSION_MAJOR": major,
        "LLVM_VERSION_MINOR": minor,
        "LLVM_VERSION_SUFFIX": cm.get("LLVM_VERSION_SUFFIX", ""),
        "TARGETS_TO_BUILD": targets,
        "ENABLE_ASSERTIONS": assertions == "ON",
        "LLVM_ENABLE_ZLIB": on("LLVM_ENABLE_ZLIB"),
        "LLVM_ENABLE_ZSTD": on("LLVM_ENABLE_ZSTD"),
        "LLVM_ENABLE_LIBXML2": on("LLVM_ENABLE_LIBXML2"),
        "LLVM_ENABLE_CURL": on("LLVM_ENABLE_CURL"),
        "LLVM_ENABLE_HTTPLIB": on("LLVM_ENABLE_HTTPLIB"),
        "LLVM_ENABLE_DIA_SDK": on("LLVM_ENABLE_DIA_SDK"),
        "LLVM_ENABLE_FFI": on("LLVM_ENABLE_FFI"),
        "LLVM_ENABLE_THREADS": on("LLVM_ENABLE_THREADS"),
        "LLVM_ENABLE_PLUGINS": on("LLVM_ENABLE_PLUGINS"),
        "LLVM_LINK_LLVM_DYLIB": on("LLVM_LINK_LLVM_DYLIB"),
        "BUILD_SHARED_LIBS": on("LLVM_ENABLE_SHARED_LIBS"),
        "LLVM_ENABLE_EXPENSIVE_CHECKS": on("LLVM_ENABLE_EXPENSIVE_CHECKS"),
        "LLVM_ENABLE_REVERSE_ITERATION": on("LLVM_ENABLE_REVERSE_ITERATION"),
        "LLVM_APPEND_VC_REV": on("LLVM_APPEND_VC_REV"),
        "LLVM_HAS_LOGF128": on("LLVM_HAS_LOGF128"),
        "LLVM_WITH_Z3": on("LLVM_WITH_Z3"),
        "LLVM_FORCE_VC_REVISION": "",
        "LLVM_USE_SANITIZER": "",
        "LLVM_USE_INTEL_JITEVENTS": False,
        "LLVM_BINDINGS": "",
        "LLVM_BUILD_EXAMPLES": False,
        "LLVM_LIBCXX_USED": False,
        "LLVM_BYE_LINK_INTO_TOOLS": False,
        "LLVM_EXAMPLEIRTRANSFORMS_LINK_INTO_TOOLS": False,
        "LLVM_HAVE_TF_AOT": False,
        "LLVM_HAVE_TFLITE": False,
        "LLVM_INLINER_MODEL_AUTOGENERATED": False,
        "LLVM_RAEVICT_MODEL_AUTOGENERATED": False,
        "LLVM_INCLUDE_DXIL_TESTS": False,
        "LLVM_INCLUDE_SPIRV_TOOLS_TESTS": False,
        "LLVM_TOOL_LLVM_DRIVER_BUILD": False,
        # LLVM 22: upstream defaults (Debian does not set them).
        "LLVM_ENABLE_ONDISK_CAS": False,
        "LLVM_ENABLE_PROFCHECK": False,
        "LLVM_INCLUDE_EXAMPLES": False,
        "CLANG_ENABLE_OBJC_REWRITER": False,
        "CLANG_LINK_CLANG_DYLIB": False,
        "TEST_WITH_Z3_MOCK": False,
        # Clang: upstream defaults, which Debian keeps (debian/rules only sets
        # the default linker and runtime library, which the templates lack).
        "CLANG_ENABLE_ARCMT": True,
        "CLANG_ENABLE_STATIC_ANALYZER": True,
        "CLANG_ENABLE_CIR": False,
        "CLANG_BUILD_EXAMPLES": False,
        "CLANG_BUILT_STANDALONE": False,
        "CLANG_DEFAULT_PIE_ON_LINUX": True,
        "CLANG_DEFAULT_CXX_STDLIB": "",
        "CLANG_PLUGIN_SUPPORT": on("LLVM_ENABLE_PLUGINS"),
        "CLANG_VENDOR_UTI": "org.llvm.clang",
        "ENABLE_SHARED": on("LLVM_ENABLE_PLUGINS"),
        "ENABLE_BACKTRACES": True,
        "USE_Z3_SOLVER": "",
        "PPC_LINUX_DEFAULT_IEEELONGDOUBLE": False,
    }


# What CMake's configure_lit_site_cfg puts first (LLVM_LIT_PATH_FUNCTION).
SITE_HEADER = """\
# Generated by ompds scripts/lib/lit_suites.py from %s. Do not edit.

import os


def path(p):
    return os.path.realpath(p) if p else ""
"""


# Appended: runs after the main config. Python tests import their neighbours
# (NVPTX's wmma-*.py import wmma.py), which would write __pycache__ into SRC.
SITE_FOOTER = """
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
"""


def configure_site_cfg(template, out, values):
    """Fill in a lit.site.cfg.py.in as CMake's configure_lit_site_cfg does."""
    with open(template) as f:
        text = f.read()

    def subst(m):
        name = m.group(1)
        if name == "LIT_SITE_CFG_IN_HEADER":
            return SITE_HEADER % template
        if name not in values:
            missing.add(name)
            return m.group(0)
        v = values[name]
        if isinstance(v, bool):
            return str(v)
        if any(c in v for c in "\"'\\\n"):
            die("%s=%r cannot be written into %s" % (name, v, out))
        return v

    missing = set()
    text = re.sub(r"@(\w+)@", subst, text)
    if missing:
        die("%s uses variables this script does not know: %s"
            % (template, ", ".join(sorted(missing))))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write(text + SITE_FOOTER)


LLVM_LIT = """\
#!%(python)s
# Generated by ompds scripts/lib/lit_suites.py. Do not edit.
# lit from %(src)s, its test suites mapped to the site configs beside this file.
import sys

sys.dont_write_bytecode = True  # never write into the source tree
sys.path.insert(0, %(litdir)r)

from lit.main import main

main({"build_mode": "Release", "config_map": %(config_map)r})
"""


PTXAS_COMPAT = """#!/bin/sh
# Written by scripts/lib/lit_suites.py: runs %(ptxas)s with every -arch below
# sm_75 raised to sm_75. CUDA 13's ptxas rejects those targets, and upstream's
# %%ptxas-verify defaults to -arch=sm_60; PTX for an older target assembles
# for a newer one.
for a do
  shift
  case $a in
  -arch=sm_[1-6][0-9] | -arch=sm_7[0-2]) a=-arch=sm_75 ;;
  esac
  set -- "$@" "$a"
done
exec %(ptxas)s "$@"
"""


def configure(src, bindir, work, ptxas=""):
    """Write the site configs and WORK/llvm-lit; return llvm-lit's path."""
    if ptxas:
        os.makedirs(work, exist_ok=True)
        wrapper = os.path.join(work, "ptxas")
        with open(wrapper, "w") as f:
            f.write(PTXAS_COMPAT % {"ptxas": shlex.quote(os.path.abspath(ptxas))})
        os.chmod(wrapper, 0o755)
        ptxas = wrapper
    values = site_values(src, bindir, work, ptxas)
    config_map = {}
    for tree in TEST_TREES:
        site = os.path.join(work, tree, "lit.site.cfg.py")
        configure_site_cfg(os.path.join(src, tree, "lit.site.cfg.py.in"), site, values)
        main_cfg = os.path.realpath(os.path.join(src, tree, "lit.cfg.py"))
        config_map[os.path.normcase(main_cfg)] = site
    llvm_lit = os.path.join(work, "llvm-lit")
    with open(llvm_lit, "w") as f:
        f.write(LLVM_LIT % {"python": sys.executable, "src": src,
                            "litdir": os.path.join(src, "llvm", "utils", "lit"),
                            "config_map": config_map})
    os.chmod(llvm_lit, 0o755)
    return llvm_lit


# --- running -----------------------------------------------------------------


def expand(src, patterns):
    """The test files and directories matching PATTERNS, relative to SRC."""
    paths = set()
    for pat in patterns:
        found = glob.glob(os.path.join(src, pat))
        # A wildcard may match nothing on one base (tests are renamed between
        # releases); a file name must exist.
        if not found and not glob.has_magic(pat):
            die("nothing matches %s in %s" % (pat, src))
        for p in found:
            rel = os.path.relpath(p, src)
            if not any(rel == t or rel.startswith(t + "/") for t in TEST_TREES):
                die("%s is not under %s" % (rel, " or ".join(TEST_TREES)))
            paths.add(rel)
    if not paths:
        die("nothing matches %s in %s" % (" ".join(patterns), src))
    return sorted(paths)


def lit_env():
    """The environment for lit: nothing that would change which tests run or how."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith("LIT_") and k != "CLANG"}  # CLANG overrides %clang


def run_suite(llvm_lit, src, work, name, paths, jobs):
    """Run lit on PATHS; return ({test path: code}, seconds)."""
    log = os.path.join(work, name + ".log")
    report = os.path.join(work, name + ".lit.json")
    if os.path.exists(report):
        os.remove(report)
    cmd = [sys.executable, llvm_lit, "-sv", "--no-progress-bar", "-j", str(jobs), "-o", report] + \
        [os.path.join(src, p) for p in paths]
    note("%s: %d paths, log in %s" % (name, len(paths), log))
    start = time.monotonic()
    with open(log, "w") as f:
        res = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=lit_env())
    seconds = time.monotonic() - start
    # 0: all passed, 1: some failed; anything else: lit itself failed.
    if res.returncode not in (0, 1) or not os.path.exists(report):
        with open(log) as f:
            tail = f.read()[-3000:]
        die("lit failed (%d) for %s:\n%s" % (res.returncode, name, tail))
    prefixes = {v: k for k, v in TEST_TREES.items()}
    results = {}
    with open(report) as f:
        for t in json.load(f)["tests"]:
            suite, _, rel = t["name"].partition(" :: ")
            if suite not in prefixes:
                die("lit suite %r from %s is not one this script configures" % (suite, name))
            results[prefixes[suite] + "/" + rel] = t["code"]
    return results, seconds


def counts(codes):
    """{code: how many} for an iterable of result codes."""
    out = {}
    for c in codes:
        out[c] = out.get(c, 0) + 1
    return dict(sorted(out.items()))


def merged_bin(bindir, fallback, work):
    """A directory of links to the tools of BINDIR and, for the tools it does
    not have, to FALLBACK's (a toolchain that relinks only the tools the
    series changes; the tests of the others then run the base's tool)."""
    merged = os.path.join(work, "bin")
    if os.path.isdir(merged):
        shutil.rmtree(merged)
    os.makedirs(merged)
    borrowed = []
    for d in (bindir, fallback):
        for name in sorted(os.listdir(d)):
            dst = os.path.join(merged, name)
            if not os.path.lexists(dst):
                os.symlink(os.path.join(d, name), dst)
                if d == fallback:
                    borrowed.append(name)
    note("%d tools not in %s taken from %s" % (len(borrowed), bindir, fallback))
    return merged


def run(args):
    """Configure WORK, run the selected suites and write the JSON."""
    src = os.path.realpath(args.src)
    bindir = os.path.abspath(args.bin)
    work = os.path.abspath(args.work)
    for tree in TEST_TREES:
        if not os.path.exists(os.path.join(src, tree, "lit.cfg.py")):
            die("%s is not an LLVM source tree (no %s/lit.cfg.py)" % (src, tree))
    if work == src or work.startswith(src + "/"):
        die("the work directory must not be inside the source tree")
    os.makedirs(work, exist_ok=True)
    if args.fallback_bin:
        bindir = merged_bin(bindir, os.path.abspath(args.fallback_bin), work)
    llvm_lit = configure(src, bindir, work, args.ptxas)

    runs = {s: SUITES[s] for s in args.suite or ([] if args.tests else SUITES)}
    if args.tests:
        runs["tests"] = args.tests
    doc = {"src": src, "bin": bindir, "suites": {}, "results": {}}
    for name, patterns in runs.items():
        paths = expand(src, patterns)
        key = args.cache and lit_cache.suite_key(src, bindir, name, paths, args.ptxas,
                                                 TEST_TREES, [os.path.abspath(__file__)])
        cached = key and lit_cache.load(args.cache, name, key)
        if cached:
            results, seconds = cached, 0.0
        else:
            results, seconds = run_suite(llvm_lit, src, work, name, paths, args.jobs)
            if key:
                lit_cache.store(args.cache, name, key, results, seconds)
        c = counts(results.values())
        doc["suites"][name] = {"paths": patterns, "time_s": round(seconds, 1), "counts": c,
                               "cached": bool(cached)}
        doc["results"].update(results)
        failed = sorted(t for t, code in results.items() if code in FAILING)
        note("%s: %d tests %s: %s" % (name, len(results),
                                      "from the cache (%s)" % args.cache if cached
                                      else "in %.0fs" % seconds,
                                      ", ".join("%s %d" % kv for kv in c.items())))
        for t in failed:
            note("  %s %s" % (results[t], t))
    doc["results"] = dict(sorted(doc["results"].items()))
    with open(args.json, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return 0


# --- comparing ---------------------------------------------------------------


def compare(stock, ours):
    """Compare two runs: ({test path: code} maps, or whole JSON documents).

    Returns (new_failures, fixed, only_ours), sorted lists of test paths:
    new_failures fail with ours and did not fail with stock (this includes
    failing tests that exist only in ours, such as tests our patches add);
    fixed pass with ours and failed with stock; only_ours exist only in ours.
    """
    stock = stock.get("results", stock)
    ours = ours.get("results", ours)
    new_failures = sorted(t for t, c in ours.items()
                          if c in FAILING and stock.get(t) not in FAILING)
    fixed = sorted(t for t, c in ours.items() if c in PASSING and stock.get(t) in FAILING)
    only_ours = sorted(set(ours) - set(stock))
    return new_failures, fixed, only_ours


def cmd_compare(stock_path, ours_path):
    """Print what changed from STOCK to OURS; 1 on new failures or missing tests."""
    with open(stock_path) as f:
        stock = json.load(f)["results"]
    with open(ours_path) as f:
        ours = json.load(f)["results"]
    new_failures, fixed, only_ours = compare(stock, ours)
    missing = sorted(set(stock) - set(ours))
    changed = sorted(t for t in set(stock) & set(ours)
                     if stock[t] != ours[t] and t not in new_failures and t not in fixed)
    for title, side in (("stock", stock), ("ours", ours)):
        print("%-5s %5d tests: %s" % (title, len(side), ", ".join(
            "%s %d" % kv for kv in counts(side.values()).items())))

    def show(title, tests):
        print("%s: %d" % (title, len(tests)))
        for t in tests:
            print("  %-11s -> %-11s %s" % (stock.get(t, "-"), ours.get(t, "-"), t))

    show("new failures", new_failures)
    show("fixed", fixed)
    show("only in ours", only_ours)
    show("missing in ours", missing)
    show("other changes", changed)
    return 1 if new_failures or missing else 0


def cmd_require_pass(path):
    """Check one run on its own: 1 if a test failed or none ran.

    For the tests the series adds, which have no stock reference. UNSUPPORTED
    tests are listed, not counted as failures.
    """
    with open(path) as f:
        results = json.load(f)["results"]
    failed = sorted(t for t, c in results.items() if c in FAILING)
    skipped = sorted(t for t, c in results.items() if c == "UNSUPPORTED")
    print("%d tests: %s" % (len(results), ", ".join(
        "%s %d" % kv for kv in counts(results.values()).items())))
    for t in failed + skipped:
        print("  %-11s %s" % (results[t], t))
    return 1 if failed or not results else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compare", nargs=2, metavar=("STOCK.json", "OURS.json"),
                    help="compare two runs; exit 1 on new failures or missing tests")
    ap.add_argument("--require-pass", metavar="RESULTS.json",
                    help="check one run: exit 1 if a test failed or none ran")
    ap.add_argument("--src", help="the source tree (only read)")
    ap.add_argument("--bin", help="the directory of the tools to test")
    ap.add_argument("--work", help="where the site configs go and the tests run")
    ap.add_argument("--fallback-bin", metavar="DIR",
                    help="take the tools that --bin lacks from DIR")
    ap.add_argument("--suite", action="append", choices=sorted(SUITES),
                    help="a suite to run (repeatable; default: all, unless --tests)")
    ap.add_argument("--tests", action="extend", nargs="+", metavar="PATH",
                    help="also run these test files or directories, relative to --src "
                         "(repeatable; reported as suite 'tests')")
    ap.add_argument("--json", help="where to write the results")
    ap.add_argument("--cache", metavar="DIR",
                    help="reuse the results of suites whose inputs are unchanged "
                         "(see above); for the stock tools")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--ptxas", default="", metavar="PATH",
                    help="enable the ptxas feature and %%ptxas-verify with this ptxas, "
                         "through a wrapper that raises targets below sm_75 (which "
                         "CUDA 13's ptxas rejects) to sm_75; the upstream suites run "
                         "without ptxas")
    args = ap.parse_args()
    if args.compare:
        return cmd_compare(*args.compare)
    if args.require_pass:
        return cmd_require_pass(args.require_pass)
    for opt in ("src", "bin", "work", "json"):
        if not getattr(args, opt):
            ap.error("--%s is required (unless --compare or --require-pass)" % opt)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
