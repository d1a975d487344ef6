/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_func.c — unit tests of the call machinery (func.c, cty 1.12.1's
 * Function.Call) and of the operator and built-in functions, called
 * directly with tfx_func_call on known, null, unknown, dynamic, marked
 * and wrong-typed arguments.
 *
 * Expectations marked "ref" were recorded from the reference adapter
 * (bin/go-hcl-adapter, HCL 2.14.1 + cty 1.12.1) by evaluating the HCL
 * expression in the comment with the fixture variables of semantics.md
 * 0.4; HCL converts each argument to its parameter's type before the
 * call, and the arguments here are those converted values.  Expectations
 * marked "tf" are Terraform's behaviour where the reference's function of
 * that name is cty's (functions.md (a)): length, coalesce and the to*
 * functions.
 *
 * Results are written in the notation of semantics.md 0.3 (render.h's
 * tfx_render_debug): `"ABC"@sensitive :: string`; errors as
 * "arg N: message" (an argument error) or "error: message".
 */
#include "func.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "check.h"
#include "common.h"
#include "funcs_internal.h"
#include "render.h"
#include "testval.h"

/* ---- Calls ---- */

static const char *op(tfx_func_op o, size_t n, ...)
{
    va_list ap;
    const tfx_value *const *args;
    tfx_func_error err = {-1, NULL};
    const tfx_value *r;

    va_start(ap, n);
    args = tv_items(n, ap);
    va_end(ap);
    r = tfx_func_call(C, tfx_func_operator(o), args, n, &err);
    return outcome(r, &err);
}

/* The result type fn gives for the n values that follow. */
static const char *rtype(const tfx_function *f, size_t n, ...)
{
    va_list ap;
    const tfx_value *const *args;
    tfx_func_error err = {-1, NULL};
    const tfx_type *t;

    va_start(ap, n);
    args = tv_items(n, ap);
    va_end(ap);
    t = tfx_func_return_type(C, f, args, n, &err);
    if (t != NULL)
        return tfx_type_string(C, t);
    return outcome(NULL, &err);
}

/* ---- Test functions for the machinery (semantics.md 0.4) ---- */

/* What the last type function and implementation saw. */
static const char *seen_by_type;
static const char *seen_by_impl;
static int impl_calls;

/* Records the arguments as one line. */
static const char *show_args(const tfx_value *const *args, size_t nargs)
{
    const char *s = "";
    size_t i;

    for (i = 0; i < nargs; i++)
        s = tfx_ctx_printf(C, "%s%s%s", s, i > 0 ? ", " : "",
                           tfx_render_debug_value(C, args[i]));
    return s;
}

static const tfx_type *probe_type(tfx_ctx *ctx, const tfx_function *f,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    (void)ctx;
    (void)err;
    seen_by_type = show_args(args, nargs);
    return f->ret_type;
}

/* Returns "called" and records what it saw. */
static const tfx_value *probe_impl(tfx_ctx *ctx, const tfx_function *f, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    (void)ctx;
    (void)f;
    (void)err;
    impl_calls++;
    seen_by_impl = show_args(args, nargs);
    if (ret->kind == TFX_TYPE_DYNAMIC)
        return S("called with dynamic");
    return S("called");
}

/* Returns a number whatever its return type says. */
static const tfx_value *wrong_impl(tfx_ctx *ctx, const tfx_function *f, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    (void)f;
    (void)ret;
    (void)args;
    (void)nargs;
    (void)err;
    return tfx_value_int(ctx, 1);
}

static const tfx_param p_strict[] = {{.name = "s", .type = &tfx_type_str}};
static const tfx_param p_strict2[] = {{.name = "a", .type = &tfx_type_str},
                                      {.name = "b", .type = &tfx_type_str}};
static const tfx_param p_nullok[] = {{.name = "s", .type = &tfx_type_str, .allow_null = true}};
static const tfx_param p_unkok[] = {
    {.name = "s", .type = &tfx_type_str, .allow_unknown = true}};
static const tfx_param p_dynok[] = {
    {.name = "s", .type = &tfx_type_str, .allow_dynamic = true, .allow_unknown = true}};
static const tfx_param p_markok[] = {
    {.name = "a", .type = &tfx_type_dynamic, .allow_marked = true},
    {.name = "b", .type = &tfx_type_dynamic}};
static const tfx_param p_va_first[] = {{.name = "first", .type = &tfx_type_str}};
static const tfx_param p_va_rest = {.name = "rest", .type = &tfx_type_number};

#define PROBE(var, plist, vparam, rtype_)                                                  \
    static const tfx_function var = {.name = #var,                                         \
                                     .params = (plist),                                    \
                                     .nparams = TFX_COUNTOF(plist),                        \
                                     .varparam = (vparam),                                 \
                                     .type = probe_type,                                   \
                                     .ret_type = (rtype_),                                 \
                                     .impl = probe_impl}

PROBE(strict, p_strict, NULL, &tfx_type_str);
PROBE(strict2, p_strict2, NULL, &tfx_type_str);
PROBE(nullok, p_nullok, NULL, &tfx_type_str);
PROBE(unkok, p_unkok, NULL, &tfx_type_str);
PROBE(dynok, p_dynok, NULL, &tfx_type_str);
PROBE(markok, p_markok, NULL, &tfx_type_str);
PROBE(va, p_va_first, &p_va_rest, &tfx_type_str);

static const tfx_function wrong = {.name = "wrong",
                                   .params = p_strict,
                                   .nparams = 1,
                                   .varparam = NULL,
                                   .type = NULL,
                                   .ret_type = &tfx_type_str,
                                   .impl = wrong_impl};

/* A function whose parameter has type t, to test conformance. */
static const char *conform(const tfx_type *want, const tfx_value *arg)
{
    tfx_param *p = tfx_ctx_alloc(C, sizeof *p);
    tfx_function *f = tfx_ctx_alloc(C, sizeof *f);

    p->name = "p";
    p->type = want;
    f->name = "conform";
    f->params = p;
    f->nparams = 1;
    f->ret_type = &tfx_type_str;
    f->impl = probe_impl;
    return call_fn(f, 1, arg);
}

/* ---- The machinery [call.machinery] ---- */

static void test_machinery(tfx_ctx *ctx, void *unused)
{
    const tfx_value *sens = SENS(S("secret"));
    const tfx_value *sensn = SENS(I(7));
    const tfx_value *us = UNK(TSTR);
    const tfx_value *dyn = &tfx_value_dynamic_unknown;
    const tfx_value *nul = &tfx_value_dynamic_null;
    const tfx_value *sensl = LIST(TSTR, 2, S("a"), SENS(S("b")));

    (void)ctx;
    (void)unused;

    /* Arity [call.arity] */
    CHECK_STR(call_fn(&strict, 0), "error: wrong number of arguments (1 required; 0 given)");
    CHECK_STR(call_fn(&strict, 2, S("a"), S("b")),
              "error: wrong number of arguments (1 required; 2 given)");
    CHECK_STR(call_fn(&va, 0), "error: wrong number of arguments (at least 1 required; 0 given)");
    CHECK_STR(call_fn(&va, 3, S("x"), I(1), I(2)), "\"called\" :: string");
    CHECK_STR(seen_by_impl, "\"x\", 1, 2");

    /* Null (semantics FN5): an error unless allowed; allowed nulls reach
     * the function as they are. */
    CHECK_STR(call_fn(&strict, 1, NUL(TSTR)), "arg 0: argument must not be null");
    CHECK_STR(call_fn(&strict, 1, nul), "arg 0: argument must not be null");
    CHECK_STR(call_fn(&strict, 1, SENS(NUL(TSTR))), "arg 0: argument must not be null");
    CHECK_STR(call_fn(&nullok, 1, NUL(TSTR)), "\"called\" :: string");
    CHECK_STR(seen_by_impl, "null(string)");
    CHECK_STR(call_fn(&va, 2, S("x"), NUL(TNUM)), "arg 1: argument must not be null");

    /* Unknown (FN6): an unknown of the result type, the function not
     * called; unknowns allowed reach it. */
    impl_calls = 0;
    CHECK_STR(call_fn(&strict, 1, us), "unknown(string) :: string");
    CHECK(impl_calls == 0);
    CHECK_STR(seen_by_type, "unknown(string)");
    CHECK_STR(call_fn(&unkok, 1, us), "\"called\" :: string");
    CHECK(impl_calls == 1);
    CHECK_STR(call_fn(&va, 3, S("x"), UNK(TNUM), I(1)), "unknown(string) :: string");
    /* A known list holding unknowns is known. */
    CHECK_STR(call_fn(&markok, 2, S("a"), LIST(TSTR, 1, us)), "\"called\" :: string");

    /* Nulls are checked before unknowns, argument by argument. */
    CHECK_STR(call_fn(&va, 3, S("x"), UNK(TNUM), NUL(TNUM)), "arg 2: argument must not be null");
    CHECK_STR(call_fn(&strict2, 2, us, NUL(TSTR)), "arg 1: argument must not be null");

    /* Dynamic (FN7): without AllowDynamicType the result type is dynamic
     * and the later arguments are not checked; an unknown then gives an
     * unknown of type dynamic. */
    CHECK_STR(call_fn(&strict, 1, dyn), "unknown(dynamic) :: dynamic");
    CHECK_STR(call_fn(&strict2, 2, dyn, NUL(TSTR)), "unknown(dynamic) :: dynamic");
    CHECK_STR(call_fn(&strict2, 2, NUL(TSTR), dyn), "arg 0: argument must not be null");
    CHECK_STR(rtype(&strict2, 2, dyn, I(1)), "dynamic");
    /* With AllowDynamicType the type function sees it. */
    seen_by_type = NULL;
    CHECK_STR(call_fn(&dynok, 1, dyn), "\"called\" :: string");
    CHECK_STR(seen_by_type, "unknown(dynamic)");

    /* Marks (FN8, M9): deeply removed for parameters without
     * AllowMarked, for the type function and the implementation, and put
     * on the result; kept for parameters with it. */
    CHECK_STR(call_fn(&strict, 1, sens), "\"called\"@sensitive :: string");
    CHECK_STR(seen_by_type, "\"secret\"");
    CHECK_STR(seen_by_impl, "\"secret\"");
    CHECK_STR(call_fn(&markok, 2, sens, MARK(sensl, "other")),
              "\"called\"@other@sensitive :: string");
    CHECK_STR(seen_by_type, "\"secret\"@sensitive, list[\"a\",\"b\"]");
    CHECK_STR(seen_by_impl, "\"secret\"@sensitive, list[\"a\",\"b\"]");
    CHECK_STR(call_fn(&va, 3, sens, I(1), sensn), "\"called\"@sensitive :: string");

    /* (O22, M10) An unknown argument ends the call before the marks are
     * applied: the unknown result has none, not even those of earlier
     * arguments. */
    CHECK_STR(call_fn(&strict, 1, SENS(us)), "unknown(string) :: string");
    CHECK_STR(call_fn(&va, 3, sens, sensn, UNK(TNUM)), "unknown(string) :: string");
    CHECK_STR(call_fn(&unkok, 1, SENS(us)), "\"called\"@sensitive :: string");

    /* Type conformance of arguments the caller did not convert. */
    CHECK_STR(call_fn(&strict, 1, I(1)), "arg 0: string required, but received number");
    /* Upstream numbers a variadic argument's conformance error from the
     * first variadic argument. */
    CHECK_STR(call_fn(&va, 3, S("x"), I(1), S("2")), "arg 1: number required, but received string");
    CHECK_STR(call_fn(&va, 2, S("x"), S("2")), "arg 0: number required, but received string");
    CHECK_STR(conform(OBJT(1, "a", TSTR), OBJ(2, "a", S("x"), "b", I(1))),
              "arg 0: unsupported attribute \"b\"");
    CHECK_STR(conform(OBJT(2, "a", TSTR, "z", TNUM), OBJ(1, "a", S("x"))),
              "arg 0: missing required attribute \"z\"");
    CHECK_STR(conform(OBJT(1, "a", TSTR), OBJ(1, "a", I(1))),
              "arg 0: string required, but received number");
    CHECK_STR(conform(TUPT(2, TSTR, TNUM), TUP(1, S("a"))),
              "arg 0: 2 elements are required, but got 1");
    CHECK_STR(conform(TUPT(2, TSTR, TDYN), TUP(2, S("a"), LIST(TSTR, 0))), "\"called\" :: string");
    CHECK_STR(conform(LISTT(TNUM), LIST(TSTR, 0)), "arg 0: number required, but received string");
    CHECK_STR(conform(LISTT(TDYN), LIST(TSTR, 0)), "\"called\" :: string");
    CHECK_STR(conform(SETT(TSTR), LIST(TSTR, 0)),
              "arg 0: set of string required, but received list of string");
    CHECK_STR(conform(TSTR, TUP(0)), "arg 0: string required, but received tuple");

    /* A result that does not conform to the result type. */
    CHECK_STR(call_fn(&wrong, 1, S("a")),
              "error: panic in function implementation: returned value does not conform to "
              "expected return type: string required, but received number");

    /* tfx_func_return_type */
    CHECK_STR(rtype(&strict, 1, us), "string");
    CHECK_STR(rtype(&strict, 1, NUL(TSTR)), "arg 0: argument must not be null");
    CHECK_STR(rtype(&strict, 1, dyn), "dynamic");
    CHECK_STR(rtype(fn("upper"), 1, dyn), "string"); /* upper allows dynamic */
    CHECK_STR(rtype(fn("tolist"), 1, TUP(1, S("a"))), "list(dynamic)");
    CHECK_STR(rtype(fn("coalesce"), 2, S("a"), I(1)), "string");
    CHECK_STR(rtype(fn("min"), 0), "number");

    /* The tables. */
    CHECK(tfx_func_builtin("upper", 5) == &tfx_fn_upper);
    CHECK(tfx_func_builtin("uppe", 4) == NULL);
    CHECK(tfx_func_builtin("upperx", 6) == NULL);
    CHECK(tfx_func_builtin("strlen", 6) == NULL);
    CHECK(tfx_func_builtin("", 0) == NULL);
    {
        const char *name;
        size_t i, n = 0;
        bool all_found = true, distinct = true;

        for (i = 0; (name = tfx_func_builtin_name(i)) != NULL; i++) {
            size_t j;

            n++;
            if (tfx_func_builtin(name, strlen(name)) == NULL)
                all_found = false;
            for (j = 0; j < i; j++)
                if (strcmp(tfx_func_builtin_name(j), name) == 0)
                    distinct = false;
        }
        CHECK(n >= 13);
        CHECK(distinct);
        CHECK(all_found);
    }
    {
        /* each file's table is sorted, so that lookup can search it */
        const tfx_builtin *const tables[] = {
            tfx_builtins_collection, tfx_builtins_conversion, tfx_builtins_datetime,
            tfx_builtins_encoding,   tfx_builtins_format,     tfx_builtins_maps_sets,
            tfx_builtins_numeric,
            tfx_builtins_string,
        };
        size_t t, j;
        bool sorted = true;

        for (t = 0; t < TFX_COUNTOF(tables); t++)
            for (j = 1; tables[t][j - 1].name != NULL && tables[t][j].name != NULL; j++)
                if (strcmp(tables[t][j - 1].name, tables[t][j].name) >= 0)
                    sorted = false;
        CHECK(sorted);
    }
    CHECK_STR(tfx_func_operator(TFX_FOP_ADD)->params[0].name, "a");
    CHECK_STR(tfx_func_operator(TFX_FOP_NOT)->params[0].name, "val");
    CHECK_STR(tfx_func_operator(TFX_FOP_NEGATE)->params[0].name, "num");
}

/* ---- Operators [op.*] ---- */

static void test_operators(tfx_ctx *ctx, void *unused)
{
    const tfx_value *sens = SENS(S("secret"));
    const tfx_value *sensn = SENS(I(7));
    const tfx_value *sensb = SENS(B(true));
    const tfx_value *inf, *ninf;

    (void)ctx;
    (void)unused;
    inf = F(INFINITY);
    ninf = F(-INFINITY);

    /* Arithmetic: ref `1 + 2`, `sensn + 1`, `sensun + 1`, `un + sensn`,
     * `nuln + 1`. */
    CHECK_STR(op(TFX_FOP_ADD, 2, N("1"), N("2")), "3 :: number");
    CHECK_STR(op(TFX_FOP_ADD, 2, sensn, N("1")), "8@sensitive :: number");
    CHECK_STR(op(TFX_FOP_ADD, 2, SENS(UNK(TNUM)), N("1")), "unknown(number) :: number");
    CHECK_STR(op(TFX_FOP_ADD, 2, UNK(TNUM), sensn), "unknown(number) :: number");
    CHECK_STR(op(TFX_FOP_ADD, 2, NUL(TNUM), N("1")), "arg 0: argument must not be null");
    CHECK_STR(op(TFX_FOP_ADD, 2, &tfx_value_dynamic_unknown, N("1")),
              "unknown(number) :: number");
    CHECK_STR(op(TFX_FOP_ADD, 2, S("1"), N("1")), "arg 0: number required, but received string");
    CHECK_STR(op(TFX_FOP_SUBTRACT, 2, N("1"), N("3")), "-2 :: number");
    CHECK_STR(op(TFX_FOP_MULTIPLY, 2, N("1.5"), N("2")), "3 :: number");
    CHECK_STR(op(TFX_FOP_DIVIDE, 2, N("1"), N("0")), "+Inf :: number");
    CHECK_STR(op(TFX_FOP_MODULO, 2, N("-5"), N("3")), "-2 :: number");
    CHECK_STR(op(TFX_FOP_NEGATE, 1, sensn), "-7@sensitive :: number");
    CHECK_STR(op(TFX_FOP_NEGATE, 1, NUL(TNUM)), "arg 0: argument must not be null");
    CHECK_STR(op(TFX_FOP_NEGATE, 1, SENS(UNK(TNUM))), "unknown(number) :: number");

    /* The errors of infinities (semantics N14, N19): ref `1/0 - 1/0`,
     * `1/0 + -1/0`, `0 * (1/0)`, `0/0`, `5 % (1/0)`; `(1/0) % 5` is a Go
     * panic upstream and tfexpr's defined error here. */
    CHECK_STR(op(TFX_FOP_SUBTRACT, 2, inf, inf), "error: can't subtract infinity from itself");
    CHECK_STR(op(TFX_FOP_ADD, 2, inf, ninf), "error: can't compute sum of opposing infinities");
    CHECK_STR(op(TFX_FOP_MULTIPLY, 2, N("0"), inf), "error: can't multiply zero by infinity");
    CHECK_STR(op(TFX_FOP_DIVIDE, 2, N("0"), N("0")),
              "error: can't divide zero by zero or infinity by infinity");
    CHECK_STR(op(TFX_FOP_MODULO, 2, N("5"), inf), "error: can't use modulo with zero and infinity");
    CHECK_STR(op(TFX_FOP_MODULO, 2, inf, N("5")),
              "error: can't use modulo with an infinite dividend or quotient");

    /* Comparison: ref `sensn > 1`, `sensn <= 7`; and (N22) with
     * pow(10,-1) (a 53-bit 0.1) against the literal 0.1: `<=`, `>`, `>=`
     * are all true, `<` false, because <= is "< or ==" and == compares the
     * texts. */
    CHECK_STR(op(TFX_FOP_GREATER, 2, sensn, N("1")), "true@sensitive :: bool");
    CHECK_STR(op(TFX_FOP_LESS_EQUAL, 2, sensn, N("7")), "true@sensitive :: bool");
    CHECK_STR(op(TFX_FOP_LESS, 2, N("1"), MARK(N("2"), "other")), "true@other :: bool");
    CHECK_STR(op(TFX_FOP_LESS_EQUAL, 2, F(0.1), N("0.1")), "true :: bool");
    CHECK_STR(op(TFX_FOP_GREATER, 2, F(0.1), N("0.1")), "true :: bool");
    CHECK_STR(op(TFX_FOP_GREATER_EQUAL, 2, F(0.1), N("0.1")), "true :: bool");
    CHECK_STR(op(TFX_FOP_LESS, 2, F(0.1), N("0.1")), "false :: bool");
    CHECK_STR(op(TFX_FOP_GREATER_EQUAL, 2, N("0.1"), F(0.1)), "true :: bool");
    /* A 53-bit third against the same value at 512 bits: neither < nor
     * ==, so not <= (semantics N22). */
    CHECK_STR(op(TFX_FOP_LESS_EQUAL, 2, F(1.0 / 3),
                 N("0.333333333333333314829616256247390992939472198486328125")),
              "false :: bool");
    CHECK_STR(op(TFX_FOP_LESS, 2, ninf, N("-1e10000")), "true :: bool");
    CHECK_STR(op(TFX_FOP_LESS, 2, SENS(UNK(TNUM)), N("1")), "unknown(bool) :: bool");
    CHECK_STR(op(TFX_FOP_GREATER, 2, N("1"), NUL(TNUM)), "arg 1: argument must not be null");

    /* Equality (O8–O15): ref `sens == "x"`, `sensu == "x"`,
     * `sensl == sensl`, `sens == other`, `sensnull == null`, `us == "a"`,
     * `dyn == 1`. */
    CHECK_STR(op(TFX_FOP_EQUAL, 2, sens, S("x")), "false@sensitive :: bool");
    CHECK_STR(op(TFX_FOP_EQUAL, 2, SENS(UNK(TSTR)), S("x")), "unknown(bool)@sensitive :: bool");
    {
        const tfx_value *sensl = LIST(TSTR, 2, S("a"), SENS(S("b")));

        CHECK_STR(op(TFX_FOP_EQUAL, 2, sensl, sensl), "true@sensitive :: bool");
    }
    CHECK_STR(op(TFX_FOP_EQUAL, 2, sens, MARK(S("o"), "other")),
              "false@other@sensitive :: bool");
    CHECK_STR(op(TFX_FOP_EQUAL, 2, SENS(NUL(TSTR)), &tfx_value_dynamic_null),
              "true@sensitive :: bool");
    CHECK_STR(op(TFX_FOP_EQUAL, 2, UNK(TSTR), S("a")), "unknown(bool) :: bool");
    CHECK_STR(op(TFX_FOP_EQUAL, 2, &tfx_value_dynamic_unknown, N("1")), "unknown(bool) :: bool");
    CHECK_STR(op(TFX_FOP_EQUAL, 2, N("1"), S("1")), "false :: bool");
    CHECK_STR(op(TFX_FOP_NOT_EQUAL, 2, N("1"), S("1")), "true :: bool");
    CHECK_STR(op(TFX_FOP_NOT_EQUAL, 2, UNK(TSTR), S("a")), "unknown(bool) :: bool");
    CHECK_STR(op(TFX_FOP_NOT_EQUAL, 2, &tfx_value_dynamic_null, NUL(TSTR)), "false :: bool");

    /* Logic: ref `!sensb`, `sensb && true`, `sensb && ub`,
     * `true || sensb`; nulls are errors (O17). */
    CHECK_STR(op(TFX_FOP_NOT, 1, sensb), "false@sensitive :: bool");
    CHECK_STR(op(TFX_FOP_AND, 2, sensb, B(true)), "true@sensitive :: bool");
    CHECK_STR(op(TFX_FOP_AND, 2, sensb, UNK(TBOOL)), "unknown(bool) :: bool");
    CHECK_STR(op(TFX_FOP_OR, 2, B(true), sensb), "true@sensitive :: bool");
    CHECK_STR(op(TFX_FOP_OR, 2, B(false), B(false)), "false :: bool");
    CHECK_STR(op(TFX_FOP_AND, 2, B(false), NUL(TBOOL)), "arg 1: argument must not be null");
    CHECK_STR(op(TFX_FOP_OR, 2, &tfx_value_dynamic_null, B(true)),
              "arg 0: argument must not be null");
    CHECK_STR(op(TFX_FOP_NOT, 1, S("true")), "arg 0: bool required, but received string");
}

/* ---- Built-in functions [fn.*] ---- */

static void test_strings(tfx_ctx *ctx, void *unused)
{
    (void)ctx;
    (void)unused;

    /* ref upper(...), lower(...) */
    CHECK_STR(call_fn(fn("upper"), 1, S("abc")), "\"ABC\" :: string");
    CHECK_STR(call_fn(fn("upper"), 1, SENS(S("secret"))), "\"SECRET\"@sensitive :: string");
    CHECK_STR(call_fn(fn("upper"), 1, SENS(UNK(TSTR))), "unknown(string) :: string");
    CHECK_STR(call_fn(fn("upper"), 1, UNK(TSTR)), "unknown(string) :: string");
    CHECK_STR(call_fn(fn("upper"), 1, NUL(TSTR)), "arg 0: argument must not be null");
    CHECK_STR(call_fn(fn("upper"), 1, &tfx_value_dynamic_unknown), "unknown(string) :: string");
    CHECK_STR(call_fn(fn("upper"), 1, I(5)), "arg 0: string required, but received number");
    CHECK_STR(call_fn(fn("upper"), 1, S("\xc3\x9f \xc7\x86 stra\xc3\x9f" "e \xc4\xb1")),
              "\"\xc3\x9f \xc7\x84 STRA\xc3\x9f" "E I\" :: string");
    CHECK_STR(call_fn(fn("lower"), 1, S("\xc3\x80\xce\xa3\xc4\xb0 KELVIN\xe2\x84\xaa")),
              "\"\xc3\xa0\xcf\x83i kelvink\" :: string");
    CHECK_STR(call_fn(fn("lower"), 1, S("\xc7\x85")), "\"\xc7\x86\" :: string");
    /* The result is NFC again: upper("e\u0301") = "\u00c9". */
    CHECK_STR(call_fn(fn("upper"), 1, S("e\xcc\x81")), "\"\xc3\x89\" :: string");
}

static void test_numeric(tfx_ctx *ctx, void *unused)
{
    const tfx_value *r;
    tfx_func_error err = {-1, NULL};
    const tfx_value *args[2];

    (void)ctx;
    (void)unused;

    /* ref min(...), max(...) */
    CHECK_STR(call_fn(fn("min"), 3, N("1"), N("2"), N("-3")), "-3 :: number");
    CHECK_STR(call_fn(fn("min"), 0), "error: must pass at least one number");
    CHECK_STR(call_fn(fn("max"), 2, N("1"), UNK(TNUM)), "unknown(number) :: number");
    CHECK_STR(call_fn(fn("max"), 2, SENS(I(7)), N("1")), "7@sensitive :: number");
    CHECK_STR(call_fn(fn("min"), 2, N("1"), NUL(TNUM)), "arg 1: argument must not be null");
    CHECK_STR(call_fn(fn("min"), 2, NUL(TNUM), UNK(TNUM)), "arg 0: argument must not be null");
    CHECK_STR(call_fn(fn("min"), 2, UNK(TNUM), NUL(TNUM)), "arg 1: argument must not be null");
    CHECK_STR(call_fn(fn("max"), 1, F(INFINITY)), "+Inf :: number");
    CHECK_STR(call_fn(fn("min"), 2, F(-INFINITY), F(INFINITY)), "-Inf :: number");
    CHECK_STR(call_fn(fn("min"), 2, SENS(I(7)), SENS(UNK(TNUM))), "unknown(number) :: number");
    CHECK_STR(call_fn(fn("max"), 2, S("5"), I(3)), "arg 0: number required, but received string");

    /* The first of equal numbers is the result. */
    args[0] = N("1");
    args[1] = I(1);
    r = tfx_func_call(C, fn("max"), args, 2, &err);
    CHECK(r == args[0]);
    r = tfx_func_call(C, fn("min"), args, 2, &err);
    CHECK(r == args[0]);
    /* No number beyond the starting infinity: that infinity itself, 53
     * bits, not the argument (a 512-bit one). */
    {
        const tfx_num *inf512 = NULL;

        CHECK(tfx_num_div(C->arena, N("1")->as.number, N("0")->as.number, &inf512) ==
              TFX_NUM_OK);
        args[0] = tfx_value_number(C, inf512);
        r = tfx_func_call(C, fn("min"), args, 1, &err);
        CHECK(r != NULL && r != args[0] && tfx_num_is_inf(r->as.number) &&
              tfx_num_prec(r->as.number) == 53);
        r = tfx_func_call(C, fn("max"), args, 1, &err);
        CHECK(r == args[0]);
    }
}

static void test_collection(tfx_ctx *ctx, void *unused)
{
    const tfx_value *us = UNK(TSTR);

    (void)ctx;
    (void)unused;

    /* length: ref for lists, sets and maps (cty's length agrees there). */
    CHECK_STR(call_fn(fn("length"), 1, LIST(TSTR, 3, S("a"), S("b"), S("c"))), "3 :: number");
    CHECK_STR(call_fn(fn("length"), 1, SENS(LIST(TSTR, 2, S("a"), S("b")))),
              "2@sensitive :: number");
    CHECK_STR(call_fn(fn("length"), 1, LIST(TSTR, 2, S("a"), SENS(S("b")))), "2 :: number");
    CHECK_STR(call_fn(fn("length"), 1, SET(TSTR, 2, S("b"), S("a"))), "2 :: number");
    CHECK_STR(call_fn(fn("length"), 1, SET(TSTR, 2, S("a"), us)), "unknown(number) :: number");
    CHECK_STR(call_fn(fn("length"), 1, SET(TSTR, 1, us)), "1 :: number");
    CHECK_STR(call_fn(fn("length"), 1, MAP(TSTR, 2, "a", S("x"), "b", S("y"))), "2 :: number");
    CHECK_STR(call_fn(fn("length"), 1, TUP(2, I(1), I(2))), "2 :: number");
    CHECK_STR(call_fn(fn("length"), 1, &tfx_value_dynamic_unknown), "unknown(number) :: number");
    CHECK_STR(call_fn(fn("length"), 1, UNK(LISTT(TSTR))), "unknown(number) :: number");
    CHECK_STR(call_fn(fn("length"), 1, &tfx_value_dynamic_null), "arg 0: argument must not be null");
    CHECK_STR(call_fn(fn("length"), 1, NUL(LISTT(TSTR))), "arg 0: argument must not be null");
    /* tf: strings count grapheme clusters (cty's Strlen) ... */
    CHECK_STR(call_fn(fn("length"), 1, S("hello")), "5 :: number");
    CHECK_STR(call_fn(fn("length"), 1, S("")), "0 :: number");
    CHECK_STR(call_fn(fn("length"), 1, S("\xf0\x9f\x91\xbe\xf0\x9f\x95\xb9\xef\xb8\x8f")),
              "2 :: number");
    CHECK_STR(call_fn(fn("length"), 1, S("e\xcc\x81x")), "2 :: number");
    CHECK_STR(call_fn(fn("length"), 1, SENS(S("secret"))), "6@sensitive :: number");
    /* ... through cty's Strlen call, which drops the marks of an unknown
     * string (P14). */
    CHECK_STR(call_fn(fn("length"), 1, us), "unknown(number) :: number");
    CHECK_STR(call_fn(fn("length"), 1, SENS(us)), "unknown(number) :: number");
    /* tf: tuples and objects from the type, even unknown; the value's
     * own marks are kept, also on unknown results. */
    CHECK_STR(call_fn(fn("length"), 1, UNK(TUPT(2, TSTR, TNUM))), "2 :: number");
    CHECK_STR(call_fn(fn("length"), 1, SENS(UNK(OBJT(2, "a", TSTR, "b", TNUM)))),
              "2@sensitive :: number");
    CHECK_STR(call_fn(fn("length"), 1, OBJ(1, "a", SENS(S("x")))), "1 :: number");
    CHECK_STR(call_fn(fn("length"), 1, SENS(UNK(LISTT(TSTR)))),
              "unknown(number)@sensitive :: number");
    CHECK_STR(call_fn(fn("length"), 1, SENS(&tfx_value_dynamic_unknown)),
              "unknown(number)@sensitive :: number");
    CHECK_STR(call_fn(fn("length"), 1, I(5)),
              "error: argument must be a string, a collection type, or a structural type");
    CHECK_STR(call_fn(fn("length"), 1, B(true)),
              "error: argument must be a string, a collection type, or a structural type");
    CHECK_STR(call_fn(fn("length"), 1, TUP(0)), "0 :: number");

    /* coalesce (tf): unified type; null and "" skipped. */
    CHECK_STR(call_fn(fn("coalesce"), 2, S(""), S("b")), "\"b\" :: string");
    CHECK_STR(call_fn(fn("coalesce"), 2, I(1), S("hello")), "\"1\" :: string");
    CHECK_STR(call_fn(fn("coalesce"), 2, S(""), I(0)), "\"0\" :: string");
    CHECK_STR(call_fn(fn("coalesce"), 2, NUL(TNUM), I(2)), "2 :: number");
    CHECK_STR(call_fn(fn("coalesce"), 2, &tfx_value_dynamic_null, S("x")), "\"x\" :: string");
    CHECK_STR(call_fn(fn("coalesce"), 0), "error: all arguments must have the same type");
    CHECK_STR(call_fn(fn("coalesce"), 2, I(1), B(true)),
              "error: all arguments must have the same type");
    CHECK_STR(call_fn(fn("coalesce"), 2, &tfx_value_dynamic_null, &tfx_value_dynamic_null),
              "error: no non-null, non-empty-string arguments");
    CHECK_STR(call_fn(fn("coalesce"), 2, S(""), NUL(TSTR)),
              "error: no non-null, non-empty-string arguments");
    CHECK_STR(call_fn(fn("coalesce"), 2, us, S("b")), "unknown(string) :: string");
    CHECK_STR(call_fn(fn("coalesce"), 2, S("a"), us), "\"a\" :: string");
    CHECK_STR(call_fn(fn("coalesce"), 2, &tfx_value_dynamic_unknown, S("x")),
              "unknown(string) :: string");
    /* Every argument's marks go on the result, unknown results included. */
    CHECK_STR(call_fn(fn("coalesce"), 2, SENS(S("s")), S("b")), "\"s\"@sensitive :: string");
    CHECK_STR(call_fn(fn("coalesce"), 2, S("a"), SENS(S("s"))), "\"a\"@sensitive :: string");
    CHECK_STR(call_fn(fn("coalesce"), 2, SENS(us), S("a")), "unknown(string)@sensitive :: string");
    /* "" is skipped only when the unified type is string. */
    CHECK_STR(call_fn(fn("coalesce"), 2, LIST(TSTR, 0), LIST(TSTR, 1, S("a"))),
              "list[] :: list(string)");
}

static void test_encoding(tfx_ctx *ctx, void *unused)
{
    const tfx_value *inf = F(INFINITY);

    (void)ctx;
    (void)unused;

    /* ref jsonencode(...) */
    CHECK_STR(call_fn(fn("jsonencode"), 1,
                   OBJ(3, "b", TUP(3, I(1), S("x"), B(true)), "a", &tfx_value_dynamic_null, "c",
                       S("<&>\xe2\x80\xa8\n\t\x01\x7f"))),
              "\"{\\\"a\\\":null,\\\"b\\\":[1,\\\"x\\\",true],\\\"c\\\":\\\"\\\\u003c\\\\u0026"
              "\\\\u003e\\\\u2028\\\\n\\\\t\\\\u0001\\x7f\\\"}\" :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, &tfx_value_dynamic_null), "\"null\" :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, NUL(TSTR)), "\"null\" :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, LIST(TSTR, 2, S("a"), UNK(TSTR))),
              "unknown(string) :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, LIST(TSTR, 2, S("a"), SENS(S("b")))),
              "\"[\\\"a\\\",\\\"b\\\"]\"@sensitive :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, inf), "error: cannot serialize infinity as JSON");
    CHECK_STR(call_fn(fn("jsonencode"), 1, TUP(1, inf)), "error: cannot serialize infinity as JSON");
    CHECK_STR(call_fn(fn("jsonencode"), 1, SET(TSTR, 2, S("b"), S("a"))),
              "\"[\\\"a\\\",\\\"b\\\"]\" :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, MAP(TSTR, 2, "b", S("y"), "a", S("x"))),
              "\"{\\\"a\\\":\\\"x\\\",\\\"b\\\":\\\"y\\\"}\" :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, N("1e21")), "\"1000000000000000000000\" :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, &tfx_value_dynamic_unknown), "unknown(string) :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, SENS(UNK(TSTR))), "unknown(string) :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, S("\b\f")), "\"\\\"\\\\u0008\\\\u000c\\\"\" :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, LIST(TDYN, 0)), "\"[]\" :: string");
    CHECK_STR(call_fn(fn("jsonencode"), 1, OBJ(0)), "\"{}\" :: string");
}

static void test_conversion(tfx_ctx *ctx, void *unused)
{
    const tfx_value *st = SET(TSTR, 2, S("b"), S("a"));

    (void)ctx;
    (void)unused;

    /* ref: known, unmarked arguments (cty's MakeToFunc agrees there). */
    CHECK_STR(call_fn(fn("tobool"), 1, S("TRUE")),
              "arg 0: cannot convert \"TRUE\" to bool; only the strings \"true\" or \"false\" "
              "are allowed");
    CHECK_STR(call_fn(fn("tobool"), 1, S("true")), "true :: bool");
    CHECK_STR(call_fn(fn("tobool"), 1, I(1)), "arg 0: cannot convert number to bool");
    CHECK_STR(call_fn(fn("tonumber"), 1, S("0x10")),
              "arg 0: cannot convert \"0x10\" to number; given string must be a decimal "
              "representation of a number");
    CHECK_STR(call_fn(fn("tonumber"), 1, S("1e3")), "1000 :: number");
    CHECK_STR(call_fn(fn("tonumber"), 1, B(true)), "arg 0: cannot convert bool to number");
    CHECK_STR(call_fn(fn("tonumber"), 1, S("\x01x\"")),
              "arg 0: cannot convert \"\\x01x\\\"\" to number; given string must be a decimal "
              "representation of a number");
    CHECK_STR(call_fn(fn("tobool"), 1, S("\xc3\xa9\xc2\xa0\xe2\x80\xa8")),
              "arg 0: cannot convert \"\xc3\xa9\\u00a0\\u2028\" to bool; only the strings "
              "\"true\" or \"false\" are allowed");
    CHECK_STR(call_fn(fn("tostring"), 1, N("1.5")), "\"1.5\" :: string");
    CHECK_STR(call_fn(fn("tostring"), 1, B(true)), "\"true\" :: string");
    CHECK_STR(call_fn(fn("tostring"), 1, TUP(1, I(1))), "arg 0: cannot convert tuple to string");
    CHECK_STR(call_fn(fn("tostring"), 1, OBJ(1, "a", I(1))), "arg 0: cannot convert object to string");
    CHECK_STR(call_fn(fn("tolist"), 1, TUP(3, I(1), S("a"), B(true))),
              "list[\"1\",\"a\",\"true\"] :: list(string)");
    CHECK_STR(call_fn(fn("tolist"), 1, TUP(2, I(1), B(true))),
              "arg 0: cannot convert tuple to list of any single type");
    CHECK_STR(call_fn(fn("tolist"), 1, OBJ(1, "a", I(1))),
              "arg 0: cannot convert object to list of any single type");
    CHECK_STR(call_fn(fn("tolist"), 1, st), "list[\"a\",\"b\"] :: list(string)");
    CHECK_STR(call_fn(fn("toset"), 1, TUP(4, S("b"), S("a"), S("b"), I(3))),
              "set[\"3\",\"a\",\"b\"] :: set(string)");
    CHECK_STR(call_fn(fn("tomap"), 1, OBJ(2, "a", I(1), "b", S("x"))),
              "map{\"a\"=\"1\",\"b\"=\"x\"} :: map(string)");
    CHECK_STR(call_fn(fn("tomap"), 1, OBJ(2, "a", I(1), "b", B(true))),
              "arg 0: cannot convert object to map of any single type");
    CHECK_STR(call_fn(fn("tomap"), 1, OBJ(0)), "map{} :: map(dynamic)");
    CHECK_STR(call_fn(fn("tolist"), 1, TUP(0)), "list[] :: list(dynamic)");
    CHECK_STR(call_fn(fn("tostring"), 1, NUL(TSTR)), "null(string) :: string");
    CHECK_STR(call_fn(fn("tolist"), 1, NUL(TUPT(1, TSTR))), "null(list(string)) :: list(string)");
    CHECK_STR(call_fn(fn("tolist"), 1, LIST(TSTR, 2, S("a"), UNK(TSTR))),
              "list[\"a\",unknown(string)] :: list(string)");
    CHECK_STR(call_fn(fn("tolist"), 1, SET(TSTR, 2, S("a"), UNK(TSTR))),
              "unknown(list(string)) :: list(string)");
    CHECK_STR(call_fn(fn("tostring"), 1, SENS(I(7))), "\"7\"@sensitive :: string");
    CHECK_STR(call_fn(fn("tonumber"), 1, SENS(NUL(TSTR))), "null(number)@sensitive :: number");

    /* tf: a null of type dynamic becomes a null of the target type
     * (cty 1.12.1's gives null(dynamic)). */
    CHECK_STR(call_fn(fn("tostring"), 1, &tfx_value_dynamic_null), "null(string) :: string");
    CHECK_STR(call_fn(fn("tolist"), 1, &tfx_value_dynamic_null),
              "null(list(dynamic)) :: list(dynamic)");
    /* tf: unknowns give an unknown of the target type with the
     * argument's own marks. */
    CHECK_STR(call_fn(fn("tolist"), 1, UNK(TUPT(2, TSTR, TNUM))),
              "unknown(list(dynamic)) :: list(dynamic)");
    CHECK_STR(call_fn(fn("tostring"), 1, SENS(UNK(TSTR))), "unknown(string)@sensitive :: string");
    CHECK_STR(call_fn(fn("tostring"), 1, &tfx_value_dynamic_unknown), "unknown(string) :: string");
    CHECK_STR(call_fn(fn("tomap"), 1, SENS(&tfx_value_dynamic_unknown)),
              "unknown(map(dynamic))@sensitive :: map(dynamic)");
    CHECK_STR(call_fn(fn("tobool"), 1, UNK(TNUM)), "arg 0: cannot convert number to bool");
    /* tf: marks stay where they are. */
    CHECK_STR(call_fn(fn("tolist"), 1, LIST(TSTR, 2, S("a"), SENS(S("b")))),
              "list[\"a\",\"b\"@sensitive] :: list(string)");
    CHECK_STR(call_fn(fn("tolist"), 1, SENS(TUP(2, I(1), S("a")))),
              "list[\"1\",\"a\"]@sensitive :: list(string)");
    /* tf: a sensitive value is not shown in the message. */
    CHECK_STR(call_fn(fn("tobool"), 1, SENS(S("TRUE"))),
              "arg 0: cannot convert this sensitive string to bool");
    CHECK_STR(call_fn(fn("tonumber"), 1, MARK(S("x"), "other")),
              "arg 0: cannot convert \"x\" to number; given string must be a decimal "
              "representation of a number");
    CHECK_STR(call_fn(fn("tostring"), 1, SENS(TUP(0))), "arg 0: cannot convert tuple to string");
}

/* ---- Driver ---- */

/* A call that runs out of memory fails through the ctx: upper of a
 * string made in a longer-lived ctx, in a ctx too small for the result. */
static const tfx_value *big_string;

static void huge_upper(tfx_ctx *ctx, void *unused)
{
    tfx_func_error err = {-1, NULL};

    (void)unused;
    (void)tfx_func_call(ctx, &tfx_fn_upper, &big_string, 1, &err);
}

static void make_big_string(tfx_ctx *ctx, void *unused)
{
    char *s = tfx_ctx_alloc(ctx, 200000);

    (void)unused;
    memset(s, 'a', 199999);
    big_string = tfx_value_string(ctx, s, 199999);
}

int main(void)
{
    tfx_ctx_limits limits;

    CHECK(run("machinery", test_machinery));
    CHECK(run("operators", test_operators));
    CHECK(run("strings", test_strings));
    CHECK(run("numeric", test_numeric));
    CHECK(run("collection", test_collection));
    CHECK(run("encoding", test_encoding));
    CHECK(run("conversion", test_conversion));

    {
        tfx_ctx big;

        CHECK(tfx_ctx_init(&big, NULL));
        CHECK(tfx_ctx_try(&big, make_big_string, NULL));
        tfx_ctx_limits_init(&limits);
        limits.max_memory_bytes = 100000;
        CHECK_STR(run_limited(&limits, huge_upper, NULL), "Memory limit exceeded");
        tfx_ctx_free(&big);
    }
    return check_report("test_func");
}
