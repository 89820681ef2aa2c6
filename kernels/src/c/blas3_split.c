/* Row tiles in parallel where the result is taller than wide, else column tiles (see
   blas3.rs): a thread owns a contiguous block of the row tiles for the whole call. */
if (@rows_split@) {
  const int64_t ps_tiles = (@ei@ + sz_i - 1) / sz_i;
  #ifdef _OPENMP
  #pragma omp parallel if (ps_tiles > 1 && sz_i * sz_j * sz_l >= PS_OMP_MIN)
  #endif
  {
    const int64_t ps_me = PS_TID, ps_team = PS_TEAM;
#define PS_OWNS(t) ((t) * ps_team / ps_tiles == ps_me)
@rows@#undef PS_OWNS
  }
} else {
@cols@}
