/* One sample: PS_INNER back-to-back runs of the kernel sequence, their mean time. */
static double ps_sample(void)
{
  double t0 = ps_now();
  for (int ps_in = 0; ps_in < PS_INNER; ps_in++) ps_sequence();
  return (ps_now() - t0) / PS_INNER;
}

#ifdef PS_PAIR
/* -DPS_PAIR=name: no main; the set-up and one sample as name_setup and name_sample, so that
   a driver (benches/la_pair.c) can link the programs of two back ends (every other name
   here is static) and alternate their samples in one process: a slow stretch of a shared
   host then meets both back ends alike, where separate programs seconds apart met one. */
#define PS_PAIR_CAT2(a, b) a##b
#define PS_PAIR_CAT(a, b) PS_PAIR_CAT2(a, b)
void PS_PAIR_CAT(PS_PAIR, _setup)(void) { ps_setup(); }
double PS_PAIR_CAT(PS_PAIR, _sample)(void) { return ps_sample(); }
#else
