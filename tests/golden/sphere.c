T(-2, 0, 0);
for (int64_t x = -1; x <= 1; x += 1) {
  for (int64_t y = -ps_isqrt(4 - x*x); y <= -ps_ceil_sqrt(4 - x*x); y += 1)
    T(x, y, 0);
  for (int64_t y = 1 - ps_ceil_sqrt(4 - x*x); y <= -1 + ps_ceil_sqrt(4 - x*x); y += 1)
    for (int64_t z = -ps_isqrt(4 - x*x - y*y); z <= ps_isqrt(4 - x*x - y*y); z += 1)
      T(x, y, z);
  for (int64_t y = ps_ceil_sqrt(4 - x*x); y <= ps_isqrt(4 - x*x); y += 1)
    T(x, y, 0);
}
T(2, 0, 0);
