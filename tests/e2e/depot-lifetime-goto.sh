#!/usr/bin/env bash
# Depot objects only share space when C/C++ lifetimes allow it (0.3.0 gave two
# arrays that are alive together one slot; fixed in
# clang-OpenMP-Give-depot-objects-the-scope-of-their-variable-as-live-rang.patch).
# tests/e2e/programs/goto_lifetime.c: an int[64] stays alive across a goto back
# to a label before its declaration while a double[32] is live again.
#  - sm_90 and gfx90a, -O0 and -O2: the kernel's depot holds both arrays
#    (512 bytes for 512 bytes of depot objects), remark of the device link;
#  - with -DNO_GOTO the scopes are disjoint and the depot is 256 bytes (so the
#    check can fail: the packer does reuse space where it may);
#  - PTX through ptxas; PASS on the host fallback.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
SRC_C=$OMPDS_ROOT/tests/e2e/programs/goto_lifetime.c
build() { # dir arch opt extra-flags...
  local d=$1 arch=$2 opt=$3 remarks
  shift 3
  case "$arch" in
    sm_*) remarks=nvptx-lower-depot-objects ;;
    *) remarks=amdgpu-lower-module-lds ;;
  esac
  mkdir -p "$d"
  (cd "$d" && env -i PATH="$PATH" "$TC/bin/clang" -fopenmp --offload-arch="$arch" "$opt" "$@" \
    "$SRC_C" -o prog -save-temps -Rpass-analysis="$remarks") >"$d/log" 2>&1 ||
    { cat "$d/log" >&2; fail "goto_lifetime.c $arch $opt $*: build failed"; }
  (cd "$d" && OMP_TARGET_OFFLOAD=DISABLED ./prog 2>/dev/null) | grep PASS >/dev/null ||
    fail "goto_lifetime.c $arch $opt $*: no PASS on the host fallback"
  [[ $arch != sm_* ]] || keep_for_gpu "$d" "goto-lifetime$opt$*"
  if [ -n "$PTXAS" ] && [[ $arch == sm_* ]]; then
    "$PTXAS" -arch="$arch" -c "$d"/prog*"$arch".s -o "$d/ptxas.o" ||
      fail "goto_lifetime.c $arch $opt $*: ptxas rejects the PTX"
  fi
}
depot() { # dir: the kernel's depot line of the remark
  grep -o "_main_l[0-9]*[a-z_]*: shared depot of [0-9]* bytes for [0-9]* depot objects of [0-9]* bytes" "$1/log" | sed -n 1p
}
for arch in sm_90 gfx90a; do
  for opt in -O0 -O2; do
    d=$work/$arch$opt
    build "$d" "$arch" "$opt"
    line=$(depot "$d")
    echo "$arch $opt: $line"
    [[ $line == *"shared depot of 512 bytes for 2 depot objects of 512 bytes" ]] ||
      fail "$arch $opt: the arrays that are alive together must not share the depot ($line)"
    d=$work/$arch$opt-nogoto
    build "$d" "$arch" "$opt" -DNO_GOTO
    line=$(depot "$d")
    echo "$arch $opt -DNO_GOTO: $line"
    [[ $line == *"shared depot of 256 bytes for 2 depot objects of 512 bytes" ]] ||
      fail "$arch $opt -DNO_GOTO: the arrays of disjoint scopes should share the depot ($line)"
  done
done
echo "depot objects alive together across a backward goto keep their own space"
