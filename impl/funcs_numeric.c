/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_numeric.c — the numeric functions (spec/functions-numbers.md):
 * cty 1.12.1's stdlib AbsoluteFunc, CeilFunc, FloorFunc, LogFunc,
 * MaxFunc, MinFunc, ParseIntFunc, PowFunc and SignumFunc, which Terraform
 * of profile P14 registers as they are.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "funcs_internal.h"

/* gocty's error for a number that does not fit the Go type it is read
 * into: float64 (exact decimal text of -MaxFloat64 and MaxFloat64 with
 * six decimals, as Go's %f writes them) and int. */
#define MAX_FLOAT64_TEXT \
    "17976931348623157081452742373170435679807056752584499659891747680315726078002853" \
    "87605895586327668781715404589535143824642343213268894641827684675467035375169860" \
    "49910576551282076245490090389328944075868508455133942304583236903222948165808559" \
    "332123348274797826204144723168738177180919299881250404026184124858368.000000"
static const char float_range_error[] =
    "value must be between -" MAX_FLOAT64_TEXT " and " MAX_FLOAT64_TEXT " inclusive";
static const char int_range_error[] =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/* ---- abs ---- */

static const tfx_param abs_params[] = {
    {.name = "num", .type = &tfx_type_number, .allow_dynamic = true, .allow_marked = true},
};

/* [fn.abs] [fn.abs.result] The magnitude of the number at its own precision (-0
 * gives 0, -Inf gives +Inf); the argument's marks stay on the result. */
static const tfx_value *abs_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs,
                                 tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *v = tfx_value_unmark(ctx, args[0], &marks);
    const tfx_num *n;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (!tfx_value_is_known(v))
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, &tfx_type_number), marks);
    n = tfx_num_abs(ctx->arena, v->as.number);
    if (n == NULL)
        tfx_fn_nomem(ctx);
    return tfx_value_mark(ctx, tfx_value_number(ctx, n), marks);
}

static const tfx_function tfx_fn_abs = {.name = "abs",
                                        .params = abs_params,
                                        .nparams = TFX_COUNTOF(abs_params),
                                        .varparam = NULL,
                                        .type = NULL,
                                        .ret_type = &tfx_type_number,
                                        .impl = abs_impl};

/* ---- ceil, floor ---- */

static const tfx_param num_param[] = {
    {.name = "num", .type = &tfx_type_number},
};

/* [fn.ceil] [fn.floor] [fn.ceil.result] [fn.floor.result] An infinity is returned as it is (a
 * copy: never min's initial value); a finite number becomes the nearest
 * integer above (ceil) or below (floor) it, at its own precision, a zero
 * result always +0. */
static const tfx_value *round_int(tfx_ctx *ctx, const tfx_value *arg, bool up)
{
    const tfx_num *x = arg->as.number;
    const tfx_num *n;

    if (tfx_num_is_inf(x)) {
        n = tfx_num_abs(ctx->arena, x);
        if (n != NULL && tfx_num_signbit(x))
            n = tfx_num_neg(ctx->arena, n);
    } else
        n = tfx_num_round_int(ctx->arena, x, up);
    if (n == NULL)
        tfx_fn_nomem(ctx);
    return tfx_value_number(ctx, n);
}

static const tfx_value *ceil_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return round_int(ctx, args[0], true);
}

static const tfx_value *floor_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return round_int(ctx, args[0], false);
}

static const tfx_function tfx_fn_ceil = {.name = "ceil",
                                         .params = num_param,
                                         .nparams = TFX_COUNTOF(num_param),
                                         .varparam = NULL,
                                         .type = NULL,
                                         .ret_type = &tfx_type_number,
                                         .impl = ceil_impl};

static const tfx_function tfx_fn_floor = {.name = "floor",
                                          .params = num_param,
                                          .nparams = TFX_COUNTOF(num_param),
                                          .varparam = NULL,
                                          .type = NULL,
                                          .ret_type = &tfx_type_number,
                                          .impl = floor_impl};

/* ---- Go's float64 math on amd64, as cty's log and pow get it ----
 *
 * [fn.log.float] [fn.pow.float] Go 1.19's math.Log and math.Exp on amd64
 * are assembly routines (Log: the FreeBSD algorithm with a bit-level
 * frexp; Exp: a Taylor series after argument reduction, with fused
 * multiply-adds when the CPU has AVX and FMA); math.Pow is Go code over
 * them.  Reproduced operation by operation, in plain float64 arithmetic
 * (no contraction: C11 mode) with the FMA and square root done exactly by
 * the number module. */

static uint64_t f64_bits(double f)
{
    uint64_t u;

    memcpy(&u, &f, sizeof u);
    return u;
}

static double f64_from_bits(uint64_t u)
{
    double f;

    memcpy(&f, &u, sizeof f);
    return f;
}

#define F64_INF (f64_from_bits(UINT64_C(0x7FF0000000000000)))
#define F64_NAN (f64_from_bits(UINT64_C(0x7FF8000000000001)))

static bool f64_isnan(double x)
{
    return x != x; /* NOLINT(misc-redundant-expression) */
}

static bool f64_isinf(double x)
{
    return x == F64_INF || x == -F64_INF;
}

static double f64_abs(double x)
{
    return f64_from_bits(f64_bits(x) & ~(UINT64_C(1) << 63));
}

static double go_log(double x)
{
    static const double hsqrt2 = 7.07106781186547524401e-01, ln2hi = 6.93147180369123816490e-01,
                        ln2lo = 1.90821492927058770002e-10, l1 = 6.666666666666735130e-01,
                        l2 = 3.999999999940941908e-01, l3 = 2.857142874366239149e-01,
                        l4 = 2.222219843214978396e-01, l5 = 1.818357216161805012e-01,
                        l6 = 1.531383769920937332e-01, l7 = 1.479819860511658591e-01;
    uint64_t bits = f64_bits(x);
    double f1, k, f, s, s2, s4, t1, t2, r, hfsq;

    if ((bits & ~(UINT64_C(1) << 63)) == 0)
        return -F64_INF;
    if ((int64_t)bits < 0)
        return F64_NAN;
    if (bits >= UINT64_C(0x7FF0000000000000))
        return x;
    f1 = f64_from_bits((bits & UINT64_C(0x000FFFFFFFFFFFFF)) | UINT64_C(0x3FE0000000000000));
    k = (double)((int)((bits >> 52) & 0x7FF) - 0x3FE);
    if (!(hsqrt2 < f1)) {
        k -= 1;
        f1 *= 2;
    }
    f = f1 - 1;
    s = f / (2 + f);
    s2 = s * s;
    s4 = s2 * s2;
    t1 = s2 * (l1 + s4 * (l3 + s4 * (l5 + s4 * l7)));
    t2 = s4 * (l2 + s4 * (l4 + s4 * l6));
    r = t1 + t2;
    hfsq = 0.5 * f * f;
    return k * ln2hi - ((hfsq - (s * (hfsq + r) + k * ln2lo)) - f);
}

/* CVTSD2SL: to int32 rounding to nearest even; out of range: INT32_MIN. */
static int32_t cvtsd2sl(double t)
{
    int64_t i;
    double frac;

    if (!(t > -2147483648.5 || t == -2147483648.5) || !(t < 2147483647.5))
        return INT32_MIN;
    i = (int64_t)t;
    frac = t - (double)i;
    if (frac > 0.5 || (frac == 0.5 && (i & 1) != 0))
        i++;
    else if (frac < -0.5 || (frac == -0.5 && (i & 1) != 0))
        i--;
    return (int32_t)i;
}

static bool cpu_has_fma(void)
{
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

static double go_exp(double x)
{
    static const double ln2u = 0.69314718055966295651160180568695068359375,
                        ln2l = 0.28235290563031577122588448175013436025525412068e-12,
                        log2e = 1.4426950408889634073599246810018920,
                        overflow = 7.09782712893384e+02;
    static const double c[] = {0.5,
                               1.0,
                               2.0,
                               1.6666666666666666667e-1,
                               4.1666666666666666667e-2,
                               8.3333333333333333333e-3,
                               1.3888888888888888889e-3,
                               1.9841269841269841270e-4,
                               2.4801587301587301587e-5};
    bool fma = cpu_has_fma();
    uint64_t bits = f64_bits(x);
    int32_t k;
    int64_t e;
    double fk, p;
    int i;

    if ((bits & ~(UINT64_C(1) << 63)) >= UINT64_C(0x7FF0000000000000))
        return x == -F64_INF ? 0.0 : x;
    if (x > overflow)
        return F64_INF;
    k = cvtsd2sl(log2e * x);
    fk = (double)k;
    if (fma) {
        x = tfx_num_float64_fma(-fk, ln2u, x);
        x = tfx_num_float64_fma(-fk, ln2l, x);
    } else {
        x -= ln2u * fk;
        x -= ln2l * fk;
    }
    x *= 0.0625;
    p = c[8];
    {
        static const int order[] = {7, 6, 5, 4, 3, 0, 1};

        for (i = 0; i < 7; i++)
            p = fma ? tfx_num_float64_fma(p, x, c[order[i]]) : p * x + c[order[i]];
    }
    x *= p;
    for (i = 0; i < 3; i++)
        x *= c[2] + x;
    if (fma)
        x = tfx_num_float64_fma(x, c[2] + x, 1.0);
    else {
        x *= c[2] + x;
        x += 1.0;
    }
    e = (int64_t)k + 0x3FF;
    if (e <= 0) {
        if (e < -52)
            return 0.0;
        x *= f64_from_bits((uint64_t)(e + 0x3FE) << 52);
        e = 1;
    } else if (e >= 0x7FF)
        return F64_INF;
    return x * f64_from_bits((uint64_t)e << 52);
}

/* Go's normalize, frexp, ldexp and modf. */
static double go_normalize(double x, int *e)
{
    if (f64_abs(x) < 2.2250738585072014e-308) {
        *e = -52;
        return x * 4503599627370496.0; /* 2^52 */
    }
    *e = 0;
    return x;
}

static double go_frexp(double f, int *e)
{
    uint64_t x;

    *e = 0;
    if (f == 0 || f64_isinf(f) || f64_isnan(f))
        return f;
    f = go_normalize(f, e);
    x = f64_bits(f);
    *e += (int)((x >> 52) & 0x7FF) - 1023 + 1;
    x &= ~(UINT64_C(0x7FF) << 52);
    x |= UINT64_C(1022) << 52;
    return f64_from_bits(x);
}

static double go_ldexp(double frac, long exp)
{
    uint64_t x;
    double m = 1;
    int e;

    if (frac == 0 || f64_isinf(frac) || f64_isnan(frac))
        return frac;
    frac = go_normalize(frac, &e);
    exp += e;
    x = f64_bits(frac);
    exp += (long)((x >> 52) & 0x7FF) - 1023;
    if (exp < -1075)
        return frac < 0 ? -0.0 : 0.0;
    if (exp > 1023)
        return frac < 0 ? -F64_INF : F64_INF;
    if (exp < -1022) {
        exp += 53;
        m = 1.0 / 9007199254740992.0; /* 2^-53 */
    }
    x &= ~(UINT64_C(0x7FF) << 52);
    x |= (uint64_t)(exp + 1023) << 52;
    return m * f64_from_bits(x);
}

static double go_modf(double f, double *frac)
{
    uint64_t x;
    unsigned e;
    double ip;

    if (f < 1) {
        if (f < 0) {
            ip = go_modf(-f, frac);
            *frac = -*frac;
            return -ip;
        }
        if (f == 0) {
            *frac = f;
            return f;
        }
        *frac = f;
        return 0;
    }
    x = f64_bits(f);
    e = (unsigned)((x >> 52) & 0x7FF) - 1023;
    if (e < 64 - 12)
        x &= ~((UINT64_C(1) << (64 - 12 - e)) - 1);
    ip = f64_from_bits(x);
    *frac = f - ip;
    return ip;
}

static bool go_is_odd_int(double x)
{
    double xf;
    double xi = go_modf(x, &xf);

    if (xf != 0 || f64_isnan(xi))
        return false;
    if (!(f64_abs(xi) < 9223372036854775808.0))
        return false; /* int64(xi) is INT64_MIN on amd64: even */
    return ((int64_t)xi & 1) == 1;
}

static double go_pow(double x, double y)
{
    double yi, yf = 0, a1 = 1.0, x1;
    long ae = 0, xe;
    int xe0 = 0;
    int64_t i;

    if (y == 0 || x == 1)
        return 1;
    if (y == 1)
        return x;
    if (f64_isnan(x) || f64_isnan(y))
        return F64_NAN;
    if (x == 0) {
        if (y < 0)
            return go_is_odd_int(y) ? (f64_bits(x) >> 63 ? -F64_INF : F64_INF) : F64_INF;
        if (y > 0)
            return go_is_odd_int(y) ? x : 0.0;
    } else if (f64_isinf(y)) {
        if (x == -1)
            return 1;
        if ((f64_abs(x) < 1) == (y > 0))
            return 0;
        return F64_INF;
    } else if (f64_isinf(x)) {
        if (x < 0)
            return go_pow(1 / x, -y);
        if (y < 0)
            return 0;
        if (y > 0)
            return F64_INF;
    } else if (y == 0.5) {
        return tfx_num_float64_sqrt(x);
    } else if (y == -0.5) {
        return 1 / tfx_num_float64_sqrt(x);
    }
    yi = go_modf(f64_abs(y), &yf);
    if (yf != 0 && x < 0)
        return F64_NAN;
    if (yi >= 9223372036854775808.0) {
        if (x == -1)
            return 1;
        if ((f64_abs(x) < 1) == (y > 0))
            return 0;
        return F64_INF;
    }
    if (yf != 0) {
        if (yf > 0.5) {
            yf--;
            yi++;
        }
        a1 = go_exp(yf * go_log(x));
    }
    x1 = go_frexp(x, &xe0);
    xe = xe0;
    for (i = (int64_t)yi; i != 0; i >>= 1) {
        if (xe < -(1L << 12) || (1L << 12) < xe) {
            ae += xe;
            break;
        }
        if ((i & 1) == 1) {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe *= 2;
        if (x1 < .5) {
            x1 += x1;
            xe--;
        }
    }
    if (y < 0) {
        a1 = 1 / a1;
        ae = -ae;
    }
    return go_ldexp(a1, ae);
}

/* ---- log, pow ---- */

static const tfx_param log_params[] = {
    {.name = "num", .type = &tfx_type_number},
    {.name = "base", .type = &tfx_type_number},
};

static const tfx_param pow_params[] = {
    {.name = "num", .type = &tfx_type_number},
    {.name = "power", .type = &tfx_type_number},
};

/* [fn.log] [fn.pow] [fn.log.range] [fn.pow.range] [fn.log.float]
 * [fn.pow.float] Both arguments read as float64 (nearest, ties to even);
 * a finite one beyond float64's range is the plain error
 * float_range_error (the first argument checked first).  The float64
 * result becomes a 53-bit number; NaN is tfexpr's plain error "result is
 * not a number" [fn.log.nan] [fn.pow.nan]. */
static const tfx_value *float_op(tfx_ctx *ctx, const tfx_value *const *args, bool is_pow,
                                 tfx_func_error *err)
{
    double a, b, r;
    const tfx_num *n;

    if (!tfx_num_to_double(args[0]->as.number, &a) || !tfx_num_to_double(args[1]->as.number, &b))
        return tfx_fn_error(err, float_range_error);
    r = is_pow ? go_pow(a, b) : go_log(a) / go_log(b);
    if (f64_isnan(r))
        return tfx_fn_error(err, "result is not a number");
    n = tfx_num_from_double(ctx->arena, r);
    if (n == NULL)
        tfx_fn_nomem(ctx);
    return tfx_value_number(ctx, n);
}

static const tfx_value *log_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs,
                                 tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    return float_op(ctx, args, false, err);
}

static const tfx_value *pow_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs,
                                 tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    return float_op(ctx, args, true, err);
}

static const tfx_function tfx_fn_log = {.name = "log",
                                        .params = log_params,
                                        .nparams = TFX_COUNTOF(log_params),
                                        .varparam = NULL,
                                        .type = NULL,
                                        .ret_type = &tfx_type_number,
                                        .impl = log_impl};

static const tfx_function tfx_fn_pow = {.name = "pow",
                                        .params = pow_params,
                                        .nparams = TFX_COUNTOF(pow_params),
                                        .varparam = NULL,
                                        .type = NULL,
                                        .ret_type = &tfx_type_number,
                                        .impl = pow_impl};

/* ---- signum ---- */

/* [fn.signum] [fn.signum.result] The number must be a whole number within int64's
 * range (else the plain error int_range_error: fractions and infinities
 * included); the result is -1, 0 or 1 (64-bit integers). */
static const tfx_value *signum_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    int64_t i;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!tfx_num_to_int64(args[0]->as.number, &i))
        return tfx_fn_error(err, int_range_error);
    return tfx_value_int(ctx, i < 0 ? -1 : i > 0 ? 1 : 0);
}

static const tfx_function tfx_fn_signum = {.name = "signum",
                                           .params = num_param,
                                           .nparams = TFX_COUNTOF(num_param),
                                           .varparam = NULL,
                                           .type = NULL,
                                           .ret_type = &tfx_type_number,
                                           .impl = signum_impl};

/* ---- parseint ---- */

static const tfx_param parseint_params[] = {
    {.name = "number", .type = &tfx_type_dynamic},
    {.name = "base", .type = &tfx_type_number},
};

/* [fn.parseint] [fn.parseint.type] The first argument must be of type string: else the
 * argument error (0) "first argument must be a string, not <friendly
 * type name>". */
static const tfx_type *parseint_type(tfx_ctx *ctx, const tfx_function *fn,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (args[0]->type->kind != TFX_TYPE_STRING)
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx, "first argument must be a string, not %s",
                           tfx_type_friendly(ctx, args[0]->type)));
    return &tfx_type_number;
}

/* The value of digit c in `base` (Go's big.Int.SetString: 0-9, then
 * letters, case-insensitive up to base 36, 'A'-'Z' = 36..61 above), or -1. */
static int digit_value(char c, int base)
{
    int d = -1;

    if (c >= '0' && c <= '9')
        d = c - '0';
    else if (c >= 'a' && c <= 'z')
        d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'Z')
        d = base <= 36 ? c - 'A' + 10 : c - 'A' + 36;
    return d >= 0 && d < base ? d : -1;
}

/* [fn.parseint.base] [fn.parseint.result] [fn.parseint.syntax] The base
 * must be a whole number within int64's range (argument error 1,
 * int_range_error), then between 2 and 62; the string an optional sign
 * and one or more digits of the base, nothing else (argument error 0,
 * "cannot parse <Go-quoted string> as a base <base> integer"); the result
 * is that integer at precision max(64, its bit length). */
static const tfx_value *parseint_impl(tfx_ctx *ctx, const tfx_function *fn,
                                      const tfx_type *ret, const tfx_value *const *args,
                                      size_t nargs, tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    unsigned char *digits;
    const tfx_num *out = NULL;
    bool negative = false;
    size_t i = 0, n = 0;
    tfx_num_err status;
    int64_t base;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!tfx_num_to_int64(args[1]->as.number, &base))
        return tfx_fn_arg_error(err, 1, int_range_error);
    if (base < 2 || base > 62)
        return tfx_fn_arg_error(err, 1, "base must be a whole number between 2 and 62 inclusive");
    if (i < s.nbytes && (s.s[i] == '+' || s.s[i] == '-'))
        negative = s.s[i++] == '-';
    digits = tfx_ctx_alloc(ctx, s.nbytes + 1);
    for (; i < s.nbytes; i++) {
        int d = digit_value(s.s[i], (int)base);

        if (d < 0)
            break;
        digits[n++] = (unsigned char)d;
    }
    if (n == 0 || i < s.nbytes)
        return tfx_fn_arg_error(err, 0,
                                tfx_ctx_printf(ctx, "cannot parse %s as a base %d integer",
                                               tfx_textbuf_quoted(ctx, s.s, s.nbytes),
                                               (int)base));
    status = tfx_num_from_digits(ctx->arena, negative, digits, n, (int)base, &out);
    return tfx_fn_number_result(ctx, status, out, err);
}

static const tfx_function tfx_fn_parseint = {.name = "parseint",
                                             .params = parseint_params,
                                             .nparams = TFX_COUNTOF(parseint_params),
                                             .varparam = NULL,
                                             .type = parseint_type,
                                             .ret_type = NULL,
                                             .impl = parseint_impl};

/* ---- min, max ---- */

/* The numbers to compare (number.go): numbers, dynamic allowed; null and
 * unknown ones are the machinery's, marks go on the result. */
static const tfx_param numbers_param = {
    .name = "numbers", .type = &tfx_type_number, .allow_dynamic = true};

/* [fn.min.result] [fn.max.result] [fn.min.initial] [fn.max.initial] The
 * extreme of the known, unmarked numbers args[0..nargs): at least one is
 * needed ("must pass at least one number").  Upstream starts from the
 * infinity of the other side and takes each number strictly beyond the
 * best so far, so the first of equal numbers wins, and when none is
 * beyond (every number is that infinity) the result is the starting
 * infinity itself: a 53-bit one that is upstream's shared infinity value,
 * which the modulo operator treats apart (tfx_num_initial_inf). */
static const tfx_value *extreme(tfx_ctx *ctx, const tfx_value *const *args, size_t nargs,
                                bool want_max, tfx_func_error *err)
{
    const tfx_value *best = NULL;
    const tfx_num *start;
    size_t i;

    if (nargs == 0)
        return tfx_fn_error(err, "must pass at least one number"); /* [fn.min.arity] */
    start = tfx_num_initial_inf(ctx->arena, want_max);
    if (start == NULL)
        tfx_fn_nomem(ctx);
    best = tfx_value_number(ctx, start);
    for (i = 0; i < nargs; i++) {
        int c = tfx_num_cmp(args[i]->as.number, best->as.number);

        if (want_max ? c > 0 : c < 0)
            best = args[i];
    }
    return best;
}

static const tfx_value *min_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    return extreme(ctx, args, nargs, false, err);
}

static const tfx_value *max_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    return extreme(ctx, args, nargs, true, err);
}

const tfx_function tfx_fn_min = {.name = "min",
                                 .params = NULL,
                                 .nparams = 0,
                                 .varparam = &numbers_param,
                                 .type = NULL,
                                 .ret_type = &tfx_type_number,
                                 .impl = min_impl};

const tfx_function tfx_fn_max = {.name = "max",
                                 .params = NULL,
                                 .nparams = 0,
                                 .varparam = &numbers_param,
                                 .type = NULL,
                                 .ret_type = &tfx_type_number,
                                 .impl = max_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_numeric[] = {
    {"abs", &tfx_fn_abs},
    {"ceil", &tfx_fn_ceil},
    {"floor", &tfx_fn_floor},
    {"log", &tfx_fn_log},
    {"max", &tfx_fn_max},
    {"min", &tfx_fn_min},
    {"parseint", &tfx_fn_parseint},
    {"pow", &tfx_fn_pow},
    {"signum", &tfx_fn_signum},
    {NULL, NULL},
};
