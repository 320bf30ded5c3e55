/* escape_xtu.h - shared by escape_xtu.c and escape_xtu_dev.c (ompds
 * benchmark): sizes and the device function defined in the other
 * translation unit. */
#ifndef OMPDS_ESCAPE_XTU_H
#define OMPDS_ESCAPE_XTU_H

#ifndef TEAMS
#define TEAMS 8
#endif
#ifndef WORKERS
#define WORKERS 96
#endif
#ifndef CHUNKS
#define CHUNKS 8
#endif
#if CHUNKS < 1 || WORKERS % CHUNKS
#error "CHUNKS must divide WORKERS"
#endif
#define SIZE (TEAMS * WORKERS)

#pragma omp declare target
/* Inclusive prefix sums of block t of in[] into out[]; totals[t] = the
 * block's sum.  Defined in escape_xtu_dev.c. */
void block_scan(const int *in, int *out, int *totals, int t);
#pragma omp end declare target

#endif
