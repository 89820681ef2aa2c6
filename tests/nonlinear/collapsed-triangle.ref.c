/* i(i+1) is even, so row i is non-empty iff i(i+1) <= 2n - 2, i.e. (2i+1)^2 <= 8n - 7. */
int64_t i_hi = ref_floordiv(ref_isqrt(8 * n - 7) - 1, 2);
for (int64_t i = 0; i <= i_hi; i += 1) {
  int64_t j_hi = n - 1 - ref_floordiv(i * (i + 1), 2);
  for (int64_t j = 0; j <= j_hi; j += 1)
    S(i, j);
}
