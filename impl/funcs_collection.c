/*
 * funcs_collection.c — collection functions with Terraform's semantics
 * (functions.md, "(a) Where Terraform/OpenTofu differ"): [fn.length] is
 * Terraform's LengthFunc, not cty's (which rejects strings); [fn.coalesce]
 * is Terraform's CoalesceFunc, not cty's (which keeps "" and does not
 * unify).  Both as Terraform wrote them for the cty 1.12.1 of profile P14:
 * no refinements of unknown results.
 */
#include <stdbool.h>

#include "common.h"
#include "convert.h"
#include "funcs_internal.h"

/* ---- length ---- */

/* Terraform's length takes any value but null: unknown, dynamic and
 * marked ones reach the implementation. */
static const tfx_param length_params[] = {
    {.name = "value", .type = &tfx_type_dynamic, .allow_unknown = true, .allow_dynamic = true,
     .allow_marked = true},
};

/* [fn.length.type] A string, a collection, a structural value or one of
 * type dynamic; anything else (a number, a bool) is the plain error
 * "argument must be a string, a collection type, or a structural type". */
static const tfx_type *length_type(tfx_ctx *ctx, const tfx_function *fn,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    switch (args[0]->type->kind) {
    case TFX_TYPE_STRING:
    case TFX_TYPE_TUPLE:
    case TFX_TYPE_OBJECT:
    case TFX_TYPE_LIST:
    case TFX_TYPE_MAP:
    case TFX_TYPE_SET:
    case TFX_TYPE_DYNAMIC:
        return &tfx_type_number;
    case TFX_TYPE_BOOL:
    case TFX_TYPE_NUMBER:
        break;
    }
    return tfx_fn_error(err, "argument must be a string, a collection type, or a structural type");
}

/* [fn.length.collection] cty's Value.Length of a list, set or map whose
 * own marks are `marks`: unknown if the collection is; a set holding
 * unknown elements has an unknown length unless it holds one element
 * only (unknowns might turn out equal to other elements); otherwise the
 * number of elements.  The collection's marks stay on the result. */
static const tfx_value *collection_length(tfx_ctx *ctx, const tfx_value *coll)
{
    const tfx_marks *marks = NULL;
    const tfx_value *v = tfx_value_unmark(ctx, coll, &marks);
    const tfx_value *result;

    if (tfx_value_is_unknown(v)) {
        result = tfx_value_unknown(ctx, &tfx_type_number);
    } else {
        size_t n = tfx_value_length(v);

        if (v->type->kind == TFX_TYPE_SET && n != 1 && !tfx_value_is_wholly_known(v))
            result = tfx_value_unknown(ctx, &tfx_type_number);
        else
            result = tfx_value_int(ctx, (int64_t)n);
    }
    return tfx_value_mark(ctx, result, marks);
}

/* [fn.length.result] (semantics FN8, M10) By the argument's type:
 *  - dynamic: an unknown number;
 *  - tuple, object: the number of elements / attributes of the TYPE, even
 *    when the value is unknown;
 *  - string: cty's Strlen called as a function, so its machinery applies:
 *    an unknown string gives an unknown number without marks, a known one
 *    its grapheme count with every mark of the string;
 *  - list, set, map: collection_length.
 * In the other cases the argument's own (top-level) marks stay on the
 * result; marks of elements do not. */
static const tfx_value *length_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_value *coll = args[0];
    const tfx_marks *marks = coll->marks;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    switch (coll->type->kind) {
    case TFX_TYPE_DYNAMIC:
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, &tfx_type_number), marks);
    case TFX_TYPE_TUPLE:
    case TFX_TYPE_OBJECT:
        return tfx_value_mark(ctx, tfx_value_int(ctx, (int64_t)coll->type->n), marks);
    case TFX_TYPE_STRING:
        return tfx_func_call(ctx, &tfx_fn_strlen, args, 1, err);
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        return collection_length(ctx, coll);
    case TFX_TYPE_BOOL:
    case TFX_TYPE_NUMBER:
        break;
    }
    return tfx_fn_error(err, "impossible value type for length(...)");
}

const tfx_function tfx_fn_length = {.name = "length",
                                    .params = length_params,
                                    .nparams = TFX_COUNTOF(length_params),
                                    .varparam = NULL,
                                    .type = length_type,
                                    .ret_type = NULL,
                                    .impl = length_impl};

/* ---- coalesce ---- */

/* Terraform's coalesce takes any values, null, unknown and dynamic ones
 * included; marks are the machinery's: every mark of every argument goes
 * on the result. */
static const tfx_param coalesce_vals = {
    .name = "vals", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
    .allow_dynamic = true};

/* [fn.coalesce.type] The unsafe unification of the arguments' types
 * (unify.*); none (no arguments included) is the plain error "all
 * arguments must have the same type". */
static const tfx_type *coalesce_type(tfx_ctx *ctx, const tfx_function *fn,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    const tfx_type **types =
        tfx_ctx_alloc_array(ctx, nargs > 0 ? nargs : 1, sizeof(const tfx_type *));
    const tfx_type *unified = NULL;
    bool all_unknown = false;
    size_t i;

    TFX_UNUSED(fn);
    for (i = 0; i < nargs; i++)
        types[i] = args[i]->type;
    if (nargs > 0)
        unified = tfx_unify(ctx, types, nargs, TFX_CONVERT_UNSAFE, &all_unknown);
    if (unified == NULL)
        return tfx_fn_error(err, "all arguments must have the same type");
    return unified;
}

/* [fn.coalesce.result] (functions.md coalesce) The arguments in order,
 * each converted to the result type (cty's Convert, not the unification's
 * own conversions; a conversion that fails counts as a null): an unknown
 * one makes the result an unknown of that type; null ones are skipped,
 * and so is "" when the result type is string; the first other one is the
 * result.  None: the plain error "no non-null, non-empty-string
 * arguments". */
static const tfx_value *coalesce_impl(tfx_ctx *ctx, const tfx_function *fn,
                                      const tfx_type *ret, const tfx_value *const *args,
                                      size_t nargs, tfx_func_error *err)
{
    size_t i;

    TFX_UNUSED(fn);
    for (i = 0; i < nargs; i++) {
        const char *why = NULL;
        const tfx_value *v = tfx_convert(ctx, args[i], ret, TFX_CONVERT_UNSAFE, &why);

        if (v == NULL || tfx_value_is_null(v))
            continue;
        if (tfx_value_is_unknown(v))
            return tfx_value_unknown(ctx, ret);
        if (ret->kind == TFX_TYPE_STRING && v->as.string.nbytes == 0)
            continue;
        return v;
    }
    return tfx_fn_error(err, "no non-null, non-empty-string arguments");
}

const tfx_function tfx_fn_coalesce = {.name = "coalesce",
                                      .params = NULL,
                                      .nparams = 0,
                                      .varparam = &coalesce_vals,
                                      .type = coalesce_type,
                                      .ret_type = NULL,
                                      .impl = coalesce_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_collection[] = {
    {"coalesce", &tfx_fn_coalesce},
    {"length", &tfx_fn_length},
    {NULL, NULL},
};
