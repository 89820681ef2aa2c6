for (int64_t i = 1; i <= n - 1; i += 1) {
  for (int64_t j = 0; j <= ps_min(i - 1, n - i - 1); j += 1)
    S(i, j);
  for (int64_t j = i + 1; j <= n - i - 1; j += 1)
    S(i, j);
  for (int64_t j = n + 1 - i; j <= i - 1; j += 1)
    S(i, j);
  for (int64_t j = ps_max(i + 1, n + 1 - i); j <= n - 1; j += 1)
    S(i, j);
}
