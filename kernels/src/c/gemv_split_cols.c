/* One parallel region per call. Each thread owns a contiguous block of the column tiles
   (a contiguous block of A in column-major order, which can stay in its own L2; half of the
   rows of every 4 KiB column map to half of L2's sets - the likely reason the row split ran
   at 19-26 GFLOP/s at n = 512 against 28-39 for this, not checked with counters) and sums
   its columns into its own copy of y, thread 0 into y itself; then the copies are added to
   y by rows, in thread order. */
const int64_t ps_tiles = (n + sz_j - 1) / sz_j;
const int ps_nthr = PS_NTHREADS;
double *ps_part = ps_nthr > 1 && ps_tiles > 1 && m * n >= PS_OMP_MIN
                  ? ps_take(sizeof(double) * (size_t)m * (size_t)(ps_nthr - 1)) : NULL;
#ifdef _OPENMP
#pragma omp parallel if (ps_part != NULL)
#endif
{
  const int64_t ps_me = PS_TID, ps_team = PS_TEAM;
  double *const ps_yt = ps_me == 0 ? yw : ps_part + (ps_me - 1) * m;
  if (ps_me > 0) memset(ps_yt, 0, sizeof(double) * (size_t)m);
#define PS_OWNS(t) ((t) * ps_team / ps_tiles == ps_me)
@fragment@#undef PS_OWNS
#ifdef _OPENMP
#pragma omp barrier
#endif
  const int64_t r0 = m * ps_me / ps_team, r1 = m * (ps_me + 1) / ps_team;
  for (int64_t t = 1; t < ps_team; t++)
    for (int64_t i = r0; i < r1; i++) yw[i] += ps_part[(t - 1) * m + i];
}
ps_give(ps_part);
