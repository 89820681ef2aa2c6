/* General, or triangular: entries in [-1, 1) with a dominant diagonal (well conditioned,
   also for rectangular full-rank matrices); unit diagonal: off-diagonal entries scaled
   by 1 / max(r, c), which keeps a unit triangle well conditioned. */
static void ps_fill_general(double *a, int64_t r, int64_t c, int lower, int upper, int unit)
{
  int64_t big = r > c ? r : c;
  for (int64_t j = 0; j < c; j++)
    for (int64_t i = 0; i < r; i++) {
      double v = ps_sym();
      if ((lower && j > i) || (upper && j < i)) v = 0.0;
      a[i + j * r] = unit ? v / (double)big : v;
    }
  if ((r > 1 && c > 1) || lower || upper)
    for (int64_t i = 0; i < (r < c ? r : c); i++)
      a[i + i * r] = unit ? 1.0 : (double)big * (1.0 + fabs(ps_sym()));
}

/* Symmetric positive definite: off-diagonal entries in [-1, 1), diagonal above n, so
   the matrix is strictly diagonally dominant (Gershgorin: eigenvalues >= 1). */
static void ps_fill_spd(double *a, int64_t n)
{
  for (int64_t j = 0; j < n; j++) {
    for (int64_t i = j + 1; i < n; i++) a[i + j * n] = a[j + i * n] = ps_sym();
    a[j + j * n] = (double)n * (1.0 + fabs(ps_sym())) + 1.0;
  }
}

static void ps_fill_diagonal(double *a, int64_t r, int64_t c, int unit)
{
  memset(a, 0, sizeof(double) * (size_t)(r * c));
  for (int64_t i = 0; i < (r < c ? r : c); i++) a[i + i * r] = unit ? 1.0 : 1.0 + fabs(ps_sym());
}

static void ps_fill_permutation(double *a, int64_t n)
{
  int64_t *p = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  if (p == NULL) ps_oom();
  for (int64_t i = 0; i < n; i++) p[i] = i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t k = (int64_t)(ps_next() % (uint64_t)(i + 1)), t = p[i];
    p[i] = p[k];
    p[k] = t;
  }
  memset(a, 0, sizeof(double) * (size_t)(n * n));
  for (int64_t i = 0; i < n; i++) a[i + p[i] * n] = 1.0;
  free(p);
}

/* Orthonormal columns (r >= c): the first c columns of a product of 8 random
   Householder reflectors. */
static void ps_fill_orthonormal(double *a, int64_t r, int64_t c)
{
  double *v = ps_new(r, 1);
  memset(a, 0, sizeof(double) * (size_t)(r * c));
  for (int64_t i = 0; i < c; i++) a[i + i * r] = 1.0;
  for (int h = 0; h < 8; h++) {
    double vv = 0.0;
    for (int64_t i = 0; i < r; i++) { v[i] = ps_sym(); vv += v[i] * v[i]; }
    if (vv == 0.0) continue;
    for (int64_t j = 0; j < c; j++) {
      double d = 0.0;
      for (int64_t i = 0; i < r; i++) d += v[i] * a[i + j * r];
      d *= 2.0 / vv;
      for (int64_t i = 0; i < r; i++) a[i + j * r] -= d * v[i];
    }
  }
  free(v);
}

static void ps_fill_orthonormal_rows(double *a, int64_t r, int64_t c)
{
  double *t = ps_new(c, r);
  ps_fill_orthonormal(t, c, r);
  for (int64_t j = 0; j < c; j++)
    for (int64_t i = 0; i < r; i++) a[i + j * r] = t[j + i * c];
  free(t);
}

/* Zeros the entries outside the band (lo, up); -1 is no bound on that side. Off-diagonal
   entries only: a diagonally dominant fill stays so, and a symmetric one with lo = up
   stays symmetric. */
static __attribute__((unused)) void ps_zero_outside_band(double *a, int64_t r, int64_t c, int64_t lo, int64_t up)
{
  for (int64_t j = 0; j < c; j++)
    for (int64_t i = 0; i < r; i++)
      if ((lo >= 0 && i - j > lo) || (up >= 0 && j - i > up)) a[i + j * r] = 0.0;
}

/* Orthonormal columns (r >= c) or rows (r < c) inside the band (1, 1): random 2 x 2
   rotations down the diagonal, a lone +-1 at the end; only signs when diagonal. */
static __attribute__((unused)) void ps_fill_banded_orthonormal(double *a, int64_t r, int64_t c, int diagonal)
{
  int64_t k = r < c ? r : c;
  memset(a, 0, sizeof(double) * (size_t)(r * c));
  for (int64_t i = 0; i < k;) {
    if (!diagonal && i + 1 < k) {
      double t = 3.14159265358979323846 * ps_sym(), co = cos(t), si = sin(t);
      a[i + i * r] = co;
      a[i + (i + 1) * r] = -si;
      a[(i + 1) + i * r] = si;
      a[(i + 1) + (i + 1) * r] = co;
      i += 2;
    } else {
      a[i + i * r] = ps_sym() < 0.0 ? -1.0 : 1.0;
      i += 1;
    }
  }
}

/* Normal, not symmetric: S + d I with S skew-symmetric inside the band (b, b) (b = -1: no
   bound), since (S + dI)(dI - S) = (dI - S)(S + dI); d = n keeps it well conditioned. */
static __attribute__((unused)) void ps_fill_normal(double *a, int64_t n, int64_t b, int unit)
{
  for (int64_t j = 0; j < n; j++) {
    for (int64_t i = j + 1; i < n; i++) {
      double v = (b >= 0 && i - j > b) ? 0.0 : ps_sym();
      a[i + j * n] = v;
      a[j + i * n] = -v;
    }
    a[j + j * n] = unit ? 1.0 : (double)n;
  }
}

/* Zeros the entries outside the diagonal blocks of b (block-diagonal operands). */
static __attribute__((unused)) void ps_zero_outside_blocks(double *a, int64_t r, int64_t c, int64_t b)
{
  for (int64_t j = 0; j < c; j++)
    for (int64_t i = 0; i < r; i++)
      if (i / b != j / b) a[i + j * r] = 0.0;
}

/* Sparse(d): every entry kept with probability d, else zero (the declared density). */
static __attribute__((unused)) void ps_sparsify(double *a, int64_t len, double d)
{
  for (int64_t k = 0; k < len; k++)
    if ((ps_sym() + 1.0) * 0.5 >= d) a[k] = 0.0;
}
