# Common settings and helpers for the ompds scripts. Sourced, not executed.
# shellcheck shell=bash

OMPDS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export OMPDS_ROOT

# The pinned base (scripts/base.conf) and what follows from it.
# shellcheck source=base.sh
. "$OMPDS_ROOT/scripts/lib/base.sh"

# Caches live outside the git checkout so that a fresh clone on the same
# machine reuses them.
OMPDS_CACHE=${OMPDS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ompds}
OMPDS_BUILD=${OMPDS_BUILD:-$OMPDS_ROOT/build}
export OMPDS_CACHE OMPDS_BUILD

die() {
  echo "error: $*" >&2
  exit 1
}

note() {
  echo "-- $*" >&2
}

# Run a command as root (directly, or through sudo when available).
as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root to run: $* (install sudo or run as root)"
  fi
}

# The series version that the built toolchain reports.
ompds_series_version() {
  local v
  v=$(tr -d ' \n' <"$OMPDS_ROOT/$OMPDS_PATCH_DIR/VERSION")
  echo "$v"
}

# Lists the patch files of patches/series in order (comments and blanks dropped).
series_patches() {
  sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$OMPDS_ROOT/$OMPDS_PATCH_DIR/series"
}
