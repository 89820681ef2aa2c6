    if (mr == PS_MR && unmasked) {
      /* A whole micro-panel inside the mask: eight row streams read in step, the panel
         written in order. */
      for (int64_t p = 0; p < kc; p++)
        for (int64_t r = 0; r < PS_MR; r++) d[p * PS_MR + r] = PS_OPA(i0 + ir + r, l0 + p);
    } else if (mr == PS_MR) {
      /* Across the mask's edge: every element of the micro-panel lies in the operand's
         storage (the other triangle of a full array), so it is read unconditionally and
         the mask selects it (a blend, not a branch per element). */
      for (int64_t p = 0; p < kc; p++)
        for (int64_t r = 0; r < PS_MR; r++) {
          const double v = PS_OPA(i0 + ir + r, l0 + p);
          d[p * PS_MR + r] = PS_AMASK(i0 + ir + r, l0 + p) ? v : 0.0;
        }
    } else {
      for (int64_t r = 0; r < PS_MR; r++)
        for (int64_t p = 0; p < kc; p++)
          d[p * PS_MR + r] = r < mr && PS_AMASK(i0 + ir + r, l0 + p) ? PS_OPA(i0 + ir + r, l0 + p) : 0.0;
    }
