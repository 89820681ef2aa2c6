#!/usr/bin/env bash
# Generation time of polyscan on 200 random domains of the harder kind (issue 23;
# codegen/tests/common/hard.rs: 2-3 loop variables, 1-2 parameters, degree-3 terms mixing
# parameters and iterators, `!=`, `or`, a constant box, two statements), as a new user
# runs it: `polyscan gen FILE --timeout T` with the default engine. Each domain that
# generates is then checked with `polyscan verify` (compile, run, compare with brute force)
# for the four parameter sets the differential test uses.
#
# Prints one line per domain (wall seconds, CPU seconds, max RSS in KB, outcome) to
# $OUT/results.tsv and a summary: median, 90th percentile and max of the wall and CPU times
# (a domain stopped by the timeout counts as its time), how many finish within 10 s, how many
# verify. CPU time (user + system, all threads) is the steadier number on a shared machine.
#   bash benches/hard_domains.sh                 # 200 domains, T = 20 s
#   COUNT=40 TIMEOUT=10 bash benches/hard_domains.sh
#   OUT=/tmp/before bash benches/hard_domains.sh # keep the per-domain table
#   POLYSCAN=/tmp/old/polyscan DOMAINS=/tmp/before/domains bash benches/hard_domains.sh
#                                                # another binary, the same domain files
# Outcomes: ok (generated and verified), wrong (verify failed: a bug), overflow (the checked
# code overflowed int64_t at a listed parameter value), unverified (generated,
# but verify, which generates again and compiles, ran out of time), timeout (exit 3),
# killed (still running 5 s after T: the deadline was not checked), unsupported (a loop bound
# of degree >= 3 that is not a binomial), error (any other exit).
# Not part of CI: up to COUNT * (T + 5) s. On the shared machine note `uptime` with it.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-200}
TIMEOUT=${TIMEOUT:-20}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
target=${CARGO_TARGET_DIR:-target}
if [ -z "${POLYSCAN:-}" ]; then
  cargo build --release --quiet --bin polyscan
  POLYSCAN=$target/release/polyscan
fi
polyscan=$POLYSCAN
# The domains come from the test suite's generator, so that the benchmark and the
# differential test see the same inputs.
domains=${DOMAINS:-$OUT/domains}
if [ -z "${DOMAINS:-}" ]; then
  POLYSCAN_HARD_DIR="$domains" POLYSCAN_HARD_COUNT=$COUNT \
    cargo test --release --quiet -p codegen --test differential write_hard_domains >/dev/null
fi
echo "machine: $(uptime)" | tee "$OUT/summary.txt"
results=$OUT/results.tsv
: >"$results"
for f in $(ls "$domains"/hard-*.pset | head -n "$COUNT"); do
  name=$(basename "$f" .pset)
  t0=$EPOCHREALTIME
  set +e
  timeout -k 2 $((TIMEOUT + 5)) /usr/bin/time -f '%U %S %M' -o "$OUT/rss" \
    "$polyscan" gen "$f" --timeout "$TIMEOUT" >/dev/null 2>"$OUT/err"
  rc=$?
  set -e
  t1=$EPOCHREALTIME
  secs=$(echo "$t1 - $t0" | bc -l)
  # A killed run leaves no line from `time`: its CPU time is taken as its wall time.
  read -r user sys rss < <(tail -n 1 "$OUT/rss" 2>/dev/null | grep -E '^[0-9.]+ [0-9.]+ [0-9]+$' || echo "$secs 0 0")
  cpu=$(echo "$user + $sys" | bc -l)
  case $rc in
    0)
      args=()
      IFS=';' read -r -a sets <<<"$(sed -n 's/^# params: *//p' "$f")"
      for s in "${sets[@]}"; do args+=(--params "$s"); done
      set +e
      timeout -k 2 $((2 * TIMEOUT + 60)) "$polyscan" verify "$f" --timeout $((2 * TIMEOUT)) \
        "${args[@]}" >"$OUT/verify-$name.txt" 2>&1
      vrc=$?
      if [ $vrc -eq 1 ]; then
        # A difference: checked arithmetic (exit 3 with a message at an int64_t overflow)
        # tells code run outside its safe parameter range (`gen --stats`) from wrong code.
        # Only here: the checked C is ten times larger and slow to compile.
        timeout -k 2 $((2 * TIMEOUT + 60)) "$polyscan" verify "$f" --timeout $((2 * TIMEOUT)) \
          --check-overflow "${args[@]}" >"$OUT/verify-checked-$name.txt" 2>&1
        grep -q "overflowed int64_t" "$OUT/verify-checked-$name.txt" && vrc=overflow
      fi
      set -e
      case $vrc in
        0) outcome=ok ;;
        overflow) outcome=overflow ;;
        3 | 124 | 137) outcome=unverified ;; # verify itself ran out of time
        *) outcome=wrong ;;
      esac
      ;;
    3) outcome=timeout ;;
    124 | 137) outcome=killed ;;
    *)
      # An allowed outcome, as in the differential test: a bound of degree >= 3 that is
      # not a binomial.
      if grep -q "exact bounds of degree" "$OUT/err"; then outcome=unsupported; else outcome=error; fi
      ;;
  esac
  printf '%s\t%.3f\t%.2f\t%s\t%s\n' "$name" "$secs" "$cpu" "$rss" "$outcome" | tee -a "$results"
done
{
  echo "domains: $(wc -l <"$results"), timeout $TIMEOUT s"
  for col in 2:wall 3:cpu; do
    cut -f"${col%%:*}" "$results" | sort -g | awk -v what="${col#*:}" '{ t[NR] = $1 } END {
      n = NR; m = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2;
      p = t[int(0.9 * n + 0.999999)];
      printf "%s time: median %.3f s, 90th percentile %.3f s, max %.3f s\n", what, m, p, t[n] }'
  done
  awk -F'\t' '$2 <= 10 && $5 == "ok" { k++ } END { printf "generated and verified within 10 s (wall): %d\n", k }' "$results"
  awk -F'\t' '{ c[$5]++ } END { for (o in c) printf "%s: %d\n", o, c[o] }' "$results" | sort
  awk -F'\t' '$4 > m { m = $4 } END { printf "max RSS: %.0f MB\n", m / 1024 }' "$results"
  echo "machine after: $(uptime)"
} | tee -a "$OUT/summary.txt"
