for (int64_t x = 10; x <= 40; x += 1)
  for (int64_t y = 10; y <= 90; y += 1)
    T(x, y);
for (int64_t x = 41; x <= 60; x += 1) {
  for (int64_t y = 10; y <= 40 - ps_ceil_sqrt(30*x - 1200); y += 1)
    T(x, y);
  for (int64_t y = 40 + ps_ceil_sqrt(30*x - 1200); y <= 90; y += 1)
    T(x, y);
}
for (int64_t x = 61; x <= 70; x += 1) {
  for (int64_t y = 10; y <= 40 - ps_ceil_sqrt(30*x - 1200); y += 1)
    T(x, y);
  for (int64_t y = 40 + ps_ceil_sqrt(30*x - 1200); y <= 80 - ps_ceil_sqrt(140*x - x*x - 4800); y += 1)
    T(x, y);
  for (int64_t y = 80 + ps_ceil_sqrt(140*x - x*x - 4800); y <= 90; y += 1)
    T(x, y);
}
