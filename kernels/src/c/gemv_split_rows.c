/* One parallel region per call. Each thread owns a contiguous block of the row tiles (a
   contiguous block of A in row-major order) for every column tile: its block of y is
   written by it alone, so no barrier separates the column tiles. */
const int64_t ps_tiles = (m + sz_i - 1) / sz_i;
#ifdef _OPENMP
#pragma omp parallel if (ps_tiles > 1 && m * n >= PS_OMP_MIN)
#endif
{
  const int64_t ps_me = PS_TID, ps_team = PS_TEAM;
  double *const ps_yt = yw;
#define PS_OWNS(t) ((t) * ps_team / ps_tiles == ps_me)
@fragment@#undef PS_OWNS
}
