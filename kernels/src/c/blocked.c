
/* Packs (once per origin) the mc x kc block of op(A) at (i0, l0), clipped to the extents:
   the extents depend on the origin only, so a pack is valid for every tile sharing it. */
static void ps_@tag@_pack_a(ps_blk *x, int64_t i0, int64_t l0)
{
  if (x->pa_i == i0 && x->pa_l == l0) return;
  const double *a = x->a;
  const int64_t lda = x->lda;
  const int64_t mc = x->mc < x->m - i0 ? x->mc : x->m - i0;
  const int64_t kc = x->kc < x->k - l0 ? x->kc : x->k - l0;
  (void)lda;
  /* A block inside the mask (a half-plane: inside iff its four corners are) packs as an
     unmasked one. */
  const int unmasked = !PS_AMASK_ON
                       || (PS_AMASK(i0, l0) && PS_AMASK(i0 + mc - 1, l0) && PS_AMASK(i0, l0 + kc - 1)
                           && PS_AMASK(i0 + mc - 1, l0 + kc - 1));
#if PS_OPA_COLUMNS
  if (unmasked) {
    /* Columns of op(A) are contiguous: each is read once, front to back (a stream the
       hardware prefetches), its rows spread over the micro-panels; the last panel's rows
       past the extent are zeros. */
    const int64_t full = mc / PS_MR * PS_MR;
    for (int64_t p = 0; p < kc; p++) {
      const double *restrict s = &PS_OPA(i0, l0 + p);
      double *restrict d = x->pa + p * PS_MR;
      for (int64_t ir = 0; ir < full; ir += PS_MR) {
        *(ps_v4du *)(d + ir * kc) = *(const ps_v4du *)(s + ir);
        *(ps_v4du *)(d + ir * kc + 4) = *(const ps_v4du *)(s + ir + 4);
      }
      for (int64_t r = 0; r < PS_MR && full < mc; r++) d[full * kc + r] = full + r < mc ? s[full + r] : 0.0;
    }
    x->pa_i = i0; x->pa_l = l0;
    return;
  }
#endif
  for (int64_t ir = 0; ir < mc; ir += PS_MR) {
    double *restrict d = x->pa + ir * kc;
    const int64_t mr = mc - ir < PS_MR ? mc - ir : PS_MR;
#if PS_OPA_HALVES
    if (mr == PS_MR) {
      /* A symmetric op(A) from one stored triangle (SYMM): the columns left of the panel's
         rows (l <= its first row) come from one half, those right of them (l > its last
         row) from the other, each a run along its contiguous direction; only the MR - 1
         columns across the diagonal choose element by element. The choice per element made
         half of the reads strided gathers. */
      const int64_t ia = i0 + ir;
      const int64_t pl = ia - l0 + 1 < 0 ? 0 : ia - l0 + 1 < kc ? ia - l0 + 1 : kc;
      const int64_t ph = ia + PS_MR - l0 < pl ? pl : ia + PS_MR - l0 < kc ? ia + PS_MR - l0 : kc;
#if PS_OPA_LO_COLUMNS
      for (int64_t p = 0; p < pl; p++) {
        const double *restrict s = &PS_OPA_LO(ia, l0 + p);
        *(ps_v4du *)(d + p * PS_MR) = *(const ps_v4du *)s;
        *(ps_v4du *)(d + p * PS_MR + 4) = *(const ps_v4du *)(s + 4);
      }
      ps_pack_rows(d, &PS_OPA_HI(ia, l0), &PS_OPA_HI(ia + 1, l0) - &PS_OPA_HI(ia, l0), ph, kc);
#else
      ps_pack_rows(d, &PS_OPA_LO(ia, l0), &PS_OPA_LO(ia + 1, l0) - &PS_OPA_LO(ia, l0), 0, pl);
      for (int64_t p = ph; p < kc; p++) {
        const double *restrict s = &PS_OPA_HI(ia, l0 + p);
        *(ps_v4du *)(d + p * PS_MR) = *(const ps_v4du *)s;
        *(ps_v4du *)(d + p * PS_MR + 4) = *(const ps_v4du *)(s + 4);
      }
#endif
      for (int64_t p = pl; p < ph; p++)
        for (int64_t r = 0; r < PS_MR; r++) d[p * PS_MR + r] = PS_OPA(ia + r, l0 + p);
      continue;
    }
#endif
    if (mr == PS_MR && unmasked) {
      /* A whole micro-panel inside the mask: eight rows per step, written in order. */
      for (int64_t p = 0; p < kc; p++)
        for (int64_t r = 0; r < PS_MR; r++) d[p * PS_MR + r] = PS_OPA(i0 + ir + r, l0 + p);
    } else if (mr == PS_MR) {
      /* Across the mask's edge: every element of the micro-panel lies in the operand's
         storage (the other triangle of a full array), so it is read unconditionally and
         the mask selects it (a blend, not a branch per element). Only the columns the tile
         reads (PS_LSTART .. PS_LEND, see ps_@tag@_tile): the rest would be zeros, and
         skipping them halves the packing of a block across TRMM's diagonal. */
      const int64_t pe = PS_LEND(i0 + ir + PS_MR - 1) - l0, ps0 = PS_LSTART(i0 + ir) - l0;
      for (int64_t p = ps0 > 0 ? ps0 : 0; p < (pe < kc ? pe : kc); p++) {
#if PS_OPA_COLUMNS
        /* A column of the micro-panel inside the mask (a half-plane: iff its two ends are),
           all but MR - 1 of them on a diagonal block: one vector copy, as unmasked blocks
           (the element-wise blend made the masked blocks half of TRMM's packing time). */
        if (PS_AMASK(i0 + ir, l0 + p) && PS_AMASK(i0 + ir + PS_MR - 1, l0 + p)) {
          const double *restrict s = &PS_OPA(i0 + ir, l0 + p);
          *(ps_v4du *)(d + p * PS_MR) = *(const ps_v4du *)s;
          *(ps_v4du *)(d + p * PS_MR + 4) = *(const ps_v4du *)(s + 4);
          continue;
        }
#endif
        for (int64_t r = 0; r < PS_MR; r++) {
          const double v = PS_OPA(i0 + ir + r, l0 + p);
          d[p * PS_MR + r] = PS_AMASK(i0 + ir + r, l0 + p) ? v : 0.0;
        }
      }
    } else {
      /* The last micro-panel, rows past the extent zero: in the operand's unit-stride order. */
@pack_a_inner@    }
  }
  x->pa_i = i0; x->pa_l = l0;
}

static void ps_@tag@_pack_b(ps_blk *x, int64_t l0, int64_t j0)
{
  if (x->pb_l == l0 && x->pb_j == j0) return;
  const double *b = x->b;
  const int64_t ldb = x->ldb;
  const int64_t nc = x->nc < x->n - j0 ? x->nc : x->n - j0;
  const int64_t kc = x->kc < x->k - l0 ? x->kc : x->k - l0;
  (void)ldb;
  for (int64_t jr = 0; jr < nc; jr += PS_NR) {
    double *restrict d = x->pb + jr * kc;
    const int64_t nr = nc - jr < PS_NR ? nc - jr : PS_NR;
#if PS_OPB_ROWS
    /* (Compiled only then: `&PS_OPB(..)` needs op(B) to be an array element.) */
    if (nr == PS_NR) {
      /* Rows of op(B) are unit-stride arrays: each micro-panel row is one vector copy. */
      for (int64_t p = 0; p < kc; p++) ps_copy_sliver_row(d + p * PS_NR, &PS_OPB(l0 + p, j0 + jr));
    } else
#endif
#if PS_OPB_COLUMNS
    /* (Compiled only then, as above.) */
    if (nr == PS_NR) {
      /* Columns of op(B) are unit-stride arrays: 4 x 4 blocks read as four column vectors
         and written as four rows by lane shuffles (element by element, the eight strided
         streams were 40% of TRMM's packing at n = 1024). */
      const int64_t ld = &PS_OPB(l0, j0 + jr + 1) - &PS_OPB(l0, j0 + jr);
      int64_t p = 0;
      for (; p + 4 <= kc; p += 4) {
        const double *s = &PS_OPB(l0 + p, j0 + jr);
        for (int64_t q = 0; q + 4 <= PS_NR; q += 4) ps_transpose4(d + p * PS_NR + q, PS_NR, s + q * ld, ld);
        for (int64_t q = PS_NR / 4 * 4; q < PS_NR; q++)
          for (int64_t r = 0; r < 4; r++) d[(p + r) * PS_NR + q] = s[r + q * ld];
      }
      for (; p < kc; p++)
        for (int64_t q = 0; q < PS_NR; q++) d[p * PS_NR + q] = PS_OPB(l0 + p, j0 + jr + q);
    } else
#endif
    if (nr == PS_NR) {
      /* A whole micro-panel: six streams read in step, the panel written in order. */
      for (int64_t p = 0; p < kc; p++)
        for (int64_t q = 0; q < PS_NR; q++) d[p * PS_NR + q] = PS_OPB(l0 + p, j0 + jr + q);
    } else {
      /* The last micro-panel, columns past the extent zero: in the operand's unit-stride order. */
@pack_b_inner@    }
  }
  x->pb_l = l0; x->pb_j = j0;
}

/* The tile with origin (i0, j0, l0), clipped to the extents: C(i0.., j0..) += alpha op(A)
   op(B) by micro-tiles (jr outer so a kc x NR sliver of B stays in L1). With `masked`,
   micro-tiles go through a scratch tile and only elements inside PS_CMASK are added;
   micro-tiles wholly outside it are skipped. */
static void ps_@tag@_tile(ps_blk *x, int64_t i0, int64_t j0, int64_t l0, int masked)
{
  ps_@tag@_pack_b(x, l0, j0);
  ps_@tag@_pack_a(x, i0, l0);
  const int64_t mc = x->mc < x->m - i0 ? x->mc : x->m - i0;
  const int64_t nc = x->nc < x->n - j0 ? x->nc : x->n - j0;
  const int64_t kc = x->kc < x->k - l0 ? x->kc : x->k - l0;
  const int64_t rs = x->rs_c, cs = x->cs_c;
  for (int64_t jr = 0; jr < nc; jr += PS_NR) {
    const int64_t nr = nc - jr < PS_NR ? nc - jr : PS_NR;
    for (int64_t ir = 0; ir < mc; ir += PS_MR) {
      const int64_t mr = mc - ir < PS_MR ? mc - ir : PS_MR;
      double *c = x->c + (i0 + ir) * rs + (j0 + jr) * cs;
      int inside = 1, any = 1;
      if (masked) {
        /* The mask is tested at the corners: it is a half-plane (one linear constraint). */
        int64_t ia = i0 + ir, ib = ia + mr - 1, ja = j0 + jr, jb = ja + nr - 1;
        int c00 = PS_CMASK(ia, ja), c01 = PS_CMASK(ia, jb), c10 = PS_CMASK(ib, ja), c11 = PS_CMASK(ib, jb);
        (void)ib; (void)jb; /* unused when the mask is constant */
        inside = c00 && c01 && c10 && c11;
        any = c00 || c01 || c10 || c11;
      }
      /* Beyond PS_LEND and before PS_LSTART the packed rows of op(A) are zeros, before
         PS_BLSTART the packed columns of op(B): a shorter reduction. */
      const int64_t lend = PS_LEND(i0 + ir + mr - 1) - l0;
      const int64_t kr = lend < kc ? lend : kc;
      const int64_t lstart = PS_LSTART(i0 + ir) - l0, bstart = PS_BLSTART(j0 + jr) - l0;
      const int64_t k0 = lstart > bstart ? (lstart > 0 ? lstart : 0) : (bstart > 0 ? bstart : 0);
      if (!any || kr <= k0) continue;
      const double *pa = x->pa + ir * kc + k0 * PS_MR, *pb = x->pb + jr * kc + k0 * PS_NR;
      if (mr == PS_MR && nr == PS_NR && inside) {
        ps_ukernel(kr - k0, pa, pb, c, rs, cs, x->alpha);
      } else {
        double t[PS_MR * PS_NR] __attribute__((aligned(32))) = {0};
        ps_ukernel(kr - k0, pa, pb, t, 1, PS_MR, x->alpha);
        for (int64_t q = 0; q < nr; q++)
          for (int64_t r = 0; r < mr; r++)
            if (PS_CMASK(i0 + ir + r, j0 + jr + q)) c[r * rs + q * cs] += t[q * PS_MR + r];
      }
    }
  }
}

static void ps_@tag@_full(ps_blk *x, int64_t i0, int64_t j0, int64_t l0) { ps_@tag@_tile(x, i0, j0, l0, 0); }
