/* Copies the computed triangle of a square matrix onto the other one. */
static void ps_symmetrize(double *a, int64_t n, int64_t ld, int lower)
{
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = j + 1; i < n; i++) {
      if (lower) a[j + i * ld] = a[i + j * ld];
      else a[i + j * ld] = a[j + i * ld];
    }
}

/* Zeroes the strict upper (upper = 1) or lower (upper = 0) triangle. */
static void ps_zero_triangle(double *a, int64_t n, int64_t ld, int upper)
{
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++)
      if (upper ? i < j : i > j) a[i + j * ld] = 0.0;
}

/* Partial pivoting of step k of an in-place LU: the row with the largest |a(i, k)|,
   i >= k, is swapped (whole rows) with row k. */
static __attribute__((unused)) void ps_pivot(double *a, int64_t n, int64_t k, int64_t *piv)
{
  int64_t p = k;
  for (int64_t i = k + 1; i < n; i++)
    if (fabs(a[i + k * n]) > fabs(a[p + k * n])) p = i;
  piv[k] = p;
  if (p != k)
    for (int64_t j = 0; j < n; j++) {
      double t = a[k + j * n];
      a[k + j * n] = a[p + j * n];
      a[p + j * n] = t;
    }
}

/* From an in-place LU with row interchanges piv (0-based, LAPACK's order): A = P L U.
   perm is scratch for n indices (the caller's, so that nothing is allocated here). */
static void ps_lu_split(const double *w, int64_t n, const int64_t *piv, int64_t *perm, double *P, double *L, double *U)
{
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  for (int64_t k = 0; k < n; k++) {
    int64_t t = perm[k];
    perm[k] = perm[piv[k]];
    perm[piv[k]] = t;
  }
  memset(P, 0, sizeof(double) * (size_t)(n * n));
  for (int64_t k = 0; k < n; k++) P[perm[k] + k * n] = 1.0;
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++) {
      L[i + j * n] = i > j ? w[i + j * n] : (i == j ? 1.0 : 0.0);
      U[i + j * n] = i <= j ? w[i + j * n] : 0.0;
    }
}
