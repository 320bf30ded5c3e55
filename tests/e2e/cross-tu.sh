#!/usr/bin/env bash
# A device function defined in one file and called from a kernel in another
# (benchmarks/programs/escape_xtu.c + escape_xtu_dev.c: block_scan() opens two
# parallel regions and shares two locals with them). Patch
# clang-Driver-Link-OpenMP-NVPTX-device-code-with-LTO-by-default.patch:
#  - at -O0, by default, the device code is linked with LTO: one copy of the
#    runtime's team state in the linked PTX, and block_scan is compiled;
#    with -fno-offload-lto, escape_xtu_dev.c's PTX has its own copy;
#  - at -O2, by default, the NVPTX device code is linked with LTO: the linked
#    PTX exists, has no `exit;` (what block_scan compiled to without LTO), the
#    kernel reaches the parallel regions (barriers) and block_scan's shared
#    locals are in the kernel's depot; ptxas accepts it;
#  - with -fno-offload-lto, block_scan in escape_xtu_dev.c's own PTX does
#    nothing: a bare `exit;` (LLVM 19) or an empty .noreturn body (22)
#    (llvm-project#55943: that file's private copy of the runtime state is
#    never initialized), which is why the default changed;
#  - both binaries print PASS on the host fallback.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
P=$OMPDS_ROOT/benchmarks/programs
build() { # dir, flags...
  local d=$work/$1; shift
  mkdir -p "$d"
  (cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch=sm_90 "$@" \
     "$P/escape_xtu.c" "$P/escape_xtu_dev.c" -o prog -save-temps) >"$d/log" 2>&1 ||
    { cat "$d/log" >&2; fail "build $*"; }
  (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>&1) | grep ": PASS$" >/dev/null ||
    fail "$* does not print PASS on the host fallback"
}

build lto -O2
ptx=$(lto_ptx "$work/lto")
[ -f "$ptx" ] || fail "-O2 did not link the NVPTX device code with LTO (no $ptx)"
! grep -q "exit;" "$ptx" || fail "the LTO-linked device code has an exit;"
grep -q "bar.sync" "$ptx" || fail "the kernel does not reach block_scan's parallel regions"
grep -q "__shared_depot___omp_offloading_.*_run_target_l" "$ptx" ||
  fail "block_scan's shared locals are not in the kernel's depot"
[ -z "$PTXAS" ] || "$PTXAS" -arch=sm_90 -c "$ptx" -o "$work/lto.o" || fail "ptxas rejects the linked PTX"

build nolto -O2 -fno-offload-lto
dev=$work/nolto/escape_xtu_dev-openmp-nvptx64-nvidia-cuda-sm_90.s
[ -f "$dev" ] || fail "-fno-offload-lto: no per-file PTX for escape_xtu_dev.c"
# Nothing but an exit (LLVM 19) or an empty .noreturn body (LLVM 22).
awk '/^\.visible \.func block_scan\(/,/^}/' "$dev" >"$work/block_scan.s"
grep -q "exit;\|^\.noreturn" "$work/block_scan.s" && ! grep -q "call\|bar\.sync\|ld\.\|st\." "$work/block_scan.s" ||
  fail "-fno-offload-lto: block_scan is no longer a bare exit; revisit the LTO default"
# The team state, whole or split into parts by GlobalOpt (its first part).
TEAM_STATE='^\.shared .*_ZN4ompx5state9TeamStateE\(\[\|_\$_0;\)'
build lto0 -O0
ptx=$(lto_ptx "$work/lto0")
[ -f "$ptx" ] || fail "-O0 did not link the NVPTX device code with LTO (no $ptx)"
[ "$(grep -c "$TEAM_STATE" "$ptx")" = 1 ] || fail "-O0: the linked PTX does not have exactly one runtime team state"
grep -q "^\(\.visible \)\?\.func block_scan(" "$ptx" &&
  grep -q "^\(\.visible \)\?\.func block_scan_omp_outlined(" "$ptx" ||
  fail "-O0: block_scan and its parallel region are not in the linked PTX"
[ -z "$PTXAS" ] || "$PTXAS" -arch=sm_90 -c "$ptx" -o "$work/lto0.o" || fail "ptxas rejects the -O0 linked PTX"
build nolto0 -O0 -fno-offload-lto
grep -q "$TEAM_STATE" "$work/nolto0/escape_xtu_dev-openmp-nvptx64-nvidia-cuda-sm_90.s" ||
  fail "-O0 -fno-offload-lto: escape_xtu_dev.c no longer has its own runtime state; revisit the LTO default"

echo "cross-TU device function: LTO by default (one runtime copy), per-file runtime without it"
