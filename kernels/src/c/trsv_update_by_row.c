  for (int64_t i = i0; i < ie; i++) {
    const double *tr = t + i * trs;
    double s = 0.0;
    if (tcs == 1) s = ps_dot(je - j0, tr + j0, w + j0);
    else if (tcs == -1) s = ps_dot_rev(je - j0, tr - j0, w + j0);
    else for (int64_t j = j0; j < je; j++) s += tr[j * tcs] * w[j];
    w[i] -= s;
  }
