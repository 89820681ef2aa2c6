
/* The first row of thread k's share of the rows [c2, n) below a step's look-ahead block:
   thread 0 takes `lead` rows (after its look-ahead), the others equal parts of the rest;
   interior bounds on multiples of 8 rows (a 64-byte line of w is written by one thread). */
static int64_t ps_trsv_rows_from(int64_t k, int64_t team, int64_t c2, int64_t n, int64_t lead)
{
  if (k <= 0) return c2;
  if (k >= team) return n;
  const int64_t b = c2 + lead + (n - c2 - lead) * (k - 1) / (team - 1);
  const int64_t up = (b + 7) / 8 * 8;
  return up < n ? up : n;
}

/* The canonical solve w := inv(T) w on the threads of one parallel region, in steps of nb
   columns. At a step the columns [c0, c1) are final; the rows below them are updated from
   those columns (a GEMV of T's block column, split across the threads by rows), with one
   step of look-ahead: thread 0 first updates the rows [c1, c2) of the next diagonal block
   and solves that block, so that the next step's columns are final when the step's rows
   are done, and it takes fewer of the rows below (work counted in elements of T read, the
   bound of this memory-bound solve). One barrier per step; the diagonal solves never wait
   for the other threads' rows. Every element of w sees its updates in the one-thread
   right-looking order (column blocks left to right). */
static void ps_trsv_parallel(const double *t, int64_t trs, int64_t tcs, double *w, int64_t n,
                             int64_t nb)
{
  ps_trsv_step(t, trs, tcs, w, n, 0, 0, nb, nb);
#ifdef _OPENMP
#pragma omp parallel
#endif
  {
    const int64_t me = PS_TID, team = PS_TEAM;
    for (int64_t c0 = 0; c0 + nb < n; c0 += nb) {
      const int64_t c1 = c0 + nb, c2 = c1 + nb < n ? c1 + nb : n;
      const int64_t ahead = (c2 - c1) * nb + (c2 - c1) * (c2 - c1) / 2, below = n - c2;
      const int64_t share = (ahead + below * nb + team - 1) / team;
      const int64_t lead = team == 1 ? below : share > ahead ? (share - ahead) / nb : 0;
      if (me == 0) {
        ps_trsv_update(t, trs, tcs, w, c1, c2, c0, c1);
        ps_trsv_step(t, trs, tcs, w, n, c1, c1, nb, nb);
      }
      const int64_t r0 = ps_trsv_rows_from(me, team, c2, n, lead);
      const int64_t r1 = ps_trsv_rows_from(me + 1, team, c2, n, lead);
      /* In pieces of 1024 rows: a piece of w (8 KiB) stays in L1 while the columns stream by. */
      for (int64_t r = r0; r < r1; r += 1024)
        ps_trsv_update(t, trs, tcs, w, r, r + 1024 < r1 ? r + 1024 : r1, c0, c1);
#ifdef _OPENMP
#pragma omp barrier
#endif
    }
  }
}
