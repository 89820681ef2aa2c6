#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
