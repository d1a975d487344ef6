/* SPDX-License-Identifier: MPL-2.0 */
/*
 * num.c — numbers over GMP and MPFR (spec/numbers.md).
 *
 * A tfx_num reproduces a cty number, which is a Go math/big.Float: every
 * operation here computes what the Go operation computes, bit for bit.
 * MPFR's correctly rounded operations agree with Go's (both round the
 * exact result to nearest, ties to even) once the exponent range is Go's
 * (go_range) and Go's flush of tiny results to zero is applied (go_fix).
 * Go's parsing and formatting are not simply "correct rounding" and are
 * reproduced step by step (parse_text, shortest).
 */
#include "num.h"

#include <stdio.h>
#include <gmp.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct tfx_num {
    mpfr_t v;
    uint32_t prec;    /* the number's precision [num.prec]: v's own, or for a
                         whole number held in one word (num_new_word) the
                         precision it stands for */
    bool initial_inf; /* cty's shared PositiveInfinity / NegativeInfinity
                         value [fn.min.initial] */
};

/* Go's exponent range for x = 0.1bbb… × 2^exp [num.value]. */
#define GO_MIN_EXP INT32_MIN
#define GO_MAX_EXP INT32_MAX

typedef struct {
    mpfr_exp_t emin, emax;
} saved_range;

/* Sets MPFR's exponent range to Go's, remembering the caller's. */
static saved_range go_range(void)
{
    saved_range s;

    s.emin = mpfr_get_emin();
    s.emax = mpfr_get_emax();
    mpfr_set_emin(GO_MIN_EXP);
    mpfr_set_emax(GO_MAX_EXP);
    return s;
}

static void restore_range(saved_range s)
{
    mpfr_set_emin(s.emin);
    mpfr_set_emax(s.emax);
}

/* Go flushes to zero every result whose exact value is below 2^(MinExp-1),
 * where MPFR rounds to nearest and may give 2^(MinExp-1) instead; `ternary`
 * is the MPFR return value that computed r. */
static void go_fix(mpfr_ptr r, int ternary)
{
    if (ternary != 0 && mpfr_regular_p(r) && mpfr_get_exp(r) == GO_MIN_EXP
        && mpfr_min_prec(r) == 1 && (ternary > 0) == (mpfr_sgn(r) > 0))
        mpfr_set_zero(r, mpfr_signbit(r) ? -1 : 1);
}

/* A new number of precision prec in a (value +0), or NULL.  Its
 * mantissa lives in the arena right after it (MPFR's custom interface),
 * so a number costs one arena allocation and nothing to free: no malloc
 * by MPFR, no finalizer.  Nothing changes a tfx_num's precision once
 * made (no mpfr_set_prec, mpfr_swap or mpfr_clear on one), which the
 * custom interface requires. */
static tfx_num *num_new(tfx_arena *a, mpfr_prec_t prec)
{
    size_t mant_bytes = mpfr_custom_get_size(prec);
    tfx_num *n;

    if (mant_bytes > SIZE_MAX - sizeof *n || (uintmax_t)prec > UINT32_MAX)
        return NULL;
    /* sizeof *n is a multiple of its alignment, which a limb's is */
    n = tfx_arena_alloc(a, sizeof *n + mant_bytes);
    if (n == NULL)
        return NULL;
    mpfr_custom_init(n + 1, prec);
    mpfr_custom_init_set(n->v, MPFR_ZERO_KIND, 0, prec, n + 1);
    n->prec = (uint32_t)prec;
    n->initial_inf = false;
    return n;
}

/* Sets n, a +0 of 64 bits from num_new, to v, exactly, as
 * mpfr_set_sj(n->v, v, MPFR_RNDN) does, without its general steps: the
 * mantissa's one limb is |v| shifted until its top bit is set, the
 * exponent |v|'s bit length (|v| = 0.1b... x 2^e), the sign v's; v = 0
 * leaves the +0.  Only where a limb is 64 bits without nails; elsewhere
 * mpfr_set_sj.  test_num compares numbers made so with the general
 * reading of the same texts. */
static void set_word(tfx_num *n, int64_t v)
{
#if GMP_NUMB_BITS == 64 && GMP_NAIL_BITS == 0
    uint64_t m = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    mpfr_exp_t e = 64;
    mp_limb_t *limb = (mp_limb_t *)(n + 1); /* num_new's mantissa */

    if (m == 0)
        return;
#if defined(__GNUC__)
    e -= __builtin_clzll(m); /* the leading zero bits (m is not 0) */
    m <<= 64 - e;
#else
    for (unsigned step = 32; step > 0; step /= 2) {
        if ((m >> (64 - step)) == 0) {
            m <<= step;
            e -= (mpfr_exp_t)step;
        }
    }
#endif
    limb[0] = (mp_limb_t)m;
    mpfr_custom_init_set(n->v, v < 0 ? -MPFR_REGULAR_KIND : MPFR_REGULAR_KIND, e,
                         TFX_NUM_PREC_INT, limb);
#else
    mpfr_set_sj(n->v, (intmax_t)v, MPFR_RNDN); /* exact: 64 bits */
#endif
}

/* [num.prec] [num.value] The whole number v (|v| < 2^63) as a number of
 * precision prec (>= 64) held in a mantissa of one word, or NULL if the
 * arena is exhausted: 48 bytes instead of 112 at 512 bits.  It is the
 * same number: v is exact in 64 bits and so at prec, and the precision
 * the number reports (prec_of, tfx_num_prec) is prec.  Every reading of
 * the mantissa gives v: MPFR's operations round the exact values of
 * their operands, whatever the operands' own precisions; word_integer
 * reads the limbs there are; and the shortest digits of a whole number
 * below 2^64 are its own digits at any precision of 64 bits or more (the
 * neighbours of x are at most 1 away, and a text as short as x's that is
 * not x is a whole number at least 1 away: format_small_integer's
 * argument), so text, equality and hashing agree.  test_num compares
 * operations on such numbers with the same on full-width ones. */
static tfx_num *num_new_word(tfx_arena *a, mpfr_prec_t prec, int64_t v)
{
    tfx_num *n = num_new(a, TFX_NUM_PREC_INT);

    if (n == NULL)
        return NULL;
    set_word(n, v);
    n->prec = (uint32_t)prec;
    return n;
}

/* x's precision [num.prec] (not its mantissa's, for num_new_word's). */
static mpfr_prec_t prec_of(const tfx_num *x)
{
    return (mpfr_prec_t)x->prec;
}

static mpfr_prec_t max_prec(mpfr_prec_t p, mpfr_prec_t q)
{
    return p > q ? p : q;
}

/* [num.value] [num.prec] A fast reading of a whole number held in one
 * machine word: true when x is zero (either sign) or a whole number with
 * |x| < 2^63, *v then its value; false when x is anything else or this
 * cannot tell (then mpfr_integer_p and mpfr_get_sj decide, as before).
 * It reads x's limbs: x = 0.1b... * 2^e with its significand in
 * ceil(p / 64) limbs, most significant last and normalised (top bit set);
 * with 1 <= e <= 63 the whole part is the top limb's first e bits, and x
 * is whole exactly when the top limb's other bits and every lower limb
 * are zero, which is mpfr_integer_p's answer, and the whole part is
 * mpfr_get_sj's.  Only where a limb is 64 bits without nails.  test_num
 * compares tfx_num_to_int64 with tfx_num_to_int64_general on random
 * numbers of precision 512, 64 and 53. */
static bool word_integer(const tfx_num *x, int64_t *v)
{
#if GMP_NUMB_BITS == 64 && GMP_NAIL_BITS == 0
    mpfr_exp_t e;
    const mp_limb_t *d;
    size_t n;
    size_t i;
    uint64_t top;

    if (mpfr_zero_p(x->v)) {
        *v = 0;
        return true;
    }
    if (!mpfr_regular_p(x->v))
        return false;
    e = mpfr_get_exp(x->v);                        /* 2^(e-1) <= |x| < 2^e */
    if (e < 1 || e > 63)
        return false;
    d = (const mp_limb_t *)mpfr_custom_get_significand(x->v);
    n = ((size_t)mpfr_get_prec(x->v) + 63) / 64;
    for (i = 0; i + 1 < n; i++)
        if (d[i] != 0)
            return false;
    top = (uint64_t)d[n - 1];
    if ((top << e) != 0)                           /* a fraction */
        return false;
    *v = (int64_t)(top >> (64 - e));
    if (mpfr_signbit(x->v))
        *v = -*v;
    return true;
#else
    (void)x;
    (void)v;
    return false;
#endif
}

const char *tfx_num_err_reason(tfx_num_err err)
{
    switch (err) {
    case TFX_NUM_OK:
        return "no error";
    case TFX_NUM_ERR_NOMEM:
        return "out of memory";
    case TFX_NUM_ERR_SYNTAX:
        return "a number is required";
    case TFX_NUM_ERR_ADD_INF:
        return "can't compute sum of opposing infinities";
    case TFX_NUM_ERR_SUB_INF:
        return "can't subtract infinity from itself";
    case TFX_NUM_ERR_MUL_ZERO_INF:
        return "can't multiply zero by infinity";
    case TFX_NUM_ERR_DIV_INDET:
        return "can't divide zero by zero or infinity by infinity";
    case TFX_NUM_ERR_MOD_INF:
        return "can't use modulo with zero and infinity";
    case TFX_NUM_ERR_MOD_INF_QUOTIENT:
        return "can't use modulo with an infinite dividend or quotient";
    case TFX_NUM_ERR_TOO_LONG:
        return "the text would be longer than the limit";
    }
    return "unknown error";
}

/* ------------------------------------------------------------------------
 * Parsing [num.parse]
 */

/* 5^n as Go's Float.pow5 computes it into p (precision 576 = 512 + 64):
 * exact up to 5^27, then 5^27 times repeated squares of 5 kept at 640
 * bits, each product rounded. */
static void pow5(mpfr_ptr p, uint64_t n)
{
    static const uint64_t five27 = UINT64_C(7450580596923828125);
    mpfr_t f;
    int t;

    if (n <= 27) {
        uint64_t v = 1;

        while (n-- > 0)
            v *= 5;
        mpfr_set_uj(p, v, MPFR_RNDN);
        return;
    }
    mpfr_set_uj(p, five27, MPFR_RNDN);
    n -= 27;
    mpfr_init2(f, mpfr_get_prec(p) + 64);
    mpfr_set_ui(f, 5, MPFR_RNDN);
    while (n > 0) {
        if (n & 1) {
            t = mpfr_mul(p, p, f, MPFR_RNDN);
            go_fix(p, t);
        }
        n >>= 1;
        if (n > 0) {
            t = mpfr_mul(f, f, f, MPFR_RNDN);
            go_fix(f, t);
        }
    }
    mpfr_clear(f);
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Reads text as Go's Float.Parse with base 10 into r (precision 512);
 * false if Go reports an error. */
static bool parse_text(mpfr_ptr r, const char *text, size_t n)
{
    size_t i = 0, ndigits = 0, nfrac = 0, mstart;
    bool neg = false, point = false;
    int64_t exp = 0, exp2, exp5;
    bool binexp = false;
    char *digits;
    mpz_t m;

    if ((n == 3 && (memcmp(text, "Inf", 3) == 0 || memcmp(text, "inf", 3) == 0))
        || (n == 4 && (text[0] == '+' || text[0] == '-')
            && (memcmp(text + 1, "Inf", 3) == 0 || memcmp(text + 1, "inf", 3) == 0))) {
        mpfr_set_inf(r, text[0] == '-' ? -1 : 1);
        return true;
    }
    if (i < n && (text[i] == '+' || text[i] == '-'))
        neg = text[i++] == '-';
    /* mantissa: digits with at most one point */
    mstart = i;
    for (; i < n; i++) {
        if (text[i] == '.' && !point)
            point = true;
        else if (is_digit(text[i])) {
            ndigits++;
            if (point)
                nfrac++;
        } else
            break;
    }
    if (ndigits == 0)
        return false;
    digits = malloc(ndigits + 1);
    if (digits == NULL)
        return false;
    {
        size_t j, k = 0;

        for (j = mstart; j < i; j++)
            if (text[j] != '.')
                digits[k++] = text[j];
        digits[k] = '\0';
    }
    /* exponent: e or p, an optional sign, digits fitting in an int64 */
    if (i < n && (text[i] == 'e' || text[i] == 'E' || text[i] == 'p' || text[i] == 'P')) {
        bool eneg = false, any = false;

        binexp = text[i] == 'p' || text[i] == 'P';
        i++;
        if (i < n && (text[i] == '+' || text[i] == '-'))
            eneg = text[i++] == '-';
        /* accumulate as a negative number: -2^63 fits, 2^63 does not */
        for (; i < n && is_digit(text[i]); i++) {
            int d = text[i] - '0';

            any = true;
            if (exp < (INT64_MIN + d) / 10) {
                free(digits);
                return false;
            }
            exp = exp * 10 - d;
        }
        if (!any || (!eneg && exp == INT64_MIN)) {
            free(digits);
            return false;
        }
        if (!eneg)
            exp = -exp;
    }
    if (i != n) {
        free(digits);
        return false;
    }
    mpz_init_set_str(m, digits, 10);
    free(digits);
    if (mpz_sgn(m) == 0) {
        mpz_clear(m);
        mpfr_set_zero(r, neg ? -1 : 1);
        return true;
    }
    /* m × 2^(exp2 - bitlen(m)) × 5^exp5, exp2 in Go's exponent range */
    exp2 = (int64_t)mpz_sizeinbase(m, 2);
    if (nfrac > (size_t)INT32_MAX) {
        mpz_clear(m);
        return false;
    }
    /* the point divides by 10^nfrac; e multiplies by 10^exp, p by 2^exp */
    exp2 -= (int64_t)nfrac;
    if ((exp > 0 && exp2 > INT64_MAX - exp) || (exp < 0 && exp2 < INT64_MIN - exp)
        || exp2 + exp < GO_MIN_EXP || exp2 + exp > GO_MAX_EXP) {
        mpz_clear(m);
        return false;
    }
    exp2 += exp;
    exp5 = binexp ? -(int64_t)nfrac : exp2 - (int64_t)mpz_sizeinbase(m, 2);
    {
        mpfr_t x;
        int t;
        long bits = (long)mpz_sizeinbase(m, 2);

        mpfr_init2(x, bits < MPFR_PREC_MIN ? MPFR_PREC_MIN : bits);
        mpfr_set_z_2exp(x, m, (mpfr_exp_t)(exp2 - bits), MPFR_RNDN); /* exact */
        mpz_clear(m);
        if (exp5 == 0) {
            t = mpfr_set(r, x, MPFR_RNDN);
        } else {
            mpfr_t p;

            mpfr_init2(p, mpfr_get_prec(r) + 64);
            pow5(p, exp5 < 0 ? (uint64_t)-exp5 : (uint64_t)exp5);
            if (exp5 < 0)
                t = mpfr_div(r, x, p, MPFR_RNDN);
            else
                t = mpfr_mul(r, x, p, MPFR_RNDN);
            mpfr_clear(p);
        }
        mpfr_clear(x);
        go_fix(r, t);
    }
    if (neg)
        mpfr_neg(r, r, MPFR_RNDN);
    return true;
}

/* The most digits parse_short_decimal takes: 10^19 - 1 < 2^64, and
 * 5^19 fits an unsigned long of 64 bits. */
#define SHORT_DECIMAL_DIGITS 19

/* The most digits of an exponent parse_short_decimal and literal_short_ok
 * take: |exponent| <= 9999. */
#define SHORT_EXPONENT_DIGITS 4

/* The largest k with 5^k in an unsigned long (5^27 < 2^64, 5^13 < 2^32);
 * pow5 is exact up to 5^27 too. */
#if ULONG_MAX < UINT64_MAX
#define SHORT_POW5_MAX 13
#else
#define SHORT_POW5_MAX 27
#endif

/* Reads an exponent part "e"/"E", an optional sign and 1 to
 * SHORT_EXPONENT_DIGITS digits that ends text at *i; false when text
 * has none of that shape there (or more digits). */
static bool short_exponent(const char *text, size_t n, size_t *i, int *exp)
{
    size_t j = *i;
    bool neg = false;
    int e = 0;
    unsigned nd = 0;

    if (j >= n || (text[j] != 'e' && text[j] != 'E'))
        return false;
    j++;
    if (j < n && (text[j] == '+' || text[j] == '-'))
        neg = text[j++] == '-';
    for (; j < n; j++) {
        if (!is_digit(text[j]) || nd == SHORT_EXPONENT_DIGITS)
            return false;
        e = e * 10 + (text[j] - '0');
        nd++;
    }
    if (nd == 0)
        return false;
    *i = j;
    *exp = neg ? -e : e;
    return true;
}

/* [num.parse] [num.literal] The fast path of parse_text for the commonest
 * texts: an optional sign, then 1 to 19 digits with at most one point,
 * then perhaps an exponent e or E with an optional sign and 1 to 4 digits
 * (`42`, `-3`, `2.5`, `.1`, `1e3`, `2.5E-3`).  True when it read text
 * into r (precision 512); false when text has another shape or its value
 * is not of the two kinds below, for parse_text to read.  With m the
 * digits (below 2^64) and k = (digits after the point) - exponent, the
 * value is m / 10^k, and it is the same number as parse_text's:
 *  - k <= 0 and m * 10^-k below 2^64: a whole number that 64 of the 512
 *    bits hold, so both have it exactly (parse_text multiplies m by 5^-k,
 *    exact in pow5 and in the product, which has fewer than 128 bits);
 *  - 0 < k <= 27 (13 where an unsigned long has 32 bits): parse_text
 *    gives m * 2^-k / 5^k rounded once to nearest even (5^k is exact in
 *    pow5), and so does mpfr_div_ui by 5^k followed by the exact scaling
 *    by 2^-k (far from the exponent range's ends, where go_fix would act);
 * a zero keeps the sign written.  test_num compares both on random
 * texts. */
static bool parse_short_decimal(mpfr_ptr r, const char *text, size_t n)
{
    size_t i = 0;
    unsigned ndigits = 0;
    unsigned nfrac = 0;
    bool neg = false;
    bool point = false;
    uint64_t m = 0;
    int exp = 0;
    int k;

    if (i < n && (text[i] == '+' || text[i] == '-'))
        neg = text[i++] == '-';
    for (; i < n; i++) {
        if (text[i] == '.' && !point) {
            point = true;
        } else if (is_digit(text[i]) && ndigits < SHORT_DECIMAL_DIGITS) {
            m = m * 10 + (uint64_t)(text[i] - '0');
            ndigits++;
            if (point)
                nfrac++;
        } else {
            break;
        }
    }
    if (ndigits == 0 || (i < n && !short_exponent(text, n, &i, &exp)))
        return false;
    k = (int)nfrac - exp;
    if (k <= 0) {
        int j;

        for (j = 0; j < -k; j++) {
            if (m > UINT64_MAX / 10)
                return false;
            m *= 10;
        }
        mpfr_set_uj(r, m, MPFR_RNDN);              /* exact: 64 bits of 512 */
    } else {
        unsigned long pow5k = 1;
        int j;

        if (k > SHORT_POW5_MAX)
            return false;
        for (j = 0; j < k; j++)
            pow5k *= 5;
        mpfr_set_uj(r, m, MPFR_RNDN);              /* exact: 64 bits of 512 */
        mpfr_div_ui(r, r, pow5k, MPFR_RNDN);       /* the one rounding */
        mpfr_div_2ui(r, r, (unsigned long)k, MPFR_RNDN); /* exact */
    }
    if (neg)
        mpfr_neg(r, r, MPFR_RNDN);
    return true;
}

/* [num.parse] [num.literal] Whether text[0..n) is a sign (optional) and
 * 1 to 18 decimal digits, not a negative zero; *v is then its value.
 * parse_short_decimal reads such a text as that whole number, exactly
 * (and a negative zero as -0, which a machine integer cannot hold). */
static bool parse_word_integer(const char *text, size_t n, int64_t *v)
{
    size_t i = 0;
    bool neg = false;
    int64_t m = 0;

    if (i < n && (text[i] == '+' || text[i] == '-'))
        neg = text[i++] == '-';
    if (i == n || n - i > 18)
        return false;
    for (; i < n; i++) {
        if (!is_digit(text[i]))
            return false;
        m = m * 10 + (text[i] - '0');
    }
    if (neg && m == 0)
        return false;
    *v = neg ? -m : m;
    return true;
}

tfx_num_err tfx_num_parse_n(tfx_arena *a, const char *text, size_t nbytes,
                            const tfx_num **out)
{
    tfx_num *n;
    saved_range s;
    bool ok;
    int64_t v;

    if (parse_word_integer(text, nbytes, &v)) {
        /* the same number in one word of mantissa (num_new_word) */
        n = num_new_word(a, TFX_NUM_PREC_TEXT, v);
        if (n == NULL)
            return TFX_NUM_ERR_NOMEM;
        *out = n;
        return TFX_NUM_OK;
    }
    n = num_new(a, TFX_NUM_PREC_TEXT);
    if (n == NULL)
        return TFX_NUM_ERR_NOMEM;
    s = go_range();
    ok = parse_short_decimal(n->v, text, nbytes) || parse_text(n->v, text, nbytes);
    restore_range(s);
    if (!ok)
        return TFX_NUM_ERR_SYNTAX;
    *out = n;
    return TFX_NUM_OK;
}

tfx_num_err tfx_num_parse_general(tfx_arena *a, const char *text, size_t nbytes,
                                  const tfx_num **out)
{
    tfx_num *n = num_new(a, TFX_NUM_PREC_TEXT);
    saved_range s;
    bool ok;

    if (n == NULL)
        return TFX_NUM_ERR_NOMEM;
    s = go_range();
    ok = parse_text(n->v, text, nbytes);
    restore_range(s);
    if (!ok)
        return TFX_NUM_ERR_SYNTAX;
    *out = n;
    return TFX_NUM_OK;
}

const tfx_num *tfx_num_from_int64(tfx_arena *a, int64_t v)
{
    tfx_num *n = num_new(a, TFX_NUM_PREC_INT);

    if (n == NULL)
        return NULL;
    mpfr_set_sj(n->v, (intmax_t)v, MPFR_RNDN); /* exact: 64 bits */
    return n;
}

const tfx_num *tfx_num_from_double(tfx_arena *a, double v)
{
    tfx_num *n;

    if (isnan(v))
        return NULL;
    n = num_new(a, TFX_NUM_PREC_FLOAT);
    if (n == NULL)
        return NULL;
    mpfr_set_d(n->v, v, MPFR_RNDN); /* exact: 53 bits, sign of zero kept */
    return n;
}

/* [num.literal] The fast path of tfx_num_literal_ok: a token of at most
 * 64 bytes, digits with at most one point, then perhaps an exponent e or
 * E with an optional sign and 1 to 4 digits, is accepted.  The general
 * check agrees: its one condition left for such a token is
 * bitlen(m) + exponent - (digits after the point) within
 * -2^31 .. 2^31-1 (when m is not zero), and with at most 64 digits and
 * |exponent| <= 9999 that is between -10,063 and 10,212.  Any other token
 * is left to the general check (false here means "not decided").
 * test_num compares both on random tokens. */
static bool literal_short_ok(const char *text, size_t n)
{
    bool point = false;
    size_t i;
    int exp;

    if (n > 64)
        return false;
    for (i = 0; i < n; i++) {
        if (text[i] == '.' && !point)
            point = true;
        else if (!is_digit(text[i]))
            break;
    }
    return i == n || short_exponent(text, n, &i, &exp);
}

bool tfx_num_literal_ok(const char *text, size_t n)
{
    return literal_short_ok(text, n) || tfx_num_literal_ok_general(text, n);
}

bool tfx_num_literal_ok_general(const char *text, size_t n)
{
    size_t i = 0;
    size_t nfrac = 0;
    bool point = false;
    bool nonzero = false;
    int64_t exp = 0;
    char *digits;
    size_t ndigits = 0;
    mpz_t m;
    int64_t exp2;
    bool ok;

    /* mantissa: digits with at most one point */
    digits = malloc(n + 1);
    if (digits == NULL)
        return false;
    for (; i < n && text[i] != 'e' && text[i] != 'E'; i++) {
        if (text[i] == '.') {
            if (point) {
                free(digits);
                return false;
            }
            point = true;
            continue;
        }
        if (text[i] < '0' || text[i] > '9') {
            free(digits);
            return false;
        }
        if (text[i] != '0')
            nonzero = true;
        if (nonzero)
            digits[ndigits++] = text[i];
        if (point)
            nfrac++;
    }
    digits[ndigits] = '\0';
    /* exponent: e, an optional sign, digits, fitting in 64 bits */
    if (i < n) {
        bool neg = false;

        i++;
        if (i < n && (text[i] == '+' || text[i] == '-'))
            neg = text[i++] == '-';
        if (i == n) {
            free(digits);
            return false;
        }
        /* accumulate as a negative number: -2^63 fits, 2^63 does not */
        for (; i < n; i++) {
            int d = text[i] - '0';

            if (d < 0 || d > 9 || exp < (INT64_MIN + d) / 10) {
                free(digits);
                return false;
            }
            exp = exp * 10 - d;
        }
        if (!neg) {
            if (exp == INT64_MIN) {
                free(digits);
                return false;
            }
            exp = -exp;
        }
    }
    if (!nonzero) {
        free(digits);
        return true;
    }
    /* bitlen(m) + exp - nfrac, with the exponent in range */
    mpz_init_set_str(m, digits, 10);
    free(digits);
    exp2 = (int64_t)mpz_sizeinbase(m, 2);
    mpz_clear(m);
    if (nfrac > (size_t)INT32_MAX || exp < INT64_MIN + (int64_t)nfrac)
        return false;
    exp -= (int64_t)nfrac;
    ok = (exp >= 0 || exp2 >= INT64_MIN - exp) && exp <= INT64_MAX - exp2;
    if (ok) {
        exp2 += exp;
        ok = exp2 >= INT32_MIN && exp2 <= INT32_MAX;
    }
    return ok;
}

/* ------------------------------------------------------------------------
 * Formatting [num.format]
 */

/* A decimal 0.mant × 10^exp; the empty mantissa is zero.  As Go's
 * math/big decimal, except that it may hold only the leading digits of a
 * long exact decimal: then `more` is set, and the digits after mant[len-1]
 * are not all zero (mant itself has no trailing zeros unless `more`). */
typedef struct {
    char *mant; /* malloc'd digits, not NUL-terminated */
    size_t len;
    int64_t exp;
    bool more;
} decimal;

/* Results of the digit routines below. */
enum { DIGITS_NOMEM = -1, DIGITS_UNDECIDED = 0, DIGITS_OK = 1 };

/* d = the empty decimal (zero), holding nothing to free. */
static void decimal_clear(decimal *d)
{
    d->mant = NULL;
    d->len = 0;
    d->exp = 0;
    d->more = false;
}

/* Binary exponents up to this magnitude get exact decimals; beyond it the
 * exact decimal would have more than a few thousand digits, and the
 * leading digits are enclosed instead (decimal_lead). */
#define EXACT_EXP_MAX 8192

/* d = the exact decimal of n × 2^e, n >= 0; n is clobbered.  false if
 * malloc fails. */
static bool decimal_exact(decimal *d, mpz_ptr n, int64_t e)
{
    size_t nbytes, i;

    decimal_clear(d);
    if (mpz_sgn(n) == 0)
        return true;
    if (e < 0) {
        mp_bitcnt_t tz = mpz_scan1(n, 0);
        uint64_t s = (uint64_t)-e < tz ? (uint64_t)-e : tz;

        mpz_fdiv_q_2exp(n, n, (mp_bitcnt_t)s);
        e += (int64_t)s;
    }
    if (e > 0) {
        mpz_mul_2exp(n, n, (mp_bitcnt_t)e);
        e = 0;
    }
    if (e < 0) {
        mpz_t p;

        mpz_init(p);
        mpz_ui_pow_ui(p, 5, (unsigned long)-e);
        mpz_mul(n, n, p);
        mpz_clear(p);
    }
    nbytes = mpz_sizeinbase(n, 10) + 2;
    d->mant = malloc(nbytes);
    if (d->mant == NULL)
        return false;
    mpz_get_str(d->mant, 10, n);
    d->len = strlen(d->mant);
    d->exp = (int64_t)d->len + e;
    for (i = d->len; i > 0 && d->mant[i - 1] == '0'; i--)
        ;
    d->len = i;
    if (i == 0)
        d->exp = 0;
    return true;
}

/* d = the first k digits of v > 0 (exact, in MPFR's widest exponent
 * range), with `more` set, when they can be proved at working precision
 * wprec: v × 10^(k−D), D the number of v's integer digits, is enclosed
 * between its roundings down and up, and the digits are accepted only if
 * both bounds have the same integer part z with 10^(k−1) <= z < 10^k and
 * the lower bound lies strictly above z (so the exact decimal goes on
 * after the k digits).  The exact decimal of such a v has at least
 * |e|·0.3 digits, so this is the case but for numbers whose digits after
 * the k-th begin with about wprec − 3.33·k bits' worth of zeros or nines;
 * those are DIGITS_UNDECIDED, and the caller retries or goes exact. */
static int decimal_lead(decimal *d, mpfr_srcptr v, size_t k, mpfr_prec_t wprec)
{
    mpfr_t t, plo, phi, lo, hi;
    mpz_t z, zhi, pk;
    int64_t dexp;
    int rc = DIGITS_UNDECIDED;

    mpfr_init2(t, 64);
    mpfr_log10(t, v, MPFR_RNDD);
    dexp = (int64_t)mpfr_get_sj(t, MPFR_RNDD) + 1;
    mpfr_clear(t);
    mpfr_inits2(wprec, plo, phi, lo, hi, (mpfr_ptr)0);
    mpz_inits(z, zhi, pk, (mpz_ptr)0);
    /* the estimate of D is off by at most one either way */
    for (int tries = 0; tries < 3; tries++) {
        int64_t s = (int64_t)k - dexp;
        unsigned long as = (unsigned long)(s < 0 ? -s : s);

        mpfr_ui_pow_ui(plo, 10, as, MPFR_RNDD);
        mpfr_ui_pow_ui(phi, 10, as, MPFR_RNDU);
        if (s >= 0) {
            mpfr_mul(lo, v, plo, MPFR_RNDD);
            mpfr_mul(hi, v, phi, MPFR_RNDU);
        } else {
            mpfr_div(lo, v, phi, MPFR_RNDD);
            mpfr_div(hi, v, plo, MPFR_RNDU);
        }
        mpfr_get_z(z, lo, MPFR_RNDD);
        mpfr_get_z(zhi, hi, MPFR_RNDD);
        if (mpz_cmp(z, zhi) != 0 || mpfr_integer_p(lo))
            break;
        mpz_ui_pow_ui(pk, 10, (unsigned long)k - 1);
        if (mpz_cmp(z, pk) < 0) {
            dexp--;
            continue;
        }
        mpz_mul_ui(pk, pk, 10);
        if (mpz_cmp(z, pk) >= 0) {
            dexp++;
            continue;
        }
        d->mant = malloc(k + 2);
        if (d->mant == NULL) {
            rc = DIGITS_NOMEM;
            break;
        }
        mpz_get_str(d->mant, 10, z);
        d->len = k;
        d->exp = dexp;
        d->more = true;
        rc = DIGITS_OK;
        break;
    }
    mpfr_clears(plo, phi, lo, hi, (mpfr_ptr)0);
    mpz_clears(z, zhi, pk, (mpz_ptr)0);
    return rc;
}

/* d = the decimal of n × 2^e (n >= 0, clobbered): exact when the exponent
 * is small or `exact` is set, otherwise the leading k digits by
 * decimal_lead (raising the working precision twice before giving up). */
static int decimal_of(decimal *d, mpz_ptr n, int64_t e, size_t k, bool exact)
{
    mpfr_t v;
    mpfr_prec_t wprec;
    size_t bits;
    int rc = DIGITS_UNDECIDED;

    /* exact decimals when cheap, or when no fewer than k digits would be
     * wanted anyway (they have at most bitlen(n) + |e| digits) */
    if (exact || mpz_sgn(n) == 0 || (e >= -EXACT_EXP_MAX && e <= EXACT_EXP_MAX)
        || (uint64_t)k >= (uint64_t)mpz_sizeinbase(n, 2) + (uint64_t)(e < 0 ? -e : e))
        return decimal_exact(d, n, e) ? DIGITS_OK : DIGITS_NOMEM;
    decimal_clear(d);
    bits = mpz_sizeinbase(n, 2);
    mpfr_init2(v, bits < MPFR_PREC_MIN ? MPFR_PREC_MIN : (mpfr_prec_t)bits);
    mpfr_set_z_2exp(v, n, (mpfr_exp_t)e, MPFR_RNDN); /* exact */
    wprec = (mpfr_prec_t)((double)k * 3.3219280948873626) + 128;
    for (int i = 0; i < 3 && rc == DIGITS_UNDECIDED; i++, wprec *= 2)
        rc = decimal_lead(d, v, k, wprec);
    mpfr_clear(v);
    return rc;
}

static char decimal_at(const decimal *d, int64_t i)
{
    if (i >= 0 && (uint64_t)i < d->len)
        return d->mant[i];
    return '0';
}

static void decimal_trim(decimal *d)
{
    while (d->len > 0 && d->mant[d->len - 1] == '0')
        d->len--;
    if (d->len == 0)
        d->exp = 0;
}

/* Truncates d to n digits and adds one to the last (with carry); n is
 * below len whenever d->more. */
static void decimal_round_up(decimal *d, size_t n)
{
    if (n >= d->len && !d->more)
        return;
    d->more = false;
    while (n > 0 && d->mant[n - 1] >= '9')
        n--;
    if (n == 0) {
        d->mant[0] = '1';
        d->len = 1;
        d->exp++;
        return;
    }
    d->mant[n - 1]++;
    d->len = n;
}

static void decimal_round_down(decimal *d, size_t n)
{
    if (n < d->len)
        d->len = n;
    d->more = false;
    decimal_trim(d);
}

/* Rounds d to n digits, to nearest, ties to even; n is below len
 * whenever d->more. */
static void decimal_round(decimal *d, size_t n)
{
    bool up;

    if (n >= d->len && !d->more)
        return;
    if (d->mant[n] == '5' && n + 1 == d->len && !d->more)
        up = n > 0 && ((d->mant[n - 1] - '0') & 1) != 0;
    else
        up = d->mant[n] >= '5';
    if (up)
        decimal_round_up(d, n);
    else
        decimal_round_down(d, n);
}

/* Shortens d, the decimal of x, to the digits Go's roundShortest keeps:
 * the bounds are x ∓ ½ ulp at x's precision (the mantissa taken to prec+1
 * bits), usable themselves iff the mantissa is even; the digits of d,
 * lower and upper are compared position by position as Go does.  With
 * leading digits only (`exact` unset, d->more), DIGITS_UNDECIDED when the
 * comparison would need a digit not held. */
static int shortest(decimal *d, mpfr_srcptr x, size_t k, bool exact)
{
    mpz_t mant, t;
    mpfr_exp_t e;
    decimal lower, upper;
    bool inclusive;
    int rc;
    size_t i;

    if (d->len == 0)
        return DIGITS_OK;
    mpz_init(mant);
    mpz_init(t);
    e = mpfr_get_z_2exp(mant, x); /* |mant| has exactly prec bits */
    mpz_abs(mant, mant);
    inclusive = mpz_even_p(mant);
    mpz_mul_2exp(mant, mant, 1);
    e -= 1;
    mpz_sub_ui(t, mant, 1);
    rc = decimal_of(&lower, t, (int64_t)e, k, exact);
    if (rc == DIGITS_OK) {
        mpz_add_ui(t, mant, 1);
        rc = decimal_of(&upper, t, (int64_t)e, k, exact);
        if (rc != DIGITS_OK)
            free(lower.mant);
    }
    mpz_clear(mant);
    mpz_clear(t);
    if (rc != DIGITS_OK)
        return rc;
    rc = d->more ? DIGITS_UNDECIDED : DIGITS_OK; /* if no digit decides */
    for (i = 0; i < d->len; i++) {
        char m, l, u;
        bool okdown, okup;

        /* digit i and whether it is the last of each must be known */
        if ((d->more && i + 1 >= d->len) || (lower.more && i + 1 >= lower.len)
            || (upper.more && i + 1 >= upper.len)) {
            rc = DIGITS_UNDECIDED;
            break;
        }
        m = d->mant[i];
        l = decimal_at(&lower, (int64_t)i);
        u = decimal_at(&upper, (int64_t)i);
        okdown = l != m || (inclusive && !lower.more && i + 1 == lower.len);
        okup = m != u && (inclusive || m + 1 < u || upper.more || i + 1 < upper.len);
        if (okdown || okup) {
            if (okdown && okup)
                decimal_round(d, i + 1);
            else if (okdown)
                decimal_round_down(d, i + 1);
            else
                decimal_round_up(d, i + 1);
            rc = DIGITS_OK;
            break;
        }
    }
    free(lower.mant);
    free(upper.mant);
    return rc;
}

/* MPFR's widest exponent range, remembering the caller's: the powers of
 * ten that scale the smallest and largest numbers lie outside Go's. */
static saved_range wide_range(void)
{
    saved_range s;

    s.emin = mpfr_get_emin();
    s.emax = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    return s;
}

/* decimal_of for x itself (finite, nonzero), in the widest range. */
static int decimal_of_num(decimal *d, mpfr_srcptr x, size_t k, bool exact)
{
    mpz_t n;
    mpfr_exp_t e;
    int rc;

    mpz_init(n);
    e = mpfr_get_z_2exp(n, x);
    mpz_abs(n, n);
    rc = decimal_of(d, n, (int64_t)e, k, exact);
    mpz_clear(n);
    return rc;
}

/* d = the digits [num.shortest] of x (finite): with `exact` unset, from
 * leading digits where the exponent is large (DIGITS_UNDECIDED if they do
 * not suffice), else from exact decimals. */
static int shortest_digits(decimal *d, mpfr_srcptr x, bool exact)
{
    /* Go's decision comes within prec·log10(2) + 2 digits */
    size_t k = (size_t)((double)mpfr_get_prec(x) * 0.30103) + 32;
    saved_range s;
    int rc;

    decimal_clear(d);
    if (!mpfr_regular_p(x))
        return DIGITS_OK;
    s = wide_range();
    rc = decimal_of_num(d, x, k, exact);
    if (rc == DIGITS_OK)
        rc = shortest(d, x, k, exact);
    if (rc != DIGITS_OK) {
        free(d->mant);
        d->mant = NULL;
    }
    restore_range(s);
    return rc;
}

/* shortest_digits, falling back to exact decimals; false if malloc
 * fails. */
static bool num_digits(decimal *d, mpfr_srcptr x)
{
    int rc = shortest_digits(d, x, false);

    if (rc == DIGITS_UNDECIDED)
        rc = shortest_digits(d, x, true);
    return rc == DIGITS_OK;
}

size_t tfx_num_format_max_bytes(const tfx_num *x)
{
    int64_t e, p, n;

    if (!mpfr_regular_p(x->v))
        return 4; /* "-Inf", "+Inf", "-0", "0" */
    e = (int64_t)mpfr_get_exp(x->v);
    p = (int64_t)prec_of(x);
    /* sign, integer digits (one more for a carry), point, fraction */
    n = 1 + (e > 0 ? e / 3 + 2 : 1) + 1 + (p > e ? p - e : 0);
    return (uint64_t)n > SIZE_MAX ? SIZE_MAX : (size_t)n;
}

/* The length of the positional text of digits d (Go's fmtF with the
 * digits' own fraction length), and the fraction length. */
static size_t positional_size(const decimal *d, bool neg, int64_t *fprec)
{
    int64_t nint = d->exp > 0 ? d->exp : 1;

    *fprec = (int64_t)d->len - d->exp;
    if (*fprec < 0)
        *fprec = 0;
    return (size_t)((neg ? 1 : 0) + nint + (*fprec > 0 ? 1 + *fprec : 0));
}

static char *format_inf(tfx_arena *a, const tfx_num *x, size_t *nbytes)
{
    char *out = tfx_arena_strndup(a, mpfr_signbit(x->v) ? "-Inf" : "+Inf", 4);

    if (out != NULL && nbytes != NULL)
        *nbytes = 4;
    return out;
}

/* [num.format] */
static char *format_positional(tfx_arena *a, const tfx_num *x, const decimal *d,
                               size_t *nbytes)
{
    int64_t fprec, i;
    size_t size, k = 0;
    char *out;
    bool neg = mpfr_signbit(x->v) != 0;

    size = positional_size(d, neg, &fprec);
    out = tfx_arena_alloc(a, size + 1);
    if (out == NULL)
        return NULL;
    if (neg)
        out[k++] = '-';
    if (d->exp > 0) {
        for (i = 0; i < d->exp; i++)
            out[k++] = decimal_at(d, i);
    } else
        out[k++] = '0';
    if (fprec > 0) {
        out[k++] = '.';
        for (i = 0; i < fprec; i++)
            out[k++] = decimal_at(d, d->exp + i);
    }
    out[k] = '\0';
    if (nbytes != NULL)
        *nbytes = k;
    return out;
}

/* Whether x is a whole number below 2^63 in magnitude and below 2^p, p
 * its precision (zeros of either sign included); *v is then its value.
 * word_integer answers first where it can. */
static bool small_integer(const tfx_num *x, int64_t *v)
{
    mpfr_exp_t e;

    if (word_integer(x, v))
        return mpfr_zero_p(x->v) || mpfr_get_exp(x->v) <= (mpfr_exp_t)prec_of(x);
    if (mpfr_zero_p(x->v)) {
        *v = 0;
        return true;
    }
    if (!mpfr_number_p(x->v) || !mpfr_integer_p(x->v))
        return false;
    e = mpfr_get_exp(x->v);                        /* |x| < 2^e */
    if (e > 63 || e > (mpfr_exp_t)prec_of(x))
        return false;
    *v = (int64_t)mpfr_get_sj(x->v, MPFR_RNDN);     /* exact */
    return true;
}

/* [num.format] [num.shortest] The fast path of tfx_num_format for a whole
 * number x with |x| < 2^63 and |x| < 2^p, p its precision
 * (small_integer): its decimal digits, "-" first when negative ("-0" for
 * negative zero).  Text('f', -1) writes the shortest digits that read
 * back to x at precision p, padded with zeros up to the point.  x's own
 * digits are those: below 2^p the numbers of precision p next to x are at
 * most 1 away, so what reads back to x lies within 1/2 of it, and a text
 * as short as x's digits or shorter that is not x is a whole number at
 * least 1 away.  (At 2^p and above that fails: 2^60 at 53 bits prints as
 * 1152921504606847000.)  test_num compares both on random whole numbers
 * of each precision and the edges 2^53, 2^63 and -0. */
static char *format_small_integer(tfx_arena *a, const tfx_num *x, int64_t v, size_t *nbytes)
{
    char digits[24];
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    size_t k = sizeof digits;
    size_t len;
    char *out;

    do {
        digits[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u > 0);
    if (mpfr_signbit(x->v))
        digits[--k] = '-';
    len = sizeof digits - k;
    out = tfx_arena_strndup(a, digits + k, len);
    if (out != NULL && nbytes != NULL)
        *nbytes = len;
    return out;
}

char *tfx_num_format(tfx_arena *a, const tfx_num *x, size_t *nbytes)
{
    int64_t v;

    if (small_integer(x, &v))
        return format_small_integer(a, x, v, nbytes);
    return tfx_num_format_general(a, x, nbytes);
}

char *tfx_num_format_general(tfx_arena *a, const tfx_num *x, size_t *nbytes)
{
    decimal d;
    char *out;

    if (mpfr_inf_p(x->v))
        return format_inf(a, x, nbytes);
    if (!num_digits(&d, x->v))
        return NULL;
    out = format_positional(a, x, &d, nbytes);
    free(d.mant);
    return out;
}

/* [num.format.compact] */
char *tfx_num_format_compact(tfx_arena *a, const tfx_num *x, size_t max_positional,
                             size_t *nbytes)
{
    decimal d;
    int64_t fprec;
    char *out;
    char exp[32];
    size_t n;
    bool neg = mpfr_signbit(x->v) != 0;

    if (mpfr_inf_p(x->v))
        return format_inf(a, x, nbytes);
    if (!num_digits(&d, x->v))
        return NULL;
    if (d.len == 0 || positional_size(&d, neg, &fprec) <= max_positional) {
        out = format_positional(a, x, &d, nbytes);
        free(d.mant);
        return out;
    }
    /* d1[.d2…]e±X with the value 0.d1d2… × 10^exp */
    snprintf(exp, sizeof exp, "e%+" PRId64, d.exp - 1);
    n = (neg ? 1 : 0) + d.len + (d.len > 1 ? 1 : 0) + strlen(exp);
    out = tfx_arena_alloc(a, n + 1);
    if (out != NULL) {
        size_t k = 0;

        if (neg)
            out[k++] = '-';
        out[k++] = d.mant[0];
        if (d.len > 1) {
            out[k++] = '.';
            memcpy(out + k, d.mant + 1, d.len - 1);
            k += d.len - 1;
        }
        memcpy(out + k, exp, strlen(exp) + 1);
        if (nbytes != NULL)
            *nbytes = n;
    }
    free(d.mant);
    return out;
}

/* ------------------------------------------------------------------------
 * Go's fmt verbs on big.Float and big.Int [fn.format.float] [fn.format.int]
 */

/* d = x's decimal holding at least its first k digits (exact, or leading
 * digits with `more`), x finite.  false if malloc fails. */
static bool digits_at_least(decimal *d, mpfr_srcptr x, size_t k)
{
    saved_range s;
    int rc;

    decimal_clear(d);
    if (!mpfr_regular_p(x))
        return true;
    s = wide_range();
    rc = decimal_of_num(d, x, k, false);
    if (rc == DIGITS_UNDECIDED)
        rc = decimal_of_num(d, x, k, true);
    restore_range(s);
    return rc == DIGITS_OK;
}

/* Go's decimal.round(n): nothing for n < 0 or n at or past the end; d
 * holds more than n digits when d->more. */
static void go_round(decimal *d, int64_t n)
{
    if (n < 0 || ((uint64_t)n >= d->len && !d->more))
        return;
    decimal_round(d, (size_t)n);
}

static size_t count_decimal(uint64_t v)
{
    size_t n = 1;

    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* The lengths of Go's fmtE and fmtF texts for digits d (no sign). */
static uint64_t go_len_e(int64_t prec, const decimal *d)
{
    int64_t exp = d->len > 0 ? d->exp - 1 : 0;
    uint64_t mag = (uint64_t)(exp < 0 ? -exp : exp);

    return 1 + (prec > 0 ? 1 + (uint64_t)prec : 0) + 2 + (mag < 10 ? 2 : count_decimal(mag));
}

static uint64_t go_len_f(int64_t prec, const decimal *d)
{
    return (uint64_t)(d->exp > 0 ? d->exp : 1) + (prec > 0 ? 1 + (uint64_t)prec : 0);
}

/* Go's fmtE into out: d.ddddde±dd with prec digits after the point. */
static size_t go_fmt_e(char *out, char verb, int64_t prec, const decimal *d)
{
    size_t k = 0;
    int64_t exp = d->len > 0 ? d->exp - 1 : 0;

    if (d->len > 0)
        out[k++] = d->mant[0];
    else
        out[k++] = '0';
    if (prec > 0) {
        int64_t i;
        int64_t m = (int64_t)d->len < prec + 1 ? (int64_t)d->len : prec + 1;

        out[k++] = '.';
        for (i = 1; i < m; i++)
            out[k++] = d->mant[i];
        for (i = m > 1 ? m : 1; i <= prec; i++)
            out[k++] = '0';
    }
    out[k++] = verb;
    out[k++] = exp < 0 ? '-' : '+';
    if (exp < 0)
        exp = -exp;
    if (exp < 10)
        out[k++] = '0';
    k += (size_t)sprintf(out + k, "%" PRId64, exp);
    return k;
}

/* Go's fmtF into out: the integer digits padded with zeros, then prec
 * fraction digits. */
static size_t go_fmt_f(char *out, int64_t prec, const decimal *d)
{
    size_t k = 0;
    int64_t i;

    if (d->exp > 0) {
        for (i = 0; i < d->exp; i++)
            out[k++] = decimal_at(d, i);
    } else
        out[k++] = '0';
    if (prec > 0) {
        out[k++] = '.';
        for (i = 0; i < prec; i++)
            out[k++] = decimal_at(d, d->exp + i);
    }
    return k;
}

/* How Go's Append lays digits out: the form ('e' or 'f', with verb's case
 * for 'e') and the precision it passes to fmtE / fmtF. */
typedef struct {
    char form;
    int64_t prec;
} go_layout;

/* Go's Append after rounding: step 3, "read digits out and format". */
static go_layout go_lay_out(char verb, int64_t prec, bool is_shortest, const decimal *d)
{
    go_layout l;
    int64_t eprec, exp;

    if (verb == 'e' || verb == 'E' || verb == 'f') {
        l.form = verb;
        l.prec = prec;
        return l;
    }
    /* 'g', 'G': trailing fraction zeros are trimmed in the %e form */
    eprec = prec;
    if (eprec > (int64_t)d->len && (int64_t)d->len >= d->exp)
        eprec = (int64_t)d->len;
    if (is_shortest)
        eprec = 6;
    exp = d->exp - 1;
    if (exp < -4 || exp >= eprec) {
        if (prec > (int64_t)d->len)
            prec = (int64_t)d->len;
        l.form = verb == 'g' ? 'e' : 'E';
        l.prec = prec - 1;
        return l;
    }
    if (prec > d->exp)
        prec = (int64_t)d->len;
    l.form = 'f';
    l.prec = prec - d->exp > 0 ? prec - d->exp : 0;
    return l;
}

tfx_num_err tfx_num_format_go(tfx_arena *a, const tfx_num *x, char verb, long prec,
                              size_t max_bytes, const char **out, size_t *nbytes)
{
    decimal d;
    int64_t p = prec;
    bool want_shortest = prec < 0, neg = mpfr_signbit(x->v) != 0;
    go_layout l;
    uint64_t len;
    size_t k = 0;
    char *text;

    if (mpfr_inf_p(x->v)) {
        text = tfx_arena_strndup(a, neg ? "-Inf" : "+Inf", 4);
        if (text == NULL)
            return TFX_NUM_ERR_NOMEM;
        *out = text;
        *nbytes = 4;
        return TFX_NUM_OK;
    }
    /* 1) the decimal: the shortest digits, or enough leading digits to
     *    round (first a few, to learn the exponent) */
    if (want_shortest) {
        if (!num_digits(&d, x->v))
            return TFX_NUM_ERR_NOMEM;
    } else {
        int64_t n;

        if (!digits_at_least(&d, x->v, 40))
            return TFX_NUM_ERR_NOMEM;
        if (verb == 'f')
            n = d.exp + p;
        else if (verb == 'e' || verb == 'E')
            n = 1 + p;
        else
            n = p == 0 ? 1 : p;
        /* refuse before the expensive part: the 'e' and 'f' lengths
         * depend on the digits only through the exponent, which rounding
         * raises by one at most (changing the length by one at most);
         * 'g' needs no more than n digits in any case */
        if (verb != 'g' && verb != 'G') {
            len = (neg ? 1 : 0) + (verb == 'f' ? go_len_f(p, &d) : go_len_e(p, &d));
            if (len > (uint64_t)max_bytes + 1) {
                free(d.mant);
                return TFX_NUM_ERR_TOO_LONG;
            }
        }
        if (d.more && n >= 0 && (uint64_t)n + 2 > d.len) {
            free(d.mant);
            if (!digits_at_least(&d, x->v, (size_t)n + 2))
                return TFX_NUM_ERR_NOMEM;
        }
        /* 2) round */
        go_round(&d, n);
        if (verb == 'g' || verb == 'G')
            p = n;
    }
    /* 3) lay out */
    l = go_lay_out(verb, want_shortest && (verb == 'g' || verb == 'G') ? (int64_t)d.len : p,
                   want_shortest, &d);
    len = (neg ? 1 : 0) + (l.form == 'f' ? go_len_f(l.prec, &d) : go_len_e(l.prec, &d));
    if (len > max_bytes) {
        free(d.mant);
        return TFX_NUM_ERR_TOO_LONG;
    }
    text = tfx_arena_alloc(a, (size_t)len + 1);
    if (text == NULL) {
        free(d.mant);
        return TFX_NUM_ERR_NOMEM;
    }
    if (neg)
        text[k++] = '-';
    if (l.form == 'f')
        k += go_fmt_f(text + k, l.prec, &d);
    else
        k += go_fmt_e(text + k, l.form, l.prec, &d);
    text[k] = '\0';
    free(d.mant);
    *out = text;
    *nbytes = k;
    return TFX_NUM_OK;
}

uint64_t tfx_num_format_work(const tfx_num *x, char verb, long prec)
{
    int64_t e;
    uint64_t intdigits;

    if (!mpfr_regular_p(x->v))
        return 0;
    e = (int64_t)mpfr_get_exp(x->v);
    /* within the exact-decimal range the exact decimal has at most a few
     * thousand digits; the rest of any text is zeros */
    if (e >= -EXACT_EXP_MAX && e <= EXACT_EXP_MAX)
        return 0;
    intdigits = e > 0 ? (uint64_t)e / 3 : 0; /* a little above e·log10(2) */
    switch (verb) {
    case 'd':
        return intdigits;
    case 'f':
        return prec < 0 ? 0 : intdigits + (uint64_t)prec;
    case 'e': case 'E': case 'g': case 'G':
        return prec < 0 ? 0 : (uint64_t)prec + 1;
    default:
        return 0;
    }
}

tfx_num_err tfx_num_format_int(tfx_arena *a, const tfx_num *x, int base, size_t max_bytes,
                               const char **out, size_t *nbytes)
{
    mpz_t z;
    size_t len;
    char *text;

    if (mpfr_zero_p(x->v)) {
        *out = "0";
        *nbytes = 1;
        return TFX_NUM_OK;
    }
    /* bits / per_digit digits at least (4 bits under-counts decimal
     * digits), so that a number far too long is refused before GMP works */
    {
        uint64_t per_digit = base == 2 ? 1 : base == 8 ? 3 : 4;

        if (mpfr_regular_p(x->v) && (uint64_t)mpfr_get_exp(x->v) / per_digit > (uint64_t)max_bytes + 1)
            return TFX_NUM_ERR_TOO_LONG;
    }
    mpz_init(z);
    mpfr_get_z(z, x->v, MPFR_RNDN); /* exact: x is an integer */
    mpz_abs(z, z);
    len = mpz_sizeinbase(z, base);
    text = tfx_arena_alloc(a, len + 2);
    if (text == NULL) {
        mpz_clear(z);
        return TFX_NUM_ERR_NOMEM;
    }
    mpz_get_str(text, base, z);
    mpz_clear(z);
    len = strlen(text);
    if (len > max_bytes)
        return TFX_NUM_ERR_TOO_LONG;
    *out = text;
    *nbytes = len;
    return TFX_NUM_OK;
}

char *tfx_num_round_digits(tfx_arena *a, const tfx_num *x, int ndigits, long *exp10)
{
    mpfr_exp_t e = 0;
    const char *p;
    char *s, *out;
    size_t n;

    *exp10 = 0;
    if (mpfr_zero_p(x->v))
        return tfx_arena_strndup(a, "", 0);
    /* MPFR rounds the exact value to nearest, ties to even, as Go does */
    s = mpfr_get_str(NULL, &e, 10, (size_t)ndigits, x->v, MPFR_RNDN);
    if (s == NULL)
        return NULL;
    p = s[0] == '-' ? s + 1 : s;
    n = strlen(p);
    while (n > 0 && p[n - 1] == '0')
        n--;
    out = tfx_arena_strndup(a, p, n);
    mpfr_free_str(s);
    *exp10 = (long)e;
    return out;
}

/* ------------------------------------------------------------------------
 * Arithmetic [num.arith]
 */



/* [num.arith] [num.value] The fast path of tfx_num_add and tfx_num_sub for
 * whole numbers of one word: x + y (x - y when subtract) when both are
 * whole numbers below 2^63 (word_integer), the result's precision (the
 * larger of theirs) is 64 bits or more and the exact result r is nonzero
 * and below 2^63; false, with nothing made, otherwise.  The general path
 * rounds the exact result to that precision, which holds r exactly (64
 * bits do), so it gives r, and num_new_word holds r as that number.  (A
 * zero result is left to the general path, whose sign rules for it are
 * IEEE's.)  test_num compares both ways on random numbers. */
static bool add_words(tfx_arena *a, const tfx_num *x, const tfx_num *y, bool subtract,
                      const tfx_num **out, tfx_num_err *err)
{
    mpfr_prec_t prec = max_prec(prec_of(x), prec_of(y));
    int64_t u, v;
    tfx_num *r;

    if (prec < 64 || !word_integer(x, &u) || !word_integer(y, &v))
        return false;
    if (subtract)
        v = -v; /* |v| < 2^63: no overflow */
    if ((v > 0 && u > INT64_MAX - v) || (v < 0 && u < -INT64_MAX - v) || u + v == 0)
        return false;
    r = num_new_word(a, prec, u + v);
    *err = r != NULL ? TFX_NUM_OK : TFX_NUM_ERR_NOMEM;
    if (r != NULL)
        *out = r;
    return true;
}

tfx_num_err tfx_num_add(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                        const tfx_num **out)
{
    tfx_num_err err;

    if (add_words(a, x, y, false, out, &err))
        return err;
    return tfx_num_add_general(a, x, y, out);
}

tfx_num_err tfx_num_add_general(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                                const tfx_num **out)
{
    tfx_num *r;
    saved_range s;
    int t;

    if (mpfr_inf_p(x->v) && mpfr_inf_p(y->v) && mpfr_signbit(x->v) != mpfr_signbit(y->v))
        return TFX_NUM_ERR_ADD_INF;
    r = num_new(a, max_prec(prec_of(x), prec_of(y)));
    if (r == NULL)
        return TFX_NUM_ERR_NOMEM;
    s = go_range();
    t = mpfr_add(r->v, x->v, y->v, MPFR_RNDN);
    go_fix(r->v, t);
    restore_range(s);
    *out = r;
    return TFX_NUM_OK;
}

tfx_num_err tfx_num_sub(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                        const tfx_num **out)
{
    tfx_num_err err;

    if (add_words(a, x, y, true, out, &err))
        return err;
    return tfx_num_sub_general(a, x, y, out);
}

tfx_num_err tfx_num_sub_general(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                                const tfx_num **out)
{
    tfx_num *r;
    saved_range s;
    int t;

    if (mpfr_inf_p(x->v) && mpfr_inf_p(y->v) && mpfr_signbit(x->v) == mpfr_signbit(y->v))
        return TFX_NUM_ERR_SUB_INF;
    r = num_new(a, max_prec(prec_of(x), prec_of(y)));
    if (r == NULL)
        return TFX_NUM_ERR_NOMEM;
    s = go_range();
    /* x + (-y): the same signed zeros as IEEE subtraction */
    t = mpfr_sub(r->v, x->v, y->v, MPFR_RNDN);
    go_fix(r->v, t);
    restore_range(s);
    *out = r;
    return TFX_NUM_OK;
}

static bool zero_times_inf(mpfr_srcptr x, mpfr_srcptr y)
{
    return (mpfr_zero_p(x) && mpfr_inf_p(y)) || (mpfr_inf_p(x) && mpfr_zero_p(y));
}

tfx_num_err tfx_num_mul(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                        const tfx_num **out)
{
    tfx_num *r;
    saved_range s;
    mpfr_t p;
    mpfr_prec_t prec;
    int t;

    if (zero_times_inf(x->v, y->v))
        return TFX_NUM_ERR_MUL_ZERO_INF;
    s = go_range();
    /* the product at 512 bits, kept at max(precisions, its own minimum) */
    mpfr_init2(p, TFX_NUM_PREC_TEXT);
    t = mpfr_mul(p, x->v, y->v, MPFR_RNDN);
    go_fix(p, t);
    prec = max_prec(max_prec(prec_of(x), prec_of(y)), mpfr_min_prec(p));
    r = num_new(a, prec);
    if (r != NULL)
        mpfr_set(r->v, p, MPFR_RNDN); /* exact */
    mpfr_clear(p);
    restore_range(s);
    if (r == NULL)
        return TFX_NUM_ERR_NOMEM;
    *out = r;
    return TFX_NUM_OK;
}

tfx_num_err tfx_num_div(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                        const tfx_num **out)
{
    tfx_num *r;
    saved_range s;
    int t;

    if ((mpfr_zero_p(x->v) && mpfr_zero_p(y->v)) || (mpfr_inf_p(x->v) && mpfr_inf_p(y->v)))
        return TFX_NUM_ERR_DIV_INDET;
    r = num_new(a, max_prec(prec_of(x), prec_of(y)));
    if (r == NULL)
        return TFX_NUM_ERR_NOMEM;
    s = go_range();
    t = mpfr_div(r->v, x->v, y->v, MPFR_RNDN);
    go_fix(r->v, t);
    restore_range(s);
    *out = r;
    return TFX_NUM_OK;
}

/* x - y × trunc(x / y), with the quotient at the larger precision, its
 * integer part and the product and difference at x's [num.mod]. */
/* [num.mod] [op.arith] The fast path of tfx_num_mod for whole numbers:
 * x and y whole, neither zero, |x| < 2^53 <= 2^p (p x's precision) and
 * |y| < 2^63 (word_integer), no shared infinity.  The general path
 * computes x - y * trunc(q), q = x / y rounded to nearest at
 * max(p, y's precision) >= 53 bits.  That rounding moves x / y by at most
 * |x / y| * 2^-53 < 1 / |y|, less than x / y's distance to any whole
 * number it is not (at least 1 / |y|), so trunc(q) is the quotient of
 * whole numbers truncated toward zero, C's x / y; then y * trunc(q) and
 * the difference are whole numbers below 2^53 in magnitude, exact at p
 * bits, and x - y * trunc(q) is C's x % y (the sign of x), or +0 when it
 * is zero (a nonzero x less itself is +0 rounding to nearest).  The result
 * has x's precision, as there.  False when x and y are not of that kind
 * (then *err is untouched); else *err is the outcome.  test_num compares
 * both on random operands. */
static bool mod_whole(tfx_arena *a, const tfx_num *x, const tfx_num *y, const tfx_num **out,
                      tfx_num_err *err)
{
    const int64_t limit = INT64_C(1) << 53;
    int64_t xv;
    int64_t yv;
    tfx_num *r;

    if (x->initial_inf || y->initial_inf || prec_of(x) < 53 || !word_integer(x, &xv)
        || !word_integer(y, &yv) || xv == 0 || yv == 0 || xv >= limit || xv <= -limit)
        return false;
    if (prec_of(x) >= TFX_NUM_PREC_INT) {
        r = num_new_word(a, prec_of(x), xv % yv); /* 0 gives +0 */
    } else {
        r = num_new(a, prec_of(x));
        if (r != NULL)
            mpfr_set_sj(r->v, (intmax_t)(xv % yv), MPFR_RNDN); /* exact: below 2^53; 0 gives +0 */
    }
    if (r == NULL) {
        *err = TFX_NUM_ERR_NOMEM;
        return true;
    }
    *out = r;
    *err = TFX_NUM_OK;
    return true;
}

tfx_num_err tfx_num_mod(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                        const tfx_num **out)
{
    tfx_num_err err;

    if (mod_whole(a, x, y, out, &err))
        return err;
    return tfx_num_mod_general(a, x, y, out);
}

tfx_num_err tfx_num_mod_general(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                                const tfx_num **out)
{
    tfx_num *r;
    saved_range s;
    mpfr_t q;
    int t;

    if (x->initial_inf || y->initial_inf) {
        /* [fn.min.initial] upstream multiplies when either operand is
         * its shared infinity value */
        tfx_num_err e = tfx_num_mul(a, x, y, out);

        return e == TFX_NUM_ERR_MUL_ZERO_INF ? TFX_NUM_ERR_MOD_INF : e;
    }
    if (mpfr_zero_p(y->v)) {
        r = num_new(a, prec_of(x));
        if (r == NULL)
            return TFX_NUM_ERR_NOMEM;
        mpfr_set(r->v, x->v, MPFR_RNDN);
        *out = r;
        return TFX_NUM_OK;
    }
    if (mpfr_inf_p(x->v) && mpfr_inf_p(y->v))
        return TFX_NUM_ERR_MOD_INF;
    s = go_range();
    mpfr_init2(q, max_prec(prec_of(x), prec_of(y)));
    t = mpfr_div(q, x->v, y->v, MPFR_RNDN);
    go_fix(q, t);
    if (mpfr_inf_p(q)) {
        mpfr_clear(q);
        restore_range(s);
        return TFX_NUM_ERR_MOD_INF_QUOTIENT;
    }
    if (mpfr_inf_p(y->v)) {
        mpfr_clear(q);
        restore_range(s);
        return TFX_NUM_ERR_MOD_INF;
    }
    mpfr_trunc(q, q); /* exact at q's precision */
    if (mpfr_zero_p(q))
        mpfr_set_zero(q, 1); /* Go's Int has no -0 */
    r = num_new(a, prec_of(x));
    if (r == NULL) {
        mpfr_clear(q);
        restore_range(s);
        return TFX_NUM_ERR_NOMEM;
    }
    t = mpfr_set(r->v, q, MPFR_RNDN);
    go_fix(r->v, t);
    t = mpfr_mul(r->v, y->v, r->v, MPFR_RNDN);
    go_fix(r->v, t);
    t = mpfr_sub(r->v, x->v, r->v, MPFR_RNDN);
    go_fix(r->v, t);
    mpfr_clear(q);
    restore_range(s);
    *out = r;
    return TFX_NUM_OK;
}

const tfx_num *tfx_num_neg(tfx_arena *a, const tfx_num *x)
{
    tfx_num *r = num_new(a, prec_of(x));

    if (r == NULL)
        return NULL;
    mpfr_neg(r->v, x->v, MPFR_RNDN); /* exact */
    return r;
}

/* ------------------------------------------------------------------------
 * Comparison and queries
 */

int tfx_num_cmp(const tfx_num *x, const tfx_num *y)
{
    int c = mpfr_cmp(x->v, y->v);

    return (c > 0) - (c < 0);
}

tfx_num_err tfx_num_equal(const tfx_num *x, const tfx_num *y, bool *out)
{
    decimal dx, dy;

    if (tfx_num_sign(x) != tfx_num_sign(y)) {
        *out = false;
        return TFX_NUM_OK;
    }
    if (!mpfr_regular_p(x->v) || !mpfr_regular_p(y->v)) {
        /* zeros, infinities: equal iff both the same kind */
        *out = mpfr_zero_p(x->v) == mpfr_zero_p(y->v) && mpfr_inf_p(x->v) == mpfr_inf_p(y->v);
        return TFX_NUM_OK;
    }
    if (prec_of(x) == prec_of(y)) {
        /* the shortest text at one precision names one value */
        *out = mpfr_equal_p(x->v, y->v) != 0;
        return TFX_NUM_OK;
    }
    /* the same text iff the same shortest digits at the same place */
    if (!num_digits(&dx, x->v))
        return TFX_NUM_ERR_NOMEM;
    if (!num_digits(&dy, y->v)) {
        free(dx.mant);
        return TFX_NUM_ERR_NOMEM;
    }
    *out = dx.len == dy.len && dx.exp == dy.exp && memcmp(dx.mant, dy.mant, dx.len) == 0;
    free(dx.mant);
    free(dy.mant);
    return TFX_NUM_OK;
}

bool tfx_num_is_integer(const tfx_num *x)
{
    return mpfr_integer_p(x->v) != 0;
}

bool tfx_num_to_int64(const tfx_num *x, int64_t *out)
{
    return word_integer(x, out) || tfx_num_to_int64_general(x, out);
}

bool tfx_num_to_int64_general(const tfx_num *x, int64_t *out)
{
    intmax_t v;

    if (!mpfr_integer_p(x->v) || !mpfr_fits_intmax_p(x->v, MPFR_RNDN))
        return false;
    v = mpfr_get_sj(x->v, MPFR_RNDN);
    if (v < INT64_MIN || v > INT64_MAX)
        return false;
    *out = (int64_t)v;
    return true;
}

bool tfx_num_is_inf(const tfx_num *x)
{
    return mpfr_inf_p(x->v) != 0;
}

int tfx_num_sign(const tfx_num *x)
{
    return mpfr_zero_p(x->v) ? 0 : mpfr_signbit(x->v) ? -1 : 1;
}

bool tfx_num_signbit(const tfx_num *x)
{
    return mpfr_signbit(x->v) != 0;
}

unsigned long tfx_num_prec(const tfx_num *x)
{
    return (unsigned long)prec_of(x);
}

/* ------------------------------------------------------------------------
 * Operations of the numeric functions (spec/functions-numbers.md)
 */

const tfx_num *tfx_num_initial_inf(tfx_arena *a, bool negative)
{
    tfx_num *n = num_new(a, TFX_NUM_PREC_FLOAT);

    if (n == NULL)
        return NULL;
    mpfr_set_inf(n->v, negative ? -1 : 1);
    n->initial_inf = true;
    return n;
}

bool tfx_num_is_initial_inf(const tfx_num *x)
{
    return x->initial_inf;
}

const tfx_num *tfx_num_abs(tfx_arena *a, const tfx_num *x)
{
    tfx_num *r = num_new(a, prec_of(x));

    if (r == NULL)
        return NULL;
    mpfr_abs(r->v, x->v, MPFR_RNDN); /* exact */
    return r;
}

const tfx_num *tfx_num_round_int(tfx_arena *a, const tfx_num *x, bool up)
{
    tfx_num *r = num_new(a, prec_of(x));
    saved_range s;

    if (r == NULL)
        return NULL;
    s = go_range();
    if (up)
        mpfr_ceil(r->v, x->v); /* exact: the integer fits x's precision */
    else
        mpfr_floor(r->v, x->v);
    restore_range(s);
    if (mpfr_zero_p(r->v))
        mpfr_set_zero(r->v, 1); /* Go's Int has no -0 */
    return r;
}

bool tfx_num_to_double(const tfx_num *x, double *out)
{
    double d = mpfr_get_d(x->v, MPFR_RNDN);

    *out = d;
    return !(isinf(d) && !mpfr_inf_p(x->v));
}

tfx_num_err tfx_num_from_digits(tfx_arena *a, bool negative, const unsigned char *digits,
                                size_t n, int base, const tfx_num **out)
{
    tfx_num *r;
    mp_limb_t *lp = NULL;
    mp_size_t limbs;
    size_t bits = 0;
    mpz_t z;

    while (n > 0 && digits[0] == 0) { /* mpn_set_str wants no leading zero */
        digits++;
        n--;
    }
    if (n > 0) {
        /* n digits of at most 6 bits each */
        lp = malloc(((n * 6) / GMP_NUMB_BITS + 2) * sizeof *lp);
        if (lp == NULL)
            return TFX_NUM_ERR_NOMEM;
        limbs = mpn_set_str(lp, digits, n, base);
        (void)mpz_roinit_n(z, lp, limbs);
        bits = mpz_sizeinbase(z, 2);
    }
    r = num_new(a, (mpfr_prec_t)(bits > 64 ? bits : 64));
    if (r == NULL) {
        free(lp);
        return TFX_NUM_ERR_NOMEM;
    }
    if (n > 0) {
        mpfr_set_z(r->v, z, MPFR_RNDN); /* exact */
        if (negative)
            mpfr_neg(r->v, r->v, MPFR_RNDN);
    }
    free(lp);
    *out = r;
    return TFX_NUM_OK;
}

/* Rounds r, computed with ternary t, as a float64 (53 bits, float64's
 * exponent range with its subnormals) and returns it. */
static double as_float64(mpfr_ptr r, int t)
{
    t = mpfr_check_range(r, t, MPFR_RNDN);
    (void)mpfr_subnormalize(r, t, MPFR_RNDN);
    return mpfr_get_d(r, MPFR_RNDN);
}

double tfx_num_float64_fma(double x, double y, double z)
{
    mpfr_t a, b, c, r;
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    double d;
    int t;

    mpfr_inits2(53, a, b, c, r, (mpfr_ptr)NULL);
    mpfr_set_d(a, x, MPFR_RNDN);
    mpfr_set_d(b, y, MPFR_RNDN);
    mpfr_set_d(c, z, MPFR_RNDN);
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    t = mpfr_fma(r, a, b, c, MPFR_RNDN);
    d = as_float64(r, t);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clears(a, b, c, r, (mpfr_ptr)NULL);
    return d;
}

double tfx_num_float64_sqrt(double x)
{
    mpfr_t a, r;
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    double d;
    int t;

    mpfr_inits2(53, a, r, (mpfr_ptr)NULL);
    mpfr_set_d(a, x, MPFR_RNDN);
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    t = mpfr_sqrt(r, a, MPFR_RNDN);
    d = as_float64(r, t);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clears(a, r, (mpfr_ptr)NULL);
    return d;
}
