/* SPDX-License-Identifier: MPL-2.0 */
/*
 * api_eval.c — the public evaluation interface of tfexpr.h: contexts of
 * variables and functions, and results.  A thin facade over eval.c,
 * jsonio.c and render.c.
 */
#include "tfexpr.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "ctx.h"
#include "diag.h"
#include "eval.h"
#include "func.h"
#include "jsonio.h"
#include "num.h"
#include "render.h"
#include "source.h"
#include "type.h"
#include "value.h"

struct tfx_context {
    tfx_ctx mem;                    /* the arena of the variables */
    tfx_str *names;                 /* sorted, distinct (malloc'd array) */
    const tfx_value **values;       /* (malloc'd array) */
    size_t nvars;
    size_t cap;
    bool allow_variables;
    bool allow_functions;
    bool allow_type;                /* [fn.type] the console-only type() */
    bool opentofu;                  /* [flavor.table] OpenTofu's function table */
    bool pn;                        /* [profile.option] profile PN */
    tfx_host *host;                 /* [host.api] borrowed, or NULL */
};

struct tfx_result {
    tfx_ctx mem;                    /* every value the evaluation made */
    tfx_diags internal;             /* the evaluation's diagnostics (in mem) */
    tfx_range whole;                /* the range of the whole input */
    const tfx_value *value;         /* NULL when the source had errors */
    tfx_diagnostic *diags;          /* malloc'd */
    size_t ndiags;
    int has_errors;
};

/* A string the caller frees with tfx_free (malloc'd). */
static char *dup_cstr(const char *s)
{
    size_t n = strlen(s);
    char *p = malloc(n + 1);

    if (p != NULL)
        memcpy(p, s, n + 1);
    return p;
}

static void set_error(char **error, const char *msg)
{
    if (error != NULL)
        *error = dup_cstr(msg);
}

TFX_API void tfx_eval_limits_init(tfx_eval_limits *limits)
{
    tfx_ctx_limits l;

    tfx_ctx_limits_init(&l);
    limits->max_steps = l.max_steps;
    limits->max_depth = l.max_depth;
    limits->max_string_bytes = l.max_string_bytes;
    limits->max_collection_items = l.max_collection_items;
    limits->max_memory_bytes = l.max_memory_bytes;
}

/* ---------------------------------------------------------------------
 * Contexts
 * ------------------------------------------------------------------ */

TFX_API tfx_context *tfx_context_new(void)
{
    tfx_context *c = calloc(1, sizeof(*c));

    if (c == NULL)
        return NULL;
    if (!tfx_ctx_init(&c->mem, NULL)) {
        free(c);
        return NULL;
    }
    c->allow_variables = true;
    c->allow_functions = true;
    tfx_context_set_profile(c, TFX_PROFILE_DEFAULT); /* [profile.default] */
    return c;
}

TFX_API void tfx_context_free(tfx_context *c)
{
    if (c == NULL)
        return;
    tfx_ctx_free(&c->mem);
    free(c->names);
    free(c->values);
    free(c);
}

TFX_API void tfx_context_allow_variables(tfx_context *c, int allow)
{
    c->allow_variables = allow != 0;
}

TFX_API void tfx_context_allow_functions(tfx_context *c, int allow)
{
    c->allow_functions = allow != 0;
}

TFX_API void tfx_context_set_host(tfx_context *c, tfx_host *h)
{
    c->host = h;
}

TFX_API void tfx_context_allow_type_function(tfx_context *c, int allow)
{
    c->allow_type = allow != 0;
}

/* [flavor.option] */
TFX_API int tfx_context_set_flavor(tfx_context *c, tfx_flavor flavor)
{
    switch (flavor) {
    case TFX_FLAVOR_TERRAFORM:
    case TFX_FLAVOR_OPENTOFU:
        c->opentofu = flavor == TFX_FLAVOR_OPENTOFU;
        return 0;
    }
    return -1;
}

/* Whether `profile` has PN's evaluation rules. */
static bool follows_pn(tfx_profile profile)
{
    return profile == TFX_PROFILE_PN;
}

/* [profile.option] */
TFX_API int tfx_context_set_profile(tfx_context *c, tfx_profile profile)
{
    switch (profile) {
    case TFX_PROFILE_P14:
    case TFX_PROFILE_PN:
        c->pn = follows_pn(profile);
        c->mem.pn = c->pn; /* [refine.json] variables decoded from now on */
        return 0;
    }
    return -1;
}

/* Defines name (already in the context's arena) as v, keeping the names
 * sorted.  False if malloc refuses. */
static bool define(tfx_context *c, tfx_str name, const tfx_value *v)
{
    size_t lo = 0;
    size_t hi = c->nvars;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int cmp = tfx_str_cmp(c->names[mid], name);

        if (cmp == 0) {
            c->values[mid] = v;
            return true;
        }
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (c->nvars == c->cap) {
        size_t cap = c->cap == 0 ? 8 : c->cap * 2;
        tfx_str *names = realloc(c->names, cap * sizeof(*names));
        const tfx_value **values;

        if (names == NULL)
            return false;
        c->names = names;
        values = realloc((void *)c->values, cap * sizeof(const tfx_value *));
        if (values == NULL)
            return false;
        c->values = values;
        c->cap = cap;
    }
    /* shift the tail up by one, from the end (no overlap questions) */
    for (size_t k = c->nvars; k > lo; k--) {
        c->names[k] = c->names[k - 1];
        c->values[k] = c->values[k - 1];
    }
    c->names[lo] = name;
    c->values[lo] = v;
    c->nvars++;
    return true;
}

/* What one decoding request needs, passed through tfx_ctx_try. */
typedef struct {
    tfx_context *c;
    const char *name;       /* NULL: a whole variables object */
    const char *json;
    size_t nbytes;
    bool typed;
    const char *error;      /* set by the decoder */
    bool oom;
} decode_job;

static void run_decode(tfx_ctx *mem, void *arg)
{
    decode_job *job = arg;

    if (job->name == NULL) {
        tfx_json_vars vars;
        size_t i;

        if (!tfx_json_decode_vars(mem, job->json, job->nbytes, job->typed, &vars, &job->error))
            return;
        for (i = 0; i < vars.n && !job->oom; i++)
            job->oom = !define(job->c, vars.names[i], vars.values[i]);
    } else {
        const tfx_value *v = job->typed
                                 ? tfx_json_decode_typed(mem, job->json, job->nbytes, &job->error)
                                 : tfx_json_decode_plain(mem, job->json, job->nbytes, &job->error);
        tfx_str name;

        if (v == NULL)
            return;
        name.nbytes = strlen(job->name);
        name.s = tfx_ctx_strndup(mem, job->name, name.nbytes);
        job->oom = !define(job->c, name, v);
    }
}

static int decode(tfx_context *c, const char *name, const char *json, size_t nbytes, bool typed,
                  char **error)
{
    decode_job job;

    memset(&job, 0, sizeof(job));
    job.c = c;
    job.name = name;
    job.json = json;
    job.nbytes = nbytes;
    job.typed = typed;
    if (error != NULL)
        *error = NULL;
    if (!tfx_ctx_try(&c->mem, run_decode, &job)) {
        set_error(error, c->mem.fail_detail);
        return -1;
    }
    if (job.oom) {
        set_error(error, "out of memory");
        return -1;
    }
    if (job.error != NULL) {
        set_error(error, job.error);
        return -1;
    }
    return 0;
}

TFX_API int tfx_context_set_typed(tfx_context *c, const char *name, const char *json,
                                  size_t nbytes, char **error)
{
    return decode(c, name, json, nbytes, true, error);
}

TFX_API int tfx_context_set_json(tfx_context *c, const char *name, const char *json,
                                 size_t nbytes, char **error)
{
    return decode(c, name, json, nbytes, false, error);
}

TFX_API int tfx_context_set_typed_all(tfx_context *c, const char *json, size_t nbytes,
                                      char **error)
{
    return decode(c, NULL, json, nbytes, true, error);
}

TFX_API int tfx_context_set_json_all(tfx_context *c, const char *json, size_t nbytes,
                                     char **error)
{
    return decode(c, NULL, json, nbytes, false, error);
}

/* ---------------------------------------------------------------------
 * Evaluation
 * ------------------------------------------------------------------ */

/* The diagnostic of an evaluation whose diagnostics could not even be
 * made (its subject is set to the whole expression). */
static const tfx_diagnostic eval_out_of_memory = {
    TFX_SEV_ERROR, TFX_PHASE_EVAL, "resource.limit", "Memory limit exceeded",
    "The evaluation needed more memory than its limit allows.", 0, {{0, 1, 1}, {0, 1, 1}},
    0, {{0, 1, 1}, {0, 1, 1}},
};

/* Copies the internal diagnostics into public ones (malloc'd, so that
 * they survive an exhausted arena). */
static void publish(tfx_result *r, const tfx_diags *d)
{
    size_t i;

    free(r->diags);
    r->ndiags = 0;
    r->has_errors = tfx_diags_has_errors(d) || d->out_of_memory;
    r->diags = malloc((d->n + 1) * sizeof(tfx_diagnostic));
    if (r->diags == NULL) {
        r->has_errors = 1;
        return;
    }
    for (i = 0; i < d->n; i++) {
        const tfx_diag *in = &d->items[i];
        tfx_diagnostic *out = &r->diags[i];

        out->severity = in->severity;
        out->phase = in->phase;
        out->category = tfx_category_id(in->category);
        out->summary = in->summary;
        out->detail = in->detail;
        out->has_subject = in->has_subject;
        out->subject = in->subject;
        out->has_context = in->has_context;
        out->context = in->context;
    }
    r->ndiags = d->n;
    if (d->out_of_memory) {
        /* [limit.eval] at the whole expression, like every limit */
        tfx_diagnostic *oom = &r->diags[r->ndiags++];

        *oom = eval_out_of_memory;
        oom->has_subject = 1;
        oom->subject = r->whole;
    }
}

/* The names of a table (name_at), then "type" [fn.type]. */
static const char *names_then_type(tfx_func_name_fn name_at, size_t i)
{
    const char *name = name_at(i);
    size_t n;

    if (name != NULL)
        return name;
    for (n = 0; name_at(n) != NULL; n++)
        ;
    return i == n ? "type" : NULL;
}

/* The console-only type() [fn.type], else NULL. */
static const tfx_function *type_function(const char *name, size_t nbytes)
{
    return nbytes == 4 && memcmp(name, "type", 4) == 0 ? &tfx_fn_type : NULL;
}

/* Terraform's table with the console-only type() [fn.type]. */
static const tfx_function *builtin_or_type(const char *name, size_t nbytes)
{
    const tfx_function *fn = type_function(name, nbytes);

    return fn != NULL ? fn : tfx_func_builtin(name, nbytes);
}

static const char *builtin_or_type_name(size_t i)
{
    return names_then_type(tfx_func_builtin_name, i);
}

/* [flavor.table] The same two with OpenTofu's table. */
static const tfx_function *builtin_or_type_opentofu(const char *name, size_t nbytes)
{
    const tfx_function *fn = type_function(name, nbytes);

    return fn != NULL ? fn : tfx_func_builtin_opentofu(name, nbytes);
}

static const char *builtin_or_type_opentofu_name(size_t i)
{
    return names_then_type(tfx_func_builtin_opentofu_name, i);
}

/* [fn.assume.profile] And with OpenTofu's table under profile PN. */
static const tfx_function *builtin_or_type_opentofu_pn(const char *name, size_t nbytes)
{
    const tfx_function *fn = type_function(name, nbytes);

    return fn != NULL ? fn : tfx_func_builtin_opentofu_pn(name, nbytes);
}

static const char *builtin_or_type_opentofu_pn_name(size_t i)
{
    return names_then_type(tfx_func_builtin_opentofu_pn_name, i);
}

typedef struct {
    tfx_result *r;
    bool misused;
} console_job;

/* [fn.type.console] Terraform console's look at a result that holds the
 * mark of type() anywhere: the result is a type when, without its marks,
 * it is a known value of the capsule type `type`; otherwise the type
 * function was used as part of an expression.  (Upstream's console crashes
 * on a marked null or unknown capsule; tfexpr calls that a misuse.) */
static void run_console(tfx_ctx *mem, void *arg)
{
    console_job *job = arg;
    const tfx_marks *marks = tfx_value_marks_deep(mem, job->r->value);
    const tfx_value *plain;

    if (!tfx_marks_has(marks, TFX_TYPE_MARK))
        return;
    plain = tfx_value_unmark_deep(mem, job->r->value, NULL);
    if (tfx_type_equal(plain->type, &tfx_type_type) && tfx_value_is_known(plain)) {
        job->r->value = plain;
        return;
    }
    job->misused = true;
}

static void console_result(tfx_result *r)
{
    console_job job;

    if (r->value == NULL || tfx_diags_has_errors(&r->internal))
        return;
    job.r = r;
    job.misused = false;
    if (!tfx_ctx_try(&r->mem, run_console, &job)) {
        tfx_diags_add(&r->internal, TFX_PHASE_EVAL, TFX_CAT_RESOURCE_LIMIT, "Memory limit exceeded",
                      &r->whole, NULL, "%s", "no memory to look at the result");
        return;
    }
    if (job.misused)
        tfx_diags_add(&r->internal, TFX_PHASE_EVAL, TFX_CAT_FUNCTION_ERROR,
                      "Invalid use of type function", NULL, NULL, "%s",
                      "The console-only \"type\" function cannot be used as part of an "
                      "expression.");
}

TFX_API tfx_result *tfx_evaluate(const tfx_source *src, const tfx_context *c,
                                 const tfx_eval_limits *limits)
{
    tfx_result *r = calloc(1, sizeof(*r));
    tfx_ctx_limits l;
    tfx_env env;

    if (r == NULL)
        return NULL;
    tfx_ctx_limits_init(&l);
    if (limits != NULL) {
        l.max_steps = limits->max_steps;
        l.max_depth = limits->max_depth;
        l.max_string_bytes = limits->max_string_bytes;
        l.max_collection_items = limits->max_collection_items;
        l.max_memory_bytes = limits->max_memory_bytes;
    }
    if (!tfx_ctx_init(&r->mem, &l)) {
        free(r);
        return NULL;
    }
    if (src->root == NULL || src->has_errors)
        return r;
    memset(&env, 0, sizeof(env));
    r->mem.pn = follows_pn(TFX_PROFILE_DEFAULT); /* [profile.default] without a context */
    if (c != NULL) {
        r->mem.host = c->host;
        r->mem.opentofu = c->opentofu;
        r->mem.pn = c->pn;
        env.has_variables = c->allow_variables;
        env.var_names = c->names;
        env.var_values = (const tfx_value *const *)c->values;
        env.nvars = c->nvars;
        env.has_functions = c->allow_functions;
        /* [flavor.table] [fn.assume.profile] the flavor's table under the
         * profile, with type() in the console */
        tfx_func_table_for(c->opentofu, c->pn, &env.function, &env.function_name);
        if (c->allow_type && !c->opentofu) {
            env.function = builtin_or_type;
            env.function_name = builtin_or_type_name;
        } else if (c->allow_type && !c->pn) {
            env.function = builtin_or_type_opentofu;
            env.function_name = builtin_or_type_opentofu_name;
        } else if (c->allow_type) {
            env.function = builtin_or_type_opentofu_pn;
            env.function_name = builtin_or_type_opentofu_pn_name;
        }
    }
    env.filename = src->filename;
    tfx_diags_init(&r->internal, r->mem.arena);
    r->whole = src->root->range;
    r->value = tfx_eval(&r->mem, src->root, &env, &r->internal);
    if (c != NULL && c->allow_type)
        console_result(r);
    publish(r, &r->internal);
    return r;
}

TFX_API void tfx_result_free(tfx_result *r)
{
    if (r == NULL)
        return;
    tfx_ctx_free(&r->mem);
    free(r->diags);
    free(r);
}

TFX_API int tfx_result_has_errors(const tfx_result *r)
{
    return r->has_errors;
}

TFX_API size_t tfx_result_diagnostic_count(const tfx_result *r)
{
    return r->diags != NULL ? r->ndiags : (r->has_errors ? 1 : 0);
}

TFX_API const tfx_diagnostic *tfx_result_diagnostic(const tfx_result *r, size_t i)
{
    if (i >= tfx_result_diagnostic_count(r))
        return NULL;
    return r->diags != NULL ? &r->diags[i] : &eval_out_of_memory;
}

/* Whether every number in v formats within max_bytes [limit.eval.string]:
 * a literal such as 1e646456992 is a valid value whose text has 646
 * million digits, which tfx_result_render refuses rather than write.  The
 * walk is iterative over an explicit stack so that depth cannot matter. */
static bool numbers_fit(const tfx_value *v, size_t max_bytes)
{
    const tfx_value **stack = malloc(sizeof(const tfx_value *));
    size_t n = 0;
    size_t cap = 1;
    bool fit = true;

    if (stack == NULL)
        return false;
    stack[n++] = v;
    while (n > 0 && fit) {
        const tfx_value *x = stack[--n];
        size_t count = 0;
        const tfx_value *const *items = NULL;

        if (x->state != TFX_VAL_KNOWN)
            continue;
        switch (x->type->kind) {
        case TFX_TYPE_NUMBER:
            fit = tfx_num_format_max_bytes(x->as.number) <= max_bytes;
            break;
        case TFX_TYPE_LIST: case TFX_TYPE_SET: case TFX_TYPE_TUPLE:
            items = x->as.elems.items;
            count = x->as.elems.n;
            break;
        case TFX_TYPE_MAP: case TFX_TYPE_OBJECT:
            items = x->as.attrs.vals;
            count = x->as.attrs.n;
            break;
        default:
            break;
        }
        if (count > 0 && n + count > cap) {
            size_t ncap = (n + count) * 2;
            const tfx_value **more = realloc((void *)stack, ncap * sizeof(const tfx_value *));

            if (more == NULL) {
                fit = false;
                break;
            }
            stack = more;
            cap = ncap;
        }
        for (size_t i = 0; i < count; i++)
            stack[n++] = items[i];
    }
    free((void *)stack);
    return fit;
}

typedef struct {
    const tfx_type *type;
    char *text;      /* malloc'd */
} type_job;

/* [fn.type.console] A type result is the capsule value without its marks:
 * the typed value of type "type" holding the text the console prints
 * [fn.type.text], as is a null or unknown value of the capsule type. */
TFX_API char *tfx_result_json(const tfx_result *r)
{
    if (r->value == NULL)
        return NULL;
    return tfx_json_encode_typed(r->value);
}

TFX_API char *tfx_result_render(const tfx_result *r)
{
    if (r->value == NULL || !numbers_fit(r->value, r->mem.limits.max_string_bytes))
        return NULL;
    return tfx_render_console(r->value);
}

typedef struct {
    tfx_result *r;
    const char *type_json;
    size_t nbytes;
    bool unsafe;
    const char *error;      /* a malformed type */
} convert_job;

static void run_convert(tfx_ctx *mem, void *arg)
{
    convert_job *job = arg;
    const char *why = NULL;
    const tfx_type *want = tfx_json_decode_constraint(mem, job->type_json, job->nbytes, &job->error);
    const tfx_value *v;

    if (want == NULL)
        return;
    v = tfx_convert(mem, job->r->value, want, job->unsafe ? TFX_CONVERT_UNSAFE : TFX_CONVERT_SAFE,
                    &why);
    if (v != NULL) {
        job->r->value = v;
        return;
    }
    tfx_diags_add(&job->r->internal, TFX_PHASE_EVAL, TFX_CAT_CONVERSION, "Invalid conversion",
                  &job->r->whole, NULL, "%s", why != NULL ? why : "the value cannot be converted");
}

TFX_API int tfx_result_convert(tfx_result *r, const char *type_json, size_t nbytes, int unsafe,
                               char **error)
{
    convert_job job;

    if (error != NULL)
        *error = NULL;
    if (r->value == NULL) {
        set_error(error, "the result has no value");
        return -1;
    }
    memset(&job, 0, sizeof(job));
    job.r = r;
    job.type_json = type_json;
    job.nbytes = nbytes;
    job.unsafe = unsafe != 0;
    if (!tfx_ctx_try(&r->mem, run_convert, &job))
        tfx_diags_add(&r->internal, TFX_PHASE_EVAL, TFX_CAT_RESOURCE_LIMIT, r->mem.fail_summary,
                      &r->whole, NULL, "%s", r->mem.fail_detail);
    if (job.error != NULL) {
        set_error(error, job.error);
        return -1;
    }
    publish(r, &r->internal);
    return 0;
}

/* Formatting the type needs an arena: a scratch ctx. */

static void type_string(tfx_ctx *mem, void *arg)
{
    type_job *job = arg;

    job->text = dup_cstr(tfx_type_string(mem, job->type));
}

TFX_API char *tfx_result_type(const tfx_result *r)
{
    tfx_ctx scratch;
    type_job job;

    if (r->value == NULL || !tfx_ctx_init(&scratch, NULL))
        return NULL;
    job.type = r->value->type;
    job.text = NULL;
    (void)tfx_ctx_try(&scratch, type_string, &job);
    tfx_ctx_free(&scratch);
    return job.text;
}

static void type_json(tfx_ctx *mem, void *arg)
{
    type_job *job = arg;

    job->text = dup_cstr(tfx_json_encode_type(mem, job->type, NULL));
}

/* [check.result] */
TFX_API char *tfx_result_type_json(const tfx_result *r)
{
    tfx_ctx scratch;
    type_job job;

    if (r->value == NULL || !tfx_ctx_init(&scratch, NULL))
        return NULL;
    job.type = r->value->type;
    job.text = NULL;
    (void)tfx_ctx_try(&scratch, type_json, &job);
    tfx_ctx_free(&scratch);
    return job.text;
}
