/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_num.c — unit tests of the numbers (num.h, spec/numbers.md): every
 * verified example of the design notes' rules N3–N22, asserted exactly.
 */
#include "num.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"

static tfx_arena *A;

/* A 512-bit number from text (a literal), aborting the test on failure. */
static const tfx_num *P(const char *text)
{
    const tfx_num *n = NULL;

    if (tfx_num_parse_n(A, text, strlen(text), &n) != TFX_NUM_OK) {
        fprintf(stderr, "cannot parse %s\n", text);
        exit(2);
    }
    return n;
}

static const char *S(const tfx_num *n)
{
    return n == NULL ? "(error)" : tfx_num_format(A, n, NULL);
}

/* Binary operations by name; NULL on error. */
static const tfx_num *op(char o, const tfx_num *x, const tfx_num *y)
{
    const tfx_num *r = NULL;
    tfx_num_err e = TFX_NUM_ERR_NOMEM;

    if (x == NULL || y == NULL)
        return NULL;
    switch (o) {
    case '+':
        e = tfx_num_add(A, x, y, &r);
        break;
    case '-':
        e = tfx_num_sub(A, x, y, &r);
        break;
    case '*':
        e = tfx_num_mul(A, x, y, &r);
        break;
    case '/':
        e = tfx_num_div(A, x, y, &r);
        break;
    case '%':
        e = tfx_num_mod(A, x, y, &r);
        break;
    default:
        break;
    }
    return e == TFX_NUM_OK ? r : NULL;
}

static tfx_num_err err_of(char o, const tfx_num *x, const tfx_num *y)
{
    const tfx_num *r = NULL;

    switch (o) {
    case '+':
        return tfx_num_add(A, x, y, &r);
    case '-':
        return tfx_num_sub(A, x, y, &r);
    case '*':
        return tfx_num_mul(A, x, y, &r);
    case '/':
        return tfx_num_div(A, x, y, &r);
    default:
        return tfx_num_mod(A, x, y, &r);
    }
}

/* x op y formatted, for 512-bit literal operands. */
static const char *T(const char *x, char o, const char *y)
{
    return S(op(o, P(x), P(y)));
}

static bool EQ(const tfx_num *x, const tfx_num *y)
{
    bool eq = false;

    if (tfx_num_equal(x, y, &eq) != TFX_NUM_OK)
        return false;
    return eq;
}

static const char *repeat(char c, size_t n, const char *prefix, const char *suffix)
{
    size_t np = strlen(prefix), ns = strlen(suffix);
    char *s = tfx_arena_alloc(A, np + n + ns + 1);

    if (s == NULL)
        exit(2);
    snprintf(s, np + n + ns + 1, "%s%*s%s", prefix, (int)n, "", suffix);
    memset(s + np, c, n);
    return s;
}

static void test_parse(void)
{
    static const char *const bad[] = {" 1", "1 ", "0x10", "0b101", "1_000", "NaN", "infinity",
                                      "", "1e", "\xd9\xa1", "\xef\xbc\x91", ".", "+", "1e+",
                                      "1..2", "1e1e1", "INF", "1p", "e5", "--1",
                                      "1e9223372036854775808", "1e2147483647", "1p2147483647"};
    const tfx_num *n = NULL;
    size_t i;

    /* N11 */
    CHECK_STR(S(P(".5")), "0.5");
    CHECK_STR(S(P("5.")), "5");
    CHECK_STR(S(P("1p4")), "16");
    CHECK_STR(S(P("1p-2")), "0.25");
    CHECK_STR(S(P("1.5P3")), "12");
    CHECK_STR(S(P("Inf")), "+Inf");
    CHECK_STR(S(P("inf")), "+Inf");
    CHECK_STR(S(P("+Inf")), "+Inf");
    CHECK_STR(S(P("-Inf")), "-Inf");
    CHECK_STR(S(P("007")), "7");
    CHECK_STR(S(P("-0")), "-0");
    CHECK_STR(S(P("+1E2")), "100");
    CHECK(tfx_num_prec(P("1")) == 512);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(tfx_num_parse_n(A, bad[i], strlen(bad[i]), &n) == TFX_NUM_ERR_SYNTAX);
    /* N12 */
    CHECK(!tfx_num_is_inf(P("1e646456992")));
    CHECK_STR(S(P("1e646456993")), "+Inf");
    CHECK_STR(S(P("1e-1000000000")), "0");
    CHECK(EQ(P("1e-1000000000"), P("0")));
    CHECK_STR(T("1e400000000", '*', "1e400000000"), "+Inf");
    CHECK_STR(S(P("0e99999999999999999")), "0");
    /* the literal check and the parser agree */
    CHECK(tfx_num_literal_ok("1e646456993", 11));
    CHECK(!tfx_num_literal_ok("1e2147483647", 12));
}

static void test_format(void)
{
    const tfx_num *third = tfx_num_from_double(A, 1.0 / 3.0);

    /* N8 */
    CHECK_STR(T("0.1", '+', "0.2"), "0.3");
    CHECK_STR(T("0.1", '+', "0.7"), "0.8");
    CHECK_STR(T("1", '/', "3"), repeat('3', 154, "0.", "5"));
    CHECK_STR(T("2", '/', "3"), repeat('6', 153, "0.", "7"));
    CHECK_STR(T("1", '-', "0.9"), repeat('0', 153, "0.1", "3"));
    CHECK_STR(T("0.1", '*', "0.1"), repeat('0', 153, "0.01", "1"));
    CHECK_STR(T("1.0e-10", '*', "1e10"), repeat('9', 154, "0.", ""));
    CHECK_STR(T("10", '/', "4"), "2.5");
    CHECK_STR(S(op('*', op('/', P("1"), P("3")), P("3"))), "1");
    CHECK_STR(S(P("1e100")), repeat('0', 100, "1", ""));
    CHECK_STR(S(P("1e1000")), repeat('0', 1000, "1", ""));
    CHECK_STR(S(P("1e-30")), "0.000000000000000000000000000001");
    CHECK_STR(S(P("1.5e-7")), "0.00000015");
    CHECK_STR(S(P("123.456e5")), "12345600");
    CHECK_STR(S(third), "0.3333333333333333");
    CHECK(tfx_num_prec(third) == 53);
    CHECK_STR(S(op('+', third, P("0"))), "0.333333333333333314829616256247390992939472198486328125");
    /* N9 */
    CHECK_STR(S(P("1.0")), "1");
    CHECK_STR(S(P("1.50")), "1.5");
    CHECK_STR(S(P("1e2")), "100");
    CHECK_STR(S(P("1e21")), "1000000000000000000000");
    CHECK_STR(S(P("1e30")), "1000000000000000000000000000000");
    /* N10 */
    CHECK_STR(T("1", '/', "0"), "+Inf");
    CHECK_STR(T("-1", '/', "0"), "-Inf");
    /* N13 */
    CHECK_STR(T("123456789012345678901234567890", '+', "1"), "123456789012345678901234567891");
    CHECK_STR(S(P("9007199254740993")), "9007199254740993");
    CHECK_STR(T("1e20", '+', "1"), "100000000000000000001");
    /* sizes */
    CHECK(tfx_num_format_max_bytes(P("1e1000")) >= 1001);
    CHECK(tfx_num_format_max_bytes(P("1e-30")) >= 32);
    CHECK(tfx_num_format_max_bytes(P("1e646456992")) >= 646456993);
    CHECK(tfx_num_format_max_bytes(P("-Inf")) == 4);
}

/* The compact text of n with positional text up to max bytes. */
static const char *C(const tfx_num *n, size_t max)
{
    return n == NULL ? "(error)" : tfx_num_format_compact(A, n, max, NULL);
}

/* [num.format.compact] [num.shortest]: a decimal text of fewer than 154
 * significant digits, read at 512 bits, has those digits as its shortest
 * digits, whatever its exponent: the leading digits of numbers far past
 * the exact-decimal range are found by enclosure (num.c decimal_lead),
 * and must give the same digits. */
static void test_format_compact(void)
{
    CHECK_STR(C(P("1e-600000000"), 4096), "1e-600000000");
    CHECK_STR(C(P("1e646456992"), 4096), "1e+646456992");
    CHECK_STR(C(P("-123456789e-600000000"), 4096), "-1.23456789e-599999992");
    CHECK_STR(C(P("9.999999999999999999999e646456991"), 4096), "9.999999999999999999999e+646456991");
    CHECK_STR(C(P("1.0000000000000000000000000000000000001e-646456991"), 4096),
              "1.0000000000000000000000000000000000001e-646456991");
    CHECK_STR(C(P("31415926535897932384626433832795028841971e-123456789"), 4096),
              "3.1415926535897932384626433832795028841971e-123456749");
    CHECK_STR(C(P("1e9000"), 4096), "1e+9000");
    CHECK_STR(C(P("1e-9000"), 4096), "1e-9000");
    /* the smallest and largest values whose text is positional at 10 */
    CHECK_STR(C(P("0.0000001"), 9), "0.0000001");
    CHECK_STR(C(P("0.0000001"), 8), "1e-7");
    CHECK_STR(C(P("-12345.5"), 8), "-12345.5");
    CHECK_STR(C(P("-12345.5"), 7), "-1.23455e+4");
    CHECK_STR(C(P("0"), 0), "0");
    CHECK_STR(C(P("-0"), 0), "-0");
    CHECK_STR(C(P("-Inf"), 0), "-Inf");
    /* positional text far past the exact range: zeros, then the digits */
    CHECK_STR(S(P("7e-20000")), repeat('0', 19999, "0.", "7"));
    CHECK_STR(S(P("25e20000")), repeat('0', 20000, "25", ""));
}

static void test_arith(void)
{
    const tfx_num *one64 = tfx_num_from_int64(A, 1);
    const tfx_num *three64 = tfx_num_from_int64(A, 3);
    const tfx_num *inf = op('/', P("1"), P("0"));
    const tfx_num *ninf = op('/', P("-1"), P("0"));
    const tfx_num *r;

    /* N3 */
    r = op('/', one64, three64);
    CHECK_STR(S(r), "0.33333333333333333334");
    CHECK(tfx_num_prec(r) == 64);
    CHECK(tfx_num_prec(op('/', three64, P("3"))) == 512);
    /* N4 */
    CHECK_STR(T("1.1", '*', "1.1"), repeat('0', 151, "1.21", "1"));
    CHECK_STR(T("0.1", '*', "3"), "0.3");
    CHECK_STR(T("100", '*', "1.1"), "110");
    r = op('*', three64, P("1.1"));
    CHECK(tfx_num_prec(r) == 512);
    r = op('*', three64, three64);
    CHECK(tfx_num_prec(r) == 64);
    CHECK_STR(S(r), "9");
    /* N5 */
    CHECK_STR(S(tfx_num_neg(A, P("0"))), "-0");
    CHECK_STR(S(P("-0.0")), "-0");
    CHECK_STR(T("0", '*', "-1"), "-0");
    CHECK_STR(T("0", '-', "0"), "0");
    CHECK_STR(T("-0", '+', "0"), "0");
    CHECK_STR(T("-0", '-', "0"), "-0");
    CHECK_STR(S(tfx_num_neg(A, P("-Inf"))), "+Inf");
    /* N6 */
    CHECK(EQ(P("-0"), P("0")));
    /* N14 */
    CHECK_STR(S(op('+', inf, inf)), "+Inf");
    CHECK(err_of('-', inf, inf) == TFX_NUM_ERR_SUB_INF);
    CHECK(err_of('-', ninf, ninf) == TFX_NUM_ERR_SUB_INF);
    CHECK_STR(S(op('-', inf, ninf)), "+Inf");
    CHECK(err_of('+', inf, ninf) == TFX_NUM_ERR_ADD_INF);
    CHECK(err_of('*', P("0"), inf) == TFX_NUM_ERR_MUL_ZERO_INF);
    CHECK(err_of('*', ninf, P("-0")) == TFX_NUM_ERR_MUL_ZERO_INF);
    CHECK(err_of('/', inf, inf) == TFX_NUM_ERR_DIV_INDET);
    CHECK(err_of('/', P("0"), P("0")) == TFX_NUM_ERR_DIV_INDET);
    CHECK_STR(tfx_num_err_reason(TFX_NUM_ERR_SUB_INF), "can't subtract infinity from itself");
    CHECK_STR(tfx_num_err_reason(TFX_NUM_ERR_ADD_INF), "can't compute sum of opposing infinities");
    CHECK_STR(tfx_num_err_reason(TFX_NUM_ERR_MUL_ZERO_INF), "can't multiply zero by infinity");
    CHECK_STR(tfx_num_err_reason(TFX_NUM_ERR_DIV_INDET),
              "can't divide zero by zero or infinity by infinity");
    /* N15 */
    CHECK_STR(T("1", '/', "-0"), "-Inf");
    CHECK_STR(T("0", '/', "5"), "0");
    CHECK_STR(S(op('/', P("5"), inf)), "0");
    /* N16 */
    CHECK_STR(T("5", '%', "3"), "2");
    CHECK_STR(T("-5", '%', "3"), "-2");
    CHECK_STR(T("5", '%', "-3"), "2");
    CHECK_STR(T("-5", '%', "-3"), "-2");
    CHECK_STR(T("5.5", '%', "2"), "1.5");
    CHECK_STR(T("-5.5", '%', "2"), "-1.5");
    CHECK_STR(T("5", '%', "1.5"), "0.5");
    CHECK_STR(T("7", '%', "2.5"), "2");
    CHECK_STR(T("-7", '%', "2.5"), "-2");
    CHECK_STR(T("7", '%', "-2.5"), "2");
    CHECK_STR(T("0.75", '%', "0.5"), "0.25");
    CHECK_STR(T("12345678901234567890", '%', "7"), "1");
    CHECK(tfx_num_prec(op('%', three64, P("2"))) == 64);
    /* N17 */
    CHECK_STR(T("0.3", '%', "0.1"), "0");
    CHECK_STR(T("1", '%', "0.1"), "0");
    CHECK_STR(T("7", '%', "0.5"), "0");
    /* N18 */
    CHECK_STR(T("5", '%', "0"), "5");
    CHECK_STR(T("-5", '%', "0"), "-5");
    CHECK_STR(T("0", '%', "0"), "0");
    CHECK_STR(T("5", '%', "-0"), "5");
    CHECK_STR(T("-0", '%', "5"), "-0");
    CHECK_STR(S(op('%', inf, P("0"))), "+Inf");
    /* N19 */
    CHECK(err_of('%', P("5"), inf) == TFX_NUM_ERR_MOD_INF);
    CHECK(err_of('%', inf, P("5")) == TFX_NUM_ERR_MOD_INF_QUOTIENT);
    CHECK(err_of('%', inf, inf) == TFX_NUM_ERR_MOD_INF);
    CHECK(err_of('%', P("1e600000000"), P("1e-600000000")) == TFX_NUM_ERR_MOD_INF_QUOTIENT);
    CHECK_STR(tfx_num_err_reason(TFX_NUM_ERR_MOD_INF), "can't use modulo with zero and infinity");
    /* N20 */
    CHECK_STR(T("1e155", '%', "9"), "0");
    CHECK_STR(T("1e100", '%', "7"), "4");
}

static void test_compare(void)
{
    const tfx_num *inf = op('/', P("1"), P("0"));
    const tfx_num *ninf = op('/', P("-1"), P("0"));
    const tfx_num *third = tfx_num_from_double(A, 1.0 / 3.0);
    const tfx_num *third0 = op('+', third, P("0"));
    const tfx_num *f = tfx_num_from_double(A, 1.5);

    /* N21 */
    CHECK(tfx_num_cmp(inf, P("1e1000000")) > 0);
    CHECK(tfx_num_cmp(ninf, P("-1e10000")) < 0);
    CHECK(tfx_num_cmp(op('+', P("0.1"), P("0.2")), P("0.3")) == 0);
    CHECK(tfx_num_cmp(P("1e-1000000000"), P("0")) == 0);
    CHECK(tfx_num_cmp(P("-0"), P("0")) == 0);
    CHECK(tfx_num_cmp(P("1"), P("2")) < 0);
    /* N22 */
    CHECK(EQ(P("1"), P("1.0")));
    CHECK(EQ(op('+', P("0.1"), P("0.2")), P("0.3")));
    CHECK(EQ(op('*', op('/', P("1"), P("3")), P("3")), P("1")));
    CHECK(EQ(op('+', op('/', P("2"), P("3")), op('/', P("1"), P("3"))), P("1")));
    CHECK(EQ(op('*', P("3"), P("0.1")), P("0.3")));
    CHECK(EQ(f, P("1.5")));
    CHECK(!EQ(third, third0));
    CHECK(tfx_num_cmp(third, third0) == 0);
    CHECK(EQ(inf, P("Inf")));
    CHECK(!EQ(inf, ninf));
    CHECK(!EQ(P("1"), P("2")));
    CHECK(EQ(tfx_num_from_int64(A, 7), P("7")));
}

static void test_queries(void)
{
    int64_t v = 0;

    CHECK(tfx_num_is_integer(P("3")));
    CHECK(tfx_num_is_integer(P("-0")));
    CHECK(!tfx_num_is_integer(P("2.5")));
    CHECK(!tfx_num_is_integer(P("Inf")));
    CHECK(tfx_num_to_int64(P("9223372036854775807"), &v) && v == INT64_MAX);
    CHECK(tfx_num_to_int64(P("-9223372036854775808"), &v) && v == INT64_MIN);
    CHECK(!tfx_num_to_int64(P("9223372036854775808"), &v));
    CHECK(!tfx_num_to_int64(P("1.5"), &v));
    CHECK(tfx_num_to_int64(tfx_num_from_int64(A, -42), &v) && v == -42);
    CHECK(tfx_num_sign(P("-0")) == 0 && tfx_num_signbit(P("-0")));
    CHECK(tfx_num_sign(P("-Inf")) == -1 && tfx_num_is_inf(P("-Inf")));
    CHECK(tfx_num_sign(P("0.1")) == 1);
    CHECK_STR(S(tfx_num_from_double(A, -0.0)), "-0");
    CHECK_STR(S(tfx_num_from_double(A, 0.1)), "0.1");
    CHECK_STR(S(tfx_num_from_double(A, HUGE_VAL)), "+Inf");
    CHECK(tfx_num_from_double(A, NAN) == NULL);
    CHECK_STR(S(tfx_num_from_int64(A, INT64_MIN)), "-9223372036854775808");
}

/* A fixed-seed xorshift generator: the same inputs on every run. */
static uint64_t rng_state = 0x2545F4914F6CDD1Du;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Whether two numbers are the same bit for bit: precision, sign (of zero
 * too) and 170 significant digits, more than 512 bits hold. */
static bool same_num(const tfx_num *x, const tfx_num *y)
{
    const char *sx = NULL;
    const char *sy = NULL;
    size_t nx = 0;
    size_t ny = 0;

    return tfx_num_prec(x) == tfx_num_prec(y)
           && tfx_num_format_go(A, x, 'e', 170, 4096, &sx, &nx) == TFX_NUM_OK
           && tfx_num_format_go(A, y, 'e', 170, 4096, &sy, &ny) == TFX_NUM_OK
           && nx == ny && memcmp(sx, sy, nx) == 0;
}

/* Random number-like text: a sign or none, 0 to 22 digits (leading zeros
 * often) with a point or none, now and then an exponent (e or E, a sign
 * or none, up to 5 digits) or a stray character. */
static size_t random_number_text(char *buf)
{
    size_t n = 0;
    size_t ndigits = (size_t)(rng() % 23);
    size_t point = (size_t)(rng() % (ndigits + 2));   /* ndigits + 1: none */
    size_t i;
    uint64_t r = rng();

    if (r % 4 == 0)
        buf[n++] = r % 8 == 0 ? '-' : '+';
    for (i = 0; i < ndigits; i++) {
        if (i == point)
            buf[n++] = '.';
        buf[n++] = (char)('0' + (rng() % 3 == 0 ? 0 : rng() % 10));
    }
    if (point == ndigits)
        buf[n++] = '.';
    r = rng();
    if (r % 16 == 0)
        n += (size_t)sprintf(buf + n, "e%d", (int)(rng() % 40) - 20);
    else if (r % 16 == 2 || r % 16 == 3)
        n += (size_t)sprintf(buf + n, "%s%s%d", rng() % 2 ? "e" : "E",
                             rng() % 3 == 0 ? "+" : rng() % 2 ? "-" : "",
                             (int)(rng() % (rng() % 4 == 0 ? 100000 : 60)));
    else if (r % 16 == 1)
        buf[n++] = r % 32 == 1 ? '.' : 'x';
    buf[n] = '\0';
    return n;
}

/* [num.parse] tfx_num_parse_n (with its fast path for short decimals)
 * reads every text as the general reader does. */
static void test_parse_fast_path(void)
{
    static const char *const edges[] = {
        "0", "-0", "+0", ".0", "0.", ".", "-", "", "9999999999999999999",
        "18446744073709551615", "0.1", "0.3", "2.5", "-1.0000000000000000001",
        "1.234567890123456789", ".0000000000000000001", "123456789.123456789",
        "1e3", "1E+3", "2.5e-3", "-0e9999", "0e-9999", "1e19", "1e20", "18446744073709551615e0",
        "1844674407370955161.5e1", "1e-27", "1e-28", "3e-27", "9999999999999999999e-27", "5e",
        "5e+", "1e00001", "1e10000", "1e9999", "7.e2", ".5e1", "1e-0", "12345e-5", "1p3",
    };
    int same = 0;
    int total = 0;
    size_t i;

    for (i = 0; i < sizeof(edges) / sizeof(edges[0]) + 50000; i++) {
        char buf[128];
        const char *text = buf;
        size_t n;
        const tfx_num *fast = NULL;
        const tfx_num *gen = NULL;
        tfx_num_err ef;
        tfx_num_err eg;

        if (i < sizeof(edges) / sizeof(edges[0])) {
            text = edges[i];
            n = strlen(text);
        } else {
            n = random_number_text(buf);
        }
        if (n > 0 && text[0] >= '0' && text[0] <= '9') {  /* a number token's shape */
            total++;
            if (tfx_num_literal_ok(text, n) == tfx_num_literal_ok_general(text, n))
                same++;
            else
                fprintf(stderr, "literal_ok differs on \"%s\"\n", text);
        }
        ef = tfx_num_parse_n(A, text, n, &fast);
        eg = tfx_num_parse_general(A, text, n, &gen);
        total++;
        if (ef == eg && (ef != TFX_NUM_OK || same_num(fast, gen)))
            same++;
        else
            fprintf(stderr, "parse differs on \"%s\"\n", text);
    }
    CHECK(same == total);
}

/* Whether tfx_num_format (with its fast path for whole numbers) writes x
 * as the general formatter does; reports x's text otherwise. */
static bool format_same(const tfx_num *x)
{
    size_t nf = 0;
    size_t ng = 0;
    const char *f = x != NULL ? tfx_num_format(A, x, &nf) : NULL;
    const char *g = x != NULL ? tfx_num_format_general(A, x, &ng) : NULL;

    if (f != NULL && g != NULL && nf == ng && strcmp(f, g) == 0)
        return true;
    fprintf(stderr, "format differs: \"%s\" against \"%s\"\n", f != NULL ? f : "(null)",
            g != NULL ? g : "(null)");
    return false;
}

/* [num.format] tfx_num_format writes whole numbers of every precision as
 * the general formatter does: random ones of random bit lengths at 512
 * bits (from text), 64 (tfx_num_from_int64) and 53 (tfx_num_from_double,
 * rounded), and the edges around 2^53 and 2^63, zeros of both signs. */
static void test_format_fast_path(void)
{
    static const char *const edges[] = {
        "0", "-0", "1", "-1", "9007199254740991", "9007199254740992", "9007199254740993",
        "-9007199254740992", "-9007199254740993", "9223372036854775807", "9223372036854775808",
        "-9223372036854775807", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "1000000000000000000000", "2.5", "-0.5", "1e3",
    };
    int same = 0;
    int total = 0;
    size_t i;

    for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
        total += 2;
        same += format_same(P(edges[i]));
        same += format_same(tfx_num_from_double(A, strtod(edges[i], NULL)));
    }
    total += 4;
    same += format_same(tfx_num_from_int64(A, INT64_MAX));
    same += format_same(tfx_num_from_int64(A, INT64_MIN));
    same += format_same(tfx_num_from_double(A, -0.0));
    same += format_same(tfx_num_from_double(A, 1152921504606846976.0));   /* 2^60 */
    for (i = 0; i < 30000; i++) {
        int bits = (int)(rng() % 64);
        int64_t v = (int64_t)(rng() >> (64 - bits - 1) >> 1);
        char text[32];

        if (rng() % 2 == 0)
            v = -v;
        snprintf(text, sizeof text, "%" PRId64, v);
        total += 3;
        same += format_same(P(text));
        same += format_same(tfx_num_from_int64(A, v));
        same += format_same(tfx_num_from_double(A, (double)v));
    }
    CHECK(same == total);
}

/* A random number for the whole-number fast paths: whole numbers of
 * random bit lengths (up to 70) at 512, 64 or 53 bits, their negatives,
 * halves and nearby fractions, zeros and infinities. */
static const tfx_num *random_whole(void)
{
    uint64_t r = rng();
    unsigned bits = (unsigned)(rng() % 71);
    uint64_t m = bits == 0 ? 0 : bits >= 64 ? rng() : rng() & ((UINT64_C(1) << bits) - 1);
    char buf[64];
    const tfx_num *x;

    if (r % 32 == 0)
        return P(r % 64 == 0 ? "-0" : "Inf");
    if (r % 32 == 1)
        return P("-Inf");
    switch (rng() % 4) {
    case 0: /* 512 bits, at times beyond 2^64 or with a fraction */
        snprintf(buf, sizeof buf, "%s%" PRIu64 "%s%s", rng() % 2 ? "-" : "", m,
                 bits > 64 ? "000" : "", rng() % 5 == 0 ? ".5" : rng() % 7 == 0 ? "e-3" : "");
        return P(buf);
    case 1: /* 64 bits */
        x = tfx_num_from_int64(A, rng() % 2 ? (int64_t)(m >> 1) : -(int64_t)(m >> 1));
        return x != NULL ? x : P("0");
    case 2: /* 53 bits: whole below 2^53, else rounded */
        x = tfx_num_from_double(A, (rng() % 2 ? 1.0 : -1.0) * (double)m
                                       / (rng() % 6 == 0 ? 4.0 : 1.0));
        return x != NULL ? x : P("0");
    default: /* near 2^53 and 2^63 */
        snprintf(buf, sizeof buf, "%s%" PRIu64, rng() % 2 ? "-" : "",
                 (rng() % 2 ? UINT64_C(1) << 53 : UINT64_C(1) << 63) + rng() % 5 - 2);
        return P(buf);
    }
}

/* [num.mod] [num.arith] [num.value] tfx_num_mod, tfx_num_add,
 * tfx_num_sub and tfx_num_to_int64 (with their fast paths for whole
 * numbers) against their general paths. */
static void test_whole_fast_paths(void)
{
    int same = 0;
    int total = 0;
    int i;

    for (i = 0; i < 60000; i++) {
        const tfx_num *x = random_whole();
        const tfx_num *y = random_whole();
        const tfx_num *rf = NULL;
        const tfx_num *rg = NULL;
        tfx_num_err ef = tfx_num_mod(A, x, y, &rf);
        tfx_num_err eg = tfx_num_mod_general(A, x, y, &rg);

        int64_t vf = 0;
        int64_t vg = 0;
        bool of = tfx_num_to_int64(x, &vf);
        bool og = tfx_num_to_int64_general(x, &vg);

        total += 2;
        if (ef == eg && (ef != TFX_NUM_OK || same_num(rf, rg)))
            same++;
        else
            fprintf(stderr, "mod differs\n");
        /* x + y, x - y, and x + -x and x - x, whose zeros keep the
         * general path's signs */
        for (int k = 0; k < 4; k++) {
            const tfx_num *z = k < 2 ? y : x;
            bool sub = k % 2 == 1;
            const tfx_num *z2 = k == 2 ? tfx_num_neg(A, x) : z;

            total++;
            ef = sub ? tfx_num_sub(A, x, z2, &rf) : tfx_num_add(A, x, z2, &rf);
            eg = sub ? tfx_num_sub_general(A, x, z2, &rg) : tfx_num_add_general(A, x, z2, &rg);
            if (ef == eg && (ef != TFX_NUM_OK || same_num(rf, rg)))
                same++;
            else
                fprintf(stderr, "%s differs\n", sub ? "sub" : "add");
        }
        if (of == og && (!of || vf == vg))
            same++;
        else
            fprintf(stderr, "to_int64 differs: %d %" PRId64 " against %d %" PRId64 "\n", of, vf,
                    og, vg);
    }
    CHECK(same == total);
}

/* A text of a number's every reading: its precision, its text, its
 * shortest digits in exponent and 'g' form, its 'f' form to 3 places, its
 * 10 rounded digits (the set hash), and whether it is an integer. */
static const char *readings(const tfx_num *x)
{
    static char out[4][512];
    static int turn;
    char *o = out[turn++ % 4];
    const char *e = "?";
    const char *g = "?";
    const char *f = "?";
    size_t n = 0;
    long exp10 = 0;
    const char *r = tfx_num_is_inf(x) ? "inf" : tfx_num_round_digits(A, x, 10, &exp10);
    int64_t v = 0;
    bool whole = tfx_num_to_int64(x, &v);

    (void)tfx_num_format_go(A, x, 'e', -1, 4096, &e, &n);
    (void)tfx_num_format_go(A, x, 'g', -1, 4096, &g, &n);
    (void)tfx_num_format_go(A, x, 'f', 3, 4096, &f, &n);
    snprintf(o, sizeof out[0], "%lu %s %s %s %s %s.%ld %d %d %lld", tfx_num_prec(x),
             tfx_num_format_general(A, x, NULL), e, g, f, r != NULL ? r : "?", exp10,
             tfx_num_is_integer(x), whole, (long long)v);
    return o;
}

/* The readings of x op y, or "error" when the operation fails. */
static const char *op_readings(char o, const tfx_num *x, const tfx_num *y)
{
    const tfx_num *r = op(o, x, y);

    return r != NULL ? readings(r) : "error";
}

/* A random whole-number text of 1 to 18 digits, a sign now and then. */
static size_t random_word_text(char *buf)
{
    size_t digits = 1 + (size_t)(rng() % 18);
    size_t n = 0;

    if (rng() % 3 == 0)
        buf[n++] = '-';
    for (size_t d = 0; d < digits; d++)
        buf[n++] = "0123456789"[d == 0 && digits > 1 ? 1 + rng() % 9 : rng() % 10];
    buf[n] = '\0';
    return n;
}

/* [num.prec] [num.value] Whole numbers read from text are held in one word
 * of mantissa (num_new_word) by tfx_num_parse_n, in 512 bits by
 * tfx_num_parse_general: every reading of the two, their comparisons, and
 * every operation with another number (either kind) or a 53-bit one give
 * the same. */
static void test_word_numbers(void)
{
    int bad = 0;

    for (int i = 0; i < 4000; i++) {
        char buf[2][40];
        const tfx_num *word[2];
        const tfx_num *full[2];
        const tfx_num *other = tfx_num_from_double(A, (double)(rng() % 2001) / 8.0 - 125.0);
        bool eq_w = false;
        bool eq_f = false;

        for (int k = 0; k < 2; k++) {
            size_t n = random_word_text(buf[k]);

            if (tfx_num_parse_n(A, buf[k], n, &word[k]) != TFX_NUM_OK
                || tfx_num_parse_general(A, buf[k], n, &full[k]) != TFX_NUM_OK) {
                CHECK(false);
                return;
            }
        }
        if (strcmp(readings(word[0]), readings(full[0])) != 0) {
            fprintf(stderr, "word number %s: %s\n", buf[0], readings(word[0]));
            bad++;
        }
        if (tfx_num_equal(word[0], full[1], &eq_w) != TFX_NUM_OK
            || tfx_num_equal(full[0], full[1], &eq_f) != TFX_NUM_OK || eq_w != eq_f
            || tfx_num_cmp(word[0], word[1]) != tfx_num_cmp(full[0], full[1])) {
            fprintf(stderr, "word numbers %s, %s compare differently\n", buf[0], buf[1]);
            bad++;
        }
        for (const char *o = "+-*/%"; *o != '\0'; o++) {
            char w[512];

            snprintf(w, sizeof w, "%s", op_readings(*o, word[0], word[1]));
            if (strcmp(w, op_readings(*o, full[0], full[1])) != 0) {
                fprintf(stderr, "word numbers %s %c %s: %s\n", buf[0], *o, buf[1], w);
                bad++;
            }
            snprintf(w, sizeof w, "%s", op_readings(*o, word[0], other));
            if (strcmp(w, op_readings(*o, full[0], other)) != 0
                || strcmp(op_readings(*o, other, word[0]), op_readings(*o, other, full[0])) != 0) {
                fprintf(stderr, "word number %s %c a float64: %s\n", buf[0], *o, w);
                bad++;
            }
        }
    }
    CHECK(bad == 0);
}

int main(void)
{
    A = tfx_arena_new(0);
    if (A == NULL)
        return 2;
    test_parse();
    test_parse_fast_path();
    test_format();
    test_format_fast_path();
    test_format_compact();
    test_arith();
    test_whole_fast_paths();
    test_compare();
    test_queries();
    test_word_numbers();
    tfx_arena_free(A);
    return check_report("test_num");
}
