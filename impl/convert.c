/* SPDX-License-Identifier: MPL-2.0 */
/*
 * convert.c — cty 1.12.1's type conversion and unification
 * (spec/conversion.md, rules conv.* and unify.*; semantics C1–C21, and
 * the unification behind Q2–Q3).
 *
 * The module follows the shape of cty's convert package.  cty first looks
 * a conversion up from the two types (getConversion: nil when there is
 * none) and then applies it to a value.  Here the two halves are
 * conv_exists (the look-up, types only) and convert_value (the
 * application, which re-derives from the value's type the choices cty's
 * closure made when it was built: the value's type is the closure's
 * source type, since a value whose type is dynamic is always null or
 * unknown and never reaches a kind-specific conversion).
 *
 * Where cty walks a Go map (object attributes, map elements), its order
 * is random; this module always walks names in byte order, which is one
 * of the orders cty may take.  It matters only for which of several
 * failures is reported (spec/conversion.md, note under [conv.mismatch]).
 *
 * Failures on content are returned as cty's message (the text of its
 * error; cty's PathError adds a path but its Error() is the bare message).
 * Resource limits fail through tfx_ctx_fail: one step per conversion,
 * unification and comparison, one level of depth per element level
 * [limit.eval.steps] [limit.eval.depth].
 */
#include "convert.h"

#include <string.h>

#include "num.h"
#include "refine.h"
#include "render.h"

static bool conv_exists(tfx_ctx *ctx, const tfx_type *in, const tfx_type *out, bool unsafe);
static const tfx_type *unify(tfx_ctx *ctx, const tfx_type *const *types, size_t n,
                             bool unsafe, bool *all_dynamic);
static const tfx_value *convert_value(tfx_ctx *ctx, const tfx_value *v, const tfx_type *out,
                                      bool unsafe, const char **err);
static const tfx_value *apply_conversion(tfx_ctx *ctx, const tfx_value *v, const tfx_type *plan,
                                         const tfx_type *out, bool unsafe, const char **err);
static const char *mismatch(tfx_ctx *ctx, const tfx_type *got, const tfx_type *want);

/* ---- Limits [limit.eval.steps] [limit.eval.depth] ---- */

/* One level deeper into the element types or elements of a type or
 * value; counts a step too.  Every descend is matched by an ascend
 * (tfx_ctx_try restores the depth when a failure skips it). */
static void descend(tfx_ctx *ctx)
{
    tfx_ctx_step(ctx);
    if (++ctx->depth > ctx->limits.max_depth)
        tfx_ctx_fail(ctx, "Nesting too deep",
                     "The evaluation nests deeper than the limit of %zu levels.",
                     ctx->limits.max_depth);
}

static void ascend(tfx_ctx *ctx)
{
    ctx->depth--;
}

static void fail_nomem(tfx_ctx *ctx)
{
    tfx_ctx_fail(ctx, "Memory limit exceeded",
                 "The evaluation needs more than the memory limit of %zu bytes.",
                 ctx->limits.max_memory_bytes);
}

static bool is_dynamic(const tfx_type *t)
{
    return t->kind == TFX_TYPE_DYNAMIC;
}

static bool is_seq(const tfx_type *t)
{
    return t->kind == TFX_TYPE_LIST || t->kind == TFX_TYPE_SET;
}

static const tfx_type **new_types(tfx_ctx *ctx, size_t n)
{
    return tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_type *));
}

static const tfx_value **new_values(tfx_ctx *ctx, size_t n)
{
    return tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_value *));
}

/* =====================================================================
 * Looking conversions up (cty's getConversion != nil)
 * ================================================================== */

/* [conv.prim.num-str] [conv.prim.bool-str] [conv.prim.str-num]
 * [conv.prim.str-bool] [conv.prim.none] (semantics C2) cty's two tables of
 * primitive conversions: number and bool to string (safe), string to
 * number and bool (unsafe).  A type to itself is in neither table. */
static bool primitive_exists(tfx_type_kind in, tfx_type_kind out, bool unsafe)
{
    if (out == TFX_TYPE_STRING)
        return in == TFX_TYPE_NUMBER || in == TFX_TYPE_BOOL;
    return unsafe && in == TFX_TYPE_STRING;
}

/* [conv.tuple.list] [conv.tuple.set] [conv.tuple.any] The element type a
 * non-empty tuple converts to for a list or set of ety: ety itself, or
 * when ety is dynamic the unification of the tuple's element types (which
 * may be dynamic only if all of them are); NULL when some element type
 * has no conversion to it. */
static const tfx_type *tuple_seq_elem(tfx_ctx *ctx, const tfx_type *tuple, const tfx_type *ety,
                                      bool unsafe)
{
    const tfx_type *result = ety;

    descend(ctx);
    if (is_dynamic(ety)) {
        bool ignored;

        result = unify(ctx, tuple->elems, tuple->n, unsafe, &ignored);
        if (result != NULL && is_dynamic(result)) {
            for (size_t i = 0; i < tuple->n; i++)
                if (!is_dynamic(tuple->elems[i]))
                    result = NULL;
        }
    }
    for (size_t i = 0; result != NULL && i < tuple->n; i++)
        if (!tfx_type_equal(tuple->elems[i], result) &&
            !conv_exists(ctx, tuple->elems[i], result, unsafe))
            result = NULL;
    ascend(ctx);
    return result;
}

/* [conv.object.map] The element type a non-empty object converts to for a
 * map of ety: ety itself, or when ety is dynamic the unification of the
 * attribute types; NULL when some attribute type has no conversion. */
static const tfx_type *object_map_elem(tfx_ctx *ctx, const tfx_type *object,
                                       const tfx_type *ety, bool unsafe)
{
    const tfx_type *result = ety;

    descend(ctx);
    if (is_dynamic(ety)) {
        bool ignored;

        result = unify(ctx, object->elems, object->n, unsafe, &ignored);
    }
    for (size_t i = 0; result != NULL && i < object->n; i++)
        if (!tfx_type_equal(object->elems[i], result) &&
            !conv_exists(ctx, object->elems[i], result, unsafe))
            result = NULL;
    ascend(ctx);
    return result;
}

/* Whether every element type of `in` equals or converts to the type at
 * the same place in `out` (same counts). */
static bool all_elems_exist(tfx_ctx *ctx, const tfx_type *const *in, const tfx_type *const *out,
                            size_t n, bool unsafe)
{
    bool ok = true;

    descend(ctx);
    for (size_t i = 0; ok && i < n; i++)
        ok = tfx_type_equal(in[i], out[i]) || conv_exists(ctx, in[i], out[i], unsafe);
    ascend(ctx);
    return ok;
}

/* [conv.object.object] [conv.object.optional] Every attribute of `out`
 * exists in `in` and converts (or has the same type), unless it is
 * optional and absent; extra attributes of `in` are allowed. */
static bool object_to_object_exists(tfx_ctx *ctx, const tfx_type *in, const tfx_type *out,
                                    bool unsafe)
{
    const tfx_type **from = new_types(ctx, out->n);
    const tfx_type **to = new_types(ctx, out->n);
    size_t n = 0;

    for (size_t i = 0; i < out->n; i++) {
        long j = tfx_type_attr_index(in, out->names[i].s, out->names[i].nbytes);

        if (j < 0) {
            if (tfx_type_attr_optional(out, i))
                continue; /* an absent optional attribute becomes null */
            return false; /* a required attribute is missing */
        }
        from[n] = in->elems[j];
        to[n++] = out->elems[i];
    }
    return all_elems_exist(ctx, from, to, n, unsafe);
}

/* [conv.map.object] [conv.object.optional] (unsafe only) The map's
 * element type equals or converts to every attribute type of `out`; an
 * optional attribute it does not convert to is let through (the value's
 * conversion fails if the map has that key). */
static bool map_to_object_exists(tfx_ctx *ctx, const tfx_type *in, const tfx_type *out,
                                 bool unsafe)
{
    bool ok = true;

    descend(ctx);
    for (size_t i = 0; ok && i < out->n; i++)
        ok = tfx_type_equal(in->elem, out->elems[i]) ||
             conv_exists(ctx, in->elem, out->elems[i], unsafe) ||
             (unsafe && tfx_type_attr_optional(out, i));
    ascend(ctx);
    return ok;
}

/* [conv.seq.list] [conv.seq.set] A list or set converts to a list, and a
 * set or (unsafe) a list to a set, when the element types are equal or
 * convert. */
static bool seq_to_seq_exists(tfx_ctx *ctx, const tfx_type *in, const tfx_type *out,
                              bool unsafe)
{
    bool ok;

    if (out->kind == TFX_TYPE_SET && in->kind == TFX_TYPE_LIST && !unsafe)
        return false; /* [conv.mode] list to set loses order and duplicates */
    if (tfx_type_equal(in->elem, out->elem))
        return true;
    descend(ctx);
    ok = conv_exists(ctx, in->elem, out->elem, unsafe);
    ascend(ctx);
    return ok;
}

/* [conv.map.map] A map converts to a map when its element type converts.
 * cty makes no exception for equal element types here, so a map of a
 * primitive type has no conversion to the same map type (callers compare
 * types first, as cty's do). */
static bool map_to_map_exists(tfx_ctx *ctx, const tfx_type *in, const tfx_type *out,
                              bool unsafe)
{
    bool ok;

    descend(ctx);
    ok = conv_exists(ctx, in->elem, out->elem, unsafe);
    ascend(ctx);
    return ok;
}

/* [conv.def] step 2, [conv.mode], [conv.dynamic], [conv.none] (semantics
 * C1, C7, C8, C15) cty's getConversion(in, out, unsafe) != nil, case by
 * case in cty's order.  Equal primitive types have no conversion (cty's
 * tables have no identity entries); callers check type equality first. */
static bool conv_exists(tfx_ctx *ctx, const tfx_type *in, const tfx_type *out, bool unsafe)
{
    tfx_ctx_step(ctx);
    if (is_dynamic(out))
        return true; /* [conv.dynamic] anything converts to dynamic */
    if (unsafe && is_dynamic(in))
        return true; /* [conv.dynamic] a null or unknown converts to anything */
    if (tfx_type_is_primitive(in) && tfx_type_is_primitive(out))
        return primitive_exists(in->kind, out->kind, unsafe);
    switch (out->kind) {
    case TFX_TYPE_OBJECT:
        if (in->kind == TFX_TYPE_OBJECT)
            return object_to_object_exists(ctx, in, out, unsafe);
        if (in->kind == TFX_TYPE_MAP)
            return unsafe && map_to_object_exists(ctx, in, out, unsafe);
        return false;
    case TFX_TYPE_TUPLE:
        /* [conv.tuple.tuple] same length, element by element */
        return in->kind == TFX_TYPE_TUPLE && in->n == out->n &&
               all_elems_exist(ctx, in->elems, out->elems, out->n, unsafe);
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
        if (is_seq(in))
            return seq_to_seq_exists(ctx, in, out, unsafe);
        if (in->kind == TFX_TYPE_TUPLE)
            return in->n == 0 || tuple_seq_elem(ctx, in, out->elem, unsafe) != NULL;
        return false;
    case TFX_TYPE_MAP:
        if (in->kind == TFX_TYPE_MAP)
            return map_to_map_exists(ctx, in, out, unsafe);
        if (in->kind == TFX_TYPE_OBJECT)
            return in->n == 0 || object_map_elem(ctx, in, out->elem, unsafe) != NULL;
        return false;
    default:
        return false;
    }
}

/* =====================================================================
 * Filling dynamic parts (cty's dynamicReplace)
 * ================================================================== */

/* [conv.null] The type of the null or unknown that a null or unknown of
 * type `in` converts to for `out`: `out` with its dynamic parts filled in
 * from `in`.  `in` NULL stands for cty's NilType (a unification that
 * found nothing): `out` as it is.  The conversion is known to exist, so
 * the kinds match; where they would not, `out` is kept. */
static const tfx_type *dynamic_replace(tfx_ctx *ctx, const tfx_type *in, const tfx_type *out)
{
    const tfx_type *result = out;
    bool ignored;

    if (in == NULL || is_dynamic(in))
        return out;
    if (is_dynamic(out))
        return in;
    if (tfx_type_is_primitive(out))
        return out;
    descend(ctx);
    switch (out->kind) {
    case TFX_TYPE_MAP:
        if (in->kind == TFX_TYPE_MAP) {
            result = tfx_type_map(ctx, dynamic_replace(ctx, in->elem, out->elem));
        } else if (in->kind == TFX_TYPE_OBJECT) {
            const tfx_type *u = unify(ctx, in->elems, in->n, true, &ignored);

            result = tfx_type_map(ctx, dynamic_replace(ctx, u, out->elem));
        }
        break;
    case TFX_TYPE_OBJECT:
        if (in->kind == TFX_TYPE_MAP || in->kind == TFX_TYPE_OBJECT) {
            const tfx_type **types = new_types(ctx, out->n);

            for (size_t i = 0; i < out->n; i++) {
                const tfx_type *from = in->elem;

                if (in->kind == TFX_TYPE_OBJECT) {
                    long j = tfx_type_attr_index(in, out->names[i].s, out->names[i].nbytes);

                    /* an attribute `in` lacks keeps out's type */
                    from = j < 0 ? NULL : in->elems[j];
                }
                types[i] = dynamic_replace(ctx, from, out->elems[i]);
            }
            result = tfx_type_object(ctx, out->names, types, out->n);
        }
        break;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
        if (is_seq(in)) {
            result = tfx_type_collection(ctx, out->kind,
                                         dynamic_replace(ctx, in->elem, out->elem));
        } else if (in->kind == TFX_TYPE_TUPLE) {
            const tfx_type *u = unify(ctx, in->elems, in->n, true, &ignored);

            result = tfx_type_collection(ctx, out->kind, dynamic_replace(ctx, u, out->elem));
        }
        break;
    case TFX_TYPE_TUPLE:
        if (in->kind == TFX_TYPE_TUPLE && in->n == out->n) {
            const tfx_type **types = new_types(ctx, out->n);

            for (size_t i = 0; i < out->n; i++)
                types[i] = dynamic_replace(ctx, in->elems[i], out->elems[i]);
            result = tfx_type_tuple(ctx, types, out->n);
        }
        break;
    default:
        break;
    }
    ascend(ctx);
    return result;
}

/* =====================================================================
 * Applying conversions
 * ================================================================== */

/* ---- Primitive conversions [conv.prim.*] (semantics C2, C3) ---- */

/* Numbers whose text may be this long are formatted before the string
 * limit is checked against the text's actual length; beyond it, the bound
 * of [num.format.size] is checked first, so that no limit lets the
 * formatting of a huge number take its time. */
#define NUMBER_TEXT_CHEAP 4096

/* [conv.prim.num-str] The text of Go's Text('f', -1) at the number's own
 * precision.  [limit.eval.string] A text that may exceed both the string
 * limit and NUMBER_TEXT_CHEAP bytes is refused before it is written. */
static const tfx_value *number_to_string(tfx_ctx *ctx, const tfx_value *v)
{
    size_t bound = tfx_num_format_max_bytes(v->as.number);
    size_t nbytes = 0;
    char *text;

    if (bound > NUMBER_TEXT_CHEAP && bound > ctx->limits.max_string_bytes)
        tfx_ctx_fail(ctx, "String length limit exceeded",
                     "A number's text of up to %zu bytes may be longer than the limit of %zu bytes.",
                     bound, ctx->limits.max_string_bytes);
    text = tfx_num_format(ctx->arena, v->as.number, &nbytes);
    if (text == NULL)
        fail_nomem(ctx);
    return tfx_value_string_raw(ctx, text, nbytes);
}

/* [conv.prim.str-num] Go's big.ParseFloat(s, 10, 512, ToNearestEven). */
static const tfx_value *string_to_number(tfx_ctx *ctx, const tfx_value *v, const char **err)
{
    const tfx_num *n = NULL;
    tfx_num_err e = tfx_num_parse_n(ctx->arena, v->as.string.s, v->as.string.nbytes, &n);

    if (e == TFX_NUM_ERR_NOMEM)
        fail_nomem(ctx);
    if (e != TFX_NUM_OK) {
        *err = "a number is required";
        return NULL;
    }
    return tfx_value_number(ctx, n);
}

/* Whether s, lowercased as Go's strings.ToLower does, is `word` (ASCII
 * lower case).  No code point outside ASCII lowercases to one of the
 * letters of "true" or "false" (the only such mappings into ASCII are
 * U+0130 to "i" and U+212A to "k"), so an ASCII comparison is exact. */
static bool lower_equals(tfx_str s, const char *word)
{
    size_t n = strlen(word);

    if (s.nbytes != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s.s[i];

        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[i])
            return false;
    }
    return true;
}

/* [conv.prim.str-bool] (semantics C3) Exactly "true"/"1" and "false"/"0";
 * other spellings of true and false get a hint. */
static const tfx_value *string_to_bool(const tfx_value *v, const char **err)
{
    tfx_str s = v->as.string;

    if (tfx_str_eq(s, "true", 4) || tfx_str_eq(s, "1", 1))
        return tfx_value_bool(true);
    if (tfx_str_eq(s, "false", 5) || tfx_str_eq(s, "0", 1))
        return tfx_value_bool(false);
    if (lower_equals(s, "true"))
        *err = "a bool is required; to convert from string, use lowercase \"true\"";
    else if (lower_equals(s, "false"))
        *err = "a bool is required; to convert from string, use lowercase \"false\"";
    else
        *err = "a bool is required";
    return NULL;
}

/* [conv.prim.*] A known, unmarked primitive value to another primitive
 * type for which a conversion exists. */
static const tfx_value *convert_primitive(tfx_ctx *ctx, const tfx_value *v, const tfx_type *out,
                                          const char **err)
{
    if (v->type->kind == out->kind)
        return v; /* not reached: cty has no such conversion, and callers compare types */
    switch (v->type->kind) {
    case TFX_TYPE_NUMBER:
        return number_to_string(ctx, v);
    case TFX_TYPE_BOOL:
        /* [conv.prim.bool-str] */
        return v->as.boolean ? tfx_value_string_raw(ctx, "true", 4)
                             : tfx_value_string_raw(ctx, "false", 5);
    default:
        return out->kind == TFX_TYPE_NUMBER ? string_to_number(ctx, v, err)
                                            : string_to_bool(v, err);
    }
}

/* ---- Helpers for collections ---- */

/* cty re-creates a null element of a converted list, set or object as a
 * fresh null of its type without optional-attribute markers
 * [conv.object.optional], which drops the element's own marks: an
 * upstream quirk, kept [conv.marks]. */
static const tfx_value *renew_null(tfx_ctx *ctx, const tfx_value *e)
{
    if (tfx_value_is_null(e) && (e->marks != NULL || tfx_type_has_optional(e->type)))
        return tfx_value_null(ctx, tfx_type_without_optional(ctx, e->type));
    return e;
}

/* [conv.plan] Converts item *e, which the conversion's plan takes to be of
 * type `from`, to `to` in place: unchanged if the plan's types are equal
 * (cty then has no element conversion and takes the item as it is, whatever
 * its own type), else by the conversion planned for `from`.  False with
 * *err on failure. */
static bool convert_item(tfx_ctx *ctx, const tfx_value **e, const tfx_type *from,
                         const tfx_type *to, bool unsafe, const char **err)
{
    if (tfx_type_equal(from, to))
        return true;
    *e = apply_conversion(ctx, *e, from, to, unsafe, err);
    return *e != NULL;
}

/* Converts *e, whose type differs from u, to u, as cty's
 * conversionUnify*Elements do.  cty looks the conversion up without
 * checking it exists (unification found u, so it normally does); where
 * it would not, cty calls a nil function and panics: here it is the
 * mismatch message. */
static bool convert_to_unified(tfx_ctx *ctx, const tfx_value **e, const tfx_type *u,
                               bool unsafe, const char **err)
{
    if (tfx_type_equal((*e)->type, u))
        return true;
    if (!conv_exists(ctx, (*e)->type, u, unsafe)) {
        *err = mismatch(ctx, (*e)->type, u);
        return false;
    }
    *e = convert_value(ctx, *e, u, unsafe, err);
    return *e != NULL;
}

/* [conv.tuple.list] [conv.object.map] [conv.map.map] cty's
 * conversionUnifyListElements / conversionUnifyCollectionElements: the
 * types of the converted items are unified, and each item is converted to
 * the common type.  The items are visited in order (cty visits map
 * elements in Go's random map order; key order here). */
static bool unify_items(tfx_ctx *ctx, const tfx_value **items, size_t n, bool unsafe,
                        const char **err)
{
    const tfx_type **types = new_types(ctx, n);
    const tfx_type *u;
    bool ignored;

    for (size_t i = 0; i < n; i++)
        types[i] = items[i]->type;
    u = unify(ctx, types, n, unsafe, &ignored);
    if (u == NULL) {
        *err = "cannot find a common base type for all elements";
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if (!convert_to_unified(ctx, &items[i], u, unsafe, err))
            return false;
    return true;
}

/* ---- Lists and sets from lists and sets [conv.seq.*] (semantics C8, C11, C21) ---- */

/* cty's Length of a known set: unknown when the set has more than one
 * element and an unknown anywhere inside [value.length]. */
static bool set_length_unknown(const tfx_value *v)
{
    return v->type->kind == TFX_TYPE_SET && v->as.elems.n != 1 &&
           !tfx_value_is_wholly_known(v);
}

/* [conv.seq.list] [conv.seq.set] cty's conversionCollectionToList/ToSet
 * closure for source element type in_ety, applied to the elements
 * src[0..n): each converted to ety in order unless in_ety is ety (first
 * failure wins), nulls renewed, and the collection made (a set
 * deduplicates after conversion). */
static const tfx_value *seq_items_to_seq(tfx_ctx *ctx, const tfx_value *const *src, size_t n,
                                         const tfx_type *in_ety, tfx_type_kind kind,
                                         const tfx_type *ety, bool unsafe, const char **err)
{
    const tfx_value **items = new_values(ctx, n);
    const tfx_type *t;

    for (size_t i = 0; i < n; i++) {
        items[i] = src[i];
        if (!convert_item(ctx, &items[i], in_ety, ety, unsafe, err))
            return NULL;
        items[i] = renew_null(ctx, items[i]);
    }
    if (n == 0) {
        /* an empty result prefers the source's element type to dynamic */
        t = is_dynamic(ety) ? in_ety : tfx_type_without_optional(ctx, ety);
    } else {
        t = tfx_value_common_type(items, n);
        if (t == NULL) {
            *err = kind == TFX_TYPE_LIST ? "element types must all match for conversion to list"
                                         : "element types must all match for conversion to set";
            return NULL;
        }
        tfx_value_retype_dynamic(ctx, items, n, t);
    }
    return kind == TFX_TYPE_LIST ? tfx_value_list(ctx, t, items, n)
                                 : tfx_value_set(ctx, t, items, n);
}

/* [conv.seq.list] [conv.seq.set] [conv.plan] (semantics C8, C11, C21) A
 * known list or set (or, planned as one, a tuple) to list(ety) or
 * set(ety), planned for the list or set type `plan`: a set of unknown
 * length gives an unknown list of the SOURCE element type; otherwise the
 * elements are converted (a set in set order). */
static const tfx_value *convert_seq_to_seq(tfx_ctx *ctx, const tfx_value *v,
                                           const tfx_type *plan, tfx_type_kind kind,
                                           const tfx_type *ety, bool unsafe, const char **err)
{
    if (kind == TFX_TYPE_LIST && set_length_unknown(v))
        return tfx_value_unknown(ctx, tfx_type_list(ctx, v->type->elem));
    return seq_items_to_seq(ctx, v->as.elems.items, v->as.elems.n, plan->elem, kind, ety,
                            unsafe, err);
}

/* ---- Lists and sets from tuples [conv.tuple.*] (semantics C9, C10, C11) ---- */

/* [conv.tuple.list] [conv.tuple.any] A known tuple to list(ety): an empty
 * tuple gives an empty list(ety); otherwise the element type is resolved
 * (unification for dynamic), each element converted in order (first
 * failure wins), the converted elements unified again and converted to
 * the common type, and they must end with one type.  No null renewal
 * here. */
static const tfx_value *convert_tuple_to_list(tfx_ctx *ctx, const tfx_value *v,
                                              const tfx_type *tt, const tfx_type *ety, bool unsafe,
                                              const char **err)
{
    const tfx_value **items;
    const tfx_type *t;

    if (tt->n == 0)
        return tfx_value_list(ctx, tfx_type_without_optional(ctx, ety), NULL, 0);
    ety = tuple_seq_elem(ctx, tt, ety, unsafe);
    if (ety == NULL) {
        *err = mismatch(ctx, tt, tfx_type_list(ctx, &tfx_type_dynamic));
        return NULL; /* not reached: the conversion was looked up first */
    }
    items = new_values(ctx, tt->n);
    for (size_t i = 0; i < tt->n; i++) {
        items[i] = v->as.elems.items[i];
        if (!convert_item(ctx, &items[i], tt->elems[i], ety, unsafe, err))
            return NULL;
    }
    if (!unify_items(ctx, items, tt->n, unsafe, err))
        return NULL;
    t = tfx_value_common_type(items, tt->n);
    if (t == NULL) {
        *err = "element types must all match for conversion to list";
        return NULL;
    }
    tfx_value_retype_dynamic(ctx, items, tt->n, t);
    return tfx_value_list(ctx, t, items, tt->n);
}

/* [conv.tuple.set] [conv.tuple.any] A known tuple to set(ety): as to a
 * list, without the second unification and with nulls renewed; the set
 * then deduplicates. */
static const tfx_value *convert_tuple_to_set(tfx_ctx *ctx, const tfx_value *v,
                                             const tfx_type *tt, const tfx_type *ety, bool unsafe,
                                             const char **err)
{
    const tfx_value **items;
    const tfx_type *t;

    if (tt->n == 0)
        return tfx_value_set(ctx, tfx_type_without_optional(ctx, ety), NULL, 0);
    ety = tuple_seq_elem(ctx, tt, ety, unsafe);
    if (ety == NULL) {
        *err = mismatch(ctx, tt, tfx_type_set(ctx, &tfx_type_dynamic));
        return NULL; /* not reached: the conversion was looked up first */
    }
    items = new_values(ctx, tt->n);
    for (size_t i = 0; i < tt->n; i++) {
        items[i] = v->as.elems.items[i];
        if (!convert_item(ctx, &items[i], tt->elems[i], ety, unsafe, err))
            return NULL;
        items[i] = renew_null(ctx, items[i]);
    }
    t = tfx_value_common_type(items, tt->n);
    if (t == NULL) {
        *err = "element types must all match for conversion to set";
        return NULL;
    }
    tfx_value_retype_dynamic(ctx, items, tt->n, t);
    return tfx_value_set(ctx, t, items, tt->n);
}

/* ---- Tuples [conv.tuple.tuple] (semantics C15) ---- */

/* [conv.tuple.tuple] Element by element, in order, as planned for the
 * tuple type `plan`. */
static const tfx_value *convert_tuple_to_tuple(tfx_ctx *ctx, const tfx_value *v,
                                               const tfx_type *plan, const tfx_type *out,
                                               bool unsafe, const char **err)
{
    const tfx_value **items = new_values(ctx, out->n);

    for (size_t i = 0; i < out->n; i++) {
        items[i] = v->as.elems.items[i];
        if (!convert_item(ctx, &items[i], plan->elems[i], out->elems[i], unsafe, err))
            return NULL;
    }
    return tfx_value_tuple(ctx, items, out->n);
}

/* ---- Maps [conv.map.*] [conv.object.map] (semantics C12, C14) ---- */

/* The map of keys[0..n) -> items, whose element type is the common type
 * (NULL with *err = `message` when there is none); `empty_elem` is the
 * element type when n is 0. */
static const tfx_value *make_map(tfx_ctx *ctx, const tfx_str *keys, const tfx_value **items,
                                 size_t n, const tfx_type *empty_elem, const char *message,
                                 const char **err)
{
    const tfx_type *t = empty_elem;

    if (n > 0) {
        t = tfx_value_common_type(items, n);
        if (t == NULL) {
            *err = message;
            return NULL;
        }
        tfx_value_retype_dynamic(ctx, items, n, t);
    }
    return tfx_value_map(ctx, t, keys, items, n);
}

/* [conv.map.map] cty's conversionCollectionToMap closure for source
 * element type in_ety, applied to keys[0..n) -> src: each element
 * converted in key order (cty converts even when the element types are
 * equal); if ety is a collection or object type the results are unified
 * in SAFE mode (as upstream does, whatever the mode) and converted to the
 * common type. */
static const tfx_value *map_items_to_map(tfx_ctx *ctx, const tfx_str *keys,
                                         const tfx_value *const *src, size_t n,
                                         const tfx_type *in_ety, const tfx_type *ety,
                                         bool unsafe, const char **err)
{
    const tfx_value **items = new_values(ctx, n);

    for (size_t i = 0; i < n; i++) {
        items[i] = apply_conversion(ctx, src[i], in_ety, ety, unsafe, err);
        if (items[i] == NULL)
            return NULL;
    }
    if (n == 0) /* [conv.map.empty.pn] PN's type has no optional markers */
        return tfx_value_map(ctx,
                             is_dynamic(ety) ? in_ety
                             : ctx->pn      ? tfx_type_without_optional(ctx, ety)
                                            : ety,
                             NULL, NULL, 0);
    if (tfx_type_is_collection(ety) || ety->kind == TFX_TYPE_OBJECT)
        if (!unify_items(ctx, items, n, false, err))
            return NULL;
    return make_map(ctx, keys, items, n, ety,
                    "element types must all match for conversion to map", err);
}

/* [conv.map.map] [conv.plan] A known map (or, planned as one, an object)
 * to map(ety), planned for the map type `plan`. */
static const tfx_value *convert_map_to_map(tfx_ctx *ctx, const tfx_value *v,
                                           const tfx_type *plan, const tfx_type *ety, bool unsafe,
                                           const char **err)
{
    return map_items_to_map(ctx, v->as.attrs.keys, v->as.attrs.vals, v->as.attrs.n,
                            plan->elem, ety, unsafe, err);
}

/* [conv.object.map] [conv.plan] (semantics C12) A known object to
 * map(ety), planned for the object type `ot`: an empty plan gives an empty
 * map(ety); otherwise the element type is resolved from the plan
 * (unification for dynamic), each attribute converted in name order by
 * the plan for its name (none for a name the plan lacks), the results
 * unified again when the element type is a collection or object type, and
 * they must end with one type. */
static const tfx_value *convert_object_to_map(tfx_ctx *ctx, const tfx_value *v,
                                              const tfx_type *ot, const tfx_type *ety,
                                              bool unsafe, const char **err)
{
    size_t n = v->as.attrs.n;
    const tfx_value **items;

    if (ot->n == 0)
        return tfx_value_map(ctx, tfx_type_without_optional(ctx, ety), NULL, NULL, 0);
    ety = object_map_elem(ctx, ot, ety, unsafe);
    if (ety == NULL) {
        *err = mismatch(ctx, ot, tfx_type_map(ctx, &tfx_type_dynamic));
        return NULL; /* not reached: the conversion was looked up first */
    }
    items = new_values(ctx, n);
    for (size_t i = 0; i < n; i++) {
        tfx_str name = v->as.attrs.keys[i];
        long j = tfx_type_attr_index(ot, name.s, name.nbytes);

        items[i] = v->as.attrs.vals[i];
        if (j >= 0 && !convert_item(ctx, &items[i], ot->elems[j], ety, unsafe, err))
            return NULL;
    }
    if (tfx_type_is_collection(ety) || ety->kind == TFX_TYPE_OBJECT)
        if (!unify_items(ctx, items, n, unsafe, err))
            return NULL;
    return make_map(ctx, v->as.attrs.keys, items, n, ety,
                    "attribute types must all match for conversion to map", err);
}

/* ---- Objects [conv.object.*] [conv.map.object] (semantics C13, C14) ---- */

/* [conv.object.object] [conv.object.optional] [conv.plan] (semantics C13,
 * C16) A known object to an object type, planned for the object type
 * `in`: the attributes both `out` and the plan name are converted in name
 * order (first failure wins) and null ones renewed; the others are
 * dropped, in both modes; an absent optional attribute is a null of its
 * type without optional markers.  (An attribute the plan expects but the
 * value lacks is simply absent from the result, as in cty.) */
static const tfx_value *convert_object_to_object(tfx_ctx *ctx, const tfx_value *v,
                                                 const tfx_type *in, const tfx_type *out,
                                                 bool unsafe, const char **err)
{
    const tfx_value **items = new_values(ctx, out->n);
    const tfx_value **vals = new_values(ctx, out->n);
    tfx_str *names = tfx_ctx_alloc_array(ctx, out->n > 0 ? out->n : 1, sizeof(tfx_str));
    size_t m = 0;

    for (size_t i = 0; i < v->as.attrs.n; i++) {
        tfx_str name = v->as.attrs.keys[i];
        long j = tfx_type_attr_index(out, name.s, name.nbytes);
        long pj = tfx_type_attr_index(in, name.s, name.nbytes);
        const tfx_value *e = v->as.attrs.vals[i];

        if (j < 0 || pj < 0)
            continue; /* an extra attribute is dropped */
        if (!convert_item(ctx, &e, in->elems[pj], out->elems[j], unsafe, err))
            return NULL;
        items[j] = renew_null(ctx, e);
    }
    for (size_t j = 0; j < out->n; j++) {
        if (items[j] == NULL && tfx_type_attr_optional(out, j))
            items[j] = tfx_value_null(ctx, tfx_type_without_optional(ctx, out->elems[j]));
        if (items[j] == NULL)
            continue;
        names[m] = out->names[j];
        vals[m++] = items[j];
    }
    return tfx_value_object(ctx, names, vals, m);
}

/* [conv.map.object] [conv.object.optional] [conv.plan] (semantics C14,
 * C16) A known map (or, planned as one, an object) to an object type,
 * planned for the map type `plan`: the keys `out` names are converted in
 * key order (first failure wins; a key of an optional attribute the
 * element type does not convert to fails), null ones renewed, the others
 * dropped; then an absent optional attribute is a null of its type
 * (markers kept, as cty does) and an absent required one fails (the first
 * in name order; cty takes one in random order). */
static const tfx_value *convert_map_to_object(tfx_ctx *ctx, const tfx_value *v,
                                              const tfx_type *plan, const tfx_type *out,
                                              bool unsafe, const char **err)
{
    const tfx_value **items = new_values(ctx, out->n);

    for (size_t i = 0; i < v->as.attrs.n; i++) {
        tfx_str key = v->as.attrs.keys[i];
        long j = tfx_type_attr_index(out, key.s, key.nbytes);
        const tfx_value *e = v->as.attrs.vals[i];

        if (j < 0)
            continue; /* a key out does not name is dropped */
        if (!tfx_type_equal(plan->elem, out->elems[j]) &&
            !conv_exists(ctx, plan->elem, out->elems[j], unsafe)) {
            *err = tfx_ctx_printf(ctx, "map element type is incompatible with attribute %s: %s",
                                  tfx_textbuf_quoted(ctx, key.s, key.nbytes),
                                  mismatch(ctx, e->type, out->elems[j]));
            return NULL;
        }
        if (!convert_item(ctx, &e, plan->elem, out->elems[j], unsafe, err))
            return NULL;
        items[j] = renew_null(ctx, e);
    }
    for (size_t j = 0; j < out->n; j++) {
        if (items[j] == NULL && tfx_type_attr_optional(out, j)) {
            items[j] = tfx_value_null(ctx, out->elems[j]);
        } else if (items[j] == NULL) {
            *err = tfx_ctx_printf(
                ctx, "map has no element for required attribute %s",
                tfx_textbuf_quoted(ctx, out->names[j].s, out->names[j].nbytes));
            return NULL;
        }
    }
    return tfx_value_object(ctx, out->names, items, out->n);
}

/* ---- The dispatcher ---- */

/* [conv.apply] step 4 [conv.plan]: the conversion of a known, unmarked
 * value to `out`, for which a conversion from the type `in` exists, by the
 * pair of kinds of `in` and `out` (cty's getConversionKnown, in its
 * order).  `in` is the value's own type, except inside the conversion
 * unification hands back ([unify.list-tuple], [unify.map-object]), where
 * cty applies the conversion planned for the unified list or map type to
 * the tuple or object itself, and its element conversions to elements
 * whose own types differ from the plan's.  A value of type dynamic is null
 * or unknown [value.dynamic] and was dealt with before, so cty's
 * conversion from dynamic (dynamicFixup) has nothing to do. */
static const tfx_value *convert_known(tfx_ctx *ctx, const tfx_value *v, const tfx_type *in,
                                      const tfx_type *out, bool unsafe, const char **err)
{
    if (tfx_type_is_primitive(in) && tfx_type_is_primitive(out))
        return convert_primitive(ctx, v, out, err);
    switch (out->kind) {
    case TFX_TYPE_OBJECT:
        if (in->kind == TFX_TYPE_OBJECT)
            return convert_object_to_object(ctx, v, in, out, unsafe, err);
        if (in->kind == TFX_TYPE_MAP)
            return convert_map_to_object(ctx, v, in, out, unsafe, err);
        break;
    case TFX_TYPE_TUPLE:
        if (in->kind == TFX_TYPE_TUPLE)
            return convert_tuple_to_tuple(ctx, v, in, out, unsafe, err);
        break;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
        if (is_seq(in))
            return convert_seq_to_seq(ctx, v, in, out->kind, out->elem, unsafe, err);
        if (in->kind == TFX_TYPE_TUPLE)
            return out->kind == TFX_TYPE_LIST
                       ? convert_tuple_to_list(ctx, v, in, out->elem, unsafe, err)
                       : convert_tuple_to_set(ctx, v, in, out->elem, unsafe, err);
        break;
    case TFX_TYPE_MAP:
        if (in->kind == TFX_TYPE_MAP)
            return convert_map_to_map(ctx, v, in, out->elem, unsafe, err);
        if (in->kind == TFX_TYPE_OBJECT)
            return convert_object_to_map(ctx, v, in, out->elem, unsafe, err);
        break;
    default:
        break;
    }
    *err = mismatch(ctx, in, out); /* not reached: the conversion was looked up first */
    return NULL;
}

/* Whether a conversion planned for type `plan` can be applied to a value
 * of type `actual`: the same storage (elements, or attributes), and for a
 * tuple plan the same number of elements.  Inside the conversions that
 * unification hands back this always holds (a value of another shape
 * would not have unified); elsewhere plan is the value's own type. */
static bool plan_fits(const tfx_type *plan, const tfx_type *actual)
{
    switch (plan->kind) {
    case TFX_TYPE_DYNAMIC:
        return false;
    case TFX_TYPE_TUPLE:
        return actual->kind == TFX_TYPE_TUPLE && actual->n == plan->n;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
        return is_seq(actual) || actual->kind == TFX_TYPE_TUPLE;
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT:
        return actual->kind == TFX_TYPE_MAP || actual->kind == TFX_TYPE_OBJECT;
    default:
        return tfx_type_is_primitive(actual);
    }
}

/* [conv.apply] [conv.marks] [conv.dynamic] [conv.null] [conv.unknown]
 * [conv.plan] (semantics C5, C6, C7, C17) cty's wrapper around every
 * conversion: the value's own marks are set aside and put back on the
 * result; to dynamic the value is unchanged; a null or unknown becomes a
 * null or unknown of the target type with its dynamic parts filled in from
 * its own type; anything else takes the conversion planned for `plan`
 * (NULL or dynamic: the value's own type). */
static const tfx_value *apply_conversion(tfx_ctx *ctx, const tfx_value *v, const tfx_type *plan,
                                         const tfx_type *out, bool unsafe, const char **err)
{
    const tfx_value *r;

    tfx_ctx_step(ctx);
    if (v->marks != NULL) {
        const tfx_marks *marks = NULL;

        r = apply_conversion(ctx, tfx_value_unmark(ctx, v, &marks), plan, out, unsafe, err);
        return r == NULL ? NULL : tfx_value_mark(ctx, r, marks);
    }
    if (is_dynamic(out))
        return v;
    /* [conv.object.optional] nulls and unknowns take no optional markers */
    if (tfx_value_is_unknown(v)) {
        r = tfx_value_unknown(ctx, dynamic_replace(ctx, v->type,
                                                   tfx_type_without_optional(ctx, out)));
        /* [refine.convert] profile PN: the same type keeps the value, its
         * refinements with it; another keeps what the conversion allows,
         * a target with dynamic parts too (cty converts set(number) to
         * set(dynamic): a length lower bound above 1 becomes 1) */
        if (ctx->pn && tfx_type_equal(v->type, out))
            return v;
        return ctx->pn ? tfx_refine_convert_unknown(ctx, v, r) : r;
    }
    if (tfx_value_is_null(v))
        return tfx_value_null(ctx, dynamic_replace(ctx, v->type,
                                                   tfx_type_without_optional(ctx, out)));
    if (plan == NULL || !plan_fits(plan, v->type))
        plan = v->type;
    descend(ctx);
    r = convert_known(ctx, v, plan, out, unsafe, err);
    ascend(ctx);
    return r;
}

static const tfx_value *convert_value(tfx_ctx *ctx, const tfx_value *v, const tfx_type *out,
                                      bool unsafe, const char **err)
{
    return apply_conversion(ctx, v, NULL, out, unsafe, err);
}

/* =====================================================================
 * Unification [unify.*] (semantics C18, C19)
 * ================================================================== */

/* [unify.rank] cty's compareTypes: < 0 when a is more general than b
 * (preferred as the result), > 0 when b is, 0 when neither. */
static int compare_types(tfx_ctx *ctx, const tfx_type *a, const tfx_type *b)
{
    int swap = 1;
    int result = 0;

    tfx_ctx_step(ctx);
    /* dynamic is the least general of all */
    if (is_dynamic(a) || is_dynamic(b)) {
        if (!is_dynamic(a))
            return -1;
        if (!is_dynamic(b))
            return 1;
        return 0;
    }
    /* string is more general than the other primitive types */
    if (tfx_type_is_primitive(a) && tfx_type_is_primitive(b) &&
        (a->kind == TFX_TYPE_STRING || b->kind == TFX_TYPE_STRING)) {
        if (a->kind != TFX_TYPE_STRING)
            return 1;
        if (b->kind != TFX_TYPE_STRING)
            return -1;
        return 0;
    }
    /* collections of one kind: by their element types */
    if (tfx_type_is_collection(a) && a->kind == b->kind) {
        descend(ctx);
        result = compare_types(ctx, a->elem, b->elem);
        ascend(ctx);
        return result;
    }
    /* put the pairs below in one orientation, remembering the swap */
    if ((a->kind == TFX_TYPE_TUPLE && b->kind == TFX_TYPE_LIST) ||
        (a->kind == TFX_TYPE_OBJECT && b->kind == TFX_TYPE_MAP) ||
        (a->kind == TFX_TYPE_SET && b->kind == TFX_TYPE_TUPLE) ||
        (a->kind == TFX_TYPE_SET && b->kind == TFX_TYPE_LIST)) {
        const tfx_type *t = a;

        a = b;
        b = t;
        swap = -1;
    }
    /* a list or tuple is more general than a set, a list than a tuple, a
     * map than an object */
    if (b->kind == TFX_TYPE_SET && (a->kind == TFX_TYPE_TUPLE || a->kind == TFX_TYPE_LIST))
        return -swap;
    if (a->kind == TFX_TYPE_LIST && b->kind == TFX_TYPE_TUPLE)
        return -swap;
    if (a->kind == TFX_TYPE_MAP && b->kind == TFX_TYPE_OBJECT)
        return -swap;
    /* objects with the same names, tuples of the same length: by their
     * parts, when all the differences point one way */
    if ((a->kind == TFX_TYPE_OBJECT && b->kind == TFX_TYPE_OBJECT) ||
        (a->kind == TFX_TYPE_TUPLE && b->kind == TFX_TYPE_TUPLE)) {
        bool a_super = false;
        bool b_super = false;

        if (a->n != b->n)
            return 0;
        descend(ctx);
        for (size_t i = 0; i < a->n; i++) {
            const tfx_type *bt = b->elems[i];
            int c;

            if (a->kind == TFX_TYPE_OBJECT) {
                long j = tfx_type_attr_index(b, a->names[i].s, a->names[i].nbytes);

                if (j < 0) {
                    ascend(ctx);
                    return 0;
                }
                bt = b->elems[j];
            }
            c = compare_types(ctx, a->elems[i], bt);
            if (c < 0)
                a_super = true;
            else if (c > 0)
                b_super = true;
        }
        ascend(ctx);
        if (a_super && !b_super)
            result = -swap;
        else if (b_super && !a_super)
            result = swap;
        return result;
    }
    return 0;
}

/* A growable list of node indices, for sort_types. */
typedef struct {
    size_t *at;
    size_t n;
    size_t cap;
} index_list;

static void index_list_add(tfx_ctx *ctx, index_list *l, size_t i)
{
    if (l->n == l->cap) {
        size_t cap = l->cap == 0 ? 4 : l->cap * 2;
        size_t *at = tfx_ctx_alloc_array(ctx, cap, sizeof(size_t));

        if (l->n > 0)
            memcpy(at, l->at, l->n * sizeof(size_t));
        l->at = at;
        l->cap = cap;
    }
    l->at[l->n++] = i;
}

/* [unify.rank] cty's sortTypes: the order in which the types are tried
 * as candidates.  Edges run from the more general type of a pair to the
 * other (pairs compared in the order i < j); the order is the
 * breadth-first topological order that starts from the types with no
 * edge into them, in list order.  Places a cycle leaves unfilled hold 0,
 * as cty's zeroed result does. */
static size_t *sort_types(tfx_ctx *ctx, const tfx_type *const *types, size_t n)
{
    index_list *edges = tfx_ctx_alloc_array(ctx, n, sizeof(index_list));
    size_t *in_degree = tfx_ctx_alloc_array(ctx, n, sizeof(size_t));
    size_t *order = tfx_ctx_alloc_array(ctx, n, sizeof(size_t));
    size_t head = 0;
    size_t tail = 0;

    for (size_t i = 0; i + 1 < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            int c = compare_types(ctx, types[i], types[j]);

            if (c < 0)
                index_list_add(ctx, &edges[i], j);
            else if (c > 0)
                index_list_add(ctx, &edges[j], i);
        }
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < edges[i].n; k++)
            in_degree[edges[i].at[k]]++;
    for (size_t i = 0; i < n; i++)
        if (in_degree[i] == 0)
            order[tail++] = i;
    while (head < tail) {
        size_t i = order[head++];

        for (size_t k = 0; k < edges[i].n; k++) {
            size_t j = edges[i].at[k];

            if (--in_degree[j] == 0)
                order[tail++] = j;
        }
    }
    return order;
}

/* [unify.prefer] The first candidate, in the order of sort_types, to
 * which every other type is equal or converts. */
static const tfx_type *unify_by_preference(tfx_ctx *ctx, const tfx_type *const *types,
                                           size_t n, bool unsafe)
{
    size_t *order = sort_types(ctx, types, n);

    for (size_t k = 0; k < n; k++) {
        const tfx_type *want = types[order[k]];
        bool all = true;

        for (size_t i = 0; all && i < n; i++)
            if (i != order[k] && !tfx_type_equal(types[i], want))
                all = conv_exists(ctx, types[i], want, unsafe);
        if (all)
            return want;
    }
    return NULL;
}

/* Whether each of types[0..n) equals or converts to `to`. */
static bool all_convert(tfx_ctx *ctx, const tfx_type *const *types, size_t n,
                        const tfx_type *to, bool unsafe)
{
    for (size_t i = 0; i < n; i++)
        if (!tfx_type_equal(types[i], to) && !conv_exists(ctx, types[i], to, unsafe))
            return false;
    return true;
}

/* [unify.collection] [unify.dynamic] Collections of one kind, perhaps
 * with dynamic: with a dynamic, the result is dynamic and every value
 * converts to unknown(dynamic); else the collection of the unified
 * element types, to which each must convert. */
static const tfx_type *unify_collections(tfx_ctx *ctx, tfx_type_kind kind,
                                         const tfx_type *const *types, size_t n, bool unsafe,
                                         bool has_dynamic, bool *all_dynamic)
{
    const tfx_type **elems;
    const tfx_type *e;
    const tfx_type *result;
    bool ignored;

    if (has_dynamic) {
        *all_dynamic = true;
        return &tfx_type_dynamic;
    }
    elems = new_types(ctx, n);
    for (size_t i = 0; i < n; i++)
        elems[i] = types[i]->elem;
    descend(ctx);
    e = unify(ctx, elems, n, unsafe, &ignored);
    ascend(ctx);
    if (e == NULL)
        return NULL;
    result = tfx_type_collection(ctx, kind, e);
    return all_convert(ctx, types, n, result, unsafe) ? result : NULL;
}

/* [unify.object-map] All attribute types of all the objects (object by
 * object, names in byte order; cty's order within an object is random)
 * unified into E; the result map(E), to which each object must convert. */
static const tfx_type *unify_objects_to_map(tfx_ctx *ctx, const tfx_type *const *types,
                                            size_t n, bool unsafe)
{
    size_t count = 0;
    size_t k = 0;
    const tfx_type **attrs;
    const tfx_type *e;
    const tfx_type *result;
    bool ignored;

    for (size_t i = 0; i < n; i++)
        count += types[i]->n;
    attrs = new_types(ctx, count);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < types[i]->n; j++)
            attrs[k++] = types[i]->elems[j];
    descend(ctx);
    e = unify(ctx, attrs, count, unsafe, &ignored);
    ascend(ctx);
    if (e == NULL)
        return NULL;
    result = tfx_type_map(ctx, e);
    return all_convert(ctx, types, n, result, unsafe) ? result : NULL;
}

/* [unify.tuple-list] All element types of all the tuples, in order,
 * unified into E; the result list(E), to which each tuple must convert. */
static const tfx_type *unify_tuples_to_list(tfx_ctx *ctx, const tfx_type *const *types,
                                            size_t n, bool unsafe)
{
    size_t count = 0;
    size_t k = 0;
    const tfx_type **elems;
    const tfx_type *e;
    const tfx_type *result;
    bool ignored;

    for (size_t i = 0; i < n; i++)
        count += types[i]->n;
    elems = new_types(ctx, count);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < types[i]->n; j++)
            elems[k++] = types[i]->elems[j];
    descend(ctx);
    e = unify(ctx, elems, count, unsafe, &ignored);
    ascend(ctx);
    if (e == NULL)
        return NULL;
    result = tfx_type_list(ctx, e);
    return all_convert(ctx, types, n, result, unsafe) ? result : NULL;
}

/* [unify.object] [unify.tuple] [unify.dynamic] Objects (or tuples) only,
 * perhaps with dynamic: with a dynamic, dynamic (all values unknown);
 * when all have the same attribute names (tuples: the same length), the
 * object (tuple) of the unified attribute (element) types, falling back
 * on the map (list) rule if some type does not convert to it; when the
 * names (lengths) differ, the map (list) rule.  An attribute (position)
 * with no unification means none at all. */
static const tfx_type *unify_structurals(tfx_ctx *ctx, tfx_type_kind kind,
                                         const tfx_type *const *types, size_t n, bool unsafe,
                                         bool has_dynamic, bool *all_dynamic)
{
    const tfx_type *first = types[0];
    const tfx_type **parts;
    const tfx_type **across;
    const tfx_type *result;
    bool same = true;

    if (has_dynamic) {
        *all_dynamic = true;
        return &tfx_type_dynamic;
    }
    for (size_t i = 1; same && i < n; i++) {
        same = types[i]->n == first->n;
        /* objects: the same names too (both lists are sorted) */
        for (size_t j = 0; same && kind == TFX_TYPE_OBJECT && j < first->n; j++)
            same = tfx_str_cmp(types[i]->names[j], first->names[j]) == 0;
    }
    if (!same)
        return kind == TFX_TYPE_OBJECT ? unify_objects_to_map(ctx, types, n, unsafe)
                                       : unify_tuples_to_list(ctx, types, n, unsafe);
    parts = new_types(ctx, first->n);
    across = new_types(ctx, n);
    descend(ctx);
    for (size_t j = 0; j < first->n; j++) {
        bool ignored;

        for (size_t i = 0; i < n; i++)
            across[i] = types[i]->elems[j];
        parts[j] = unify(ctx, across, n, unsafe, &ignored);
        if (parts[j] == NULL) {
            ascend(ctx);
            return NULL;
        }
    }
    ascend(ctx);
    result = kind == TFX_TYPE_OBJECT ? tfx_type_object(ctx, first->names, parts, first->n)
                                     : tfx_type_tuple(ctx, parts, first->n);
    if (all_convert(ctx, types, n, result, unsafe))
        return result;
    return kind == TFX_TYPE_OBJECT ? unify_objects_to_map(ctx, types, n, unsafe)
                                   : unify_tuples_to_list(ctx, types, n, unsafe);
}

/* [unify.map-object] [unify.list-tuple] Maps mixed with objects (lists
 * with tuples), perhaps with dynamic: the objects (tuples) alone are
 * unified to a map (list); each is replaced by it and the list unified
 * again; the result counts only if it is a map (list). */
static const tfx_type *unify_mixed(tfx_ctx *ctx, tfx_type_kind kind,
                                   const tfx_type *const *types, size_t n, bool unsafe,
                                   const tfx_type **via)
{
    tfx_type_kind part = kind == TFX_TYPE_MAP ? TFX_TYPE_OBJECT : TFX_TYPE_TUPLE;
    const tfx_type **parts = new_types(ctx, n);
    const tfx_type **replaced = new_types(ctx, n);
    const tfx_type *whole;
    const tfx_type *result;
    size_t m = 0;
    bool ignored;

    for (size_t i = 0; i < n; i++)
        if (types[i]->kind == part)
            parts[m++] = types[i];
    whole = kind == TFX_TYPE_MAP ? unify_objects_to_map(ctx, parts, m, unsafe)
                                 : unify_tuples_to_list(ctx, parts, m, unsafe);
    if (whole == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        replaced[i] = types[i]->kind == part ? whole : types[i];
    result = unify(ctx, replaced, n, unsafe, &ignored);
    if (result == NULL || result->kind != kind)
        return NULL;
    /* cty's conversion of such an object (tuple), when the map (list)
     * still has to convert, goes through it: see tfx_unify_convert */
    for (size_t i = 0; via != NULL && i < n; i++)
        if (types[i]->kind == part && !tfx_type_equal(whole, result))
            via[i] = whole;
    return result;
}

/* Whether types[0..n) are all equal. */
static bool all_equal(const tfx_type *const *types, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (!tfx_type_equal(types[0], types[i]))
            return false;
    return true;
}

/* [unify.def] [unify.kinds] cty's unify: the common type of
 * types[0..n), or NULL.  *all_dynamic is set when the result is the
 * dynamic of [unify.dynamic], whose conversions give unknown(dynamic).
 * via (NULL, or n entries set to NULL by the caller) gets the types that
 * cty's conversions pass through (unify_mixed).
 *
 * The first test is not in cty: when all the types are equal, cty's
 * rules always give that type (by induction over the cases below: the
 * per-part unifications give the parts back and the candidate search
 * takes the first type), without all_dynamic; testing it first keeps
 * a long list of equal types linear instead of quadratic. */
static const tfx_type *unify_via(tfx_ctx *ctx, const tfx_type *const *types, size_t n,
                                 bool unsafe, bool *all_dynamic, const tfx_type **via)
{
    size_t maps = 0, lists = 0, sets = 0, objects = 0, tuples = 0, dyns = 0;

    tfx_ctx_step(ctx);
    *all_dynamic = false;
    if (n == 0)
        return NULL; /* [unify.def] an empty list has no unification */
    if (all_equal(types, n))
        return types[0];
    for (size_t i = 0; i < n; i++) {
        switch (types[i]->kind) {
        case TFX_TYPE_MAP:
            maps++;
            break;
        case TFX_TYPE_LIST:
            lists++;
            break;
        case TFX_TYPE_SET:
            sets++;
            break;
        case TFX_TYPE_OBJECT:
            objects++;
            break;
        case TFX_TYPE_TUPLE:
            tuples++;
            break;
        case TFX_TYPE_DYNAMIC:
            dyns++;
            break;
        default:
            break;
        }
    }
    /* [unify.kinds]: the first case that applies */
    if (maps > 0 && maps + dyns == n)
        return unify_collections(ctx, TFX_TYPE_MAP, types, n, unsafe, dyns > 0, all_dynamic);
    if (maps > 0 && maps + objects + dyns == n) {
        const tfx_type *t = unify_mixed(ctx, TFX_TYPE_MAP, types, n, unsafe, via);

        if (t != NULL)
            return t;
    } else if (lists > 0 && lists + dyns == n) {
        return unify_collections(ctx, TFX_TYPE_LIST, types, n, unsafe, dyns > 0, all_dynamic);
    } else if (lists > 0 && lists + tuples + dyns == n) {
        const tfx_type *t = unify_mixed(ctx, TFX_TYPE_LIST, types, n, unsafe, via);

        if (t != NULL)
            return t;
    } else if (sets > 0 && sets + dyns == n) {
        return unify_collections(ctx, TFX_TYPE_SET, types, n, unsafe, dyns > 0, all_dynamic);
    } else if (objects > 0 && objects + dyns == n) {
        return unify_structurals(ctx, TFX_TYPE_OBJECT, types, n, unsafe, dyns > 0,
                                 all_dynamic);
    } else if (tuples > 0 && tuples + dyns == n) {
        return unify_structurals(ctx, TFX_TYPE_TUPLE, types, n, unsafe, dyns > 0, all_dynamic);
    } else if (objects > 0 && tuples > 0) {
        return NULL; /* objects and tuples never unify */
    }
    return unify_by_preference(ctx, types, n, unsafe);
}

static const tfx_type *unify(tfx_ctx *ctx, const tfx_type *const *types, size_t n,
                             bool unsafe, bool *all_dynamic)
{
    return unify_via(ctx, types, n, unsafe, all_dynamic, NULL);
}

/* =====================================================================
 * Mismatch messages [conv.mismatch] (semantics C4, C13)
 * ================================================================== */

static const char *required(tfx_ctx *ctx, const tfx_type *want)
{
    return tfx_ctx_printf(ctx, "%s required", tfx_type_friendly_constraint(ctx, want));
}

static const char *quoted(tfx_ctx *ctx, tfx_str s)
{
    return tfx_textbuf_quoted(ctx, s.s, s.nbytes);
}

/* [conv.mismatch] case 1: two object types.  Missing attributes first
 * (names sorted); else the first attribute (name order; cty's is random)
 * with no unsafe conversion; else the first with no safe one. */
static const char *mismatch_objects(tfx_ctx *ctx, const tfx_type *got, const tfx_type *want)
{
    const tfx_str **missing = tfx_ctx_alloc_array(ctx, want->n, sizeof(const tfx_str *));
    size_t nmissing = 0;
    const char *unsafe_msg = NULL;
    const char *safe_msg = NULL;
    tfx_textbuf b;

    for (size_t i = 0; i < want->n; i++) {
        long j = tfx_type_attr_index(got, want->names[i].s, want->names[i].nbytes);
        const tfx_type *g;
        const tfx_type *w = want->elems[i];

        if (j < 0) {
            if (!tfx_type_attr_optional(want, i))
                missing[nmissing++] = &want->names[i];
            continue;
        }
        g = got->elems[j];
        if (tfx_type_equal(g, w) || unsafe_msg != NULL)
            continue;
        if (!conv_exists(ctx, g, w, true))
            unsafe_msg = tfx_ctx_printf(ctx, "attribute %s: %s", quoted(ctx, want->names[i]),
                                        mismatch(ctx, g, w));
        if (safe_msg != NULL)
            continue;
        if (!conv_exists(ctx, g, w, false))
            safe_msg = tfx_ctx_printf(ctx, "attribute %s: %s", quoted(ctx, want->names[i]),
                                      mismatch(ctx, g, w));
    }
    if (nmissing == 1)
        return tfx_ctx_printf(ctx, "attribute %s is required", quoted(ctx, *missing[0]));
    if (nmissing == 2)
        return tfx_ctx_printf(ctx, "attributes %s and %s are required",
                              quoted(ctx, *missing[0]), quoted(ctx, *missing[1]));
    if (nmissing > 2) {
        tfx_textbuf_init(&b, ctx);
        tfx_textbuf_puts(&b, "attributes ");
        for (size_t i = 0; i + 1 < nmissing; i++) {
            tfx_textbuf_puts(&b, quoted(ctx, *missing[i]));
            tfx_textbuf_puts(&b, ", ");
        }
        tfx_textbuf_puts(&b, "and ");
        tfx_textbuf_puts(&b, quoted(ctx, *missing[nmissing - 1]));
        tfx_textbuf_puts(&b, " are required");
        return tfx_textbuf_text(&b);
    }
    if (unsafe_msg != NULL)
        return unsafe_msg;
    if (safe_msg != NULL)
        return safe_msg;
    return "incorrect object attributes";
}

/* [conv.mismatch] case 3: a tuple or object to a collection. */
static const char *mismatch_from_structural(tfx_ctx *ctx, const tfx_type *got,
                                            const tfx_type *want)
{
    const tfx_type *wety = want->elem;

    if ((want->kind == TFX_TYPE_LIST || want->kind == TFX_TYPE_SET) &&
        got->kind != TFX_TYPE_TUPLE)
        return required(ctx, want);
    if (want->kind == TFX_TYPE_MAP && got->kind != TFX_TYPE_OBJECT)
        return required(ctx, want);
    for (size_t i = 0; i < got->n; i++) {
        const tfx_type *g = got->elems[i];

        if (tfx_type_equal(g, wety) || conv_exists(ctx, g, wety, true))
            continue;
        if (got->kind == TFX_TYPE_TUPLE)
            return tfx_ctx_printf(ctx, "element %zu: %s", i, mismatch(ctx, g, wety));
        return tfx_ctx_printf(ctx, "element %s: %s", quoted(ctx, got->names[i]),
                              mismatch(ctx, g, wety));
    }
    return tfx_ctx_printf(ctx, "all elements must be %s",
                          tfx_type_friendly_constraint(ctx, wety));
}

/* [conv.mismatch] case 4: a collection to a collection. */
static const char *mismatch_from_collection(tfx_ctx *ctx, const tfx_type *got,
                                            const tfx_type *want)
{
    const char *noun = "map element type";

    if ((want->kind == TFX_TYPE_LIST || want->kind == TFX_TYPE_SET) && !is_seq(got))
        return required(ctx, want);
    if (want->kind == TFX_TYPE_MAP && got->kind != TFX_TYPE_MAP)
        return required(ctx, want);
    if (want->kind == TFX_TYPE_LIST)
        noun = "list element type";
    else if (want->kind == TFX_TYPE_SET)
        noun = "set element type";
    return tfx_ctx_printf(ctx, "incorrect %s: %s", noun, mismatch(ctx, got->elem, want->elem));
}

/* [conv.mismatch.pn] cty 1.16's typesAreLikelyToCauseConfusion, asked
 * before the last case of the message: false where naming both types
 * helps (as cty writes it: a tuple for an object, but not an object for a
 * tuple). */
static bool likely_to_confuse(const tfx_type *got, const tfx_type *want)
{
    if (tfx_type_is_primitive(got) != tfx_type_is_primitive(want))
        return false;
    if (want->kind == TFX_TYPE_STRING)
        return false;
    if ((want->kind == TFX_TYPE_BOOL && got->kind == TFX_TYPE_NUMBER) ||
        (got->kind == TFX_TYPE_BOOL && want->kind == TFX_TYPE_NUMBER))
        return false;
    if (tfx_type_is_collection(got) && tfx_type_is_collection(want) &&
        !tfx_type_has_dynamic(got->elem) && tfx_type_has_dynamic(want->elem))
        return false;
    return !(got->kind == TFX_TYPE_TUPLE && want->kind == TFX_TYPE_OBJECT);
}

/* [conv.mismatch] (semantics C4) cty's MismatchMessage(got, want), P14
 * wording, by the first case that applies ([conv.mismatch.pn]: PN's
 * before the last). */
static const char *mismatch(tfx_ctx *ctx, const tfx_type *got, const tfx_type *want)
{
    const char *msg;
    bool structural = got->kind == TFX_TYPE_TUPLE || got->kind == TFX_TYPE_OBJECT;
    bool any_elem = tfx_type_is_collection(want) && is_dynamic(want->elem);

    descend(ctx);
    if (got->kind == TFX_TYPE_OBJECT && want->kind == TFX_TYPE_OBJECT)
        msg = mismatch_objects(ctx, got, want);
    else if (got->kind == TFX_TYPE_TUPLE && want->kind == TFX_TYPE_LIST && any_elem)
        msg = "all list elements must have the same type";
    else if (got->kind == TFX_TYPE_TUPLE && want->kind == TFX_TYPE_SET && any_elem)
        msg = "all set elements must have the same type";
    else if (got->kind == TFX_TYPE_OBJECT && want->kind == TFX_TYPE_MAP && any_elem)
        msg = "all map elements must have the same type";
    else if (structural && tfx_type_is_collection(want))
        msg = mismatch_from_structural(ctx, got, want);
    else if (tfx_type_is_collection(got) && tfx_type_is_collection(want))
        msg = mismatch_from_collection(ctx, got, want);
    else if (ctx->pn && !likely_to_confuse(got, want))
        msg = tfx_ctx_printf(ctx, "%s required, but have %s", tfx_type_friendly(ctx, want),
                             tfx_type_friendly(ctx, got));
    else
        msg = required(ctx, want);
    ascend(ctx);
    return msg;
}

/* =====================================================================
 * The interface
 * ================================================================== */

typedef struct {
    const tfx_type *from;
    const tfx_type *want;
    bool unsafe;
    bool result;
} possible_job;

static void run_possible(tfx_ctx *ctx, void *arg)
{
    possible_job *job = arg;

    job->result = conv_exists(ctx, job->from, job->want, job->unsafe);
}

bool tfx_convert_possible(const tfx_type *from, const tfx_type *want, tfx_convert_mode mode)
{
    possible_job job = {from, want, mode == TFX_CONVERT_UNSAFE, false};
    tfx_ctx ctx;
    bool ok;

    if (!tfx_ctx_init(&ctx, NULL))
        return false;
    ok = tfx_ctx_try(&ctx, run_possible, &job);
    tfx_ctx_free(&ctx);
    return ok && job.result;
}

bool tfx_convert_possible_in(tfx_ctx *ctx, const tfx_type *from, const tfx_type *want,
                             tfx_convert_mode mode)
{
    return conv_exists(ctx, from, want, mode == TFX_CONVERT_UNSAFE);
}

/* [conv.def] (semantics C1) cty's Convert (unsafe) or the same with
 * GetConversion (safe): a value of the wanted type unchanged; else the
 * conversion looked up, the mismatch message when there is none, and
 * else the conversion applied. */
const tfx_value *tfx_convert(tfx_ctx *ctx, const tfx_value *v, const tfx_type *want,
                             tfx_convert_mode mode, const char **error)
{
    bool unsafe = mode == TFX_CONVERT_UNSAFE;
    const char *err = NULL;
    const tfx_value *r;

    if (error != NULL)
        *error = NULL;
    if (tfx_type_equal(v->type, tfx_type_without_optional(ctx, want)))
        return v;
    if (!conv_exists(ctx, v->type, want, unsafe)) {
        if (error != NULL)
            *error = mismatch(ctx, v->type, want);
        return NULL;
    }
    r = convert_value(ctx, v, want, unsafe, &err);
    if (r == NULL && error != NULL)
        *error = err != NULL ? err : "conversion failed";
    return r;
}

/* [unify.def] cty's Unify / UnifyUnsafe. */
const tfx_type *tfx_unify(tfx_ctx *ctx, const tfx_type *const *types, size_t n,
                          tfx_convert_mode mode, bool *all_unknown)
{
    tfx_unification u;

    tfx_unify_plan(ctx, types, n, mode, &u);
    if (all_unknown != NULL)
        *all_unknown = u.all_unknown;
    return u.type;
}

/* [unify.def] [unify.dynamic] [unify.list-tuple] [unify.map-object] */
const tfx_type *tfx_unify_plan(tfx_ctx *ctx, const tfx_type *const *types, size_t n,
                               tfx_convert_mode mode, tfx_unification *out)
{
    bool all_dynamic = false;
    const tfx_type **via = new_types(ctx, n);

    out->mode = mode;
    out->n = n;
    out->via = via;
    out->type = unify_via(ctx, types, n, mode == TFX_CONVERT_UNSAFE, &all_dynamic, via);
    out->all_unknown = out->type != NULL && all_dynamic;
    return out->type;
}

/* [unify.def] [unify.dynamic] The conversion cty's unification hands back
 * for types[i], applied to v: unknown(dynamic) for [unify.dynamic]; for a
 * tuple (object) unified with lists (maps) whose list (map) type still
 * converts, cty's composed conversion (checked as a conversion to that
 * type first, then the conversion planned for the list or map type, [conv.plan]); else
 * the plain conversion. */
const tfx_value *tfx_unify_convert(tfx_ctx *ctx, const tfx_unification *u, size_t i,
                                   const tfx_value *v, const char **error)
{
    bool unsafe = u->mode == TFX_CONVERT_UNSAFE;
    const tfx_type *via = i < u->n ? u->via[i] : NULL;
    const char *err = NULL;
    const tfx_value *r;

    if (error != NULL)
        *error = NULL;
    if (u->type == NULL) {
        if (error != NULL)
            *error = "no common type";
        return NULL;
    }
    if (u->all_unknown)
        return &tfx_value_dynamic_unknown;
    if (via == NULL || tfx_type_equal(v->type, u->type))
        return tfx_convert(ctx, v, u->type, u->mode, error);
    if (tfx_convert(ctx, v, via, u->mode, error) == NULL)
        return NULL;
    r = apply_conversion(ctx, v, via, u->type, unsafe, &err);
    if (r == NULL && error != NULL)
        *error = err != NULL ? err : "conversion failed";
    return r;
}

/* [conv.mismatch] */
const char *tfx_convert_mismatch(tfx_ctx *ctx, const tfx_type *got, const tfx_type *want)
{
    return mismatch(ctx, got, want);
}
