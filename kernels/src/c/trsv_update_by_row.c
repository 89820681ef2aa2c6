  int64_t i = i0;
  const int64_t len = je - j0;
  /* Four rows at a time where rows run forwards or backwards with unit stride (the rows
     read w[j0..je), which lies before the rows written). */
  if (tcs == 1 || tcs == -1)
    for (; i + 4 <= ie; i += 4) {
      const double *const xr[4] = { t + i * trs + j0 * tcs, t + (i + 1) * trs + j0 * tcs,
                                    t + (i + 2) * trs + j0 * tcs, t + (i + 3) * trs + j0 * tcs };
      double s4[4];
      ps_dot4(len, (int)tcs, xr, w + j0, s4);
      w[i] -= s4[0];
      w[i + 1] -= s4[1];
      w[i + 2] -= s4[2];
      w[i + 3] -= s4[3];
    }
  for (; i < ie; i++) {
    const double *tr = t + i * trs;
    double s = 0.0;
    if (tcs == 1) s = ps_dot(len, tr + j0, w + j0);
    else if (tcs == -1) s = ps_dot_rev(len, tr - j0, w + j0);
    else for (int64_t j = j0; j < je; j++) s += tr[j * tcs] * w[j];
    w[i] -= s;
  }
