/* The C API's failure exits: a failing factorisation (ps_fail) or allocation (ps_oom)
   inside the kernel sequence jumps back to the API function, which returns the error
   code ps_api_err; nothing is printed and the process is not ended. */
static _Thread_local jmp_buf *ps_api_jmp;
static _Thread_local int ps_api_err;
static void ps_oom(void) { ps_api_err = 4; longjmp(*ps_api_jmp, 1); }
static __attribute__((unused)) void ps_fail(const char *what, long info) { (void)what; (void)info; ps_api_err = 3; longjmp(*ps_api_jmp, 1); }

static __attribute__((unused)) double *ps_new(int64_t r, int64_t c)
{
  size_t n = (size_t)(r * c > 0 ? r * c : 1);
  double *p = calloc(n, sizeof(double));
  if (p == NULL) ps_oom();
  return p;
}
