typedef double ps_v4d __attribute__((vector_size(32)));
/* Unaligned view for loads and stores of C (columns of C need not be 32-byte aligned). */
typedef double ps_v4du __attribute__((vector_size(32), aligned(8)));
/* Lane indices for __builtin_shuffle of ps_v4d. */
typedef int64_t ps_v4di __attribute__((vector_size(32)));
#define PS_MR 8
/* Columns of the micro-tile: 8 where the compiler targets AVX-512 (one 8-wide vector per
   column: fewer instructions per multiply-add, and on the project's machine 20% faster on
   one core, 10-15% on two), else 6 (two 4-wide vectors per column fill the 16 ymm
   registers). -DPS_NO_AVX512 keeps 6 on AVX-512 machines (the tests use it to run the
   portable kernel too). */
#if defined(__AVX512F__) && !defined(PS_NO_AVX512)
#define PS_NR_WIDE 1
#define PS_NR 8
#else
#define PS_NR_WIDE 0
#define PS_NR 6
#endif

/* d[0..PS_NR) = s[0..PS_NR): one row of a packed micro-panel of op(B) from a unit-stride row. */
static inline __attribute__((unused)) void ps_copy_sliver_row(double *restrict d, const double *restrict s)
{
  *(ps_v4du *)d = *(const ps_v4du *)s;
#if PS_NR_WIDE
  *(ps_v4du *)(d + 4) = *(const ps_v4du *)(s + 4);
#else
  d[4] = s[4];
  d[5] = s[5];
#endif
}

/* d[r * ds + q] = s[r + q * ld] for r, q < 4: a 4 x 4 block of unit-stride columns
   written as rows of a packed micro-panel (ds = PS_NR for op(B), PS_MR for op(A)), by two
   rounds of lane shuffles. */
static inline __attribute__((unused)) void ps_transpose4(double *restrict d, int64_t ds, const double *restrict s, int64_t ld)
{
  const ps_v4d c0 = *(const ps_v4du *)s, c1 = *(const ps_v4du *)(s + ld);
  const ps_v4d c2 = *(const ps_v4du *)(s + 2 * ld), c3 = *(const ps_v4du *)(s + 3 * ld);
  const ps_v4d t0 = __builtin_shuffle(c0, c1, (ps_v4di){0, 4, 2, 6});
  const ps_v4d t1 = __builtin_shuffle(c0, c1, (ps_v4di){1, 5, 3, 7});
  const ps_v4d t2 = __builtin_shuffle(c2, c3, (ps_v4di){0, 4, 2, 6});
  const ps_v4d t3 = __builtin_shuffle(c2, c3, (ps_v4di){1, 5, 3, 7});
  *(ps_v4du *)d = __builtin_shuffle(t0, t2, (ps_v4di){0, 1, 4, 5});
  *(ps_v4du *)(d + ds) = __builtin_shuffle(t1, t3, (ps_v4di){0, 1, 4, 5});
  *(ps_v4du *)(d + 2 * ds) = __builtin_shuffle(t0, t2, (ps_v4di){2, 3, 6, 7});
  *(ps_v4du *)(d + 3 * ds) = __builtin_shuffle(t1, t3, (ps_v4di){2, 3, 6, 7});
}

/* d[p * PS_MR + r] = s[p + r * ld] for r < PS_MR, p0 <= p < p1: columns p0 .. p1 of a
   micro-panel of op(A) whose PS_MR rows are unit-stride runs ld apart (a symmetric
   operand's other triangle), by 4 x 4 transposes. Element by element, each of the eight
   runs was written with stride PS_MR: SYMM at n = 5000 packed 5% slower. */
static inline __attribute__((unused)) void ps_pack_rows(double *restrict d, const double *restrict s, int64_t ld,
                                                        int64_t p0, int64_t p1)
{
  int64_t p = p0;
  for (; p + 4 <= p1; p += 4)
    for (int64_t q = 0; q < PS_MR; q += 4) ps_transpose4(d + p * PS_MR + q, PS_MR, s + p + q * ld, ld);
  for (int64_t r = 0; r < PS_MR; r++)
    for (int64_t t = p; t < p1; t++) d[t * PS_MR + r] = s[t + r * ld];
}

#if PS_NR_WIDE
typedef double ps_v8d __attribute__((vector_size(64)));
typedef double ps_v8du __attribute__((vector_size(64), aligned(8)));

/* c(0..7, 0..7) += alpha * a * b over kc: a holds kc columns of 8, b kc rows of 8 (packed);
   c has row stride rs and column stride cs. Eight 8-wide accumulators, one per column of
   the tile; the column-contiguous case (rs == 1) loads and stores C as vectors. Not
   inlined, as the 4-wide kernel below. */
static __attribute__((noinline, unused)) void ps_ukernel(int64_t kc, const double *restrict a, const double *restrict b,
                              double *restrict c, int64_t rs, int64_t cs, double alpha)
{
  ps_v8d c0 = {0}, c1 = {0}, c2 = {0}, c3 = {0}, c4 = {0}, c5 = {0}, c6 = {0}, c7 = {0};
  for (int64_t r = 0; r < PS_NR; r++) __builtin_prefetch(c + r * cs, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kc; p++) {
    /* Micro-panels start at multiples of 8 doubles of 64-byte aligned buffers, but a
       caller's scratch panel need not: an unaligned load costs nothing on aligned data. */
    const ps_v8d a0 = *(const ps_v8du *)a;
    __builtin_prefetch(a + 64, 0, 3);
    c0 += a0 * b[0]; c1 += a0 * b[1]; c2 += a0 * b[2]; c3 += a0 * b[3];
    c4 += a0 * b[4]; c5 += a0 * b[5]; c6 += a0 * b[6]; c7 += a0 * b[7];
    a += PS_MR;
    b += PS_NR;
  }
  const ps_v8d cc[PS_NR] = {c0, c1, c2, c3, c4, c5, c6, c7};
  if (rs == 1) {
    for (int64_t j = 0; j < PS_NR; j++) *(ps_v8du *)(c + j * cs) += alpha * cc[j];
  } else {
    for (int64_t j = 0; j < PS_NR; j++)
      for (int64_t i = 0; i < PS_MR; i++) c[i * rs + j * cs] += alpha * cc[j][i];
  }
}
#else
/* c(0..7, 0..5) += alpha * a * b over kc: a holds kc columns of 8, b kc rows of 6 (packed,
   32-byte aligned); c has row stride rs and column stride cs. Twelve accumulators stay in
   registers; the column-contiguous case (rs == 1) loads and stores C as vectors. Not
   inlined: inlined into the macro-kernel's two call sites, gcc spilled accumulators and
   the kernel ran at a third of its speed. */
static __attribute__((noinline, unused)) void ps_ukernel(int64_t kc, const double *restrict a, const double *restrict b,
                              double *restrict c, int64_t rs, int64_t cs, double alpha)
{
  ps_v4d c00 = {0}, c01 = {0}, c02 = {0}, c03 = {0}, c04 = {0}, c05 = {0};
  ps_v4d c10 = {0}, c11 = {0}, c12 = {0}, c13 = {0}, c14 = {0}, c15 = {0};
  for (int64_t r = 0; r < PS_NR; r++) __builtin_prefetch(c + r * cs, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kc; p++) {
    const ps_v4d a0 = *(const ps_v4d *)a, a1 = *(const ps_v4d *)(a + 4);
    __builtin_prefetch(a + 64, 0, 3);
    c00 += a0 * b[0]; c10 += a1 * b[0];
    c01 += a0 * b[1]; c11 += a1 * b[1];
    c02 += a0 * b[2]; c12 += a1 * b[2];
    c03 += a0 * b[3]; c13 += a1 * b[3];
    c04 += a0 * b[4]; c14 += a1 * b[4];
    c05 += a0 * b[5]; c15 += a1 * b[5];
    a += PS_MR;
    b += PS_NR;
  }
  ps_v4d lo[PS_NR] = {c00, c01, c02, c03, c04, c05};
  ps_v4d hi[PS_NR] = {c10, c11, c12, c13, c14, c15};
  if (rs == 1) {
    for (int64_t j = 0; j < PS_NR; j++) {
      ps_v4du *col = (ps_v4du *)(c + j * cs);
      col[0] += alpha * lo[j];
      *(ps_v4du *)(c + j * cs + 4) += alpha * hi[j];
    }
  } else {
    for (int64_t j = 0; j < PS_NR; j++)
      for (int64_t i = 0; i < 4; i++) {
        c[i * rs + j * cs] += alpha * lo[j][i];
        c[(i + 4) * rs + j * cs] += alpha * hi[j][i];
      }
  }
}
#endif

/* State of one call: operands, sizes, the packed block of op(A) and panel of op(B), and
   the tile origins they were packed for (so a pack is reused while its origin holds). */
typedef struct {
  const double *a, *b;
  int64_t lda, ldb;
  double *c;
  int64_t rs_c, cs_c;
  double alpha;
  int64_t mc, nc, kc;
  int64_t m, n, k; /* extents of i, j, l: tiles are clipped to them */
  /* Element strides of op(A) along i, l and of op(B) along l, j for kernels that read
     their operands through index maps (solvers, factorisations); `lo`: a mask's bound. */
  int64_t ars, acs, brs, bcs, lo;
  double *pa, *pb;
  int64_t pa_i, pa_l, pb_l, pb_j;
} ps_blk;

#if defined(__linux__)
#include <sys/mman.h>
#endif
/* A buffer of `bytes`, 64-byte aligned; from 4 MB up aligned to 2 MB and, where the system
   offers them (transparent huge pages in madvise mode), backed by huge pages: every first
   touch of a 4 KB page is a page fault, and a 32 MB working copy took 8192 of them per
   call, which threads take in turn. Freed with free(). */
static __attribute__((unused)) void *ps_alloc(size_t bytes)
{
  const size_t huge = (size_t)2 << 20;
  if (bytes < 2 * huge) return aligned_alloc(64, (bytes + 63) / 64 * 64);
  const size_t size = (bytes + huge - 1) / huge * huge;
  void *p = aligned_alloc(huge, size);
#ifdef MADV_HUGEPAGE
  if (p != NULL) (void)madvise(p, size, MADV_HUGEPAGE);
#endif
  return p;
}

/* Packing buffers kept per thread from call to call, as OpenBLAS keeps its buffer pool:
   fresh memory costs a page fault per page on first touch (a zeroed 2 MB huge page or 512
   zeroed 4 KB pages), and a kernel called on every step of a program paid that for its
   packing buffers on every call (10-20% of a 500 x 500 solve's time). A thread owns
   PS_POOL slots; a buffer is taken from the smallest free slot that holds it, else a free
   slot grows; with every slot in use (never with the kernels' nesting) the buffer is
   allocated and freed plainly. The memory stays until the thread ends (the process, for
   the main thread and a thread pool's workers). Sixteen slots: the calling thread takes
   every thread's state of a solver (seven buffers each for TRTRI's) and its working copy,
   and with eight the second thread's buffers were allocated and freed on every call. */
#define PS_POOL 16
typedef struct { void *p; size_t n; int busy; } ps_pool_slot;
static __thread ps_pool_slot ps_pool[PS_POOL];

static __attribute__((unused)) void *ps_take(size_t bytes)
{
  if (bytes == 0) bytes = 1; /* an empty slot's n = 0 must not pass for a buffer */
  int best = -1, grow = -1;
  for (int s = 0; s < PS_POOL; s++) {
    if (ps_pool[s].busy) continue;
    if (ps_pool[s].n >= bytes && (best < 0 || ps_pool[s].n < ps_pool[best].n)) best = s;
    if (grow < 0 || ps_pool[s].n > ps_pool[grow].n) grow = s;
  }
  if (best < 0 && grow >= 0) {
    /* The largest free slot grows (its old buffer is no use to anyone larger). */
    void *p = ps_alloc(bytes);
    if (p == NULL) return NULL;
    free(ps_pool[grow].p);
    ps_pool[grow].p = p;
    ps_pool[grow].n = bytes;
    best = grow;
  }
  if (best < 0) return ps_alloc(bytes);
  ps_pool[best].busy = 1;
  return ps_pool[best].p;
}

/* Returns a buffer of ps_take (or NULL) to its slot; one outside the pool is freed. */
static __attribute__((unused)) void ps_give(void *p)
{
  if (p == NULL) return;
  for (int s = 0; s < PS_POOL; s++)
    if (ps_pool[s].busy && ps_pool[s].p == p) { ps_pool[s].busy = 0; return; }
  free(p);
}

static __attribute__((unused)) int ps_blk_init(ps_blk *x, int64_t mc, int64_t nc, int64_t kc)
{
  x->mc = mc; x->nc = nc; x->kc = kc;
  x->pa_i = x->pa_l = x->pb_l = x->pb_j = -1;
  /* Rounded up to whole micro-panels (zero padded); ps_alloc rounds to its alignment. */
  size_t na = (size_t)((mc + PS_MR - 1) / PS_MR * PS_MR) * (size_t)kc * sizeof(double);
  size_t nb = (size_t)((nc + PS_NR - 1) / PS_NR * PS_NR) * (size_t)kc * sizeof(double);
  x->pa = ps_take(na);
  x->pb = ps_take(nb);
  if (x->pa == NULL || x->pb == NULL) {
    ps_give(x->pa); ps_give(x->pb);
    x->pa = x->pb = NULL;
    return 0;
  }
  return 1;
}

static __attribute__((unused)) void ps_blk_free(ps_blk *x) { ps_give(x->pa); ps_give(x->pb); }

/* The width of column tiles shared by `nthr` threads: the fewest tiles, a multiple of the
   thread count, of at most `s0` columns each, all but the last equally wide (a count that
   is not a multiple left a thread idle for a whole tile at the end). */
static __attribute__((unused)) int64_t ps_pick_cols(int64_t ext, int64_t s0, int64_t nthr)
{
  if (ext < 1) return 1;
  if (s0 < 1) s0 = 1;
  if (nthr < 1) nthr = 1;
  const int64_t per = s0 * nthr, q = nthr * ((ext + per - 1) / per);
  return (ext + q - 1) / q;
}

/* A tile size for an extent of `ext` iterations near the model's `s0`: the candidate in
   [s0/2, s0] (or `ext` itself when it fits) that minimises the work of full tiles padded to
   the micro-tile `unit` plus eight times the iterations left to partial tiles, which run
   the generic loops about eight times slower. */
static __attribute__((unused)) int64_t ps_pick_size(int64_t ext, int64_t s0, int64_t unit)
{
  if (s0 < 1) s0 = 1;
  if (ext <= s0) return ext < 1 ? 1 : ext;
  int64_t best = s0, best_cost = INT64_MAX;
  for (int64_t s = s0; s >= (s0 + 1) / 2; s--) {
    int64_t q = ext / s, left = ext - q * s;
    int64_t cost = q * ((s + unit - 1) / unit * unit) + 8 * left;
    if (cost < best_cost) { best = s; best_cost = cost; }
  }
  return best;
}

/* The width of column tiles of a triangular result shared by `nthr` threads: about
   `ext / nthr`, at most `s0` (ps_pick_cols), then up to a multiple of the row tile `mc`
   where that stays within `s0`: the diagonal then crosses one row tile per column tile,
   where a width of 86 or 171 (SYRK, LAUUM at n = 512, 1024) made it cross two, each a
   masked tile, and ran 10-20% slower. */
static __attribute__((unused)) int64_t ps_pick_tri_cols(int64_t ext, int64_t s0, int64_t mc, int64_t nthr)
{
  const int64_t w = ps_pick_cols(ext, s0, nthr);
  if (mc < 1) return w;
  const int64_t r = (w + mc - 1) / mc * mc;
  return r <= s0 ? r : w;
}
