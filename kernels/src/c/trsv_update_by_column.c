  int64_t j = j0;
  /* Four columns at a time: one load and store of w per four multiply-adds. */
  for (; j + 4 <= je; j += 4) {
    const double x0 = w[j], x1 = w[j + 1], x2 = w[j + 2], x3 = w[j + 3];
    const double *c0 = t + j * tcs, *c1 = c0 + tcs, *c2 = c1 + tcs, *c3 = c2 + tcs;
    int64_t i = i0;
    if (trs == 1) {
      const ps_v4d v0 = {x0, x0, x0, x0}, v1 = {x1, x1, x1, x1}, v2 = {x2, x2, x2, x2}, v3 = {x3, x3, x3, x3};
      for (; i + 4 <= ie; i += 4)
        *(ps_v4du *)(w + i) -= *(const ps_v4du *)(c0 + i) * v0 + *(const ps_v4du *)(c1 + i) * v1
                             + *(const ps_v4du *)(c2 + i) * v2 + *(const ps_v4du *)(c3 + i) * v3;
    } else if (trs == -1) {
      /* A reversed column (an upper triangle in column-major storage): the four elements
         from i on lie backwards below c - i: the four columns summed, then one shuffle. */
      const ps_v4i rev = {3, 2, 1, 0};
      const ps_v4d v0 = {x0, x0, x0, x0}, v1 = {x1, x1, x1, x1}, v2 = {x2, x2, x2, x2}, v3 = {x3, x3, x3, x3};
      for (; i + 4 <= ie; i += 4)
        *(ps_v4du *)(w + i) -= __builtin_shuffle(*(const ps_v4du *)(c0 - i - 3) * v0 + *(const ps_v4du *)(c1 - i - 3) * v1
                                                 + *(const ps_v4du *)(c2 - i - 3) * v2 + *(const ps_v4du *)(c3 - i - 3) * v3, rev);
    }
    for (; i < ie; i++)
      w[i] -= c0[i * trs] * x0 + c1[i * trs] * x1 + c2[i * trs] * x2 + c3[i * trs] * x3;
  }
  for (; j < je; j++) {
    const double xj = w[j];
    const double *tc = t + j * tcs;
    for (int64_t i = i0; i < ie; i++) w[i] -= tc[i * trs] * xj;
  }
