int64_t i_hi = ref_icbrt(n);
for (int64_t i = 0; i <= i_hi; i += 1)
  for (int64_t j = 0; j <= n - i * i * i; j += 1)
    S(i, j);
