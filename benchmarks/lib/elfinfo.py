"""Reading the device code the toolchains produce (ompds benchmarks).

Plain Python, no third-party modules:
  * ELF64 sections and symbols (NVIDIA cubins and AMDGPU code objects);
  * the per-kernel attributes of a cubin's .nv.info sections (register count,
    frame and stack size) and its .nv.shared.<kernel> sections;
  * the execution mode recorded in an OpenMP kernel's kernel environment;
  * the AMDGPU kernel metadata printed by `llvm-readelf --notes`;
  * call graphs of PTX and of LLVM IR text, to count the runtime allocation
    calls that code reachable from a kernel still makes;
  * `ptxas -v` function properties (stack frame, spills).
"""

import re
import struct

# --- ELF ----------------------------------------------------------------------

SHT_SYMTAB, SHT_DYNSYM, SHT_NOBITS = 2, 11, 8


class Elf:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = d = f.read()
        if d[:4] != b"\x7fELF" or d[4] != 2 or d[5] != 1:
            raise ValueError("%s: not a little-endian ELF64 file" % path)
        shoff, = struct.unpack_from("<Q", d, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
        self.sections = []
        for i in range(shnum):
            (name, typ, flags, addr, off, size, link, info, align,
             entsize) = struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
            self.sections.append({"name": name, "type": typ, "addr": addr,
                                  "off": off, "size": size, "link": link,
                                  "info": info})
        strtab = self.sections[shstrndx]
        for s in self.sections:
            s["name"] = self._str(strtab, s["name"])
        self.by_name = {s["name"]: s for s in self.sections}
        self.symbols = self._symbols()

    def _str(self, sec, off):
        o = sec["off"] + off
        return self.data[o:self.data.index(b"\0", o)].decode(errors="replace")

    def _symbols(self):
        """[(name, value, size, shndx)] of .symtab (or .dynsym)."""
        for want in (SHT_SYMTAB, SHT_DYNSYM):
            for s in self.sections:
                if s["type"] != want:
                    continue
                strs = self.sections[s["link"]]
                out = []
                for i in range(s["size"] // 24):
                    nm, info, other, shndx, value, size = struct.unpack_from(
                        "<IBBHQQ", self.data, s["off"] + 24 * i)
                    out.append((self._str(strs, nm), value, size, shndx))
                return out
        return []

    def symbol_bytes(self, name, n):
        """The first n bytes of a symbol's initial contents, or None."""
        for sym, value, size, shndx in self.symbols:
            if sym != name or not 0 < shndx < len(self.sections):
                continue
            sec = self.sections[shndx]
            if sec["type"] == SHT_NOBITS:
                return bytes(n)
            off = sec["off"] + value - sec["addr"]
            return self.data[off:off + n]
        return None


# --- cubins -----------------------------------------------------------------

EIATTR_FRAME_SIZE = 0x11
EIATTR_MIN_STACK_SIZE = 0x12
EIATTR_REGCOUNT = 0x2F
SM90_RESERVED_SMEM = 1024


def _nv_info(data, sec):
    """(attribute, value bytes or int) pairs of one .nv.info section."""
    p, end = sec["off"], sec["off"] + sec["size"]
    while p + 2 <= end:
        fmt, attr = data[p], data[p + 1]
        if fmt == 0x01:      # EIFMT_NVAL: no value (2 bytes of padding)
            yield attr, None
            p += 4
        elif fmt == 0x02:    # EIFMT_BVAL: one byte
            yield attr, data[p + 2]
            p += 4
        elif fmt == 0x03:    # EIFMT_HVAL: 16-bit value
            yield attr, struct.unpack_from("<H", data, p + 2)[0]
            p += 4
        elif fmt == 0x04:    # EIFMT_SVAL: 16-bit size, then the value
            n, = struct.unpack_from("<H", data, p + 2)
            yield attr, data[p + 4:p + 4 + n]
            p += 4 + n
        else:
            raise ValueError("unknown .nv.info format 0x%x" % fmt)


def cubin_kernels(path):
    """{kernel: {regs, frame, stack, smem_raw, smem, smem_rsv, exec_mode}}.

    Kernels are the functions with a parameter bank (.nv.constant0.<name>).
    smem_raw is the size of .nv.shared.<kernel>, which on sm_90 already
    includes the 1 KiB system reserve (.nv.reservedSmem) whenever the kernel
    has static shared memory; smem is without it, smem_rsv with it."""
    elf = Elf(path)
    names = [s["name"][len(".nv.constant0."):] for s in elf.sections
             if s["name"].startswith(".nv.constant0.")]
    syms = [s[0] for s in elf.symbols]
    per_sym = {}
    info = elf.by_name.get(".nv.info")
    if info:
        for attr, val in _nv_info(elf.data, info):
            if attr in (EIATTR_REGCOUNT, EIATTR_FRAME_SIZE,
                        EIATTR_MIN_STACK_SIZE) and isinstance(val, bytes) \
                    and len(val) == 8:
                idx, v = struct.unpack("<II", val)
                if idx < len(syms):
                    per_sym.setdefault(syms[idx], {})[attr] = v
    has_reserve = any(s.startswith(".nv.reservedSmem") for s in syms)
    out = {}
    for k in names:
        a = per_sym.get(k, {})
        sec = elf.by_name.get(".nv.shared." + k)
        raw = sec["size"] if sec else 0
        rsv = SM90_RESERVED_SMEM if has_reserve and raw >= SM90_RESERVED_SMEM else 0
        out[k] = {
            "regs": a.get(EIATTR_REGCOUNT),
            "frame": a.get(EIATTR_FRAME_SIZE),
            "stack": a.get(EIATTR_MIN_STACK_SIZE, a.get(EIATTR_FRAME_SIZE)),
            "smem_raw": raw,
            "smem": raw - rsv,
            # what the kernel occupies on sm_90: the reserve is added by the
            # toolchain (and the driver) to any kernel with static smem
            "smem_rsv": raw if rsv else (raw + SM90_RESERVED_SMEM if raw else 0),
            "exec_mode": exec_mode(elf, k),
        }
    return out


# --- OpenMP kernel environment ------------------------------------------------

# offload/include/Shared/Environment.h (LLVM 19): KernelEnvironmentTy starts
# with ConfigurationEnvironmentTy {u8 UseGenericStateMachine,
# u8 MayUseNestedParallelism, u8 ExecMode, ...}; ExecMode is
# OMP_TGT_EXEC_MODE_GENERIC (1), _SPMD (2) or _GENERIC_SPMD (3).
EXEC_MODES = {1: "generic", 2: "SPMD", 3: "generic-SPMD"}


def exec_mode(elf, kernel):
    b = elf.symbol_bytes(kernel + "_kernel_environment", 3)
    if b is None or len(b) < 3:
        return None
    return EXEC_MODES.get(b[2], "mode %d" % b[2])


# --- AMDGPU code objects ------------------------------------------------------

AMD_KEYS = {
    ".name": str, ".vgpr_count": int, ".sgpr_count": int, ".agpr_count": int,
    ".group_segment_fixed_size": int, ".private_segment_fixed_size": int,
    ".vgpr_spill_count": int, ".sgpr_spill_count": int,
    ".uses_dynamic_stack": str,
}


def amdgpu_kernels(notes_text, image_path):
    """Kernels from `llvm-readelf --notes` of an AMDGPU code object."""
    kernels, cur, in_kernels = [], None, False
    for line in notes_text.splitlines():
        if line.startswith("amdhsa.kernels:"):
            in_kernels = True
            continue
        if in_kernels and re.match(r"^amdhsa\.", line):
            in_kernels = False
        if not in_kernels:
            continue
        m = re.match(r"^  (- |  )(\.[\w]+):\s*(.*)$", line)
        if not m:
            continue
        if m.group(1) == "- ":
            cur = {}
            kernels.append(cur)
        key, val = m.group(2), m.group(3).strip()
        if key in AMD_KEYS and cur is not None and val:
            cur[key] = AMD_KEYS[key](val)
    elf = Elf(image_path)
    out = {}
    for k in kernels:
        name = k.get(".name")
        if not name:
            continue
        out[name] = {
            "vgpr": k.get(".vgpr_count"), "sgpr": k.get(".sgpr_count"),
            "agpr": k.get(".agpr_count"),
            "lds": k.get(".group_segment_fixed_size"),
            "scratch": k.get(".private_segment_fixed_size"),
            "vgpr_spill": k.get(".vgpr_spill_count"),
            "sgpr_spill": k.get(".sgpr_spill_count"),
            "dyn_stack": k.get(".uses_dynamic_stack") == "true",
            "exec_mode": exec_mode(elf, name),
        }
    return out


# --- call graphs ----------------------------------------------------------------

PTX_FUNC = re.compile(
    r"^[ \t]*(?:\.(?:visible|weak|extern)\s+)?\.(entry|func)\s+"
    r"(?:\([^)]*\)\s*)?([\w$.]+)\s*\(", re.M)
PTX_CALL = re.compile(r"\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([%\w$.]+)")
# A barrier a thread waits at (bar.sync, barrier.sync.aligned, bar.red ...;
# not bar.arrive): CUDA's __syncthreads() and the OpenMP runtime's team and
# guarded-region barriers.
PTX_BARRIER = re.compile(r"^\s*(?:@!?%\w+\s+)?(?:bar|barrier)(?:\.cta)?\.(?:sync|red)\b",
                         re.M)
BARRIER = "<barrier>"


def _matching(text, i, open_ch, close_ch):
    """Index just past the bracket that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        c = text[j]
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def ptx_callgraph(texts, graph=None):
    """Adds {function: [callee, ...]} (one entry per call site) of PTX texts;
    each barrier instruction of a function adds a BARRIER entry."""
    graph = {} if graph is None else graph
    for text in texts:
        for m in PTX_FUNC.finditer(text):
            name = m.group(2)
            end_params = _matching(text, m.end() - 1, "(", ")")
            k = end_params
            while k < len(text) and text[k] not in "{;":
                k += 1
            if k >= len(text) or text[k] == ";":
                continue  # a declaration
            body = text[k:_matching(text, k, "{", "}")]
            calls = graph.setdefault(name, [])
            for c in PTX_CALL.finditer(body):
                callee = c.group(1)
                calls.append("<indirect>" if callee.startswith("%") else callee)
            calls.extend([BARRIER] * len(PTX_BARRIER.findall(body)))
    return graph


IR_DEFINE = re.compile(r'^define\b[^@\n]*@("(?:[^"\\]|\\.)*"|[\w$.\-]+)\(', re.M)
IR_CALL = re.compile(r'\b(?:call|invoke)\b[^@\n]*?@("(?:[^"\\]|\\.)*"|[\w$.\-]+)\(')


def ir_callgraph(text, graph=None):
    """Adds {function: [callee, ...]} of an LLVM IR text module."""
    graph = {} if graph is None else graph
    for m in IR_DEFINE.finditer(text):
        name = m.group(1).strip('"')
        end = text.find("\n}\n", m.end())
        body = text[m.end():end if end >= 0 else len(text)]
        calls = graph.setdefault(name, [])
        for c in IR_CALL.finditer(body):
            calls.append(c.group(1).strip('"'))
    return graph


def reachable(graph, root):
    seen, todo = set(), [root]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(c for c in graph.get(f, []) if c in graph)
    return seen


def call_sites(graph, root, callee):
    """Call sites of `callee` in the functions reachable from `root`."""
    return sum(graph[f].count(callee) for f in reachable(graph, root))


# --- ptxas -v --------------------------------------------------------------------

PTXAS_PROPS = re.compile(
    r"Function properties for ([\w$.]+)\s*\n\s*(\d+) bytes stack frame, "
    r"(\d+) bytes spill stores, (\d+) bytes spill loads")


def ptxas_spills(log):
    """{function: (frame, spill stores, spill loads)} from ptxas -v output."""
    out = {}
    for m in PTXAS_PROPS.finditer(log):
        out[m.group(1)] = tuple(int(x) for x in m.group(2, 3, 4))
    return out
