#!/usr/bin/env bash
# Compile and link with different -g flags (0.3.0 failed with "ptxas fatal:
# Optimized debugging not supported"; fixed in
# clang-linker-wrapper-Assemble-NVPTX-code-that-carries-debug-information.patch):
# tests/e2e/programs/debug_link.c compiled with {-O0 -g, -O0}, each linked with
# {-O0 -g, -O0, no -O}, and -O0 -g objects linked with -O2, for sm_90 and
# gfx90a: every cell links (the link runs ptxas for sm_90) and prints PASS on
# the host fallback. NVPTX code that keeps debug information is assembled with
# ptxas -g; code without stays optimized by ptxas.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
SRC_C=$OMPDS_ROOT/tests/e2e/programs/debug_link.c
cc() { (cd "$work" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp "$@"); }
n=0
for arch in sm_90 gfx90a; do
  for c in "-O0 -g" "-O0"; do
    obj=$work/$arch${c// /}.o
    cc --offload-arch="$arch" $c -c "$SRC_C" -o "$obj" >"$work/log" 2>&1 ||
      { cat "$work/log" >&2; fail "$arch: compile with $c failed"; }
    links=("-O0 -g" "-O0" "")
    [ "$c" = "-O0" ] || links+=("-O2")
    for l in "${links[@]}"; do
      cc --offload-arch="$arch" $l -v "$obj" -o "$work/prog" >"$work/log" 2>&1 ||
        { grep -i "error\|fatal" "$work/log" >&2 || cat "$work/log" >&2
          fail "$arch: compiled with '$c', linked with '${l:-no -O}': link failed"; }
      (cd "$work" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep PASS >/dev/null ||
        fail "$arch: compiled with '$c', linked with '${l:-no -O}': no PASS on the host fallback"
      if [[ $arch == sm_* ]]; then
        # The ptxas command of the device link: -g exactly when the code has
        # debug information (compiled with -g, or -g on the link line).
        ptxas_cmd=$(grep -E '/ptxas"? -' "$work/log" | tail -1)
        [ -n "$ptxas_cmd" ] || fail "$arch '$c' / '${l:-no -O}': the link ran no ptxas"
        if [[ "$c $l" == *-g* ]]; then
          [[ $ptxas_cmd == *" -g "* ]] ||
            fail "$arch '$c' / '${l:-no -O}': ptxas without -g for code with debug information"
        else
          [[ $ptxas_cmd != *" -g "* ]] ||
            fail "$arch '$c' / '${l:-no -O}': ptxas -g for code without debug information"
        fi
      fi
      echo "$arch: compiled with '$c', linked with '${l:-no -O}': ok"
      n=$((n + 1))
    done
  done
done
echo "$n compile/link -g combinations link"
