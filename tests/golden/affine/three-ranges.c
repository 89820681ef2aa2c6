for (int64_t i = ps_min(ps_min(m, n - m), 0); i <= ps_max(ps_max(n, m + 3), 2*n - 1); i += 1) {
  if (i >= 0 && i <= n)
    A(i);
  if (i >= m && i <= m + 3)
    B(i);
  if (i >= n - m && i <= 2*n - 1)
    C(i);
}
