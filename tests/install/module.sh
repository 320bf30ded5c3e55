#!/usr/bin/env bash
# scripts/install + the Lmod modulefile, as a user would use them:
#  1. install build/toolchain into a scratch prefix that already holds a file
#     of someone else's, then move the prefix (the install is relocatable);
#  2. in a clean shell (env -i bash --noprofile --norc) with only Lmod's init
#     sourced, `module use` + `module load ompds/<VERSION>`, then
#     `clang -fopenmp --offload-arch=sm_90 -DN=8 fig5.c` (plain, no flags) and
#     run it: the host fallback must print PASS, and nothing the executable
#     loads may come from Debian's LLVM (/usr/lib/llvm-<major>); the Tcl modulefile must load too;
#  3. scripts/uninstall: only the other file is left.
# Installs the Debian package lmod when it is missing. ~15 s.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TC=${OMPDS_TOOLCHAIN:-${OMPDS_BUILD:-$root/build}/toolchain}
# shellcheck source=../../scripts/lib/base.sh
. "$root/scripts/lib/base.sh"
VERSION=$(tr -d ' \n' <"$root/$OMPDS_PATCH_DIR/VERSION")
LMOD_INIT=/usr/share/lmod/lmod/init/bash
fail() { echo "FAIL: $*" >&2; exit 1; }
t0=$(date +%s)

[ -x "$TC/bin/clang" ] || fail "no toolchain at $TC; run scripts/build first"

if [ ! -f "$LMOD_INIT" ]; then
  echo "-- Lmod is not installed; installing the Debian package lmod"
  if [ "$(id -u)" = 0 ]; then pre=(); elif command -v sudo >/dev/null; then pre=(sudo); else
    fail "Lmod ($LMOD_INIT) is missing and this test cannot install it without root: run 'apt-get install lmod' as root"
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${pre[@]}" apt-get install -y -q --no-install-recommends lmod >/dev/null ||
    { "${pre[@]}" apt-get update -q >/dev/null && "${pre[@]}" apt-get install -y -q --no-install-recommends lmod >/dev/null; } ||
    fail "apt-get install lmod failed; install Lmod (Debian package lmod) and rerun"
  [ -f "$LMOD_INIT" ] || fail "the lmod package did not provide $LMOD_INIT"
fi

work=$(mktemp -d)
prefix=$work/prefix
moved=$work/moved
cleanup() {
  # An install the test did not get to remove: remove it (and the scratch dir).
  for p in "$prefix" "$moved"; do
    [ -f "$p/share/ompds/install-manifest.txt" ] && "$root/scripts/uninstall" --prefix "$p" >/dev/null 2>&1
  done
  rm -rf "$work"
}
trap cleanup EXIT

# Someone else's files in the prefix: the install must leave them alone.
mkdir -p "$prefix/bin"
echo "not ompds" >"$prefix/bin/site-tool"
echo "not ompds" >"$prefix/README.site"

echo "== install into $prefix"
"$root/scripts/install" --prefix "$prefix" --toolchain "$TC" ||
  fail "scripts/install --prefix $prefix failed"
[ -f "$prefix/share/modulefiles/ompds/$VERSION.lua" ] || fail "no Lmod modulefile share/modulefiles/ompds/$VERSION.lua"
[ -f "$prefix/share/modulefiles-tcl/ompds/$VERSION" ] || fail "no Tcl modulefile share/modulefiles-tcl/ompds/$VERSION"
mv "$prefix" "$moved"
echo "== moved the prefix to $moved"

# A copy of benchmarks/ (fig5.c includes files beside it), so that a.out is
# not written into the checkout.
mkdir -p "$work/home"
cp -r "$root/benchmarks" "$work/benchmarks"

# The clean shell: no profile, no rc, an empty environment but for PATH and
# HOME; everything else comes from Lmod and the modulefile.
clean_shell() {
  env -i HOME="$work/home" PATH=/usr/bin:/bin TERM=dumb \
    bash --noprofile --norc -c "$1" bash "$LMOD_INIT" "$moved" "$VERSION" "$work/benchmarks/seeds" \
    "$OMPDS_DEB_LLVM"
}

echo "== Lmod: module load ompds/$VERSION, compile and run fig5.c for sm_90"
# shellcheck disable=SC2016 # expanded by the clean shell
clean_shell '
set -euo pipefail
source "$1"
P=$2 V=$3
module use "$P/share/modulefiles"
module load "ompds/$V" || { echo "module load ompds/$V failed"; exit 1; }
module -t list 2>&1 | grep -x >/dev/null "ompds/$V" || { echo "ompds/$V is not loaded"; exit 1; }
module whatis "ompds/$V" 2>&1 | grep >/dev/null "Version: $V" || { echo "module whatis ompds/$V: no version"; exit 1; }
module help "ompds/$V" 2>&1 | grep -F >/dev/null "Installed in $P" || { echo "module help ompds/$V does not name $P"; exit 1; }
[ "$(command -v clang)" = "$P/bin/clang" ] ||
  { echo "clang is $(command -v clang), not $P/bin/clang of the moved prefix"; exit 1; }
[ "$CC" = "$P/bin/clang" ] && [ "$CXX" = "$P/bin/clang++" ] || { echo "CC=$CC CXX=$CXX"; exit 1; }
case ":$LD_LIBRARY_PATH:" in *":$P/lib/x86_64-pc-linux-gnu:"*) ;; *) echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; exit 1 ;; esac
case ":$MANPATH:" in *":$P/share/man:"*) ;; *) echo "MANPATH=$MANPATH"; exit 1 ;; esac
clang --version | sed -n 1p
cd "$4"
clang -fopenmp --offload-arch=sm_90 -DN=8 fig5.c || { echo "the sm_90 compile failed"; exit 1; }
llvm-objdump --offloading a.out | grep >/dev/null "arch            sm_90" || { echo "a.out has no sm_90 image"; exit 1; }
out=$(./a.out 2>&1) || { echo "a.out failed: $out"; exit 1; }
echo "$out" | grep PASS || { echo "a.out did not print PASS: $out"; exit 1; }
if ldd a.out | grep -E "$5/|not found"; then echo "a.out loads the above from outside the install"; exit 1; fi
ldd a.out | grep >/dev/null "$P/.*libomptarget.so" || { echo "a.out does not load libomptarget from $P"; ldd a.out; exit 1; }
module unload ompds
[ "$(command -v clang || true)" != "$P/bin/clang" ] || { echo "module unload left $P/bin on PATH"; exit 1; }
[ -z "${CC:-}" ] || { echo "module unload left CC=$CC"; exit 1; }
# The Tcl modulefile, through Lmod.
module unuse "$P/share/modulefiles"
module use "$P/share/modulefiles-tcl"
module load "ompds/$V" || { echo "module load ompds/$V (Tcl) failed"; exit 1; }
[ "$(command -v clang)" = "$P/bin/clang" ] || { echo "Tcl modulefile: clang is $(command -v clang)"; exit 1; }
[ "$CC" = "$P/bin/clang" ] || { echo "Tcl modulefile: CC=$CC"; exit 1; }
module help "ompds/$V" 2>&1 | grep -F >/dev/null "Installed in $P" || { echo "Tcl modulefile: module help does not name $P"; exit 1; }
module unload ompds
' || fail "the module environment did not give a working ompds (see above)"

echo "== uninstall"
"$root/scripts/uninstall" --prefix "$moved" || fail "scripts/uninstall --prefix $moved failed"
left=$(cd "$moved" && find . -mindepth 1 | sort | tr '\n' ' ')
[ "$left" = "./README.site ./bin ./bin/site-tool " ] ||
  fail "after uninstall the prefix should hold only the files that were there before; it holds: $left"

echo "PASS: install, Lmod module (moved prefix), sm_90 compile and run, uninstall ($(($(date +%s) - t0)) s)"
