for (int64_t i = 0; i <= n - 1; i += 1)
  for (int64_t j = 0; j <= ps_max(ps_max(ps_max(ps_max(i, ps_floord(i - 1, 2)), ps_min(n - 1, m)), ps_min(ps_min(n - 1, m - 1), i - m)), ps_min(n - 1, i - m)); j += 1) {
    if (j >= ps_ceild(i + 1, 2) && j <= i)
      S(i, j);
    if (j <= ps_floord(i - 1, 2))
      S(i, j);
    if (j == m) {
      T(i, j);
    } else if (j >= i - m && j <= ps_min(m - 1, i - m)) {
      T(i, j);
    } else if (j >= ps_max(m + 1, i - m) && j <= i - m) {
      T(i, j);
    }
  }
