/* Row x leaves out |y| < c with c = ceil(sqrt(r^2 - x^2)), and c = 0 when the row misses
   the hole: the left part then ends at y = 0 and the right one starts at 1. */
for (int64_t x = -R; x <= R; x += 1) {
  int64_t w = ref_isqrt(R * R - x * x), c = ref_ceil_sqrt(r * r - x * x);
  for (int64_t y = -w; y <= -c; y += 1)
    S(x, y);
  for (int64_t y = ref_max(c, 1); y <= w; y += 1)
    S(x, y);
}
