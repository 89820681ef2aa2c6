
/* @what@
   tile_sizes = {size along i, j, l} of the catalogue domain @domain@
   (i, j: rows and columns of the result, l: the reduction); values below 1 count as 1,
   values above an extent as the extent. */
void @fname@_tiled(@args@, const int64_t *tile_sizes)
{
@prologue@  @bind@
  /* Sizes beyond an extent are cut to it: the same instances, one full tile instead of a
     partial one, and pack buffers no larger than the operands. */
  const int64_t sz_i = tile_sizes[0] < 1 ? 1 : tile_sizes[0] > @ei@ ? @ei@ : tile_sizes[0];
  const int64_t sz_j = tile_sizes[1] < 1 ? 1 : tile_sizes[1] > @ej@ ? @ej@ : tile_sizes[1];
  const int64_t sz_l = tile_sizes[2] < 1 ? 1 : tile_sizes[2] > @el@ ? @el@ : tile_sizes[2];
  const ps_blk blk0 = { .a = @a@, .b = @b@, .lda = @lda@, .ldb = @ldb@, .c = @c@, .rs_c = @rs@, .cs_c = @cs@, .alpha = alpha,
                       .m = @ei@, .n = @ej@, .k = @el@ };
@blk_decl@#define S(@iters@) @body@
#define PS_FULL(t1, t2, t3) @full_call@
@part_macros@@fragment@#undef S
#undef PS_FULL
@part_undefs@@blk_free@@epilogue@}

/* Default tile sizes: the cache model's {@dm@, @dn@, @dk@} (mc, nc, kc), each moved
   within [s/2, s] to fit this call's extents (see ps_pick_size); where column tiles run
   in parallel, nc at most the columns over the thread count (where row tiles do, mc). */
void @fname@(@args@)
{
  const int64_t ts[3] = { @mc_pick@, @nc_pick@,
                           ps_pick_size(@el@, @dk@, 1) };
  @fname@_tiled(@call@, ts);
}
