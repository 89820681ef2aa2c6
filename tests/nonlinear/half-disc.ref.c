/* For x > 0 the row starts on the diagonal, so it is empty once 2 x^2 > n. */
int64_t x_lo = -ref_isqrt(n), x_hi = ref_isqrt(ref_floordiv(n, 2));
for (int64_t x = x_lo; x <= x_hi; x += 1) {
  int64_t w = ref_isqrt(n - x * x);
  for (int64_t y = ref_max(x, -w); y <= w; y += 1)
    S(x, y);
}
