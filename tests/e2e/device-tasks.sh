#!/usr/bin/env bash
# Task reductions and task affinity in device code (issue 39 item 3; patch
# OpenMP-DeviceRTL-Run-task-reductions-and-tasks-with-affinity-on-the-devi.patch).
# Before, the device link failed: "Undefined reference to
# '__kmpc_task_reduction_get_th_data'" (and __kmpc_taskred_init,
# __kmpc_taskred_modifier_init, __kmpc_omp_reg_task_with_affinity):
#  - a taskgroup task_reduction in a target region's sequential part and
#    under single in a parallel region, a parallel and a worksharing loop with
#    the task reduction modifier, a taskloop reduction and a task with an
#    affinity clause link for sm_90 and gfx90a at -O0 and -O2, and ptxas
#    accepts the sm_90 PTX;
#  - the program prints PASS on the host fallback; kept for the GPU bundle,
#    where the device runs its tasks serialized.
set -euo pipefail
. "$(dirname "$0")/../lib/env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/tasks.c" <<'C'
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 0, y = 1, z = 0, nz = 0, w = 0, t = 0, on_device = 0;
  int arr[10] = {0};

  /* taskgroup task_reduction in the sequential part of the region. */
#pragma omp target map(tofrom : x, on_device)
  {
    on_device = !omp_is_initial_device();
#pragma omp taskgroup task_reduction(+ : x)
    {
      for (int i = 1; i <= 10; i++) {
#pragma omp task in_reduction(+ : x)
        x += i;
      }
    }
  }

  /* ... under single in a parallel region. */
#pragma omp target parallel num_threads(4) map(tofrom : y)
#pragma omp single
#pragma omp taskgroup task_reduction(* : y)
  for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(* : y)
    y *= 2;
  }

  /* A parallel region with the task reduction modifier. */
#pragma omp target parallel num_threads(4) reduction(task, + : z)             \
    map(tofrom : z, nz)
  {
#pragma omp task in_reduction(+ : z)
    z += 1;
#pragma omp masked
    nz = omp_get_num_threads();
  }

  /* A worksharing loop with the task reduction modifier. */
#pragma omp target parallel for num_threads(4) reduction(task, + : w)         \
    map(tofrom : w)
  for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : w)
    w += i;
  }

  /* A taskloop reduction. */
#pragma omp target map(tofrom : t)
#pragma omp taskloop reduction(+ : t)
  for (int i = 0; i < 100; i++)
    t += i;

  /* A task with an affinity clause. */
#pragma omp target map(tofrom : arr)
  {
#pragma omp task affinity(arr[0 : 10]) shared(arr)
    for (int i = 0; i < 10; i++)
      arr[i] = i;
#pragma omp taskwait
  }
  int bad = 0;
  for (int i = 0; i < 10; i++)
    bad += arr[i] != i;

  int fail = x != 55 || y != 1024 || z != nz || nz < 1 || w != 4950 ||
             t != 4950 || bad;
  printf("device tasks on the %s: x %d y %d z %d/%d w %d t %d, %d bad: %s\n",
         on_device ? "device" : "host", x, y, z, nz, w, t, bad,
         fail ? "FAIL" : "PASS");
  return fail;
}
C
build_and_run_on_host "$work" tasks.c "device tasks" device-tasks
echo "device tasks: task reductions and affinity link in device code for sm_90 and gfx90a and pass on the host"
