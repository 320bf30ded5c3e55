#!/usr/bin/env bash
# The offload plugins must read the SM version of images that CUDA 13's nvlink
# produces (ELF ABI version 8, SM in the second byte of e_flags) as well as of
# older images (ABI version 7, SM in the low byte), and must keep rejecting
# what they rejected before (patch Offload-Read-the-SM-version-of-CUDA-13-
# images).  Builds tests/offload/elf-check.cpp with the plugins' Utils/ELF.cpp
# from the patched overlay tree and, to show that the test can fail, from the
# unpatched Debian base, and runs both on:
#   v8      the sm_90 image of a program built with build/toolchain (nvlink)
#   v7      the same image with its header re-encoded the old way
#   v8-sm20 the v8 image claiming sm_20 (below the supported range)
#   v7-32   the v7 image without the 64-bit addressing flag
# Needs the overlay build (build/overlay/src) and CUDA's nvlink.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${OMPDS_BUILD:-$ROOT/build}
SRC=$BUILD/overlay/src
BASE=${OMPDS_CACHE:-$HOME/.cache/ompds}/base/debian
TC=$BUILD/toolchain
# shellcheck source=../../scripts/lib/base.sh
. "$ROOT/scripts/lib/base.sh"
DEB=$OMPDS_DEB_LLVM
fail() { echo "cuda-elf-flags: FAIL: $*" >&2; exit 1; }
for d in "$SRC/offload" "$BASE/offload" "$TC/bin/clang"; do
  [ -e "$d" ] || fail "$d missing: run scripts/build first"
done
command -v nvlink >/dev/null || [ -x /usr/local/cuda/bin/nvlink ] ||
  fail "CUDA's nvlink not found: install the CUDA toolkit (/usr/local/cuda)"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
build() { # tree out extra-flags...
  local tree=$1 out=$2; shift 2
  "/usr/bin/clang++$OMPDS_TOOL_SUFFIX" -std=c++17 -O1 -w "$@" \
    -I"$tree/offload/plugins-nextgen/common/include" -I"$tree/offload/include" \
    -I"$DEB/include" "$ROOT/tests/offload/elf-check.cpp" \
    "$tree/offload/plugins-nextgen/common/src/Utils/ELF.cpp" \
    -L"$DEB/lib" -lLLVM -Wl,-rpath,"$DEB/lib" -o "$out"
}
# The patch is upstream from LLVM 21 on (llvm-project#159354): there the test
# checks that the base's plugins read CUDA 13 images, as the toolchain relies on.
if grep -q getCUDASMVersion "$SRC/offload/plugins-nextgen/common/src/Utils/ELF.cpp"; then
  carried=1
else
  carried=0
fi
if [ $carried = 1 ]; then
  build "$SRC" "$T/ours" -DHAVE_GET_CUDA_SM_VERSION
  build "$BASE" "$T/stock"
else
  build "$SRC" "$T/ours"
fi

# An image as a user gets it: the toolchain's default link, CUDA's nvlink.
printf '#include <stdio.h>\nint main(void){int x=0;\n#pragma omp target map(tofrom:x)\nx=1;\nprintf("%%d\\n",x);}\n' >"$T/p.c"
env -i PATH=/usr/local/cuda/bin:/usr/bin:/bin "$TC/bin/clang" -fopenmp \
  --offload-arch=sm_90 -O2 "$T/p.c" -o "$T/prog"
(cd "$T" && "$DEB/bin/clang-offload-packager" prog \
   --image=file=img.cubin,triple=nvptx64-nvidia-cuda,arch=sm_90) ||
  fail "could not extract the sm_90 image"
python3 - "$T" <<'PY'
import struct, sys
t = sys.argv[1]
img = bytearray(open(t + "/img.cubin", "rb").read())
abi, flags = img[8], struct.unpack_from("<I", img, 48)[0]
if abi < 8 or (flags >> 8) & 0xff != 90:
    sys.exit("cuda-elf-flags: FAIL: expected an ABI version 8 sm_90 image from "
             "CUDA 13's nvlink, got ABI %d flags %#x" % (abi, flags))
def variant(name, abi, flags):
    v = bytearray(img)
    v[8] = abi
    struct.pack_into("<I", v, 48, flags)
    open("%s/%s.cubin" % (t, name), "wb").write(v)
variant("v8", 8, flags)
variant("v8-sm20", 8, (flags & ~0xff00) | (20 << 8))
variant("v7", 7, 90 | 0x400 | 0x100)      # sm_90, 64-bit, unified textures
variant("v7-32", 7, 90 | 0x100)
PY

check() { # binary image expected-output
  local got
  got=$("$T/$1" "$T/$2.cubin" | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" != "$3" ]; then
    fail "$1 on $2: expected '$3', got '$got'"
  fi
  echo "  $1 $2: $got"
}
if [ $carried = 0 ]; then
  # Upstream's own check (its messages are lower case; it does not reject a
  # version 8 image below sm_100: it compares the shifted SM field with an
  # unshifted constant, so only the first two are checked).
  check ours v8 "checkMachine: cuda"
  check ours v7 "checkMachine: cuda"
  check ours v7-32 "checkMachine: error: invalid CUDA addressing mode"
  echo "cuda-elf-flags: PASS (upstream's check of the base)"
  exit 0
fi
check ours v8 "checkMachine: cuda sm: 90"
check ours v7 "checkMachine: cuda sm: 90"
check ours v8-sm20 "checkMachine: error: Unsupported NVPTX architecture sm: 20"
check ours v7-32 "checkMachine: error: Invalid CUDA addressing mode sm: 90"
# Without the patch the CUDA 13 image is rejected: the test can fail.
check stock v8 "checkMachine: error: Invalid CUDA addressing mode"
check stock v7 "checkMachine: cuda"
echo "cuda-elf-flags: PASS"
