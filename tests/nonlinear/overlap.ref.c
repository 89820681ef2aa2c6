/* s = isqrt(i) <= i <= n: B's part of a row lies inside A's. */
for (int64_t i = 0; i <= n; i += 1) {
  int64_t s = ref_isqrt(i);
  for (int64_t j = 0; j <= s; j += 1) {
    A(i, j);
    B(i, j);
  }
  for (int64_t j = s + 1; j <= n; j += 1)
    A(i, j);
}
