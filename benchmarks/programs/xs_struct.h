/* xs_struct.h - the structs of xs_struct.c and ../cuda/xs_struct.cu (ompds
 * benchmark; issue 36): XSBench's application shape of the event lookup of
 * xs_event.h.  The proxy application keeps its run-time inputs in one struct
 * of scalars and its simulation data in a struct of pointers and lengths,
 * and the kernel reads both structs' fields where it calls its device
 * functions; the CUDA version passes both structs by value.  Written for
 * ompds from that description; not XSBench's code.
 */
#ifndef XS_STRUCT_H
#define XS_STRUCT_H

#include "xs_event.h"

/* The inputs: scalars only. */
typedef struct {
  long n_nuclides;
  long n_grid;
  long lookups;
  int grid_type;
  int hash_bins;
  int max_num_nucs;
  int materials;
} XSInputs;

/* The simulation data: pointers and their lengths. */
typedef struct {
  double *dist;
  long length_dist;
  int *num_nucs;
  long length_num_nucs;
  double *concs;
  long length_concs;
  int *mats;
  long length_mats;
  double *union_energy;
  long length_union_energy;
  int *index_grid;
  long length_index_grid;
  GridPoint *grids;
  long length_grids;
} XSData;

static XSInputs xs_inputs(const XSProblem *p) {
  XSInputs in;
  in.n_nuclides = NUCLIDES;
  in.n_grid = GRIDPOINTS;
  in.lookups = LOOKUPS;
  in.grid_type = p->grid_type;
  in.hash_bins = p->hash_bins;
  in.max_num_nucs = XS_MAX_NUCS;
  in.materials = XS_MATERIALS;
  return in;
}

static XSData xs_data(XSProblem *p) {
  XSData sd;
  sd.dist = p->dist;
  sd.length_dist = XS_MATERIALS;
  sd.num_nucs = p->num_nucs;
  sd.length_num_nucs = XS_MATERIALS;
  sd.concs = p->concs;
  sd.length_concs = (long)XS_MATERIALS * XS_MAX_NUCS;
  sd.mats = p->mats;
  sd.length_mats = (long)XS_MATERIALS * XS_MAX_NUCS;
  sd.union_energy = p->union_energy;
  sd.length_union_energy = XS_UNION;
  sd.index_grid = p->index_grid;
  sd.length_index_grid = XS_UNION * NUCLIDES;
  sd.grids = p->grids;
  sd.length_grids = XS_UNION;
  return sd;
}

#endif
