for (int64_t x = -2; x <= 2; x += 1) {
  int64_t w = ref_isqrt(4 - x * x);
  for (int64_t y = -w; y <= w; y += 1) {
    int64_t d = ref_isqrt(4 - x * x - y * y);
    for (int64_t z = -d; z <= d; z += 1)
      T(x, y, z);
  }
}
