#!/bin/sh
# GFLOP/s of the kernels `polyscan kernel` emits (GEMM, SYRK, SYMM, TRMM, GEMV, TRSM, TRSV,
# POTRF, GETRF, TRTRI, LAUUM) against naive loops and OpenBLAS on the same data in the same run
# (not part of CI). One thread: timed in thread CPU time. `--threads N`: the kernels are
# emitted with `--openmp` and built with -fopenmp, run with OMP_NUM_THREADS=N beside
# OpenBLAS on N threads, timed in wall-clock time (the naive nests stay serial).
#   sh benches/kernels.sh              # n = 256 512 1024 2048, best of 5, all kernels
#   sh benches/kernels.sh --quick      # n = 512 1024, best of 3
#   sh benches/kernels.sh --gemm-only  # (combinable with --quick)
#   sh benches/kernels.sh --solvers-only  # TRSM, TRSV, POTRF, GETRF, TRTRI, LAUUM (with --quick too)
#   sh benches/kernels.sh --only POTRF    # one kernel
#   sh benches/kernels.sh --threads 2     # both sides on two threads
#   POLYSCAN=/tmp/old/polyscan sh benches/kernels.sh   # the kernels of another build
#   sh benches/kernels.sh --no-naive      # skip the naive nests (slow at n = 2048)
#   sh benches/kernels.sh --sizes "512 1024 2048" --reps 3
#   sh benches/kernels.sh --passes 3      # measure everything three times over, keep the best
#                                         # (a slow stretch of the host then meets one pass)
# Installs libopenblas-dev if missing (Debian). As root, raises its own scheduling group's
# priority (the machine is shared; see /work/shared/anchors.md section 4).
set -eu
cd "$(dirname "$0")/.."
sizes="256 512 1024 2048"; reps=5; passes=1; only=""; threads=1; naive=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) sizes="512 1024"; reps=3 ;;
    --gemm-only) only="$only --gemm-only" ;;
    --solvers-only) only="$only --solvers-only" ;;
    --only) shift; only="$only --only=${1:?--only needs a kernel name}" ;;
    --no-naive) naive="--no-naive" ;;
    --threads) shift; threads="${1:-}" ;;
    --threads=*) threads="${1#--threads=}" ;;
    --sizes) shift; sizes="${1:?--sizes needs a list}" ;;
    --reps) shift; reps="${1:?--reps needs a count}" ;;
    --passes) shift; passes="${1:?--passes needs a count}" ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
case "$threads" in ''|*[!0-9]*|0) echo "--threads needs a positive integer" >&2; exit 2 ;; esac
omp=""; fomp=""
if [ "$threads" -gt 1 ]; then omp="--openmp"; fomp="-fopenmp"; fi
if ! [ -e /usr/include/x86_64-linux-gnu/cblas.h ] && ! [ -e /usr/include/cblas.h ]; then
  apt-get install -y libopenblas-dev >/dev/null
fi
command -v gcc >/dev/null || { echo "gcc is needed" >&2; exit 3; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# POLYSCAN=path: another binary (an earlier build, for a before/after in one session).
if [ -z "${POLYSCAN:-}" ]; then
  cargo build --release --quiet
  POLYSCAN=./target/release/polyscan
fi
for k in GEMM SYRK SYMM TRMM GEMV TRSM TRSV POTRF GETRF TRTRI LAUUM; do
  "$POLYSCAN" kernel $k --layout col $omp -o "$work/$k.c"
done
gcc -O2 -march=native $fomp -o "$work/bench" "$work"/GEMM.c "$work"/SYRK.c "$work"/SYMM.c "$work"/TRMM.c \
  "$work"/GEMV.c "$work"/TRSM.c "$work"/TRSV.c "$work"/POTRF.c "$work"/GETRF.c "$work"/TRTRI.c "$work"/LAUUM.c \
  benches/kernels_driver.c -lopenblas -lm
echo "threads: $threads; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| kernel | n | polyscan GFLOP/s | naive | OpenBLAS | polyscan / OpenBLAS | polyscan / peak ($threads x 51.3) |"
echo "|---|---|---|---|---|---|---|"
export OPENBLAS_NUM_THREADS="$threads" OMP_NUM_THREADS="$threads"
if [ "$(id -u)" = 0 ] && [ -w /proc/self/autogroup ]; then
  setsid -w sh -c 'echo -20 > /proc/self/autogroup; exec nice -n -20 "$0" "$@"' \
    "$work/bench" --reps=$reps --passes=$passes --threads=$threads $naive $only $sizes
else
  "$work/bench" --reps=$reps --passes=$passes --threads=$threads $naive $only $sizes
fi
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
