/* Per column: below the first disc, between the discs, above the second. Where a disc
   does not reach the column its excluded run is empty and the parts meet. */
for (int64_t x = 0; x <= 20; x += 1) {
  int64_t d1 = 64 - (x - 10) * (x - 10), d2 = 100 - (x - 10) * (x - 10);
  /* |y - c| < sqrt(d) excludes |y - c| <= ceil_sqrt(d) - 1. */
  int64_t e1 = d1 > 0 ? ref_ceil_sqrt(d1) - 1 : -1, e2 = d2 > 0 ? ref_ceil_sqrt(d2) - 1 : -1;
  int64_t a1 = e1 >= 0 ? 9 - e1 : 10, b1 = e1 >= 0 ? 11 + e1 : 11;
  int64_t a2 = e2 >= 0 ? 39 - e2 : 40, b2 = e2 >= 0 ? 41 + e2 : 41;
  for (int64_t y = 0; y <= ref_min(n, a1); y += 1)
    S(x, y);
  for (int64_t y = b1; y <= ref_min(n, a2); y += 1)
    S(x, y);
  for (int64_t y = b2; y <= n; y += 1)
    S(x, y);
}
