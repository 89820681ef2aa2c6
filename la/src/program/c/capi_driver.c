/* A generic checking driver for `polyscan la --emit c-api`: compile with
     cc -O2 -I<this directory> -I<the header's directory>
        -DPS_CAPI_HEADER='"NAME.h"' capi_driver.c NAME.c -lm
   It fills the inputs with the declared properties (fill.c), evaluates the formula
   directly (naive.c), calls the function twice with one workspace (first with packed
   operands, then with leading dimensions rows + 3 and the workspace left dirty), and
   prints the relative residual of every output per call; exit status 1 when one exceeds
   PS_TOL or an input or a column's padding changed, 2 when the function returns an
   error. */
#include "includes.h"
#include "alloc.c"
#include "random.c"
#include "identity.c"
#include "fill.c"
#include "naive.c"
#include "measure.c"
#define PS_CAPI_CHECK
#include PS_CAPI_HEADER

#ifndef PS_TOL
#define PS_TOL 1e-8
#endif

#define PS_PAD 3
#define PS_GARBAGE 7.25

int main(void)
{
  ps_state = 1;
  double *p[PS_CHECK_NPARAMS + 1], *q[PS_CHECK_NPARAMS + 1];
  int64_t ld[PS_CHECK_NPARAMS + 1], ldq[PS_CHECK_NPARAMS + 1];
  for (int k = 0; k < PS_CHECK_NPARAMS; k++) {
    p[k] = ps_new(ps_check_rows[k], ps_check_cols[k]);
    ld[k] = ps_check_rows[k] > 0 ? ps_check_rows[k] : 1;
  }
  ps_check_fill(p);
  ps_mat nv[PS_CHECK_NOPERANDS + 1];
  ps_check_operands(nv, p);
  ps_check_naive(nv);
  int64_t w = PS_CHECK_WORKSPACE();
  if (w < 0) { fprintf(stderr, "workspace: sizes rejected\n"); return 2; }
  double *work = ps_new(w, 1);
  /* A dirty workspace: the function must not rely on its contents. */
  for (int64_t i = 0; i < w; i++) work[i] = PS_GARBAGE;
  printf("workspace: %lld doubles\n", (long long)w);
  int bad = 0;
  for (int call = 0; call < 2; call++) {
    /* Call 0: the packed operands themselves; call 1: copies with padded columns. */
    for (int k = 0; k < PS_CHECK_NPARAMS; k++) {
      int64_t r = ps_check_rows[k], c = ps_check_cols[k];
      if (call == 0) {
        q[k] = p[k];
        ldq[k] = ld[k];
        if (ps_check_output[k]) for (int64_t i = 0; i < r * c; i++) q[k][i] = PS_GARBAGE;
        continue;
      }
      ldq[k] = ld[k] + PS_PAD;
      q[k] = ps_new(ldq[k], c);
      for (int64_t j = 0; j < c; j++)
        for (int64_t i = 0; i < ldq[k]; i++)
          q[k][i + j * ldq[k]] = (i < r && !ps_check_output[k]) ? p[k][i + j * r] : PS_GARBAGE;
    }
    int rc = PS_CHECK_CALL(q, ldq, work);
    if (rc != 0) { fprintf(stderr, "call %d: error %d\n", call, rc); return 2; }
    for (int k = 0; k < PS_CHECK_NPARAMS; k++) {
      int64_t r = ps_check_rows[k], c = ps_check_cols[k];
      double *x = ps_new(r, c);
      int changed = 0;
      for (int64_t j = 0; j < c; j++)
        for (int64_t i = 0; i < ldq[k]; i++) {
          double v = q[k][i + j * ldq[k]];
          if (i < r) x[i + j * r] = v;
          if (i >= r && v != PS_GARBAGE) changed = 1;
          if (i < r && !ps_check_output[k] && call == 1 && v != p[k][i + j * r]) changed = 1;
        }
      if (changed) { printf("call %d: %s: input or padding changed\n", call, ps_check_name[k]); bad = 1; }
      if (ps_check_output[k]) {
        double res = ps_residual(x, nv[ps_check_operand[k]].d, r * c);
        printf("call %d: residual %s: %.3e\n", call, ps_check_name[k], res);
        if (!(res <= PS_TOL)) bad = 1;
      }
      free(x);
      if (call == 1) free(q[k]);
    }
  }
  printf("result: %s\n", bad ? "RESIDUAL TOO LARGE" : "ok");
  return bad;
}
