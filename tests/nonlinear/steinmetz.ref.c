for (int64_t x = -a; x <= a; x += 1) {
  int64_t w = ref_isqrt(a * a - x * x);
  for (int64_t y = -w; y <= w; y += 1) {
    int64_t d = ref_isqrt(a * a - ref_max(x * x, y * y));
    for (int64_t z = -d; z <= d; z += 1)
      S(x, y, z);
  }
}
