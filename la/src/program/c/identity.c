static __attribute__((unused)) void ps_fill_identity(double *a, int64_t n)
{
  memset(a, 0, sizeof(double) * (size_t)(n * n));
  for (int64_t i = 0; i < n; i++) a[i + i * n] = 1.0;
}
