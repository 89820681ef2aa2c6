for (int64_t z = 0; z <= h; z += 1)
  for (int64_t x = -z; x <= z; x += 1) {
    int64_t w = ref_isqrt(z * z - x * x);
    for (int64_t y = -w; y <= w; y += 1)
      S(x, y, z);
  }
