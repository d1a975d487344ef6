/*
 * funcs_numeric.c — numeric functions [fn.min], [fn.max]: cty 1.12.1's
 * stdlib MinFunc and MaxFunc, which Terraform registers as they are.
 */
#include <math.h>
#include <stdbool.h>

#include "common.h"
#include "funcs_internal.h"

/* The numbers to compare (number.go): numbers, dynamic allowed; null and
 * unknown ones are the machinery's, marks go on the result. */
static const tfx_param numbers_param = {
    .name = "numbers", .type = &tfx_type_number, .allow_dynamic = true};

/* [fn.min.result] [fn.max.result] The extreme of the known, unmarked
 * numbers args[0..nargs): at least one is needed ("must pass at least one
 * number").  Upstream starts from the infinity of the other side and
 * takes each number strictly beyond the best so far, so the first of
 * equal numbers wins, and when none is beyond (every number is that
 * infinity) the result is the starting infinity itself, a 53-bit one. */
static const tfx_value *extreme(tfx_ctx *ctx, const tfx_value *const *args, size_t nargs,
                                bool want_max, tfx_func_error *err)
{
    const tfx_value *best = NULL;
    const tfx_num *start;
    size_t i;

    if (nargs == 0)
        return tfx_fn_error(err, "must pass at least one number"); /* [fn.min.arity] */
    start = tfx_num_from_double(ctx->arena, want_max ? -INFINITY : INFINITY);
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
    {"max", &tfx_fn_max},
    {"min", &tfx_fn_min},
    {NULL, NULL},
};
