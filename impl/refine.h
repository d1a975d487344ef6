/* SPDX-License-Identifier: MPL-2.0 */
/*
 * refine.h — refinements of unknown values, profile PN (cty 1.13 and
 * later; spec/refinements.md, rules refine.*).
 *
 * An unknown value may know more than its type: that it is not null, the
 * prefix of the string it will be, bounds of the number, bounds of the
 * collection's length.  A refinement hangs off the unknown value
 * (tfx_value.as.refine, NULL for none), so unrefined unknowns, and every
 * value of profile P14, stay as small as before.  Nothing here is used
 * under P14: its cty 1.12.1 has no refinements.
 */
#ifndef TFX_REFINE_H
#define TFX_REFINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "func.h"
#include "value.h"

/* No upper limit of a collection's length (cty's math.MaxInt). */
#define TFX_REFINE_NO_MAX INT64_MAX

/* What is known of an unknown value [refine.kinds]. */
struct tfx_refinement {
    bool not_null;
    bool lower_inclusive;       /* NUMBER */
    bool upper_inclusive;
    tfx_str prefix;             /* STRING: NFC; nbytes 0: none */
    const tfx_num *lower;       /* NUMBER: NULL: unbounded */
    const tfx_num *upper;
    int64_t len_lower;          /* LIST, SET, MAP: 0 when unconstrained */
    int64_t len_upper;          /* TFX_REFINE_NO_MAX when unconstrained */
};

/* A refinement that says nothing. */
void tfx_refinement_init(tfx_refinement *r);
/* Whether r says nothing (then no refinement is kept). */
bool tfx_refinement_empty(const tfx_refinement *r);

/* A copy of r (and its prefix and bounds) in another ctx. */
const tfx_refinement *tfx_refinement_copy(tfx_ctx *dst, const tfx_refinement *r);

/* [refine.value] The refinement of v: of an unknown value of a type that
 * can be refined, NULL when there is none (known, null, unrefined). */
const tfx_refinement *tfx_value_refinement(const tfx_value *v);

/* [refine.build] cty's RefinementBuilder: v (keeping its top-level marks)
 * with `add` put together with what v already knows, the tighter bound
 * of each pair kept; then [refine.collapse] the known value the result
 * pins down, if any.  A known or dynamic-typed v, or one whose type
 * cannot take a member of `add`, is returned as it is (cty ignores a
 * DynamicVal and panics on the rest, which no caller here does). */
const tfx_value *tfx_value_refine(tfx_ctx *ctx, const tfx_value *v, const tfx_refinement *add);
/* The same with not_null only (cty's RefineNotNull). */
const tfx_value *tfx_value_refine_not_null(tfx_ctx *ctx, const tfx_value *v);

/* [refine.range] cty's Value.Range(): whether v (unmarked) is certainly
 * not null — a known non-null value, or an unknown refined not_null. */
bool tfx_refine_definitely_not_null(const tfx_value *v);

/* [refine.prefix.safe] cty's ctystrings.SafeKnownPrefix: the bytes of
 * s[0..n) (NFC) that later text cannot change by combining with them. */
size_t tfx_refine_safe_prefix(const char *s, size_t n);

/* [refine.eq] The part of cty 1.18's Value.Equals that refinements
 * decide: TFX_TRI_FALSE when one of a and b (both unmarked) is null and
 * the other certainly not, or one is known and outside the range of the
 * other, unknown one; TFX_TRI_UNKNOWN when refinements decide nothing. */
tfx_tri tfx_refine_equals(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b);

/* [refine.call] Profile PN's function calls: the comparison operators
 * decided by the number bounds of unknown operands (NULL when an
 * operand is unknown and the bounds decide nothing, or none is unknown:
 * the call goes on), called before the machinery's early unknown. */
const tfx_value *tfx_refine_call_decide(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_value *const *args, size_t nargs);
/* [refine.call.result] The refinement cty's RefineResult (and the
 * implementation, for length and strlen) gives fn's unknown result. */
const tfx_value *tfx_refine_call_result(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_value *const *args, size_t nargs,
                                        const tfx_value *result);

/* [refine.cond] The unknown result of a conditional whose condition is
 * unknown, from its two results a and b (unmarked, of type rt). */
const tfx_value *tfx_refine_conditional(tfx_ctx *ctx, const tfx_type *rt, const tfx_value *a,
                                        const tfx_value *b);

/* [refine.convert] The unknown result of converting the unknown v
 * (unmarked) to a type other than its own: `plain`, the unknown of the
 * target type, refined with what the conversion keeps. */
const tfx_value *tfx_refine_convert_unknown(tfx_ctx *ctx, const tfx_value *v,
                                            const tfx_value *plain);

/* [refine.fn.jsondecode] The type of jsondecode of the unknown string
 * str (unmarked): decided by the first character of its known prefix
 * after white space; NULL with *err set when no JSON text starts so. */
const tfx_type *tfx_refine_jsondecode_type(tfx_ctx *ctx, const tfx_value *str,
                                           tfx_func_error *err);

/* [refine.length] cty's Value.Length of an unknown collection v
 * (unmarked): an unknown number, not null, within v's length bounds. */
const tfx_value *tfx_refine_length(tfx_ctx *ctx, const tfx_value *v);

#endif /* TFX_REFINE_H */
