T(-2, 0, 0);
for (int64_t x = -1; x <= 1; x += 1) {
  for (int64_t y = -ps_isqrt((-x)*x + 4); y <= -ps_ceil_sqrt((-x)*x + 4); y += 1)
    T(x, y, 0);
  for (int64_t y = 1 - ps_ceil_sqrt((-x)*x + 4); y <= -1 + ps_ceil_sqrt((-x)*x + 4); y += 1)
    for (int64_t z = -ps_isqrt((-y)*y + ((-x)*x + 4)); z <= ps_isqrt((-y)*y + ((-x)*x + 4)); z += 1)
      T(x, y, z);
  for (int64_t y = ps_ceil_sqrt((-x)*x + 4); y <= ps_isqrt((-x)*x + 4); y += 1)
    T(x, y, 0);
}
T(2, 0, 0);
