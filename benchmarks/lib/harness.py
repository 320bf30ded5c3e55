"""Building the benchmark programs and measuring their device code (ompds).

Three compilers:
  stock  Debian's clang of the base version (scripts/base.conf), or the stock
         toolchain OMPDS_STOCK_TOOLCHAIN names (scripts/build --stock: Debian's
         objects with a DeviceRTL of Debian's source; no extra flags).
         Debian's clang: NVIDIA offload needs
         LIBRARY_PATH=/usr/lib/llvm-<major>/lib (to find its DeviceRTL); AMD
         offload needs -nogpulib -L/usr/lib/llvm-<major>/lib -lomptarget.devicertl
         (there are no ROCm device libraries on these machines).
  ompds  build/toolchain/bin/clang, plain `clang -fopenmp --offload-arch=...`.
  nvcc   CUDA's nvcc, for the CUDA equivalents (sm_90 only).

Every OpenMP build is a compile (-c) and a link, both with -save-temps in a
directory of its own, so that the PTX, the LTO'd device IR and the final
device image (the nvlink output, or the AMDGPU code object) stay behind to be
measured.  See benchmarks/README.md for what each number means.
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import time

import elfinfo
import programs

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import base  # noqa: E402  (the series' base: scripts/base.conf)

DEB_LLVM = base.DEB_LLVM

COMPILERS = ["stock", "ompds", "nvcc"]
ARCHS = ["sm_90", "gfx90a"]
OPTS = ["-O0", "-O2"]
# nvcc has no unoptimized device code without -G (device debug).
NVCC_OPT = {"-O0": ["-O0", "-G"], "-O2": ["-O2"]}
# The AMDGPU -O0 device link crashes in stock 19.1.7 (llvm-project#65188);
# the gfx90a "-O0" figures are those of -O0 objects linked at -O1.
AMD_O0_FALLBACK_LINK = "-O1"

KNOWN_FAILURES = [
    (re.compile(r"Function register usage analysis"),
     "linker-wrapper crash in AMDGPU register usage analysis (llvm-project#65188)"),
    (re.compile(r"undefined symbol: (stdout|rpc_fprintf|__llvm_libc)"),
     "device link: printf needs the GPU libc (invokeMicrotask's >64-argument trap)"),
    (re.compile(r"cannot find CUDA installation|cannot find libdevice"),
     "no CUDA installation found"),
    (re.compile(r"ptxas.*(not found|No such file)"), "ptxas not found"),
    (re.compile(r"cannot find libomptarget|could not find.*devicertl", re.I),
     "DeviceRTL not found"),
]


class HarnessError(Exception):
    """A problem of the harness itself (missing tool, unparsable output)."""


# --- tools ---------------------------------------------------------------------

def which(*cands):
    for c in cands:
        if not c:
            continue
        p = c if os.sep in c else shutil.which(c)
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


class Tools:
    def __init__(self, toolchain=None):
        build = os.environ.get("OMPDS_BUILD", os.path.join(ROOT, "build"))
        tc = toolchain or os.environ.get("OMPDS_TOOLCHAIN") or \
            os.path.join(build, "toolchain")
        self.toolchain = os.path.abspath(tc)
        # A stock toolchain with its own DeviceRTL (scripts/build --stock, for
        # a base whose Debian packages ship none) needs no extra flags.
        stock_tc = os.environ.get("OMPDS_STOCK_TOOLCHAIN") or (
            os.path.join(build, "stock") if base.STOCK_PREFIX else None)
        self.stock_is_toolchain = bool(stock_tc)
        self.clang = {
            "stock": which(os.path.join(stock_tc, "bin", "clang")) if stock_tc else
            which(os.environ.get("OMPDS_STOCK_CLANG"), "clang" + base.SUFFIX,
                  DEB_LLVM + "/bin/clang"),
            "ompds": which(os.path.join(self.toolchain, "bin", "clang")),
        }
        self.nvcc = which(os.environ.get("NVCC"), "nvcc",
                          "/usr/local/cuda/bin/nvcc")
        self.readelf = which(DEB_LLVM + "/bin/llvm-readelf",
                             os.path.join(self.toolchain, "bin", "llvm-readelf"))
        self.llvm_dis = which(DEB_LLVM + "/bin/llvm-dis",
                              os.path.join(self.toolchain, "bin", "llvm-dis"))

    def version(self, compiler):
        exe = self.nvcc if compiler == "nvcc" else self.clang.get(compiler)
        if not exe:
            return "not found"
        try:
            out = subprocess.run([exe, "--version"], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, timeout=60).stdout
        except (OSError, subprocess.SubprocessError) as e:
            return "unusable: %s" % e
        lines = [l for l in out.decode(errors="replace").splitlines() if l.strip()]
        if compiler == "nvcc":
            return next((l for l in lines if "release" in l), lines[-1] if lines else "?")
        return lines[0] if lines else "?"

    def toolchain_build(self):
        """'series <digest[:12]>, built <date>' of the ompds toolchain."""
        import json
        try:
            with open(os.path.join(self.toolchain, "ompds-build.json")) as f:
                digest = json.load(f).get("series_digest", "?")[:12]
        except (OSError, ValueError):
            digest = "?"
        try:
            built = time.strftime("%Y-%m-%d %H:%M", time.localtime(
                os.path.getmtime(self.clang["ompds"])))
        except (OSError, TypeError):
            built = "?"
        return "patches/ digest %s, built %s" % (digest, built)

    def check(self, compilers):
        """Raises HarnessError when a required tool is missing."""
        missing = [c for c in compilers if c != "nvcc" and not self.clang.get(c)]
        if "ompds" in missing:
            raise HarnessError("no ompds toolchain at %s (run scripts/build, or "
                               "pass --toolchain)" % self.toolchain)
        if missing:
            raise HarnessError("compiler not found: %s" % ", ".join(missing))
        for t, name in ((self.readelf, "llvm-readelf"), (self.llvm_dis, "llvm-dis")):
            if not t:
                raise HarnessError("%s not found (Debian's llvm%s package)" % (name, base.SUFFIX))


def clean_env(extra=None):
    # No symbolized stack dumps and no crash reproducers: known crashes (the
    # AMDGPU -O0 link) would otherwise cost seconds each.
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/root"),
           "LC_ALL": "C", "LLVM_DISABLE_SYMBOLIZATION": "1",
           "LLVM_DISABLE_CRASH_REPORT": "1"}
    if os.environ.get("TMPDIR"):
        env["TMPDIR"] = os.environ["TMPDIR"]
    env.update(extra or {})
    return env


def run(cmd, cwd, env, timeout=600):
    t = time.time()
    try:
        res = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=timeout)
        out, rc = res.stdout.decode(errors="replace"), res.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") + "\n[timed out]"
        rc = 124
    except OSError as e:
        out, rc = str(e), 127
    return rc, out, time.time() - t


def short_reason(log):
    for pat, reason in KNOWN_FAILURES:
        if pat.search(log):
            return reason
    if "[timed out]" in log:
        return "timed out"
    for line in log.splitlines():
        if "error:" in line or "Error" in line or "fatal" in line:
            line = re.sub(r"^.*?(error|fatal error):\s*", "", line).strip()
            return line[:100]
    last = [l for l in log.splitlines() if l.strip()]
    return (last[-1].strip()[:100] if last else "failed")


# --- builds ----------------------------------------------------------------------

def omp_commands(tools, compiler, arch, opt, prog, link_opt=None):
    """(env, compile command, link command) of one OpenMP build."""
    clang = tools.clang[compiler]
    srcs = [os.path.join(BENCH, s) for s in prog.omp]
    base = [clang, "-fopenmp", "--offload-arch=" + arch]
    cflags, lflags, env = [], list(prog.libs), {}
    if arch.startswith("sm_"):
        # ptxas runs in the compile step, or with LTO (ompds' default) in the
        # device link: its -v output gives the spills.
        cflags += ["-Xcuda-ptxas", "-v", "-Wno-unused-command-line-argument"]
        lflags += ["-Xoffload-linker", "-v"]
        if compiler == "stock" and not tools.stock_is_toolchain:
            env["LIBRARY_PATH"] = DEB_LLVM + "/lib"
    elif compiler == "stock" and not tools.stock_is_toolchain:
        cflags += ["-nogpulib"]
        lflags += ["-nogpulib", "-L" + DEB_LLVM + "/lib", "-lomptarget.devicertl"]
    compile_cmd = base + [opt] + prog.defines + cflags + ["-save-temps", "-c"] + srcs
    objs = [os.path.splitext(os.path.basename(s))[0] + ".o" for s in srcs]
    link_cmd = base + [link_opt or opt] + objs + ["-o", "prog", "-save-temps"] + lflags
    return clean_env(env), compile_cmd, link_cmd


def nvcc_command(tools, opt, prog, arch="sm_90"):
    src = os.path.join(BENCH, prog.cuda[0])
    return clean_env(), [tools.nvcc, "-arch=" + arch] + NVCC_OPT[opt] + \
        prog.defines + ["-cubin", "-Xptxas", "-v", "--keep", "--keep-dir", ".",
                        src, "-o", "prog.cubin"]


# --- measuring ---------------------------------------------------------------------

OMP_KERNEL = re.compile(r"^__omp_offloading_[0-9a-f]+_[0-9a-f]+_(.+)_l(\d+)$")


def main_kernel(names, prog, compiler):
    """The reported kernel among `names`, or None."""
    if compiler == "nvcc":
        hits = sorted(n for n in names if prog.cuda_kernel in n)
        return hits[0] if hits else None
    func, ordinal = prog.kernel
    mine = []
    for n in names:
        m = OMP_KERNEL.match(n)
        if m and m.group(1) == func:
            mine.append((int(m.group(2)), n))
    mine.sort()
    return mine[ordinal][1] if ordinal < len(mine) else None


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def measure_nvptx(d, log):
    imgs = [p for p in glob.glob(os.path.join(d, "*.img")) if "sm_" in p] or \
        glob.glob(os.path.join(d, "*.cubin"))
    if len(imgs) != 1:
        raise HarnessError("expected one device image in %s, found %s" % (d, imgs))
    kernels = elfinfo.cubin_kernels(imgs[0])
    ptx = [t for t in (read(p) for p in programs.linked_ptx(
               sorted(glob.glob(os.path.join(d, "*.s")) +
                      glob.glob(os.path.join(d, "*.ptx")))))
           if re.search(r"^\.target\s+sm_", t, re.M)]
    graph = elfinfo.ptx_callgraph(ptx)
    spills = elfinfo.ptxas_spills(log)
    for k, m in kernels.items():
        reach = elfinfo.reachable(graph, k) if k in graph else {k}
        m["spill_st"] = sum(spills[f][1] for f in reach if f in spills)
        m["spill_ld"] = sum(spills[f][2] for f in reach if f in spills)
        m["alloc_shared"] = elfinfo.call_sites(graph, k, "__kmpc_alloc_shared") \
            if k in graph else None
        m["malloc"] = elfinfo.call_sites(graph, k, "malloc") if k in graph else None
        # Barrier instructions in the PTX of the kernel and what it calls
        # (static: a barrier in a loop counts once).
        m["bar_sync"] = elfinfo.call_sites(graph, k, elfinfo.BARRIER) \
            if k in graph else None
    return kernels


def measure_amdgpu(tools, d):
    imgs = [p for p in glob.glob(os.path.join(d, "*.img")) if "gfx" in p]
    if len(imgs) != 1:
        raise HarnessError("expected one device image in %s, found %s" % (d, imgs))
    rc, notes, _ = run([tools.readelf, "--notes", imgs[0]], d, clean_env())
    if rc:
        raise HarnessError("llvm-readelf --notes failed: %s" % notes[-300:])
    kernels = elfinfo.amdgpu_kernels(notes, imgs[0])
    graph = {}
    # The device link's optimized module: *.postopt.bc (clang-linker-wrapper's
    # LTO up to LLVM 19), *.img.0.4.opt.bc (ld.lld's LTO from LLVM 20 on).
    for bc in glob.glob(os.path.join(d, "*.postopt.bc")) + glob.glob(
            os.path.join(d, "*.img.0.4.opt.bc")):
        rc, ir, _ = run([tools.llvm_dis, "-o", "-", bc], d, clean_env())
        if rc:
            raise HarnessError("llvm-dis failed on %s" % bc)
        elfinfo.ir_callgraph(ir, graph)
    for k, m in kernels.items():
        have = k in graph
        m["alloc_shared"] = elfinfo.call_sites(graph, k, "__kmpc_alloc_shared") if have else None
        m["malloc"] = elfinfo.call_sites(graph, k, "malloc") if have else None
    return kernels


def build_and_measure(tools, prog, arch, opt, compiler, work, keep=False):
    """Builds one (program, arch, opt, compiler) and returns (rows, log).

    Each row is a dict for one kernel of the device image; a failed build
    gives one row whose status says why.  Raises HarnessError when the build
    succeeded but its device code cannot be read."""
    try:
        return _build_and_measure(tools, prog, arch, opt, compiler, work, keep)
    except HarnessError:
        raise
    except Exception as e:  # a bug or an unexpected file format: say where
        raise HarnessError("%s %s %s %s: %s: %s" % (prog.name, arch, opt, compiler,
                                                     type(e).__name__, e)) from e


def _build_and_measure(tools, prog, arch, opt, compiler, work, keep):
    d = os.path.join(work, prog.name, "%s%s-%s" % (arch, opt, compiler))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    base = {"program": prog.name, "family": prog.family, "arch": arch,
            "opt": opt, "compiler": compiler, "defines": " ".join(prog.defines),
            "method": "", "status": "ok", "kernel": "", "role": ""}
    logs, t0 = [], time.time()

    def fail(status):
        row = dict(base, status=status, build_s="%.1f" % (time.time() - t0))
        return [row], "\n".join(logs)

    if compiler == "nvcc":
        if not prog.cuda:
            return [], ""
        if not tools.nvcc:
            return fail("not available: nvcc not found")
        env, cmd = nvcc_command(tools, opt, prog, arch)
        rc, out, _ = run(cmd, d, env)
        logs.append("$ " + " ".join(cmd) + "\n" + out)
        if rc:
            return fail("build failed: " + short_reason(out))
        kernels = measure_nvptx(d, out)
    else:
        env, ccmd, lcmd = omp_commands(tools, compiler, arch, opt, prog)
        rc, out, _ = run(ccmd, d, env)
        logs.append("$ " + " ".join(ccmd) + "\n" + out)
        compile_log = out
        if rc:
            return fail("build failed: " + short_reason(out))
        rc, out, _ = run(lcmd, d, env)
        logs.append("$ " + " ".join(lcmd) + "\n" + out)
        link_log = out
        if rc:
            reason = short_reason(out)
            if arch.startswith("gfx") and opt == "-O0" and "65188" in reason:
                # Measure what the issues measured: the -O0 objects linked at
                # -O1 (the only way to a linked gfx90a image with 19.1.7).
                _, _, fcmd = omp_commands(tools, compiler, arch, opt, prog,
                                          AMD_O0_FALLBACK_LINK)
                rc2, out2, _ = run(fcmd, d, env)
                logs.append("$ " + " ".join(fcmd) + "\n" + out2)
                if rc2:
                    return fail("build failed: %s (-O1 device link: %s)"
                                % (reason, short_reason(out2)))
                base["status"] = "link -O0 failed: " + reason
                base["method"] = "-O0 objects, -O1 device link"
            else:
                return fail("build failed: " + reason)
        if arch.startswith("sm_"):
            kernels = measure_nvptx(d, compile_log + "\n" + link_log)
        else:
            kernels = measure_amdgpu(tools, d)
    main = main_kernel(list(kernels), prog, compiler)
    if main is None:
        raise HarnessError("%s %s %s %s: reported kernel not found among %s"
                           % (prog.name, arch, opt, compiler, sorted(kernels)))
    rows = []
    for k in sorted(kernels, key=lambda n: (n != main, n)):
        row = dict(base, kernel=k, role="main" if k == main else "other",
                   build_s="%.1f" % (time.time() - t0))
        row.update({f: v for f, v in kernels[k].items() if f != "frame"})
        rows.append(row)
    if not keep:
        shutil.rmtree(d, ignore_errors=True)
    return rows, "\n".join(logs)


def main_kernel_us(path, reps):
    """Median device time (us) of the last `reps` launches of the kernel
    launched most often (ties: the longest in total), from a kernel-time
    file; None when it holds no launch."""
    times = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.split(None, 2)
                if len(parts) == 3 and parts[0] == "KTIME":
                    times.setdefault(parts[2].strip(), []).append(int(parts[1]))
    except OSError:
        return None
    if not times:
        return None
    ns = max(times.values(), key=lambda t: (len(t), sum(t)))
    last = sorted(ns[-reps:] if reps > 0 else ns)
    n = len(last)
    med = last[n // 2] if n % 2 else (last[n // 2 - 1] + last[n // 2]) / 2
    return med / 1000.0
