    for (int64_t i = k + 1; i < M; i++) {
      const double l = PS_P(i, k);
      if (l != 0.0) ps_axpy_neg(c1 - k - 1, l, &PS_P(k, k + 1), &PS_P(i, k + 1));
    }
