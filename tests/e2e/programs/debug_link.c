// A generic-mode target region with a variable shared with a parallel region
// and an atomic update: enough device code and runtime for the device link.
#include <stdio.h>

int main(void) {
  int sum = 0;
#pragma omp target map(tofrom : sum)
  {
    int one = 1;
#pragma omp parallel
    {
#pragma omp atomic
      sum += one;
    }
  }
  printf("%s\n", sum >= 1 ? "PASS" : "FAIL");
  return sum < 1;
}
