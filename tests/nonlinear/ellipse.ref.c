int64_t u = ref_isqrt(ref_floordiv(r, b));
for (int64_t x = -u; x <= u; x += 1) {
  int64_t w = ref_isqrt(ref_floordiv(r - b * x * x, a));
  for (int64_t y = -w; y <= w; y += 1)
    S(x, y);
}
