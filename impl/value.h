/* SPDX-License-Identifier: MPL-2.0 */
/*
 * value.h — cty's values (spec/values.md, rules value.*, mark.*, set.*).
 *
 * A value is immutable and lives in the arena of the tfx_ctx that made it
 * (or a longer-lived one).  Values are handled by pointer; constructors
 * never return NULL (they fail through tfx_ctx_fail).
 *
 * Every value has a type and is in one of three states: known, null (of
 * its type) or unknown (of its type).  cty has no known value of type
 * dynamic: a dynamic-typed value is null or unknown.  Any value may carry
 * marks (a set of names such as "sensitive"); marks never change equality,
 * ordering, conversion or types.
 *
 * Collections are sorted arrays: maps and objects by key bytes, sets in
 * cty's set order without duplicates.  Strings are NFC (value.string.nfc)
 * unless made with tfx_value_string_raw.
 */
#ifndef TFX_VALUE_H
#define TFX_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctx.h"
#include "num.h"
#include "type.h"

typedef enum {
    TFX_VAL_KNOWN,
    TFX_VAL_NULL,
    TFX_VAL_UNKNOWN
} tfx_value_state;

/* A set of mark names, sorted by bytes, distinct, n >= 1. */
typedef struct {
    size_t n;
    const tfx_str *names;
} tfx_marks;

typedef struct tfx_value tfx_value;
/* What an unknown value is known to be (profile PN; refine.h). */
typedef struct tfx_refinement tfx_refinement;

struct tfx_value {
    const tfx_type *type;
    tfx_value_state state;
    const tfx_marks *marks;   /* NULL when unmarked (never an empty set) */
    union {
        bool boolean;                   /* BOOL */
        const tfx_num *number;          /* NUMBER */
        tfx_str string;                 /* STRING */
        struct {
            const tfx_value *const *items;
            size_t n;
        } elems;                        /* LIST, SET (set order), TUPLE */
        struct {
            const tfx_str *keys;        /* sorted by bytes; OBJECT: the type's names */
            const tfx_value *const *vals;
            size_t n;
        } attrs;                        /* MAP, OBJECT */
        const tfx_refinement *refine;   /* UNKNOWN: its refinements (refine.h),
                                           NULL when it has none */
        const tfx_type *capsule;        /* CAPSULE (tfx_type_type): the
                                           encapsulated type, in a box of
                                           the value's own whose address is
                                           its identity [value.eq.capsule] */
    } as;
};

/* --- Marks [mark.*] --- */

/* The union of two mark sets (either may be NULL). */
const tfx_marks *tfx_marks_union(tfx_ctx *ctx, const tfx_marks *a, const tfx_marks *b);
/* A mark set of one name. */
const tfx_marks *tfx_marks_one(tfx_ctx *ctx, const char *name, size_t nbytes);
/* A copy of m (NULL: none) and its names in another ctx. */
const tfx_marks *tfx_marks_copy(tfx_ctx *dst, const tfx_marks *m);
bool tfx_marks_has(const tfx_marks *m, const char *name);
bool tfx_marks_equal(const tfx_marks *a, const tfx_marks *b);

/* v with marks m added (v itself when m adds nothing). */
const tfx_value *tfx_value_mark(tfx_ctx *ctx, const tfx_value *v, const tfx_marks *m);
/* v without its own (top-level) marks; *marks gets them (may be NULL). */
const tfx_value *tfx_value_unmark(tfx_ctx *ctx, const tfx_value *v, const tfx_marks **marks);
/* v without any marks at any depth; *marks gets their union. */
const tfx_value *tfx_value_unmark_deep(tfx_ctx *ctx, const tfx_value *v, const tfx_marks **marks);
/* The union of the marks at every depth of v. */
const tfx_marks *tfx_value_marks_deep(tfx_ctx *ctx, const tfx_value *v);
bool tfx_value_is_marked(const tfx_value *v);          /* top level */
bool tfx_value_is_marked_deep(const tfx_value *v);     /* any depth */

/* --- Constructors --- */

extern const tfx_value tfx_value_true;
extern const tfx_value tfx_value_false;
extern const tfx_value tfx_value_dynamic_unknown;   /* cty.DynamicVal */
extern const tfx_value tfx_value_dynamic_null;      /* cty.NullVal(cty.DynamicPseudoType) */

const tfx_value *tfx_value_bool(bool b);
const tfx_value *tfx_value_number(tfx_ctx *ctx, const tfx_num *n);
/* A 64-bit-precision integer (value.number.prec). */
const tfx_value *tfx_value_int(tfx_ctx *ctx, int64_t i);
/* s[0..nbytes) normalised to NFC; the bytes are copied. */
const tfx_value *tfx_value_string(tfx_ctx *ctx, const char *s, size_t nbytes);
/* s[0..nbytes), already NFC, not copied (must outlive the value). */
const tfx_value *tfx_value_string_raw(tfx_ctx *ctx, const char *s, size_t nbytes);
const tfx_value *tfx_value_null(tfx_ctx *ctx, const tfx_type *t);
/* [type.capsule] A known value of the capsule type tfx_type_type holding
 * the type t (cty.CapsuleVal(type, &t)): t is copied into a new box, so
 * the value equals no other capsule value, as each cty.CapsuleVal holds
 * a pointer of its own. */
const tfx_value *tfx_value_type(tfx_ctx *ctx, const tfx_type *t);
const tfx_value *tfx_value_unknown(tfx_ctx *ctx, const tfx_type *t);

/* Collections: every item must have type elem exactly (a null or unknown
 * of elem included; when elem is dynamic, items are dynamic nulls or
 * unknowns).  The arrays are copied.  Lengths are checked against the
 * collection limit. */
const tfx_value *tfx_value_list(tfx_ctx *ctx, const tfx_type *elem,
                                const tfx_value *const *items, size_t n);
/* [value.list] The same list as tfx_value_list(ctx, t->elem, items, n),
 * made with the list type t itself rather than a new list type of the
 * same element type: every item must have type t->elem (tfx_type_equal).
 * The two values are equal in every respect (types are compared with
 * tfx_type_equal, never by address); this one costs no type per value,
 * for decoders that make many values of one type.  items is copied. */
const tfx_value *tfx_value_list_of_type(tfx_ctx *ctx, const tfx_type *t,
                                        const tfx_value *const *items, size_t n);
/* The element type of a collection made of items[0..n) (n >= 1), as
 * cty's CanListVal / ListVal decide it: the type of the first item whose
 * type is not dynamic (dynamic if there is none); NULL when another item
 * whose type is not dynamic has a different type.  An item of type
 * dynamic (a null or unknown) fits any element type. */
const tfx_type *tfx_value_common_type(const tfx_value *const *items, size_t n);

/* Replaces, in items[0..n), each null or unknown of type dynamic by a null
 * or unknown of t with the same marks, as a cty collection of element
 * type t reads back such an element.  Nothing changes when t is dynamic. */
void tfx_value_retype_dynamic(tfx_ctx *ctx, const tfx_value **items, size_t n,
                              const tfx_type *t);

/* cty's SetVal(items): the marks of the items, at any depth, move to the
 * set itself (its elements carry none); an item that is the same
 * (tfx_value_set_same) as an earlier one is dropped; the rest are put in
 * set order (tfx_value_set_cmp), and elements that order does not tell
 * apart (several unknowns, say) keep an order that depends on the order
 * given, exactly as in cty, so pass items in the order cty would. */
const tfx_value *tfx_value_set(tfx_ctx *ctx, const tfx_type *elem,
                               const tfx_value *const *items, size_t n);
/* tfx_value_set without its fast paths (sets of known strings sorted by
 * bytes): for tests, which compare the two. */
const tfx_value *tfx_value_set_general(tfx_ctx *ctx, const tfx_type *elem,
                                       const tfx_value *const *items, size_t n);
/* The CRC-32 of v's set-hash bytes [set.hash] as tfx_value_set computes
 * it (fast paths included), and the same from the hash text written out
 * and a bit-by-bit CRC: for tests, which compare the two. */
uint32_t tfx_value_set_crc(tfx_ctx *ctx, const tfx_value *v);
uint32_t tfx_value_set_crc_general(tfx_ctx *ctx, const tfx_value *v);
/* keys[i] -> vals[i]; sorted by key; a later duplicate key wins. */
const tfx_value *tfx_value_map(tfx_ctx *ctx, const tfx_type *elem, const tfx_str *keys,
                               const tfx_value *const *vals, size_t n);
/* The type is the tuple of the items' types. */
const tfx_value *tfx_value_tuple(tfx_ctx *ctx, const tfx_value *const *items, size_t n);
/* The type is the object of the values' types; a later duplicate wins. */
const tfx_value *tfx_value_object(tfx_ctx *ctx, const tfx_str *names,
                                  const tfx_value *const *vals, size_t n);

/* [value.object] The same object as tfx_value_object(ctx, t->names, vals,
 * t->n), made with the object type t itself: t has no optional attributes
 * and vals[i], the value of t->names[i], has type t->elems[i]
 * (tfx_type_equal).  t's names are sorted and distinct, so the general
 * constructor would keep their order and make an equal type of the same
 * names and types; this one shares t and its names instead of copying
 * them per value.  vals is copied. */
const tfx_value *tfx_value_object_of_type(tfx_ctx *ctx, const tfx_type *t,
                                          const tfx_value *const *vals);

/* [value.tuple] The same tuple as tfx_value_tuple(ctx, items, n), made
 * with the tuple type t itself, whose n element types equal the items'
 * types (tfx_type_equal), and with items itself rather than a copy: items
 * must not change and must live as long as the value.  For grouping,
 * which makes many tuples of one shape (the type is shared, as types are
 * compared with tfx_type_equal, never by address). */
const tfx_value *tfx_value_tuple_of_type(tfx_ctx *ctx, const tfx_type *t,
                                         const tfx_value *const *items, size_t n);

/* [value.object] [type.object.names] The same object as
 * tfx_value_object(ctx, names, vals, n) when names[0..n) are already
 * sorted by bytes (tfx_str_cmp) and distinct: the general constructor's
 * stable sort would keep their order and find no duplicate, so the value
 * has the same names, values and types; this one neither sorts nor copies
 * the names.  names, their bytes and vals are kept, not copied: they must
 * not change and must live as long as the value. */
const tfx_value *tfx_value_object_sorted(tfx_ctx *ctx, const tfx_str *names,
                                         const tfx_value *const *vals, size_t n);

/* --- Queries --- */

bool tfx_value_is_known(const tfx_value *v);   /* known (and not null) */
bool tfx_value_is_null(const tfx_value *v);
bool tfx_value_is_unknown(const tfx_value *v);
/* Known with no unknown at any depth (cty's IsWhollyKnown; null counts
 * as known). */
bool tfx_value_is_wholly_known(const tfx_value *v);
/* Elements of a known list, set, tuple, map or object. */
size_t tfx_value_length(const tfx_value *v);
/* Element i of a known list, set (set order) or tuple. */
const tfx_value *tfx_value_item(const tfx_value *v, size_t i);
/* The element of a known map or object at key, or NULL (binary search). */
const tfx_value *tfx_value_lookup(const tfx_value *v, const char *key, size_t nbytes);

/* --- Equality and order [value.eq, set.order] --- */

/* cty's Value.Equals without marks: the result is TRUE, FALSE or UNKNOWN
 * (an unknown bool) following the rules of spec/values.md. */
typedef enum { TFX_TRI_FALSE, TFX_TRI_TRUE, TFX_TRI_UNKNOWN } tfx_tri;
tfx_tri tfx_value_equals(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b);

/* Whether two values are the same set element (cty's set rules: equal
 * known values, nulls of the same type; unknowns are never the same). */
bool tfx_value_set_same(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b);

/* The order of set elements (cty's setRules.Less): <0 if a comes before
 * b, >0 if after, 0 if the order does not tell them apart.  Known values
 * first (strings by bytes, numbers by value, false before true, other
 * types by their set-hash bytes), then unknowns, then null. */
int tfx_value_set_cmp(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b);

/* A copy of v (and everything it refers to) in another ctx. */
const tfx_value *tfx_value_copy(tfx_ctx *dst, const tfx_value *v);

#endif /* TFX_VALUE_H */
