/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_gzip.c — base64gzip, on a DEFLATE compressor that gives Go's
 * compress/flate bytes (deflate.h; spec/functions-gzip.md, rules
 * fn.base64gzip.*, gzip.*).
 */
#include <stddef.h>
#include <stdint.h>

#include <nettle/base64.h>

#include "common.h"
#include "deflate.h"
#include "funcs_internal.h"

/* [fn.base64gzip.params] One string parameter with none of cty's Allow*
 * flags: a null argument is the machinery's error, an unknown one gives an
 * unknown string, marks go from the argument to the result. */
static const tfx_param base64gzip_params[] = {
    {.name = "str", .type = &tfx_type_str},
};

/* [fn.base64gzip] The UTF-8 bytes of the string as the gzip member Go's
 * gzip.Writer writes them with Terraform's calls (one Write, Flush, Close)
 * [gzip.member], in standard base64 with padding. */
static const tfx_value *base64gzip_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    size_t ngzip = 0, nbase64;
    const unsigned char *gz;
    char *text;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    gz = tfx_gzip_go(ctx, (const unsigned char *)s.s, s.nbytes, &ngzip);
    if (ngzip > (SIZE_MAX - 2) / 4 * 3)
        tfx_ctx_fail(ctx, "Memory limit exceeded", "base64gzip result too large");
    nbase64 = BASE64_ENCODE_RAW_LENGTH(ngzip);
    tfx_ctx_check_string(ctx, nbase64);
    text = tfx_ctx_alloc(ctx, nbase64 + 1);
    base64_encode_raw(text, ngzip, gz);
    return tfx_value_string_raw(ctx, text, nbase64);
}

static const tfx_function fn_base64gzip = {.name = "base64gzip",
                                           .params = base64gzip_params,
                                           .nparams = TFX_COUNTOF(base64gzip_params),
                                           .varparam = NULL,
                                           .type = NULL,
                                           .ret_type = &tfx_type_str,
                                           .impl = base64gzip_impl};

const tfx_builtin tfx_builtins_gzip[] = {
    {"base64gzip", &fn_base64gzip},
    {NULL, NULL},
};
