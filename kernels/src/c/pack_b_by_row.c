    if (nr == PS_NR && PS_OPB_ROWS) {
      /* Rows of op(B) are unit-stride arrays: each micro-panel row is one vector copy. */
      for (int64_t p = 0; p < kc; p++) {
        const double *restrict s = &PS_OPB(l0 + p, j0 + jr);
        *(ps_v4du *)(d + p * PS_NR) = *(const ps_v4du *)s;
        d[p * PS_NR + 4] = s[4];
        d[p * PS_NR + 5] = s[5];
      }
    } else if (nr == PS_NR) {
      for (int64_t p = 0; p < kc; p++)
        for (int64_t q = 0; q < PS_NR; q++) d[p * PS_NR + q] = PS_OPB(l0 + p, j0 + jr + q);
    } else {
      for (int64_t p = 0; p < kc; p++)
        for (int64_t q = 0; q < PS_NR; q++)
          d[p * PS_NR + q] = q < nr ? PS_OPB(l0 + p, j0 + jr + q) : 0.0;
    }
