/* SPDX-License-Identifier: MPL-2.0 */
/*
 * testval.c — the shared constructors, calls and runners of the unit
 * tests (testval.h).
 */
#include "testval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

tfx_ctx *C;

const tfx_value *S(const char *s)
{
    return tfx_value_string(C, s, strlen(s));
}

const tfx_value *SN(const char *s, size_t n)
{
    return tfx_value_string(C, s, n);
}

const tfx_value *N(const char *text)
{
    const tfx_num *n = NULL;

    if (tfx_num_parse_n(C->arena, text, strlen(text), &n) != TFX_NUM_OK) {
        fprintf(stderr, "cannot parse %s\n", text);
        exit(2);
    }
    return tfx_value_number(C, n);
}

const tfx_value *F(double d)
{
    return tfx_value_number(C, tfx_num_from_double(C->arena, d));
}

const tfx_value *I(int64_t i)
{
    return tfx_value_int(C, i);
}

const tfx_value *B(bool b)
{
    return tfx_value_bool(b);
}

const tfx_value *NUL(const tfx_type *t)
{
    return tfx_value_null(C, t);
}

const tfx_value *UNK(const tfx_type *t)
{
    return tfx_value_unknown(C, t);
}

const tfx_value *MARK(const tfx_value *v, const char *name)
{
    return tfx_value_mark(C, v, tfx_marks_one(C, name, strlen(name)));
}

const tfx_value *SENS(const tfx_value *v)
{
    return MARK(v, "sensitive");
}

const tfx_value *EPH(const tfx_value *v)
{
    return MARK(v, "ephemeral");
}

const tfx_value *const *tv_items(size_t n, va_list ap)
{
    const tfx_value **v = tfx_ctx_alloc_array(C, n > 0 ? n : 1, sizeof(const tfx_value *));

    for (size_t i = 0; i < n; i++)
        v[i] = va_arg(ap, const tfx_value *);
    return v;
}

const tfx_value *LIST(const tfx_type *elem, size_t n, ...)
{
    va_list ap;
    const tfx_value *const *v;

    va_start(ap, n);
    v = tv_items(n, ap);
    va_end(ap);
    return tfx_value_list(C, elem, v, n);
}

const tfx_value *SET(const tfx_type *elem, size_t n, ...)
{
    va_list ap;
    const tfx_value *const *v;

    va_start(ap, n);
    v = tv_items(n, ap);
    va_end(ap);
    return tfx_value_set(C, elem, v, n);
}

const tfx_value *TUP(size_t n, ...)
{
    va_list ap;
    const tfx_value *const *v;

    va_start(ap, n);
    v = tv_items(n, ap);
    va_end(ap);
    return tfx_value_tuple(C, v, n);
}

/* An object (map_elem NULL) or map of n name/value pairs. */
static const tfx_value *pairs(const tfx_type *map_elem, size_t n, va_list ap)
{
    tfx_str *names = tfx_ctx_alloc_array(C, n > 0 ? n : 1, sizeof *names);
    const tfx_value **vals = tfx_ctx_alloc_array(C, n > 0 ? n : 1, sizeof(const tfx_value *));

    for (size_t i = 0; i < n; i++) {
        names[i].s = va_arg(ap, const char *);
        names[i].nbytes = strlen(names[i].s);
        vals[i] = va_arg(ap, const tfx_value *);
    }
    return map_elem != NULL ? tfx_value_map(C, map_elem, names, vals, n)
                            : tfx_value_object(C, names, vals, n);
}

const tfx_value *OBJ(size_t n, ...)
{
    va_list ap;
    const tfx_value *v;

    va_start(ap, n);
    v = pairs(NULL, n, ap);
    va_end(ap);
    return v;
}

const tfx_value *MAP(const tfx_type *elem, size_t n, ...)
{
    va_list ap;
    const tfx_value *v;

    va_start(ap, n);
    v = pairs(elem, n, ap);
    va_end(ap);
    return v;
}

const tfx_type *LISTT(const tfx_type *e)
{
    return tfx_type_list(C, e);
}

const tfx_type *SETT(const tfx_type *e)
{
    return tfx_type_set(C, e);
}

const tfx_type *TUPT(size_t n, ...)
{
    const tfx_type **t = tfx_ctx_alloc_array(C, n > 0 ? n : 1, sizeof(const tfx_type *));
    va_list ap;

    va_start(ap, n);
    for (size_t i = 0; i < n; i++)
        t[i] = va_arg(ap, const tfx_type *);
    va_end(ap);
    return tfx_type_tuple(C, t, n);
}

const tfx_type *OBJT(size_t n, ...)
{
    tfx_str *names = tfx_ctx_alloc_array(C, n > 0 ? n : 1, sizeof *names);
    const tfx_type **t = tfx_ctx_alloc_array(C, n > 0 ? n : 1, sizeof(const tfx_type *));
    va_list ap;

    va_start(ap, n);
    for (size_t i = 0; i < n; i++) {
        names[i].s = va_arg(ap, const char *);
        names[i].nbytes = strlen(names[i].s);
        t[i] = va_arg(ap, const tfx_type *);
    }
    va_end(ap);
    return tfx_type_object(C, names, t, n);
}

const tfx_function *fn(const char *name)
{
    const tfx_function *f = tfx_func_builtin(name, strlen(name));

    if (f == NULL) {
        fprintf(stderr, "no built-in function %s\n", name);
        exit(2);
    }
    return f;
}

const char *outcome(const tfx_value *r, const tfx_func_error *err)
{
    if (r != NULL)
        return tfx_render_debug(C, r);
    if (err->arg >= 0)
        return tfx_ctx_printf(C, "arg %ld: %s", err->arg, err->message);
    return tfx_ctx_printf(C, "error: %s", err->message);
}

/* f (NULL: "no such function") called with the n values of args. */
static const char *call_with(const tfx_function *f, size_t n, const tfx_value *const *args)
{
    tfx_func_error err = {-1, NULL};
    const tfx_value *r;

    if (f == NULL)
        return "no such function";
    r = tfx_func_call(C, f, args, n, &err);
    return outcome(r, &err);
}

/* f called with the n values of ap. */
static const char *call_v(const tfx_function *f, size_t n, va_list ap)
{
    return call_with(f, n, tv_items(n, ap));
}

const char *call(const char *name, size_t n, ...)
{
    va_list ap;
    const char *s;

    va_start(ap, n);
    s = call_v(tfx_func_builtin(name, strlen(name)), n, ap);
    va_end(ap);
    return s;
}

const char *call_args(const char *name, size_t n, const tfx_value *const *args)
{
    return call_with(tfx_func_builtin(name, strlen(name)), n, args);
}

const char *bare(const char *outcome_text)
{
    static const char suffix[] = " :: string";
    size_t len = strlen(outcome_text), ns = sizeof suffix - 1;

    if (len > ns && strcmp(outcome_text + len - ns, suffix) == 0)
        return tfx_ctx_strndup(C, outcome_text, len - ns);
    return outcome_text;
}

const char *call_fn(const tfx_function *f, size_t n, ...)
{
    va_list ap;
    const char *s;

    va_start(ap, n);
    s = call_v(f, n, ap);
    va_end(ap);
    return s;
}

bool run(const char *name, void (*test)(tfx_ctx *, void *))
{
    tfx_ctx ctx;
    bool ok;

    if (!tfx_ctx_init(&ctx, NULL)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    C = &ctx;
    ok = tfx_ctx_try(&ctx, test, NULL);
    if (!ok)
        fprintf(stderr, "%s: failed: %s: %s\n", name, ctx.fail_summary, ctx.fail_detail);
    tfx_ctx_free(&ctx);
    C = NULL;
    return ok;
}

const char *run_limited(const tfx_ctx_limits *limits, void (*test)(tfx_ctx *, void *), void *arg)
{
    static char summary[256];
    tfx_ctx ctx;

    if (!tfx_ctx_init(&ctx, limits))
        return "out of memory";
    C = &ctx;
    if (tfx_ctx_try(&ctx, test, arg))
        snprintf(summary, sizeof summary, "completed");
    else
        snprintf(summary, sizeof summary, "%s", ctx.fail_summary);
    tfx_ctx_free(&ctx);
    C = NULL;
    return summary;
}

/* r's outcome (see eval_outcome) into out[size]. */
static void result_text(const tfx_result *r, char *out, size_t size)
{
    if (r == NULL) {
        snprintf(out, size, "no result");
    } else if (tfx_result_has_errors(r)) {
        const tfx_diagnostic *d = tfx_result_diagnostic(r, 0);

        snprintf(out, size, "%s: %s", d->summary, d->detail);
    } else {
        char *shown = tfx_result_render(r);

        snprintf(out, size, "%s", shown != NULL ? shown : "(no rendering)");
        tfx_free(shown);
    }
}

const char *eval_outcome(const char *file, const char *text, tfx_profile profile,
                         const tfx_eval_limits *limits, tv_setup_fn *setup, void *arg)
{
    static char out[8192];
    tfx_source *src = tfx_source_parse_profile(file, text, strlen(text), TFX_MODE_EXPRESSION,
                                               NULL, profile);
    tfx_context *ctx = tfx_context_new();
    const char *instead = NULL;

    if (src == NULL || ctx == NULL || tfx_source_has_errors(src)) {
        snprintf(out, sizeof out, "parse error");
    } else {
        /* first, so that setup's variables are decoded under the profile */
        tfx_context_set_profile(ctx, profile);
        if (setup != NULL)
            instead = setup(ctx, arg);
        if (instead != NULL) {
            snprintf(out, sizeof out, "%s", instead);
        } else {
            tfx_result *r = tfx_evaluate(src, ctx, limits);

            result_text(r, out, sizeof out);
            tfx_result_free(r);
        }
    }
    tfx_context_free(ctx);
    tfx_source_free(src);
    return out;
}
