#!/usr/bin/env bash
# When device malloc fails, the DeviceRTL stops the kernel with a message
# instead of writing through a null pointer (patch OpenMP-DeviceRTL-Stop-with-
# a-message-when-the-device-heap-is-exhausted.patch):
#  - the NVPTX DeviceRTL has the message and traps after it;
#  - a kernel whose locals go through the runtime (a device function's
#    escaping local, -O0) carries the message in its linked image's PTX, so
#    the check is on its path; ptxas accepts that PTX;
#  - the AMDGPU DeviceRTL traps without printing (no GPU libc needed: the
#    program still links).
# On a GPU, benchmarks/programs/xsbench.c at -O0 with the default 8 MiB heap
# prints the message (H100, see docs/patches.md).
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
MSG="the device heap is exhausted"

"$TC/bin/llvm-dis" "$(devicertl_bc nvptx)" -o "$work/nv.ll"
grep -q "$MSG" "$work/nv.ll" || fail "NVPTX DeviceRTL has no out-of-heap message"
# (its size argument is mangled m or y: uint64_t is unsigned long or long long)
awk '/^define internal .*@_ZL21reportOutOfDeviceHeap[my]PKc/,/^}/' "$work/nv.ll" >"$work/f.ll"
grep -q "call void @llvm.trap()" "$work/f.ll" || fail "NVPTX DeviceRTL does not trap when malloc fails"

cat >"$work/p.c" <<'C'
#include <stdio.h>
#pragma omp declare target
__attribute__((noinline)) static void fill(int *w) { w[0] = 7; }
__attribute__((noinline)) static int use(void) { int w[4]; fill(w); return w[0]; }
#pragma omp end declare target
int main(void) {
  int r = 0;
#pragma omp target teams num_teams(2) map(tofrom : r)
  {
    /* Called by the sequential part too, so that w stays a run-time
       allocation (the device link moves the locals of functions that only
       parallel code runs to the stack). */
    if (use() != 7) r = 1;
#pragma omp parallel
    if (use() != 7) r = 1;
  }
  printf("%s\n", r ? "FAIL" : "PASS");
  return r;
}
C
(cd "$work" && "$TC/bin/clang" -fopenmp --offload-arch=sm_90 -O0 p.c -o p -save-temps) ||
  fail "sm_90 -O0 build"
ptx=$(ls "$work"/*sm_90*.s "$work"/*nvptx64*.s 2>/dev/null | sed -n 1p || true)
[ -n "$ptx" ] || { ls "$work"; fail "no linked PTX kept by -save-temps"; }
grep -q "__kmpc_alloc_shared" "$ptx" || fail "the test kernel no longer allocates at run time ($ptx)"
grep -q "device heap is exhausted" "$ptx" 2>/dev/null ||
  python3 - "$ptx" <<'PY' || fail "the out-of-heap message is not in the kernel's PTX ($ptx)"
import re, sys
# PTX spells string constants as byte lists.
text = open(sys.argv[1]).read()
want = b"the device heap is exhausted"
for m in re.finditer(r"\{([0-9, ]+)\}", text):
    if want in bytes(int(x) for x in m.group(1).split(",")):
        sys.exit(0)
sys.exit(1)
PY
if [ -n "$PTXAS" ]; then
  "$PTXAS" -arch=sm_90 -c "$ptx" -o "$work/p.cubin" || fail "ptxas rejects the PTX"
fi
[ "$("$work/p")" = PASS ] || fail "host run"

(cd "$work" && "$TC/bin/clang" -fopenmp --offload-arch=gfx90a -O2 p.c -o pa) ||
  fail "gfx90a -O2 build (an unresolved printf would fail the link)"
echo "PASS: DeviceRTL stops with a message when the device heap is exhausted"
