  for (int64_t j = j0; j < je; j++) {
    const double *tc = t + j * tcs;
    const double xj = @unit@ ? w[j] : w[j] / tc[j * trs];
    w[j] = xj;
    if (trs == 1) ps_axpy_neg(je - j - 1, xj, tc + j + 1, w + j + 1);
    else if (trs == -1) ps_axpy_neg_rev(je - j - 1, xj, tc - j - 1, w + j + 1);
    else for (int64_t i = j + 1; i < je; i++) w[i] -= tc[i * trs] * xj;
  }
