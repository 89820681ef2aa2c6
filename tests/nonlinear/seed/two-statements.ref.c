/* The x-range is [0, 4] united with [p, 2]; for p > 2 the latter is empty. */
for (int64_t x = ref_min(p, 0); x <= 4; x += 1) {
  if (x >= 0)
    T1(x);
  if (x >= p && x <= 2)
    T2(x);
}
