/* SPDX-License-Identifier: MPL-2.0 */
/*
 * num.h — numbers (spec/numbers.md, rules num.*).  The only module that
 * includes GMP and MPFR.
 *
 * A tfx_num is an immutable binary floating-point number in the manner of
 * cty's numbers (Go's math/big.Float): a sign (zero is signed), a binary
 * mantissa with a precision of its own in bits, an exponent within Go's
 * range, or an infinity; never NaN [num.value].  It lives in the arena it
 * was made in and is freed with it.  Every pointer argument is borrowed.
 *
 * Every function that computes sets MPFR's exponent range for the call and
 * restores the caller's before returning.
 */
#ifndef TFX_NUM_H
#define TFX_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef struct tfx_num tfx_num;

/* The precisions by origin [num.prec]. */
#define TFX_NUM_PREC_TEXT 512 /* literals, string conversion, JSON */
#define TFX_NUM_PREC_INT 64   /* integers made by the evaluator */
#define TFX_NUM_PREC_FLOAT 53 /* float64 host values */

/* What an operation reports.  The TFX_NUM_ERR_* of the operators are the
 * "Operation failed" errors of [num.inf-error] and [num.mod.inf];
 * tfx_num_err_reason gives each one's reason text. */
typedef enum tfx_num_err {
    TFX_NUM_OK = 0,
    TFX_NUM_ERR_NOMEM,          /* the arena is exhausted */
    TFX_NUM_ERR_SYNTAX,         /* not a number [num.parse] */
    TFX_NUM_ERR_ADD_INF,        /* +Inf + -Inf */
    TFX_NUM_ERR_SUB_INF,        /* Inf - Inf of one sign */
    TFX_NUM_ERR_MUL_ZERO_INF,   /* 0 * Inf */
    TFX_NUM_ERR_DIV_INDET,      /* 0 / 0, Inf / Inf */
    TFX_NUM_ERR_MOD_INF,        /* x % Inf (upstream: zero times infinity) */
    TFX_NUM_ERR_MOD_INF_QUOTIENT, /* Inf % y, or an infinite quotient
                                    (upstream panics; tfexpr's rule) */
    TFX_NUM_ERR_TOO_LONG        /* a text would pass the caller's bound */
} tfx_num_err;

/* The short reason of an error, for the diagnostic's detail ("can't
 * subtract infinity from itself"); a static string. */
const char *tfx_num_err_reason(tfx_num_err err);

/* Whether text[0..n), a number token (a digit, then digits, dots and
 * exponents), is a number literal upstream accepts [num.literal]: one
 * decimal point at most, before the exponent if any; one exponent at most;
 * and a binary exponent, once the mantissa's digits are read as an
 * integer m and the point and exponent folded into a power of ten e,
 * bitlen(m) + e within -2^31 .. 2^31-1 (always so when m is 0, though
 * the written exponent must still fit in 64 bits). */
bool tfx_num_literal_ok(const char *text, size_t n);

/* tfx_num_literal_ok without its fast path for short tokens.  For tests,
 * which compare the two. */
bool tfx_num_literal_ok_general(const char *text, size_t n);

/* --- Constructors.  Results live in `a`. --- */

/* text[0..nbytes) read as Go's big.ParseFloat(text, 10, 512,
 * ToNearestEven) does, bit for bit [num.parse]: *out is the number, or
 * TFX_NUM_ERR_SYNTAX if upstream rejects the text ("a number is
 * required"), or TFX_NUM_ERR_NOMEM.  Literal tokens are read the same way
 * [num.literal]. */
tfx_num_err tfx_num_parse_n(tfx_arena *a, const char *text, size_t nbytes,
                            const tfx_num **out);

/* tfx_num_parse_n without its fast path for short decimals: every text
 * through the general reader.  For tests, which compare the two. */
tfx_num_err tfx_num_parse_general(tfx_arena *a, const char *text, size_t nbytes,
                                  const tfx_num **out);

/* v at precision 64, exactly; NULL if the arena is exhausted. */
const tfx_num *tfx_num_from_int64(tfx_arena *a, int64_t v);

/* v at precision 53, exactly (signed zero and infinities kept); NULL if v
 * is NaN or the arena is exhausted. */
const tfx_num *tfx_num_from_double(tfx_arena *a, double v);

/* --- Formatting --- */

/* The text of x as Go's Text('f', -1) writes it [num.format]: the shortest
 * decimal that reads back to x at x's precision, positional, "-0",
 * "+Inf", "-Inf".  NUL-terminated in `a`, *nbytes its length (may be
 * NULL); NULL if the arena is exhausted.  Time and memory grow with the
 * length of the result, which tfx_num_format_max_bytes bounds; finding
 * the digits takes time in the precision, not the exponent. */
char *tfx_num_format(tfx_arena *a, const tfx_num *x, size_t *nbytes);

/* tfx_num_format without its fast path for whole numbers that fit a
 * machine word.  For tests, which compare the two. */
char *tfx_num_format_general(tfx_arena *a, const tfx_num *x, size_t *nbytes);

/* As tfx_num_format while the text is at most max_positional bytes;
 * longer, the same shortest digits in exponent form, "d.ddde-12345" (one
 * digit before the point, no point for one digit), which Go's ParseFloat
 * reads back to the same digits [num.format.compact].  Time and memory
 * are then small whatever the exponent. */
char *tfx_num_format_compact(tfx_arena *a, const tfx_num *x, size_t max_positional,
                             size_t *nbytes);

/* x as Go's Float.Append(buf, verb, prec) writes it, for verb 'e', 'E',
 * 'f', 'g' or 'G' [fn.format.float]: "-" for negative numbers (negative
 * zero included), "+Inf"/"-Inf", else the exact decimal of x rounded to
 * nearest (ties to an even digit) to prec digits after the point ('e',
 * 'f') or prec significant digits ('g'; 0 counts as 1), or with prec < 0
 * the shortest digits [num.shortest] ('g' only); 'g' picks the exponent
 * form for decimal exponents below -4 or from the precision (6 for the
 * shortest) up.  TFX_NUM_ERR_TOO_LONG, before any work, when the text
 * would be longer than max_bytes; TFX_NUM_ERR_NOMEM. */
tfx_num_err tfx_num_format_go(tfx_arena *a, const tfx_num *x, char verb, long prec,
                              size_t max_bytes, const char **out, size_t *nbytes);

/* The costly part of tfx_num_format_go(x, verb, prec) (verb 'e' 'E' 'f'
 * 'g' 'G') or of tfx_num_format_int for base 10 (verb 'd'), in digits:
 * the decimal digits that have to come from big-number arithmetic beyond
 * what the number's precision gives cheaply, 0 when there are none.
 * Callers charge it to their work limits before formatting. */
uint64_t tfx_num_format_work(const tfx_num *x, char verb, long prec);

/* The digits of |x|, x an integer (tfx_num_is_integer), in base 2, 8, 10
 * or 16 (lower-case letters), as Go's big.Int writes them ("0" for zero)
 * [fn.format.int]; TFX_NUM_ERR_TOO_LONG, before any work, when longer than
 * max_bytes; TFX_NUM_ERR_NOMEM. */
tfx_num_err tfx_num_format_int(tfx_arena *a, const tfx_num *x, int base, size_t max_bytes,
                               const char **out, size_t *nbytes);

/* An upper bound of the length tfx_num_format gives x, computed in
 * constant time [num.format.size]. */
size_t tfx_num_format_max_bytes(const tfx_num *x);

/* x's exact value rounded to ndigits (>= 2) significant decimal digits,
 * to nearest with ties to an even last digit (Go's decimal rounding, as
 * in Text('g', ndigits)): the digits without trailing zeros,
 * NUL-terminated in `a` ("" for zero), and *exp10 such that
 * |x| = 0.digits x 10^exp10 (0 for zero).  x must be finite.  NULL if the
 * arena is exhausted.  cty's set hash writes numbers with 10 such digits
 * [set.hash]. */
char *tfx_num_round_digits(tfx_arena *a, const tfx_num *x, int ndigits, long *exp10);

/* --- Arithmetic [num.arith]: results in `a`, *out set only on
 * TFX_NUM_OK. --- */

tfx_num_err tfx_num_add(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                        const tfx_num **out);
tfx_num_err tfx_num_sub(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                        const tfx_num **out);
/* tfx_num_add and tfx_num_sub without their fast path for whole numbers
 * of one word (for tests). */
tfx_num_err tfx_num_add_general(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                                const tfx_num **out);
tfx_num_err tfx_num_sub_general(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                                const tfx_num **out);
tfx_num_err tfx_num_mul(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                        const tfx_num **out);
tfx_num_err tfx_num_div(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                        const tfx_num **out);
tfx_num_err tfx_num_mod(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                        const tfx_num **out);
/* The same without its fast path for whole numbers (for tests). */
tfx_num_err tfx_num_mod_general(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                                const tfx_num **out);
/* -x, flipping the sign of zeros too; NULL if the arena is exhausted. */
const tfx_num *tfx_num_neg(tfx_arena *a, const tfx_num *x);

/* --- Comparison --- */

/* -1, 0 or 1 as x is below, equal to or above y, exactly; -0 equals 0, the
 * infinities are below and above everything else [num.cmp]. */
int tfx_num_cmp(const tfx_num *x, const tfx_num *y);

/* cty's == [num.eq]: whether the texts of x and y are equal once "-0" is
 * read as "0" (their shortest digits and the place of the point are
 * compared, never the full texts); TFX_NUM_ERR_NOMEM if malloc fails. */
tfx_num_err tfx_num_equal(const tfx_num *x, const tfx_num *y, bool *out);

/* --- Queries --- */

/* Whether x is finite with no fraction. */
bool tfx_num_is_integer(const tfx_num *x);
/* Whether x is an integer within int64's range; if so, *out is it. */
bool tfx_num_to_int64(const tfx_num *x, int64_t *out);
/* The same without its fast path for numbers of one machine word (for
 * tests). */
bool tfx_num_to_int64_general(const tfx_num *x, int64_t *out);
/* Whether x is +Inf or -Inf. */
bool tfx_num_is_inf(const tfx_num *x);
/* -1, 0 or 1; both zeros give 0. */
int tfx_num_sign(const tfx_num *x);
/* Whether x is negative, -0 and -Inf included. */
bool tfx_num_signbit(const tfx_num *x);
/* x's precision in bits. */
unsigned long tfx_num_prec(const tfx_num *x);

/* --- For the numeric functions (spec/functions-numbers.md) --- */

/* A new 53-bit infinity (negative or positive) that is cty's shared
 * PositiveInfinity / NegativeInfinity value, the initial value of min and
 * max [fn.min.initial]: tfx_num_mod treats it as upstream's Modulo does
 * (a multiplication).  Every other operation gives ordinary numbers.
 * NULL if the arena is exhausted. */
const tfx_num *tfx_num_initial_inf(tfx_arena *a, bool negative);
/* Whether x was made by tfx_num_initial_inf. */
bool tfx_num_is_initial_inf(const tfx_num *x);

/* |x| at x's precision (-0 gives +0); NULL if the arena is exhausted. */
const tfx_num *tfx_num_abs(tfx_arena *a, const tfx_num *x);

/* The ceiling (up) or floor of finite x at x's precision, zero always
 * positive (Go's Float.SetInt of the big.Int); NULL if the arena is
 * exhausted. */
const tfx_num *tfx_num_round_int(tfx_arena *a, const tfx_num *x, bool up);

/* x as the nearest float64 (Go's Float.Float64, ties to even, infinities
 * kept): *out is it; false if a finite x overflowed to an infinity. */
bool tfx_num_to_double(const tfx_num *x, double *out);

/* The integer whose digits (values 0 .. base-1, most significant first)
 * are digits[0..n), negated if `negative`, as Go's Float.SetInt of it: at
 * precision max(64, its bit length), exactly, +0 for zero. */
tfx_num_err tfx_num_from_digits(tfx_arena *a, bool negative, const unsigned char *digits,
                                size_t n, int base, const tfx_num **out);

/* float64 helpers without the C math library: x*y+z with one rounding
 * (the FMA instruction), and the correctly rounded square root (NaN for
 * x < 0). */
double tfx_num_float64_fma(double x, double y, double z);
double tfx_num_float64_sqrt(double x);

#endif /* TFX_NUM_H */
