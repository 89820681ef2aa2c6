int64_t u = ref_isqrt(n);
for (int64_t i = -u; i <= u; i += 1)
  for (int64_t j = i * i; j <= n; j += 1)
    S(i, j);
