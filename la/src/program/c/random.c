/* SplitMix64: deterministic from the seed. */
static uint64_t ps_state;
static uint64_t ps_next(void)
{
  uint64_t z = (ps_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/* Uniform in [-1, 1). */
static double ps_sym(void) { return (double)(ps_next() >> 11) / 4503599627370496.0 - 1.0; }
