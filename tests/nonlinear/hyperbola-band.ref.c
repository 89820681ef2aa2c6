for (int64_t i = 1; i <= 2 * n; i += 1) {
  int64_t j_lo = ref_ceildiv(n, i), j_hi = ref_floordiv(2 * n, i);
  for (int64_t j = j_lo; j <= j_hi; j += 1)
    S(i, j);
}
