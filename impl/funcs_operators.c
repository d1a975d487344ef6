/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_operators.c — the functions behind the operators of the language
 * (semantics O1): cty 1.12.1's stdlib AddFunc, SubtractFunc, MultiplyFunc,
 * DivideFunc, ModuloFunc, LessThanFunc, LessThanOrEqualToFunc,
 * GreaterThanFunc, GreaterThanOrEqualToFunc, EqualFunc, NotEqualFunc,
 * AndFunc, OrFunc, NotFunc and NegateFunc, with their parameters' flags
 * exactly [op.*].  The generic rules (null and unknown operands, marks
 * of the arithmetic operators) are tfx_func_call's.
 */
#include <stdbool.h>

#include "common.h"
#include "funcs_internal.h"

/* ---- Parameters ---- */

/* Number operands of arithmetic (number.go): dynamic allowed, nothing
 * else, so marks are the machinery's (semantics O21) and unknown
 * operands give an unmarked unknown (O22). */
static const tfx_param arith_params[] = {
    {.name = "a", .type = &tfx_type_number, .allow_dynamic = true},
    {.name = "b", .type = &tfx_type_number, .allow_dynamic = true},
};

/* Number operands of comparisons: marks allowed too; the operation
 * carries the operands' marks itself. */
static const tfx_param compare_params[] = {
    {.name = "a", .type = &tfx_type_number, .allow_dynamic = true, .allow_marked = true},
    {.name = "b", .type = &tfx_type_number, .allow_dynamic = true, .allow_marked = true},
};

static const tfx_param negate_params[] = {
    {.name = "num", .type = &tfx_type_number, .allow_dynamic = true, .allow_marked = true},
};

/* Operands of == and != (general.go): anything, null and unknown
 * included, but not marked: the machinery collects every mark of both
 * (semantics O15). */
static const tfx_param equal_params[] = {
    {.name = "a", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
     .allow_dynamic = true},
    {.name = "b", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
     .allow_dynamic = true},
};

/* Operands of && and || (bool.go). */
static const tfx_param logic_params[] = {
    {.name = "a", .type = &tfx_type_bool, .allow_dynamic = true, .allow_marked = true},
    {.name = "b", .type = &tfx_type_bool, .allow_dynamic = true, .allow_marked = true},
};

static const tfx_param not_params[] = {
    {.name = "val", .type = &tfx_type_bool, .allow_dynamic = true, .allow_marked = true},
};

/* ---- Arithmetic [op.arith] ---- */

typedef tfx_num_err (*num_op)(tfx_arena *a, const tfx_num *x, const tfx_num *y,
                              const tfx_num **out);

/* [op.arith] (semantics N14–N19, N23) The operands are known, unmarked
 * numbers here; an operation that upstream cannot complete (big.Float's
 * NaN panics, recovered by each function) is the plain error whose text
 * the number module gives [num.inf-error], [num.mod.inf]. */
static const tfx_value *arith(tfx_ctx *ctx, num_op op, const tfx_value *const *args,
                              tfx_func_error *err)
{
    const tfx_num *out = NULL;
    tfx_num_err status = op(ctx->arena, args[0]->as.number, args[1]->as.number, &out);

    return tfx_fn_number_result(ctx, status, out, err);
}

static const tfx_value *add_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    return arith(ctx, tfx_num_add, args, err);
}

static const tfx_value *subtract_impl(tfx_ctx *ctx, const tfx_function *fn,
                                      const tfx_type *ret, const tfx_value *const *args,
                                      size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    return arith(ctx, tfx_num_sub, args, err);
}

static const tfx_value *multiply_impl(tfx_ctx *ctx, const tfx_function *fn,
                                      const tfx_type *ret, const tfx_value *const *args,
                                      size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    return arith(ctx, tfx_num_mul, args, err);
}

static const tfx_value *divide_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    return arith(ctx, tfx_num_div, args, err);
}

static const tfx_value *modulo_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    return arith(ctx, tfx_num_mod, args, err);
}

/* [op.neg] (semantics N24) -x, zeros included; the operand's marks stay
 * on the result. */
static const tfx_value *negate_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *x = tfx_value_unmark(ctx, args[0], &marks);
    const tfx_num *n = tfx_num_neg(ctx->arena, x->as.number);

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (n == NULL)
        tfx_fn_nomem(ctx);
    return tfx_value_mark(ctx, tfx_value_number(ctx, n), marks);
}

/* ---- Comparison [op.cmp] ---- */

typedef enum { CMP_LT, CMP_LE, CMP_GT, CMP_GE } cmp_kind;

/* [op.cmp] (semantics N21, N22, O7, O21) < and > compare the exact
 * values; <= and >= are "< or ==" and "> or ==" with cty's number
 * equality [num.eq], so two numbers that print alike are <= each other
 * even when < and > both say no.  The result carries the marks of both
 * operands. */
static const tfx_value *compare(tfx_ctx *ctx, cmp_kind kind, const tfx_value *const *args)
{
    const tfx_marks *ma = NULL, *mb = NULL;
    const tfx_value *a = tfx_value_unmark(ctx, args[0], &ma);
    const tfx_value *b = tfx_value_unmark(ctx, args[1], &mb);
    int c = tfx_num_cmp(a->as.number, b->as.number);
    bool result = false;
    bool equal = false;

    if ((kind == CMP_LE || kind == CMP_GE) &&
        tfx_num_equal(a->as.number, b->as.number, &equal) != TFX_NUM_OK)
        tfx_fn_nomem(ctx);
    switch (kind) {
    case CMP_LT: result = c < 0; break;
    case CMP_LE: result = c < 0 || equal; break;
    case CMP_GT: result = c > 0; break;
    case CMP_GE: result = c > 0 || equal; break;
    }
    return tfx_value_mark(ctx, tfx_value_bool(result), tfx_marks_union(ctx, ma, mb));
}

static const tfx_value *less_than_impl(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_type *ret, const tfx_value *const *args,
                                       size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return compare(ctx, CMP_LT, args);
}

static const tfx_value *less_equal_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return compare(ctx, CMP_LE, args);
}

static const tfx_value *greater_than_impl(tfx_ctx *ctx, const tfx_function *fn,
                                          const tfx_type *ret, const tfx_value *const *args,
                                          size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return compare(ctx, CMP_GT, args);
}

static const tfx_value *greater_equal_impl(tfx_ctx *ctx, const tfx_function *fn,
                                           const tfx_type *ret, const tfx_value *const *args,
                                           size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return compare(ctx, CMP_GE, args);
}

/* ---- Equality [op.eq] ---- */

/* [op.eq] (semantics O8–O15) cty's Value.Equals of the unmarked operands
 * (tfx_value_equals): true, false, or an unknown bool; != is its
 * negation, an unknown staying unknown.  The machinery puts every mark
 * of both operands on the result, unknown results included (O22). */
static const tfx_value *equality(tfx_ctx *ctx, const tfx_value *const *args, bool negate)
{
    switch (tfx_value_equals(ctx, args[0], args[1])) {
    case TFX_TRI_TRUE: return tfx_value_bool(!negate);
    case TFX_TRI_FALSE: return tfx_value_bool(negate);
    case TFX_TRI_UNKNOWN: break;
    }
    return tfx_value_unknown(ctx, &tfx_type_bool);
}

static const tfx_value *equal_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return equality(ctx, args, false);
}

static const tfx_value *not_equal_impl(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_type *ret, const tfx_value *const *args,
                                       size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return equality(ctx, args, true);
}

/* ---- Logic [op.logic] ---- */

/* [op.logic] (semantics O16, O17, O21) && and || of two known bools (P14
 * does not short-circuit: both operands were known and non-null to get
 * here), ! of one; the result carries the operands' marks. */
static const tfx_value *logic(tfx_ctx *ctx, const tfx_value *const *args, size_t nargs,
                              char op)
{
    const tfx_marks *ma = NULL, *mb = NULL;
    const tfx_value *a = tfx_value_unmark(ctx, args[0], &ma);
    bool result;

    if (op == '!') {
        result = !a->as.boolean;
    } else {
        const tfx_value *b = tfx_value_unmark(ctx, args[nargs - 1], &mb);

        result = op == '&' ? (a->as.boolean && b->as.boolean) : (a->as.boolean || b->as.boolean);
    }
    return tfx_value_mark(ctx, tfx_value_bool(result), tfx_marks_union(ctx, ma, mb));
}

static const tfx_value *and_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(err);
    return logic(ctx, args, nargs, '&');
}

static const tfx_value *or_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                const tfx_value *const *args, size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(err);
    return logic(ctx, args, nargs, '|');
}

static const tfx_value *not_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(err);
    return logic(ctx, args, nargs, '!');
}

/* ---- The functions ---- */

#define OPERATOR(var, fname, plist, rtype, impl_fn)                                      \
    const tfx_function var = {.name = (fname),                                             \
                              .params = (plist),                                           \
                              .nparams = TFX_COUNTOF(plist),                               \
                              .varparam = NULL,                                            \
                              .type = NULL,                                                \
                              .ret_type = (rtype),                                         \
                              .impl = (impl_fn)}

OPERATOR(tfx_fn_add, "add", arith_params, &tfx_type_number, add_impl);
OPERATOR(tfx_fn_subtract, "subtract", arith_params, &tfx_type_number, subtract_impl);
OPERATOR(tfx_fn_multiply, "multiply", arith_params, &tfx_type_number, multiply_impl);
OPERATOR(tfx_fn_divide, "divide", arith_params, &tfx_type_number, divide_impl);
OPERATOR(tfx_fn_modulo, "modulo", arith_params, &tfx_type_number, modulo_impl);
OPERATOR(tfx_fn_less_than, "lessthan", compare_params, &tfx_type_bool, less_than_impl);
OPERATOR(tfx_fn_less_than_or_equal_to, "lessthanorequalto", compare_params, &tfx_type_bool,
         less_equal_impl);
OPERATOR(tfx_fn_greater_than, "greaterthan", compare_params, &tfx_type_bool,
         greater_than_impl);
OPERATOR(tfx_fn_greater_than_or_equal_to, "greaterthanorequalto", compare_params,
         &tfx_type_bool, greater_equal_impl);
OPERATOR(tfx_fn_equal, "equal", equal_params, &tfx_type_bool, equal_impl);
OPERATOR(tfx_fn_not_equal, "notequal", equal_params, &tfx_type_bool, not_equal_impl);
OPERATOR(tfx_fn_and, "and", logic_params, &tfx_type_bool, and_impl);
OPERATOR(tfx_fn_or, "or", logic_params, &tfx_type_bool, or_impl);
OPERATOR(tfx_fn_not, "not", not_params, &tfx_type_bool, not_impl);
OPERATOR(tfx_fn_negate, "negate", negate_params, &tfx_type_number, negate_impl);
