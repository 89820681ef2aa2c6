/* As in annulus.ref.c, on the z-line over (x, y): c = 0 when the line misses the hole. */
for (int64_t x = -R; x <= R; x += 1) {
  int64_t w = ref_isqrt(R * R - x * x);
  for (int64_t y = -w; y <= w; y += 1) {
    int64_t d = ref_isqrt(R * R - x * x - y * y), c = ref_ceil_sqrt(r * r - x * x - y * y);
    for (int64_t z = -d; z <= -c; z += 1)
      S(x, y, z);
    for (int64_t z = ref_max(c, 1); z <= d; z += 1)
      S(x, y, z);
  }
}
