/* Row x leaves out |y - 40| < c1 (the parabola) and |y - 80| < c2 (the disc), c = 0 where
   the row misses the curve; the excluded ranges never meet (c1 <= 30, c2 <= 10). */
for (int64_t x = 10; x <= 70; x += 1) {
  int64_t c1 = ref_ceil_sqrt(30 * x - 1200), c2 = ref_ceil_sqrt(100 - (x - 70) * (x - 70));
  for (int64_t y = 10; y <= 40 - c1; y += 1)
    T(x, y);
  for (int64_t y = 40 + ref_max(c1, 1); y <= 80 - c2; y += 1)
    T(x, y);
  for (int64_t y = 80 + ref_max(c2, 1); y <= 90; y += 1)
    T(x, y);
}
