#include "common.h"
// Scalar arguments of several types and alignments.
KERNEL kernargs(double *out, char c, short s, int i, long long l, float f, double d,
                unsigned char u8, const int *p) {
  uint t = tid_x();
  out[t] = (double)c + (double)s * 2 + (double)i * 3 + (double)l * 4 + (double)f * 5 +
           d * 6 + (double)u8 * 7 + (double)p[t] * 8;
}
