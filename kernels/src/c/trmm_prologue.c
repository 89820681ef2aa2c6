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
  /* By stored lines (@line_name@), through the C library's copies: gcc -O2 left the loop
     over elements scalar (B and the copy might overlap). Memory-bound either way (about 2%
     of TRMM's time at n = 512 to 2048); the library's copies were 5-15% faster. All-zero
     bytes are +0.0. */
@copy_pragma@  for (int64_t q = 0; q < @lines@; q++) {
    memcpy(ps_b0 + q * ps_ldb0, B + q * ldb, sizeof(double) * (size_t)@len@);
    memset(B + q * ldb, 0, sizeof(double) * (size_t)@len@);
  }
