/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_assume.c — OpenTofu's assume* functions (spec/functions-opentofu.md,
 * rules fn.assume.*): assumeequal, assumenotnull, assumestringprefix and
 * assume{list,set,map}length{,min,max}.  They exist only in OpenTofu's
 * table under profile PN [fn.assume.profile]: they work by refining
 * unknown values (refine.h), which the cty 1.12.1 of profile P14 cannot.
 *
 * Each but assumeequal is cty's RefinementBuilder applied to its first
 * argument; the builder's checks, where cty panics and OpenTofu turns the
 * panic into "assumption was not upheld", are written out here as tests
 * that fail the call [fn.assume.upheld], and the refinement itself is
 * tfx_value_refine's [refine.build] [refine.collapse].
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "convert.h"
#include "funcs_internal.h"
#include "refine.h"

static const char not_upheld[] = "assumption was not upheld";

/* ---- assumeequal ---- */

/* [fn.assumeequal] Both parameters take anything, marks included. */
static const tfx_param assumeequal_params[] = {
    {.name = "actual_value", .type = &tfx_type_dynamic, .allow_null = true,
     .allow_unknown = true, .allow_dynamic = true, .allow_marked = true},
    {.name = "expected_value", .type = &tfx_type_dynamic, .allow_null = true,
     .allow_unknown = true, .allow_dynamic = true, .allow_marked = true},
};

/* [fn.assumeequal] The result has the expected value's type. */
static const tfx_type *assumeequal_type(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_value *const *args, size_t nargs,
                                        tfx_func_error *err)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return args[1]->type;
}

/* m less "sensitive" and "ephemeral" (NULL when nothing is left): the
 * marks that say where a value came from [fn.assumeequal.marks]. */
static const tfx_marks *provenance_marks(tfx_ctx *ctx, const tfx_marks *m)
{
    tfx_marks *out;
    tfx_str *names;

    if (m == NULL)
        return NULL;
    out = tfx_ctx_alloc(ctx, sizeof *out);
    names = tfx_ctx_alloc_array(ctx, m->n, sizeof *names);
    out->n = 0;
    out->names = names;
    for (size_t i = 0; i < m->n; i++) {
        tfx_str name = m->names[i];

        if ((name.nbytes == 9 && memcmp(name.s, "sensitive", 9) == 0) ||
            (name.nbytes == 9 && memcmp(name.s, "ephemeral", 9) == 0))
            continue;
        names[out->n++] = name;
    }
    return out->n > 0 ? out : NULL;
}

/* [fn.assumeequal.marks] `to` with the provenance marks that `from` (of
 * the same type) has at each place put on `to` at the same place: at the
 * top, and inside where both are known lists, tuples, maps or objects
 * (cty's MarkWithPaths of what UnmarkDeepWithPaths found: a place that
 * `to` does not have, inside an unknown or a null, gets nothing; a set
 * holds no marks inside, its elements' marks being its own). */
static const tfx_value *carry_marks(tfx_ctx *ctx, const tfx_value *from, const tfx_value *to)
{
    const tfx_value *out = to;
    const tfx_type *t = to->type;

    if (from->state == TFX_VAL_KNOWN && to->state == TFX_VAL_KNOWN &&
        (t->kind == TFX_TYPE_LIST || t->kind == TFX_TYPE_TUPLE || t->kind == TFX_TYPE_MAP ||
         t->kind == TFX_TYPE_OBJECT)) {
        bool by_key = t->kind == TFX_TYPE_MAP || t->kind == TFX_TYPE_OBJECT;
        size_t n = by_key ? to->as.attrs.n : to->as.elems.n;
        const tfx_value **items = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1,
                                                                sizeof(const tfx_value *));
        bool changed = false;

        for (size_t i = 0; i < n; i++) {
            const tfx_value *src;

            items[i] = by_key ? to->as.attrs.vals[i] : to->as.elems.items[i];
            if (by_key)
                src = tfx_value_lookup(from, to->as.attrs.keys[i].s, to->as.attrs.keys[i].nbytes);
            else
                src = i < from->as.elems.n ? from->as.elems.items[i] : NULL;
            if (src != NULL) {
                const tfx_value *item = carry_marks(ctx, src, items[i]);

                changed = changed || item != items[i];
                items[i] = item;
            }
        }
        if (changed) {
            tfx_value *copy = tfx_ctx_alloc(ctx, sizeof *copy);

            *copy = *to;
            if (by_key)
                copy->as.attrs.vals = items;
            else
                copy->as.elems.items = items;
            out = copy;
        }
    }
    return tfx_value_mark(ctx, out, provenance_marks(ctx, from->marks));
}

/* [fn.assumeequal] The actual value converted to the expected value's
 * type (HCL's unsafe conversion; failing that, an error of argument 0
 * naming both types [fn.assumeequal.type]); an error of argument 0 when
 * the two are certainly unequal (cty's Equals, refinements included, is
 * false [fn.assumeequal.mismatch]); otherwise the expected value as it is
 * (its unknowns and marks included) with the actual value's provenance
 * marks [fn.assumeequal.marks]. */
static const tfx_value *assumeequal_impl(tfx_ctx *ctx, const tfx_function *fn,
                                         const tfx_type *ret, const tfx_value *const *args,
                                         size_t nargs, tfx_func_error *err)
{
    const tfx_value *actual = args[0], *expected = args[1], *converted;
    const char *error = NULL;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    converted = tfx_convert(ctx, actual, expected->type, TFX_CONVERT_UNSAFE, &error);
    if (converted == NULL)
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx, "actual value type %s does not match assumed value type %s",
                           tfx_type_friendly(ctx, actual->type),
                           tfx_type_friendly(ctx, expected->type)));
    if (tfx_value_equals(ctx, tfx_value_unmark_deep(ctx, converted, NULL),
                         tfx_value_unmark_deep(ctx, expected, NULL)) == TFX_TRI_FALSE)
        return tfx_fn_arg_error(err, 0, "the actual value does not match the assumed value");
    return carry_marks(ctx, converted, expected);
}

static const tfx_function fn_assumeequal = {.name = "assumeequal",
                                            .params = assumeequal_params,
                                            .nparams = TFX_COUNTOF(assumeequal_params),
                                            .varparam = NULL,
                                            .type = assumeequal_type,
                                            .ret_type = NULL,
                                            .impl = assumeequal_impl};

/* ---- assumenotnull ---- */

/* [fn.assume.value] The first parameter of every refining function:
 * nulls, unknowns and dynamic values allowed, marks not (the call
 * machinery takes them off and puts them back on the result). */
static const tfx_param notnull_params[] = {
    {.name = "value", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
     .allow_dynamic = true},
};

/* [fn.assumenotnull] A value of type dynamic (an untyped null or unknown)
 * is refused on argument 0 before anything else (the message writes the
 * quotes around "convert" with backslashes, as OpenTofu's does); a null
 * is not upheld; a known value is returned as it is, an unknown one
 * refined not null ([refine.build]; with bounds that pin it, it becomes
 * known [refine.collapse]). */
static const tfx_value *assumenotnull_impl(tfx_ctx *ctx, const tfx_function *fn,
                                           const tfx_type *ret, const tfx_value *const *args,
                                           size_t nargs, tfx_func_error *err)
{
    const tfx_value *v = args[0];

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (v->type->kind == TFX_TYPE_DYNAMIC)
        return tfx_fn_arg_error(err, 0,
                                "given value must have a known type; consider using the "
                                "\\\"convert\\\" function to specify a type to assume");
    if (v->state == TFX_VAL_NULL)
        return tfx_fn_arg_error(err, 0, not_upheld);
    return tfx_value_refine_not_null(ctx, v);
}

static const tfx_function fn_assumenotnull = {.name = "assumenotnull",
                                              .params = notnull_params,
                                              .nparams = TFX_COUNTOF(notnull_params),
                                              .varparam = NULL,
                                              .type = NULL,
                                              .ret_type = &tfx_type_dynamic,
                                              .impl = assumenotnull_impl};

/* ---- assumestringprefix ---- */

static const tfx_param prefix_params[] = {
    {.name = "value", .type = &tfx_type_str, .allow_null = true, .allow_unknown = true,
     .allow_dynamic = true},
    {.name = "prefix", .type = &tfx_type_str},
};

/* Whether a[0..na) and b[0..nb) agree over the shorter length. */
static bool agree(const char *a, size_t na, const char *b, size_t nb)
{
    return memcmp(a, b, na < nb ? na : nb) == 0;
}

/* [fn.assumestringprefix] The prefix is cut to its safe part first
 * ([refine.prefix.safe]: "foo" gives "fo"; "foo-" stays).  A known string
 * must agree with it over the shorter of the two lengths (so "ab" passes
 * the prefix "ab-x"); a null string is returned as it is; an unknown
 * string's prefix must agree with it the same way, and the longer of the
 * two is kept ([refine.build]).  Disagreement is not upheld. */
static const tfx_value *assumestringprefix_impl(tfx_ctx *ctx, const tfx_function *fn,
                                                const tfx_type *ret,
                                                const tfx_value *const *args, size_t nargs,
                                                tfx_func_error *err)
{
    const tfx_value *v = args[0];
    const tfx_refinement *old = tfx_value_refinement(v);
    tfx_refinement add;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    tfx_refinement_init(&add);
    add.prefix.s = args[1]->as.string.s;
    add.prefix.nbytes = tfx_refine_safe_prefix(args[1]->as.string.s, args[1]->as.string.nbytes);
    if (v->state == TFX_VAL_KNOWN &&
        !agree(v->as.string.s, v->as.string.nbytes, add.prefix.s, add.prefix.nbytes))
        return tfx_fn_arg_error(err, 0, not_upheld);
    if (old != NULL &&
        !agree(old->prefix.s, old->prefix.nbytes, add.prefix.s, add.prefix.nbytes))
        return tfx_fn_arg_error(err, 0, not_upheld);
    return tfx_value_refine(ctx, v, &add);
}

static const tfx_function fn_assumestringprefix = {.name = "assumestringprefix",
                                                   .params = prefix_params,
                                                   .nparams = TFX_COUNTOF(prefix_params),
                                                   .varparam = NULL,
                                                   .type = NULL,
                                                   .ret_type = &tfx_type_str,
                                                   .impl = assumestringprefix_impl};

/* ---- assume{list,set,map}length{,min,max} ---- */

/* [fn.assume.bound] A length bound: a number that is an integer within
 * int64's range and below its largest value (Go's big.Float.Int64 exact,
 * and below math.MaxInt); negative ones pass here.  Otherwise an error of
 * argument `index`. */
static bool bound_of(tfx_ctx *ctx, const tfx_value *n, long index, int64_t *out,
                     tfx_func_error *err)
{
    if (tfx_num_to_int64(n->as.number, out) && *out < INT64_MAX)
        return true;
    tfx_fn_arg_error(err, index,
                     tfx_ctx_printf(ctx, "must be a whole number between 0 and %" PRId64,
                                    INT64_MAX));
    return false;
}

/* [fn.assume.length] The length refinement of a collection v by the
 * bounds that are there (has_min, has_max), as cty's builder applies the
 * lower one then the upper one; NULL when it is not upheld.
 *  - a null collection is never upheld (cty asks its length);
 *  - a known one is checked against its length: a lower bound above its
 *    number of elements is not upheld; an upper bound below it is not
 *    either, except that for a set with unknown elements (of two or more
 *    elements: their number may shrink) only an upper bound below 1 is;
 *    then a lower bound above the upper one (a negative lower bound
 *    counts as 0) is not upheld; the value is returned as it is;
 *  - an unknown one's bounds are put together with its own ([refine.build]:
 *    the larger lower, the smaller upper); if the upper is then below the
 *    lower it is not upheld; equal bounds may make it known
 *    ([refine.collapse]). */
static const tfx_value *refine_length(tfx_ctx *ctx, const tfx_value *v, bool has_min,
                                      int64_t min, bool has_max, int64_t max)
{
    tfx_refinement add;
    const tfx_refinement *old;
    int64_t lo, hi;

    if (v->state == TFX_VAL_NULL)
        return NULL;
    if (v->state == TFX_VAL_KNOWN) {
        int64_t n = (int64_t)tfx_value_length(v);
        bool exact = v->type->kind != TFX_TYPE_SET || n == 1 || tfx_value_is_wholly_known(v);

        if (has_min && min > n)
            return NULL;
        if (has_max && max < (exact ? n : 1))
            return NULL;
        if (has_min && has_max && max < (min > 0 ? min : 0))
            return NULL;
        return v;
    }
    if (v->type->kind == TFX_TYPE_DYNAMIC)
        return v; /* cty's DynamicVal takes no refinement (never here) */
    old = tfx_value_refinement(v);
    lo = old != NULL ? old->len_lower : 0;
    hi = old != NULL ? old->len_upper : TFX_REFINE_NO_MAX;
    if (has_min && min > lo)
        lo = min;
    if (has_max && max < hi)
        hi = max;
    if (hi < lo)
        return NULL;
    tfx_refinement_init(&add);
    add.len_lower = lo;
    add.len_upper = hi;
    return tfx_value_refine(ctx, v, &add);
}

/* What a length function takes after its value: both bounds, or one. */
typedef enum { LEN_BETWEEN, LEN_MIN, LEN_MAX } length_form;

/* [fn.assume.length] [fn.assume.bound] A length function's call: bounds
 * that are not whole are errors of their own argument (1, 2) for the
 * two-bound form, but of argument 0 (the value) for the one-bound forms,
 * as OpenTofu reports them. */
static const tfx_value *length_call(tfx_ctx *ctx, const tfx_value *const *args,
                                    length_form form, tfx_func_error *err)
{
    int64_t min = 0, max = 0;
    const tfx_value *out;

    switch (form) {
    case LEN_BETWEEN:
        if (!bound_of(ctx, args[1], 1, &min, err) || !bound_of(ctx, args[2], 2, &max, err))
            return NULL;
        out = refine_length(ctx, args[0], true, min, true, max);
        break;
    case LEN_MIN:
        if (!bound_of(ctx, args[1], 0, &min, err))
            return NULL;
        out = refine_length(ctx, args[0], true, min, false, 0);
        break;
    default:
        if (!bound_of(ctx, args[1], 0, &max, err))
            return NULL;
        out = refine_length(ctx, args[0], false, 0, true, max);
        break;
    }
    if (out == NULL)
        return tfx_fn_arg_error(err, 0, not_upheld);
    return out;
}

#define LENGTH_IMPL(NAME, FORM)                                                              \
    static const tfx_value *NAME(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,  \
                                 const tfx_value *const *args, size_t nargs,                 \
                                 tfx_func_error *err)                                        \
    {                                                                                        \
        TFX_UNUSED(fn);                                                                      \
        TFX_UNUSED(ret);                                                                     \
        TFX_UNUSED(nargs);                                                                   \
        return length_call(ctx, args, FORM, err);                                            \
    }
LENGTH_IMPL(length_between_impl, LEN_BETWEEN)
LENGTH_IMPL(length_min_impl, LEN_MIN)
LENGTH_IMPL(length_max_impl, LEN_MAX)

/* [fn.assume.length] The collection types, of any element type, and the
 * parameters of each kind and form. */
static const tfx_type list_of_any = {.kind = TFX_TYPE_LIST, .elem = &tfx_type_dynamic};
static const tfx_type set_of_any = {.kind = TFX_TYPE_SET, .elem = &tfx_type_dynamic};
static const tfx_type map_of_any = {.kind = TFX_TYPE_MAP, .elem = &tfx_type_dynamic};

#define LENGTH_PARAMS(KIND, TYPE)                                                            \
    static const tfx_param KIND##_between_params[] = {                                       \
        {.name = "value", .type = (TYPE), .allow_null = true, .allow_unknown = true,         \
         .allow_dynamic = true},                                                             \
        {.name = "min_length", .type = &tfx_type_number},                                    \
        {.name = "max_length", .type = &tfx_type_number},                                    \
    };                                                                                       \
    static const tfx_param KIND##_min_params[] = {                                           \
        {.name = "value", .type = (TYPE), .allow_null = true, .allow_unknown = true,         \
         .allow_dynamic = true},                                                             \
        {.name = "min_length", .type = &tfx_type_number},                                    \
    };                                                                                       \
    static const tfx_param KIND##_max_params[] = {                                           \
        {.name = "value", .type = (TYPE), .allow_null = true, .allow_unknown = true,         \
         .allow_dynamic = true},                                                             \
        {.name = "max_length", .type = &tfx_type_number},                                    \
    };
LENGTH_PARAMS(list, &list_of_any)
LENGTH_PARAMS(set, &set_of_any)
LENGTH_PARAMS(map, &map_of_any)

#define LENGTH_FN(VAR, NAME, PARAMS, TYPE, IMPL)                                             \
    static const tfx_function VAR = {.name = (NAME),                                         \
                                     .params = (PARAMS),                                     \
                                     .nparams = TFX_COUNTOF(PARAMS),                         \
                                     .varparam = NULL,                                       \
                                     .type = NULL,                                           \
                                     .ret_type = (TYPE),                                     \
                                     .impl = (IMPL)};
LENGTH_FN(fn_assumelistlength, "assumelistlength", list_between_params, &list_of_any,
          length_between_impl)
LENGTH_FN(fn_assumelistlengthmin, "assumelistlengthmin", list_min_params, &list_of_any,
          length_min_impl)
LENGTH_FN(fn_assumelistlengthmax, "assumelistlengthmax", list_max_params, &list_of_any,
          length_max_impl)
LENGTH_FN(fn_assumesetlength, "assumesetlength", set_between_params, &set_of_any,
          length_between_impl)
LENGTH_FN(fn_assumesetlengthmin, "assumesetlengthmin", set_min_params, &set_of_any,
          length_min_impl)
LENGTH_FN(fn_assumesetlengthmax, "assumesetlengthmax", set_max_params, &set_of_any,
          length_max_impl)
LENGTH_FN(fn_assumemaplength, "assumemaplength", map_between_params, &map_of_any,
          length_between_impl)
LENGTH_FN(fn_assumemaplengthmin, "assumemaplengthmin", map_min_params, &map_of_any,
          length_min_impl)
LENGTH_FN(fn_assumemaplengthmax, "assumemaplengthmax", map_max_params, &map_of_any,
          length_max_impl)

/* [fn.assume.profile] Sorted by name (bytes, the shorter first). */
const tfx_builtin tfx_builtins_assume[] = {
    {"assumeequal", &fn_assumeequal},
    {"assumelistlength", &fn_assumelistlength},
    {"assumelistlengthmax", &fn_assumelistlengthmax},
    {"assumelistlengthmin", &fn_assumelistlengthmin},
    {"assumemaplength", &fn_assumemaplength},
    {"assumemaplengthmax", &fn_assumemaplengthmax},
    {"assumemaplengthmin", &fn_assumemaplengthmin},
    {"assumenotnull", &fn_assumenotnull},
    {"assumesetlength", &fn_assumesetlength},
    {"assumesetlengthmax", &fn_assumesetlengthmax},
    {"assumesetlengthmin", &fn_assumesetlengthmin},
    {"assumestringprefix", &fn_assumestringprefix},
    {NULL, NULL},
};
