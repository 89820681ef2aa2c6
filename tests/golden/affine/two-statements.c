for (int64_t x = 0; x <= ps_min(p - 1, 4); x += 1)
  T1(x);
for (int64_t x = p; x <= -1; x += 1)
  T2(x);
for (int64_t x = ps_max(p, 0); x <= 4; x += 1) {
  T1(x);
  if (x <= 2)
    T2(x);
}
