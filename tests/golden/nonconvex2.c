for (int64_t x = 1; x <= 4; x += 1)
  for (int64_t y = 1; y <= 9; y += 1)
    T(x, y);
for (int64_t x = 5; x <= 7; x += 1) {
  for (int64_t y = 1; y <= 4 - ps_ceil_sqrt(3*x - 12); y += 1)
    T(x, y);
  for (int64_t y = 4 + ps_ceil_sqrt(3*x - 12); y <= 9; y += 1)
    T(x, y);
}
