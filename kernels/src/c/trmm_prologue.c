  if (M <= 0 || N <= 0) return;
  const int64_t ps_ldb0 = @ld0@;
  double *ps_b0 = alpha == 0.0 ? NULL : ps_take(sizeof(double) * (size_t)M * (size_t)N);
  if (ps_b0 == NULL) {
    /* alpha == 0, or no memory for the copy: in place, row by row in the order in which
       row i reads only rows not yet overwritten (l <= i from the bottom up for a lower
       op(A), l >= i from the top down for an upper one). */
    for (@rows@)
      for (int64_t j = 0; j < N; j++) {
        double s = 0.0;
        if (alpha != 0.0)
          for (@lrange@) s += PS_L(i, l) * PS_X(l, j);
        PS_X(i, j) = alpha * s;
      }
    return;
  }
@copy_pragma@  for (int64_t j = 0; j < N; j++)
    for (int64_t i = 0; i < M; i++) {
      PS_B(i, j) = PS_X(i, j);
      PS_X(i, j) = 0.0;
    }
