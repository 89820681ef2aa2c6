/* s = isqrt(i*n) <= n since i <= n: A's part of a row needs no clamp. */
for (int64_t i = 0; i <= n; i += 1) {
  int64_t s = ref_isqrt(i * n);
  for (int64_t j = 0; j <= s; j += 1)
    A(i, j);
  for (int64_t j = s + 1; j <= n; j += 1)
    B(i, j);
}
