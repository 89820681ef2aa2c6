static double ps_now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double ps_residual(const double *x, const double *ref, int64_t n)
{
  double d = 0.0, r = 0.0;
  for (int64_t i = 0; i < n; i++) {
    d += (x[i] - ref[i]) * (x[i] - ref[i]);
    r += ref[i] * ref[i];
  }
  if (r == 0.0) return sqrt(d);
  return sqrt(d / r);
}
