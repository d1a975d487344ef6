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
#include <string.h>

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
    for (size_t i = 0; i < n; i++)
        if (tfx_value_is_marked_deep(child_at(v, i)))
            return true;
    return false;
}

/* [mark.unmark-deep] */
const tfx_value *tfx_value_unmark_deep(tfx_ctx *ctx, const tfx_value *v, const tfx_marks **marks)
{
    const tfx_marks *acc = v->marks;
    size_t n = child_count(v);
    const tfx_value **kids;
    tfx_value *r;

    if (!tfx_value_is_marked_deep(v)) {
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
                                             {.boolean = false}};
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
    norm = tfx_text_nfc(ctx->arena, s, nbytes, &n);
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
    return new_value(ctx, t, TFX_VAL_UNKNOWN);
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
    for (size_t i = 0; i < n; i++)
        if (!tfx_value_is_wholly_known(child_at(v, i)))
            return false;
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
 * hash/crc32.ChecksumIEEE. */
static uint32_t crc32_ieee(const char *s, size_t n)
{
    uint32_t c = 0xffffffffu;

    for (size_t i = 0; i < n; i++) {
        c ^= (unsigned char)s[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c ^ 0xffffffffu;
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

static void sort_by_crc(tfx_ctx *ctx, set_item *items, size_t n);

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
    sort_by_crc(ctx, b, n);
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

/* Stable merge sort of items[0..n) by CRC (the order of cty's buckets). */
static void sort_by_crc(tfx_ctx *ctx, set_item *items, size_t n)
{
    set_item *tmp;

    if (n < 2)
        return;
    tmp = tfx_ctx_alloc_array(ctx, n, sizeof *tmp);
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo + width < n; lo += 2 * width) {
            size_t mid = lo + width;
            size_t hi = mid + width < n ? mid + width : n;
            size_t i = lo, j = mid, k = lo;

            while (i < mid && j < hi)
                tmp[k++] = items[j].h.crc < items[i].h.crc ? items[j++] : items[i++];
            while (i < mid)
                tmp[k++] = items[i++];
            while (j < hi)
                tmp[k++] = items[j++];
            memcpy(items + lo, tmp + lo, (hi - lo) * sizeof *items);
        }
    }
}

/* [set.build] (semantics C11, F2, M11) cty's SetVal: the marks of the
 * elements, at any depth, move to the set; each element is added in the
 * given order to the bucket of its hash's CRC-32 unless an element there
 * already equals it; the set's order is the buckets in ascending CRC, each
 * in insertion order, then Go's stable sort by setRules.Less. */
const tfx_value *tfx_value_set(tfx_ctx *ctx, const tfx_type *elem,
                               const tfx_value *const *items, size_t n)
{
    set_item *all;
    const tfx_value **kept;
    const tfx_marks *marks = NULL;
    size_t m = 0;
    tfx_value *v;
    set_sorter sorter;
    tfx_textbuf buf;

    tfx_ctx_check_items(ctx, n);
    all = tfx_ctx_alloc_array(ctx, n, sizeof *all);
    tfx_textbuf_init(&buf, ctx);
    for (size_t i = 0; i < n; i++) {
        const tfx_marks *im = NULL;

        all[i].v = tfx_value_unmark_deep(ctx, items[i], &im);     /* [mark.set] */
        marks = tfx_marks_union(ctx, marks, im);
        all[i].h = item_hash(&buf, all[i].v);
    }
    sort_by_crc(ctx, all, n);
    /* [set.dedup] within a bucket, drop an element equal to an earlier one;
     * a value with an unknown anywhere inside equals nothing, so it is
     * never compared (cty compares it and finds no match) */
    for (size_t i = 0; i < n; i++) {
        bool dup = false;

        if (tfx_value_is_wholly_known(all[i].v)) {
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
    sorter.ctx = ctx;
    sorter.items = all;
    go_stable_sort(&sorter, m);
    kept = tfx_ctx_alloc_array(ctx, m, sizeof(const tfx_value *));
    for (size_t i = 0; i < m; i++)
        kept[i] = all[i].v;
    v = new_value(ctx, tfx_type_set(ctx, elem), TFX_VAL_KNOWN);
    v->as.elems.items = kept;
    v->as.elems.n = m;
    v->marks = marks;
    return v;
}

/* ---- Copy ---- */

static const tfx_marks *copy_marks(tfx_ctx *dst, const tfx_marks *m)
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
    r->marks = copy_marks(dst, v->marks);
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
