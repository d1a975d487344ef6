/*
 * funcs_encoding.c — encoding functions [fn.jsonencode]: cty 1.12.1's
 * stdlib JSONEncodeFunc, which Terraform registers as it is.  The JSON
 * text itself is jsonio's (cty's json.Marshal).
 */
#include <stdbool.h>

#include "common.h"
#include "funcs_internal.h"
#include "jsonio.h"

/* Any value, null included; unknown and marked ones are the machinery's
 * (an unknown argument gives an unknown string; marks anywhere in the
 * value go on the result, semantics FN8). */
static const tfx_param jsonencode_params[] = {
    {.name = "val", .type = &tfx_type_dynamic, .allow_null = true, .allow_dynamic = true},
};

/* [fn.jsonencode.result] A value with an unknown anywhere in it gives an
 * unknown string; null gives "null"; otherwise the compact JSON of the
 * value (cty's json.Marshal), as a new string value.  An infinity
 * anywhere is the plain error "cannot serialize infinity as JSON". */
static const tfx_value *jsonencode_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_value *val = args[0];
    const char *error = NULL;
    const char *text;
    size_t nbytes = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!tfx_value_is_wholly_known(val))
        return tfx_value_unknown(ctx, ret);
    if (tfx_value_is_null(val))
        return tfx_value_string(ctx, "null", 4);
    text = tfx_json_encode_plain(ctx, val, &nbytes, &error);
    if (text == NULL)
        return tfx_fn_error(err, error != NULL ? error : "cannot serialize the value as JSON");
    tfx_ctx_check_string(ctx, nbytes);
    return tfx_value_string(ctx, text, nbytes);
}

const tfx_function tfx_fn_jsonencode = {.name = "jsonencode",
                                        .params = jsonencode_params,
                                        .nparams = TFX_COUNTOF(jsonencode_params),
                                        .varparam = NULL,
                                        .type = NULL,
                                        .ret_type = &tfx_type_str,
                                        .impl = jsonencode_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_encoding[] = {
    {"jsonencode", &tfx_fn_jsonencode},
    {NULL, NULL},
};
