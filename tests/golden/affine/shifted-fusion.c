for (int64_t c0 = 0; c0 <= n - 1; c0 += 1) {
  S2(c0 + 1);
  S1(c0);
}
