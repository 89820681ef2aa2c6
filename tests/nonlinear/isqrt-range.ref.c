int64_t i_hi = ref_isqrt(n);
for (int64_t i = 0; i <= i_hi; i += 1)
  S(i);
