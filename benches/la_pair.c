/* Times the generated and the OpenBLAS program of one problem in one process (see
   benches/la_programs.sh): both emitted by `polyscan la --emit c`, compiled with
   -DPS_PAIR=generated and -DPS_PAIR=blas, linked with this driver.

   Usage: la_pair ROUNDS REPS PAUSE_MS
   Each round takes REPS samples of the generated sequence and then REPS of the OpenBLAS one
   (back to back, so each back end's threads are as warm as in a program that calls it in a
   loop), after a pause of PAUSE_MS before each back end: the other back end's idle threads
   (OpenBLAS's spin for a while after a call, OpenMP's briefly) are asleep again before the
   next one starts. Prints each back end's best sample, and every round's bests. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void generated_setup(void);
double generated_sample(void);
void blas_setup(void);
double blas_sample(void);

static void pause_ms(long ms)
{
  struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
  while (nanosleep(&t, &t) != 0) {
  }
}

static double best_of(double (*sample)(void), int reps)
{
  double best = 1e300;
  for (int r = 0; r < reps; r++) {
    const double t = sample();
    if (t < best) best = t;
  }
  return best;
}

int main(int argc, char **argv)
{
  if (argc != 4) {
    fprintf(stderr, "usage: %s ROUNDS REPS PAUSE_MS\n", argv[0]);
    return 2;
  }
  const int rounds = atoi(argv[1]), reps = atoi(argv[2]);
  const long pause = atol(argv[3]);
  if (rounds < 1 || reps < 1 || pause < 0) {
    fprintf(stderr, "ROUNDS and REPS must be positive, PAUSE_MS not negative\n");
    return 2;
  }
  /* Each set-up sets its back end's thread count (OpenMP's or OpenBLAS's). */
  generated_setup();
  blas_setup();
  double best_gen = 1e300, best_blas = 1e300;
  for (int r = 1; r <= rounds; r++) {
    pause_ms(pause);
    const double g = best_of(generated_sample, reps);
    pause_ms(pause);
    const double b = best_of(blas_sample, reps);
    if (g < best_gen) best_gen = g;
    if (b < best_blas) best_blas = b;
    printf("round %d: generated %.6f s, blas %.6f s\n", r, g, b);
    fflush(stdout);
  }
  printf("time generated: %.6f s\ntime blas: %.6f s\n", best_gen, best_blas);
  return 0;
}
