int64_t i_hi = ref_isqrt(n);
for (int64_t i = 0; i <= i_hi; i += 1) {
  int64_t j_hi = ref_isqrt(n - i * i);
  for (int64_t j = 0; j <= j_hi; j += 1)
    S(i, j);
}
