int64_t i_hi = ref_isqrt(n);
for (int64_t i = 1; i <= i_hi; i += 1) {
  int64_t j_hi = ref_floordiv(n, i);
  for (int64_t j = i; j <= j_hi; j += 1)
    S(i, j);
}
