/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_maps_sets.c — functions on maps, objects and sets: keys, values,
 * lookup (Terraform's), merge, zipmap, setintersection, setproduct,
 * setsubtract, setunion.  cty 1.12.1's stdlib functions, which Terraform
 * registers as they are, except lookup (spec/functions-maps-sets.md).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "convert.h"
#include "funcs_internal.h"

/* ---- Small helpers ---- */

/* An array of n pointers in the arena (n may be 0). */
static void *alloc_ptrs(tfx_ctx *ctx, size_t n)
{
    return tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof(void *));
}

/* The tuple type of n strings (the empty tuple for n = 0). */
static const tfx_type *string_tuple_type(tfx_ctx *ctx, size_t n)
{
    const tfx_type **types = alloc_ptrs(ctx, n);
    size_t i;

    for (i = 0; i < n; i++)
        types[i] = &tfx_type_str;
    return tfx_type_tuple(ctx, types, n);
}

/* cty's Value.Length of an unmarked list, set or tuple: whether it is
 * known.  Tuples always are; an unknown collection is not; a set whose
 * elements are not all wholly known is not, unless it holds one element. */
static bool length_known(const tfx_value *v)
{
    if (v->type->kind == TFX_TYPE_TUPLE)
        return true;
    if (tfx_value_is_unknown(v))
        return false;
    if (v->type->kind == TFX_TYPE_SET)
        return tfx_value_length(v) == 1 || tfx_value_is_wholly_known(v);
    return true;
}

/* The message of a Go panic that cty's Function.Call turns into an
 * error (the stack trace that follows upstream's is left out). */
static const void *panic_error(tfx_ctx *ctx, tfx_func_error *err, const char *what)
{
    return tfx_fn_error(err, tfx_ctx_printf(ctx, "panic in function implementation: %s", what));
}

/* ---- keys ---- */

/* [fn.keys] Unknown values and marks reach the implementation. */
static const tfx_param keys_params[] = {
    {.name = "inputMap", .type = &tfx_type_dynamic, .allow_unknown = true,
     .allow_marked = true},
};

/* [fn.keys.type] A map gives list(string), an object a tuple of as many
 * strings as it has attributes; anything else is the argument error
 * "must have map or object type". */
static const tfx_type *keys_type(tfx_ctx *ctx, const tfx_function *fn,
                                 const tfx_value *const *args, size_t nargs,
                                 tfx_func_error *err)
{
    const tfx_type *t = args[0]->type;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (t->kind == TFX_TYPE_MAP)
        return tfx_type_list(ctx, &tfx_type_str);
    if (t->kind == TFX_TYPE_OBJECT)
        return string_tuple_type(ctx, t->n);
    return tfx_fn_arg_error(err, 0, "must have map or object type");
}

/* [fn.keys.result] The keys in byte order, with the argument's own
 * (top-level) marks: an object's from its type (known even when the
 * object is unknown), a map's from its value (an unknown map, or an
 * argument of type dynamic, gives an unknown of the return type). */
static const tfx_value *keys_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *m = tfx_value_unmark(ctx, args[0], &marks);
    const tfx_value **keys;
    const tfx_value *result;
    size_t i, n;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (m->type->kind == TFX_TYPE_OBJECT) {
        n = m->type->n;
        keys = alloc_ptrs(ctx, n);
        for (i = 0; i < n; i++) {
            tfx_ctx_step(ctx);
            keys[i] = tfx_value_string_raw(ctx, m->type->names[i].s, m->type->names[i].nbytes);
        }
        return tfx_value_mark(ctx, tfx_value_tuple(ctx, keys, n), marks);
    }
    if (!tfx_value_is_known(m))
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, ret), marks);
    n = tfx_value_length(m);
    keys = alloc_ptrs(ctx, n);
    for (i = 0; i < n; i++) {
        tfx_ctx_step(ctx);
        keys[i] = tfx_value_string_raw(ctx, m->as.attrs.keys[i].s, m->as.attrs.keys[i].nbytes);
    }
    result = tfx_value_list(ctx, &tfx_type_str, keys, n);
    return tfx_value_mark(ctx, result, marks);
}

static const tfx_function fn_keys = {.name = "keys",
                                     .params = keys_params,
                                     .nparams = TFX_COUNTOF(keys_params),
                                     .varparam = NULL,
                                     .type = keys_type,
                                     .ret_type = NULL,
                                     .impl = keys_impl};

/* ---- values ---- */

/* [fn.values] Marks reach the implementation; unknowns do not. */
static const tfx_param values_params[] = {
    {.name = "mapping", .type = &tfx_type_dynamic, .allow_marked = true},
};

/* [fn.values.type] A map gives a list of its element type, an object a
 * tuple of its attribute types in name order; anything else is the plain
 * error "values() requires a map as the first argument". */
static const tfx_type *values_type(tfx_ctx *ctx, const tfx_function *fn,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    const tfx_type *t = args[0]->type;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (t->kind == TFX_TYPE_MAP)
        return tfx_type_list(ctx, t->elem);
    if (t->kind == TFX_TYPE_OBJECT)
        return tfx_type_tuple(ctx, t->elems, t->n);
    return tfx_fn_error(err, "values() requires a map as the first argument");
}

/* [fn.values.result] The elements in key order, each as it is (its own
 * marks kept), with the argument's top-level marks on the result. */
static const tfx_value *values_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *m = tfx_value_unmark(ctx, args[0], &marks);
    size_t n = tfx_value_length(m);
    const tfx_value *result;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    tfx_ctx_step(ctx);
    if (ret->kind == TFX_TYPE_TUPLE)
        result = tfx_value_tuple(ctx, m->as.attrs.vals, n);
    else
        result = tfx_value_list(ctx, ret->elem, m->as.attrs.vals, n);
    return tfx_value_mark(ctx, result, marks);
}

static const tfx_function fn_values = {.name = "values",
                                       .params = values_params,
                                       .nparams = TFX_COUNTOF(values_params),
                                       .varparam = NULL,
                                       .type = values_type,
                                       .ret_type = NULL,
                                       .impl = values_impl};

/* ---- lookup (Terraform's) ---- */

/* [fn.lookup] Terraform's LookupFunc: the map and the key accept unknowns
 * and marks; the default is a variadic parameter accepting everything. */
static const tfx_param lookup_params[] = {
    {.name = "inputMap", .type = &tfx_type_dynamic, .allow_unknown = true,
     .allow_marked = true},
    {.name = "key", .type = &tfx_type_str, .allow_unknown = true, .allow_marked = true},
};
static const tfx_param lookup_default = {
    .name = "default", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
    .allow_dynamic = true, .allow_marked = true};

/* [fn.lookup.arity] more than three arguments is a plain error;
 * [fn.lookup.type] then by the map's type: an object gives the
 * attribute's type (dynamic for an unknown key, the default's type for a
 * missing attribute, else an argument error), a map its element type (the
 * default must convert to it). */
static const tfx_type *lookup_type(tfx_ctx *ctx, const tfx_function *fn,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    const tfx_type *t = args[0]->type;

    TFX_UNUSED(fn);
    if (nargs < 1 || nargs > 3)
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "lookup() takes two or three arguments, got %zu",
                                                nargs));
    if (t->kind == TFX_TYPE_OBJECT) {
        const tfx_value *key;
        long idx;

        if (tfx_value_is_unknown(args[1]))
            return &tfx_type_dynamic;
        key = tfx_value_unmark(ctx, args[1], NULL);
        idx = tfx_type_attr_index(t, key->as.string.s, key->as.string.nbytes);
        if (idx >= 0)
            return t->elems[idx];
        if (nargs == 3)
            return args[2]->type;
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx, "the given object has no attribute %s",
                           tfx_textbuf_quoted(ctx, key->as.string.s, key->as.string.nbytes)));
    }
    if (t->kind == TFX_TYPE_MAP) {
        if (nargs == 3) {
            const char *why = NULL;

            if (tfx_convert(ctx, args[2], t->elem, TFX_CONVERT_UNSAFE, &why) == NULL)
                return tfx_fn_arg_error(
                    err, 2, "the default value must have the same type as the map elements");
        }
        return t->elem;
    }
    return tfx_fn_arg_error(err, 0, "lookup() requires a map as the first argument");
}

/* [fn.lookup.result] The marks of the map and the key go onto the
 * result; an unknown map or key gives an unknown; a present element is
 * returned as it is; else the default converted to the return type; else
 * [fn.lookup.missing] (the key redacted when it is sensitive). */
static const tfx_value *lookup_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_marks *map_marks = NULL, *key_marks = NULL, *marks;
    const tfx_value *m = tfx_value_unmark(ctx, args[0], &map_marks);
    const tfx_value *key = tfx_value_unmark(ctx, args[1], &key_marks);
    const tfx_value *found = NULL;
    tfx_textbuf b;

    TFX_UNUSED(fn);
    marks = tfx_marks_union(ctx, map_marks, key_marks);
    if (tfx_value_is_unknown(m) || tfx_value_is_unknown(key))
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, ret), marks);
    if (tfx_value_is_null(key))
        return panic_error(ctx, err, "value is null");
    if (m->type->kind == TFX_TYPE_OBJECT || m->type->kind == TFX_TYPE_MAP)
        found = tfx_value_lookup(m, key->as.string.s, key->as.string.nbytes);
    if (found != NULL)
        return tfx_value_mark(ctx, found, marks);
    if (nargs == 3) {
        const char *why = NULL;
        const tfx_value *d = tfx_convert(ctx, args[2], ret, TFX_CONVERT_UNSAFE, &why);

        if (d == NULL)
            return tfx_fn_error(err, why);
        return tfx_value_mark(ctx, d, marks);
    }
    tfx_textbuf_init(&b, ctx);
    tfx_textbuf_puts(&b, "lookup failed to find key ");
    if (tfx_marks_has(key_marks, "sensitive"))
        tfx_textbuf_puts(&b, "(sensitive value)");
    else
        tfx_textbuf_quote(&b, key->as.string.s, key->as.string.nbytes);
    return tfx_fn_error(err, tfx_textbuf_text(&b));
}

static const tfx_function fn_lookup = {.name = "lookup",
                                       .params = lookup_params,
                                       .nparams = TFX_COUNTOF(lookup_params),
                                       .varparam = &lookup_default,
                                       .type = lookup_type,
                                       .ret_type = NULL,
                                       .impl = lookup_impl};

/* ---- merge ---- */

/* [fn.merge] Null, dynamic and marked arguments reach the
 * implementation; unknown ones do not. */
static const tfx_param merge_maps = {
    .name = "maps", .type = &tfx_type_dynamic, .allow_null = true, .allow_dynamic = true,
    .allow_marked = true};

/* [fn.merge.type] The empty object for no arguments; dynamic at the
 * first argument of type dynamic; a plain error for one that is neither a
 * map nor an object; the first argument's type when all types are equal;
 * dynamic when a map is unknown; else the object of all attributes and
 * known map keys, later ones winning, null arguments contributing
 * nothing.  (A result that does not conform, [fn.merge.conformance], is
 * caught by the machinery.) */
/* [fn.merge.type.pn] An argument's type as merge compares them: in
 * profile PN (cty 1.18.1) a null object counts as the empty object. */
static const tfx_type *merge_arg_type(tfx_ctx *ctx, const tfx_value *a)
{
    if (ctx->pn && a->type->kind == TFX_TYPE_OBJECT && tfx_value_is_null(a))
        return tfx_type_object(ctx, alloc_ptrs(ctx, 0), alloc_ptrs(ctx, 0), 0);
    return a->type;
}

static const tfx_type *merge_type(tfx_ctx *ctx, const tfx_function *fn,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    tfx_str *names;
    const tfx_type **types;
    size_t nattrs = 0, cap = 0, i, j;
    bool matching = true, attrs_known = true;

    TFX_UNUSED(fn);
    if (nargs == 0)
        return tfx_type_object(ctx, alloc_ptrs(ctx, 0), alloc_ptrs(ctx, 0), 0);
    for (i = 0; i < nargs; i++) {
        const tfx_type *t = args[i]->type;

        if (t->kind == TFX_TYPE_DYNAMIC)
            return &tfx_type_dynamic;
        if (t->kind != TFX_TYPE_MAP && t->kind != TFX_TYPE_OBJECT)
            return tfx_fn_error(
                err, tfx_ctx_printf(ctx, "arguments must be maps or objects, got %s",
                                    tfx_textbuf_quoted(ctx, tfx_type_friendly(ctx, t),
                                                       strlen(tfx_type_friendly(ctx, t)))));
        if (t->kind == TFX_TYPE_OBJECT && !tfx_value_is_null(args[i]))
            cap += t->n;
        else if (t->kind == TFX_TYPE_MAP && tfx_value_is_known(args[i]))
            cap += tfx_value_length(args[i]);
        else if (t->kind == TFX_TYPE_MAP && tfx_value_is_unknown(args[i]))
            attrs_known = false;
        if (i > 0 && !tfx_type_equal(merge_arg_type(ctx, args[i]), merge_arg_type(ctx, args[0])))
            matching = false;
    }
    if (matching)
        return merge_arg_type(ctx, args[0]);
    if (!attrs_known)
        return &tfx_type_dynamic;
    tfx_ctx_check_items(ctx, cap);
    names = tfx_ctx_alloc_array(ctx, cap > 0 ? cap : 1, sizeof *names);
    types = alloc_ptrs(ctx, cap);
    for (i = 0; i < nargs; i++) {
        const tfx_value *a = args[i];
        const tfx_type *t = a->type;

        if (t->kind == TFX_TYPE_OBJECT && !tfx_value_is_null(a)) {
            for (j = 0; j < t->n; j++) {
                tfx_ctx_step(ctx);
                names[nattrs] = t->names[j];
                types[nattrs++] = t->elems[j];
            }
        } else if (t->kind == TFX_TYPE_MAP && tfx_value_is_known(a)) {
            for (j = 0; j < a->as.attrs.n; j++) {
                tfx_ctx_step(ctx);
                names[nattrs] = a->as.attrs.keys[j];
                types[nattrs++] = t->elem;
            }
        }
    }
    /* a later duplicate name replaces an earlier one */
    return tfx_type_object(ctx, names, types, nattrs);
}

/* [fn.merge.result] Null arguments skipped (their marks too); the others'
 * top-level marks on the result; elements added in order, later keys
 * winning; a map when the return type is one, else an object. */
static const tfx_value *merge_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    tfx_str *keys;
    const tfx_value **vals;
    const tfx_value *result;
    size_t cap = 0, n = 0, i, j;

    TFX_UNUSED(fn);
    TFX_UNUSED(err);
    for (i = 0; i < nargs; i++)
        if (tfx_value_is_known(args[i]))
            cap += tfx_value_length(args[i]);
    tfx_ctx_check_items(ctx, cap);
    keys = tfx_ctx_alloc_array(ctx, cap > 0 ? cap : 1, sizeof *keys);
    vals = alloc_ptrs(ctx, cap);
    for (i = 0; i < nargs; i++) {
        const tfx_marks *m = NULL;
        const tfx_value *a;

        if (tfx_value_is_null(args[i]))
            continue; /* its marks are dropped with it */
        a = tfx_value_unmark(ctx, args[i], &m);
        marks = tfx_marks_union(ctx, marks, m);
        for (j = 0; j < a->as.attrs.n; j++) {
            tfx_ctx_step(ctx);
            keys[n] = a->as.attrs.keys[j];
            vals[n++] = a->as.attrs.vals[j];
        }
    }
    if (ret->kind == TFX_TYPE_MAP)
        result = tfx_value_map(ctx, ret->elem, keys, vals, n);
    else
        result = tfx_value_object(ctx, keys, vals, n);
    return tfx_value_mark(ctx, result, marks);
}

static const tfx_function fn_merge = {.name = "merge",
                                      .params = NULL,
                                      .nparams = 0,
                                      .varparam = &merge_maps,
                                      .type = merge_type,
                                      .ret_type = NULL,
                                      .impl = merge_impl};

/* ---- zipmap ---- */

/* [fn.zipmap] Both parameters accept marks, neither unknowns nor nulls. */
static const tfx_type list_of_string = {.kind = TFX_TYPE_LIST, .elem = &tfx_type_str};

static const tfx_param zipmap_params[] = {
    {.name = "keys", .type = &list_of_string, .allow_marked = true},
    {.name = "values", .type = &tfx_type_dynamic, .allow_marked = true},
};

/* [fn.zipmap.type] A list of values gives a map; a tuple an object type
 * (dynamic when the keys are not wholly known), with plain errors for
 * differing lengths and null keys; anything else is a plain error. */
static const tfx_type *zipmap_type(tfx_ctx *ctx, const tfx_function *fn,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    const tfx_value *keys = args[0];
    const tfx_type *vt = args[1]->type;
    tfx_str *names;
    size_t n, i;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (vt->kind == TFX_TYPE_LIST)
        return tfx_type_map(ctx, vt->elem);
    if (vt->kind != TFX_TYPE_TUPLE)
        return tfx_fn_error(err, "values argument must be a list or tuple value");
    if (!tfx_value_is_wholly_known(keys))
        return &tfx_type_dynamic;
    keys = tfx_value_unmark(ctx, keys, NULL);
    n = tfx_value_length(keys);
    if (n != vt->n)
        return tfx_fn_error(
            err, tfx_ctx_printf(ctx, "number of keys (%zu) does not match number of values (%zu)",
                                n, vt->n));
    names = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof *names);
    for (i = 0; i < n; i++) {
        const tfx_value *k = tfx_value_item(keys, i);

        tfx_ctx_step(ctx);
        if (tfx_value_is_null(k))
            return tfx_fn_error(err,
                                tfx_ctx_printf(ctx, "keys list has null value at index %zu", i));
        names[i] = k->as.string;
    }
    /* a later duplicate key replaces an earlier one */
    return tfx_type_object(ctx, names, vt->elems, n);
}

/* [fn.zipmap.result] Marks of the keys list, of each key and of the
 * values list on the result; unknown if the keys are not wholly known;
 * key i to element i, later duplicates winning. */
static const tfx_value *zipmap_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_marks *marks = NULL, *vmarks = NULL;
    const tfx_value *keys = tfx_value_unmark(ctx, args[0], &marks);
    const tfx_value *values = tfx_value_unmark(ctx, args[1], &vmarks);
    tfx_str *names;
    const tfx_value *result;
    size_t n, i;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    marks = tfx_marks_union(ctx, marks, vmarks);
    if (!tfx_value_is_wholly_known(keys))
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, ret), marks);
    n = tfx_value_length(keys);
    if (n != tfx_value_length(values))
        return tfx_fn_error(
            err, tfx_ctx_printf(ctx, "number of keys (%zu) does not match number of values (%zu)",
                                n, tfx_value_length(values)));
    names = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof *names);
    for (i = 0; i < n; i++) {
        const tfx_marks *km = NULL;
        const tfx_value *k = tfx_value_unmark(ctx, tfx_value_item(keys, i), &km);

        tfx_ctx_step(ctx);
        marks = tfx_marks_union(ctx, marks, km);
        if (tfx_value_is_null(k))
            return panic_error(ctx, err, "value is null");
        names[i] = k->as.string;
    }
    if (ret->kind == TFX_TYPE_MAP)
        result = tfx_value_map(ctx, ret->elem, names, values->as.elems.items, n);
    else
        result = tfx_value_object(ctx, names, values->as.elems.items, n);
    return tfx_value_mark(ctx, result, marks);
}

static const tfx_function fn_zipmap = {.name = "zipmap",
                                       .params = zipmap_params,
                                       .nparams = TFX_COUNTOF(zipmap_params),
                                       .varparam = NULL,
                                       .type = zipmap_type,
                                       .ret_type = NULL,
                                       .impl = zipmap_impl};

/* ---- setunion, setintersection, setsubtract ---- */

/* [fn.setunion] Sets of any element type; arguments of type dynamic
 * reach the type rule, unknown, null and marked ones do not. */
static const tfx_type set_of_any = {.kind = TFX_TYPE_SET, .elem = &tfx_type_dynamic};

static const tfx_param set_first[] = {
    {.name = "first_set", .type = &set_of_any, .allow_dynamic = true},
};
static const tfx_param set_others = {.name = "other_sets", .type = &set_of_any,
                                     .allow_dynamic = true};
static const tfx_param setsubtract_params[] = {
    {.name = "a", .type = &set_of_any, .allow_dynamic = true},
    {.name = "b", .type = &set_of_any, .allow_dynamic = true},
};

/* [fn.setunion.type] The set of the unsafe unification of the element
 * types, leaving out known empty sets of element type dynamic; when all
 * are left out, set(dynamic); no unification is the plain error "given
 * sets must all have compatible element types". */
static const tfx_type *set_op_type(tfx_ctx *ctx, const tfx_function *fn,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    const tfx_type **etys = alloc_ptrs(ctx, nargs);
    const tfx_type *unified;
    bool all_unknown = false;
    size_t n = 0, i;

    TFX_UNUSED(fn);
    for (i = 0; i < nargs; i++) {
        const tfx_value *a = args[i];
        const tfx_type *ety =
            a->type->kind == TFX_TYPE_SET ? a->type->elem : &tfx_type_dynamic;

        if (tfx_value_is_known(a) && tfx_value_length(a) == 0 &&
            ety->kind == TFX_TYPE_DYNAMIC)
            continue;
        etys[n++] = ety;
    }
    if (n == 0)
        return tfx_type_set(ctx, &tfx_type_dynamic);
    unified = tfx_unify(ctx, etys, n, TFX_CONVERT_UNSAFE, &all_unknown);
    if (unified == NULL)
        return tfx_fn_error(err, "given sets must all have compatible element types");
    return tfx_type_set(ctx, unified);
}

typedef enum { SET_UNION, SET_INTERSECTION, SET_SUBTRACT } set_op;

/* Whether set s holds an element that is the same as v (cty's
 * ValueSet.Has).  The elements of s are sorted by tfx_value_set_cmp
 * ([set.order]) and the same elements compare equal under it, so a binary
 * search finds the run of elements that order does not tell from v. */
static bool set_has(tfx_ctx *ctx, const tfx_value *s, const tfx_value *v)
{
    size_t lo = 0, hi = tfx_value_length(s), i;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        tfx_ctx_step(ctx);
        if (tfx_value_set_cmp(ctx, tfx_value_item(s, mid), v) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (i = lo; i < tfx_value_length(s); i++) {
        const tfx_value *e = tfx_value_item(s, i);

        tfx_ctx_step(ctx);
        if (tfx_value_set_cmp(ctx, e, v) != 0)
            break;
        if (tfx_value_set_same(ctx, e, v))
            return true;
    }
    return false;
}

/* One step of a set operation on two known sets of the same type:
 * cty's ValueSet.Union (the elements of a, then those of b, added to a
 * new set), Intersection (those of a that b has) or Subtract (those of a
 * that b does not have), a's elements in a's order. */
static const tfx_value *set_combine(tfx_ctx *ctx, set_op op, const tfx_type *ety,
                                    const tfx_value *a, const tfx_value *b)
{
    size_t na = tfx_value_length(a), nb = tfx_value_length(b), n = 0, i;
    const tfx_value **items;

    if (op == SET_UNION)
        tfx_ctx_check_items(ctx, na + nb);
    items = alloc_ptrs(ctx, op == SET_UNION ? na + nb : na);
    for (i = 0; i < na; i++) {
        const tfx_value *v = tfx_value_item(a, i);

        tfx_ctx_step(ctx);
        if (op == SET_UNION || set_has(ctx, b, v) == (op == SET_INTERSECTION))
            items[n++] = v;
    }
    if (op == SET_UNION)
        for (i = 0; i < nb; i++)
            items[n++] = tfx_value_item(b, i);
    return tfx_value_set(ctx, ety, items, n);
}

/* [fn.setunion.result] cty's setOperationImpl: each argument in turn is
 * converted to the return type (a failure is an argument error of that
 * argument) and combined with the result so far; for intersection and
 * subtraction, an argument that is not wholly known makes the result an
 * unknown of the return type. */
static const tfx_value *set_op_impl(tfx_ctx *ctx, set_op op, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_value *acc = NULL;
    size_t i;

    for (i = 0; i < nargs; i++) {
        const char *why = NULL;
        const tfx_value *s = tfx_convert(ctx, args[i], ret, TFX_CONVERT_UNSAFE, &why);

        if (s == NULL)
            return tfx_fn_arg_error(err, (long)i, why);
        if (op != SET_UNION && !tfx_value_is_wholly_known(s))
            return tfx_value_unknown(ctx, ret);
        acc = i == 0 ? s : set_combine(ctx, op, ret->elem, acc, s);
    }
    if (acc == NULL) /* no arguments: the parameters forbid it */
        return tfx_value_set(ctx, ret->elem, (const tfx_value *const *)alloc_ptrs(ctx, 0), 0);
    return acc;
}

/* [fn.setunion.result] */
static const tfx_value *setunion_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                      const tfx_value *const *args, size_t nargs,
                                      tfx_func_error *err)
{
    TFX_UNUSED(fn);
    return set_op_impl(ctx, SET_UNION, ret, args, nargs, err);
}

/* [fn.setintersection.result] [fn.setintersection] */
static const tfx_value *setintersection_impl(tfx_ctx *ctx, const tfx_function *fn,
                                             const tfx_type *ret, const tfx_value *const *args,
                                             size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    return set_op_impl(ctx, SET_INTERSECTION, ret, args, nargs, err);
}

/* [fn.setsubtract.result] [fn.setsubtract] */
static const tfx_value *setsubtract_impl(tfx_ctx *ctx, const tfx_function *fn,
                                         const tfx_type *ret, const tfx_value *const *args,
                                         size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    return set_op_impl(ctx, SET_SUBTRACT, ret, args, nargs, err);
}

static const tfx_function fn_setunion = {.name = "setunion",
                                         .params = set_first,
                                         .nparams = TFX_COUNTOF(set_first),
                                         .varparam = &set_others,
                                         .type = set_op_type,
                                         .ret_type = NULL,
                                         .impl = setunion_impl};

static const tfx_function fn_setintersection = {.name = "setintersection",
                                                .params = set_first,
                                                .nparams = TFX_COUNTOF(set_first),
                                                .varparam = &set_others,
                                                .type = set_op_type,
                                                .ret_type = NULL,
                                                .impl = setintersection_impl};

static const tfx_function fn_setsubtract = {.name = "setsubtract",
                                            .params = setsubtract_params,
                                            .nparams = TFX_COUNTOF(setsubtract_params),
                                            .varparam = NULL,
                                            .type = set_op_type,
                                            .ret_type = NULL,
                                            .impl = setsubtract_impl};

/* ---- setproduct ---- */

/* [fn.setproduct] Marks reach the implementation; unknowns, nulls and
 * values of type dynamic do not; in PN, unknowns do ([fn.setproduct.pn]). */
static const tfx_param setproduct_sets = {.name = "sets", .type = &tfx_type_dynamic,
                                          .allow_marked = true, .allow_unknown_pn = true};

/* [fn.setproduct.type] At least two arguments; each a set, list or
 * tuple (whose element types must unify); a list of tuples when all are
 * lists or tuples, else a set of tuples. */
static const tfx_type *setproduct_type(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_value *const *args, size_t nargs,
                                       tfx_func_error *err)
{
    const tfx_type **etys;
    size_t lists = 0, i;

    TFX_UNUSED(fn);
    if (nargs < 2)
        return tfx_fn_error(err, "at least two arguments are required");
    etys = alloc_ptrs(ctx, nargs);
    for (i = 0; i < nargs; i++) {
        const tfx_type *t = args[i]->type;

        switch (t->kind) {
        case TFX_TYPE_SET:
            etys[i] = t->elem;
            break;
        case TFX_TYPE_LIST:
            etys[i] = t->elem;
            lists++;
            break;
        case TFX_TYPE_TUPLE:
            if (t->n == 0) {
                etys[i] = &tfx_type_dynamic;
            } else {
                bool all_unknown = false;

                etys[i] = tfx_unify(ctx, t->elems, t->n, TFX_CONVERT_UNSAFE, &all_unknown);
                if (etys[i] == NULL)
                    return tfx_fn_arg_error(err, (long)i, "all elements must be of the same type");
            }
            lists++;
            break;
        case TFX_TYPE_DYNAMIC:
        case TFX_TYPE_BOOL:
        case TFX_TYPE_NUMBER:
        case TFX_TYPE_STRING:
        case TFX_TYPE_MAP:
        case TFX_TYPE_OBJECT:
        case TFX_TYPE_CAPSULE: /* [type.capsule] */
            return tfx_fn_arg_error(err, (long)i, "a set or a list is required");
        }
    }
    if (lists == nargs)
        return tfx_type_list(ctx, tfx_type_tuple(ctx, etys, nargs));
    return tfx_type_set(ctx, tfx_type_tuple(ctx, etys, nargs));
}

/* [fn.setproduct.result] Top-level marks of all arguments on the result;
 * unknown when a length is unknown; empty when an argument is empty;
 * otherwise every combination, the last argument varying fastest, each
 * element converted to its position's type. */
static const tfx_value *setproduct_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_type *ety = ret->elem;
    const tfx_marks *marks = NULL;
    const tfx_value **sets = alloc_ptrs(ctx, nargs);
    size_t *pos, total = 1, i, k;
    const tfx_value **product;
    bool unknown_length = false, empty = false;

    TFX_UNUSED(fn);
    for (i = 0; i < nargs; i++) {
        const tfx_marks *m = NULL;

        sets[i] = tfx_value_unmark(ctx, args[i], &m);
        marks = tfx_marks_union(ctx, marks, m);
        if (tfx_value_is_unknown(sets[i]) || !length_known(sets[i]))
            unknown_length = true;
        else if (tfx_value_length(sets[i]) == 0)
            empty = true;
    }
    if (unknown_length)
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, ret), marks);
    if (empty) {
        const tfx_value *const *none = alloc_ptrs(ctx, 0);

        if (ret->kind == TFX_TYPE_LIST)
            return tfx_value_mark(ctx, tfx_value_list(ctx, ety, none, 0), marks);
        return tfx_value_mark(ctx, tfx_value_set(ctx, ety, none, 0), marks);
    }
    for (i = 0; i < nargs; i++) {
        size_t len = tfx_value_length(sets[i]);

        if (total > SIZE_MAX / len)
            total = SIZE_MAX;
        else
            total *= len;
        tfx_ctx_check_items(ctx, total);
    }
    pos = tfx_ctx_alloc_array(ctx, nargs, sizeof *pos);
    product = alloc_ptrs(ctx, total);
    for (k = 0; k < total; k++) {
        const tfx_value **row = alloc_ptrs(ctx, nargs);

        for (i = 0; i < nargs; i++) {
            const tfx_value *v = tfx_value_item(sets[i], pos[i]);
            const tfx_type *want = ety->elems[i];

            tfx_ctx_step(ctx);
            if (!tfx_type_equal(v->type, want)) {
                const char *why = NULL;

                v = tfx_convert(ctx, v, want, TFX_CONVERT_UNSAFE, &why);
                if (v == NULL)
                    return tfx_fn_error(
                        err, tfx_ctx_printf(ctx,
                                            "failed to convert argVals[%zu][%zu] to %s; this is "
                                            "a bug in cty",
                                            i, pos[i], tfx_type_friendly(ctx, want)));
            }
            row[i] = v;
        }
        product[k] = tfx_value_tuple(ctx, row, nargs);
        if (!tfx_type_equal(product[k]->type, ety))
            return panic_error(ctx, err, "inconsistent list element types");
        for (i = nargs; i > 0; i--) {
            if (++pos[i - 1] < tfx_value_length(sets[i - 1]))
                break;
            pos[i - 1] = 0;
        }
    }
    if (ret->kind == TFX_TYPE_LIST)
        return tfx_value_mark(ctx, tfx_value_list(ctx, ety, product, total), marks);
    return tfx_value_mark(ctx, tfx_value_set(ctx, ety, product, total), marks);
}

static const tfx_function fn_setproduct = {.name = "setproduct",
                                           .params = NULL,
                                           .nparams = 0,
                                           .varparam = &setproduct_sets,
                                           .type = setproduct_type,
                                           .ret_type = NULL,
                                           .impl = setproduct_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_maps_sets[] = {
    {"keys", &fn_keys},
    {"lookup", &fn_lookup},
    {"merge", &fn_merge},
    {"setintersection", &fn_setintersection},
    {"setproduct", &fn_setproduct},
    {"setsubtract", &fn_setsubtract},
    {"setunion", &fn_setunion},
    {"values", &fn_values},
    {"zipmap", &fn_zipmap},
    {NULL, NULL},
};
