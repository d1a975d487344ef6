/*
 * funcs_string.c — string functions [fn.upper], [fn.lower]: cty 1.12.1's
 * stdlib UpperFunc and LowerFunc, which Terraform registers as they are;
 * and cty's StrlenFunc, which Terraform's length calls for strings (not a
 * function of its own in Terraform).
 */
#include <stdbool.h>

#include "common.h"
#include "funcs_internal.h"
#include "text.h"

/* The string of upper, lower and strlen (string.go): a string, dynamic
 * allowed; null, unknown and marks are the machinery's. */
static const tfx_param str_param[] = {
    {.name = "str", .type = &tfx_type_str, .allow_dynamic = true},
};

/* [fn.upper.map] [fn.lower.map] Go's strings.ToUpper / ToLower: each code
 * point mapped to its simple upper (lower) case, no special casing, no
 * locale; the result is a new string value, so NFC again
 * (value.string.nfc). */
static const tfx_value *map_case(tfx_ctx *ctx, const tfx_value *str, bool upper)
{
    size_t nbytes = 0;
    const char *out =
        tfx_text_map_case(ctx->arena, str->as.string.s, str->as.string.nbytes, upper, &nbytes);

    if (out == NULL)
        tfx_fn_nomem(ctx);
    tfx_ctx_check_string(ctx, nbytes);
    return tfx_value_string(ctx, out, nbytes);
}

static const tfx_value *upper_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return map_case(ctx, args[0], true);
}

static const tfx_value *lower_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return map_case(ctx, args[0], false);
}

/* [fn.length.string] cty's Strlen: the number of extended grapheme
 * clusters of the (NFC) string. */
static const tfx_value *strlen_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    size_t ngraphemes = tfx_text_count_graphemes((const unsigned char *)s.s, s.nbytes);

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return tfx_value_int(ctx, (int64_t)ngraphemes);
}

const tfx_function tfx_fn_upper = {.name = "upper",
                                   .params = str_param,
                                   .nparams = TFX_COUNTOF(str_param),
                                   .varparam = NULL,
                                   .type = NULL,
                                   .ret_type = &tfx_type_str,
                                   .impl = upper_impl};

const tfx_function tfx_fn_lower = {.name = "lower",
                                   .params = str_param,
                                   .nparams = TFX_COUNTOF(str_param),
                                   .varparam = NULL,
                                   .type = NULL,
                                   .ret_type = &tfx_type_str,
                                   .impl = lower_impl};

const tfx_function tfx_fn_strlen = {.name = "strlen",
                                    .params = str_param,
                                    .nparams = TFX_COUNTOF(str_param),
                                    .varparam = NULL,
                                    .type = NULL,
                                    .ret_type = &tfx_type_number,
                                    .impl = strlen_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_string[] = {
    {"lower", &tfx_fn_lower},
    {"upper", &tfx_fn_upper},
    {NULL, NULL},
};
