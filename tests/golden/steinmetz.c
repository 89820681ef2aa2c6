if (a <= -1) {
  for (int64_t x = -ps_isqrt(a*a); x <= -ps_ceil_sqrt(a*a); x += 1)
    for (int64_t y = 0; y <= 0; y += 1)
      for (int64_t z = 0; z <= 0; z += 1)
        T(x, y, z);
  for (int64_t x = 1 - ps_ceil_sqrt(a*a); x <= ps_ceild(-ps_isqrt(2*a*a), 2) - 1; x += 1)
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
  for (int64_t x = ps_ceild(-ps_isqrt(2*a*a), 2); x <= ps_floord(-ps_ceil_sqrt(2*a*a), 2); x += 1) {
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= -ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt((-x)*x + a*a); y <= -1 + ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt((-x)*x + a*a); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_floord(-ps_ceil_sqrt(2*a*a), 2) + 1; x <= -1; x += 1) {
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= -ps_ceil_sqrt(x*x); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt(x*x); y <= -1 + ps_ceil_sqrt(x*x); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt(x*x); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
  }
  for (int64_t x = 0; x <= 0; x += 1) {
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= -ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = 0; z <= 0; z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt((-x)*x + a*a); y <= -1 + ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt((-x)*x + a*a); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = 0; z <= 0; z += 1)
        T(x, y, z);
  }
  for (int64_t x = 1; x <= ps_ceild(ps_ceil_sqrt(2*a*a), 2) - 1; x += 1) {
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= -ps_ceil_sqrt(x*x); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt(x*x); y <= -1 + ps_ceil_sqrt(x*x); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt(x*x); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_ceild(ps_ceil_sqrt(2*a*a), 2); x <= ps_floord(ps_isqrt(2*a*a), 2); x += 1) {
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= -ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt((-x)*x + a*a); y <= -1 + ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt((-x)*x + a*a); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_floord(ps_isqrt(2*a*a), 2) + 1; x <= -1 + ps_ceil_sqrt(a*a); x += 1)
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
  for (int64_t x = ps_ceil_sqrt(a*a); x <= ps_isqrt(a*a); x += 1)
    for (int64_t y = 0; y <= 0; y += 1)
      for (int64_t z = 0; z <= 0; z += 1)
        T(x, y, z);
}
if (a >= 0 && a <= 0)
  for (int64_t x = 0; x <= 0; x += 1)
    for (int64_t y = 0; y <= 0; y += 1)
      for (int64_t z = 0; z <= 0; z += 1)
        T(x, y, z);
if (a >= 1) {
  for (int64_t x = -ps_isqrt(a*a); x <= -ps_ceil_sqrt(a*a); x += 1)
    for (int64_t y = 0; y <= 0; y += 1)
      for (int64_t z = 0; z <= 0; z += 1)
        T(x, y, z);
  for (int64_t x = 1 - ps_ceil_sqrt(a*a); x <= ps_ceild(-ps_isqrt(2*a*a), 2) - 1; x += 1)
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
  for (int64_t x = ps_ceild(-ps_isqrt(2*a*a), 2); x <= ps_floord(-ps_ceil_sqrt(2*a*a), 2); x += 1) {
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= -ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt((-x)*x + a*a); y <= -1 + ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt((-x)*x + a*a); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_floord(-ps_ceil_sqrt(2*a*a), 2) + 1; x <= -1; x += 1) {
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= -ps_ceil_sqrt(x*x); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt(x*x); y <= -1 + ps_ceil_sqrt(x*x); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt(x*x); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
  }
  for (int64_t x = 0; x <= 0; x += 1) {
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= -ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = 0; z <= 0; z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt((-x)*x + a*a); y <= -1 + ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt((-x)*x + a*a); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = 0; z <= 0; z += 1)
        T(x, y, z);
  }
  for (int64_t x = 1; x <= ps_ceild(ps_ceil_sqrt(2*a*a), 2) - 1; x += 1) {
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= -ps_ceil_sqrt(x*x); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt(x*x); y <= -1 + ps_ceil_sqrt(x*x); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt(x*x); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_ceild(ps_ceil_sqrt(2*a*a), 2); x <= ps_floord(ps_isqrt(2*a*a), 2); x += 1) {
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= -ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt((-x)*x + a*a); y <= -1 + ps_ceil_sqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt((-x)*x + a*a); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-y)*y + a*a); z <= ps_isqrt((-y)*y + a*a); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_floord(ps_isqrt(2*a*a), 2) + 1; x <= -1 + ps_ceil_sqrt(a*a); x += 1)
    for (int64_t y = -ps_isqrt((-x)*x + a*a); y <= ps_isqrt((-x)*x + a*a); y += 1)
      for (int64_t z = -ps_isqrt((-x)*x + a*a); z <= ps_isqrt((-x)*x + a*a); z += 1)
        T(x, y, z);
  for (int64_t x = ps_ceil_sqrt(a*a); x <= ps_isqrt(a*a); x += 1)
    for (int64_t y = 0; y <= 0; y += 1)
      for (int64_t z = 0; z <= 0; z += 1)
        T(x, y, z);
}
