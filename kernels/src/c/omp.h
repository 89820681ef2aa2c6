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
/* The model's row-tile size s for an extent of ext rows, reduced (not below 4 micro-tiles)
   so that every thread gets about four row tiles: with the 128-row tiles of the cache
   model a 512-row problem had four, which two threads split unevenly in triangular
   domains, and each thread packs its own copy of the shared panel per step anyway. */
static __attribute__((unused)) int64_t ps_omp_rows(int64_t ext, int64_t s, int64_t unit)
{
  const int64_t want = 4 * (int64_t)PS_NTHREADS;
  int64_t per = (ext + want - 1) / want;
  per = (per + unit - 1) / unit * unit;
  if (per < 4 * unit) per = 4 * unit;
  return per < s ? per : s;
}
