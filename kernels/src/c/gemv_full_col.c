  int64_t j = 0;
  for (; j + 4 <= nc; j += 4) {
    const double *a0 = A + i0 + (j0 + j) * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
    const double x0 = xa[j0 + j], x1 = xa[j0 + j + 1], x2 = xa[j0 + j + 2], x3 = xa[j0 + j + 3];
    double *yy = y + i0;
    int64_t i = 0;
#if PS_NR_WIDE
    /* 8-wide vectors where the compiler targets AVX-512: half the load and FMA
       instructions per element of A (one thread, n = 1024, the tile kernel alone:
       19.8-20.7 GFLOP/s against 18.7-19.1 with 4-wide ones; eight columns at a time and
       software prefetch of the next columns were slower). */
    for (; i + 8 <= mc; i += 8)
      *(ps_v8du *)(yy + i) += *(const ps_v8du *)(a0 + i) * x0 + *(const ps_v8du *)(a1 + i) * x1
                            + *(const ps_v8du *)(a2 + i) * x2 + *(const ps_v8du *)(a3 + i) * x3;
#endif
    for (; i + 4 <= mc; i += 4)
      *(ps_v4du *)(yy + i) += *(const ps_v4du *)(a0 + i) * x0 + *(const ps_v4du *)(a1 + i) * x1
                            + *(const ps_v4du *)(a2 + i) * x2 + *(const ps_v4du *)(a3 + i) * x3;
    for (; i < mc; i++) yy[i] += a0[i] * x0 + a1[i] * x1 + a2[i] * x2 + a3[i] * x3;
  }
  for (; j < nc; j++) {
    const double *a0 = A + i0 + (j0 + j) * lda;
    const double x0 = xa[j0 + j];
    for (int64_t i = 0; i < mc; i++) y[i0 + i] += a0[i] * x0;
  }
