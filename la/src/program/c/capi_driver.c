/* A generic checking driver for `polyscan la --emit c-api`: compile with
     cc -O2 -I<this directory> -I<the header's directory>
        -DPS_CAPI_HEADER='"NAME.h"' capi_driver.c NAME.c -lm
   and run as ./check [n=30,m=7 ...]: each argument is one set of sizes (names from the
   header, unnamed sizes at their defaults), none means the defaults. Per set it fills the
   inputs with the declared properties (fill.c), evaluates the formula directly
   (naive.c), calls the function twice with one workspace (first with packed operands,
   then with leading dimensions rows + 3, the workspace left dirty by the first call),
   prints the relative residual of every output per call and checks that a declared size
   changed by one is rejected (ESIZE, workspace -1). Exit status 1 when a residual
   exceeds PS_TOL, an input or a column's padding changed or a size check failed, 2 when
   the function returns an error.
   With -DPS_COUNT_ALLOC and -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc the
   allocations the linked objects (the driver and NAME.c, not shared libraries) make
   during the calls are counted and printed ("allocations in calls: N"). */
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

#ifdef PS_COUNT_ALLOC
static int ps_counting;
static long ps_allocs;
void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void *__wrap_malloc(size_t n) { ps_allocs += ps_counting; return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { ps_allocs += ps_counting; return __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { ps_allocs += ps_counting; return __real_realloc(p, n); }
#define PS_COUNT(on) (ps_counting = (on))
#else
#define PS_COUNT(on) ((void)0)
#endif

/* Sizes from "n=30,m=7" over the defaults; 0 when a name is unknown. */
static int ps_parse_sizes(const char *arg, int64_t *sz)
{
  for (int i = 0; i < PS_CHECK_NSIZES; i++) sz[i] = ps_check_size_default[i];
  const char *s = arg;
  while (*s) {
    const char *eq = strchr(s, '=');
    if (eq == NULL) return 0;
    int found = 0;
    for (int i = 0; i < PS_CHECK_NSIZES; i++) {
      size_t len = strlen(ps_check_size_name[i]);
      if ((size_t)(eq - s) == len && strncmp(s, ps_check_size_name[i], len) == 0) {
        sz[i] = strtoll(eq + 1, NULL, 10);
        found = 1;
      }
    }
    if (!found) return 0;
    const char *comma = strchr(eq, ',');
    if (comma == NULL) break;
    s = comma + 1;
  }
  return 1;
}

/* One set of sizes: 0 ok, 1 a check failed, 2 the function failed. */
static int ps_check_at(const int64_t *sz)
{
  ps_state = 1;
  double *p[PS_CHECK_NPARAMS + 1], *q[PS_CHECK_NPARAMS + 1];
  int64_t ld[PS_CHECK_NPARAMS + 1], ldq[PS_CHECK_NPARAMS + 1];
  int64_t rows[PS_CHECK_NPARAMS + 1], cols[PS_CHECK_NPARAMS + 1];
  printf("sizes:");
  for (int i = 0; i < PS_CHECK_NSIZES; i++) printf(" %s=%lld", ps_check_size_name[i], (long long)sz[i]);
  printf("\nvariant: %d\n", PS_CHECK_VARIANT(sz));
  for (int k = 0; k < PS_CHECK_NPARAMS; k++) {
    ps_check_shape(sz, k, &rows[k], &cols[k]);
    p[k] = ps_new(rows[k], cols[k]);
    ld[k] = rows[k] > 0 ? rows[k] : 1;
  }
  ps_check_fill(sz, p);
  ps_mat nv[PS_CHECK_NOPERANDS + 1];
  ps_check_operands(sz, nv, p);
  ps_check_naive(nv);
  int64_t w = PS_CHECK_WORKSPACE(sz);
  if (w < 0) { fprintf(stderr, "workspace: sizes rejected\n"); return 2; }
  double *work = ps_new(w, 1);
  /* A dirty workspace: the function must not rely on its contents. */
  for (int64_t i = 0; i < w; i++) work[i] = PS_GARBAGE;
  printf("workspace: %lld doubles\n", (long long)w);
  int bad = 0;
  for (int call = 0; call < 2; call++) {
    /* Call 0: the packed operands themselves; call 1: copies with padded columns. */
    for (int k = 0; k < PS_CHECK_NPARAMS; k++) {
      int64_t r = rows[k], c = cols[k];
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
    PS_COUNT(1);
    int rc = PS_CHECK_CALL(sz, q, ldq, work);
    PS_COUNT(0);
    if (rc != 0) { fprintf(stderr, "call %d: error %d\n", call, rc); return 2; }
    for (int k = 0; k < PS_CHECK_NPARAMS; k++) {
      int64_t r = rows[k], c = cols[k];
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
  /* A declared size off by one is rejected before anything is read. */
  for (int i = 0; i < PS_CHECK_NSIZES; i++) {
    if (ps_check_size_open[i]) continue;
    int64_t wrong[PS_CHECK_NSIZES + 1];
    for (int j = 0; j < PS_CHECK_NSIZES; j++) wrong[j] = sz[j];
    wrong[i] += 1;
    int rc = PS_CHECK_CALL(wrong, p, ld, work);
    int64_t ww = PS_CHECK_WORKSPACE(wrong);
    int ok = rc == 1 && ww == -1;
    printf("size check %s: %s\n", ps_check_size_name[i], ok ? "ok" : "NOT REJECTED");
    if (!ok) bad = 1;
  }
  for (int k = 0; k < PS_CHECK_NPARAMS; k++) free(p[k]);
  free(work);
  return bad;
}

int main(int argc, char **argv)
{
  int64_t sz[PS_CHECK_NSIZES + 1];
  int status = 0;
  for (int a = argc > 1 ? 1 : 0; a < argc; a++) {
    if (argc > 1 && !ps_parse_sizes(argv[a], sz)) { fprintf(stderr, "bad sizes: %s\n", argv[a]); return 2; }
    if (argc <= 1) for (int i = 0; i < PS_CHECK_NSIZES; i++) sz[i] = ps_check_size_default[i];
    int r = ps_check_at(sz);
    if (r == 2) return 2;
    if (r) status = 1;
  }
#ifdef PS_COUNT_ALLOC
  printf("allocations in calls: %ld\n", ps_allocs);
#endif
  printf("result: %s\n", status ? "RESIDUAL TOO LARGE" : "ok");
  return status;
}
