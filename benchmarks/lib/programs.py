"""The benchmark programs and their variants (ompds benchmarks).

One Program is one build: OpenMP sources (built with stock clang and
ompds) and, where there is one, the CUDA equivalent (built with nvcc), with
the same -D macros.  `kernel` names the OpenMP kernel the tables report: the
function that holds the target region and the region's position among that
function's kernels (kernels are numbered in source order); the other kernels
of the module (device/host probes) are kept in the CSV only.
"""

import os
from dataclasses import dataclass, field

# fig5 scalar counts of the default sweep: small counts, the 62/63/64 edge of
# stock LLVM 19's 64-argument limit in invokeMicrotask (N + 2 arguments).
FIG5_SWEEP = [1, 2, 4, 8, 16, 32, 48, 62, 63, 64]
FIG5_SWEEP_FULL = list(range(1, 65))


@dataclass
class Program:
    name: str                 # unique, e.g. "fig5-n8-in"
    family: str               # groups rows and plots, e.g. "fig5"
    omp: list                 # OpenMP sources, relative to benchmarks/
    defines: list = field(default_factory=list)
    kernel: tuple = ("", 0)   # (function, ordinal) of the reported OpenMP kernel
    cuda: list = field(default_factory=list)      # CUDA sources (may be empty)
    cuda_kernel: str = ""     # substring of the reported CUDA kernel's name
    params: dict = field(default_factory=dict)    # for plots and tables
    gpu_defines: list = field(default_factory=list)  # extra -D for run-gpu
    note: str = ""            # one line for the tables

    @property
    def label(self):
        return self.name

    @property
    def libs(self):
        """Host libraries of the OpenMP link (C++ sources need the C++
        runtime: clang, not clang++, drives the link)."""
        cxx = any(s.endswith(".cpp") for s in self.omp)
        return ["-lm"] + (["-lstdc++"] if cxx else [])


def linked_ptx(paths):
    """The PTX files of a device link among `paths`, without the copy that
    the link assembled again for kernels that spilled (patch 73 keeps it as
    `*-reassembled*.s` with -save-temps): the same code."""
    return [p for p in paths if "-reassembled" not in os.path.basename(p)]


def all_programs(sweep=None):
    """Every program variant of the full run, in table order."""
    sweep = sweep or FIG5_SWEEP
    progs = []
    # -- the paper's own figures, for the quoted numbers ------------------
    for inside in (1, 0):
        progs.append(Program(
            "paper-fig5-n1-" + ("in" if inside else "out"), "paper",
            ["programs/paper_fig5.c"], ["-DN=1", "-DINSIDE=%d" % inside],
            ("increment_array", 0), ["cuda/paper_fig5.cu"], "increment_array",
            {"N": 1, "inside": inside}, ["-DTEAMS=4096"],
            "Figure 5 as printed" + (" but c1 declared in the teams region"
                                     if inside else "")))
    for m in (1, 2, 3, 4):
        progs.append(Program(
            "paper-fig6-m%d" % m, "paper", ["programs/paper_fig6.c"],
            ["-DM=%d" % m], ("increment_array", 0), ["cuda/paper_fig6.cu"],
            "increment_array", {"M": m}, ["-DTEAMS=4096"],
            "Figure 6 as printed, %d array%s" % (m, "s" if m > 1 else "")))
    # -- seeds ----------------------------------------------------------------
    for inside in (1, 0):
        for n in sweep:
            progs.append(Program(
                "fig5-n%d-%s" % (n, "in" if inside else "out"), "fig5",
                ["seeds/fig5.c"], ["-DN=%d" % n, "-DINSIDE=%d" % inside],
                ("run_target", 1), ["cuda/fig5.cu"], "fig5_kernel",
                {"N": n, "inside": inside}, ["-DTEAMS=4096"]))
    for m in (1, 2, 3, 4):
        progs.append(Program(
            "fig6-m%d" % m, "fig6", ["seeds/fig6.c"], ["-DM=%d" % m],
            ("run_target", 1), ["cuda/fig6.cu"], "fig6_kernel", {"M": m},
            ["-DTEAMS=4096"]))
    progs.append(Program("vecadd", "vecadd", ["seeds/vecadd.c"], [],
                         ("vector_add", 0), ["cuda/vecadd.cu"], "vectorAdd",
                         {}, ["-DVN=8388608"]))
    progs.append(Program("vecadd-unroll", "vecadd", ["seeds/vecadd.c"],
                         ["-DUNROLL=1"], ("vector_add", 0), ["cuda/vecadd.cu"],
                         "vectorAddUnroll", {}, ["-DVN=262144"]))
    # -- LULESH-like, XSBench-like --------------------------------------------
    progs.append(Program("lulesh-bc", "lulesh", ["programs/lulesh_bc.c"], [],
                         ("apply_accel_bc", 0), ["cuda/lulesh_bc.cu"],
                         "apply_accel_bc", {}, ["-DEDGE=100"]))
    progs.append(Program("lulesh-monoq", "lulesh", ["programs/lulesh_monoq.c"],
                         [], ("calc_monotonic_q_region", 0),
                         ["cuda/lulesh_monoq.cu"], "calc_monotonic_q_region",
                         {}, ["-DEDGE=100"]))
    progs.append(Program("xsbench", "xsbench", ["programs/xsbench.c"], [],
                         ("run_lookups", 0), ["cuda/xsbench.cu"], "run_lookups",
                         {}, ["-DLOOKUPS=1000000"]))
    # -- issue 19's yardsticks: application-like kernels ------------------------
    progs.append(Program("xs-event", "apps", ["programs/xs_event.c"], [],
                         ("run_lookups", 0), ["cuda/xs_event.cu"],
                         "xs_event_kernel", {}, [],
                         "XSBench-style lookup, unionized grid"))
    progs.append(Program("rs-event", "apps", ["programs/rs_event.c"], [],
                         ("run_lookups", 0), ["cuda/rs_event.cu"],
                         "rs_event_kernel", {}, [],
                         "RSBench-style multipole lookup"))
    # -- issue 36: the lookups in the proxy applications' shape: structs of
    # scalars and of pointers read in the region (CUDA passes them by value)
    for m, how in ((0, "implicitly mapped"), (1, "map(to:)"),
                   (2, "firstprivate")):
        progs.append(Program("xs-struct-m%d" % m, "apps",
                             ["programs/xs_struct.c"], ["-DXS_MAP=%d" % m],
                             ("run_lookups", 0), ["cuda/xs_struct.cu"],
                             "xs_struct_kernel", {"map": m}, [],
                             "XSBench's shape: inputs struct %s, data "
                             "struct of pointers" % how))
        progs.append(Program("rs-struct-m%d" % m, "apps",
                             ["programs/rs_struct.c"], ["-DRS_MAP=%d" % m],
                             ("run_lookups", 0), ["cuda/rs_struct.cu"],
                             "rs_struct_kernel", {"map": m}, [],
                             "RSBench's shape: inputs struct %s, data "
                             "struct of pointers" % how))
    progs.append(Program("snap-ui", "apps", ["programs/snap_ui.cpp"], [],
                         ("_ZN4Snap9computeUiEPi", 2), [], "", {}, [],
                         "TestSNAP's shape: C++ members through a mapped "
                         "`this`, U recursion, atomics (no CUDA twin)"))
    for form, how in ((0, "the benchmark's loop"),
                      (1, "binary expression, teams of 64 and a nested "
                          "parallel for"),
                      (2, "unary expression, int sites"),
                      (3, "x * y + w through the loop macro")):
        progs.append(Program("grid-su3-f%d" % form, "apps",
                             ["programs/grid_su3.cpp"], ["-DFORM=%d" % form],
                             ("run_kernel", 0), [], "", {"form": form},
                             ["-DLSIZE=32"],
                             "GridMini's shape: SU(3) product, %s "
                             "(no CUDA twin)" % how))
    progs.append(Program("fmm-p2p", "apps", ["programs/fmm_p2p.c"], [],
                         ("p2p", 0), ["cuda/fmm_p2p.cu"], "fmm_p2p_kernel",
                         {}, [], "miniFMM-style near field, team-shared tile "
                         "(generic, SPMD-ized)"))
    progs.append(Program("empty-target", "apps", ["programs/empty_target.c"],
                         [], ("run_target", 0), ["cuda/empty_target.cu"],
                         "empty_kernel", {}, [],
                         "launch cost of an empty target teams region"))
    # -- generic mode, escaping locals in device functions ----------------------
    progs.append(Program("escape-seq", "escape", ["programs/escape_seq.c"], [],
                         ("run_target", 0), ["cuda/escape_seq.cu"],
                         "escape_seq_kernel", {}, ["-DTEAMS=4096"],
                         "called from the sequential part"))
    progs.append(Program("escape-par", "escape", ["programs/escape_par.c"], [],
                         ("run_target", 0), ["cuda/escape_par.cu"],
                         "escape_par_kernel", {}, ["-DTEAMS=4096"],
                         "called from inside a parallel region"))
    progs.append(Program("many-args", "args", ["programs/many_args.c"], [],
                         ("run_target", 0), [], "", {}, ["-DTEAMS=4096"],
                         "parallel regions with 72 arguments: SPMD, generic, "
                         "serialized"))
    progs.append(Program("depot-reuse", "depot", ["programs/depot_reuse.c"], [],
                         ("run_target", 0), [], "", {}, ["-DTEAMS=4096"],
                         "locals of disjoint scopes share depot space"))
    progs.append(Program("big-shared", "depot", ["programs/big_shared.c"], [],
                         ("run_target", 0), [], "", {}, ["-DTEAMS=1"],
                         "a 64 KiB team-shared array: over the depot budget "
                         "(one team: its runtime allocation comes from the "
                         "8 MiB device heap)"))
    progs.append(Program("pool-stress", "escape", ["programs/pool_stress.c"],
                         [], ("run_target", 0), [], "", {}, [],
                         "stress: every worker of 264 teams allocates and "
                         "checks an escaping local 16 times (the global "
                         "pool's claim and free ordering at -O0)"))
    progs.append(Program("guard-race", "depot", ["programs/guard_race.c"], [],
                         ("run_target", 0), [], "", {}, [],
                         "stress: 8 teams walk 8192 tiles with a team-shared "
                         "loop variable that the SPMD-ized kernel's threads "
                         "read and its main thread increments"))
    progs.append(Program("escape-xtu", "escape",
                         ["programs/escape_xtu.c", "programs/escape_xtu_dev.c"],
                         [], ("run_target", 0), [], "", {}, ["-DTEAMS=4096"],
                         "defined in another translation unit"))
    return progs


def gpu_experiments():
    """Variants only benchmarks/run-gpu builds: questions a device run answers
    (the static table does not list them)."""
    return [
        # vecadd-unroll: ompds (full LTO at the device link, like stock with
        # -foffload-lto) and nvcc unroll the inner loop by 4, stock's
        # compile-step pipeline by 2; ompds and nvcc took 2x stock's device
        # time on the H100 and the H200.  The same factor for every compiler
        # says whether the factor is the difference.
        Program("vecadd-unroll-u%d" % u, "vecadd", ["seeds/vecadd.c"],
                ["-DUNROLL=1", "-DINNER_UNROLL=%d" % u], ("vector_add", 0),
                ["cuda/vecadd.cu"], "vectorAddUnroll", {}, ["-DVN=262144"],
                "vecadd-unroll with #pragma unroll %d for every compiler" % u)
        for u in (2, 4)]


def quick_programs():
    """The --quick smoke subset."""
    return [p for p in all_programs([1])
            if p.name in ("fig5-n1-in", "fig6-m1")]
