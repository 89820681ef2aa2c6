#!/usr/bin/env bash
# Run time of polyscan's loops against the hand-written reference nests of the non-linear
# corpus (tests/nonlinear/*.pset and *.ref.c; tests/nonlinear.rs checks that they visit
# the same instances). Per domain, at its `# bench:` parameters (about 1e8 instances):
# one program for each nest, gcc -O2 -falign-loops=32 (see CFLAGS below), whose statement
# macros add the iterators to a
# checksum and count the instances; ten passes per run, best wall time of 5 runs with
# the two programs alternating; both programs must print
# the same count and checksum. Prints a Markdown table with the loops+ifs of both nests.
#   bash benches/nonlinear.sh [NAME...]     # default: every corpus domain
#   INSTRUCTIONS=1 bash benches/nonlinear.sh   # instruction counts of one pass (valgrind)
# Not part of CI; takes a few minutes. On the shared machine start it in its own session
# at high priority (shared/anchors.md):
#   setsid -w sh -c 'echo -20 > /proc/self/autogroup; exec nice -n -20 bash benches/nonlinear.sh'
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gcc >/dev/null || { echo "gcc is needed" >&2; exit 3; }
cargo build --release --quiet --bin polyscan # a no-op when the binary is fresh
polyscan=target/release/polyscan
# Loops start on 32-byte boundaries in both programs, so that a short inner loop never
# straddles a 64-byte fetch window: on this machine's AMD EPYC, the same five-instruction
# inner loop of sqrt-triangle ran 2x slower in one program than in the other at plain -O2
# only because it crossed such a boundary (callgrind: 0.97x the instructions).
CFLAGS=${CFLAGS:--O2 -falign-loops=32}
corpus=tests/nonlinear
work=${BENCH_WORK:-$(mktemp -d)}
[ -n "${BENCH_WORK:-}" ] || trap 'rm -rf "$work"' EXIT

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in "$corpus"/*.pset; do names+=("$(basename "$f" .pset)"); done
fi

# `for` and `if` tokens outside comments, as "loops+ifs".
shape() {
  perl -0777 -ne 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g;
    my $f = () = /\bfor\b/g; my $i = () = /\bif\b/g; print "$f+$i"' "$1"
}

# Header value of `# KEY:` in a pset, empty when absent.
hdr() { sed -n "s/^# $2: *//p" "$1" | head -n 1; }

# The part of a program both nests share: a statement macro per statement that hashes its
# arguments into `sum` (order-independent, like `sum += i*31 + j`) and counts instances;
# parameters come from argv so that gcc cannot fold them into the loops.
prelude() { # STATEMENT...
  cat <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static uint64_t bench_sum, bench_count;
static inline void bench_visit(uint64_t s, const int64_t *v, int k) {
  uint64_t h = s + 1;
  for (int q = 0; q < k; q++) h = h * 31 + (uint64_t)v[q];
  bench_sum += h;
  bench_count += 1;
}
EOF
  local k=0 s
  for s in "$@"; do
    echo "#define $s(...) bench_visit($k, (const int64_t[]){__VA_ARGS__}, (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))"
    k=$((k + 1))
  done
}

main_fn() { # PARAM...
  local args="" k=1 p
  for p in "$@"; do
    args+="${args:+, }strtoll(argv[$k], 0, 10)"
    k=$((k + 1))
  done
  cat <<EOF
int main(int argc, char **argv) {
  if (argc != $# + 1) { fprintf(stderr, "expected $# parameters\n"); return 2; }
  /* Ten passes: about 1e9 instances, so that a run is long against the noise. */
  for (int rep = 0; rep < PS_PASSES; rep++) scan($args);
  printf("%llu %llu\n", (unsigned long long)bench_count, (unsigned long long)bench_sum);
  return 0;
}
EOF
}

# Wall time of one run in seconds; the program's output goes to $work/out.
wall() { # PROGRAM ARG...
  local t0 t1
  t0=$(date +%s.%N)
  timeout 300 "$@" >"$work/out"
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

# Instructions executed by one run (callgrind's total).
instructions() { # PROGRAM ARG...
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# The smaller of two numbers.
smaller() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi; }

if [ -n "${INSTRUCTIONS:-}" ]; then
  echo "| domain | measure | polyscan | reference | ratio |"
  echo "|---|---|---|---|---|"
else
  echo "| domain | instances | polyscan s | reference s | ratio | polyscan loops+ifs | reference loops+ifs |"
  echo "|---|---|---|---|---|---|---|"
fi
for name in "${names[@]}"; do
  pset="$corpus/$name.pset"
  ref="$corpus/$name.ref.c"
  body=$(grep -v '^[[:space:]]*#' "$pset" | tr '\n' ' ')
  # Parameter names from `[a, b] -> {`, statements from `NAME[` in file order.
  params=()
  param_re='^[[:space:]]*\[([^]]*)\][[:space:]]*->'
  if [[ "$body" =~ $param_re ]]; then
    IFS=', ' read -r -a params <<<"${BASH_REMATCH[1]}"
  fi
  mapfile -t stmts < <(grep -o '[A-Za-z_][A-Za-z0-9_]*\[' <<<"${body#*\{}" | tr -d '[' | awk '!seen[$0]++')
  bench=$(hdr "$pset" bench)
  values=()
  for p in "${params[@]}"; do
    v=$(tr ',' '\n' <<<"$bench" | sed -n "s/^ *$p *= *//p")
    [ -n "$v" ] || { echo "$name: '# bench: $bench' has no value for $p" >&2; exit 1; }
    values+=("$v")
  done
  sig=""
  for p in "${params[@]}"; do sig+="${sig:+, }int64_t $p"; done
  opts=()
  ctx=$(hdr "$pset" context); order=$(hdr "$pset" order)
  [ -z "$ctx" ] || opts+=(--context "$ctx")
  [ -z "$order" ] || opts+=(--order "$order")

  "$polyscan" gen "$pset" "${opts[@]}" --emit c-function -o "$work/$name.gen.c"
  "$polyscan" gen "$pset" "${opts[@]}" --emit c -o "$work/$name.frag.c" # for the shape only
  { prelude "${stmts[@]}"; cat "$work/$name.gen.c"; main_fn "${params[@]}"; } >"$work/gen.c"
  {
    prelude "${stmts[@]}"
    echo "#include \"$PWD/$corpus/ref_helpers.h\""
    echo "void scan(${sig:-void}) {"
    cat "$ref"
    echo "}"
    main_fn "${params[@]}"
  } >"$work/ref.c"
  gcc $CFLAGS -DPS_PASSES=10 -o "$work/gen" "$work/gen.c"
  gcc $CFLAGS -DPS_PASSES=10 -o "$work/ref" "$work/ref.c"
  if [ -n "${INSTRUCTIONS:-}" ]; then
    # Instructions of one pass under callgrind: the same count on every run, whatever
    # the load (but a vector instruction counts as one, like any other).
    gcc $CFLAGS -DPS_PASSES=1 -o "$work/gen1" "$work/gen.c"
    gcc $CFLAGS -DPS_PASSES=1 -o "$work/ref1" "$work/ref.c"
    ig=$(instructions "$work/gen1" "${values[@]}")
    ir=$(instructions "$work/ref1" "${values[@]}")
    echo "| $name | instructions | $ig | $ir | $(printf "%.2f" "$(echo "$ig / $ir" | bc -l)") |"
    continue
  fi

  # Best of RUNS (default 11), the two programs alternating, so that a change of load hits
  # both alike: on this virtual machine single runs of the same program differ by up to
  # 25%, and the best of 5 still moved a domain's ratio by 0.2 between two runs.
  tg="" tr_=""
  for _ in $(seq "${RUNS:-11}"); do
    tg=$(smaller "$tg" "$(wall "$work/gen" "${values[@]}")"); out_gen=$(cat "$work/out")
    tr_=$(smaller "$tr_" "$(wall "$work/ref" "${values[@]}")"); out_ref=$(cat "$work/out")
  done
  tg=$(printf "%.3f" "$tg") tr_=$(printf "%.3f" "$tr_")
  if [ "$out_gen" != "$out_ref" ]; then
    echo "$name at $bench: polyscan's code gives count/checksum $out_gen, the reference $out_ref" >&2
    exit 1
  fi
  ratio=-
  [ "$(echo "$tr_ > 0" | bc -l)" = 0 ] || ratio=$(printf "%.2f" "$(echo "$tg / $tr_" | bc -l)")
  echo "| $name | ${out_gen%% *} | $tg | $tr_ | $ratio | $(shape "$work/$name.frag.c") | $(shape "$ref") |"
done
