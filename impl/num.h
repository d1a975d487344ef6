/*
 * num.h — numbers (spec/numbers.md, rules num.*).  The only module that
 * includes GMP and MPFR.
 */
#ifndef TFX_NUM_H
#define TFX_NUM_H

#include <stdbool.h>
#include <stddef.h>

/* Whether text[0..n), a number token (a digit, then digits, dots and
 * exponents), is a number literal upstream accepts [num.literal]: one
 * decimal point at most, before the exponent if any; one exponent at most;
 * and a binary exponent, once the mantissa's digits are read as an
 * integer m and the point and exponent folded into a power of ten e,
 * bitlen(m) + e within -2^31 .. 2^31-1 (always so when m is 0, though
 * the written exponent must still fit in 64 bits). */
bool tfx_num_literal_ok(const char *text, size_t n);

#endif /* TFX_NUM_H */
