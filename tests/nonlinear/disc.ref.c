for (int64_t x = -r; x <= r; x += 1) {
  int64_t w = ref_isqrt(r * r - x * x);
  for (int64_t y = -w; y <= w; y += 1)
    S(x, y);
}
