if (p <= -1) {
  for (int64_t x = p; x <= -1; x += 1)
    T2(x);
  for (int64_t x = 0; x <= 2; x += 1) {
    T1(x);
    T2(x);
  }
  for (int64_t x = 3; x <= 4; x += 1)
    T1(x);
} else if (p >= 0 && p <= 2) {
  for (int64_t x = 0; x <= p - 1; x += 1)
    T1(x);
  for (int64_t x = p; x <= 2; x += 1) {
    T1(x);
    T2(x);
  }
  for (int64_t x = 3; x <= 4; x += 1)
    T1(x);
} else if (p >= 3) {
  for (int64_t x = 0; x <= 4; x += 1)
    T1(x);
}
