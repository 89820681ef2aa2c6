/* j = i is the first point of row i, so the rows stop at 2 i^2 <= n. */
int64_t i_hi = ref_isqrt(ref_floordiv(n, 2));
for (int64_t i = 0; i <= i_hi; i += 1) {
  int64_t j_hi = ref_isqrt(n - i * i);
  for (int64_t j = i; j <= j_hi; j += 1)
    S(i, j);
}
