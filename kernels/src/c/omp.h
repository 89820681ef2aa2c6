#ifdef _OPENMP
#include <omp.h>
#define PS_TID omp_get_thread_num()
#define PS_NTHREADS omp_get_max_threads()
#define PS_TEAM omp_get_num_threads()
#else
#define PS_TID 0
#define PS_NTHREADS 1
#define PS_TEAM 1
#endif
#ifndef PS_OMP_MIN
#define PS_OMP_MIN 32768
#endif
