  /* Left-looking (see solve.rs): the block row's pure update tiles cover the columns
     [0, jl), all final now; the first of them does all, the others have nothing left. */
  if (j0 != 0) return 1;
  const int64_t jl = i0 / szj * szj;
  int64_t i = i0;
  /* Four rows at a time where rows run forwards or backwards with unit stride (the rows
     read w[0..jl), which lies before the rows written). */
  if (tcs == 1 || tcs == -1)
    for (; i + 4 <= ie; i += 4) {
      const double *const xr[4] = { t + i * trs, t + (i + 1) * trs,
                                    t + (i + 2) * trs, t + (i + 3) * trs };
      double s4[4];
      ps_dot4(jl, (int)tcs, xr, w, s4);
      w[i] -= s4[0];
      w[i + 1] -= s4[1];
      w[i + 2] -= s4[2];
      w[i + 3] -= s4[3];
    }
  for (; i < ie; i++) {
    const double *tr = t + i * trs;
    double s = 0.0;
    if (tcs == 1) s = ps_dot(jl, tr, w);
    else if (tcs == -1) s = ps_dot_rev(jl, tr, w);
    else for (int64_t j = 0; j < jl; j++) s += tr[j * tcs] * w[j];
    w[i] -= s;
  }
