#!/usr/bin/env bash
# scripts/build never removes a package of the host (issue 37 item 3: its
# apt-get transaction removed libomp-dev, libomp-14-dev and libomp5-14 to
# install LLVM 22's packages). overlay.refuse_removals stops with the names of
# the packages apt would remove, and lets an installation that removes nothing
# go on; the fake apt-get here answers the simulation as apt does.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
cat >"$work/bin/apt-get" <<'SH'
#!/bin/sh
echo "Reading package lists..."
[ -n "$FAKE_REMOVE" ] && echo "Remv $FAKE_REMOVE [1:14.0.6-12]"
echo "Inst libomp5-19 (1:19.1.7-3~deb12u1 Debian-Security:12/oldstable-security [amd64])"
SH
chmod +x "$work/bin/apt-get"
check() { # FAKE_REMOVE value
  PATH="$work/bin:$PATH" FAKE_REMOVE=$1 python3 - "$root/scripts/lib" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[1])
import overlay
overlay.refuse_removals(["liboffload-dev"], dict(os.environ))
print("no removals")
PY
}
out=$(check "" 2>&1) || { echo "$out"; echo "FAIL: an installation that removes nothing was refused"; exit 1; }
if out=$(check libomp-14-dev 2>&1); then
  echo "$out"
  echo "FAIL: an installation that removes libomp-14-dev was not refused"
  exit 1
fi
grep -q "would remove .*libomp-14-dev" <<<"$out" ||
  { echo "$out"; echo "FAIL: the message does not name the package apt would remove"; exit 1; }
echo "apt: an installation that would remove a host package stops and names it"
