#!/usr/bin/env bash
# The DeviceRTL's smart stack size is a build option
# (LIBOMPTARGET_DEVICE_SHARED_SCRATCHPAD_SIZE, patch
# OpenMP-DeviceRTL-Make-the-smart-stack-size-a-build-option.patch):
#  - the toolchain's DeviceRTL has the default 512-byte stack (with the
#    1024-entry usage table and, since OpenMP-DeviceRTL-Give-the-main-thread-
#    in-generic-mode-the-unused-shared.patch, the main thread's 32-bit
#    counter);
#  - a DeviceRTL configured with 2048 has a 2048-byte stack;
#  - a size that is not a multiple of 16 is rejected at configure time.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

stack_type() {
  "$TC/bin/llvm-dis" "$1" -o "$work/rtl.ll"
  grep -m1 '^%"struct.(anonymous namespace)::SharedMemorySmartStackTy" = type' "$work/rtl.ll" || true
}

t=$(stack_type "$(devicertl_bc nvptx)")
[[ "$t" == *"{ [512 x i8], [1024 x i8], i32, [12 x i8] }"* ]] || fail "default smart stack: $t"
t=$(stack_type "$(devicertl_bc amdgpu)")
[[ "$t" == *"{ [512 x i8], [1024 x i8], i32, [12 x i8] }"* ]] || fail "default smart stack (gfx90a): $t"

configure() { # DIR SIZE
  devicertl_configure "$work/$1" -DLIBOMPTARGET_DEVICE_SHARED_SCRATCHPAD_SIZE="$2"
}

configure big 2048 >"$work/big.log" 2>&1 || { cat "$work/big.log"; fail "configure with 2048"; }
read -r target bc < <(tail -1 "$work/big.log")
ninja -C "$work/big" "$target" >>"$work/big.log" 2>&1 ||
  { tail -20 "$work/big.log"; fail "build with 2048"; }
t=$(stack_type "$bc")
[[ "$t" == *"{ [2048 x i8], [1024 x i8], i32, [12 x i8] }"* ]] || fail "2048-byte smart stack: $t"

if configure bad 100 >"$work/bad.log" 2>&1; then
  fail "a 100-byte smart stack was accepted"
fi
# CMake wraps its messages: compare with whitespace folded.
tr -s ' \n' ' ' <"$work/bad.log" |
  grep "LIBOMPTARGET_DEVICE_SHARED_SCRATCHPAD_SIZE must be a multiple of 16 .* not '100'" >/dev/null ||
  { cat "$work/bad.log"; fail "no clear message for a bad size"; }
echo "PASS: DeviceRTL smart stack size option"
