/* SPDX-License-Identifier: MPL-2.0 */
/*
 * type.h — cty's types (spec/values.md, rules type.*).
 *
 * A type is immutable.  The four primitive types and dynamic are static
 * singletons; the others live in the arena of the tfx_ctx that made them
 * (or a longer-lived one).  Compare types with tfx_type_equal, never by
 * pointer.
 */
#ifndef TFX_TYPE_H
#define TFX_TYPE_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"

typedef enum {
    TFX_TYPE_DYNAMIC,   /* cty.DynamicPseudoType: "any" in constraints */
    TFX_TYPE_BOOL,
    TFX_TYPE_NUMBER,
    TFX_TYPE_STRING,
    TFX_TYPE_LIST,
    TFX_TYPE_SET,
    TFX_TYPE_MAP,
    TFX_TYPE_TUPLE,
    TFX_TYPE_OBJECT,
    TFX_TYPE_CAPSULE    /* cty's capsule types [type.capsule]: opaque values
                           of a named type; tfx_type_type is the only one */
} tfx_type_kind;

/* A string of bytes: valid UTF-8 in NFC where the spec says so,
 * NUL-terminated for convenience, nbytes authoritative. */
typedef struct {
    const char *s;
    size_t nbytes;
} tfx_str;

typedef struct tfx_type tfx_type;

struct tfx_type {
    tfx_type_kind kind;
    const tfx_type *elem;          /* LIST, SET, MAP: the element type */
    size_t n;                      /* TUPLE: elements; OBJECT: attributes */
    const tfx_type *const *elems;  /* TUPLE: element types; OBJECT: attribute
                                      types, in the order of names */
    const tfx_str *names;          /* OBJECT: attribute names, distinct, sorted
                                      by bytes (tfx_str_cmp) */
    const bool *optional;          /* OBJECT: NULL, or whether names[i] is an
                                      optional attribute [conv.object.optional];
                                      only type constraints have them */
    const char *name;              /* CAPSULE: the type's name ("type") */
};

extern const tfx_type tfx_type_dynamic;
extern const tfx_type tfx_type_bool;
extern const tfx_type tfx_type_number;
/* The string type (named _str because tfx_type_string is the printer). */
extern const tfx_type tfx_type_str;
/* The capsule type named "type" [type.capsule] [fn.type.value]: the type
 * of a type() result, whose encapsulated value is a tfx_type.  A capsule
 * type equals only itself (compared by address, as cty compares its
 * capsule types). */
extern const tfx_type tfx_type_type;

/* Byte-wise comparison of strings (a prefix sorts first): <0, 0, >0. */
int tfx_str_cmp(tfx_str a, tfx_str b);
bool tfx_str_eq(tfx_str a, const char *s, size_t nbytes);

const tfx_type *tfx_type_list(tfx_ctx *ctx, const tfx_type *elem);
const tfx_type *tfx_type_set(tfx_ctx *ctx, const tfx_type *elem);
const tfx_type *tfx_type_map(tfx_ctx *ctx, const tfx_type *elem);
/* A collection type of `kind` (LIST, SET or MAP). */
const tfx_type *tfx_type_collection(tfx_ctx *ctx, tfx_type_kind kind, const tfx_type *elem);
/* elems[0..n) is copied. */
const tfx_type *tfx_type_tuple(tfx_ctx *ctx, const tfx_type *const *elems, size_t n);
/* names[i] has type types[i]; both arrays are copied and sorted by name.
 * Names must be distinct (a later duplicate replaces an earlier one). */
const tfx_type *tfx_type_object(tfx_ctx *ctx, const tfx_str *names,
                                const tfx_type *const *types, size_t n);

/* The same with optional attributes: optional[i] (NULL: none) says whether
 * names[i] is optional.  Only a type constraint (a conversion's target)
 * has optional attributes; values never do. */
const tfx_type *tfx_type_object_optional(tfx_ctx *ctx, const tfx_str *names,
                                         const tfx_type *const *types, const bool *optional,
                                         size_t n);

/* Whether attribute i of object type t is optional. */
bool tfx_type_attr_optional(const tfx_type *t, size_t i);

/* Whether t has optional attributes anywhere. */
bool tfx_type_has_optional(const tfx_type *t);

/* t without its optional-attribute markers at any depth (cty's
 * WithoutOptionalAttributesDeep); t itself when it has none. */
const tfx_type *tfx_type_without_optional(tfx_ctx *ctx, const tfx_type *t);

/* The stable order of names[0..n) by bytes (tfx_str_cmp): order[i] is the
 * index of the i-th smallest name; equal names keep their given order.
 * order must hold n entries; scratch space comes from the ctx. */
void tfx_str_sort_order(tfx_ctx *ctx, const tfx_str *names, size_t *order, size_t n);
/* The same without its fast path (names keyed by their first bytes): for
 * tests, which compare the two. */
void tfx_str_sort_order_general(tfx_ctx *ctx, const tfx_str *names, size_t *order, size_t n);

/* A copy of t in another ctx (the static types are returned as they are). */
const tfx_type *tfx_type_copy(tfx_ctx *dst, const tfx_type *t);

bool tfx_type_equal(const tfx_type *a, const tfx_type *b);
bool tfx_type_is_primitive(const tfx_type *t);
bool tfx_type_is_collection(const tfx_type *t);   /* list, set, map */
bool tfx_type_is_structural(const tfx_type *t);   /* tuple, object */
/* Whether dynamic occurs anywhere in t (cty's HasDynamicTypes). */
bool tfx_type_has_dynamic(const tfx_type *t);

/* The index of attribute `name` of an object type, or -1 (binary search). */
long tfx_type_attr_index(const tfx_type *t, const char *name, size_t nbytes);

/* t in the type-constraint notation of spec/values.md: "string",
 * "list(number)", "object({a=string,b=number})", "tuple([string,bool])",
 * "dynamic", an optional attribute as "object({a=optional(string)})".  In
 * the arena. */
const char *tfx_type_string(tfx_ctx *ctx, const tfx_type *t);

/* cty's FriendlyName, for messages: "string", "list of string",
 * "map of number", "set of bool", "tuple", "object", "dynamic". */
const char *tfx_type_friendly(tfx_ctx *ctx, const tfx_type *t);

/* cty's FriendlyNameForConstraint: as tfx_type_friendly, but dynamic is
 * "any type" and "list of any single type" etc. */
const char *tfx_type_friendly_constraint(tfx_ctx *ctx, const tfx_type *t);

#endif /* TFX_TYPE_H */
