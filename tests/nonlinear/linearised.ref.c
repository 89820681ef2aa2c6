int64_t i_hi = ref_min(n - 1, ref_floordiv(L - 1, m));
for (int64_t i = 0; i <= i_hi; i += 1) {
  int64_t j_hi = ref_min(m - 1, L - 1 - i * m);
  for (int64_t j = 0; j <= j_hi; j += 1)
    S(i, j);
}
