    for (int64_t j = k + 1; j < c1; j++) {
      const double u = PS_P(k, j);
      if (u != 0.0) ps_axpy_neg(M - k - 1, u, &PS_P(k + 1, k), &PS_P(k + 1, j));
    }
