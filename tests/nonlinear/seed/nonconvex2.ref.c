/* Row x leaves out |y - 4| < c, c = 0 for x <= 4 where the row is whole. */
for (int64_t x = 1; x <= 7; x += 1) {
  int64_t c = ref_ceil_sqrt(3 * x - 12);
  for (int64_t y = 1; y <= 4 - c; y += 1)
    T(x, y);
  for (int64_t y = 4 + ref_max(c, 1); y <= 9; y += 1)
    T(x, y);
}
