for (int64_t i = 0; i <= n; i += 1) {
  int64_t j_hi = ref_isqrt(i);
  for (int64_t j = 0; j <= j_hi; j += 1)
    S(i, j);
}
