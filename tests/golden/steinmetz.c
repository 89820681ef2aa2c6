if (a <= -1) {
  for (int64_t x = a; x <= ps_ceild(-ps_isqrt(2*a*a), 2) - 1; x += 1)
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
  for (int64_t x = ps_ceild(-ps_isqrt(2*a*a), 2); x <= ps_floord(-ps_ceil_sqrt(2*a*a), 2); x += 1) {
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= -ps_ceil_sqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt(a*a - x*x); y <= -1 + ps_ceil_sqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt(a*a - x*x); y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_floord(-ps_ceil_sqrt(2*a*a), 2) + 1; x <= -1; x += 1) {
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= x; y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
    for (int64_t y = x + 1; y <= -x; y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - x; y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
  }
  for (int64_t y = -ps_isqrt(a*a); y <= -ps_ceil_sqrt(a*a); y += 1)
    T(0, y, 0);
  for (int64_t y = 1 - ps_ceil_sqrt(a*a); y <= -1 + ps_ceil_sqrt(a*a); y += 1)
    for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
      T(0, y, z);
  for (int64_t y = ps_ceil_sqrt(a*a); y <= ps_isqrt(a*a); y += 1)
    T(0, y, 0);
  for (int64_t x = 1; x <= ps_ceild(ps_ceil_sqrt(2*a*a), 2) - 1; x += 1) {
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= -x; y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - x; y <= x; y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
    for (int64_t y = x + 1; y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_ceild(ps_ceil_sqrt(2*a*a), 2); x <= ps_floord(ps_isqrt(2*a*a), 2); x += 1) {
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= -ps_ceil_sqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt(a*a - x*x); y <= -1 + ps_ceil_sqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt(a*a - x*x); y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_floord(ps_isqrt(2*a*a), 2) + 1; x <= -a; x += 1)
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
} else if (a == 0) {
  T(0, 0, 0);
} else if (a >= 1) {
  for (int64_t x = -a; x <= ps_ceild(-ps_isqrt(2*a*a), 2) - 1; x += 1)
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
  for (int64_t x = ps_ceild(-ps_isqrt(2*a*a), 2); x <= ps_floord(-ps_ceil_sqrt(2*a*a), 2); x += 1) {
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= -ps_ceil_sqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt(a*a - x*x); y <= -1 + ps_ceil_sqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt(a*a - x*x); y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_floord(-ps_ceil_sqrt(2*a*a), 2) + 1; x <= -1; x += 1) {
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= x; y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
    for (int64_t y = x + 1; y <= -x; y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - x; y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
  }
  for (int64_t y = -ps_isqrt(a*a); y <= -ps_ceil_sqrt(a*a); y += 1)
    T(0, y, 0);
  for (int64_t y = 1 - ps_ceil_sqrt(a*a); y <= -1 + ps_ceil_sqrt(a*a); y += 1)
    for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
      T(0, y, z);
  for (int64_t y = ps_ceil_sqrt(a*a); y <= ps_isqrt(a*a); y += 1)
    T(0, y, 0);
  for (int64_t x = 1; x <= ps_ceild(ps_ceil_sqrt(2*a*a), 2) - 1; x += 1) {
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= -x; y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - x; y <= x; y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
    for (int64_t y = x + 1; y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_ceild(ps_ceil_sqrt(2*a*a), 2); x <= ps_floord(ps_isqrt(2*a*a), 2); x += 1) {
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= -ps_ceil_sqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
    for (int64_t y = 1 - ps_ceil_sqrt(a*a - x*x); y <= -1 + ps_ceil_sqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
    for (int64_t y = ps_ceil_sqrt(a*a - x*x); y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - y*y); z <= ps_isqrt(a*a - y*y); z += 1)
        T(x, y, z);
  }
  for (int64_t x = ps_floord(ps_isqrt(2*a*a), 2) + 1; x <= a; x += 1)
    for (int64_t y = -ps_isqrt(a*a - x*x); y <= ps_isqrt(a*a - x*x); y += 1)
      for (int64_t z = -ps_isqrt(a*a - x*x); z <= ps_isqrt(a*a - x*x); z += 1)
        T(x, y, z);
}
