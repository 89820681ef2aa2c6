#ifdef _OPENMP
#include <omp.h>
#define PS_TID omp_get_thread_num()
#define PS_NTHREADS omp_get_max_threads()
#else
#define PS_TID 0
#define PS_NTHREADS 1
#endif
#ifndef PS_OMP_MIN
#define PS_OMP_MIN 32768
#endif
/* The model's row-tile size s for an extent of ext rows, reduced (not below 4 micro-tiles
   of `unit` rows) so that every thread gets about four row tiles: with the 128-row tiles of
   the cache model a 512-row problem had four, which two threads split unevenly in
   triangular domains. A macro, not a function: `polyscan la` programs print this prelude
   once per kernel instance, and identical macro definitions may repeat. */
#define PS_OMP_ROWS(ext, s, unit) \
  ps_min((s), ps_max(4 * (unit), (((ext) + 4 * (int64_t)PS_NTHREADS - 1) / (4 * (int64_t)PS_NTHREADS) + (unit) - 1) / (unit) * (unit)))
