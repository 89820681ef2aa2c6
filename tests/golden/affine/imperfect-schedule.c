for (int64_t c0 = 0; c0 <= n - 1; c0 += 1) {
  S1(c0);
  for (int64_t c2 = 0; c2 <= c0 - 1; c2 += 1)
    S2(c0, c2);
}
