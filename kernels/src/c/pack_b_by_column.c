      for (int64_t q = 0; q < PS_NR; q++)
        for (int64_t p = 0; p < kc; p++)
          d[p * PS_NR + q] = q < nr ? PS_OPB(l0 + p, j0 + jr + q) : 0.0;
