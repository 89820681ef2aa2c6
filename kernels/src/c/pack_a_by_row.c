    if (mr == PS_MR && !PS_AMASK_ON) {
      /* A whole micro-panel without a mask: eight row streams read in step, the panel
         written in order. */
      for (int64_t p = 0; p < kc; p++)
        for (int64_t r = 0; r < PS_MR; r++) d[p * PS_MR + r] = PS_OPA(i0 + ir + r, l0 + p);
    } else {
      for (int64_t r = 0; r < PS_MR; r++)
        for (int64_t p = 0; p < kc; p++)
          d[p * PS_MR + r] = r < mr && PS_AMASK(i0 + ir + r, l0 + p) ? PS_OPA(i0 + ir + r, l0 + p) : 0.0;
    }
