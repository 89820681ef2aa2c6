static void ps_oom(void) { fprintf(stderr, "out of memory\n"); exit(3); }
static void ps_fail(const char *what, long info) { fprintf(stderr, "%s failed (info %ld)\n", what, info); exit(4); }

static double *ps_new(int64_t r, int64_t c)
{
  size_t n = (size_t)(r * c > 0 ? r * c : 1);
  double *p = calloc(n, sizeof(double));
  if (p == NULL) ps_oom();
  return p;
}
