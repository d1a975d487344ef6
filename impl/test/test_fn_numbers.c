/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_numbers.c — unit tests of the number operations behind the
 * numeric functions (num.h, spec/functions-numbers.md): the initial
 * infinity of min and max [fn.min.initial], ceil/floor [fn.ceil.result],
 * abs [fn.abs.result], parseint's digits [fn.parseint.result], and the
 * float64 helpers of log and pow.
 */
#include "num.h"

#include <stdlib.h>

#include "check.h"

static tfx_arena *A;

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

static const char *MOD(const tfx_num *x, const tfx_num *y)
{
    const tfx_num *r = NULL;
    tfx_num_err e = tfx_num_mod(A, x, y, &r);

    return e == TFX_NUM_OK ? S(r) : tfx_num_err_reason(e);
}

static void test_initial_inf(void)
{
    const tfx_num *pinf = tfx_num_initial_inf(A, false);
    const tfx_num *ninf = tfx_num_initial_inf(A, true);
    const tfx_num *fresh = NULL;

    CHECK(tfx_num_is_initial_inf(pinf));
    CHECK(!tfx_num_is_initial_inf(P("+Inf")));
    CHECK(tfx_num_prec(pinf) == 53);
    CHECK_STR(S(pinf), "+Inf");
    CHECK_STR(S(ninf), "-Inf");
    /* [fn.min.initial] modulo multiplies */
    CHECK_STR(MOD(P("5"), pinf), "+Inf");
    CHECK_STR(MOD(P("-5"), pinf), "-Inf");
    CHECK_STR(MOD(pinf, P("5")), "+Inf");
    CHECK_STR(MOD(P("3"), ninf), "-Inf");
    CHECK_STR(MOD(pinf, pinf), "+Inf");
    CHECK_STR(MOD(P("0"), pinf), "can't use modulo with zero and infinity");
    CHECK_STR(MOD(pinf, P("0")), "can't use modulo with zero and infinity");
    /* an ordinary infinity keeps [num.mod.inf] */
    CHECK_STR(MOD(P("5"), P("+Inf")), "can't use modulo with zero and infinity");
    /* new numbers made from it are ordinary */
    CHECK(!tfx_num_is_initial_inf(tfx_num_neg(A, pinf)));
    CHECK(!tfx_num_is_initial_inf(tfx_num_abs(A, pinf)));
    CHECK(tfx_num_add(A, pinf, P("0"), &fresh) == TFX_NUM_OK);
    CHECK(!tfx_num_is_initial_inf(fresh));
}

static void test_round_abs(void)
{
    const tfx_num *third = NULL;

    CHECK_STR(S(tfx_num_round_int(A, P("1.2"), true)), "2");
    CHECK_STR(S(tfx_num_round_int(A, P("-1.5"), true)), "-1");
    CHECK_STR(S(tfx_num_round_int(A, P("-0.5"), true)), "0");
    CHECK_STR(S(tfx_num_round_int(A, P("-0"), false)), "0");
    CHECK_STR(S(tfx_num_round_int(A, P("-0.5"), false)), "-1");
    CHECK_STR(S(tfx_num_round_int(A, P("0.5"), false)), "0");
    CHECK_STR(S(tfx_num_round_int(A, P("1e-1000000"), true)), "1");
    CHECK_STR(S(tfx_num_round_int(A, P("12345678901234567890.5"), true)),
              "12345678901234567891");
    CHECK_STR(S(tfx_num_abs(A, P("-0"))), "0");
    CHECK_STR(S(tfx_num_abs(A, P("-1.5"))), "1.5");
    CHECK(tfx_num_div(A, P("-1"), P("3"), &third) == TFX_NUM_OK);
    CHECK(tfx_num_prec(tfx_num_abs(A, third)) == 512);
}

static void test_digits(void)
{
    static const unsigned char ff[] = {15, 15};
    static const unsigned char zero[] = {0, 0, 0};
    static const unsigned char big[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    const tfx_num *n = NULL;

    CHECK(tfx_num_from_digits(A, false, ff, sizeof ff, 16, &n) == TFX_NUM_OK);
    CHECK_STR(S(n), "255");
    CHECK(tfx_num_prec(n) == 64);
    CHECK(tfx_num_from_digits(A, true, ff, sizeof ff, 16, &n) == TFX_NUM_OK);
    CHECK_STR(S(n), "-255");
    CHECK(tfx_num_from_digits(A, true, zero, sizeof zero, 10, &n) == TFX_NUM_OK);
    CHECK_STR(S(n), "0");
    CHECK(!tfx_num_signbit(n));
    CHECK(tfx_num_from_digits(A, false, big, sizeof big, 2, &n) == TFX_NUM_OK);
    CHECK_STR(S(n), "604462909807314587353087");
    CHECK(tfx_num_prec(n) == 79);
}

static void test_float64(void)
{
    double d = 0;

    CHECK(tfx_num_float64_sqrt(2.0) == 1.4142135623730951);
    CHECK(tfx_num_float64_fma(0.1, 10.0, -1.0) == 5.551115123125783e-17);
    CHECK(tfx_num_to_double(P("0.1"), &d) && d == 0.1);
    CHECK(!tfx_num_to_double(P("1e400"), &d));
    CHECK(tfx_num_to_double(P("+Inf"), &d) && d > 1e308);
    CHECK(tfx_num_to_double(P("1e-400"), &d) && d == 0.0);
}

int main(void)
{
    A = tfx_arena_new(0);
    if (A == NULL)
        return 2;
    test_initial_inf();
    test_round_abs();
    test_digits();
    test_float64();
    tfx_arena_free(A);
    return check_report("test_fn_numbers");
}
