/* Exact integer helpers for the hand-written reference nests (tests/nonlinear/*.ref.c).
   Written independently of polyscan's ps_* helpers on purpose: a bug shared by the
   generated code and its reference would go unnoticed. No floating point anywhere.
   The nests compute a bound that calls a helper once, in a local before its loop, as a
   person would: gcc does not always hoist a square root out of a loop condition. */
#ifndef REF_HELPERS_H
#define REF_HELPERS_H
#include <stdint.h>

static inline int64_t ref_max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t ref_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* floor(a / b) and ceil(a / b) for b != 0 (C's `/` truncates towards zero). */
static inline int64_t ref_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t ref_ceildiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

/* floor(sqrt(x)) for x >= 0 and -1 for x < 0 (no integer squares to at most x), by the
   digit-by-digit method: two bits of x per step, no division. */
static inline int64_t ref_isqrt(int64_t x) {
  if (x < 0) return -1;
  uint64_t rem = (uint64_t)x, root = 0, bit = (uint64_t)1 << 62;
  while (bit > rem) bit >>= 2;
  while (bit != 0) {
    if (rem >= root + bit) {
      rem -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return (int64_t)root;
}

/* The least s >= 0 with s*s >= x: ceil(sqrt(x)) for x >= 0, and 0 for x <= 0. */
static inline int64_t ref_ceil_sqrt(int64_t x) {
  if (x <= 0) return 0;
  int64_t s = ref_isqrt(x);
  return s * s == x ? s : s + 1;
}

/* floor(cbrt(x)) for every x: bisection on s^3 <= x in 128 bits for x >= 0; for x < 0,
   floor(-cbrt(-x)) = -ceil(cbrt(-x)) = -(floor(cbrt(-x - 1)) + 1). */
static inline int64_t ref_icbrt(int64_t x) {
  if (x < 0) return -(ref_icbrt(-(x + 1)) + 1);
  int64_t lo = 0, hi = 2097152; /* 2^21: hi^3 = 2^63 > x */
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if ((__int128)mid * mid * mid <= (__int128)x) lo = mid; else hi = mid;
  }
  return lo;
}

#endif
