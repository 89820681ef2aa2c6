for (int64_t i = 1; i <= n; i += 1) {
  int64_t j_hi = ref_floordiv(n, i);
  for (int64_t j = 1; j <= j_hi; j += 1) {
    int64_t k_hi = ref_floordiv(n, i * j);
    for (int64_t k = 1; k <= k_hi; k += 1)
      S(i, j, k);
  }
}
