int64_t u = ref_isqrt(h);
for (int64_t x = -u; x <= u; x += 1) {
  int64_t w = ref_isqrt(h - x * x);
  for (int64_t y = -w; y <= w; y += 1)
    for (int64_t z = x * x + y * y; z <= h; z += 1)
      S(x, y, z);
}
