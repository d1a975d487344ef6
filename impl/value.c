/* SPDX-License-Identifier: MPL-2.0 */
/*
 * value.c — cty's values (spec/values.md, rules value.*, mark.*, set.*).
 *
 * Values are immutable structs in a ctx's arena.  Lists and tuples keep
 * their elements in order, maps and objects sorted by key bytes, and sets
 * in the order cty 1.12.1 iterates them, duplicates removed as cty's set
 * package removes them.  Marks are sets of names carried beside the value;
 * nothing here but the mark functions looks at them.
 */
#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keysort.h"
#include "refine.h"
#include "text.h"

/* ---- Small helpers ---- */

static void fail_nomem(tfx_ctx *ctx)
{
    tfx_ctx_fail(ctx, "Memory limit exceeded",
                 "The evaluation needs more than the memory limit of %zu bytes.",
                 ctx->limits.max_memory_bytes);
}

static tfx_value *new_value(tfx_ctx *ctx, const tfx_type *t, tfx_value_state state)
{
    tfx_value *v = tfx_ctx_alloc(ctx, sizeof *v);

    v->type = t;
    v->state = state;
    v->marks = NULL;
    return v;
}

static tfx_value *clone_value(tfx_ctx *ctx, const tfx_value *src)
{
    tfx_value *v = tfx_ctx_alloc(ctx, sizeof *v);

    *v = *src;
    return v;
}

static bool is_elems_kind(tfx_type_kind k)
{
    return k == TFX_TYPE_LIST || k == TFX_TYPE_SET || k == TFX_TYPE_TUPLE;
}

static bool is_attrs_kind(tfx_type_kind k)
{
    return k == TFX_TYPE_MAP || k == TFX_TYPE_OBJECT;
}

/* The children of a known container: its elements or attribute values. */
static size_t child_count(const tfx_value *v)
{
    if (v->state != TFX_VAL_KNOWN)
        return 0;
    if (is_elems_kind(v->type->kind))
        return v->as.elems.n;
    if (is_attrs_kind(v->type->kind))
        return v->as.attrs.n;
    return 0;
}

static const tfx_value *child_at(const tfx_value *v, size_t i)
{
    return is_elems_kind(v->type->kind) ? v->as.elems.items[i] : v->as.attrs.vals[i];
}

/* A copy of v whose children are kids[0..child_count(v)) instead. */
static tfx_value *with_children(tfx_ctx *ctx, const tfx_value *v,
                                const tfx_value *const *kids)
{
    tfx_value *r = clone_value(ctx, v);

    if (v->state != TFX_VAL_KNOWN)
        return r; /* no children; an unknown's as.refine stays */
    if (is_elems_kind(v->type->kind))
        r->as.elems.items = kids;
    else if (is_attrs_kind(v->type->kind))
        r->as.attrs.vals = kids;
    return r;
}

/* ---- Marks [mark.*] ---- */

/* [mark.union] The names of a and b, sorted and distinct. */
const tfx_marks *tfx_marks_union(tfx_ctx *ctx, const tfx_marks *a, const tfx_marks *b)
{
    tfx_marks *m;
    tfx_str *names;
    size_t i = 0, j = 0, k = 0;

    if (a == NULL || a->n == 0)
        return (b == NULL || b->n == 0) ? NULL : b;
    if (b == NULL || b->n == 0 || a == b)
        return a;
    names = tfx_ctx_alloc_array(ctx, a->n + b->n, sizeof *names);
    while (i < a->n || j < b->n) {
        int c = i == a->n ? 1 : j == b->n ? -1 : tfx_str_cmp(a->names[i], b->names[j]);

        if (c <= 0) {
            names[k++] = a->names[i++];
            if (c == 0)
                j++;
        } else {
            names[k++] = b->names[j++];
        }
    }
    if (k == a->n)
        return a;
    if (k == b->n)
        return b;
    m = tfx_ctx_alloc(ctx, sizeof *m);
    m->n = k;
    m->names = names;
    return m;
}

const tfx_marks *tfx_marks_one(tfx_ctx *ctx, const char *name, size_t nbytes)
{
    tfx_marks *m = tfx_ctx_alloc(ctx, sizeof *m);
    tfx_str *names = tfx_ctx_alloc(ctx, sizeof *names);

    names[0].s = tfx_ctx_strndup(ctx, name, nbytes);
    names[0].nbytes = nbytes;
    m->n = 1;
    m->names = names;
    return m;
}

bool tfx_marks_has(const tfx_marks *m, const char *name)
{
    size_t n = strlen(name);

    if (m == NULL)
        return false;
    for (size_t i = 0; i < m->n; i++)
        if (tfx_str_eq(m->names[i], name, n))
            return true;
    return false;
}

bool tfx_marks_equal(const tfx_marks *a, const tfx_marks *b)
{
    size_t na = a == NULL ? 0 : a->n;
    size_t nb = b == NULL ? 0 : b->n;

    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (tfx_str_cmp(a->names[i], b->names[i]) != 0)
            return false;
    return true;
}

/* [mark.add] */
const tfx_value *tfx_value_mark(tfx_ctx *ctx, const tfx_value *v, const tfx_marks *m)
{
    const tfx_marks *u = tfx_marks_union(ctx, v->marks, m);
    tfx_value *r;

    if (tfx_marks_equal(u, v->marks))
        return v;
    r = clone_value(ctx, v);
    r->marks = u;
    return r;
}

/* [mark.unmark] */
const tfx_value *tfx_value_unmark(tfx_ctx *ctx, const tfx_value *v, const tfx_marks **marks)
{
    tfx_value *r;

    if (marks != NULL)
        *marks = v->marks;
    if (v->marks == NULL)
        return v;
    r = clone_value(ctx, v);
    r->marks = NULL;
    return r;
}

bool tfx_value_is_marked(const tfx_value *v)
{
    return v->marks != NULL;
}

bool tfx_value_is_marked_deep(const tfx_value *v)
{
    size_t n = child_count(v);

    if (v->marks != NULL)
        return true;
    for (size_t i = 0; i < n; i++) {
        const tfx_value *c = child_at(v, i);

        /* a child without children of its own is looked at here */
        if (c->marks != NULL || (child_count(c) > 0 && tfx_value_is_marked_deep(c)))
            return true;
    }
    return false;
}

/* [mark.unmark-deep] */
const tfx_value *tfx_value_unmark_deep(tfx_ctx *ctx, const tfx_value *v, const tfx_marks **marks)
{
    const tfx_marks *acc = v->marks;
    size_t n = child_count(v);
    const tfx_value **kids;
    tfx_value *r;

    /* an unmarked value without children is looked at here */
    if ((acc == NULL && n == 0) || !tfx_value_is_marked_deep(v)) {
        if (marks != NULL)
            *marks = NULL;
        return v;
    }
    kids = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_value *));
    for (size_t i = 0; i < n; i++) {
        const tfx_marks *km = NULL;

        kids[i] = tfx_value_unmark_deep(ctx, child_at(v, i), &km);
        acc = tfx_marks_union(ctx, acc, km);
    }
    r = with_children(ctx, v, kids);
    r->marks = NULL;
    if (marks != NULL)
        *marks = acc;
    return r;
}

const tfx_marks *tfx_value_marks_deep(tfx_ctx *ctx, const tfx_value *v)
{
    const tfx_marks *acc = v->marks;
    size_t n = child_count(v);

    for (size_t i = 0; i < n; i++)
        acc = tfx_marks_union(ctx, acc, tfx_value_marks_deep(ctx, child_at(v, i)));
    return acc;
}

/* ---- Constructors [value.*] ---- */

const tfx_value tfx_value_true = {&tfx_type_bool, TFX_VAL_KNOWN, NULL, {.boolean = true}};
const tfx_value tfx_value_false = {&tfx_type_bool, TFX_VAL_KNOWN, NULL, {.boolean = false}};
const tfx_value tfx_value_dynamic_unknown = {&tfx_type_dynamic, TFX_VAL_UNKNOWN, NULL,
                                             {.refine = NULL}};
const tfx_value tfx_value_dynamic_null = {&tfx_type_dynamic, TFX_VAL_NULL, NULL,
                                          {.boolean = false}};

const tfx_value *tfx_value_bool(bool b)
{
    return b ? &tfx_value_true : &tfx_value_false;
}

const tfx_value *tfx_value_number(tfx_ctx *ctx, const tfx_num *n)
{
    tfx_value *v = new_value(ctx, &tfx_type_number, TFX_VAL_KNOWN);

    v->as.number = n;
    return v;
}

/* [value.number.prec] Integers the evaluator makes have 64 bits. */
const tfx_value *tfx_value_int(tfx_ctx *ctx, int64_t i)
{
    const tfx_num *n = tfx_num_from_int64(ctx->arena, i);

    if (n == NULL)
        fail_nomem(ctx);
    return tfx_value_number(ctx, n);
}

/* [value.string.nfc] Every string value is in NFC, as cty's StringVal
 * normalises its argument. */
const tfx_value *tfx_value_string(tfx_ctx *ctx, const char *s, size_t nbytes)
{
    size_t n = 0;
    char *norm;

    tfx_ctx_check_string(ctx, nbytes);
    norm = tfx_text_nfc_profile(ctx->arena, s, nbytes, ctx->pn, &n);
    if (norm == NULL)
        fail_nomem(ctx);
    tfx_ctx_check_string(ctx, n);
    return tfx_value_string_raw(ctx, norm, n);
}

const tfx_value *tfx_value_string_raw(tfx_ctx *ctx, const char *s, size_t nbytes)
{
    tfx_value *v;

    tfx_ctx_check_string(ctx, nbytes);
    v = new_value(ctx, &tfx_type_str, TFX_VAL_KNOWN);
    v->as.string.s = s;
    v->as.string.nbytes = nbytes;
    return v;
}

const tfx_value *tfx_value_null(tfx_ctx *ctx, const tfx_type *t)
{
    return new_value(ctx, t, TFX_VAL_NULL);
}

const tfx_value *tfx_value_unknown(tfx_ctx *ctx, const tfx_type *t)
{
    tfx_value *v = new_value(ctx, t, TFX_VAL_UNKNOWN);

    v->as.refine = NULL; /* [refine.value] none */
    return v;
}

/* [type.capsule] */
const tfx_value *tfx_value_type(tfx_ctx *ctx, const tfx_type *t)
{
    tfx_value *v = new_value(ctx, &tfx_type_type, TFX_VAL_KNOWN);
    tfx_type *box = tfx_ctx_alloc(ctx, sizeof *box);

    *box = *t;
    v->as.capsule = box;
    return v;
}

static const tfx_value **copy_items(tfx_ctx *ctx, const tfx_value *const *items, size_t n)
{
    const tfx_value **copy = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_value *));

    for (size_t i = 0; i < n; i++)
        copy[i] = items[i];
    return copy;
}

const tfx_value *tfx_value_list(tfx_ctx *ctx, const tfx_type *elem,
                                const tfx_value *const *items, size_t n)
{
    tfx_value *v;

    tfx_ctx_check_items(ctx, n);
    v = new_value(ctx, tfx_type_list(ctx, elem), TFX_VAL_KNOWN);
    v->as.elems.items = copy_items(ctx, items, n);
    v->as.elems.n = n;
    return v;
}

const tfx_value *tfx_value_list_of_type(tfx_ctx *ctx, const tfx_type *t,
                                        const tfx_value *const *items, size_t n)
{
    tfx_value *v;

    tfx_ctx_check_items(ctx, n);
    v = new_value(ctx, t, TFX_VAL_KNOWN);
    v->as.elems.items = copy_items(ctx, items, n);
    v->as.elems.n = n;
    return v;
}

/* Sorts keys[0..n) with their vals, a later duplicate key winning; the key
 * bytes are copied.  Sets *keys_out, *vals_out and returns the count. */
static size_t sort_attrs(tfx_ctx *ctx, const tfx_str *keys, const tfx_value *const *vals,
                         size_t n, const tfx_str **keys_out, const tfx_value *const **vals_out)
{
    size_t *order = tfx_ctx_alloc_array(ctx, n, sizeof *order);
    tfx_str *okeys = tfx_ctx_alloc_array(ctx, n, sizeof *okeys);
    const tfx_value **ovals = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_value *));
    size_t m = 0;

    tfx_str_sort_order(ctx, keys, order, n);
    for (size_t i = 0; i < n; i++) {
        size_t k = order[i];

        if (m > 0 && tfx_str_cmp(okeys[m - 1], keys[k]) == 0) {
            ovals[m - 1] = vals[k];
            continue;
        }
        okeys[m].s = tfx_ctx_strndup(ctx, keys[k].s, keys[k].nbytes);
        okeys[m].nbytes = keys[k].nbytes;
        ovals[m] = vals[k];
        m++;
    }
    *keys_out = okeys;
    *vals_out = ovals;
    return m;
}

/* [value.collection.make] cty's CanListVal / CanSetVal / CanMapVal. */
const tfx_type *tfx_value_common_type(const tfx_value *const *items, size_t n)
{
    const tfx_type *t = &tfx_type_dynamic;

    for (size_t i = 0; i < n; i++) {
        if (t->kind == TFX_TYPE_DYNAMIC)
            t = items[i]->type;
        else if (items[i]->type->kind != TFX_TYPE_DYNAMIC && !tfx_type_equal(t, items[i]->type))
            return NULL;
    }
    return t;
}

/* [value.collection.make] */
void tfx_value_retype_dynamic(tfx_ctx *ctx, const tfx_value **items, size_t n,
                              const tfx_type *t)
{
    if (t->kind == TFX_TYPE_DYNAMIC)
        return;
    for (size_t i = 0; i < n; i++) {
        const tfx_value *e = items[i];

        if (e->type->kind != TFX_TYPE_DYNAMIC)
            continue;
        e = tfx_value_is_null(e) ? tfx_value_null(ctx, t) : tfx_value_unknown(ctx, t);
        items[i] = tfx_value_mark(ctx, e, items[i]->marks);
    }
}

/* [value.map] Keys sorted by bytes; a later duplicate key wins. */
const tfx_value *tfx_value_map(tfx_ctx *ctx, const tfx_type *elem, const tfx_str *keys,
                               const tfx_value *const *vals, size_t n)
{
    tfx_value *v;

    tfx_ctx_check_items(ctx, n);
    v = new_value(ctx, tfx_type_map(ctx, elem), TFX_VAL_KNOWN);
    v->as.attrs.n = sort_attrs(ctx, keys, vals, n, &v->as.attrs.keys, &v->as.attrs.vals);
    return v;
}

const tfx_value *tfx_value_tuple(tfx_ctx *ctx, const tfx_value *const *items, size_t n)
{
    const tfx_type **types;
    tfx_value *v;

    tfx_ctx_check_items(ctx, n);
    types = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_type *));
    for (size_t i = 0; i < n; i++)
        types[i] = items[i]->type;
    v = new_value(ctx, tfx_type_tuple(ctx, types, n), TFX_VAL_KNOWN);
    v->as.elems.items = copy_items(ctx, items, n);
    v->as.elems.n = n;
    return v;
}

/* [value.object] Attributes in the order of the type's names. */
const tfx_value *tfx_value_object_of_type(tfx_ctx *ctx, const tfx_type *t,
                                          const tfx_value *const *vals)
{
    tfx_value *v;

    tfx_ctx_check_items(ctx, t->n);
    v = new_value(ctx, t, TFX_VAL_KNOWN);
    v->as.attrs.keys = t->names;
    v->as.attrs.vals = copy_items(ctx, vals, t->n);
    v->as.attrs.n = t->n;
    return v;
}

const tfx_value *tfx_value_object(tfx_ctx *ctx, const tfx_str *names,
                                  const tfx_value *const *vals, size_t n)
{
    const tfx_type **types;
    tfx_value *v;
    size_t m;

    tfx_ctx_check_items(ctx, n);
    v = new_value(ctx, &tfx_type_dynamic, TFX_VAL_KNOWN);
    m = sort_attrs(ctx, names, vals, n, &v->as.attrs.keys, &v->as.attrs.vals);
    types = tfx_ctx_alloc_array(ctx, m, sizeof(const tfx_type *));
    for (size_t i = 0; i < m; i++)
        types[i] = v->as.attrs.vals[i]->type;
    v->type = tfx_type_object(ctx, v->as.attrs.keys, types, m);
    v->as.attrs.keys = v->type->names;
    v->as.attrs.n = m;
    return v;
}

/* [value.tuple] See value.h: the type and items are t and items as given. */
const tfx_value *tfx_value_tuple_of_type(tfx_ctx *ctx, const tfx_type *t,
                                         const tfx_value *const *items, size_t n)
{
    tfx_value *v;

    tfx_ctx_check_items(ctx, n);
    v = new_value(ctx, t, TFX_VAL_KNOWN);
    v->as.elems.items = items;
    v->as.elems.n = n;
    return v;
}

/* [value.object] See value.h: tfx_value_object's attributes with the sort
 * (the identity on sorted, distinct names) and the copies left out. */
const tfx_value *tfx_value_object_sorted(tfx_ctx *ctx, const tfx_str *names,
                                         const tfx_value *const *vals, size_t n)
{
    const tfx_type **types;
    tfx_type *t;
    tfx_value *v;

    tfx_ctx_check_items(ctx, n);
    types = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_type *));
    for (size_t i = 0; i < n; i++)
        types[i] = vals[i]->type;
    t = tfx_ctx_alloc(ctx, sizeof *t);
    t->kind = TFX_TYPE_OBJECT;
    t->n = n;
    t->names = names;
    t->elems = types;
    v = new_value(ctx, t, TFX_VAL_KNOWN);
    v->as.attrs.keys = names;
    v->as.attrs.vals = vals;
    v->as.attrs.n = n;
    return v;
}

/* ---- Queries ---- */

bool tfx_value_is_known(const tfx_value *v)
{
    return v->state == TFX_VAL_KNOWN;
}

bool tfx_value_is_null(const tfx_value *v)
{
    return v->state == TFX_VAL_NULL;
}

bool tfx_value_is_unknown(const tfx_value *v)
{
    return v->state == TFX_VAL_UNKNOWN;
}

/* [unknown.wholly] cty's IsWhollyKnown: no unknown at any depth. */
bool tfx_value_is_wholly_known(const tfx_value *v)
{
    size_t n = child_count(v);

    if (v->state == TFX_VAL_UNKNOWN)
        return false;
    for (size_t i = 0; i < n; i++) {
        const tfx_value *c = child_at(v, i);

        /* a child without children of its own is looked at here */
        if (c->state == TFX_VAL_UNKNOWN || (child_count(c) > 0 && !tfx_value_is_wholly_known(c)))
            return false;
    }
    return true;
}

size_t tfx_value_length(const tfx_value *v)
{
    return child_count(v);
}

const tfx_value *tfx_value_item(const tfx_value *v, size_t i)
{
    return v->as.elems.items[i];
}

const tfx_value *tfx_value_lookup(const tfx_value *v, const char *key, size_t nbytes)
{
    tfx_str k = {key, nbytes};
    size_t lo = 0, hi;

    if (v->state != TFX_VAL_KNOWN || !is_attrs_kind(v->type->kind))
        return NULL;
    hi = v->as.attrs.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = tfx_str_cmp(v->as.attrs.keys[mid], k);

        if (c == 0)
            return v->as.attrs.vals[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ---- The set hash [set.hash] ----
 *
 * cty files set elements in buckets keyed by the CRC-32 (IEEE) of a byte
 * string it derives from each value, its "hash bytes".  The same bytes
 * order elements of types with no natural order.  Those bytes are:
 *   unknown "?"   null "~"   bool "T" / "F"
 *   number: Go's big.Float String(), i.e. Text('g', 10)
 *   string: Go's strconv.Quote of it
 *   list, set: "[" then each element's bytes followed by ";" then "]"
 *   map: "{" then key-bytes ":" value-bytes ";" per key in key order, "}"
 *   tuple, object: "<" then each element (attribute, in name order) ";" ">"
 * Marks are ignored. */

/* [set.hash] Go's big.Float String(), i.e. Text('g', 10), which
 * cty writes for a number: the exact value rounded to 10 significant
 * digits (tfx_num_round_digits: 0.digits x 10^exp), then, with
 * e = exp - 1 the exponent of the first digit and p = 10, or the number
 * of digits when fewer and the point falls within or after them:
 * "d.ddde±XX" (at least two exponent digits) when e < -4 or e >= p,
 * otherwise positional with the digits' own fraction ("100", "0.0001",
 * "1.5"); "-" first for negatives (and -0); "+Inf", "-Inf". */
static char digit_at(const char *digits, size_t nd, long i)
{
    if (i >= 0 && (size_t)i < nd)
        return digits[i];
    return '0';
}

static void hash_number(tfx_textbuf *b, const tfx_num *x)
{
    long exp = 0;
    const char *digits;
    size_t nd;
    long e, eprec = 10;

    if (tfx_num_is_inf(x)) {
        tfx_textbuf_put(b, tfx_num_signbit(x) ? "-Inf" : "+Inf", 4);
        return;
    }
    digits = tfx_num_round_digits(b->ctx->arena, x, 10, &exp);
    if (digits == NULL)
        fail_nomem(b->ctx);
    nd = strlen(digits);
    if (tfx_num_signbit(x))
        tfx_textbuf_putc(b, '-');
    if (eprec > (long)nd && (long)nd >= exp)
        eprec = (long)nd;
    e = exp - 1;
    if (e < -4 || e >= eprec) {
        char tmp[32];

        tfx_textbuf_putc(b, digits[0]);
        if (nd > 1) {
            tfx_textbuf_putc(b, '.');
            tfx_textbuf_put(b, digits + 1, nd - 1);
        }
        (void)snprintf(tmp, sizeof tmp, "e%c%02ld", e < 0 ? '-' : '+', e < 0 ? -e : e);
        tfx_textbuf_put(b, tmp, strlen(tmp));
        return;
    }
    /* positional: the integer digits (zeros past the mantissa), then the
     * fraction digits the mantissa has */
    if (exp > 0) {
        for (long i = 0; i < exp; i++)
            tfx_textbuf_putc(b, digit_at(digits, nd, i));
    } else {
        tfx_textbuf_putc(b, '0');
    }
    if ((long)nd > exp) {
        tfx_textbuf_putc(b, '.');
        for (long i = exp; i < (long)nd; i++)
            tfx_textbuf_putc(b, digit_at(digits, nd, i));
    }
}


static void hash_value(tfx_textbuf *b, const tfx_value *v)
{
    if (v->state == TFX_VAL_UNKNOWN) {
        tfx_textbuf_putc(b, '?');
        return;
    }
    if (v->state == TFX_VAL_NULL) {
        tfx_textbuf_putc(b, '~');
        return;
    }
    switch (v->type->kind) {
    case TFX_TYPE_NUMBER:
        hash_number(b, v->as.number);
        break;
    case TFX_TYPE_BOOL:
        tfx_textbuf_putc(b, v->as.boolean ? 'T' : 'F');
        break;
    case TFX_TYPE_STRING:
        tfx_textbuf_quote(b, v->as.string.s, v->as.string.nbytes);
        break;
    case TFX_TYPE_MAP:
        tfx_textbuf_putc(b, '{');
        for (size_t i = 0; i < v->as.attrs.n; i++) {
            tfx_textbuf_quote(b, v->as.attrs.keys[i].s, v->as.attrs.keys[i].nbytes);
            tfx_textbuf_putc(b, ':');
            hash_value(b, v->as.attrs.vals[i]);
            tfx_textbuf_putc(b, ';');
        }
        tfx_textbuf_putc(b, '}');
        break;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
        tfx_textbuf_putc(b, '[');
        for (size_t i = 0; i < v->as.elems.n; i++) {
            hash_value(b, v->as.elems.items[i]);
            tfx_textbuf_putc(b, ';');
        }
        tfx_textbuf_putc(b, ']');
        break;
    case TFX_TYPE_OBJECT:
        tfx_textbuf_putc(b, '<');
        for (size_t i = 0; i < v->as.attrs.n; i++) {
            hash_value(b, v->as.attrs.vals[i]);
            tfx_textbuf_putc(b, ';');
        }
        tfx_textbuf_putc(b, '>');
        break;
    case TFX_TYPE_TUPLE:
        tfx_textbuf_putc(b, '<');
        for (size_t i = 0; i < v->as.elems.n; i++) {
            hash_value(b, v->as.elems.items[i]);
            tfx_textbuf_putc(b, ';');
        }
        tfx_textbuf_putc(b, '>');
        break;
    case TFX_TYPE_CAPSULE:
        /* [set.hash.capsule] a capsule type without a hash of its own:
         * the same bytes for every value, U+00AB ? U+00BB */
        tfx_textbuf_puts(b, "\xc2\xab?\xc2\xbb");
        break;
    case TFX_TYPE_DYNAMIC:
        break;
    }
}

typedef struct {
    const char *s;
    size_t n;
    uint32_t crc;
} set_hash;

/* CRC-32 with the IEEE polynomial (reflected 0xedb88320), as Go's
 * hash/crc32.ChecksumIEEE, bit by bit: the definition, kept for
 * tfx_value_set_crc_general, which tests compare with the table. */
static uint32_t crc32_ieee_bitwise(const char *s, size_t n)
{
    uint32_t c = 0xffffffffu;

    for (size_t i = 0; i < n; i++) {
        c ^= (unsigned char)s[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c ^ 0xffffffffu;
}

/* crc_table[b]: the register after the eight steps of crc32_ieee_bitwise
 * from b alone, so that one lookup does a byte's eight steps (the CRC is
 * linear: the steps of c ^ b are those of the low byte, then a shift). */
static const uint32_t crc_table[256] = {
    0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu,
    0xe963a535u, 0x9e6495a3u, 0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u,
    0x09b64c2bu, 0x7eb17cbdu, 0xe7b82d07u, 0x90bf1d91u, 0x1db71064u, 0x6ab020f2u,
    0xf3b97148u, 0x84be41deu, 0x1adad47du, 0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u,
    0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu, 0x14015c4fu, 0x63066cd9u,
    0xfa0f3d63u, 0x8d080df5u, 0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u, 0xa2677172u,
    0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu, 0x35b5a8fau, 0x42b2986cu,
    0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u,
    0x26d930acu, 0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u,
    0xcfba9599u, 0xb8bda50fu, 0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u,
    0x2f6f7c87u, 0x58684c11u, 0xc1611dabu, 0xb6662d3du, 0x76dc4190u, 0x01db7106u,
    0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu, 0x9fbfe4a5u, 0xe8b8d433u,
    0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu, 0x086d3d2du,
    0x91646c97u, 0xe6635c01u, 0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu,
    0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u, 0x65b0d9c6u, 0x12b7e950u,
    0x8bbeb8eau, 0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u,
    0x4db26158u, 0x3ab551ceu, 0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u,
    0xa4d1c46du, 0xd3d6f4fbu, 0x4369e96au, 0x346ed9fcu, 0xad678846u, 0xda60b8d0u,
    0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u, 0x5005713cu, 0x270241aau,
    0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u, 0xce61e49fu,
    0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u,
    0xb7bd5c3bu, 0xc0ba6cadu, 0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au,
    0xead54739u, 0x9dd277afu, 0x04db2615u, 0x73dc1683u, 0xe3630b12u, 0x94643b84u,
    0x0d6d6a3eu, 0x7a6a5aa8u, 0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u,
    0xf00f9344u, 0x8708a3d2u, 0x1e01f268u, 0x6906c2feu, 0xf762575du, 0x806567cbu,
    0x196c3671u, 0x6e6b06e7u, 0xfed41b76u, 0x89d32be0u, 0x10da7a5au, 0x67dd4accu,
    0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u, 0xd6d6a3e8u, 0xa1d1937eu,
    0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
    0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u,
    0x316e8eefu, 0x4669be79u, 0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u,
    0xcc0c7795u, 0xbb0b4703u, 0x220216b9u, 0x5505262fu, 0xc5ba3bbeu, 0xb2bd0b28u,
    0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u, 0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du,
    0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au, 0x9c0906a9u, 0xeb0e363fu,
    0x72076785u, 0x05005713u, 0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu, 0x0cb61b38u,
    0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u, 0x86d3d2d4u, 0xf1d4e242u,
    0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u,
    0x88085ae6u, 0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u,
    0x616bffd3u, 0x166ccf45u, 0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u,
    0xa7672661u, 0xd06016f7u, 0x4969474du, 0x3e6e77dbu, 0xaed16a4au, 0xd9d65adcu,
    0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u, 0x47b2cf7fu, 0x30b5ffe9u,
    0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u, 0xcdd70693u,
    0x54de5729u, 0x23d967bfu, 0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u,
    0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du,
};

/* The running CRC register c (not yet inverted at the end) after
 * s[0..n), a byte per lookup. */
static uint32_t crc32_update(uint32_t c, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ (unsigned char)s[i]) & 0xffu] ^ (c >> 8);
    return c;
}

/* CRC-32 as crc32_ieee_bitwise, by table. */
static uint32_t crc32_ieee(const char *s, size_t n)
{
    return crc32_update(0xffffffffu, s, n) ^ 0xffffffffu;
}

/* Whether tfx_textbuf_quote writes s[0..n) as itself between quotes:
 * every byte printable ASCII (space to '~') other than '"' and '\\'. */
static bool quotes_as_itself(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
            return false;
    }
    return true;
}

static set_hash make_hash(tfx_ctx *ctx, const tfx_value *v)
{
    tfx_textbuf b;
    set_hash h;

    tfx_textbuf_init(&b, ctx);
    hash_value(&b, v);
    h.s = tfx_textbuf_text(&b);
    h.n = b.nbytes;
    h.crc = crc32_ieee(h.s, h.n);
    return h;
}

/* [set.hash] make_hash for the elements of one set, in a buffer b reused
 * from one element to the next: the same CRC (of the same bytes), and
 * the hash bytes themselves (copied to their size) only where the set
 * order reads them, for known values other than strings, numbers and
 * bools (set_less_rest compares those by value, and its last case is
 * reached only with two such values); elsewhere s is NULL and n 0.  A
 * set of n strings or numbers then holds no hash text at all.
 * test_value compares sets made this way with the order of
 * tfx_value_set_cmp, which uses make_hash. */
static set_hash item_hash(tfx_textbuf *b, const tfx_value *v)
{
    set_hash h;

    if (v->state == TFX_VAL_KNOWN && v->type->kind == TFX_TYPE_STRING
        && quotes_as_itself(v->as.string.s, v->as.string.nbytes)) {
        /* [set.hash] a known string's hash text is the string quoted
         * (hash_value), which for such a string is its bytes between two
         * '"': the CRC of those bytes, without writing them */
        uint32_t c = crc32_update(0xffffffffu, "\"", 1);

        c = crc32_update(c, v->as.string.s, v->as.string.nbytes);
        h.crc = crc32_update(c, "\"", 1) ^ 0xffffffffu;
        h.s = NULL;
        h.n = 0;
        return h;
    }
    b->nbytes = 0;
    hash_value(b, v);
    h.crc = crc32_ieee(b->s, b->nbytes);
    h.s = NULL;
    h.n = 0;
    if (v->state == TFX_VAL_KNOWN && v->type->kind != TFX_TYPE_STRING
        && v->type->kind != TFX_TYPE_NUMBER && v->type->kind != TFX_TYPE_BOOL) {
        h.s = tfx_ctx_strndup(b->ctx, b->nbytes > 0 ? b->s : "", b->nbytes);
        h.n = b->nbytes;
    }
    return h;
}

uint32_t tfx_value_set_crc(tfx_ctx *ctx, const tfx_value *v)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    return item_hash(&b, v).crc;
}

uint32_t tfx_value_set_crc_general(tfx_ctx *ctx, const tfx_value *v)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    hash_value(&b, v);
    return crc32_ieee_bitwise(tfx_textbuf_text(&b), b.nbytes);
}

/* ---- Equality [value.eq] ---- */

static tfx_tri equals(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b);

/* cty's HasWhollyKnownType: no unknown of type dynamic inside, and no
 * unknown collection whose type involves dynamic. */
static bool wholly_known_type(const tfx_value *v)
{
    size_t n;

    if (v->state == TFX_VAL_NULL)
        return true;
    if (v->state == TFX_VAL_UNKNOWN) {
        if (v->type->kind == TFX_TYPE_DYNAMIC)
            return false;
        if (is_elems_kind(v->type->kind) || is_attrs_kind(v->type->kind))
            return !tfx_type_has_dynamic(v->type);
        return true;
    }
    n = child_count(v);
    for (size_t i = 0; i < n; i++)
        if (!wholly_known_type(child_at(v, i)))
            return false;
    return true;
}

/* cty's TestConformance(given, want) finding no error: want is dynamic, or
 * the types are equal, or they are of one structural or collection kind
 * and conform part by part. */
static bool conforms(const tfx_type *given, const tfx_type *want)
{
    if (want->kind == TFX_TYPE_DYNAMIC || tfx_type_equal(given, want))
        return true;
    if (given->kind != want->kind)
        return false;
    switch (given->kind) {
    case TFX_TYPE_OBJECT:
        if (given->n != want->n)
            return false;
        for (size_t i = 0; i < given->n; i++)
            if (tfx_str_cmp(given->names[i], want->names[i]) != 0 ||
                !conforms(given->elems[i], want->elems[i]))
                return false;
        return true;
    case TFX_TYPE_TUPLE:
        if (given->n != want->n)
            return false;
        for (size_t i = 0; i < given->n; i++)
            if (!conforms(given->elems[i], want->elems[i]))
                return false;
        return true;
    case TFX_TYPE_LIST:
    case TFX_TYPE_MAP:
    case TFX_TYPE_SET:
        return conforms(given->elem, want->elem);
    default:
        return false;
    }
}

/* Elements in order (lists, tuples): the first unknown comparison gives
 * unknown and the first mismatch false, whichever comes first. */
static tfx_tri equals_in_order(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b)
{
    if (a->as.elems.n != b->as.elems.n)
        return TFX_TRI_FALSE;
    for (size_t i = 0; i < a->as.elems.n; i++) {
        tfx_tri e = equals(ctx, a->as.elems.items[i], b->as.elems.items[i]);

        if (e != TFX_TRI_TRUE)
            return e;
    }
    return TFX_TRI_TRUE;
}

/* Maps and objects (semantics O14): upstream visits the keys in Go's
 * random map order and stops at the first mismatch or unknown comparison,
 * so its answer can vary when both occur.  tfexpr picks the definite
 * answer: false if any key or value mismatches, else unknown if any
 * comparison is unknown, else true [value.eq.mapping]. */
static tfx_tri equals_by_key(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b)
{
    bool unknown = false;

    if (a->as.attrs.n != b->as.attrs.n)
        return TFX_TRI_FALSE;
    for (size_t i = 0; i < a->as.attrs.n; i++)
        if (tfx_str_cmp(a->as.attrs.keys[i], b->as.attrs.keys[i]) != 0)
            return TFX_TRI_FALSE;
    for (size_t i = 0; i < a->as.attrs.n; i++) {
        tfx_tri e = equals(ctx, a->as.attrs.vals[i], b->as.attrs.vals[i]);

        if (e == TFX_TRI_FALSE)
            return TFX_TRI_FALSE;
        if (e == TFX_TRI_UNKNOWN)
            unknown = true;
    }
    return unknown ? TFX_TRI_UNKNOWN : TFX_TRI_TRUE;
}

/* One set element with its hash bytes. */
typedef struct {
    const tfx_value *v;
    set_hash h;
} set_item;

static void sort_by_crc(tfx_ctx *ctx, set_item *items, size_t n, bool fast);

/* The elements of known set s with their hashes, in set order (*in_order)
 * and in bucket order (*by_crc, stably sorted by CRC). */
static void index_set(tfx_ctx *ctx, const tfx_value *s, set_item **in_order, set_item **by_crc)
{
    size_t n = s->as.elems.n;
    set_item *a = tfx_ctx_alloc_array(ctx, n, sizeof *a);
    set_item *b = tfx_ctx_alloc_array(ctx, n, sizeof *b);
    tfx_textbuf buf;

    tfx_textbuf_init(&buf, ctx);
    for (size_t i = 0; i < n; i++) {
        a[i].v = s->as.elems.items[i];
        a[i].h = item_hash(&buf, a[i].v);   /* only the CRCs are read */
        b[i] = a[i];
    }
    sort_by_crc(ctx, b, n, true);
    *in_order = a;
    *by_crc = b;
}

/* Whether the set indexed by by_crc[0..n) holds an element that cty's set
 * package takes for x: one in x's bucket (same CRC-32 of the hash bytes)
 * that equals x. */
static bool set_has(tfx_ctx *ctx, const set_item *by_crc, size_t n, const set_item *x)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (by_crc[mid].h.crc < x->h.crc)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < n && by_crc[i].h.crc == x->h.crc; i++)
        if (equals(ctx, by_crc[i].v, x->v) == TFX_TRI_TRUE)
            return true;
    return false;
}

/* Sets (semantics O13): any element that is itself unknown makes the
 * answer unknown; otherwise the sets are equal when each holds every
 * element of the other by the set membership rule, so an element with an
 * unknown inside is never found [value.eq.set]. */
static tfx_tri equals_sets(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b)
{
    size_t na = a->as.elems.n, nb = b->as.elems.n;
    set_item *a_items, *a_crc, *b_items, *b_crc;
    bool equal = true;

    for (size_t i = 0; i < na; i++)
        if (a->as.elems.items[i]->state == TFX_VAL_UNKNOWN)
            return TFX_TRI_UNKNOWN;
    for (size_t i = 0; i < nb; i++)
        if (b->as.elems.items[i]->state == TFX_VAL_UNKNOWN)
            return TFX_TRI_UNKNOWN;
    index_set(ctx, a, &a_items, &a_crc);
    index_set(ctx, b, &b_items, &b_crc);
    for (size_t i = 0; i < na && equal; i++)
        equal = set_has(ctx, b_crc, nb, &a_items[i]);
    for (size_t i = 0; i < nb && equal; i++)
        equal = set_has(ctx, a_crc, na, &b_items[i]);
    return equal ? TFX_TRI_TRUE : TFX_TRI_FALSE;
}

/* [op.eq] (semantics O8-O14) cty's Value.Equals, marks aside. */
static tfx_tri equals(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b)
{
    bool au = a->state == TFX_VAL_UNKNOWN;
    bool bu = b->state == TFX_VAL_UNKNOWN;
    bool eq = false;

    /* [refine.eq] profile PN: refinements may decide it */
    if (ctx->pn && tfx_refine_equals(ctx, a, b) == TFX_TRI_FALSE)
        return TFX_TRI_FALSE;
    /* [op.eq.unknown] unknowns first, since nulls of any types are equal */
    if (au && bu)
        return TFX_TRI_UNKNOWN;
    if (au || bu) {
        const tfx_value *known = au ? b : a;
        const tfx_value *unk = au ? a : b;

        if (known->state == TFX_VAL_NULL || tfx_type_has_dynamic(unk->type))
            return TFX_TRI_UNKNOWN;
        return tfx_type_equal(a->type, b->type) ? TFX_TRI_UNKNOWN : TFX_TRI_FALSE;
    }
    /* [value.eq.null] */
    if (a->state == TFX_VAL_NULL || b->state == TFX_VAL_NULL)
        return a->state == b->state ? TFX_TRI_TRUE : TFX_TRI_FALSE;
    /* [value.eq.dynamic] a dynamic unknown inside: unknown unless the types
     * could never conform either way */
    if (!wholly_known_type(a) || !wholly_known_type(b)) {
        if (!conforms(a->type, b->type) && !conforms(b->type, a->type))
            return TFX_TRI_FALSE;
        return TFX_TRI_UNKNOWN;
    }
    /* [value.eq.type] */
    if (!tfx_type_equal(a->type, b->type))
        return TFX_TRI_FALSE;
    switch (a->type->kind) {
    case TFX_TYPE_NUMBER:
        if (tfx_num_equal(a->as.number, b->as.number, &eq) != TFX_NUM_OK)
            fail_nomem(ctx);
        return eq ? TFX_TRI_TRUE : TFX_TRI_FALSE;
    case TFX_TYPE_BOOL:
        return a->as.boolean == b->as.boolean ? TFX_TRI_TRUE : TFX_TRI_FALSE;
    case TFX_TYPE_STRING:
        return tfx_str_cmp(a->as.string, b->as.string) == 0 ? TFX_TRI_TRUE : TFX_TRI_FALSE;
    case TFX_TYPE_LIST:
    case TFX_TYPE_TUPLE:
        return equals_in_order(ctx, a, b);
    case TFX_TYPE_SET:
        return equals_sets(ctx, a, b);
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT:
        return equals_by_key(ctx, a, b);
    case TFX_TYPE_CAPSULE:
        /* [value.eq.capsule] a capsule without an equality of its own:
         * the same encapsulated pointer (each type() result has its own) */
        return a->as.capsule == b->as.capsule ? TFX_TRI_TRUE : TFX_TRI_FALSE;
    case TFX_TYPE_DYNAMIC:
        break;
    }
    return TFX_TRI_TRUE;
}

tfx_tri tfx_value_equals(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b)
{
    return equals(ctx, a, b);
}

/* cty's RawEquals for unmarked values: like equality, but an unknown is
 * the same as an unknown of the same type, and nothing is undecided. */
static bool raw_equals(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b)
{
    if (!tfx_type_equal(a->type, b->type))
        return false;
    if (a->state == TFX_VAL_UNKNOWN || b->state == TFX_VAL_UNKNOWN)
        return a->state == b->state;
    if (a->state == TFX_VAL_NULL || b->state == TFX_VAL_NULL)
        return a->state == b->state;
    switch (a->type->kind) {
    case TFX_TYPE_NUMBER:
    case TFX_TYPE_BOOL:
    case TFX_TYPE_STRING:
        return equals(ctx, a, b) == TFX_TRI_TRUE;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_TUPLE:
        if (a->as.elems.n != b->as.elems.n)
            return false;
        for (size_t i = 0; i < a->as.elems.n; i++)
            if (!raw_equals(ctx, a->as.elems.items[i], b->as.elems.items[i]))
                return false;
        return true;
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT:
        if (a->as.attrs.n != b->as.attrs.n)
            return false;
        for (size_t i = 0; i < a->as.attrs.n; i++)
            if (tfx_str_cmp(a->as.attrs.keys[i], b->as.attrs.keys[i]) != 0 ||
                !raw_equals(ctx, a->as.attrs.vals[i], b->as.attrs.vals[i]))
                return false;
        return true;
    case TFX_TYPE_CAPSULE:
        return a->as.capsule == b->as.capsule; /* [value.eq.capsule] */
    case TFX_TYPE_DYNAMIC:
        break;
    }
    return true;
}

/* ---- Set order and membership [set.*] ---- */

/* [set.same] cty's set membership: the same bucket (CRC-32 of the hash
 * bytes) and equal by Equals (an unknown comparison is not equal). */
bool tfx_value_set_same(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b)
{
    return make_hash(ctx, a).crc == make_hash(ctx, b).crc &&
           equals(ctx, a, b) == TFX_TRI_TRUE;
}

/* cty's setRules.Less without its first test: nulls go after everything
 * else and unknowns after known values; strings by bytes, numbers by
 * value, false before true; any other type by its hash bytes, compared
 * as bytes. */
static bool set_less_rest(const tfx_value *a, const set_hash *ha, const tfx_value *b,
                          const set_hash *hb)
{
    size_t n;
    int c;

    if (b->state == TFX_VAL_NULL && a->state != TFX_VAL_NULL)
        return true;
    if (a->state == TFX_VAL_NULL)
        return false;
    if (a->state != TFX_VAL_UNKNOWN && b->state == TFX_VAL_UNKNOWN)
        return true;
    if (a->state == TFX_VAL_UNKNOWN)
        return false;
    switch (a->type->kind) {
    case TFX_TYPE_STRING:
        return tfx_str_cmp(a->as.string, b->as.string) < 0;
    case TFX_TYPE_BOOL:
        return b->as.boolean || !a->as.boolean;
    case TFX_TYPE_NUMBER:
        return tfx_num_cmp(a->as.number, b->as.number) < 0;
    default:
        n = ha->n < hb->n ? ha->n : hb->n;
        c = n == 0 ? 0 : memcmp(ha->s, hb->s, n);
        return c < 0 || (c == 0 && ha->n < hb->n);
    }
}

/* [set.order] (semantics F2) cty's setRules.Less: whether a sorts before
 * b among the elements of one set.  Raw-equal values (cty's RawEquals)
 * are unordered, even when their hash bytes differ ([0] and [-0]);
 * otherwise set_less_rest decides.  (The cheap test runs first: the
 * conjunction is the same.) */
static bool set_less(tfx_ctx *ctx, const tfx_value *a, const set_hash *ha,
                     const tfx_value *b, const set_hash *hb)
{
    return set_less_rest(a, ha, b, hb) && !raw_equals(ctx, a, b);
}

int tfx_value_set_cmp(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b)
{
    set_hash ha = make_hash(ctx, a);
    set_hash hb = make_hash(ctx, b);

    if (set_less(ctx, a, &ha, b, &hb))
        return -1;
    if (set_less(ctx, b, &hb, a, &ha))
        return 1;
    return 0;
}

typedef struct {
    tfx_ctx *ctx;
    set_item *items;
} set_sorter;

static bool sorter_less(const set_sorter *s, size_t i, size_t j)
{
    return set_less(s->ctx, s->items[i].v, &s->items[i].h, s->items[j].v, &s->items[j].h);
}

static void sorter_swap(const set_sorter *s, size_t i, size_t j)
{
    set_item t = s->items[i];

    s->items[i] = s->items[j];
    s->items[j] = t;
}

/* The stable sort of Go's sort.SliceStable (Go 1.19), step for step: cty
 * sorts set elements with it, and because setRules.Less is not always a
 * strict weak order (raw-equal values with different hash bytes), only
 * the same sequence of comparisons and swaps gives the same order.  It
 * insertion-sorts blocks of 20, then merges blocks of doubling size with
 * the SymMerge algorithm (Kim and Kutzner, 2004) and block rotations. */
static void go_insertion_sort(const set_sorter *s, size_t a, size_t b)
{
    for (size_t i = a + 1; i < b; i++)
        for (size_t j = i; j > a && sorter_less(s, j, j - 1); j--)
            sorter_swap(s, j, j - 1);
}

static void go_swap_range(const set_sorter *s, size_t a, size_t b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sorter_swap(s, a + i, b + i);
}

/* Turns u v (u = [a,m), v = [m,b)) into v u by block swaps. */
static void go_rotate(const set_sorter *s, size_t a, size_t m, size_t b)
{
    size_t i = m - a;
    size_t j = b - m;

    while (i != j) {
        if (i > j) {
            go_swap_range(s, m - i, m, j);
            i -= j;
        } else {
            go_swap_range(s, m - i, m + j - i, i);
            j -= i;
        }
    }
    go_swap_range(s, m - i, m, i);
}

static void go_sym_merge(const set_sorter *s, size_t a, size_t m, size_t b)
{
    size_t mid, n, start, r, end, p;

    if (m - a == 1) {
        /* one element on the left: binary-search its place on the right */
        size_t i = m, j = b;

        while (i < j) {
            size_t h = (i + j) / 2;

            if (sorter_less(s, h, a))
                i = h + 1;
            else
                j = h;
        }
        for (size_t k = a; k + 1 < i; k++)
            sorter_swap(s, k, k + 1);
        return;
    }
    if (b - m == 1) {
        /* one element on the right: binary-search its place on the left */
        size_t i = a, j = m;

        while (i < j) {
            size_t h = (i + j) / 2;

            if (!sorter_less(s, m, h))
                i = h + 1;
            else
                j = h;
        }
        for (size_t k = m; k > i; k--)
            sorter_swap(s, k, k - 1);
        return;
    }
    mid = (a + b) / 2;
    n = mid + m;
    if (m > mid) {
        start = n - b;
        r = mid;
    } else {
        start = a;
        r = m;
    }
    p = n - 1;
    while (start < r) {
        size_t c = (start + r) / 2;

        if (!sorter_less(s, p - c, c))
            start = c + 1;
        else
            r = c;
    }
    end = n - start;
    if (start < m && m < end)
        go_rotate(s, start, m, end);
    if (a < start && start < mid)
        go_sym_merge(s, a, start, mid);
    if (mid < end && end < b)
        go_sym_merge(s, mid, end, b);
}

static void go_stable_sort(const set_sorter *s, size_t n)
{
    size_t block = 20;
    size_t a = 0, b = block;

    while (b <= n) {
        go_insertion_sort(s, a, b);
        a = b;
        b += block;
    }
    go_insertion_sort(s, a, n);
    while (block < n) {
        a = 0;
        b = 2 * block;
        while (b <= n) {
            go_sym_merge(s, a, a + block, b);
            a = b;
            b += 2 * block;
        }
        if (a + block < n)
            go_sym_merge(s, a, a + block, n);
        block *= 2;
    }
}

/* Stable merge sort of items[0..n) by CRC (the order of cty's buckets),
 * bottom up: each pass merges runs of `width` items from one array into
 * the other, and the arrays then change roles (a pass that copied its
 * output back moved every item twice: for a million items, 20 passes over
 * a 32 MB array). */
static void sort_by_crc_merge(tfx_ctx *ctx, set_item *items, size_t n)
{
    set_item *from = items;
    set_item *to;

    if (n < 2)
        return;
    to = tfx_ctx_alloc_array(ctx, n, sizeof *to);
    for (size_t width = 1; width < n; width *= 2) {
        set_item *t;

        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = mid + width < n ? mid + width : n;
            size_t i = lo, j = mid, k = lo;

            while (i < mid && j < hi)
                to[k++] = from[j].h.crc < from[i].h.crc ? from[j++] : from[i++];
            while (i < mid)
                to[k++] = from[i++];
            while (j < hi)
                to[k++] = from[j++];
        }
        t = from;
        from = to;
        to = t;
    }
    if (from != items)
        memcpy(items, from, n * sizeof *items);
}

/* sort_by_crc_merge's fast path for many items: a radix sort on the
 * CRC's four bytes, lowest first.  Each pass places the
 * items by one byte, keeping the order they came in among equal bytes, so
 * after the last pass they are ordered by CRC and, among equal CRCs, as
 * they were given: the one stable order.  A pass whose byte is the same in
 * every item would leave the order as it is and is skipped.  A stable sort
 * by a key has one result, so this is sort_by_crc_merge's (test_value
 * compares tfx_value_set, which takes it from 256 items on, with
 * tfx_value_set_general, which never does).  Four passes over the items
 * where the merge sort of a million makes twenty; but clearing and
 * summing its 256 counters four times costs more than a merge sort of a
 * few items, and most sets are small. */
static void sort_by_crc_radix(tfx_ctx *ctx, set_item *items, size_t n)
{
    set_item *from = items;
    set_item *to;
    size_t count[256];

    if (n < 2)
        return;
    to = tfx_ctx_alloc_array(ctx, n, sizeof *to);
    for (unsigned shift = 0; shift < 32; shift += 8) {
        size_t sum = 0;
        set_item *t;

        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(from[i].h.crc >> shift) & 0xFF]++;
        if (count[(from[0].h.crc >> shift) & 0xFF] == n)
            continue;
        for (size_t b = 0; b < 256; b++) {
            size_t c = count[b];

            count[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            to[count[(from[i].h.crc >> shift) & 0xFF]++] = from[i];
        t = from;
        from = to;
        to = t;
    }
    if (from != items)
        memcpy(items, from, n * sizeof *items);
}

/* [set.build] Stable sort of items[0..n) by CRC (the order of cty's
 * buckets); the radix sort for 256 items or more when `fast`. */
static void sort_by_crc(tfx_ctx *ctx, set_item *items, size_t n, bool fast)
{
    if (fast && n >= 256)
        sort_by_crc_radix(ctx, items, n);
    else
        sort_by_crc_merge(ctx, items, n);
}

/* [set.build] (semantics C11, F2, M11) cty's SetVal: the marks of the
 * elements, at any depth, move to the set; each element is added in the
 * given order to the bucket of its hash's CRC-32 unless an element there
 * already equals it; the set's order is the buckets in ascending CRC, each
 * in insertion order, then Go's stable sort by setRules.Less. */
/* [set.order] The fast path of the set order for sets of known strings:
 * out[0..m) is the elements of all[0..m) sorted by bytes, and true, when
 * every element is a known string; false, with nothing written, otherwise.  After [set.dedup] the
 * strings are distinct (equal strings have equal hash bytes, so one
 * bucket, where the later one is dropped), and for distinct strings
 * set_less is tfx_str_cmp(a, b) < 0 (raw_equals is then false): a strict
 * total order, under which a sorted sequence is unique, so Go's stable
 * sort (go_stable_sort) and tfx_str_sort_order give the same one.
 * test_value compares tfx_value_set with tfx_value_set_general on random
 * strings. */
static bool sort_known_strings(tfx_ctx *ctx, const set_item *all, size_t m,
                               const tfx_value **out)
{
    tfx_str *strs;
    size_t *order;

    for (size_t i = 0; i < m; i++)
        if (all[i].v->state != TFX_VAL_KNOWN || all[i].v->type->kind != TFX_TYPE_STRING)
            return false;
    strs = tfx_ctx_alloc_array(ctx, m, sizeof *strs);
    order = tfx_ctx_alloc_array(ctx, m, sizeof *order);
    for (size_t i = 0; i < m; i++)
        strs[i] = all[i].v->as.string;
    tfx_str_sort_order(ctx, strs, order, m);
    for (size_t i = 0; i < m; i++)
        out[i] = all[order[i]].v;
    return true;
}

/* The set of the elements kept[0..m) (in the arena), in that order, with
 * the marks. */
static const tfx_value *new_set(tfx_ctx *ctx, const tfx_type *elem, const tfx_value **kept,
                                size_t m, const tfx_marks *marks)
{
    tfx_value *v = new_value(ctx, tfx_type_set(ctx, elem), TFX_VAL_KNOWN);

    v->as.elems.items = kept;
    v->as.elems.n = m;
    v->marks = marks;
    return v;
}

/* Whether v is a known whole number of one machine word at a precision of
 * 64 bits or more (*x its value): the elements set_of_word_integers takes. */
static bool word_integer_element(const tfx_value *v, int64_t *x)
{
    return v->state == TFX_VAL_KNOWN && v->type->kind == TFX_TYPE_NUMBER
           && tfx_num_prec(v->as.number) >= 64 && tfx_num_to_int64(v->as.number, x);
}

/* [set.dedup] [set.order] The fast path of make_set's buckets, dedup and
 * order for a set whose elements vals[0..n) (unmarked) are all known
 * whole numbers below 2^63
 * at a precision of 64 bits or more (decoded or literal numbers, counts,
 * sums of such): the set's elements in set order (*m of them, in the
 * arena); NULL when some element is of another kind or malloc refuses the
 * scratch space (freed here).  It gives the general
 * path's result without hashing or comparing numbers:
 * - Two such numbers are equal (equals, raw_equals: tfx_num_equal) exactly
 *   when their values are: at one precision by value, at two by their
 *   shortest digits, which for a whole number below 2^64 at 64 bits or
 *   more are its own digits (num.c, num_new_word).  Equal values have
 *   equal hash bytes but for the sign of a zero.  So the general dedup,
 *   which drops an element equal to an earlier one of its bucket, keeps
 *   the first element of each key (value, and for a zero its hash CRC).
 * - setRules.Less (set_less) between them is "value below value": a strict
 *   weak order, so Go's stable sort gives its one stable result, whatever
 *   the steps: ascending values, and equal values (only zeros of both
 *   signs, each in its own bucket) in the order of the input, which is by
 *   CRC.  The stable key sort by (value, zero's CRC) gives the same.
 * test_value compares tfx_value_set with tfx_value_set_general on random
 * whole numbers (both zeros among them). */
static const tfx_value **set_of_word_integers(tfx_ctx *ctx, const tfx_value *const *vals,
                                              size_t n, size_t *m)
{
    tfx_keyed *keys;
    tfx_textbuf buf;
    const tfx_value **kept;
    const uint64_t zero_key = (uint64_t)1 << 63; /* 0's key, the sign bit */
    uint64_t zero_crc = 0;
    size_t count = 0;

    if (n == 0 || n > SIZE_MAX / (2 * sizeof *keys))
        return NULL;
    keys = malloc(2 * n * sizeof *keys);
    if (keys == NULL)
        return NULL;
    tfx_textbuf_init(&buf, ctx);
    for (size_t i = 0; i < n; i++) {
        int64_t x;

        if (!word_integer_element(vals[i], &x)) {
            free(keys);
            return NULL;
        }
        /* with the sign bit flipped, the keys' order is the values' */
        keys[i].k0 = (uint64_t)x ^ zero_key;
        keys[i].k1 = 0;
        if (x == 0) {
            keys[i].k1 = item_hash(&buf, vals[i]).crc;
            zero_crc = keys[i].k1;
        }
        keys[i].index = i;
    }
    /* k1 orders only entries of one value, so for the others any constant
     * does: one zero's CRC, with which tfx_keysort skips the passes of k1
     * when all zeros have one CRC */
    for (size_t i = 0; i < n; i++)
        if (keys[i].k0 != zero_key)
            keys[i].k1 = zero_crc;
    tfx_keysort(keys, keys + n, n);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || keys[i].k0 != keys[i - 1].k0 || keys[i].k1 != keys[i - 1].k1)
            keys[count++] = keys[i]; /* [set.dedup] else equal to the one before */
    kept = tfx_ctx_alloc_array(ctx, count, sizeof(const tfx_value *));
    for (size_t i = 0; i < count; i++)
        kept[i] = vals[keys[i].index];
    free(keys);
    *m = count;
    return kept;
}

static const tfx_value *make_set(tfx_ctx *ctx, const tfx_type *elem,
                                 const tfx_value *const *items, size_t n, bool fast);

const tfx_value *tfx_value_set(tfx_ctx *ctx, const tfx_type *elem,
                               const tfx_value *const *items, size_t n)
{
    return make_set(ctx, elem, items, n, true);
}

const tfx_value *tfx_value_set_general(tfx_ctx *ctx, const tfx_type *elem,
                                       const tfx_value *const *items, size_t n)
{
    return make_set(ctx, elem, items, n, false);
}

static const tfx_value *make_set(tfx_ctx *ctx, const tfx_type *elem,
                                 const tfx_value *const *items, size_t n, bool fast)
{
    set_item *all;
    const tfx_value **vals;
    const tfx_value **kept;
    const tfx_marks *marks = NULL;
    size_t m = 0;
    set_sorter sorter;
    tfx_textbuf buf;

    tfx_ctx_check_items(ctx, n);
    vals = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_value *));
    for (size_t i = 0; i < n; i++) {
        const tfx_marks *im = NULL;

        vals[i] = tfx_value_unmark_deep(ctx, items[i], &im);     /* [mark.set] */
        marks = tfx_marks_union(ctx, marks, im);
    }
    if (fast && (kept = set_of_word_integers(ctx, vals, n, &m)) != NULL)
        return new_set(ctx, elem, kept, m, marks);
    all = tfx_ctx_alloc_array(ctx, n, sizeof *all);
    tfx_textbuf_init(&buf, ctx);
    for (size_t i = 0; i < n; i++) {
        all[i].v = vals[i];
        all[i].h = item_hash(&buf, vals[i]);
    }
    sort_by_crc(ctx, all, n, fast);
    /* [set.dedup] within a bucket, drop an element equal to an earlier one;
     * a value with an unknown anywhere inside equals nothing, so it is
     * never compared (cty compares it and finds no match).  Only an
     * element with an earlier one in its bucket is looked at: the items
     * are in CRC order now, so reading every element here went to memory
     * in no order (a cache miss each, for a large set) */
    for (size_t i = 0; i < n; i++) {
        bool dup = false;

        if (m > 0 && all[m - 1].h.crc == all[i].h.crc && tfx_value_is_wholly_known(all[i].v)) {
            for (size_t j = m; j > 0 && all[j - 1].h.crc == all[i].h.crc; j--) {
                if (equals(ctx, all[j - 1].v, all[i].v) == TFX_TRI_TRUE) {
                    dup = true;
                    break;
                }
            }
        }
        if (!dup)
            all[m++] = all[i];
    }
    /* the elements in set order into vals[0..m) (m <= n) */
    if (!fast || !sort_known_strings(ctx, all, m, vals)) {
        sorter.ctx = ctx;
        sorter.items = all;
        go_stable_sort(&sorter, m);
        for (size_t i = 0; i < m; i++)
            vals[i] = all[i].v;
    }
    return new_set(ctx, elem, vals, m, marks);
}

/* ---- Copy ---- */

const tfx_marks *tfx_marks_copy(tfx_ctx *dst, const tfx_marks *m)
{
    tfx_marks *r;
    tfx_str *names;

    if (m == NULL)
        return NULL;
    r = tfx_ctx_alloc(dst, sizeof *r);
    names = tfx_ctx_alloc_array(dst, m->n, sizeof *names);
    for (size_t i = 0; i < m->n; i++) {
        names[i].s = tfx_ctx_strndup(dst, m->names[i].s, m->names[i].nbytes);
        names[i].nbytes = m->names[i].nbytes;
    }
    r->n = m->n;
    r->names = names;
    return r;
}

const tfx_value *tfx_value_copy(tfx_ctx *dst, const tfx_value *v)
{
    tfx_value *r = tfx_ctx_alloc(dst, sizeof *r);
    size_t n;

    *r = *v;
    r->type = tfx_type_copy(dst, v->type);
    r->marks = tfx_marks_copy(dst, v->marks);
    if (v->state == TFX_VAL_UNKNOWN && tfx_value_refinement(v) != NULL)
        r->as.refine = tfx_refinement_copy(dst, v->as.refine);
    if (v->state != TFX_VAL_KNOWN)
        return r;
    switch (v->type->kind) {
    case TFX_TYPE_NUMBER: {
        /* negating twice copies the number exactly (signed zeros too) */
        const tfx_num *neg = tfx_num_neg(dst->arena, v->as.number);
        const tfx_num *pos = neg == NULL ? NULL : tfx_num_neg(dst->arena, neg);

        if (pos == NULL)
            fail_nomem(dst);
        r->as.number = pos;
        break;
    }
    case TFX_TYPE_STRING:
        r->as.string.s = tfx_ctx_strndup(dst, v->as.string.s, v->as.string.nbytes);
        break;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_TUPLE: {
        const tfx_value **items;

        n = v->as.elems.n;
        items = tfx_ctx_alloc_array(dst, n, sizeof(const tfx_value *));
        for (size_t i = 0; i < n; i++)
            items[i] = tfx_value_copy(dst, v->as.elems.items[i]);
        r->as.elems.items = items;
        break;
    }
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT: {
        tfx_str *keys;
        const tfx_value **vals;

        n = v->as.attrs.n;
        vals = tfx_ctx_alloc_array(dst, n, sizeof(const tfx_value *));
        for (size_t i = 0; i < n; i++)
            vals[i] = tfx_value_copy(dst, v->as.attrs.vals[i]);
        if (v->type->kind == TFX_TYPE_OBJECT) {
            r->as.attrs.keys = r->type->names;
        } else {
            keys = tfx_ctx_alloc_array(dst, n, sizeof *keys);
            for (size_t i = 0; i < n; i++) {
                keys[i].s = tfx_ctx_strndup(dst, v->as.attrs.keys[i].s,
                                            v->as.attrs.keys[i].nbytes);
                keys[i].nbytes = v->as.attrs.keys[i].nbytes;
            }
            r->as.attrs.keys = keys;
        }
        r->as.attrs.vals = vals;
        break;
    }
    case TFX_TYPE_CAPSULE: {
        tfx_type *box = tfx_ctx_alloc(dst, sizeof *box);

        *box = *tfx_type_copy(dst, v->as.capsule);
        r->as.capsule = box;
        break;
    }
    default:
        break;
    }
    return r;
}
