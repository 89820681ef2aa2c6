/* The orthogonal factorisations for the generated and nests back ends (column-major,
   leading dimensions, no allocation): Householder QR in LAPACK's layout and products
   with its Q, the cyclic Jacobi method for the symmetric eigendecomposition and the
   one-sided Jacobi method for the SVD. */

/* Householder QR (as dgeqr2): a (m x n, m >= n) becomes R on and above the diagonal and
   reflector k's vector v (v[k] = 1 implied) below it in column k; tau[k] is its factor in
   H_k = I - tau[k] v v^T, and Q = H_0 H_1 ... H_{n-1}. */
static __attribute__((unused)) void ps_geqr2(int64_t m, int64_t n, double *a, int64_t lda, double *tau)
{
  for (int64_t k = 0; k < n; k++) {
    double alpha = a[k + k * lda], tail = 0.0;
    for (int64_t i = k + 1; i < m; i++) tail += a[i + k * lda] * a[i + k * lda];
    tail = sqrt(tail);
    tau[k] = 0.0;
    if (tail == 0.0) continue; /* H_k = I */
    double norm = hypot(alpha, tail);
    double beta = alpha >= 0.0 ? -norm : norm;
    double scale = 1.0 / (alpha - beta);
    tau[k] = (beta - alpha) / beta;
    for (int64_t i = k + 1; i < m; i++) a[i + k * lda] *= scale;
    a[k + k * lda] = beta;
    for (int64_t j = k + 1; j < n; j++) {
      double w = a[k + j * lda];
      for (int64_t i = k + 1; i < m; i++) w += a[i + k * lda] * a[i + j * lda];
      w *= tau[k];
      a[k + j * lda] -= w;
      for (int64_t i = k + 1; i < m; i++) a[i + j * lda] -= a[i + k * lda] * w;
    }
  }
}

/* c (m x p) := Q^T c (trans) or Q c, Q from k reflectors of ps_geqr2 or dgeqrf in a. */
static __attribute__((unused)) void ps_orm2r(int trans, int64_t m, int64_t p, int64_t k, const double *a, int64_t lda, const double *tau, double *c, int64_t ldc)
{
  for (int64_t s = 0; s < k; s++) {
    int64_t l = trans ? s : k - 1 - s; /* Q^T applies H_0 first, Q applies it last */
    if (tau[l] == 0.0) continue;
    for (int64_t j = 0; j < p; j++) {
      double w = c[l + j * ldc];
      for (int64_t i = l + 1; i < m; i++) w += a[i + l * lda] * c[i + j * ldc];
      w *= tau[l];
      c[l + j * ldc] -= w;
      for (int64_t i = l + 1; i < m; i++) c[i + j * ldc] -= a[i + l * lda] * w;
    }
  }
}

/* The Jacobi rotation (c, s) for diagonal entries (or squared column norms) app, aqq and
   their coupling apq: the smaller of the two angles. */
static __attribute__((unused)) void ps_jacobi_rotation(double app, double aqq, double apq, double *c, double *s)
{
  double theta = (aqq - app) / (2.0 * apq);
  double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
  *c = 1.0 / sqrt(t * t + 1.0);
  *s = t * *c;
}

/* Columns p and q of x (m rows): (x_p, x_q) := (c x_p - s x_q, s x_p + c x_q). */
static __attribute__((unused)) void ps_rotate_columns(double *x, int64_t m, int64_t ld, int64_t p, int64_t q, double c, double s)
{
  for (int64_t i = 0; i < m; i++) {
    double u = x[i + p * ld], w = x[i + q * ld];
    x[i + p * ld] = c * u - s * w;
    x[i + q * ld] = s * u + c * w;
  }
}

/* Symmetric eigendecomposition x = Z W Z^T by cyclic Jacobi rotations: x (n x n, whole
   symmetric matrix) is reduced to diagonal form in place, z receives the eigenvectors and
   w (n x n) the eigenvalues on its diagonal. */
static __attribute__((unused)) void ps_syev_jacobi(int64_t n, double *x, int64_t ldx, double *z, int64_t ldz, double *w, int64_t ldw)
{
  double scale = 0.0;
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++) {
      scale += x[i + j * ldx] * x[i + j * ldx];
      z[i + j * ldz] = i == j ? 1.0 : 0.0;
    }
  scale = scale > 0.0 ? sqrt(scale) : 1.0;
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0.0;
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < n; i++)
        if (i != j) off += x[i + j * ldx] * x[i + j * ldx];
    if (sqrt(off) <= 1e-15 * scale) break;
    for (int64_t p = 0; p < n; p++)
      for (int64_t q = p + 1; q < n; q++) {
        double apq = x[p + q * ldx], c, s;
        if (fabs(apq) <= 1e-300) continue;
        ps_jacobi_rotation(x[p + p * ldx], x[q + q * ldx], apq, &c, &s);
        /* x := J^T x J, z := z J */
        ps_rotate_columns(x, n, ldx, p, q, c, s);
        for (int64_t j = 0; j < n; j++) {
          double u = x[p + j * ldx], v = x[q + j * ldx];
          x[p + j * ldx] = c * u - s * v;
          x[q + j * ldx] = s * u + c * v;
        }
        ps_rotate_columns(z, n, ldz, p, q, c, s);
      }
  }
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++) w[i + j * ldw] = i == j ? x[i + i * ldx] : 0.0;
}

/* SVD a = U S V^T (m x n, m >= n) by one-sided Jacobi rotations: u holds a on entry and
   U on exit, s (n x n) receives S on its diagonal, v (n x n) V. Returns 1 when a column
   vanishes (a singular matrix), else 0. */
static __attribute__((unused)) int ps_svd_jacobi(int64_t m, int64_t n, double *u, int64_t ldu, double *s, int64_t lds, double *v, int64_t ldv)
{
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++) v[i + j * ldv] = i == j ? 1.0 : 0.0;
  for (int sweep = 0; sweep < 100; sweep++) {
    int rotated = 0;
    for (int64_t p = 0; p < n; p++)
      for (int64_t q = p + 1; q < n; q++) {
        double app = 0.0, aqq = 0.0, apq = 0.0, c, sn;
        for (int64_t i = 0; i < m; i++) {
          app += u[i + p * ldu] * u[i + p * ldu];
          aqq += u[i + q * ldu] * u[i + q * ldu];
          apq += u[i + p * ldu] * u[i + q * ldu];
        }
        if (apq == 0.0 || fabs(apq) <= 1e-15 * sqrt(app * aqq)) continue;
        rotated = 1;
        ps_jacobi_rotation(app, aqq, apq, &c, &sn);
        ps_rotate_columns(u, m, ldu, p, q, c, sn);
        ps_rotate_columns(v, n, ldv, p, q, c, sn);
      }
    if (!rotated) break;
  }
  for (int64_t j = 0; j < n; j++) {
    double norm = 0.0;
    for (int64_t i = 0; i < m; i++) norm += u[i + j * ldu] * u[i + j * ldu];
    norm = sqrt(norm);
    if (norm <= 1e-300) return 1;
    for (int64_t i = 0; i < n; i++) s[i + j * lds] = i == j ? norm : 0.0;
    for (int64_t i = 0; i < m; i++) u[i + j * ldu] /= norm;
  }
  return 0;
}
