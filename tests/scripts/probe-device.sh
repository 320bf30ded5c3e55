#!/usr/bin/env bash
# benchmarks/probe-device without a GPU: fake programs (they print the
# offload runtime's launch line, write CUPTI-style KTIME records and a
# LIBOMPTARGET_PROFILE trace), a fake nvidia-smi and runtime archive. Checks
# that the geometry table has the default and the three minimums per program
# with the last launch line and the median device time, that the launch-path
# summary sums the trace per event and has the run with polling off, that
# ncu's absence is reported, and that the budget is honoured.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
F=$(mktemp -d)
trap 'rm -rf "$F"' EXIT
fail() { echo "FAIL: probe-device: $*" >&2; exit 1; }

mkdir -p "$F/bin" "$F/build/device" "$F/rtsrc/rt"
for p in rs-event empty-target; do
  for b in ompds-O2 nvcc-O2; do
    d=$F/build/bench/gpu/work/$p/$b
    mkdir -p "$d"
    cat >"$d/prog" <<'PROG'
#!/usr/bin/env bash
t=${LIBOMPTARGET_MIN_THREADS_FOR_LOW_TRIP_COUNT:-128}
echo "Launching kernel probe with [1,1,1] blocks and [128,1,1] threads in SPMD mode" >&2
echo "Launching kernel main with [$((50000 / t)),1,1] blocks and [$t,1,1] threads in SPMD mode" >&2
for i in $(seq 0 "${OMPDS_BENCH_REPS:-0}"); do
  [ -z "${OMPDS_KERNEL_TIMES:-}" ] || echo "KTIME $((t * 1000 + i * 1000)) main" >>"$OMPDS_KERNEL_TIMES"
done
[ -z "${OMPDS_KERNEL_TIMES:-}" ] || echo "KTIME 5 probe" >>"$OMPDS_KERNEL_TIMES"
[ -z "${LIBOMPTARGET_PROFILE:-}" ] ||
  echo '{"traceEvents":[{"ph":"X","name":"Runtime: synchronize","dur":5},{"ph":"X","name":"Runtime: synchronize","dur":7}]}' >"$LIBOMPTARGET_PROFILE"
echo "prog ran on device: PASS"
echo "TIME main reps=${OMPDS_BENCH_REPS:-0} median_us=${LIBOMPTARGET_CUDA_STREAM_BUSYWAIT:-11}"
PROG
    chmod +x "$d/prog"
  done
done
touch "$F/rtsrc/rt/libkerneltime.so"
(cd "$F/rtsrc" && tar -cf - rt | xz >"$F/build/device/rt.tar.xz")
printf '#!/bin/sh\necho fake GPU\n' >"$F/bin/nvidia-smi"
chmod +x "$F/bin/nvidia-smi"

run() { PATH=$F/bin:/usr/bin:/bin OMPDS_BUILD=$F/build "$@"; }
run env PROBE_GEOMETRY_PROGRAMS="rs-event" bash "$ROOT/benchmarks/probe-device" "$F/out" >"$F/log" 2>&1 ||
  { cat "$F/log"; fail "exit status $?"; }
g=$F/out/geometry.txt
grep -Eq '^rs-event +ompds-O2 +default +138\.5 +with \[390,1,1\] blocks and \[128,1,1\]' "$g" ||
  { cat "$g"; fail "no default row with the main kernel's launch and median"; }
grep -Eq '^rs-event +ompds-O2 +32 +42\.5 +with \[1562,1,1\]' "$g" || { cat "$g"; fail "no row for 32"; }
[ "$(grep -Ec '^rs-event +ompds-O2 ' "$g")" -eq 4 ] || { cat "$g"; fail "expected 4 ompds rows"; }
[ "$(grep -Ec '^rs-event +nvcc-O2 +default ' "$g")" -eq 1 ] || { cat "$g"; fail "expected 1 nvcc row"; }
l=$F/out/launch-path.txt
if ! grep -q 'BUSYWAIT=0' "$l" || ! grep -q 'median_us=0' "$l"; then
  cat "$l"
  fail "no run with polling off"
fi
grep -Eq '^Runtime: synchronize \| +2 +6\.0 +12\.0' "$l" || { cat "$l"; fail "trace not summed per event"; }
grep -q 'ncu not installed' "$F/out/skipped.txt" || fail "ncu's absence not reported"

# A budget of 0 skips everything and says so.
run env PROBE_BUDGET=0 bash "$ROOT/benchmarks/probe-device" "$F/out0" >"$F/log0" 2>&1 || fail "budget 0: exit status $?"
grep -q '^geometry rs-event ompds-O2 default' "$F/out0/skipped.txt" || { cat "$F/out0/skipped.txt"; fail "budget 0: geometry not listed as skipped"; }
echo "PASS: probe-device tables from fake programs"
