/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_yaml.c — yamldecode on arbitrary bytes, and yamlencode of what it
 * decodes (impl/funcs_yaml.c, spec/functions-yaml.md).
 *
 * Input: the YAML text, any bytes (UTF-8 or not, NUL bytes included).
 * Limits: 200,000 steps, 64 MiB of memory, strings of 1 MiB, nesting 64,
 * so that alias and merge bombs and deep nesting reach them.
 * Properties:
 *   - every run ends, with a value, a decoding error (a non-empty message)
 *     or a limit (the work is bounded by the context's limits);
 *   - a decoded value's text, from yamlencode, decodes again to an equal
 *     value of the same type, where it must: unless the value holds a
 *     null string (a block scalar's null, [fn.yamldecode.block]), an
 *     infinity (written "+Inf", read back as a string), a "<<" key (read
 *     back as a merge key), or is a null document (unknown);
 *   - everything is deterministic: a second run in a fresh context gives
 *     the same outcome, byte for byte;
 *   - nothing leaks (LSan: libyaml's parser, events and emitter are freed
 *     on every path, limits included) and nothing crashes (ASan, UBSan).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "func.h"
#include "fuzz_common.h"
#include "num.h"
#include "render.h"
#include "value.h"

typedef struct {
    const char *src;
    size_t n;
    const char *outcome; /* in the ctx: the rendered value or "error: ..." */
} run;

static const tfx_value *call(tfx_ctx *ctx, const char *name, const tfx_value *arg,
                             const char **error)
{
    const tfx_function *f = tfx_func_builtin(name, strlen(name));
    tfx_func_error err = {-1, NULL};
    const tfx_value *r;

    if (f == NULL)
        fuzz_fail("%s is not a function", name);
    r = tfx_func_call(ctx, f, &arg, 1, &err);
    if (r == NULL) {
        if (err.message == NULL || err.message[0] == '\0')
            fuzz_fail("%s failed without a message", name);
        *error = err.message;
    }
    return r;
}

/* Whether the round trip must give v back. */
static bool must_round_trip(const tfx_value *v)
{
    size_t i;

    if (tfx_value_is_null(v))
        return v->type->kind == TFX_TYPE_DYNAMIC;
    if (!tfx_value_is_known(v))
        return false;
    switch (v->type->kind) {
    case TFX_TYPE_NUMBER:
        return !tfx_num_is_inf(v->as.number);
    case TFX_TYPE_TUPLE:
        for (i = 0; i < v->as.elems.n; i++)
            if (!must_round_trip(v->as.elems.items[i]))
                return false;
        return true;
    case TFX_TYPE_OBJECT:
        for (i = 0; i < v->as.attrs.n; i++)
            if (tfx_str_eq(v->as.attrs.keys[i], "<<", 2) ||
                !must_round_trip(v->as.attrs.vals[i]))
                return false;
        return true;
    default:
        return true;
    }
}

static void work(tfx_ctx *ctx, void *arg)
{
    run *r = arg;
    const char *error = NULL;
    const tfx_value *src = tfx_value_string(ctx, r->src, r->n);
    const tfx_value *v = call(ctx, "yamldecode", src, &error);
    const tfx_value *text;
    const tfx_value *back;

    if (v == NULL) {
        r->outcome = tfx_ctx_printf(ctx, "error: %s", error);
        return;
    }
    r->outcome = tfx_render_debug(ctx, v);
    if (!tfx_value_is_known(v) || !must_round_trip(v))
        return;
    text = call(ctx, "yamlencode", v, &error);
    if (text == NULL)
        fuzz_fail("yamlencode of a decoded value failed: %s", error);
    back = call(ctx, "yamldecode", text, &error);
    if (back == NULL) {
        fuzz_print_bytes("text", text->as.string.s, text->as.string.nbytes);
        fuzz_fail("yamlencode's text does not decode: %s", error);
    }
    if (!tfx_type_equal(back->type, v->type) || tfx_value_equals(ctx, back, v) != TFX_TRI_TRUE) {
        fuzz_print_bytes("text", text->as.string.s, text->as.string.nbytes);
        fuzz_fail("round trip: %s gives %s", r->outcome, tfx_render_debug(ctx, back));
    }
}

/* Runs r in a fresh context; the outcome (malloc'd), or NULL when a limit
 * stopped it (*summary says which). */
static char *attempt(run *r, const char **summary)
{
    tfx_ctx_limits lim;
    tfx_ctx ctx;
    char *keep = NULL;

    tfx_ctx_limits_init(&lim);
    lim.max_steps = 200000;
    lim.max_memory_bytes = 64u << 20;
    lim.max_string_bytes = 1u << 20;
    lim.max_depth = 64;
    if (!tfx_ctx_init(&ctx, &lim))
        fuzz_fail("tfx_ctx_init");
    r->outcome = NULL;
    *summary = NULL;
    if (tfx_ctx_try(&ctx, work, r)) {
        keep = strdup(r->outcome != NULL ? r->outcome : "");
        if (keep == NULL)
            fuzz_fail("strdup");
    } else {
        *summary = ctx.fail_summary;
        if (*summary == NULL)
            fuzz_fail("a failure without a summary");
    }
    tfx_ctx_free(&ctx);
    return keep;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run a = {(const char *)data, size, NULL};
    run b = a;
    const char *sa;
    const char *sb;
    char *ka = attempt(&a, &sa);
    char *kb = attempt(&b, &sb);

    if ((ka == NULL) != (kb == NULL) || (ka != NULL && strcmp(ka, kb) != 0) ||
        (ka == NULL && strcmp(sa, sb) != 0))
        fuzz_fail("two runs of the same input differ");
    free(ka);
    free(kb);
    return 0;
}
