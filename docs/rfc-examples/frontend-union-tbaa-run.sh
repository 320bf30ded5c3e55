#!/bin/sh
# Runs frontend-union-tbaa.ll on the host (lli): the same function with the
# shared address space and the GPU triple removed, called with i = j = k = 3
# and y = 1.0f. Prints 42 unoptimized and 1065353216 (the bits of 1.0f) after
# `opt -O2` or `opt -passes='early-cse<memssa>'`.
# Usage: frontend-union-tbaa-run.sh [directory with opt and lli, default
#        /usr/lib/llvm-22/bin]
set -e
B=${1:-/usr/lib/llvm-22/bin}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
sed -e 's/ addrspace(3)//g' -e '/^target triple/d' "$(dirname "$0")/frontend-union-tbaa.ll" > "$T/host.ll"
cat >> "$T/host.ll" <<'MAIN'
@fmt = private constant [4 x i8] c"%d\0A\00"
declare i32 @printf(ptr, ...)
define i32 @main() {
  %o = alloca i32
  call void @f(ptr %o, i32 3, i32 3, i32 3, float 1.0)
  %r = load i32, ptr %o
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %r)
  ret i32 0
}
MAIN
printf 'unoptimized:       '; "$B/lli" -O0 "$T/host.ll"
printf 'early-cse<memssa>: '; "$B/opt" -S -passes='early-cse<memssa>' "$T/host.ll" | "$B/lli" -O0 -
printf 'O2:                '; "$B/opt" -S -O2 "$T/host.ll" | "$B/lli" -O0 -
printf 'O2 without TBAA:   '; sed 's/, !tbaa ![0-9]*//' "$T/host.ll" | "$B/opt" -S -O2 | "$B/lli" -O0 -
