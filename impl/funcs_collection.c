/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_collection.c — collection functions with Terraform's semantics
 * (functions.md, "(a) Where Terraform/OpenTofu differ"): [fn.length] is
 * Terraform's LengthFunc, not cty's (which rejects strings); [fn.coalesce]
 * is Terraform's CoalesceFunc, not cty's (which keeps "" and does not
 * unify).  Both as Terraform wrote them for the cty 1.12.1 of profile P14:
 * no refinements of unknown results.
 *
 * The second part of the file has the list functions of cty 1.12.1's
 * stdlib that Terraform registers as they are (spec/functions-lists.md).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

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
    case TFX_TYPE_CAPSULE: /* [type.capsule] */
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
    case TFX_TYPE_CAPSULE: /* [type.capsule] */
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

/* ==== The list functions of cty 1.12.1's stdlib (spec/functions-lists.md) ====
 *
 * chunklist, coalescelist, compact, concat, contains, distinct, element,
 * flatten, range, reverse (cty's ReverseListFunc), slice and sort, as
 * Terraform registers them from cty: profile P14 is cty 1.12.1's
 * behaviour, negative element indexes and null `contains` values
 * included. */

static const tfx_type list_of_any = {.kind = TFX_TYPE_LIST, .elem = &tfx_type_dynamic};
static const tfx_type list_of_string = {.kind = TFX_TYPE_LIST, .elem = &tfx_type_str};

/* gocty's message for a number that is not a whole number within int64's
 * range (cty converts indexes and sizes to a Go int) [fn.lists.int]. */
static const char int_message[] =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/* [fn.lists.int] The number v (known, not null) as an int64, as gocty's
 * FromCtyValue into a Go int: false unless it is a whole number within
 * int64's range (-0 is 0). */
static bool list_int(const tfx_value *v, int64_t *out)
{
    return tfx_num_to_int64(v->as.number, out);
}

/* "<prefix>: <int_message>" in the arena. */
static const char *int_error(tfx_ctx *ctx, const char *prefix)
{
    return tfx_ctx_printf(ctx, "%s: %s", prefix, int_message);
}

/* A growable array of values in the arena. */
typedef struct {
    tfx_ctx *ctx;
    const tfx_value **items;
    size_t n;
    size_t cap;
} value_vec;

static void vec_push(value_vec *vec, const tfx_value *v)
{
    if (vec->n == vec->cap) {
        size_t cap = vec->cap == 0 ? 8 : vec->cap * 2;
        const tfx_value **items;

        tfx_ctx_check_items(vec->ctx, vec->n + 1);
        items = tfx_ctx_alloc_array(vec->ctx, cap, sizeof(const tfx_value *));
        for (size_t i = 0; i < vec->n; i++)
            items[i] = vec->items[i];
        vec->items = items;
        vec->cap = cap;
    }
    vec->items[vec->n++] = v;
}

/* Element i of a known list, set, tuple, map or object (maps and objects
 * in key order). */
static const tfx_value *item_any(const tfx_value *v, size_t i)
{
    if (v->type->kind == TFX_TYPE_MAP || v->type->kind == TFX_TYPE_OBJECT)
        return v->as.attrs.vals[i];
    return v->as.elems.items[i];
}

/* Whether a list/tuple/set type. */
static bool is_sequence_kind(tfx_type_kind k)
{
    return k == TFX_TYPE_LIST || k == TFX_TYPE_SET || k == TFX_TYPE_TUPLE;
}

/* ---- chunklist ---- */

/* [fn.chunklist] list(dynamic) and number, both accepting marks. */
static const tfx_param chunklist_params[] = {
    {.name = "list", .type = &list_of_any, .allow_marked = true},
    {.name = "size", .type = &tfx_type_number, .allow_marked = true},
};

/* [fn.chunklist.type] list(T) for a list(T) argument. */
static const tfx_type *chunklist_type(tfx_ctx *ctx, const tfx_function *fn,
                                      const tfx_value *const *args, size_t nargs,
                                      tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return tfx_type_list(ctx, args[0]->type);
}

/* [fn.chunklist.result] [fn.chunklist.errors] [fn.chunklist.marks] */
static const tfx_value *chunklist_impl(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_type *ret, const tfx_value *const *args,
                                       size_t nargs, tfx_func_error *err)
{
    const tfx_marks *lmarks = NULL;
    const tfx_marks *smarks = NULL;
    const tfx_value *list = tfx_value_unmark(ctx, args[0], &lmarks);
    const tfx_value *sizev = tfx_value_unmark(ctx, args[1], &smarks);
    const tfx_marks *marks = tfx_marks_union(ctx, lmarks, smarks);
    const tfx_type *elem = list->type->elem;
    const tfx_value **chunks;
    size_t n;
    size_t nchunks = 0;
    int64_t size;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!list_int(sizev, &size))
        return tfx_fn_error(err, int_error(ctx, "invalid size"));
    if (size < 0)
        return tfx_fn_error(err, "the size argument must be positive");
    n = tfx_value_length(list);
    if (n == 0)
        return tfx_value_mark(ctx, tfx_value_list(ctx, list->type, NULL, 0), marks);
    if (size == 0)
        return tfx_value_mark(ctx, tfx_value_list(ctx, ret->elem, &list, 1), marks);
    {
        size_t usize = (uint64_t)size > n ? n : (size_t)size;
        size_t total = (n + usize - 1) / usize;

        chunks = tfx_ctx_alloc_array(ctx, total, sizeof(const tfx_value *));
        for (size_t start = 0; start < n; start += usize) {
            size_t k = n - start < usize ? n - start : usize;

            tfx_ctx_step(ctx);
            chunks[nchunks++] = tfx_value_list(ctx, elem, list->as.elems.items + start, k);
        }
    }
    return tfx_value_mark(ctx, tfx_value_list(ctx, ret->elem, chunks, nchunks), marks);
}

static const tfx_function fn_chunklist = {.name = "chunklist",
                                          .params = chunklist_params,
                                          .nparams = TFX_COUNTOF(chunklist_params),
                                          .varparam = NULL,
                                          .type = chunklist_type,
                                          .ret_type = NULL,
                                          .impl = chunklist_impl};

/* ---- coalescelist ---- */

/* [fn.coalescelist] Nulls, unknowns and dynamic accepted; not marks. */
static const tfx_param coalescelist_vals = {
    .name = "vals", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
    .allow_dynamic = true};

/* [fn.coalescelist.type] */
static const tfx_type *coalescelist_type(tfx_ctx *ctx, const tfx_function *fn,
                                         const tfx_value *const *args, size_t nargs,
                                         tfx_func_error *err)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(fn);
    if (nargs == 0)
        return tfx_fn_error(err, "at least one argument is required");
    for (size_t i = 0; i < nargs; i++) {
        tfx_type_kind k = args[i]->type->kind;

        if (tfx_value_is_unknown(args[i]))
            return &tfx_type_dynamic;
        if (k != TFX_TYPE_LIST && k != TFX_TYPE_TUPLE)
            return tfx_fn_error(err, "coalescelist arguments must be lists or tuples");
    }
    for (size_t i = 1; i < nargs; i++)
        if (!tfx_type_equal(args[i]->type, args[0]->type))
            return &tfx_type_dynamic;
    return args[0]->type;
}

/* [fn.coalescelist.result] */
static const tfx_value *coalescelist_impl(tfx_ctx *ctx, const tfx_function *fn,
                                          const tfx_type *ret, const tfx_value *const *args,
                                          size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    for (size_t i = 0; i < nargs; i++) {
        if (tfx_value_is_unknown(args[i]))
            return tfx_value_unknown(ctx, ret);
        if (tfx_value_is_null(args[i]))
            continue;
        if (tfx_value_length(args[i]) > 0)
            return args[i];
    }
    return tfx_fn_error(err, "no non-null arguments");
}

static const tfx_function fn_coalescelist = {.name = "coalescelist",
                                             .params = NULL,
                                             .nparams = 0,
                                             .varparam = &coalescelist_vals,
                                             .type = coalescelist_type,
                                             .ret_type = NULL,
                                             .impl = coalescelist_impl};

/* ---- compact ---- */

/* [fn.compact] list(string); nothing else accepted. */
static const tfx_param compact_params[] = {
    {.name = "list", .type = &list_of_string},
};

/* [fn.compact.result] */
static const tfx_value *compact_impl(tfx_ctx *ctx, const tfx_function *fn,
                                     const tfx_type *ret, const tfx_value *const *args,
                                     size_t nargs, tfx_func_error *err)
{
    const tfx_value *list = args[0];
    const tfx_value **out;
    size_t n;
    size_t m = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (!tfx_value_is_wholly_known(list))
        return tfx_value_unknown(ctx, ret);
    n = tfx_value_length(list);
    out = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof(const tfx_value *));
    for (size_t i = 0; i < n; i++) {
        const tfx_value *v = tfx_value_item(list, i);

        tfx_ctx_step(ctx);
        if (tfx_value_is_null(v) || v->as.string.nbytes == 0)
            continue;
        out[m++] = v;
    }
    return tfx_value_list(ctx, &tfx_type_str, out, m);
}

static const tfx_function fn_compact = {.name = "compact",
                                        .params = compact_params,
                                        .nparams = TFX_COUNTOF(compact_params),
                                        .varparam = NULL,
                                        .type = NULL,
                                        .ret_type = &list_of_string,
                                        .impl = compact_impl};

/* ---- concat ---- */

/* [fn.concat] Marks only. */
static const tfx_param concat_seqs = {
    .name = "seqs", .type = &tfx_type_dynamic, .allow_marked = true};

/* [fn.concat.type] */
static const tfx_type *concat_type(tfx_ctx *ctx, const tfx_function *fn,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    const tfx_type **etys;
    size_t n = 0;
    size_t i;

    TFX_UNUSED(fn);
    if (nargs == 0)
        return tfx_fn_error(err, "at least one argument is required");
    if (args[0]->type->kind == TFX_TYPE_LIST) {
        const tfx_type **tys = tfx_ctx_alloc_array(ctx, nargs, sizeof(const tfx_type *));

        for (i = 0; i < nargs && args[i]->type->kind == TFX_TYPE_LIST; i++)
            tys[i] = args[i]->type;
        if (i == nargs) {
            bool all_unknown = false;
            const tfx_type *common =
                tfx_unify(ctx, tys, nargs, TFX_CONVERT_UNSAFE, &all_unknown);

            if (common != NULL)
                return common;
        }
    }
    /* A tuple of every element's type: count them first. */
    for (i = 0; i < nargs; i++) {
        const tfx_value *v = tfx_value_unmark(ctx, args[i], NULL);

        switch (v->type->kind) {
        case TFX_TYPE_TUPLE:
            n += v->type->n;
            break;
        case TFX_TYPE_LIST:
            if (tfx_value_is_unknown(v))
                return &tfx_type_dynamic;
            n += tfx_value_length(v);
            break;
        default:
            return tfx_fn_arg_error(
                err, (long)i,
                tfx_ctx_printf(ctx, "all arguments must be lists or tuples; got %s",
                               tfx_type_friendly(ctx, v->type)));
        }
        tfx_ctx_check_items(ctx, n);
    }
    etys = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof(const tfx_type *));
    n = 0;
    for (i = 0; i < nargs; i++) {
        const tfx_type *t = args[i]->type;

        if (t->kind == TFX_TYPE_TUPLE) {
            for (size_t j = 0; j < t->n; j++)
                etys[n++] = t->elems[j];
        } else {
            size_t len = tfx_value_length(tfx_value_unmark(ctx, args[i], NULL));

            for (size_t j = 0; j < len; j++) {
                tfx_ctx_step(ctx);
                etys[n++] = t->elem;
            }
        }
    }
    return tfx_type_tuple(ctx, etys, n);
}

/* [fn.concat.list] [fn.concat.tuple] [fn.concat.marks] */
static const tfx_value *concat_impl(tfx_ctx *ctx, const tfx_function *fn,
                                    const tfx_type *ret, const tfx_value *const *args,
                                    size_t nargs, tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    value_vec vals = {.ctx = ctx, .items = NULL, .n = 0, .cap = 0};

    TFX_UNUSED(fn);
    for (size_t i = 0; i < nargs; i++) {
        const tfx_marks *m = NULL;
        const tfx_value *seq = args[i];
        size_t n;

        if (ret->kind == TFX_TYPE_LIST) {
            const char *why = NULL;

            seq = tfx_convert(ctx, seq, ret, TFX_CONVERT_UNSAFE, &why);
            if (seq == NULL)
                return tfx_fn_arg_error(err, (long)i, why);
        }
        seq = tfx_value_unmark(ctx, seq, &m);
        marks = tfx_marks_union(ctx, marks, m);
        n = tfx_value_length(seq);
        for (size_t j = 0; j < n; j++) {
            tfx_ctx_step(ctx);
            vec_push(&vals, tfx_value_item(seq, j));
        }
    }
    if (ret->kind == TFX_TYPE_LIST) {
        const tfx_type *elem = ret->elem;

        /* cty's ListVal takes the elements' type; a converted list keeps
         * concrete element types where the result type says dynamic. */
        if (vals.n > 0 && tfx_type_has_dynamic(elem)) {
            elem = vals.items[0]->type;
            for (size_t j = 1; j < vals.n; j++)
                if (!tfx_type_equal(vals.items[j]->type, elem))
                    return tfx_fn_error(
                        err, "panic in function implementation: inconsistent list element types");
        }
        return tfx_value_mark(ctx, tfx_value_list(ctx, elem, vals.items, vals.n), marks);
    }
    return tfx_value_mark(ctx, tfx_value_tuple(ctx, vals.items, vals.n), marks);
}

static const tfx_function fn_concat = {.name = "concat",
                                       .params = NULL,
                                       .nparams = 0,
                                       .varparam = &concat_seqs,
                                       .type = concat_type,
                                       .ret_type = NULL,
                                       .impl = concat_impl};

/* ---- contains ---- */

/* [fn.contains] Nothing accepted but known, unmarked, typed values. */
static const tfx_param contains_params[] = {
    {.name = "list", .type = &tfx_type_dynamic},
    {.name = "value", .type = &tfx_type_dynamic, .allow_null_pn = true},
};

/* [fn.contains.result] */
static const tfx_value *contains_impl(tfx_ctx *ctx, const tfx_function *fn,
                                      const tfx_type *ret, const tfx_value *const *args,
                                      size_t nargs, tfx_func_error *err)
{
    const tfx_value *list = args[0];
    bool saw_unknown = false;
    size_t n;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!is_sequence_kind(list->type->kind))
        return tfx_fn_error(err, "argument must be list, tuple, or set");
    if (tfx_value_is_null(list))
        return tfx_fn_error(err, "cannot search a nil list or set");
    if (tfx_value_is_unknown(list) || tfx_value_is_unknown(args[1]))
        return tfx_value_unknown(ctx, &tfx_type_bool);
    n = tfx_value_length(list);
    for (size_t i = 0; i < n; i++) {
        tfx_ctx_step(ctx);
        switch (tfx_value_equals(ctx, args[1], tfx_value_item(list, i))) {
        case TFX_TRI_TRUE:
            return tfx_value_bool(true);
        case TFX_TRI_UNKNOWN:
            saw_unknown = true;
            break;
        case TFX_TRI_FALSE:
            break;
        }
    }
    if (saw_unknown)
        return tfx_value_unknown(ctx, &tfx_type_bool);
    return tfx_value_bool(false);
}

static const tfx_function fn_contains = {.name = "contains",
                                         .params = contains_params,
                                         .nparams = TFX_COUNTOF(contains_params),
                                         .varparam = NULL,
                                         .type = NULL,
                                         .ret_type = &tfx_type_bool,
                                         .impl = contains_impl};

/* ---- distinct ---- */

/* [fn.distinct] list(dynamic); nothing else accepted. */
static const tfx_param distinct_params[] = {
    {.name = "list", .type = &list_of_any},
};

/* [fn.distinct.type] The argument's (converted) type. */
static const tfx_type *distinct_type(tfx_ctx *ctx, const tfx_function *fn,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return args[0]->type;
}

/* Marks keep[i] for the first occurrence of each distinct string of a
 * known list of strings, in O(n log n): a stable sort by bytes puts equal
 * strings together with the first occurrence first. */
static void distinct_strings(tfx_ctx *ctx, const tfx_value *list, bool *keep, size_t n)
{
    tfx_str *strs = tfx_ctx_alloc_array(ctx, n, sizeof(tfx_str));
    size_t *order = tfx_ctx_alloc_array(ctx, n, sizeof(size_t));
    size_t *nonnull = tfx_ctx_alloc_array(ctx, n, sizeof(size_t));
    size_t m = 0;
    bool seen_null = false;

    for (size_t i = 0; i < n; i++) {
        const tfx_value *v = tfx_value_item(list, i);

        tfx_ctx_step(ctx);
        if (tfx_value_is_null(v)) {
            keep[i] = !seen_null;
            seen_null = true;
            continue;
        }
        strs[m] = v->as.string;
        nonnull[m++] = i;
    }
    tfx_str_sort_order(ctx, strs, order, m);
    for (size_t j = 0; j < m; j++) {
        tfx_ctx_step(ctx);
        keep[nonnull[order[j]]] = j == 0 || tfx_str_cmp(strs[order[j - 1]], strs[order[j]]) != 0;
    }
}

/* Whether every element of a known list of numbers is null or a whole
 * number below 2^53 in magnitude held at 53 bits of precision or more;
 * ints[i] gets the integer of element i. */
static bool small_integers(const tfx_value *list, size_t n, int64_t *ints)
{
    for (size_t i = 0; i < n; i++) {
        const tfx_value *v = tfx_value_item(list, i);

        if (tfx_value_is_null(v)) {
            ints[i] = 0;
            continue;
        }
        if (tfx_num_prec(v->as.number) < 53 || !tfx_num_to_int64(v->as.number, &ints[i])
            || ints[i] > ((int64_t)1 << 53) || ints[i] < -((int64_t)1 << 53))
            return false;
    }
    return true;
}

typedef struct {
    int64_t v;
    size_t i;
} int_at;

static int int_at_cmp(const void *a, const void *b)
{
    const int_at *x = a;
    const int_at *y = b;

    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i ? 1 : 0;
}

/* [fn.distinct.result] [num.eq] The fast path of distinct for a list of
 * numbers that small_integers accepts, in O(n log n) rather than
 * comparing each element with every kept one.  cty's Equals of two
 * numbers compares their shortest decimal texts; a whole number v with
 * |v| <= 2^53 held at p >= 53 bits has neighbours at most 1 apart, so no
 * shorter digit string rounds back to it and its text is its integer
 * digits: two such numbers are equal exactly when their int64 values
 * are (-0 and 0 both read as 0, as [num.eq] says).  Nulls equal each
 * other and nothing else, as in the general path.  Sorting (value,
 * index) pairs puts equal numbers together, the first occurrence first;
 * keep[i] marks the first occurrence of each.  test_fn_lists compares it
 * with the general rule (each element against the kept ones by
 * tfx_value_equals) on random lists. */
static void distinct_small_integers(tfx_ctx *ctx, const tfx_value *list, const int64_t *ints,
                                    bool *keep, size_t n)
{
    int_at *pairs = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof(int_at));
    size_t m = 0;
    bool seen_null = false;

    for (size_t i = 0; i < n; i++) {
        tfx_ctx_step(ctx);
        if (tfx_value_is_null(tfx_value_item(list, i))) {
            keep[i] = !seen_null;
            seen_null = true;
            continue;
        }
        pairs[m].v = ints[i];
        pairs[m++].i = i;
    }
    if (m > 1)
        qsort(pairs, m, sizeof(int_at), int_at_cmp);
    for (size_t j = 0; j < m; j++) {
        tfx_ctx_step(ctx);
        keep[pairs[j].i] = j == 0 || pairs[j - 1].v != pairs[j].v;
    }
}

/* [fn.distinct.result] */
static const tfx_value *distinct_impl(tfx_ctx *ctx, const tfx_function *fn,
                                      const tfx_type *ret, const tfx_value *const *args,
                                      size_t nargs, tfx_func_error *err)
{
    const tfx_value *list = args[0];
    const tfx_value **out;
    int64_t *ints = NULL;
    bool small = false;
    bool *keep;
    size_t n;
    size_t m = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (!tfx_value_is_wholly_known(list))
        return tfx_value_unknown(ctx, ret);
    n = tfx_value_length(list);
    out = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof(const tfx_value *));
    keep = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof(bool));
    if (ret->elem->kind == TFX_TYPE_NUMBER) {
        ints = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof(int64_t));
        small = small_integers(list, n, ints);
    }
    if (small) {
        distinct_small_integers(ctx, list, ints, keep, n);
        for (size_t i = 0; i < n; i++)
            if (keep[i])
                out[m++] = tfx_value_item(list, i);
    } else if (ret->elem->kind == TFX_TYPE_STRING) {
        distinct_strings(ctx, list, keep, n);
        for (size_t i = 0; i < n; i++)
            if (keep[i])
                out[m++] = tfx_value_item(list, i);
    } else {
        for (size_t i = 0; i < n; i++) {
            const tfx_value *v = tfx_value_item(list, i);
            bool found = false;

            for (size_t j = 0; j < m && !found; j++) {
                tfx_ctx_step(ctx);
                found = tfx_value_equals(ctx, out[j], v) == TFX_TRI_TRUE;
            }
            if (!found)
                out[m++] = v;
        }
    }
    return tfx_value_list(ctx, ret->elem, out, m);
}

static const tfx_function fn_distinct = {.name = "distinct",
                                         .params = distinct_params,
                                         .nparams = TFX_COUNTOF(distinct_params),
                                         .varparam = NULL,
                                         .type = distinct_type,
                                         .ret_type = NULL,
                                         .impl = distinct_impl};

/* ---- element ---- */

/* [fn.element] The list accepts marks; the index nothing. */
static const tfx_param element_params[] = {
    {.name = "list", .type = &tfx_type_dynamic, .allow_marked = true},
    {.name = "index", .type = &tfx_type_number},
};

static const char element_negative[] = "cannot use element function with a negative index";
static const char element_empty[] = "cannot use element function with an empty list";

/* Whether the known number v is below zero (-0 is not). */
static bool num_negative(const tfx_value *v)
{
    return tfx_num_sign(v->as.number) < 0;
}

/* [fn.element.result] [fn.element.pn] The position of index i in a
 * sequence of n > 0 elements: i modulo n, counted from the end when i is
 * negative (profile PN, cty 1.15 and 1.16.2; P14 has failed before). */
static size_t element_position(int64_t i, size_t n)
{
    if (i >= 0)
        return (size_t)((uint64_t)i % n);
    return n - 1 - (size_t)((uint64_t)(-(i + 1)) % n);
}

/* [fn.element.type] */
static const tfx_type *element_type(tfx_ctx *ctx, const tfx_function *fn,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_type *lt = args[0]->type;
    const tfx_value *index = args[1];
    int64_t i;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!ctx->pn && !tfx_value_is_unknown(index) && num_negative(index))
        return tfx_fn_error(err, element_negative);
    switch (lt->kind) {
    case TFX_TYPE_LIST:
        return lt->elem;
    case TFX_TYPE_TUPLE:
        if (tfx_value_is_unknown(index))
            return &tfx_type_dynamic;
        if (!list_int(index, &i))
            return tfx_fn_error(err, int_error(ctx, "invalid index"));
        if (lt->n == 0)
            return tfx_fn_error(err, element_empty);
        return lt->elems[element_position(i, lt->n)];
    default:
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "cannot read elements from %s",
                                                tfx_type_friendly(ctx, lt)));
    }
}

/* [fn.element.result] */
static const tfx_value *element_impl(tfx_ctx *ctx, const tfx_function *fn,
                                     const tfx_type *ret, const tfx_value *const *args,
                                     size_t nargs, tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *list;
    int64_t i;
    size_t n;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!list_int(args[1], &i))
        return tfx_fn_error(err, int_error(ctx, "invalid index"));
    if (i < 0 && !ctx->pn)
        return tfx_fn_error(err, element_negative);
    list = tfx_value_unmark(ctx, args[0], &marks);
    if (tfx_value_is_unknown(list))
        return tfx_value_unknown(ctx, ret);
    n = tfx_value_length(list);
    if (n == 0)
        return tfx_fn_error(err, element_empty);
    return tfx_value_mark(ctx, tfx_value_item(list, element_position(i, n)), marks);
}

static const tfx_function fn_element = {.name = "element",
                                        .params = element_params,
                                        .nparams = TFX_COUNTOF(element_params),
                                        .varparam = NULL,
                                        .type = element_type,
                                        .ret_type = NULL,
                                        .impl = element_impl};

/* ---- flatten ---- */

/* [fn.flatten] Marks only. */
static const tfx_param flatten_params[] = {
    {.name = "list", .type = &tfx_type_dynamic, .allow_marked = true},
};

/* The result of flattening. */
typedef struct {
    value_vec out;
    const tfx_marks *marks;
    bool known;
} flat_state;

/* Whether the known (unmarked) collection v has a known length: tuples,
 * lists and maps always; sets when wholly known or of one element
 * ([fn.length.collection]). */
static bool flat_length_known(const tfx_value *v)
{
    if (v->type->kind != TFX_TYPE_SET)
        return true;
    return tfx_value_length(v) == 1 || tfx_value_is_wholly_known(v);
}

/* [fn.flatten.walk] cty's flattener: appends the elements of v to st->out,
 * flattening nested known, non-null lists, sets and tuples; collects the
 * marks of v and of the nested collections; clears st->known where the
 * result cannot be known yet (v's own length unknown, an unknown nested
 * collection, an unmarked unknown of type dynamic). */
static void flatten_walk(tfx_ctx *ctx, const tfx_value *v, flat_state *st)
{
    const tfx_marks *m = NULL;
    size_t n;

    v = tfx_value_unmark(ctx, v, &m);
    st->marks = tfx_marks_union(ctx, st->marks, m);
    if (!flat_length_known(v)) {
        st->known = false;
        return;
    }
    n = tfx_value_length(v);
    for (size_t i = 0; i < n; i++) {
        const tfx_value *e = item_any(v, i);

        tfx_ctx_step(ctx);
        if (e->type->kind == TFX_TYPE_DYNAMIC && tfx_value_is_unknown(e) && e->marks == NULL)
            st->known = false;
        if (!tfx_value_is_null(e) && is_sequence_kind(e->type->kind)) {
            if (tfx_value_is_unknown(e)) {
                st->known = false;
                st->marks = tfx_marks_union(ctx, st->marks, e->marks);
                continue;
            }
            if (++ctx->depth > ctx->limits.max_depth)
                tfx_ctx_fail(ctx, "Nesting too deep",
                             "The evaluation nests deeper than the limit of %zu levels.",
                             ctx->limits.max_depth);
            flatten_walk(ctx, e, st);
            ctx->depth--;
        } else {
            vec_push(&st->out, e);
        }
    }
}

/* [fn.flatten.type] */
static const tfx_type *flatten_type(tfx_ctx *ctx, const tfx_function *fn,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    flat_state st = {.out = {.ctx = ctx, .items = NULL, .n = 0, .cap = 0},
                     .marks = NULL,
                     .known = true};
    const tfx_type **tys;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!tfx_value_is_wholly_known(args[0]))
        return &tfx_type_dynamic;
    if (!is_sequence_kind(args[0]->type->kind))
        return tfx_fn_error(err, "can only flatten lists, sets and tuples");
    flatten_walk(ctx, args[0], &st);
    if (!st.known)
        return &tfx_type_dynamic;
    tys = tfx_ctx_alloc_array(ctx, st.out.n > 0 ? st.out.n : 1, sizeof(const tfx_type *));
    for (size_t i = 0; i < st.out.n; i++)
        tys[i] = st.out.items[i]->type;
    return tfx_type_tuple(ctx, tys, st.out.n);
}

/* [fn.flatten.result] */
static const tfx_value *flatten_impl(tfx_ctx *ctx, const tfx_function *fn,
                                     const tfx_type *ret, const tfx_value *const *args,
                                     size_t nargs, tfx_func_error *err)
{
    flat_state st = {.out = {.ctx = ctx, .items = NULL, .n = 0, .cap = 0},
                     .marks = NULL,
                     .known = true};
    const tfx_marks *marks = NULL;
    const tfx_value *v = tfx_value_unmark(ctx, args[0], &marks);

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (tfx_value_length(v) == 0)
        return tfx_value_mark(ctx, tfx_value_tuple(ctx, NULL, 0), marks);
    flatten_walk(ctx, args[0], &st);
    if (!st.known)
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, ret), st.marks);
    return tfx_value_mark(ctx, tfx_value_tuple(ctx, st.out.items, st.out.n), st.marks);
}

static const tfx_function fn_flatten = {.name = "flatten",
                                        .params = flatten_params,
                                        .nparams = TFX_COUNTOF(flatten_params),
                                        .varparam = NULL,
                                        .type = flatten_type,
                                        .ret_type = NULL,
                                        .impl = flatten_impl};

/* ---- range ---- */

/* [fn.range] Numbers; nothing else accepted. */
static const tfx_param range_params = {.name = "params", .type = &tfx_type_number};
static const tfx_type list_of_number = {.kind = TFX_TYPE_LIST, .elem = &tfx_type_number};

/* A number made by the function; memory exhaustion fails the evaluation. */
static const tfx_num *range_int(tfx_ctx *ctx, int64_t i)
{
    const tfx_num *n = tfx_num_from_int64(ctx->arena, i);

    if (n == NULL)
        tfx_fn_nomem(ctx);
    return n;
}

/* [fn.range.args] [fn.range.result] [fn.range.errors] */
static const tfx_value *range_impl(tfx_ctx *ctx, const tfx_function *fn,
                                   const tfx_type *ret, const tfx_value *const *args,
                                   size_t nargs, tfx_func_error *err)
{
    const tfx_num *zero;
    const tfx_num *start;
    const tfx_num *end;
    const tfx_num *step;
    const tfx_num *num;
    const tfx_value *vals[1024];
    size_t n = 0;
    bool down;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    zero = range_int(ctx, 0);
    switch (nargs) {
    case 1:
        start = zero;
        end = args[0]->as.number;
        step = range_int(ctx, tfx_num_cmp(end, zero) < 0 ? -1 : 1);
        break;
    case 2:
        start = args[0]->as.number;
        end = args[1]->as.number;
        step = range_int(ctx, tfx_num_cmp(end, start) < 0 ? -1 : 1);
        break;
    case 3:
        start = args[0]->as.number;
        end = args[1]->as.number;
        step = args[2]->as.number;
        break;
    default:
        return tfx_fn_error(err, "must have one, two, or three arguments");
    }
    /* cty's test for a zero step compares Go structs and never matches:
     * a zero step goes on as an ascending one [fn.range.zero]. */
    down = tfx_num_cmp(step, zero) < 0;
    if (down && tfx_num_cmp(end, start) > 0)
        return tfx_fn_arg_error(err, 1, "end must be less than start when step is negative");
    if (!down && tfx_num_cmp(end, start) < 0)
        return tfx_fn_arg_error(err, 1, "end must be greater than start when step is positive");
    num = start;
    for (;;) {
        tfx_num_err status;

        tfx_ctx_step(ctx);
        if (down ? tfx_num_cmp(num, end) <= 0 : tfx_num_cmp(num, end) >= 0)
            break;
        if (n >= TFX_COUNTOF(vals))
            return tfx_fn_error(err, "more than 1024 values were generated; either decrease the "
                                     "difference between start and end or use a smaller step");
        vals[n++] = tfx_value_number(ctx, num);
        status = tfx_num_add(ctx->arena, num, step, &num);
        if (status == TFX_NUM_ERR_NOMEM)
            tfx_fn_nomem(ctx);
        if (status != TFX_NUM_OK)
            return tfx_fn_error(err, "panic in function implementation: addition of "
                                     "infinities with opposite signs");
    }
    return tfx_value_list(ctx, &tfx_type_number, vals, n);
}

static const tfx_function fn_range = {.name = "range",
                                      .params = NULL,
                                      .nparams = 0,
                                      .varparam = &range_params,
                                      .type = NULL,
                                      .ret_type = &list_of_number,
                                      .impl = range_impl};

/* ---- reverse ---- */

/* [fn.reverse] Marks only. */
static const tfx_param reverse_params[] = {
    {.name = "list", .type = &tfx_type_dynamic, .allow_marked = true},
};

/* [fn.reverse.type] */
static const tfx_type *reverse_type(tfx_ctx *ctx, const tfx_function *fn,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_type *t = args[0]->type;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    switch (t->kind) {
    case TFX_TYPE_TUPLE: {
        const tfx_type **tys = tfx_ctx_alloc_array(ctx, t->n > 0 ? t->n : 1,
                                                   sizeof(const tfx_type *));

        for (size_t i = 0; i < t->n; i++)
            tys[t->n - 1 - i] = t->elems[i];
        return tfx_type_tuple(ctx, tys, t->n);
    }
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
        return tfx_type_list(ctx, t->elem);
    default:
        return tfx_fn_arg_error(err, 0,
                                tfx_ctx_printf(ctx, "can only reverse list or tuple values, not %s",
                                               tfx_type_friendly(ctx, t)));
    }
}

/* [fn.reverse.result] */
static const tfx_value *reverse_impl(tfx_ctx *ctx, const tfx_function *fn,
                                     const tfx_type *ret, const tfx_value *const *args,
                                     size_t nargs, tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *v = tfx_value_unmark(ctx, args[0], &marks);
    size_t n = tfx_value_length(v);
    const tfx_value **out = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof(const tfx_value *));

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    for (size_t i = 0; i < n; i++)
        out[n - 1 - i] = tfx_value_item(v, i);
    if (ret->kind == TFX_TYPE_TUPLE)
        return tfx_value_mark(ctx, tfx_value_tuple(ctx, out, n), marks);
    return tfx_value_mark(ctx, tfx_value_list(ctx, ret->elem, out, n), marks);
}

static const tfx_function fn_reverse = {.name = "reverse",
                                        .params = reverse_params,
                                        .nparams = TFX_COUNTOF(reverse_params),
                                        .varparam = NULL,
                                        .type = reverse_type,
                                        .ret_type = NULL,
                                        .impl = reverse_impl};

/* ---- slice ---- */

/* [fn.slice] The list accepts marks; the indexes nothing. */
static const tfx_param slice_params[] = {
    {.name = "list", .type = &tfx_type_dynamic, .allow_marked = true},
    {.name = "start_index", .type = &tfx_type_number},
    {.name = "end_index", .type = &tfx_type_number},
};

typedef enum { SLICE_ERROR, SLICE_UNKNOWN, SLICE_KNOWN } slice_status;

/* [fn.slice.indexes] cty's sliceIndexes: checks the known indexes in the
 * order of the rule; SLICE_KNOWN with *start and *end set when both are
 * known, SLICE_UNKNOWN when one is not, SLICE_ERROR with *err filled. */
static slice_status slice_indexes(tfx_ctx *ctx, const tfx_value *const *args, int64_t *start,
                                  int64_t *end, tfx_func_error *err)
{
    const tfx_value *list = args[0];
    bool len_known = list->type->kind == TFX_TYPE_TUPLE || !tfx_value_is_unknown(list);
    int64_t len = 0;

    if (len_known)
        len = (int64_t)(list->type->kind == TFX_TYPE_TUPLE ? list->type->n
                                                            : tfx_value_length(list));
    if (!tfx_value_is_unknown(args[1])) {
        const char *msg = NULL;

        if (!list_int(args[1], start))
            msg = int_error(ctx, "invalid start index");
        else if (*start < 0)
            msg = "start index must not be less than zero";
        else if (len_known && *start > len)
            msg = "start index must not be greater than the length of the list";
        if (msg != NULL) {
            tfx_fn_arg_error(err, 1, msg);
            return SLICE_ERROR;
        }
    }
    if (!tfx_value_is_unknown(args[2])) {
        const char *msg = NULL;

        if (!list_int(args[2], end))
            msg = int_error(ctx, "invalid end index");
        else if (*end < 0)
            msg = "end index must not be less than zero";
        else if (len_known && *end > len)
            msg = "end index must not be greater than the length of the list";
        if (msg != NULL) {
            tfx_fn_arg_error(err, 2, msg);
            return SLICE_ERROR;
        }
    }
    if (tfx_value_is_unknown(args[1]) || tfx_value_is_unknown(args[2]))
        return SLICE_UNKNOWN;
    if (*start > *end) {
        tfx_fn_arg_error(err, 1, "start index must not be greater than end index");
        return SLICE_ERROR;
    }
    return SLICE_KNOWN;
}

/* [fn.slice.type] */
static const tfx_type *slice_type(tfx_ctx *ctx, const tfx_function *fn,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    const tfx_type *t = args[0]->type;
    int64_t start = 0;
    int64_t end = 0;
    slice_status status;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (t->kind == TFX_TYPE_SET)
        return tfx_fn_arg_error(err, 0,
                                "cannot slice a set, because its elements do not have indices; "
                                "explicitly convert to a list if the ordering of the result is "
                                "not important");
    if (t->kind != TFX_TYPE_LIST && t->kind != TFX_TYPE_TUPLE)
        return tfx_fn_arg_error(err, 0, "must be a list or tuple value");
    status = slice_indexes(ctx, args, &start, &end, err);
    if (status == SLICE_ERROR)
        return NULL;
    if (t->kind == TFX_TYPE_LIST)
        return t;
    if (status == SLICE_UNKNOWN)
        return &tfx_type_dynamic;
    return tfx_type_tuple(ctx, t->elems + start, (size_t)(end - start));
}

/* [fn.slice.result] */
static const tfx_value *slice_impl(tfx_ctx *ctx, const tfx_function *fn,
                                   const tfx_type *ret, const tfx_value *const *args,
                                   size_t nargs, tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *v = tfx_value_unmark(ctx, args[0], &marks);
    int64_t start = 0;
    int64_t end = 0;
    const tfx_value *const *items;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (ret->kind == TFX_TYPE_DYNAMIC)
        return tfx_value_mark(ctx, &tfx_value_dynamic_unknown, marks);
    if (slice_indexes(ctx, args, &start, &end, err) != SLICE_KNOWN)
        return NULL;
    items = v->as.elems.items + start;
    if (ret->kind == TFX_TYPE_TUPLE)
        return tfx_value_mark(ctx, tfx_value_tuple(ctx, items, (size_t)(end - start)), marks);
    return tfx_value_mark(ctx, tfx_value_list(ctx, ret->elem, items, (size_t)(end - start)),
                          marks);
}

static const tfx_function fn_slice = {.name = "slice",
                                      .params = slice_params,
                                      .nparams = TFX_COUNTOF(slice_params),
                                      .varparam = NULL,
                                      .type = slice_type,
                                      .ret_type = NULL,
                                      .impl = slice_impl};

/* ---- sort ---- */

/* [fn.sort] list(string); nothing else accepted. */
static const tfx_param sort_params[] = {
    {.name = "list", .type = &list_of_string},
};

/* [fn.sort.result] */
static const tfx_value *sort_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    const tfx_value *list = args[0];
    const tfx_value **out;
    tfx_str *strs;
    size_t *order;
    size_t n;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!tfx_value_is_wholly_known(list))
        return tfx_value_unknown(ctx, ret);
    n = tfx_value_length(list);
    if (n == 0)
        return list;
    strs = tfx_ctx_alloc_array(ctx, n, sizeof(tfx_str));
    order = tfx_ctx_alloc_array(ctx, n, sizeof(size_t));
    out = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_value *));
    for (size_t i = 0; i < n; i++) {
        const tfx_value *v = tfx_value_item(list, i);

        tfx_ctx_step(ctx);
        if (tfx_value_is_null(v))
            return tfx_fn_error(
                err, tfx_ctx_printf(
                         ctx, "given list element %zu is null; a null string cannot be sorted",
                         i));
        strs[i] = v->as.string;
    }
    tfx_str_sort_order(ctx, strs, order, n);
    for (size_t i = 0; i < n; i++)
        out[i] = tfx_value_item(list, order[i]);
    return tfx_value_list(ctx, &tfx_type_str, out, n);
}

static const tfx_function fn_sort = {.name = "sort",
                                     .params = sort_params,
                                     .nparams = TFX_COUNTOF(sort_params),
                                     .varparam = NULL,
                                     .type = NULL,
                                     .ret_type = &list_of_string,
                                     .impl = sort_impl};


/* ==== Terraform's own collection functions (spec/functions-lists.md,
 * "Terraform's collection functions") ====
 *
 * alltrue, anytrue, index, list, map, matchkeys, one, sum and transpose
 * as Terraform's internal/lang/funcs/collection.go writes them, on the
 * call machinery of cty 1.12.1 (profile P14: no refinements).  None of
 * their parameters accepts nulls, unknowns, dynamic or marks, except
 * list's and map's. */

static const tfx_type list_of_bool = {.kind = TFX_TYPE_LIST, .elem = &tfx_type_bool};
static const tfx_type map_of_list_of_string = {.kind = TFX_TYPE_MAP, .elem = &list_of_string};

/* ---- alltrue, anytrue ---- */

/* [fn.alltrue] [fn.anytrue] One parameter of type list(bool). */
static const tfx_param bool_list_params[] = {
    {.name = "list", .type = &list_of_bool},
};

/* [fn.alltrue.result] The elements in order: an unknown one ends the walk
 * with an unknown bool, a null one or false with false; none of these:
 * true (so an empty list gives true). */
static const tfx_value *alltrue_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    const tfx_value *list = args[0];
    size_t n = tfx_value_length(list);

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    for (size_t i = 0; i < n; i++) {
        const tfx_value *v = tfx_value_item(list, i);

        tfx_ctx_step(ctx);
        if (tfx_value_is_unknown(v))
            return tfx_value_unknown(ctx, &tfx_type_bool);
        if (tfx_value_is_null(v) || !v->as.boolean)
            return tfx_value_bool(false);
    }
    return tfx_value_bool(true);
}

/* [fn.anytrue.result] The elements in order: a true one gives true at
 * once; unknown ones are remembered, null and false ones skipped; at the
 * end an unknown bool if there was an unknown element, else false (so an
 * empty list gives false). */
static const tfx_value *anytrue_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    const tfx_value *list = args[0];
    size_t n = tfx_value_length(list);
    bool saw_unknown = false;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    for (size_t i = 0; i < n; i++) {
        const tfx_value *v = tfx_value_item(list, i);

        tfx_ctx_step(ctx);
        if (tfx_value_is_unknown(v))
            saw_unknown = true;
        else if (tfx_value_is_known(v) && v->as.boolean)
            return tfx_value_bool(true);
    }
    return saw_unknown ? tfx_value_unknown(ctx, &tfx_type_bool) : tfx_value_bool(false);
}

static const tfx_function fn_alltrue = {.name = "alltrue",
                                        .params = bool_list_params,
                                        .nparams = TFX_COUNTOF(bool_list_params),
                                        .varparam = NULL,
                                        .type = NULL,
                                        .ret_type = &tfx_type_bool,
                                        .impl = alltrue_impl};

static const tfx_function fn_anytrue = {.name = "anytrue",
                                        .params = bool_list_params,
                                        .nparams = TFX_COUNTOF(bool_list_params),
                                        .varparam = NULL,
                                        .type = NULL,
                                        .ret_type = &tfx_type_bool,
                                        .impl = anytrue_impl};

/* ---- index ---- */

/* [fn.index] Two parameters of type dynamic, accepting nothing special. */
static const tfx_param index_params[] = {
    {.name = "list", .type = &tfx_type_dynamic},
    {.name = "value", .type = &tfx_type_dynamic},
};

/* [fn.index.kind] [fn.index.empty] [fn.index.result] [fn.index.not-found]
 * Terraform's index (the position of a value; cty's IndexFunc, which
 * looks an element up by key, is another function): list must be a list
 * or tuple; an empty one is an error; the elements in order are compared
 * with value by cty's Equals (tfx_value_equals: no conversion, types must
 * match); an undecided comparison gives an unknown number, the first
 * equal element its index; none: "item not found". */
static const tfx_value *index_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    const tfx_value *list = args[0];
    size_t n;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (list->type->kind != TFX_TYPE_LIST && list->type->kind != TFX_TYPE_TUPLE)
        return tfx_fn_error(err, "argument must be a list or tuple");
    n = tfx_value_length(list);
    if (n == 0)
        return tfx_fn_error(err, "cannot search an empty list");
    for (size_t i = 0; i < n; i++) {
        tfx_ctx_step(ctx);
        switch (tfx_value_equals(ctx, tfx_value_item(list, i), args[1])) {
        case TFX_TRI_TRUE:
            return tfx_value_int(ctx, (int64_t)i);
        case TFX_TRI_UNKNOWN:
            return tfx_value_unknown(ctx, &tfx_type_number);
        case TFX_TRI_FALSE:
            break;
        }
    }
    return tfx_fn_error(err, "item not found");
}

static const tfx_function fn_index = {.name = "index",
                                      .params = index_params,
                                      .nparams = TFX_COUNTOF(index_params),
                                      .varparam = NULL,
                                      .type = NULL,
                                      .ret_type = &tfx_type_number,
                                      .impl = index_impl};

/* ---- list, map ---- */

/* [fn.list] [fn.map] A variadic parameter of type dynamic accepting
 * nulls, unknowns and dynamic (not marks). */
static const tfx_param removed_vals = {
    .name = "vals", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
    .allow_dynamic = true};

static const char list_removed[] =
    "the \"list\" function was deprecated in Terraform v0.12 and is no longer available; use "
    "tolist([ ... ]) syntax to write a literal list";
static const char map_removed[] =
    "the \"map\" function was deprecated in Terraform v0.12 and is no longer available; use "
    "tomap({ ... }) syntax to write a literal map";

/* [fn.list.removed] [fn.map.removed] The type function always fails with
 * the plain error naming the replacement, whatever the arguments (none,
 * null, unknown, dynamic), so the implementation is never reached. */
static const tfx_type *removed_type(tfx_ctx *ctx, const tfx_function *fn,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(args);
    TFX_UNUSED(nargs);
    return tfx_fn_error(err, fn->name[0] == 'l' ? list_removed : map_removed);
}

/* Never called (removed_type fails first); fails the same way. */
static const tfx_value *removed_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    TFX_UNUSED(ret);
    removed_type(ctx, fn, args, nargs, err);
    return NULL;
}

static const tfx_function fn_list = {.name = "list",
                                     .params = NULL,
                                     .nparams = 0,
                                     .varparam = &removed_vals,
                                     .type = removed_type,
                                     .ret_type = NULL,
                                     .impl = removed_impl};

static const tfx_function fn_map = {.name = "map",
                                    .params = NULL,
                                    .nparams = 0,
                                    .varparam = &removed_vals,
                                    .type = removed_type,
                                    .ret_type = NULL,
                                    .impl = removed_impl};

/* ---- matchkeys ---- */

/* [fn.matchkeys] Three parameters of type list(dynamic), accepting
 * nothing special. */
static const tfx_param matchkeys_params[] = {
    {.name = "values", .type = &list_of_any},
    {.name = "keys", .type = &list_of_any},
    {.name = "searchset", .type = &list_of_any},
};

/* The unsafe unification of the types of keys and searchset, or NULL. */
static const tfx_type *matchkeys_key_type(tfx_ctx *ctx, const tfx_value *const *args)
{
    const tfx_type *types[2];
    bool all_unknown = false;

    types[0] = args[1]->type;
    types[1] = args[2]->type;
    return tfx_unify(ctx, types, 2, TFX_CONVERT_UNSAFE, &all_unknown);
}

/* [fn.matchkeys.type] keys and searchset must unify (unify.*), else the
 * plain error "keys and searchset must be of the same type"; the return
 * type is the type of values. */
static const tfx_type *matchkeys_type(tfx_ctx *ctx, const tfx_function *fn,
                                      const tfx_value *const *args, size_t nargs,
                                      tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (matchkeys_key_type(ctx, args) == NULL)
        return tfx_fn_error(err, "keys and searchset must be of the same type");
    return args[0]->type;
}

/* [fn.matchkeys.length] [fn.matchkeys.result] In this order: values and
 * keys of different lengths are the plain error "length of keys and
 * values should be equal"; keys and searchset are converted to their
 * unified type (cty's Convert); an empty searchset gives an empty list;
 * values or keys not wholly known give an unknown of the return type;
 * then, for each key in order, the first element of searchset equal to
 * it (cty's Equals) selects the value at the key's index.  A comparison
 * that is undecided (an unknown element of searchset) makes the whole
 * result an EMPTY list, as upstream returns. */
static const tfx_value *matchkeys_impl(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_type *ret, const tfx_value *const *args,
                                       size_t nargs, tfx_func_error *err)
{
    const tfx_value *values = args[0];
    const tfx_type *key_type = matchkeys_key_type(ctx, args);
    const tfx_value *keys;
    const tfx_value *searchset;
    const tfx_value **out;
    const char *why = NULL;
    size_t nkeys;
    size_t nsearch;
    size_t nout = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (tfx_value_length(values) != tfx_value_length(args[1]))
        return tfx_fn_error(err, "length of keys and values should be equal");
    if (key_type == NULL)
        return tfx_fn_error(err, "keys and searchset must be of the same type");
    keys = tfx_convert(ctx, args[1], key_type, TFX_CONVERT_UNSAFE, &why);
    searchset = tfx_convert(ctx, args[2], key_type, TFX_CONVERT_UNSAFE, &why);
    if (keys == NULL || searchset == NULL)
        return tfx_fn_error(err, why != NULL ? why : "keys and searchset must be of the same type");
    nsearch = tfx_value_is_known(searchset) ? tfx_value_length(searchset) : 0;
    if (nsearch == 0)
        return tfx_value_list(ctx, ret->elem, NULL, 0);
    if (!tfx_value_is_wholly_known(values) || !tfx_value_is_wholly_known(keys))
        return tfx_value_unknown(ctx, ret);
    nkeys = tfx_value_length(keys);
    out = tfx_ctx_alloc_array(ctx, nkeys > 0 ? nkeys : 1, sizeof(const tfx_value *));
    for (size_t i = 0; i < nkeys; i++) {
        const tfx_value *key = tfx_value_item(keys, i);

        for (size_t j = 0; j < nsearch; j++) {
            tfx_tri eq;

            tfx_ctx_step(ctx);
            eq = tfx_value_equals(ctx, key, tfx_value_item(searchset, j));
            if (eq == TFX_TRI_UNKNOWN)
                return tfx_value_list(ctx, ret->elem, NULL, 0);
            if (eq == TFX_TRI_TRUE) {
                out[nout++] = tfx_value_item(values, i);
                break;
            }
        }
    }
    return tfx_value_list(ctx, ret->elem, out, nout);
}

static const tfx_function fn_matchkeys = {.name = "matchkeys",
                                          .params = matchkeys_params,
                                          .nparams = TFX_COUNTOF(matchkeys_params),
                                          .varparam = NULL,
                                          .type = matchkeys_type,
                                          .ret_type = NULL,
                                          .impl = matchkeys_impl};

/* ---- one ---- */

/* [fn.one] One parameter of type dynamic, accepting nothing special. */
static const tfx_param one_params[] = {
    {.name = "list", .type = &tfx_type_dynamic},
};

static const char one_message[] =
    "must be a list, set, or tuple value with either zero or one elements";

/* [fn.one.type] A list or set gives its element type; a tuple of no
 * element dynamic, of one element that element's type; anything else
 * (a longer tuple, a map, an object, a primitive) is the argument error
 * one_message, raised by the type function, so even for an unknown
 * argument. */
static const tfx_type *one_type(tfx_ctx *ctx, const tfx_function *fn,
                                const tfx_value *const *args, size_t nargs,
                                tfx_func_error *err)
{
    const tfx_type *t = args[0]->type;

    TFX_UNUSED(ctx);
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (t->kind == TFX_TYPE_LIST || t->kind == TFX_TYPE_SET)
        return t->elem;
    if (t->kind == TFX_TYPE_TUPLE && t->n == 0)
        return &tfx_type_dynamic;
    if (t->kind == TFX_TYPE_TUPLE && t->n == 1)
        return t->elems[0];
    return tfx_fn_arg_error(err, 0, one_message);
}

/* [fn.one.result] No element: a null of the return type; one element:
 * that element; more: the argument error one_message.  A set whose
 * length is unknown (cty's Length: more than one element, some of them
 * not wholly known) gives an unknown of the return type. */
static const tfx_value *one_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs,
                                 tfx_func_error *err)
{
    const tfx_value *v = args[0];
    size_t n = tfx_value_length(v);

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (v->type->kind == TFX_TYPE_SET && n != 1 && !tfx_value_is_wholly_known(v))
        return tfx_value_unknown(ctx, ret);
    if (n == 0)
        return tfx_value_null(ctx, ret);
    if (n == 1)
        return tfx_value_item(v, 0);
    return tfx_fn_arg_error(err, 0, one_message);
}

static const tfx_function fn_one = {.name = "one",
                                    .params = one_params,
                                    .nparams = TFX_COUNTOF(one_params),
                                    .varparam = NULL,
                                    .type = one_type,
                                    .ret_type = NULL,
                                    .impl = one_impl};

/* ---- sum ---- */

/* [fn.sum] One parameter of type dynamic, accepting nothing special. */
static const tfx_param sum_params[] = {
    {.name = "list", .type = &tfx_type_dynamic},
};

static const char sum_elem_message[] = "argument must be list, set, or tuple of number values";

/* [fn.sum.kind] [fn.sum.empty] [fn.sum.map] [fn.sum.unknown]
 * [fn.sum.elements] [fn.sum.result] In this order: a primitive is the argument error
 * "cannot sum noniterable"; no element (a map or object included) the
 * argument error "cannot sum an empty list"; a map or object "argument
 * must be list, set, or tuple. Received <friendly name>"; a value not
 * wholly known gives an unknown number; then the elements in order, each
 * null or not convertible to number (cty's Convert) being the argument
 * error sum_elem_message, are added up exactly (tfx_num_add), +Inf plus
 * -Inf failing with the plain error of [num.inf-error] at the addition
 * that meets them. */
static const tfx_value *sum_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs,
                                 tfx_func_error *err)
{
    const tfx_value *coll = args[0];
    tfx_type_kind k = coll->type->kind;
    const tfx_num *total = NULL;
    size_t n;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!is_sequence_kind(k) && k != TFX_TYPE_MAP && k != TFX_TYPE_OBJECT)
        return tfx_fn_arg_error(err, 0, "cannot sum noniterable");
    n = tfx_value_length(coll);
    if (n == 0)
        return tfx_fn_arg_error(err, 0, "cannot sum an empty list");
    if (!is_sequence_kind(k))
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx, "argument must be list, set, or tuple. Received %s",
                           tfx_type_friendly(ctx, coll->type)));
    if (!tfx_value_is_wholly_known(coll))
        return tfx_value_unknown(ctx, &tfx_type_number);
    for (size_t i = 0; i < n; i++) {
        const tfx_value *v = tfx_value_item(coll, i);
        const char *why = NULL;

        tfx_ctx_step(ctx);
        if (tfx_value_is_null(v))
            return tfx_fn_arg_error(err, 0, sum_elem_message);
        v = tfx_convert(ctx, v, &tfx_type_number, TFX_CONVERT_UNSAFE, &why);
        if (v == NULL || !tfx_value_is_known(v))
            return tfx_fn_arg_error(err, 0, sum_elem_message);
        if (total == NULL) {
            total = v->as.number;
        } else {
            const tfx_num *next = NULL;
            tfx_num_err status = tfx_num_add(ctx->arena, total, v->as.number, &next);

            if (status == TFX_NUM_ERR_NOMEM)
                tfx_fn_nomem(ctx);
            if (status != TFX_NUM_OK)
                return tfx_fn_error(err, tfx_num_err_reason(status));
            total = next;
        }
    }
    return tfx_value_number(ctx, total);
}

static const tfx_function fn_sum = {.name = "sum",
                                    .params = sum_params,
                                    .nparams = TFX_COUNTOF(sum_params),
                                    .varparam = NULL,
                                    .type = NULL,
                                    .ret_type = &tfx_type_number,
                                    .impl = sum_impl};

/* ---- transpose ---- */

/* [fn.transpose] One parameter of type map(list(string)), accepting
 * nothing special. */
static const tfx_param transpose_params[] = {
    {.name = "values", .type = &map_of_list_of_string},
};

/* [fn.transpose.unknown] [fn.transpose.null] [fn.transpose.result] Not
 * wholly known: an unknown map(list(string)).  Otherwise the keys in
 * order, each list's strings in order: a null list is the plain error
 * "input must not contain null list", a null string "input list must not
 * contain null string"; each string s collects the key k of its list
 * into the result's list at s.  Keys come in byte order, so each result
 * list is in byte order (what upstream's sort gives), a key listed twice
 * under one string appearing twice. */
static const tfx_value *transpose_impl(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_type *ret, const tfx_value *const *args,
                                       size_t nargs, tfx_func_error *err)
{
    const tfx_value *in = args[0];
    size_t nkeys = tfx_value_length(in);
    size_t npairs = 0;
    size_t k = 0;
    tfx_str *outs;          /* the strings, one per pair */
    const tfx_value **ins;  /* the key of each pair, as a string value */
    size_t *order;
    tfx_str *rkeys;
    const tfx_value **rvals;
    size_t nresult = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!tfx_value_is_wholly_known(in))
        return tfx_value_unknown(ctx, ret);
    for (size_t i = 0; i < nkeys; i++) {
        const tfx_value *list = in->as.attrs.vals[i];

        tfx_ctx_step(ctx);
        if (tfx_value_is_null(list))
            return tfx_fn_error(err, "input must not contain null list");
        for (size_t j = 0; j < tfx_value_length(list); j++)
            if (tfx_value_is_null(tfx_value_item(list, j)))
                return tfx_fn_error(err, "input list must not contain null string");
        npairs += tfx_value_length(list);
    }
    if (npairs == 0)
        return tfx_value_map(ctx, &list_of_string, NULL, NULL, 0);
    tfx_ctx_check_items(ctx, npairs);
    outs = tfx_ctx_alloc_array(ctx, npairs, sizeof(tfx_str));
    ins = tfx_ctx_alloc_array(ctx, npairs, sizeof(const tfx_value *));
    for (size_t i = 0; i < nkeys; i++) {
        const tfx_value *list = in->as.attrs.vals[i];
        const tfx_str key = in->as.attrs.keys[i];
        const tfx_value *keyv = tfx_value_string_raw(ctx, key.s, key.nbytes);

        for (size_t j = 0; j < tfx_value_length(list); j++) {
            tfx_ctx_step(ctx);
            outs[k] = tfx_value_item(list, j)->as.string;
            ins[k++] = keyv;
        }
    }
    order = tfx_ctx_alloc_array(ctx, npairs, sizeof(size_t));
    tfx_str_sort_order(ctx, outs, order, npairs);
    rkeys = tfx_ctx_alloc_array(ctx, npairs, sizeof(tfx_str));
    rvals = tfx_ctx_alloc_array(ctx, npairs, sizeof(const tfx_value *));
    for (size_t start = 0; start < npairs;) {
        size_t end = start + 1;
        const tfx_value **group;

        while (end < npairs && tfx_str_cmp(outs[order[end]], outs[order[start]]) == 0)
            end++;
        group = tfx_ctx_alloc_array(ctx, end - start, sizeof(const tfx_value *));
        for (size_t g = start; g < end; g++)
            group[g - start] = ins[order[g]];
        rkeys[nresult] = outs[order[start]];
        rvals[nresult++] = tfx_value_list(ctx, &tfx_type_str, group, end - start);
        start = end;
    }
    return tfx_value_map(ctx, &list_of_string, rkeys, rvals, nresult);
}

static const tfx_function fn_transpose = {.name = "transpose",
                                          .params = transpose_params,
                                          .nparams = TFX_COUNTOF(transpose_params),
                                          .varparam = NULL,
                                          .type = NULL,
                                          .ret_type = &map_of_list_of_string,
                                          .impl = transpose_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_collection[] = {
    {"alltrue", &fn_alltrue},
    {"anytrue", &fn_anytrue},
    {"chunklist", &fn_chunklist},
    {"coalesce", &tfx_fn_coalesce},
    {"coalescelist", &fn_coalescelist},
    {"compact", &fn_compact},
    {"concat", &fn_concat},
    {"contains", &fn_contains},
    {"distinct", &fn_distinct},
    {"element", &fn_element},
    {"flatten", &fn_flatten},
    {"index", &fn_index},
    {"length", &tfx_fn_length},
    {"list", &fn_list},
    {"map", &fn_map},
    {"matchkeys", &fn_matchkeys},
    {"one", &fn_one},
    {"range", &fn_range},
    {"reverse", &fn_reverse},
    {"slice", &fn_slice},
    {"sort", &fn_sort},
    {"sum", &fn_sum},
    {"transpose", &fn_transpose},
    {NULL, NULL},
};
