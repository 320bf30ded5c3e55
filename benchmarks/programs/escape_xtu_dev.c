/* escape_xtu_dev.c - the device function of escape_xtu.c, in its own
 * translation unit (ompds benchmark).
 *
 * block_scan() runs on the initial thread of a team (the sequential part of
 * the caller's generic-mode target region).  Its locals partial[] and base
 * are shared with the two parallel regions it opens, so Clang globalizes
 * them; the workers write partial[] (chunk c owns partial[c]) and the
 * sequential part reads it back.  Compiled without the caller in view, so
 * no pass in this translation unit can know that only one activation per
 * team exists.
 */
#include "escape_xtu.h"

#define CH (WORKERS / CHUNKS)

#pragma omp declare target
void block_scan(const int *in, int *out, int *totals, int t) {
  int partial[CHUNKS];
  int base = t * WORKERS;
#pragma omp parallel for
  for (int c = 0; c < CHUNKS; c++) {
    int s = 0;
    for (int j = 0; j < CH; j++)
      s += in[base + c * CH + j];
    partial[c] = s;
  }
  int running = 0; /* exclusive scan of the chunk sums, sequentially */
  for (int c = 0; c < CHUNKS; c++) {
    int p = partial[c];
    partial[c] = running;
    running += p;
  }
  totals[t] = running;
#pragma omp parallel for
  for (int c = 0; c < CHUNKS; c++) {
    int s = partial[c];
    for (int j = 0; j < CH; j++) {
      s += in[base + c * CH + j];
      out[base + c * CH + j] = s;
    }
  }
}
#pragma omp end declare target
