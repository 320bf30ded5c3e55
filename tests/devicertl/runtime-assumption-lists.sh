#!/usr/bin/env bash
# The lists of DeviceRTL entry points that patch 37
# (OpenMP-Deduce-the-device-runtime-s-nesting-and-thread-state-assumptions)
# keeps by hand in openmp-opt's deduceDeviceRuntimeAssumptions must not drift
# from the DeviceRTL it reasons about (a review of that patch: "a runtime
# change can silently break the deduction"). In the patched tree:
#  - every runtime function that starts a data environment itself
#    (state::enterDataEnvironment or state::DateEnvironmentRAII in its body)
#    is __kmpc_parallel_60, whose serialized path the deduction handles, or
#    one of the task entry points the deduction lists (OMPRTL_<name>);
#  - every omp_set_* routine that writes an ICV or other runtime state
#    (icv:: or state:: on the left of an assignment) is one of the ICV
#    setters it lists.
# A runtime function that calls a listed entry point need not be listed: the
# deduction gives up when a task entry point has a caller outside the list.
# Static, no GPU; reads only the sources.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
[ -f "$SRC/llvm/lib/Transforms/IPO/OpenMPOpt.cpp" ] ||
  fail "no patched source tree at $SRC; run scripts/build first"

python3 - "$SRC" <<'EOF'
import re
import sys
from pathlib import Path

src = Path(sys.argv[1])
opt = (src / "llvm/lib/Transforms/IPO/OpenMPOpt.cpp").read_text()
start = opt.find("static bool deduceDeviceRuntimeAssumptions(")
if start < 0:
    sys.exit("FAIL: deduceDeviceRuntimeAssumptions not found in OpenMPOpt.cpp")
end = opt.find("\n}\n", start)
deduce = opt[start:end]
listed = set(re.findall(r"OMPRTL_(\w+)", deduce))
if "__kmpc_omp_task" not in listed or "omp_set_num_threads" not in listed:
    sys.exit("FAIL: the deduction's lists were not found (OMPRTL_ names in "
             "deduceDeviceRuntimeAssumptions); update this test with the code")


def functions(text):
    """(name, body) of the function definitions of a source file that start
    at column 0 (attributes in [[...]] allowed), and their braces."""
    for m in re.finditer(r"(?m)^(?:\[\[[^\]]*\]\]\s*)?[A-Za-z_][\w:<>,\s\*&]*?"
                         r"\b(\w+)\s*\([^;{]*\)\s*\{", text):
        depth, i = 0, m.end() - 1
        while i < len(text):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        yield m.group(1), text[m.end():i]


problems = []
seen_env = set()
seen_setters = set()
for path in sorted((src / "openmp/device/src").glob("*.cpp")):
    for name, body in functions(path.read_text()):
        if re.search(r"\benterDataEnvironment\s*\(|\bDateEnvironmentRAII\b", body):
            if name == "enterDataEnvironment":
                continue
            seen_env.add(name)
            if name != "__kmpc_parallel_60" and name not in listed:
                problems.append("%s (%s) starts a data environment but is not "
                                "a task entry point of the deduction"
                                % (name, path.name))
        if name.startswith("omp_set_") and re.search(
                r"\b(?:icv|state)::\w+\s*(?:\[[^\]]*\])?\s*[-+*/|&]?=(?!=)", body):
            seen_setters.add(name)
            if name not in listed:
                problems.append("%s (%s) sets runtime state but is not an ICV "
                                "setter of the deduction" % (name, path.name))

if "__kmpc_parallel_60" not in seen_env or "omp_set_num_threads" not in seen_setters:
    problems.append("the DeviceRTL scan found neither __kmpc_parallel_60's data "
                    "environment nor omp_set_num_threads; update this test")
for p in problems:
    print("FAIL: " + p)
if problems:
    sys.exit(1)
print("ok: %d runtime functions start a data environment (%s), %d omp_set_* "
      "routines set state (%s); all in the deduction's lists"
      % (len(seen_env), ", ".join(sorted(seen_env)), len(seen_setters),
         ", ".join(sorted(seen_setters))))
EOF
