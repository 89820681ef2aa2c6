#!/bin/sh
# Structured inverses and solves of `polyscan la` (issue 22) against the dense ones, at the
# sizes of the ExaStencils seed's tables 2 and 3 (shared/seeds/002): per configuration two
# programs (`polyscan la --emit c`, generated back end unless BACKEND says otherwise), the
# structured one (T declared `BlockDiagonal(b)`, or a 2 x 2 block matrix `[A, B; C, D]`
# with A block-diagonal, inverted by its Schur complement) and the dense one (the same
# sizes, T declared `FullRank`: GETRF, TRTRI, TRSM, LASWP), each timing its kernel sequence
# as the best of REPEAT means of INNER back-to-back runs (-DPS_REPS, -DPS_INNER; the
# microsecond clock over many runs). Prints one markdown table: times in microseconds,
# structured / dense in percent, and the seed's percentage for the same configuration.
#
# Usage: sh benches/la_blocks.sh
# Environment:
#   BACKEND  generated | blas | nests [default generated]
#   REPEAT   best of this many timed batches [default 20]
#   INNER    runs per batch [default 2000]
#   CC       C compiler [default cc]
#   POLYSCAN the polyscan binary to use [default: built by cargo]
set -eu
cd "$(dirname "$0")/.."
BACKEND=${BACKEND:-generated}
REPEAT=${REPEAT:-20}
INNER=${INNER:-2000}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${POLYSCAN:-}" ]; then
  cargo build --release --quiet --bin polyscan >&2
fi
bin=${POLYSCAN:-${CARGO_TARGET_DIR:-target}/release/polyscan}
libs=""
[ "$BACKEND" = blas ] && libs="-lopenblas"

# Time of the kernel sequence of problem $1 in microseconds, and its kernels.
run() {
  "$bin" la "$1" --emit c --backend "$BACKEND" > "$tmp/p.c"
  $CC -O2 -march=native -DPS_NO_NAIVE -DPS_REPS="$REPEAT" -DPS_INNER="$INNER" \
    "$tmp/p.c" -o "$tmp/p" -lm $libs
  out=$("$tmp/p")
  t=$(printf '%s\n' "$out" | sed -n 's/^time kernel sequence: \([0-9.e+-]*\) s.*/\1/p')
  k=$(printf '%s\n' "$out" | sed -n 's/^kernels: //p')
  echo "$t $k"
}

# One table row: label, structured problem, dense problem, the seed's percentage.
row() {
  s=$(run "$2"); d=$(run "$3")
  ts=${s%% *}; ks=${s#* }; td=${d%% *}
  awk -v l="$1" -v ts="$ts" -v td="$td" -v ks="$ks" -v seed="$4" 'BEGIN {
    printf "| %s | %.3f | %.3f | %.2f | %s | %s |\n", l, ts * 1e6, td * 1e6, 100 * ts / td, seed, ks }'
}

echo "backend: $BACKEND, best of $REPEAT means of $INNER runs ($(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1 /proc/loadavg))" >&2
echo "| configuration | structured (us) | dense (us) | structured / dense (%) | seed (%) | structured kernels |"
echo "|---|---|---|---|---|---|"

# Table 2: inverses of block-diagonal matrices (size n, blocks of b).
for cfg in "6 2 1.6" "6 3 1.7" "9 3 0.5" "15 3 0.18" "15 5 24.8" "25 5 13.3" "50 5 19.0"; do
  set -- $cfg
  printf 'n = %s\nMatrix T(n, n) <BlockDiagonal(%s)>\nMatrix X(n, n) <>\nX = inv(T)\n' "$1" "$2" > "$tmp/s.la"
  printf 'n = %s\nMatrix T(n, n) <FullRank>\nMatrix X(n, n) <>\nX = inv(T)\n' "$1" > "$tmp/d.la"
  row "inverse, n = $1, blocks of $2" "$tmp/s.la" "$tmp/d.la" "$3"
done

# The seed's solve (section 4.1, small linear systems): 15 x 15, blocks of 3.
printf 'n = 15\nMatrix T(n, n) <BlockDiagonal(3)>\nColumnVector f(n) <>\nColumnVector x(n) <>\nx = inv(T) * f\n' > "$tmp/s.la"
printf 'n = 15\nMatrix T(n, n) <FullRank>\nColumnVector f(n) <>\nColumnVector x(n) <>\nx = inv(T) * f\n' > "$tmp/d.la"
row "solve, n = 15, blocks of 3" "$tmp/s.la" "$tmp/d.la" "22"

# Table 3: inverses of 2 x 2 block matrices [A, B; C, D], D of size d, A of size n - d
# with blocks of a, by the Schur complement of A.
for cfg in "9 2 1 0.7" "9 4 1 42.4" "15 2 1 0.2" "25 4 1 15.0" "25 6 1 16.1" "50 4 2 8.4" "50 7 1 10.2" "50 6 2 10.7"; do
  set -- $cfg
  m=$(($1 - $3))
  printf 'm = %s\nd = %s\nn = %s\nMatrix A(m, m) <BlockDiagonal(%s), FullRank>\nMatrix B(m, d) <>\nMatrix C(d, m) <>\nMatrix D(d, d) <>\nMatrix X(n, n) <>\nX = inv([A, B; C, D])\n' "$m" "$3" "$1" "$2" > "$tmp/s.la"
  printf 'n = %s\nMatrix T(n, n) <FullRank>\nMatrix X(n, n) <>\nX = inv(T)\n' "$1" > "$tmp/d.la"
  row "Schur inverse, n = $1, A blocks of $2, D $3 x $3" "$tmp/s.la" "$tmp/d.la" "$4"
done

# The seed's Schur solve: 16 x 16, D 1 x 1, A with blocks of 3.
printf 'm = 15\nd = 1\nn = 16\nMatrix A(m, m) <BlockDiagonal(3), FullRank>\nMatrix B(m, d) <>\nMatrix C(d, m) <>\nMatrix D(d, d) <>\nColumnVector f(m) <>\nColumnVector g(d) <>\nColumnVector x(n) <>\nx = inv([A, B; C, D]) * [f; g]\n' > "$tmp/s.la"
printf 'n = 16\nMatrix T(n, n) <FullRank>\nColumnVector f(n) <>\nColumnVector x(n) <>\nx = inv(T) * f\n' > "$tmp/d.la"
row "Schur solve, n = 16, A blocks of 3, D 1 x 1" "$tmp/s.la" "$tmp/d.la" "0.27"
