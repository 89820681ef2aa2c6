#!/bin/sh
# The 25 application problems of Linnea's Appendix A (examples/la) at their declared sizes:
# the chosen kernel sequence with polyscan's generated kernels, the same sequence with
# OpenBLAS (one thread unless THREADS says otherwise), and the naive evaluation of the formula (explicit inverses,
# products left to right, as Linnea's Julia and numpy baselines do), as programs emitted
# by `polyscan la --emit c`. Each program also runs the naive evaluation, as the reference
# of its residuals (the naive time shown is the generated program's). Prints one markdown
# table on standard output (progress on standard error); the naive column's header names
# the naive evaluation used, and a cell says "(not BLAS)" if a program ran another one.
#
# Usage: sh benches/la_programs.sh [PROBLEM.la ...]        (default: all of examples/la)
# Needs OpenBLAS (libopenblas-dev): the OpenBLAS column links with it.
# Environment:
#   NAIVE            none: no naive evaluation and no residuals (timing runs);
#                    blas: the naive evaluation calls OpenBLAS's DGEMM for products and
#                    LAPACK's DGETRF + DGETRI for inverses, one thread (-DPS_NAIVE_BLAS,
#                    linked with -lopenblas): about 3 minutes for all 25 problems at their
#                    declared sizes per program, 11 minutes for the whole script;
#                    loops: plain loops with Gauss-Jordan inverses (no library), 0.3 to
#                    0.7 GFLOP/s, so a08 and a12 to a15 would take 30 to 90 minutes each
#                    and are skipped by NAIVE_MAX_FLOPS [default blas]
#   NAIVE_MAX_FLOPS  skip the naive evaluation (and so the residual) when its FLOP count
#                    (`polyscan la --json`: naive_flops) exceeds this [default: no limit
#                    with NAIVE=blas, 1.2e11 with loops]
#   BLAS_NAIVE_MAX_S run the naive evaluation again in the BLAS program (for its own
#                    residual) only if it took at most this many seconds [default: TIMEOUT
#                    with NAIVE=blas, 60 with loops]
#   TIMEOUT          seconds per program run [default 900]
#   THREADS          threads for both programs: `--threads N` (the generated kernels' tile
#                    loops in OpenMP, compiled with -fopenmp; OpenBLAS with N threads)
#                    [default 1]
#   REPEAT           samples of each kernel sequence per round, back to back, the best
#                    kept; problems under 1e10 FLOPs more, up to 2e10 FLOPs in all and at
#                    most 50 (a best of two runs of a few milliseconds is one sample of the
#                    host's noise) [default 1]
#   ROUNDS           rounds of the timing driver (benches/la_pair.c): both back ends'
#                    programs are linked into one process (`-DPS_PAIR`), and each round
#                    times the generated sequence, then the OpenBLAS one; each column is
#                    its back end's best sample. Slow stretches of the shared host last
#                    seconds (a07 at two threads, six runs in a row of one program: 0.49
#                    0.46 0.71 0.72 0.43 0.52 s, every kernel of the slow runs 1.5x slower
#                    alike); separate programs alternated every few seconds still let one
#                    column meet them in all four rounds (2026-11-27: a05 at two threads
#                    1.23 0.85 0.93 0.99 s against 0.73 0.81 0.87 0.93 s), samples a
#                    fraction of a second apart meet both columns alike [default 4]
#   MIN_SECONDS      more rounds (up to 12) for short sequences, until the rounds take
#                    about this long together (estimated from the single runs' times): a
#                    slow stretch of the host lasts seconds, and 4 rounds of a17 (0.8 s
#                    each) at two threads were all slow but the OpenBLAS column's last
#                    (2026-11-27: generated 0.154 0.153 0.151 0.143 s, OpenBLAS 0.156 0.154
#                    0.154 0.084; three runs of it alone right after: 1.01, 0.94, 1.00)
#                    [default 10]
#   PAUSE_MS         idle time before each back end's samples in a round, so that the
#                    other back end's threads are asleep again (OpenBLAS's spin for a
#                    while after a call) [default 250]
#   TIME_LIMIT       search time per problem, seconds [default 2]
#   CC               C compiler [default cc]
set -eu
cd "$(dirname "$0")/.."
NAIVE=${NAIVE:-blas}
TIMEOUT=${TIMEOUT:-900}
case "$NAIVE" in
  blas)
    NAIVE_MAX_FLOPS=${NAIVE_MAX_FLOPS:-1e300}
    BLAS_NAIVE_MAX_S=${BLAS_NAIVE_MAX_S:-$TIMEOUT}
    naive_cflags="-DPS_NAIVE_BLAS"
    naive_libs="-lopenblas"
    naive_head="naive, OpenBLAS + LAPACK (s)"
    ;;
  loops)
    NAIVE_MAX_FLOPS=${NAIVE_MAX_FLOPS:-1.2e11}
    BLAS_NAIVE_MAX_S=${BLAS_NAIVE_MAX_S:-60}
    naive_cflags=""
    naive_libs=""
    naive_head="naive, loops (s)"
    ;;
  none)
    NAIVE_MAX_FLOPS=0
    BLAS_NAIVE_MAX_S=0
    naive_cflags=""
    naive_libs=""
    naive_head="naive (s)"
    ;;
  *)
    echo "NAIVE must be blas, loops or none, not '$NAIVE'" >&2
    exit 2
    ;;
esac
TIME_LIMIT=${TIME_LIMIT:-2}
THREADS=${THREADS:-1}
REPEAT=${REPEAT:-1}
ROUNDS=${ROUNDS:-4}
MIN_SECONDS=${MIN_SECONDS:-10}
PAUSE_MS=${PAUSE_MS:-250}
CC=${CC:-cc}
omp_flags=""
if [ "$THREADS" -gt 1 ]; then omp_flags="-fopenmp"; fi
cargo build --release --quiet
PS=target/release/polyscan
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ $# -eq 0 ]; then
  set -- examples/la/*.la
fi

# field NAME FILE: the value after "NAME: " in a program's output.
field() { sed -n "s/^$1: \([^ ]*\).*/\1/p" "$2" | head -n 1; }
# The largest residual of a program's output, or "-".
worst() {
  r=$(sed -n 's/^residual [^:]*: //p' "$1" | sort -g | tail -n 1)
  echo "${r:--}"
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
sci() { awk -v a="$1" 'BEGIN { printf "%.2e", a }'; }
# The smaller of two times, either of which may be empty.
best() {
  if [ -z "$1" ]; then echo "$2"; elif [ -z "$2" ]; then echo "$1"; else
    awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 <= b + 0) ? a : b }'
  fi
}

echo "| problem | sizes | kernel sequence | FLOPs | generated (s) | OpenBLAS (s) | generated / OpenBLAS | $naive_head | naive FLOPs | residual generated | residual OpenBLAS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for f in "$@"; do
  name=$(basename "$f" .la)
  echo "== $name" >&2
  json=$("$PS" la "$f" --json --time-limit "$TIME_LIMIT")
  flops=$(echo "$json" | sed -n 's/.*"flops": \([0-9.e+-]*\), "naive_flops".*/\1/p')
  naive_flops=$(echo "$json" | sed -n 's/.*"naive_flops": \([0-9.e+-]*\).*/\1/p')
  reps=$(awk -v f="$flops" -v r="$REPEAT" \
    'BEGIN { n = f + 0 > 0 && f + 0 < 1e10 ? int(2e10 / f) : r; if (n > 50) n = 50; if (n < r) n = r; print n }')
  # One search for both back ends: the emitted programs must run the same sequence.
  for b in generated blas; do
    "$PS" la "$f" --time-limit "$TIME_LIMIT" --emit c --backend "$b" --threads "$THREADS" \
      --repeat "$reps" -o "$tmp/$b.c"
  done
  gen_flags=""
  if ! le "$naive_flops" "$NAIVE_MAX_FLOPS"; then gen_flags="-DPS_NO_NAIVE"; fi
  # One run of each program for its report (kernels, sizes), the naive evaluation and the
  # residuals: the generated program's naive evaluation (if any) decides whether the
  # OpenBLAS program runs one too. Their times are not used (one sample each).
  # shellcheck disable=SC2086 # the flag lists are words or empty
  $CC -O2 -march=native $omp_flags $naive_cflags $gen_flags -DPS_REPS=1 "$tmp/generated.c" -o "$tmp/generated" -lm $naive_libs
  s_gen=0 s_blas=0
  OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=$THREADS timeout "$TIMEOUT" "$tmp/generated" > "$tmp/generated.out" 2>&1 || s_gen=$?
  [ "$s_gen" -ne 124 ] || s_gen=0
  cat "$tmp/generated.out" >&2
  t_naive=$(field "time naive evaluation" "$tmp/generated.out")
  if [ -z "$t_naive" ]; then
    if [ -n "$gen_flags" ]; then t_naive="skipped"; else t_naive="> $TIMEOUT"; fi
  fi
  # The program names the naive evaluation it ran: it must be the one asked for.
  if [ -n "$naive_cflags" ] && [ -z "$gen_flags" ] &&
    ! grep -q '^naive evaluation: OpenBLAS' "$tmp/generated.out"; then
    t_naive="$t_naive (not BLAS)"
  fi
  r_gen=$(worst "$tmp/generated.out")
  blas_flags="-DPS_NO_NAIVE"
  case "$t_naive" in
    skipped|">"*) ;;
    *) if le "$t_naive" "$BLAS_NAIVE_MAX_S"; then blas_flags=""; fi ;;
  esac
  # shellcheck disable=SC2086
  $CC -O2 -march=native $naive_cflags $blas_flags -DPS_REPS=1 "$tmp/blas.c" -o "$tmp/blas" -lm -lopenblas
  OPENBLAS_NUM_THREADS=$THREADS timeout "$TIMEOUT" "$tmp/blas" > "$tmp/blas.out" 2>&1 || s_blas=$?
  [ "$s_blas" -ne 124 ] || s_blas=0
  cat "$tmp/blas.out" >&2
  # The times: both sequences in one process (benches/la_pair.c), ROUNDS rounds (more for
  # short sequences: MIN_SECONDS) alternating
  # between the back ends, each back end's best sample.
  # shellcheck disable=SC2086
  $CC -O2 -march=native $omp_flags -DPS_NO_NAIVE -DPS_PAIR=generated -c "$tmp/generated.c" -o "$tmp/generated.o"
  $CC -O2 -march=native -DPS_NO_NAIVE -DPS_PAIR=blas -c "$tmp/blas.c" -o "$tmp/blas.o"
  # shellcheck disable=SC2086
  $CC -O2 $omp_flags benches/la_pair.c "$tmp/generated.o" "$tmp/blas.o" -o "$tmp/pair" -lm -lopenblas
  # A round: reps samples of each sequence and two pauses (the single runs' times stand in
  # for a sample's).
  t_one=$(best "$(field "time kernel sequence" "$tmp/generated.out")" "$(field "time kernel sequence" "$tmp/blas.out")")
  rounds=$(awk -v r="$ROUNDS" -v s="$MIN_SECONDS" -v t="${t_one:-0}" -v n="$reps" -v p="$PAUSE_MS" \
    'BEGIN { per = 2 * n * t + 2 * p / 1000; k = per > 0 ? int(s / per + 0.999) : r; if (k > 12) k = 12; if (k < r) k = r; print k }')
  s_pair=0
  OMP_NUM_THREADS=$THREADS OPENBLAS_NUM_THREADS=$THREADS timeout "$TIMEOUT" "$tmp/pair" "$rounds" "$reps" "$PAUSE_MS" > "$tmp/pair.out" 2>&1 || s_pair=$?
  cat "$tmp/pair.out" >&2
  t_gen=$(field "time generated" "$tmp/pair.out")
  t_blas=$(field "time blas" "$tmp/pair.out")
  if [ "$s_pair" -ne 0 ] && [ "$s_pair" -ne 124 ]; then s_gen=$s_pair s_blas=$s_pair; fi
  [ -n "$t_gen" ] || t_gen="timeout"
  [ "$s_gen" -eq 0 ] || t_gen="$t_gen (exit $s_gen)"
  [ -n "$t_blas" ] || t_blas="timeout"
  [ "$s_blas" -eq 0 ] || t_blas="$t_blas (exit $s_blas)"
  r_blas=$(worst "$tmp/blas.out")
  seq_gen=$(sed -n 's/^kernels: //p' "$tmp/generated.out")
  seq_blas=$(sed -n 's/^kernels: //p' "$tmp/blas.out")
  [ "$seq_gen" = "$seq_blas" ] || seq_gen="$seq_gen (OpenBLAS program: $seq_blas)"
  sizes=$(sed -n 's/^sizes: //p' "$tmp/generated.out")
  ratio=$(awk -v g="$t_gen" -v b="$t_blas" 'BEGIN { if (g + 0 > 0 && b + 0 > 0) printf "%.2f", g / b; else print "-" }')
  echo "| $name | $sizes | $seq_gen | $(sci "$flops") | $t_gen | $t_blas | $ratio | $t_naive | $(sci "$naive_flops") | $r_gen | $r_blas |"
done
