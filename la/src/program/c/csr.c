/* Compressed sparse rows of the r x c column-major matrix a (leading dimension ld):
   rowptr (r + 1 entries), the column of each nonzero and its value, row by row, as
   the C API takes sparse operands; malloc'd, the caller frees them. */
static __attribute__((unused)) void ps_csr_build(const double *a, int64_t r, int64_t c, int64_t ld,
                                                 int64_t **rowptr, int64_t **colind, double **val)
{
  int64_t nnz = 0;
  for (int64_t j = 0; j < c; j++)
    for (int64_t i = 0; i < r; i++) nnz += a[i + j * ld] != 0.0;
  *rowptr = malloc(sizeof(int64_t) * (size_t)(r + 1));
  *colind = malloc(sizeof(int64_t) * (size_t)(nnz + 1));
  *val = malloc(sizeof(double) * (size_t)(nnz + 1));
  if (*rowptr == NULL || *colind == NULL || *val == NULL) ps_oom();
  int64_t p = 0;
  for (int64_t i = 0; i < r; i++) {
    (*rowptr)[i] = p;
    for (int64_t j = 0; j < c; j++)
      if (a[i + j * ld] != 0.0) { (*colind)[p] = j; (*val)[p] = a[i + j * ld]; p++; }
  }
  (*rowptr)[r] = p;
}
