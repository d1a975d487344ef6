/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_sensitive.c — Terraform's mark functions sensitive, nonsensitive,
 * issensitive and ephemeralasnull (spec/functions-sensitive.md, rules
 * fn.sensitive.*, fn.nonsensitive.*, fn.issensitive.*,
 * fn.ephemeralasnull.*).
 *
 * Terraform's marks are the Go values marks.Sensitive and
 * marks.Ephemeral; here marks are names, and those two are "sensitive"
 * and "ephemeral" [fn.marks.names].  Every parameter of this file accepts
 * everything (nulls, unknowns, dynamic, marks), so the call machinery
 * leaves the argument as it is and puts no marks on the result: what the
 * result carries is what each function says.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "common.h"
#include "funcs_internal.h"

static const char mark_sensitive[] = "sensitive";
static const char mark_ephemeral[] = "ephemeral";

/* [fn.sensitive.param] [fn.sensitive] [fn.nonsensitive] [fn.issensitive]
 * [fn.ephemeralasnull] The one parameter of all four: any value at all. */
static const tfx_param value_param[] = {
    {.name = "value", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
     .allow_dynamic = true, .allow_marked = true},
};

/* [fn.sensitive.type] [fn.nonsensitive.type] [fn.ephemeralasnull.type]
 * The result has the argument's type. */
static const tfx_type *same_type(tfx_ctx *ctx, const tfx_function *fn,
                                 const tfx_value *const *args, size_t nargs,
                                 tfx_func_error *err)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return args[0]->type;
}

/* m without the mark `name` (NULL when nothing is left). */
static const tfx_marks *marks_without(tfx_ctx *ctx, const tfx_marks *m, const char *name)
{
    const tfx_marks *out = NULL;

    if (m == NULL)
        return NULL;
    for (size_t i = 0; i < m->n; i++)
        if (!tfx_str_eq(m->names[i], name, strlen(name)))
            out = tfx_marks_union(ctx, out,
                                  tfx_marks_one(ctx, m->names[i].s, m->names[i].nbytes));
    return out;
}

/* ---- sensitive ---- */

/* [fn.sensitive.result] The argument with the mark "sensitive" added at
 * its top level (its other marks, and those inside it, kept); nulls and
 * unknowns included. */
static const tfx_value *sensitive_impl(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_type *ret, const tfx_value *const *args,
                                       size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return tfx_value_mark(ctx, args[0],
                          tfx_marks_one(ctx, mark_sensitive, sizeof mark_sensitive - 1));
}

/* ---- nonsensitive ---- */

/* [fn.nonsensitive.result] The argument without the mark "sensitive" at
 * its top level; its other top-level marks stay, and so do marks inside
 * it ("sensitive" ones included).  A value that is not sensitive is
 * returned as it is (no error, since Terraform 1.7). */
static const tfx_value *nonsensitive_impl(tfx_ctx *ctx, const tfx_function *fn,
                                          const tfx_type *ret, const tfx_value *const *args,
                                          size_t nargs, tfx_func_error *err)
{
    const tfx_marks *m = NULL;
    const tfx_value *v = tfx_value_unmark(ctx, args[0], &m);

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return tfx_value_mark(ctx, v, marks_without(ctx, m, mark_sensitive));
}

/* ---- issensitive ---- */

/* [fn.issensitive.result] true if the argument carries "sensitive" at
 * its top level (unknown or not); otherwise an unknown bool if it is
 * unknown, else false.  Marks inside the value do not count, and the
 * result carries no mark. */
static const tfx_value *issensitive_impl(tfx_ctx *ctx, const tfx_function *fn,
                                         const tfx_type *ret, const tfx_value *const *args,
                                         size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (tfx_marks_has(args[0]->marks, mark_sensitive))
        return tfx_value_bool(true);
    if (tfx_value_is_unknown(args[0]))
        return tfx_value_unknown(ctx, &tfx_type_bool);
    return tfx_value_bool(false);
}

/* ---- ephemeralasnull ---- */

/* [fn.ephemeralasnull.part] What one part v (already rebuilt from its
 * transformed parts) becomes: if it carries "ephemeral" at its top
 * level, a null of its type (an unknown of its type, if it is unknown)
 * carrying its other top-level marks; otherwise v itself. */
static const tfx_value *strip_ephemeral(tfx_ctx *ctx, const tfx_value *v)
{
    const tfx_marks *rest;

    if (!tfx_marks_has(v->marks, mark_ephemeral))
        return v;
    rest = marks_without(ctx, v->marks, mark_ephemeral);
    if (tfx_value_is_unknown(v))
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, v->type), rest);
    return tfx_value_mark(ctx, tfx_value_null(ctx, v->type), rest);
}

/* [fn.ephemeralasnull.walk] cty 1.12.1's Transform of v, parts before
 * the whole: a null, an unknown, a primitive and an empty collection or
 * structure are left as they are; the elements of a list, set, tuple or
 * map are transformed and the value rebuilt with v's own top-level
 * marks; the attributes of an object are read as cty's GetAttr reads
 * them from a marked object, so each attribute first gets the object's
 * top-level marks added, then is transformed, and the object is rebuilt
 * with its marks.  Then strip_ephemeral applies to the result. */
static const tfx_value *transform(tfx_ctx *ctx, const tfx_value *v)
{
    const tfx_marks *m = NULL;
    const tfx_value *raw = tfx_value_unmark(ctx, v, &m);
    const tfx_value *nv = v;
    const tfx_value **items;
    size_t n;

    tfx_ctx_step(ctx);
    if (!tfx_value_is_known(raw))
        return strip_ephemeral(ctx, v);
    switch (raw->type->kind) {
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_TUPLE:
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT:
        n = tfx_value_length(raw);
        if (n == 0)
            break;
        items = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_value *));
        for (size_t i = 0; i < n; i++) {
            if (raw->type->kind == TFX_TYPE_MAP || raw->type->kind == TFX_TYPE_OBJECT) {
                const tfx_value *e = raw->as.attrs.vals[i];

                /* [fn.ephemeralasnull.walk.pn] cty 1.15 (PN) no longer
                 * passes an object's marks down to its attributes */
                if (raw->type->kind == TFX_TYPE_OBJECT && !ctx->pn)
                    e = tfx_value_mark(ctx, e, m);
                items[i] = transform(ctx, e);
            } else {
                items[i] = transform(ctx, raw->as.elems.items[i]);
            }
        }
        switch (raw->type->kind) {
        case TFX_TYPE_LIST:
            nv = tfx_value_list(ctx, raw->type->elem, items, n);
            break;
        case TFX_TYPE_SET:
            nv = tfx_value_set(ctx, raw->type->elem, items, n);
            break;
        case TFX_TYPE_TUPLE:
            nv = tfx_value_tuple(ctx, items, n);
            break;
        case TFX_TYPE_MAP:
            nv = tfx_value_map(ctx, raw->type->elem, raw->as.attrs.keys, items, n);
            break;
        default:
            nv = tfx_value_object(ctx, raw->as.attrs.keys, items, n);
            break;
        }
        nv = tfx_value_mark(ctx, nv, m);
        break;
    case TFX_TYPE_DYNAMIC:
    case TFX_TYPE_BOOL:
    case TFX_TYPE_NUMBER:
    case TFX_TYPE_STRING:
    case TFX_TYPE_CAPSULE: /* [type.capsule] a leaf */
        break;
    }
    return strip_ephemeral(ctx, nv);
}

/* [fn.ephemeralasnull.result] Terraform's RemoveEphemeralValues: the
 * argument transformed ([fn.ephemeralasnull.walk]); the result carries
 * whatever marks the transformation left, and nothing else. */
static const tfx_value *ephemeralasnull_impl(tfx_ctx *ctx, const tfx_function *fn,
                                             const tfx_type *ret, const tfx_value *const *args,
                                             size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return transform(ctx, args[0]);
}

/* [fn.issensitive.type] bool. */
static const tfx_function fn_issensitive = {.name = "issensitive",
                                            .params = value_param,
                                            .nparams = TFX_COUNTOF(value_param),
                                            .varparam = NULL,
                                            .type = NULL,
                                            .ret_type = &tfx_type_bool,
                                            .impl = issensitive_impl};

static const tfx_function fn_sensitive = {.name = "sensitive",
                                          .params = value_param,
                                          .nparams = TFX_COUNTOF(value_param),
                                          .varparam = NULL,
                                          .type = same_type,
                                          .ret_type = NULL,
                                          .impl = sensitive_impl};

static const tfx_function fn_nonsensitive = {.name = "nonsensitive",
                                             .params = value_param,
                                             .nparams = TFX_COUNTOF(value_param),
                                             .varparam = NULL,
                                             .type = same_type,
                                             .ret_type = NULL,
                                             .impl = nonsensitive_impl};

static const tfx_function fn_ephemeralasnull = {.name = "ephemeralasnull",
                                                .params = value_param,
                                                .nparams = TFX_COUNTOF(value_param),
                                                .varparam = NULL,
                                                .type = same_type,
                                                .ret_type = NULL,
                                                .impl = ephemeralasnull_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_sensitive[] = {
    {"ephemeralasnull", &fn_ephemeralasnull},
    {"issensitive", &fn_issensitive},
    {"nonsensitive", &fn_nonsensitive},
    {"sensitive", &fn_sensitive},
    {NULL, NULL},
};
