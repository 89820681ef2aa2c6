  int64_t i = 0;
  for (; i + 4 <= mc; i += 4) {
    const double *a0 = A + (i0 + i) * lda + j0, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
    const double *xs = xa + j0;
    ps_v4d s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
    int64_t j = 0;
    for (; j + 4 <= nc; j += 4) {
      const ps_v4d xv = *(const ps_v4du *)(xs + j);
      s0 += *(const ps_v4du *)(a0 + j) * xv; s1 += *(const ps_v4du *)(a1 + j) * xv;
      s2 += *(const ps_v4du *)(a2 + j) * xv; s3 += *(const ps_v4du *)(a3 + j) * xv;
    }
    double r0 = s0[0] + s0[1] + s0[2] + s0[3], r1 = s1[0] + s1[1] + s1[2] + s1[3];
    double r2 = s2[0] + s2[1] + s2[2] + s2[3], r3 = s3[0] + s3[1] + s3[2] + s3[3];
    for (; j < nc; j++) { r0 += a0[j] * xs[j]; r1 += a1[j] * xs[j]; r2 += a2[j] * xs[j]; r3 += a3[j] * xs[j]; }
    y[i0 + i] += r0; y[i0 + i + 1] += r1; y[i0 + i + 2] += r2; y[i0 + i + 3] += r3;
  }
  for (; i < mc; i++) {
    double s = 0.0;
    for (int64_t j = 0; j < nc; j++) s += A[(i0 + i) * lda + (j0 + j)] * xa[j0 + j];
    y[i0 + i] += s;
  }
