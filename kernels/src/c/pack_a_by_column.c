      for (int64_t p = 0; p < kc; p++)
        for (int64_t r = 0; r < PS_MR; r++)
          d[p * PS_MR + r] = r < mr && PS_AMASK(i0 + ir + r, l0 + p) ? PS_OPA(i0 + ir + r, l0 + p) : 0.0;
