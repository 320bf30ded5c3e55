// empty_target.cu - CUDA twin of ../programs/empty_target.c (ompds
// benchmark): the launch cost of a kernel that only sets a flag.
#include <stdio.h>
#include <stdlib.h>

#include "cuda_bench.h"

#ifndef TEAMS
#define TEAMS 132
#endif

__global__ void empty_kernel(int *flag) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    flag[0] = 1;
}

int main(void) {
  int flag = 0;
  int *d_flag = to_device(&flag, 1);
  auto launch = [&] { empty_kernel<<<TEAMS, 128>>>(d_flag); };
  run_once(launch);
  to_host(&flag, d_flag, 1);
  printf("empty_target (CUDA) TEAMS=%d ran on device: %s\n", TEAMS,
         flag == 1 ? "PASS" : "FAIL");
  bench_kernel("main", launch);
  CUDA_CHECK(cudaFree(d_flag));
  return flag == 1 ? EXIT_SUCCESS : EXIT_FAILURE;
}
