/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_conversion.c — the type conversion functions tostring, tonumber,
 * tobool, tolist, toset and tomap [fn.to*] with Terraform's semantics:
 * Terraform's own MakeToFunc (internal/lang/funcs/conversion.go), not
 * cty 1.12.1's stdlib.MakeToFunc (functions.md (a)).  The differences:
 * Terraform's parameter allows marked, unknown and dynamic values, so a
 * null becomes a null of the target type, an unknown keeps its marks, and
 * the message of a failed conversion does not show a sensitive value.
 */
#include <stdbool.h>

#include "common.h"
#include "convert.h"
#include "funcs_internal.h"
#include "render.h"

/* The targets: a primitive type, or a collection of dynamic ("of any
 * single type": the element types are unified). */
static const tfx_type list_of_any = {.kind = TFX_TYPE_LIST, .elem = &tfx_type_dynamic};
static const tfx_type set_of_any = {.kind = TFX_TYPE_SET, .elem = &tfx_type_dynamic};
static const tfx_type map_of_any = {.kind = TFX_TYPE_MAP, .elem = &tfx_type_dynamic};

/* Everything passes through the machinery unchanged; the function
 * handles it. */
static const tfx_param to_params[] = {
    {.name = "v", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
     .allow_dynamic = true, .allow_marked = true},
};

/* [fn.to.type] The target type (kept in the function's ret_type) when the
 * argument's type is it or may convert to it (unsafe conversion);
 * otherwise the argument error "cannot convert <type> to <target>" in
 * friendly names, e.g. "cannot convert tuple to string", "cannot convert
 * object to list of any single type". */
static const tfx_type *to_type(tfx_ctx *ctx, const tfx_function *fn,
                               const tfx_value *const *args, size_t nargs,
                               tfx_func_error *err)
{
    const tfx_type *got = args[0]->type;
    const tfx_type *want = fn->ret_type;

    TFX_UNUSED(nargs);
    if (tfx_type_equal(got, want) || tfx_convert_possible_in(ctx, got, want, TFX_CONVERT_UNSAFE))
        return want;
    if (got->kind == TFX_TYPE_TUPLE && want->kind == TFX_TYPE_TUPLE)
        return tfx_fn_arg_error(err, 0,
                                tfx_ctx_printf(ctx, "incompatible tuple type for conversion: %s",
                                               tfx_convert_mismatch(ctx, got, want)));
    if (got->kind == TFX_TYPE_OBJECT && want->kind == TFX_TYPE_OBJECT)
        return tfx_fn_arg_error(err, 0,
                                tfx_ctx_printf(ctx, "incompatible object type for conversion: %s",
                                               tfx_convert_mismatch(ctx, got, want)));
    return tfx_fn_arg_error(err, 0,
                            tfx_ctx_printf(ctx, "cannot convert %s to %s",
                                           tfx_type_friendly(ctx, got),
                                           tfx_type_friendly_constraint(ctx, want)));
}

/* [fn.to.fail] The argument error of a conversion that the type allowed
 * but the value refused, about v without its marks: "cannot convert this
 * sensitive <type> to <target>" when v is marked sensitive anywhere;
 * for a string to bool or number, the string quoted as Go's
 * strconv.Quote does, `cannot convert "TRUE" to bool; only the strings
 * "true" or "false" are allowed` and `cannot convert "0x10" to number;
 * given string must be a decimal representation of a number`; otherwise
 * "cannot convert <type> to <target>". */
static const tfx_value *to_failure(tfx_ctx *ctx, const tfx_value *v, const tfx_type *want,
                                   tfx_func_error *err)
{
    const tfx_value *val = tfx_value_unmark_deep(ctx, v, NULL);
    const tfx_type *got = val->type;
    const char *what = "string";

    if (tfx_marks_has(tfx_value_marks_deep(ctx, v), "sensitive"))
        return tfx_fn_arg_error(err, 0,
                                tfx_ctx_printf(ctx, "cannot convert this sensitive %s to %s",
                                               tfx_type_friendly(ctx, got),
                                               tfx_type_friendly_constraint(ctx, want)));
    if (got->kind == TFX_TYPE_STRING && tfx_value_is_known(val))
        what = tfx_textbuf_quoted(ctx, val->as.string.s, val->as.string.nbytes);
    if (got->kind == TFX_TYPE_STRING && want->kind == TFX_TYPE_BOOL)
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx,
                           "cannot convert %s to bool; only the strings \"true\" or \"false\" "
                           "are allowed",
                           what));
    if (got->kind == TFX_TYPE_STRING && want->kind == TFX_TYPE_NUMBER)
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx,
                           "cannot convert %s to number; given string must be a decimal "
                           "representation of a number",
                           what));
    return tfx_fn_arg_error(err, 0,
                            tfx_ctx_printf(ctx, "cannot convert %s to %s",
                                           tfx_type_friendly(ctx, got),
                                           tfx_type_friendly_constraint(ctx, want)));
}

/* [fn.to.result] (semantics C20, functions.md tostring...tomap) An
 * unknown argument gives an unknown of the target type with the
 * argument's own marks; otherwise the argument converted (unsafe) to the
 * target type, marks kept where they are [conv.marks], a null becoming a
 * null of the target type; a conversion that fails is to_failure. */
static const tfx_value *to_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                const tfx_value *const *args, size_t nargs,
                                tfx_func_error *err)
{
    const tfx_value *v = args[0];
    const tfx_value *converted;
    const char *why = NULL;

    TFX_UNUSED(nargs);
    if (tfx_value_is_unknown(v))
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, ret), v->marks);
    converted = tfx_convert(ctx, v, ret, TFX_CONVERT_UNSAFE, &why);
    if (converted == NULL)
        return to_failure(ctx, v, fn->ret_type, err);
    return converted;
}

/* The functions; ret_type holds the target type for to_type and
 * to_failure (the machinery uses the type function). */
#define TO_FUNC(var, fname, target)                                                       \
    const tfx_function var = {.name = (fname),                                             \
                              .params = to_params,                                         \
                              .nparams = TFX_COUNTOF(to_params),                           \
                              .varparam = NULL,                                            \
                              .type = to_type,                                             \
                              .ret_type = (target),                                        \
                              .impl = to_impl}

TO_FUNC(tfx_fn_tobool, "tobool", &tfx_type_bool);
TO_FUNC(tfx_fn_tolist, "tolist", &list_of_any);
TO_FUNC(tfx_fn_tomap, "tomap", &map_of_any);
TO_FUNC(tfx_fn_tonumber, "tonumber", &tfx_type_number);
TO_FUNC(tfx_fn_toset, "toset", &set_of_any);
TO_FUNC(tfx_fn_tostring, "tostring", &tfx_type_str);

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_conversion[] = {
    {"tobool", &tfx_fn_tobool},
    {"tolist", &tfx_fn_tolist},
    {"tomap", &tfx_fn_tomap},
    {"tonumber", &tfx_fn_tonumber},
    {"toset", &tfx_fn_toset},
    {"tostring", &tfx_fn_tostring},
    {NULL, NULL},
};
