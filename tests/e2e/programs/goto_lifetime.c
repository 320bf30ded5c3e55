// Two team-shared arrays of the sequential part of a target region: 'b' in an
// inner block, 'a' declared after it in the outer block. The goto back to
// 'again' keeps 'a' alive (C11 6.2.4p6: its lifetime is the whole block) while
// 'b' is live again, and 'a' is read through 'p' after that: the two must not
// share depot space. With -DNO_GOTO their scopes are disjoint and they may.
#include <stdio.h>

int main(void) {
  int out = -1;
#pragma omp target map(from : out)
  {
    int *p = 0;
    int pass = 0;
#ifndef NO_GOTO
  again:;
#endif
    {
      double b[32];
#pragma omp parallel for
      for (int i = 0; i < 32; i++)
        b[i] = -1.0;
      out = (int)b[0] + 1;
    }
    if (p)
      out = p[5]; // 'a' is alive here
    int a[64];
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
      a[i] = i;
    p = a;
#ifndef NO_GOTO
    if (pass++ == 0)
      goto again;
#else
    out = p[5] + pass;
#endif
  }
  printf("out = %d (expected 5)\n", out);
  if (out != 5) {
    printf("FAIL\n");
    return 1;
  }
  printf("PASS\n");
  return 0;
}
