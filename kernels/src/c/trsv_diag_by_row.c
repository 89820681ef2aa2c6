  for (int64_t i = j0; i < je; i++) {
    const double *tr = t + i * trs;
    double s = w[i];
    if (tcs == 1) s -= ps_dot(i - j0, tr + j0, w + j0);
    else if (tcs == -1) s -= ps_dot_rev(i - j0, tr - j0, w + j0);
    else for (int64_t j = j0; j < i; j++) s -= tr[j * tcs] * w[j];
    w[i] = @unit@ ? s : s / tr[i * tcs];
  }
