/* SPDX-License-Identifier: MPL-2.0 */
/*
 * type.c — cty's types (spec/values.md, rules type.*).
 *
 * Types are plain immutable structs; the primitives and dynamic are static,
 * the others are made in a ctx's arena.  Object attribute names are kept
 * sorted by bytes, which is also the order cty uses whenever it walks an
 * object's attributes in a defined order.
 */
#include "type.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keysort.h"

const tfx_type tfx_type_dynamic = {TFX_TYPE_DYNAMIC, NULL, 0, NULL, NULL, NULL, NULL};
const tfx_type tfx_type_bool = {TFX_TYPE_BOOL, NULL, 0, NULL, NULL, NULL, NULL};
const tfx_type tfx_type_number = {TFX_TYPE_NUMBER, NULL, 0, NULL, NULL, NULL, NULL};
const tfx_type tfx_type_str = {TFX_TYPE_STRING, NULL, 0, NULL, NULL, NULL, NULL};
const tfx_type tfx_type_type = {TFX_TYPE_CAPSULE, NULL, 0, NULL, NULL, NULL, "type"};

/* ---- Strings of bytes ---- */

int tfx_str_cmp(tfx_str a, tfx_str b)
{
    size_t n = a.nbytes < b.nbytes ? a.nbytes : b.nbytes;
    int c = n == 0 ? 0 : memcmp(a.s, b.s, n);

    if (c != 0)
        return c < 0 ? -1 : 1;
    if (a.nbytes == b.nbytes)
        return 0;
    return a.nbytes < b.nbytes ? -1 : 1;
}

bool tfx_str_eq(tfx_str a, const char *s, size_t nbytes)
{
    return a.nbytes == nbytes && (nbytes == 0 || memcmp(a.s, s, nbytes) == 0);
}

/* ---- Constructors [type.kinds] ---- */

const tfx_type *tfx_type_collection(tfx_ctx *ctx, tfx_type_kind kind, const tfx_type *elem)
{
    tfx_type *t = tfx_ctx_alloc(ctx, sizeof *t);

    t->kind = kind;
    t->elem = elem;
    return t;
}

const tfx_type *tfx_type_list(tfx_ctx *ctx, const tfx_type *elem)
{
    return tfx_type_collection(ctx, TFX_TYPE_LIST, elem);
}

const tfx_type *tfx_type_set(tfx_ctx *ctx, const tfx_type *elem)
{
    return tfx_type_collection(ctx, TFX_TYPE_SET, elem);
}

const tfx_type *tfx_type_map(tfx_ctx *ctx, const tfx_type *elem)
{
    return tfx_type_collection(ctx, TFX_TYPE_MAP, elem);
}

const tfx_type *tfx_type_tuple(tfx_ctx *ctx, const tfx_type *const *elems, size_t n)
{
    tfx_type *t = tfx_ctx_alloc(ctx, sizeof *t);
    const tfx_type **copy = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_type *));

    for (size_t i = 0; i < n; i++)
        copy[i] = elems[i];
    t->kind = TFX_TYPE_TUPLE;
    t->n = n;
    t->elems = copy;
    return t;
}

/* Merges order[lo..mid) and order[mid..hi), each sorted, through tmp;
 * on equal names the left run goes first, which keeps the sort stable. */
static void merge_runs(const tfx_str *names, size_t *order, size_t *tmp, size_t lo,
                       size_t mid, size_t hi)
{
    size_t i = lo, j = mid, k = lo;

    while (i < mid && j < hi) {
        if (tfx_str_cmp(names[order[j]], names[order[i]]) < 0)
            tmp[k++] = order[j++];
        else
            tmp[k++] = order[i++];
    }
    while (i < mid)
        tmp[k++] = order[i++];
    while (j < hi)
        tmp[k++] = order[j++];
    memcpy(order + lo, tmp + lo, (hi - lo) * sizeof *order);
}

/* The big-endian reading of the 8 bytes at p. */
static uint64_t big_endian_word(const unsigned char *p)
{
    return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40
           | (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16
           | (uint64_t)p[6] << 8 | (uint64_t)p[7];
}

/* e's key: the first 16 bytes of name, big-endian, zero-padded past its
 * end (k0 the first 8, k1 the next 8). */
static void name_key(tfx_keyed *e, tfx_str name)
{
    unsigned char first[16] = {0};

    memcpy(first, name.s, name.nbytes < 16 ? name.nbytes : 16);
    e->k0 = big_endian_word(first);
    e->k1 = big_endian_word(first + 8);
}

/* Sorts order[lo..hi) stably by tfx_str_cmp of the names they index: a
 * bottom-up merge sort through tmp, no recursion. */
static void merge_sort_order(const tfx_str *names, size_t *order, size_t *tmp, size_t lo,
                             size_t hi)
{
    for (size_t width = 1; width < hi - lo; width *= 2) {
        for (size_t from = lo; from + width < hi; from += 2 * width) {
            size_t mid = from + width;

            merge_runs(names, order, tmp, from, mid, mid + width < hi ? mid + width : hi);
        }
    }
}

/* Whether the names order[lo..hi) indexes are all the same bytes. */
static bool run_all_same(const tfx_str *names, const size_t *order, size_t lo, size_t hi)
{
    for (size_t i = lo + 1; i < hi; i++)
        if (tfx_str_cmp(names[order[i]], names[order[lo]]) != 0)
            return false;
    return true;
}

/* [type.object.names] [fn.sort] The fast path of tfx_str_sort_order: each
 * name keyed by its first 16 bytes, big-endian and zero-padded, the keys
 * sorted stably by tfx_keysort (a radix sort, no comparisons), then each
 * run of equal keys whose names differ sorted stably by tfx_str_cmp.  It
 * is the same order as tfx_str_sort_order_general's, the stable sort by
 * tfx_str_cmp: where two keys differ, their first differing byte is the
 * names' first differing byte, or a zero of the padding against a byte of
 * the longer name, its first byte past the shorter name's end; either way
 * the keys order the names as tfx_str_cmp does.  So names with different
 * keys are in tfx_str_cmp's order, and names with equal keys end up in it
 * too, each run stably (merge_sort_order, the general path's sort).  The
 * keys are malloc'd and freed here, not left in the arena; false, with
 * nothing done, when malloc refuses them.  test_value compares both on
 * random names. */
static bool sort_keyed(tfx_ctx *ctx, const tfx_str *names, size_t *order, size_t n)
{
    tfx_keyed *a;
    size_t *tmp = NULL;

    if (n > SIZE_MAX / (2 * sizeof *a))
        return false;
    a = malloc(2 * n * sizeof *a);
    if (a == NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        name_key(&a[i], names[i]);
        a[i].index = i;
    }
    tfx_keysort(a, a + n, n);
    for (size_t i = 0; i < n; i++)
        order[i] = a[i].index;
    for (size_t lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && a[hi].k0 == a[lo].k0 && a[hi].k1 == a[lo].k1; hi++)
            ;
        if (hi - lo > 1 && !run_all_same(names, order, lo, hi)) {
            if (tmp == NULL)
                tmp = tfx_ctx_alloc_array(ctx, n, sizeof *tmp);
            merge_sort_order(names, order, tmp, lo, hi);
        }
    }
    free(a);
    return true;
}

void tfx_str_sort_order(tfx_ctx *ctx, const tfx_str *names, size_t *order, size_t n)
{
    if (n >= 2 && sort_keyed(ctx, names, order, n))
        return;
    tfx_str_sort_order_general(ctx, names, order, n);
}

/* A bottom-up merge sort: stable, O(n log n), no recursion. */
void tfx_str_sort_order_general(tfx_ctx *ctx, const tfx_str *names, size_t *order, size_t n)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    if (n < 2)
        return;
    merge_sort_order(names, order, tfx_ctx_alloc_array(ctx, n, sizeof(size_t)), 0, n);
}

/* [type.object.names] The attributes sorted by name; of several with one
 * name, the last given wins. */
const tfx_type *tfx_type_object(tfx_ctx *ctx, const tfx_str *names,
                                const tfx_type *const *types, size_t n)
{
    return tfx_type_object_optional(ctx, names, types, NULL, n);
}

const tfx_type *tfx_type_object_optional(tfx_ctx *ctx, const tfx_str *names,
                                         const tfx_type *const *types, const bool *optional,
                                         size_t n)
{
    tfx_type *t = tfx_ctx_alloc(ctx, sizeof *t);
    size_t *order = tfx_ctx_alloc_array(ctx, n, sizeof *order);
    tfx_str *onames = tfx_ctx_alloc_array(ctx, n, sizeof *onames);
    const tfx_type **otypes = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_type *));
    bool *oopt = NULL;
    size_t m = 0;

    for (size_t i = 0; optional != NULL && i < n && oopt == NULL; i++)
        if (optional[i])
            oopt = tfx_ctx_alloc_array(ctx, n, sizeof *oopt);
    tfx_str_sort_order(ctx, names, order, n);
    for (size_t i = 0; i < n; i++) {
        size_t k = order[i];

        /* equal names are adjacent in input order: a later one replaces */
        if (m > 0 && tfx_str_cmp(onames[m - 1], names[k]) == 0) {
            otypes[m - 1] = types[k];
            if (oopt != NULL)
                oopt[m - 1] = optional[k];
            continue;
        }
        onames[m].s = tfx_ctx_strndup(ctx, names[k].s, names[k].nbytes);
        onames[m].nbytes = names[k].nbytes;
        otypes[m] = types[k];
        if (oopt != NULL)
            oopt[m] = optional[k];
        m++;
    }
    t->kind = TFX_TYPE_OBJECT;
    t->n = m;
    t->names = onames;
    t->elems = otypes;
    t->optional = oopt;
    return t;
}

bool tfx_type_attr_optional(const tfx_type *t, size_t i)
{
    return t->kind == TFX_TYPE_OBJECT && t->optional != NULL && i < t->n && t->optional[i];
}

bool tfx_type_has_optional(const tfx_type *t)
{
    switch (t->kind) {
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        return tfx_type_has_optional(t->elem);
    case TFX_TYPE_TUPLE:
    case TFX_TYPE_OBJECT:
        for (size_t i = 0; i < t->n; i++)
            if (tfx_type_attr_optional(t, i) || tfx_type_has_optional(t->elems[i]))
                return true;
        return false;
    default:
        return false;
    }
}

const tfx_type *tfx_type_without_optional(tfx_ctx *ctx, const tfx_type *t)
{
    const tfx_type **elems;

    if (!tfx_type_has_optional(t))
        return t;
    switch (t->kind) {
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        return tfx_type_collection(ctx, t->kind, tfx_type_without_optional(ctx, t->elem));
    default:
        break;
    }
    elems = tfx_ctx_alloc_array(ctx, t->n, sizeof(const tfx_type *));
    for (size_t i = 0; i < t->n; i++)
        elems[i] = tfx_type_without_optional(ctx, t->elems[i]);
    if (t->kind == TFX_TYPE_TUPLE)
        return tfx_type_tuple(ctx, elems, t->n);
    return tfx_type_object(ctx, t->names, elems, t->n);
}

const tfx_type *tfx_type_copy(tfx_ctx *dst, const tfx_type *t)
{
    const tfx_type **elems;

    switch (t->kind) {
    case TFX_TYPE_DYNAMIC:
        return &tfx_type_dynamic;
    case TFX_TYPE_BOOL:
        return &tfx_type_bool;
    case TFX_TYPE_NUMBER:
        return &tfx_type_number;
    case TFX_TYPE_STRING:
        return &tfx_type_str;
    case TFX_TYPE_CAPSULE:
        return t; /* capsule types are static */
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        return tfx_type_collection(dst, t->kind, tfx_type_copy(dst, t->elem));
    default:
        break;
    }
    elems = tfx_ctx_alloc_array(dst, t->n, sizeof(const tfx_type *));
    for (size_t i = 0; i < t->n; i++)
        elems[i] = tfx_type_copy(dst, t->elems[i]);
    if (t->kind == TFX_TYPE_TUPLE)
        return tfx_type_tuple(dst, elems, t->n);
    return tfx_type_object_optional(dst, t->names, elems, t->optional, t->n);
}

/* ---- Queries [type.equal], [type.dynamic] ---- */

/* [type.equal] Types are equal when they have the same kind and equal
 * element types, attribute names and attribute types (cty's Type.Equals);
 * a capsule type equals only itself [type.capsule]. */
bool tfx_type_equal(const tfx_type *a, const tfx_type *b)
{
    if (a == b)
        return true;
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        return tfx_type_equal(a->elem, b->elem);
    case TFX_TYPE_TUPLE:
        if (a->n != b->n)
            return false;
        for (size_t i = 0; i < a->n; i++)
            if (!tfx_type_equal(a->elems[i], b->elems[i]))
                return false;
        return true;
    case TFX_TYPE_OBJECT:
        if (a->n != b->n)
            return false;
        for (size_t i = 0; i < a->n; i++)
            if (tfx_str_cmp(a->names[i], b->names[i]) != 0 ||
                tfx_type_attr_optional(a, i) != tfx_type_attr_optional(b, i) ||
                !tfx_type_equal(a->elems[i], b->elems[i]))
                return false;
        return true;
    case TFX_TYPE_CAPSULE:
        return false; /* a != b */
    default:
        return true;
    }
}

bool tfx_type_is_primitive(const tfx_type *t)
{
    return t->kind == TFX_TYPE_BOOL || t->kind == TFX_TYPE_NUMBER ||
           t->kind == TFX_TYPE_STRING;
}

bool tfx_type_is_collection(const tfx_type *t)
{
    return t->kind == TFX_TYPE_LIST || t->kind == TFX_TYPE_SET || t->kind == TFX_TYPE_MAP;
}

bool tfx_type_is_structural(const tfx_type *t)
{
    return t->kind == TFX_TYPE_TUPLE || t->kind == TFX_TYPE_OBJECT;
}

/* [type.dynamic.nested] cty's HasDynamicTypes. */
bool tfx_type_has_dynamic(const tfx_type *t)
{
    switch (t->kind) {
    case TFX_TYPE_DYNAMIC:
        return true;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        return tfx_type_has_dynamic(t->elem);
    case TFX_TYPE_TUPLE:
    case TFX_TYPE_OBJECT:
        for (size_t i = 0; i < t->n; i++)
            if (tfx_type_has_dynamic(t->elems[i]))
                return true;
        return false;
    default:
        return false;
    }
}

long tfx_type_attr_index(const tfx_type *t, const char *name, size_t nbytes)
{
    tfx_str key = {name, nbytes};
    size_t lo = 0;
    size_t hi;

    if (t->kind != TFX_TYPE_OBJECT)
        return -1;
    hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = tfx_str_cmp(t->names[mid], key);

        if (c == 0)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* ---- Printing ---- */

static bool is_ascii_letter(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Whether name can be written bare in the constraint notation: an ASCII
 * identifier, or anything with non-ASCII letters (written as it is, as
 * upstream's typeexpr does for its identifiers). */
static bool bare_name(tfx_str name)
{
    if (name.nbytes == 0)
        return false;
    for (size_t i = 0; i < name.nbytes; i++) {
        unsigned char c = (unsigned char)name.s[i];

        if (c >= 0x80 || is_ascii_letter(c) || c == '_')
            continue;
        if (i > 0 && ((c >= '0' && c <= '9') || c == '-'))
            continue;
        return false;
    }
    return true;
}

/* A name that is not an identifier, quoted with JSON-style escapes. */
static void put_quoted_name(tfx_textbuf *b, tfx_str name)
{
    static const char hex[] = "0123456789abcdef";

    tfx_textbuf_put(b, "\"", 1);
    for (size_t i = 0; i < name.nbytes; i++) {
        unsigned char c = (unsigned char)name.s[i];
        char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};

        if (c == '"' || c == '\\') {
            esc[1] = (char)c;
            tfx_textbuf_put(b, esc, 2);
        } else if (c < 0x20 || c == 0x7f) {
            tfx_textbuf_put(b, esc, 6);
        } else {
            tfx_textbuf_put(b, (const char *)&name.s[i], 1);
        }
    }
    tfx_textbuf_put(b, "\"", 1);
}

static void type_string(tfx_textbuf *b, const tfx_type *t)
{
    switch (t->kind) {
    case TFX_TYPE_DYNAMIC:
        tfx_textbuf_puts(b, "dynamic");
        break;
    case TFX_TYPE_BOOL:
        tfx_textbuf_puts(b, "bool");
        break;
    case TFX_TYPE_NUMBER:
        tfx_textbuf_puts(b, "number");
        break;
    case TFX_TYPE_STRING:
        tfx_textbuf_puts(b, "string");
        break;
    case TFX_TYPE_CAPSULE:
        tfx_textbuf_puts(b, t->name); /* [type.capsule] its name */
        break;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        tfx_textbuf_puts(b, t->kind == TFX_TYPE_LIST ? "list(" : t->kind == TFX_TYPE_SET ? "set(" : "map(");
        type_string(b, t->elem);
        tfx_textbuf_puts(b, ")");
        break;
    case TFX_TYPE_TUPLE:
        tfx_textbuf_puts(b, "tuple([");
        for (size_t i = 0; i < t->n; i++) {
            if (i > 0)
                tfx_textbuf_puts(b, ",");
            type_string(b, t->elems[i]);
        }
        tfx_textbuf_puts(b, "])");
        break;
    case TFX_TYPE_OBJECT:
        tfx_textbuf_puts(b, "object({");
        for (size_t i = 0; i < t->n; i++) {
            if (i > 0)
                tfx_textbuf_puts(b, ",");
            if (bare_name(t->names[i]))
                tfx_textbuf_put(b, t->names[i].s, t->names[i].nbytes);
            else
                put_quoted_name(b, t->names[i]);
            tfx_textbuf_puts(b, "=");
            if (tfx_type_attr_optional(t, i))
                tfx_textbuf_puts(b, "optional(");
            type_string(b, t->elems[i]);
            if (tfx_type_attr_optional(t, i))
                tfx_textbuf_puts(b, ")");
        }
        tfx_textbuf_puts(b, "})");
        break;
    }
}

/* [type.string] The constraint notation of upstream's typeexpr.TypeString,
 * with dynamic written "dynamic". */
const char *tfx_type_string(tfx_ctx *ctx, const tfx_type *t)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    type_string(&b, t);
    return tfx_textbuf_text(&b);
}

/* [type.friendly] cty's FriendlyName (constraint false) and
 * FriendlyNameForConstraint (true): "list of X", "set of X", "map of X",
 * "tuple", "object"; dynamic is "dynamic", or "any type" in a constraint,
 * where a collection of dynamic is "list of any single type". */
static void friendly(tfx_textbuf *b, const tfx_type *t, bool constraint)
{
    switch (t->kind) {
    case TFX_TYPE_DYNAMIC:
        tfx_textbuf_puts(b, constraint ? "any type" : "dynamic");
        break;
    case TFX_TYPE_BOOL:
        tfx_textbuf_puts(b, "bool");
        break;
    case TFX_TYPE_NUMBER:
        tfx_textbuf_puts(b, "number");
        break;
    case TFX_TYPE_STRING:
        tfx_textbuf_puts(b, "string");
        break;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        tfx_textbuf_puts(b, t->kind == TFX_TYPE_LIST  ? "list of "
                   : t->kind == TFX_TYPE_SET ? "set of "
                                             : "map of ");
        if (constraint && t->elem->kind == TFX_TYPE_DYNAMIC)
            tfx_textbuf_puts(b, "any single type");
        else
            friendly(b, t->elem, constraint);
        break;
    case TFX_TYPE_TUPLE:
        tfx_textbuf_puts(b, "tuple");
        break;
    case TFX_TYPE_OBJECT:
        tfx_textbuf_puts(b, "object");
        break;
    case TFX_TYPE_CAPSULE:
        tfx_textbuf_puts(b, t->name); /* [type.capsule] its name, in both */
        break;
    }
}

const char *tfx_type_friendly(tfx_ctx *ctx, const tfx_type *t)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    friendly(&b, t, false);
    return tfx_textbuf_text(&b);
}

const char *tfx_type_friendly_constraint(tfx_ctx *ctx, const tfx_type *t)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    friendly(&b, t, true);
    return tfx_textbuf_text(&b);
}
