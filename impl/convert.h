/* SPDX-License-Identifier: MPL-2.0 */
/*
 * convert.h — cty's type conversion and unification (spec/conversion.md,
 * rules conv.*, unify.*).
 *
 * Results live in the ctx's arena.  Failures are not diagnostics: the
 * caller gets cty's message ("a number is required", "attribute \"c\" is
 * required", ...) and words the diagnostic itself.  The functions that
 * take a ctx count steps and depth against its limits and may fail
 * through tfx_ctx_fail (call them inside tfx_ctx_try).
 */
#ifndef TFX_CONVERT_H
#define TFX_CONVERT_H

#include <stdbool.h>

#include "ctx.h"
#include "type.h"
#include "value.h"

typedef enum {
    TFX_CONVERT_SAFE,     /* cty's convert.GetConversion */
    TFX_CONVERT_UNSAFE    /* cty's convert.GetConversionUnsafe: what HCL uses */
} tfx_convert_mode;

/* Whether some value of type `from` may convert to `want` (cty's
 * GetConversion(Unsafe) != nil).  As in cty, a type need not convert to
 * itself: false for equal primitive types and for maps of them (cty's
 * Convert returns a value of the wanted type before looking a conversion
 * up, and so does tfx_convert); check tfx_type_equal first.  Works in a
 * temporary ctx of default limits (false if it runs out). */
bool tfx_convert_possible(const tfx_type *from, const tfx_type *want, tfx_convert_mode mode);

/* The same in the caller's ctx, so that the evaluation's limits apply
 * (may fail through tfx_ctx_fail). */
bool tfx_convert_possible_in(tfx_ctx *ctx, const tfx_type *from, const tfx_type *want,
                             tfx_convert_mode mode);

/* v converted to `want` (cty's convert.Convert): the result, or NULL with
 * *error set to cty's message (in the arena).  Marks are kept at every
 * depth; a value already of type want is returned as it is. */
const tfx_value *tfx_convert(tfx_ctx *ctx, const tfx_value *v, const tfx_type *want,
                             tfx_convert_mode mode, const char **error);

/* cty's unification of types[0..n) (convert.Unify / UnifyUnsafe): the
 * common type, or NULL if there is none.  When *all_unknown is set on
 * return, every conversion to the result yields an unknown of it (cty
 * returns such conversions when a dynamic type takes part in a collection
 * unification); callers then use tfx_value_unknown instead of
 * tfx_convert. */
const tfx_type *tfx_unify(tfx_ctx *ctx, const tfx_type *const *types, size_t n,
                          tfx_convert_mode mode, bool *all_unknown);

/* cty's unification with the conversions it hands back (what HCL's
 * conditional applies to its results, [cond.unify]).  These are the
 * conversions of each type to the result (tfx_convert), except that every
 * value gives unknown(dynamic) when all_unknown is set, and that a tuple
 * (object) unified with lists (maps) converts through the list (map) type
 * the tuples (objects) unified to, when that type still has to convert
 * ([unify.list-tuple], [unify.map-object]): then null elements lose their
 * marks, as upstream. */
typedef struct {
    const tfx_type *type;          /* the unified type; NULL if none */
    bool all_unknown;              /* as tfx_unify's *all_unknown */
    tfx_convert_mode mode;
    size_t n;                      /* the number of types unified */
    const tfx_type *const *via;    /* via[i]: NULL, or the list or map type the
                                      conversion of types[i] goes through */
} tfx_unification;

/* Unifies types[0..n) as tfx_unify does, describing the result and its
 * conversions in *out (arrays in the arena); returns out->type. */
const tfx_type *tfx_unify_plan(tfx_ctx *ctx, const tfx_type *const *types, size_t n,
                               tfx_convert_mode mode, tfx_unification *out);

/* v, a value of the i-th type given to tfx_unify_plan, converted by the
 * conversion cty's unification hands back for it: the result, or NULL
 * with *error set to cty's message. */
const tfx_value *tfx_unify_convert(tfx_ctx *ctx, const tfx_unification *u, size_t i,
                                   const tfx_value *v, const char **error);

/* cty's MismatchMessage(got, want), P14 wording ("number required",
 * "list of string required", attribute and element paths). */
const char *tfx_convert_mismatch(tfx_ctx *ctx, const tfx_type *got, const tfx_type *want);

#endif /* TFX_CONVERT_H */
