/* Naive evaluation: products left to right, explicit inverses. By default plain loops
   (Gauss-Jordan inverses), which need no library; with -DPS_NAIVE_BLAS (link with
   -lopenblas) OpenBLAS's DGEMM and LAPACK's DGETRF + DGETRI, which is how the baselines
   Linnea compares against (Julia, numpy) evaluate a formula, and fast enough for the
   declared sizes. The prototypes repeat the blas backend's where both are present, which
   C allows. */
#ifdef PS_NAIVE_BLAS
void cblas_dgemm(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
void dgetrf_(const int *, const int *, double *, const int *, int *, int *);
void dgetri_(const int *, double *, const int *, const int *, double *, const int *, int *);
void openblas_set_num_threads(int);
#define PS_NAIVE_HOW "OpenBLAS products and LAPACK inverses (dgemm, dgetrf + dgetri)"
#else
#define PS_NAIVE_HOW "loops (products left to right, Gauss-Jordan inverses)"
#endif
typedef struct { int64_t r, c; double *d; } ps_mat;

static ps_mat nv_new(int64_t r, int64_t c) { ps_mat m = { r, c, ps_new(r, c) }; return m; }
static void nv_free(ps_mat m) { free(m.d); }
static ps_mat nv_copy(ps_mat a)
{
  ps_mat m = nv_new(a.r, a.c);
  memcpy(m.d, a.d, sizeof(double) * (size_t)(a.r * a.c));
  return m;
}
static ps_mat nv_scaled(ps_mat a, double s)
{
  ps_mat m = nv_new(a.r, a.c);
  for (int64_t i = 0; i < a.r * a.c; i++) m.d[i] = s * a.d[i];
  return m;
}
static ps_mat nv_mul(ps_mat a, ps_mat b)
{
  if (a.r == 1 && a.c == 1 && !(b.r == 1 && b.c == 1)) return nv_scaled(b, a.d[0]);
  if (b.r == 1 && b.c == 1 && !(a.r == 1 && a.c == 1)) return nv_scaled(a, b.d[0]);
  if (a.c != b.r) { fprintf(stderr, "naive: shape mismatch\n"); exit(4); }
  ps_mat m = nv_new(a.r, b.c);
#ifdef PS_NAIVE_BLAS
  /* 102: column-major, 111: no transpose (the values of CBLAS's enums). */
  if (a.r > 0 && b.c > 0 && a.c > 0)
    cblas_dgemm(102, 111, 111, (int)a.r, (int)b.c, (int)a.c, 1.0, a.d, (int)a.r, b.d, (int)b.r, 0.0, m.d, (int)a.r);
#else
  for (int64_t j = 0; j < b.c; j++)
    for (int64_t l = 0; l < a.c; l++) {
      double s = b.d[l + j * b.r];
      for (int64_t i = 0; i < a.r; i++) m.d[i + j * a.r] += a.d[i + l * a.r] * s;
    }
#endif
  return m;
}
static ps_mat nv_add(ps_mat a, ps_mat b, double s)
{
  ps_mat m = nv_new(a.r, a.c);
  for (int64_t i = 0; i < a.r * a.c; i++) m.d[i] = a.d[i] + s * b.d[i];
  return m;
}
/* [a, b] (horizontal) or [a; b]: block matrices assembled by copies. */
static __attribute__((unused)) ps_mat nv_cat(ps_mat a, ps_mat b, int horizontal)
{
  ps_mat m = horizontal ? nv_new(a.r, a.c + b.c) : nv_new(a.r + b.r, a.c);
  for (int64_t j = 0; j < m.c; j++)
    for (int64_t i = 0; i < m.r; i++) {
      int in_a = horizontal ? j < a.c : i < a.r;
      m.d[i + j * m.r] = in_a ? a.d[i + j * a.r]
                       : horizontal ? b.d[i + (j - a.c) * b.r] : b.d[(i - a.r) + j * b.r];
    }
  return m;
}
static ps_mat nv_trans(ps_mat a)
{
  ps_mat m = nv_new(a.c, a.r);
  for (int64_t j = 0; j < a.c; j++)
    for (int64_t i = 0; i < a.r; i++) m.d[j + i * a.c] = a.d[i + j * a.r];
  return m;
}
#ifdef PS_NAIVE_BLAS
/* The explicit inverse as numpy and Julia form it: LU with partial pivoting, then the
   inverse from the factors. */
static ps_mat nv_inv(ps_mat in)
{
  ps_mat x = nv_copy(in);
  int n = (int)in.r, ld = n > 0 ? n : 1, info = 0, lwork = -1;
  int *ipiv = malloc(sizeof(int) * (size_t)ld);
  if (ipiv == NULL) ps_oom();
  dgetrf_(&n, &n, x.d, &ld, ipiv, &info);
  if (info > 0) { fprintf(stderr, "naive: singular matrix\n"); exit(4); }
  if (info != 0) ps_fail("naive: dgetrf", info);
  double query = 0.0;
  dgetri_(&n, x.d, &ld, ipiv, &query, &lwork, &info);
  /* A failed or implausible query falls back to a blocked workspace of 64 columns. */
  lwork = info == 0 && query >= (double)ld && query < 1e9 ? (int)query : ld * 64;
  double *work = malloc(sizeof(double) * (size_t)lwork);
  if (work == NULL) ps_oom();
  dgetri_(&n, x.d, &ld, ipiv, work, &lwork, &info);
  if (info != 0) ps_fail("naive: dgetri", info);
  free(work);
  free(ipiv);
  return x;
}
#else
static ps_mat nv_inv(ps_mat in)
{
  int64_t n = in.r;
  ps_mat a = nv_copy(in), x = nv_new(n, n);
  double *f = ps_new(n, 1);
  for (int64_t i = 0; i < n; i++) x.d[i + i * n] = 1.0;
  for (int64_t k = 0; k < n; k++) {
    int64_t p = k;
    for (int64_t i = k + 1; i < n; i++)
      if (fabs(a.d[i + k * n]) > fabs(a.d[p + k * n])) p = i;
    if (a.d[p + k * n] == 0.0) { fprintf(stderr, "naive: singular matrix\n"); exit(4); }
    if (p != k)
      for (int64_t j = 0; j < n; j++) {
        double t = a.d[k + j * n]; a.d[k + j * n] = a.d[p + j * n]; a.d[p + j * n] = t;
        t = x.d[k + j * n]; x.d[k + j * n] = x.d[p + j * n]; x.d[p + j * n] = t;
      }
    double d = a.d[k + k * n];
    for (int64_t i = 0; i < n; i++) f[i] = a.d[i + k * n];
    for (int64_t j = 0; j < n; j++) {
      double ra = a.d[k + j * n] / d, rx = x.d[k + j * n] / d;
      a.d[k + j * n] = ra;
      x.d[k + j * n] = rx;
      for (int64_t i = 0; i < n; i++)
        if (i != k) {
          a.d[i + j * n] -= f[i] * ra;
          x.d[i + j * n] -= f[i] * rx;
        }
    }
  }
  free(f);
  nv_free(a);
  return x;
}
#endif
