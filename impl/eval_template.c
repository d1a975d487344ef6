/* SPDX-License-Identifier: MPL-2.0 */
/*
 * eval_template.c — the evaluation of templates (TemplateExpr, the
 * %{for} join) and of `for` expressions, as HCL 2.14.1's hclsyntax does
 * it (spec/templates.md section 5, spec/evaluation.md; semantics.md T,
 * F).  The `for` expression lives here because a %{for} directive is one.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "eval_internal.h"
#include "refine.h"
#include "render.h"
#include "text.h"

/* ---------------------------------------------------------------------
 * Templates [tmpl.eval.*]
 * ------------------------------------------------------------------ */

/* Appends s to the text being built, within the string limit. */
static void append_text(tfx_ev *ev, tfx_textbuf *buf, tfx_str s)
{
    tfx_ctx_check_string(ev->ctx, buf->nbytes + s.nbytes);
    if (buf->nbytes + s.nbytes < buf->nbytes)
        tfx_ctx_check_string(ev->ctx, SIZE_MAX);
    tfx_textbuf_put(buf, s.s, s.nbytes);
}

/* The text built so far as a string value (NFC) [tmpl.eval.nfc]
 * [value.string.nfc]; the buffer is not used after.  ASCII text is NFC as
 * it is, and tfx_value_string would only copy it (tfx_text_nfc's ASCII
 * path): the buffer's own bytes, in the ctx's arena, become the value's. */
static const tfx_value *text_value(tfx_ev *ev, tfx_textbuf *buf)
{
    if (buf->nbytes > 0 && tfx_text_is_ascii((const unsigned char *)buf->s, buf->nbytes))
        return tfx_value_string_raw(ev->ctx, buf->s, buf->nbytes);
    return tfx_value_string(ev->ctx, buf->nbytes > 0 ? buf->s : "", buf->nbytes);
}

/* [tmpl.eval.concat] [tmpl.eval.null] [tmpl.eval.convert]
 * [tmpl.eval.unknown] [tmpl.eval.marks] [tmpl.eval.nfc] (semantics T1,
 * T3–T9, S14) TemplateExpr: each part's value in order; a null part is an
 * error and contributes nothing; the others give their marks; an unknown
 * part makes the result unknown(string); a known one is converted to a
 * string and appended. */
/* [refine.template] Profile PN (HCL 2.24): the unknown result of a
 * template is not null, and when no part failed, starts with the text of
 * the known parts before the first unknown one: its first 128 bytes, in
 * NFC, cut to what later text cannot change (tfx_refine_safe_prefix). */
static const tfx_value *unknown_template_pn(tfx_ev *ev, const char *text, size_t nbytes,
                                            size_t ndiags_before)
{
    tfx_ctx *ctx = ev->ctx;
    tfx_refinement r;
    size_t i;

    tfx_refinement_init(&r);
    r.not_null = true;
    for (i = ndiags_before; i < ev->diags->n; i++)
        if (ev->diags->items[i].severity == TFX_SEV_ERROR)
            nbytes = 0;
    if (nbytes > 0) {
        const tfx_value *s;

        /* cut on a character boundary: a cut through a character would
         * leave bytes that are not UTF-8, whose NFC form keeps only what
         * comes before them */
        if (nbytes > 128) {
            nbytes = 128;
            while (nbytes > 0 && ((unsigned char)text[nbytes] & 0xC0) == 0x80)
                nbytes--;
        }
        s = tfx_value_string(ctx, text, nbytes);
        r.prefix.s = s->as.string.s;
        r.prefix.nbytes = tfx_refine_safe_prefix(s->as.string.s, s->as.string.nbytes);
    }
    return tfx_value_refine(ctx, tfx_value_unknown(ctx, &tfx_type_str), &r);
}

const tfx_value *tfx_ev_template(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    tfx_ctx *ctx = ev->ctx;
    tfx_textbuf buf;
    const tfx_marks *marks = NULL;
    bool known = true;
    size_t i;
    size_t nknown = 0; /* the bytes of buf before the first unknown part */
    size_t ndiags = ev->diags->n;

    tfx_textbuf_init(&buf, ctx);
    for (i = 0; i < n->as.template.nparts; i++) {
        const tfx_node *part = n->as.template.parts[i];
        const tfx_value *v = tfx_ev_node(ev, part, env);
        const tfx_marks *m = NULL;
        const char *why = NULL;
        const tfx_value *s;

        if (tfx_value_is_null(v)) {
            tfx_ev_error(ev, TFX_CAT_OPERAND_TYPE, "Invalid template interpolation value",
                         &part->range, &n->range,
                         "The expression result is null. Cannot include a null value in a "
                         "string template.");
            continue;
        }
        v = tfx_value_unmark(ctx, v, &m);
        marks = tfx_marks_union(ctx, marks, m);
        if (tfx_value_is_unknown(v)) {
            if (known)
                nknown = buf.nbytes;
            known = false;
            continue;
        }
        s = tfx_ev_convert(ev, v, &tfx_type_str, &why);
        if (s == NULL) {
            tfx_ev_error(ev, TFX_CAT_OPERAND_TYPE, "Invalid template interpolation value",
                         &part->range, &n->range,
                         "Cannot include the given value in a string template: %s.",
                         why != NULL ? why : "string required");
            continue;
        }
        /* [tmpl.eval.errors.pn] PN (HCL 2.17) stops writing at the first
         * error: a failed template's value holds the parts before it */
        if (!ctx->pn || !tfx_ev_failed_since(ev, ndiags))
            append_text(ev, &buf, s->as.string);
    }
    if (!known && ctx->pn)
        return tfx_value_mark(ctx, unknown_template_pn(ev, buf.s, nknown, ndiags), marks);
    if (!known)
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, &tfx_type_str), marks);
    return tfx_value_mark(ctx, text_value(ev, &buf), marks);
}

/* [tmpl.eval.for] [tmpl.eval.for.marks] (semantics T12, T13, T22)
 * TemplateJoinExpr: the tuple `for` expression; unknown or failed gives
 * unknown(string); else its elements (the rendered bodies) joined, with
 * the tuple's marks and those of each element; an unknown element ends
 * the join with an unknown carrying the tuple's marks only. */
const tfx_value *tfx_ev_template_join(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    tfx_ctx *ctx = ev->ctx;
    const tfx_value *tuple = tfx_ev_node(ev, n->as.join.tuple, env);
    const tfx_marks *tuple_marks = NULL;
    const tfx_marks *marks;
    tfx_textbuf buf;
    size_t count;
    size_t i;

    if (tuple->type->kind != TFX_TYPE_TUPLE || !tfx_value_is_known(tuple))
        return tfx_value_unknown(ctx, &tfx_type_str);
    tuple = tfx_value_unmark(ctx, tuple, &tuple_marks);
    marks = tuple_marks;
    tfx_textbuf_init(&buf, ctx);
    count = tfx_value_length(tuple);
    for (i = 0; i < count; i++) {
        const tfx_value *v = tfx_value_item(tuple, i);
        const tfx_marks *m = NULL;
        const char *why = NULL;
        const tfx_value *s;

        if (tfx_value_is_null(v)) {
            tfx_ev_error(ev, TFX_CAT_OPERAND_TYPE, "Invalid template interpolation value",
                         &n->range, NULL,
                         "An iteration result is null. Cannot include a null value in a string "
                         "template.");
            continue;
        }
        if (v->type->kind == TFX_TYPE_DYNAMIC)
            return tfx_value_mark(ctx, tfx_value_unknown(ctx, &tfx_type_str), tuple_marks);
        s = tfx_ev_convert(ev, v, &tfx_type_str, &why);
        if (s == NULL) {
            tfx_ev_error(ev, TFX_CAT_OPERAND_TYPE, "Invalid template interpolation value",
                         &n->range, NULL,
                         "Cannot include one of the interpolation results into the string "
                         "template: %s.",
                         why != NULL ? why : "string required");
            continue;
        }
        if (tfx_value_is_unknown(v))
            return tfx_value_mark(ctx, tfx_value_unknown(ctx, &tfx_type_str), tuple_marks);
        s = tfx_value_unmark(ctx, s, &m);
        marks = tfx_marks_union(ctx, marks, m);
        append_text(ev, &buf, s->as.string);
    }
    return tfx_value_mark(ctx, text_value(ev, &buf), marks);
}

/* ---------------------------------------------------------------------
 * `for` expressions [for.*]
 * ------------------------------------------------------------------ */

/* The child scope of one iteration: the key and value variables (the
 * value wins when both have one name) [for.scope]. */
typedef struct {
    tfx_env env;
    tfx_str names[2];
    const tfx_value *vals[2];
} for_scope;

static void scope_init(for_scope *s, const tfx_node *n, const tfx_env *parent,
                       const tfx_value *k, const tfx_value *v)
{
    tfx_str kname = {n->as.for_expr.key_var, n->as.for_expr.nkey_var};
    tfx_str vname = {n->as.for_expr.val_var, n->as.for_expr.nval_var};

    memset(s, 0, sizeof(*s));
    s->env.parent = parent;
    s->env.has_variables = true;
    s->env.var_names = s->names;
    s->env.var_values = s->vals;
    if (kname.s == NULL || tfx_str_cmp(kname, vname) == 0) {
        s->names[0] = vname;
        s->vals[0] = v;
        s->env.nvars = 1;
        return;
    }
    if (tfx_str_cmp(kname, vname) < 0) {
        s->names[0] = kname;
        s->vals[0] = k;
        s->names[1] = vname;
        s->vals[1] = v;
    } else {
        s->names[0] = vname;
        s->vals[0] = v;
        s->names[1] = kname;
        s->vals[1] = k;
    }
    s->env.nvars = 2;
}

/* [for.order] (semantics F2, F3) Element i of a known collection as a
 * key and a value: list and tuple index (a 64-bit integer) and element;
 * set element twice (set order); map and object key string and value
 * (key order). */
static void element_at(tfx_ev *ev, const tfx_value *coll, size_t i, bool want_key,
                       const tfx_value **k, const tfx_value **v)
{
    switch (coll->type->kind) {
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT:
        *v = coll->as.attrs.vals[i];
        *k = want_key ? tfx_value_string_raw(ev->ctx, coll->as.attrs.keys[i].s,
                                             coll->as.attrs.keys[i].nbytes)
                      : NULL;
        return;
    case TFX_TYPE_SET:
        *v = tfx_value_item(coll, i);
        *k = *v;
        return;
    default:
        *v = tfx_value_item(coll, i);
        *k = want_key ? tfx_value_int(ev->ctx, (int64_t)i) : NULL;
        return;
    }
}

/* A set of strings (the keys an object `for` has produced), for the
 * duplicate check: open addressing over indices into `keys`.  Each slot
 * keeps its key's hash, so that a probe looks at another key's bytes only
 * when the hashes agree, and growing reads no key. */
typedef struct {
    size_t index1;     /* index + 1; 0 is empty */
    size_t hash;       /* hash_str of keys[index] */
} key_slot;

typedef struct {
    const tfx_str *keys;
    key_slot *slots;
    size_t nslots;     /* a power of two */
    size_t n;
} key_set;

static size_t hash_str(tfx_str s)
{
    uint64_t h = 1469598103934665603u;   /* FNV-1a */
    size_t i;

    for (i = 0; i < s.nbytes; i++) {
        h ^= (unsigned char)s.s[i];
        h *= 1099511628211u;
    }
    return (size_t)h;
}

static void key_set_grow(tfx_ctx *ctx, key_set *set)
{
    size_t nslots = set->nslots < 16 ? 16 : set->nslots * 2;
    key_slot *slots = tfx_ctx_alloc_array(ctx, nslots, sizeof(key_slot));
    size_t i;

    for (i = 0; i < set->nslots; i++) {
        size_t j;

        if (set->slots[i].index1 == 0)
            continue;
        j = set->slots[i].hash & (nslots - 1);
        while (slots[j].index1 != 0)
            j = (j + 1) & (nslots - 1);
        slots[j] = set->slots[i];
    }
    set->slots = slots;
    set->nslots = nslots;
}

/* The index of the key in the set equal to keys[index]; when there is
 * none, adds keys[index] and returns index.  hash is hash_str(keys[index]). */
static size_t key_set_find_hashed(tfx_ctx *ctx, key_set *set, size_t index, size_t hash)
{
    tfx_str key = set->keys[index];
    size_t j;

    if ((set->n + 1) * 2 > set->nslots)
        key_set_grow(ctx, set);
    j = hash & (set->nslots - 1);
    while (set->slots[j].index1 != 0) {
        const key_slot *e = &set->slots[j];

        if (e->hash == hash && tfx_str_cmp(set->keys[e->index1 - 1], key) == 0)
            return e->index1 - 1;
        j = (j + 1) & (set->nslots - 1);
    }
    set->slots[j].index1 = index + 1;
    set->slots[j].hash = hash;
    set->n++;
    return index;
}

/* The same, hashing keys[index] itself. */
static size_t key_set_find(tfx_ctx *ctx, key_set *set, size_t index)
{
    return key_set_find_hashed(ctx, set, index, hash_str(set->keys[index]));
}

/* Asks the processor to fetch the slot where a key of this hash is looked
 * for first: a hint, which changes nothing but how long a later
 * key_set_find_hashed waits for memory. */
static void key_set_prefetch(const key_set *set, size_t hash)
{
#if defined(__GNUC__) || defined(__clang__)
    if (set->nslots > 0)
        __builtin_prefetch(&set->slots[hash & (set->nslots - 1)]);
#else
    (void)set;
    (void)hash;
#endif
}

/* Whether keys[index] is in the set already; adds it if not. */
static bool key_set_add(tfx_ctx *ctx, key_set *set, size_t index)
{
    return key_set_find(ctx, set, index) != index;
}

/* [mark.prop.for.pn] The unknown(dynamic) result of a `for` expression
 * whose iteration made it unknown: in profile PN (HCL 2.23) it keeps the
 * marks gathered so far, in P14 none. */
static const tfx_value *unknown_for_pn(tfx_ctx *ctx, const tfx_marks *marks)
{
    return ctx->pn ? tfx_value_mark(ctx, &tfx_value_dynamic_unknown, marks)
                   : &tfx_value_dynamic_unknown;
}

/* [for.cond.early] (semantics F12) The `if` clause evaluated once with
 * both variables unknown(dynamic), before the iteration: a null result,
 * one that does not convert to bool, or errors end the expression.
 * Returns whether it may go on. */
static bool early_condition(tfx_ev *ev, const tfx_node *n, const tfx_env *env,
                            const tfx_marks **cond_marks)
{
    const tfx_node *cond = n->as.for_expr.cond;
    for_scope scope;
    size_t mark = ev->diags->n;
    const tfx_value *r;
    const char *why = NULL;

    scope_init(&scope, n, env, &tfx_value_dynamic_unknown, &tfx_value_dynamic_unknown);
    r = tfx_ev_node(ev, cond, &scope.env);
    if (tfx_value_is_null(r)) {
        tfx_ev_error(ev, TFX_CAT_NULL_CONDITION, "Condition is null", &cond->range, &n->range,
                     "The value of the 'if' clause must not be null.");
        return false;
    }
    *cond_marks = r->marks;
    if (tfx_ev_convert(ev, r, &tfx_type_bool, &why) == NULL) {
        tfx_ev_error(ev, TFX_CAT_ITERATION, "Invalid 'for' condition", &cond->range, &n->range,
                     "The 'if' clause value is invalid: %s.", why != NULL ? why : "bool required");
        return false;
    }
    return !tfx_ev_failed_since(ev, mark);
}

/* The state of one iteration's `if` clause. */
typedef enum { COND_KEEP, COND_SKIP, COND_UNKNOWN } cond_result;

/* [for.cond] [for.errors] [mark.prop.for] (semantics F11, F13, F21) The
 * `if` clause of one element: null and non-bool results are errors
 * (reported only while the result is still known); an unknown result
 * makes the whole unknown; a known one's marks go onto the result.  The tuple form looks
 * at unknowns before converting, the object form after, as upstream. */
static cond_result element_condition(tfx_ev *ev, const tfx_node *n, const tfx_env *scope,
                                     bool known, const tfx_marks **marks)
{
    const tfx_node *cond = n->as.for_expr.cond;
    bool object_form = n->as.for_expr.key != NULL;
    const tfx_value *raw = tfx_ev_node(ev, cond, scope);
    const tfx_value *inc;
    const tfx_marks *m = NULL;
    const char *why = NULL;

    if (tfx_value_is_null(raw)) {
        if (known)
            tfx_ev_error(ev, TFX_CAT_ITERATION, "Invalid 'for' condition", &cond->range,
                         &n->range, "The value of the 'if' clause must not be null.");
        return COND_UNKNOWN;
    }
    if (ev->ctx->pn) /* [mark.prop.for.pn] also when unknown or not a bool */
        *marks = tfx_marks_union(ev->ctx, *marks, raw->marks);
    if (!object_form && tfx_value_is_unknown(raw))
        return COND_UNKNOWN;
    inc = tfx_ev_convert(ev, raw, &tfx_type_bool, &why);
    if (inc == NULL) {
        if (known)
            tfx_ev_error(ev, TFX_CAT_ITERATION, "Invalid 'for' condition", &cond->range,
                         &n->range, "The 'if' clause value is invalid: %s.",
                         why != NULL ? why : "bool required");
        return COND_UNKNOWN;
    }
    if (tfx_value_is_unknown(inc))
        return COND_UNKNOWN;
    inc = tfx_value_unmark(ev->ctx, inc, &m);
    *marks = tfx_marks_union(ev->ctx, *marks, m);
    return inc->as.boolean ? COND_KEEP : COND_SKIP;
}

/* [for.group] (semantics F10) The grouped object: each key's values, in
 * iteration order, as a tuple; by a stable sort of the keys. */
const tfx_value *tfx_ev_group_general(tfx_ctx *ctx, const tfx_str *names,
                                      const tfx_value *const *vals, size_t count)
{
    size_t *order = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1, sizeof(size_t));
    tfx_str *gnames = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1, sizeof(tfx_str));
    const tfx_value **gvals = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1,
                                                  sizeof(const tfx_value *));
    const tfx_value **run = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1,
                                                sizeof(const tfx_value *));
    size_t ngroups = 0;
    size_t i = 0;

    tfx_str_sort_order(ctx, names, order, count);
    while (i < count) {
        size_t j = i;
        size_t nrun = 0;

        while (j < count && tfx_str_cmp(names[order[j]], names[order[i]]) == 0)
            run[nrun++] = vals[order[j++]];
        gnames[ngroups] = names[order[i]];
        gvals[ngroups] = tfx_value_tuple(ctx, run, nrun);
        ngroups++;
        i = j;
    }
    return tfx_value_object(ctx, gnames, gvals, ngroups);
}

/* Groups of more values than this get a tuple type of their own
 * (group_tuple). */
#define UNIFORM_TUPLE_MAX 1024

/* [for.group] [value.tuple] The tuple types of a grouping whose values
 * all have one type (by address, as those of a decoded variable's
 * attribute have): the tuple type of k of them is made once, for every
 * group of k values (k <= max), rather than once per group. */
typedef struct {
    const tfx_type *const *rep;   /* max copies of the values' one type;
                                     NULL when their types differ */
    const tfx_type **types;       /* types[k]: made when first needed */
    size_t max;
} uniform_tuples;

/* The type of every one of vals[0..count) by address, or NULL (none, or
 * two types). */
static const tfx_type *values_one_type(const tfx_value *const *vals, size_t count)
{
    for (size_t i = 1; i < count; i++)
        if (vals[i]->type != vals[0]->type)
            return NULL;
    return count > 0 ? vals[0]->type : NULL;
}

/* one_type: the values' one type (values_one_type), or NULL. */
static void uniform_tuples_init(tfx_ctx *ctx, uniform_tuples *u, const tfx_type *one_type,
                                size_t largest)
{
    const tfx_type **rep;

    u->rep = NULL;
    u->types = NULL;
    u->max = largest < UNIFORM_TUPLE_MAX ? largest : UNIFORM_TUPLE_MAX;
    if (one_type == NULL)
        return;
    rep = tfx_ctx_alloc_array(ctx, u->max + 1, sizeof(const tfx_type *));
    for (size_t k = 0; k <= u->max; k++)
        rep[k] = one_type;
    u->rep = rep;
    u->types = tfx_ctx_alloc_array(ctx, u->max + 1, sizeof(const tfx_type *));
}

/* [for.group] [value.tuple] Fast path of tfx_value_tuple(ctx, items, k)
 * for a group's values items[0..k), which the grouping leaves alone and
 * keeps as long as its result: when every value has the one type of
 * uniform_tuples, the tuple type of k elements of that type made once,
 * and items itself as the elements (tfx_value_tuple_of_type).  The
 * general constructor would make a tuple type of the same k element
 * types and copy the same item pointers, so the value is the same. */
static const tfx_value *group_tuple(tfx_ctx *ctx, uniform_tuples *u,
                                    const tfx_value *const *items, size_t k)
{
    if (u->rep == NULL || k > u->max)
        return tfx_value_tuple(ctx, items, k);
    if (u->types[k] == NULL)
        u->types[k] = tfx_type_tuple(ctx, u->rep, k);
    return tfx_value_tuple_of_type(ctx, u->types[k], items, k);
}

/* How far ahead of the key it looks up the grouping hashes a key and asks
 * for its slot (key_set_prefetch), so that the slot is on its way from
 * memory while the keys before it are looked up. */
#define GROUP_AHEAD 8

/* n items of `size` bytes in ctx's arena, not cleared: for arrays each of
 * whose items is written before it is read (a million-element array is
 * then touched once, not twice). */
static void *alloc_uncleared(tfx_ctx *ctx, size_t n, size_t size)
{
    void *p = size != 0 && n > SIZE_MAX / size ? NULL : tfx_arena_alloc_raw(ctx->arena, n * size);

    if (p == NULL)
        tfx_ctx_fail(ctx, "Memory limit exceeded",
                     "The evaluation needs more than the memory limit of %zu bytes.",
                     ctx->limits.max_memory_bytes);
    return p;
}

/* [for.group] (semantics F10) The fast path of tfx_ev_group_general: each
 * key gets a group number in order of first appearance (a hash table of
 * the distinct keys, key_set's, whose slots hold group numbers), only the
 * distinct keys are sorted, and the values are laid out group by group in
 * key order, each group's in iteration order.  The general path's stable
 * sort puts the values of one key next to each other in iteration order,
 * and its groups in key order: the same tuples under the same keys, with
 * n + g log g work for g distinct keys instead of n log n.  The keys come
 * out sorted and distinct, which is what tfx_value_object_sorted needs;
 * each group's tuple is group_tuple's.  test_eval compares both on random
 * keys.  one_type is values_one_type(vals, count), which for_object
 * works out as the values come. */
static const tfx_value *group_values(tfx_ctx *ctx, const tfx_str *names,
                                     const tfx_value *const *vals, size_t count,
                                     const tfx_type *one_type)
{
    size_t n1 = count > 0 ? count : 1;
    size_t *group = alloc_uncleared(ctx, n1, sizeof(size_t));
    tfx_str *gnames = alloc_uncleared(ctx, n1, sizeof(tfx_str));
    size_t ahead[GROUP_AHEAD];   /* hashes of names[i .. i + GROUP_AHEAD) */
    const tfx_value **laid;
    size_t *order;
    size_t *rank;
    size_t *end;
    tfx_str *sorted;
    const tfx_value **gvals;
    key_set seen;
    uniform_tuples u;
    size_t ngroups = 0;
    size_t largest = 0;

    memset(&seen, 0, sizeof(seen));
    seen.keys = gnames;
    for (size_t i = 0; i < count && i < GROUP_AHEAD; i++)
        ahead[i] = hash_str(names[i]);
    for (size_t i = 0; i < count; i++) {
        size_t hash = ahead[i % GROUP_AHEAD];
        size_t g;

        if (i + GROUP_AHEAD < count) {
            ahead[i % GROUP_AHEAD] = hash_str(names[i + GROUP_AHEAD]);
            key_set_prefetch(&seen, ahead[i % GROUP_AHEAD]);
        }
        /* a new key would be group ngroups */
        gnames[ngroups] = names[i];
        g = key_set_find_hashed(ctx, &seen, ngroups, hash);
        if (g == ngroups) {
            /* the key kept where the keys after it compare with it:
             * near the other keys, not somewhere in the collection */
            gnames[g].s = tfx_ctx_strndup(ctx, names[i].s, names[i].nbytes);
            ngroups++;
        }
        group[i] = g;
    }
    /* rank[g]: group g's place in key order */
    order = alloc_uncleared(ctx, ngroups + 1, sizeof(size_t));
    tfx_str_sort_order(ctx, gnames, order, ngroups);
    rank = alloc_uncleared(ctx, ngroups + 1, sizeof(size_t));
    for (size_t r = 0; r < ngroups; r++)
        rank[order[r]] = r;
    /* end[r]: the size of the group of rank r, then where its values
     * begin in laid, then (once they are laid out) where they end, which
     * is where rank r + 1's begin */
    end = tfx_ctx_alloc_array(ctx, ngroups + 1, sizeof(size_t));
    for (size_t i = 0; i < count; i++) {
        group[i] = rank[group[i]];
        end[group[i]]++;
    }
    for (size_t r = 0, at = 0; r < ngroups; r++) {
        size_t size = end[r];

        if (size > largest)
            largest = size;
        end[r] = at;
        at += size;
    }
    laid = alloc_uncleared(ctx, n1, sizeof(const tfx_value *));
    for (size_t i = 0; i < count; i++)
        laid[end[group[i]]++] = vals[i];
    sorted = alloc_uncleared(ctx, ngroups + 1, sizeof(tfx_str));
    gvals = alloc_uncleared(ctx, ngroups + 1, sizeof(const tfx_value *));
    uniform_tuples_init(ctx, &u, one_type, largest);
    for (size_t r = 0; r < ngroups; r++) {
        size_t begin = r > 0 ? end[r - 1] : 0;

        sorted[r] = gnames[order[r]];
        gvals[r] = group_tuple(ctx, &u, laid + begin, end[r] - begin);
    }
    return tfx_value_object_sorted(ctx, sorted, gvals, ngroups);
}

const tfx_value *tfx_ev_group(tfx_ctx *ctx, const tfx_str *names,
                              const tfx_value *const *vals, size_t count)
{
    return group_values(ctx, names, vals, count, values_one_type(vals, count));
}

/* [for.key] (semantics F8, F9, Z5) One element's key: null, unknown and
 * non-string keys stop the element (only the first error is reported,
 * while the result is still known); else *name is the key's string and
 * *key_marks its marks, in ev's ctx. */
static bool element_key(tfx_ev *ev, const tfx_node *n, const tfx_env *scope, bool *known,
                        tfx_str *name, const tfx_marks **key_marks)
{
    const tfx_node *keyx = n->as.for_expr.key;
    const tfx_value *key = tfx_ev_node(ev, keyx, scope);
    const char *why = NULL;

    if (tfx_value_is_null(key)) {
        if (*known)
            tfx_ev_error(ev, TFX_CAT_OBJECT_KEY, "Invalid object key", &keyx->range, &n->range,
                         "Key expression in 'for' expression must not produce a null value.");
        *known = false;
        return false;
    }
    *key_marks = key->marks; /* [mark.prop.for.pn] kept by PN when the key fails */
    if (tfx_value_is_unknown(key)) {
        *known = false;
        return false;
    }
    key = tfx_ev_convert(ev, key, &tfx_type_str, &why);
    if (key == NULL) {
        if (*known)
            tfx_ev_error(ev, TFX_CAT_OBJECT_KEY, "Invalid object key", &keyx->range, &n->range,
                         "The key expression produced an invalid result: %s.",
                         why != NULL ? why : "string required");
        *known = false;
        return false;
    }
    key = tfx_value_unmark(ev->ctx, key, key_marks);
    *name = key->as.string;
    return true;
}

/* The keys of an object `for` are worked out in a scratch ctx: an arena
 * of their own (freed with the main one, by a finalizer, and started
 * afresh once it holds KEY_SCRATCH_BYTES) and the main ctx's limits and
 * counters.  Of a key, only its string and its marks are kept, copied
 * into the main arena; what the key expression made on the way (a
 * tostring(i % 100)'s number and strings) goes with the scratch arena
 * instead of staying until the end of the evaluation. */
#define KEY_SCRATCH_BYTES ((size_t)1 << 20)

/* Collections of fewer elements work their keys out in the main ctx: the
 * scratch arena's first chunk would cost more than it saves. */
#define KEY_SCRATCH_MIN 1024

/* [for.key] Whether an object `for` works its keys out in the main ctx
 * even over a long collection: a key written as a scope traversal (x.name,
 * x["k"]) is a value the collection or another variable holds already;
 * looking it up makes nothing or next to nothing (a map step's key
 * string), less than the copy of the key that the scratch ctx needs.  It
 * is the same key either way: scratch_key gives what element_key gives
 * in the main ctx, and the key's bytes live as long as the variable that
 * holds them, which outlives the evaluation's values. */
static bool key_in_main_ctx(const tfx_node *keyx, size_t count)
{
    return count < KEY_SCRATCH_MIN || keyx->kind == TFX_NODE_SCOPE_TRAVERSAL;
}

typedef struct {
    tfx_arena *arena;
} key_scratch_box;

typedef struct {
    tfx_ev *ev;
    tfx_ctx scratch;             /* the main ctx with the scratch arena */
    key_scratch_box *box;
    tfx_ev_cache *cache;         /* the evaluation cache of the scratch arena */
} key_scratch;

typedef struct {
    tfx_ev *ev;
    const tfx_node *n;
    const tfx_env *scope;
    bool *known;
    tfx_str *name;
    const tfx_marks **key_marks;
    bool ok;
} key_job;

static void key_scratch_free(void *p)
{
    key_scratch_box *box = p;

    tfx_arena_free(box->arena);
    box->arena = NULL;
}

static void key_scratch_init(key_scratch *ks, tfx_ev *ev)
{
    ks->ev = ev;
    ks->cache = NULL;
    ks->box = tfx_ctx_alloc(ev->ctx, sizeof(*ks->box));
    ks->box->arena = NULL;
    if (!tfx_arena_finalizer(ev->ctx->arena, key_scratch_free, ks->box))
        tfx_ctx_fail(ev->ctx, "Memory limit exceeded",
                     "The evaluation needs more than the memory limit of %zu bytes.",
                     ev->ctx->limits.max_memory_bytes);
}

static void run_key_job(tfx_ctx *ctx, void *arg)
{
    key_job *job = arg;

    (void)ctx;
    job->ok = element_key(job->ev, job->n, job->scope, job->known, job->name, job->key_marks);
}

/* [for.key] [limit.eval] element_key in the scratch ctx, its string and
 * marks then copied into the main ctx.  It gives the same key, marks,
 * diagnostics and failures as element_key in the main ctx: the
 * diagnostics are copied into the diagnostics' own memory as they are
 * made, the step count and depth carry over both ways, a failure is
 * raised again in the main ctx with its summary and detail, and the
 * scratch arena's budget is what is left of the main one's when it is
 * made, and before each key the two arenas together are held to the
 * memory limit (between two keys the main arena may pass it by what one
 * element's value takes, [limit.eval.memory]).  The evaluation's cache of
 * literal values and functions is swapped for one in the scratch arena
 * meanwhile, as the values in it go with that arena. */
static bool scratch_key(key_scratch *ks, const tfx_node *n, const tfx_env *scope, bool *known,
                        tfx_str *name, const tfx_marks **key_marks)
{
    tfx_ev *ev = ks->ev;
    tfx_ctx *ctx = ev->ctx;
    tfx_ev_cache *main_cache = ev->cache;
    key_job job;
    bool done;

    if (ks->box->arena == NULL || tfx_arena_used(ks->box->arena) > KEY_SCRATCH_BYTES) {
        size_t max = ctx->limits.max_memory_bytes;
        size_t used = tfx_arena_used(ctx->arena);

        tfx_arena_free(ks->box->arena);
        ks->box->arena = NULL;
        ks->cache = NULL;
        ks->box->arena = tfx_arena_new(max == 0 ? 0 : max > used ? max - used : 1);
        if (ks->box->arena == NULL)
            tfx_ctx_fail(ctx, "Memory limit exceeded",
                         "The evaluation needs more than the memory limit of %zu bytes.", max);
        ks->scratch = *ctx;
        ks->scratch.arena = ks->box->arena;
    } else if (ctx->limits.max_memory_bytes != 0
               && tfx_arena_used(ctx->arena) + tfx_arena_used(ks->box->arena)
                      > ctx->limits.max_memory_bytes) {
        /* [limit.eval.memory] the two arenas together */
        tfx_ctx_fail(ctx, "Memory limit exceeded",
                     "The evaluation needs more than the memory limit of %zu bytes.",
                     ctx->limits.max_memory_bytes);
    }
    ks->scratch.steps = ctx->steps;
    ks->scratch.depth = ctx->depth;
    job.ev = ev;
    job.n = n;
    job.scope = scope;
    job.known = known;
    job.name = name;
    job.key_marks = key_marks;
    job.ok = false;
    ev->ctx = &ks->scratch;
    ev->cache = ks->cache;
    done = tfx_ctx_try(&ks->scratch, run_key_job, &job);
    ks->cache = ev->cache;
    ev->cache = main_cache;
    ev->ctx = ctx;
    ctx->steps = ks->scratch.steps;
    if (!done)
        tfx_ctx_fail(ctx, ks->scratch.fail_summary, "%s", ks->scratch.fail_detail);
    *key_marks = tfx_marks_copy(ctx, *key_marks);
    if (!job.ok)
        return false;
    name->s = tfx_ctx_strndup(ctx, name->s, name->nbytes);
    return true;
}

/* [for.object] [for.key] [for.duplicate] [for.group] [mark.prop.for]
 * (semantics F1, F8–F10, F20, F21, Z5) The object form's iteration:
 * per element the `if` clause, the key (null, unknown and non-string
 * keys stop the element; only the first error is reported), its marks,
 * the value; a duplicate key without grouping is an error and the first
 * value stays. */
static const tfx_value *for_object(tfx_ev *ev, const tfx_node *n, const tfx_env *env,
                                   const tfx_value *coll, const tfx_marks *marks)
{
    tfx_ctx *ctx = ev->ctx;
    const tfx_node *keyx = n->as.for_expr.key;
    size_t count = tfx_value_length(coll);
    tfx_str *names = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1, sizeof(tfx_str));
    const tfx_value **vals = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1,
                                                 sizeof(const tfx_value *));
    bool want_key = n->as.for_expr.key_var != NULL;
    bool group = n->as.for_expr.group;
    bool in_main = key_in_main_ctx(keyx, count);
    bool known = true;
    const tfx_type *one_type = NULL;   /* of the values so far (group_values) */
    key_set seen;
    key_scratch ks;
    size_t m = 0;
    size_t i;

    memset(&seen, 0, sizeof(seen));
    seen.keys = names;
    if (!in_main)
        key_scratch_init(&ks, ev);
    for (i = 0; i < count; i++) {
        const tfx_value *k;
        const tfx_value *v;
        tfx_str key;
        const tfx_marks *key_marks = NULL;
        for_scope scope;

        element_at(ev, coll, i, want_key, &k, &v);
        scope_init(&scope, n, env, k, v);
        if (n->as.for_expr.cond != NULL) {
            cond_result c = element_condition(ev, n, &scope.env, known, &marks);

            if (c == COND_UNKNOWN)
                known = false;
            if (c != COND_KEEP)
                continue;
        }
        if (!(in_main ? element_key(ev, n, &scope.env, &known, &key, &key_marks)
                      : scratch_key(&ks, n, &scope.env, &known, &key, &key_marks))) {
            if (ctx->pn)
                marks = tfx_marks_union(ctx, marks, key_marks);
            continue;
        }
        marks = tfx_marks_union(ctx, marks, key_marks);
        v = tfx_ev_node(ev, n->as.for_expr.value, &scope.env);
        names[m] = key;
        if (!group && key_set_add(ctx, &seen, m)) {
            tfx_ev_error(ev, TFX_CAT_OBJECT_KEY, "Duplicate object key", &keyx->range, &n->range,
                         "Two different items produced the key %s in this 'for' expression. If "
                         "duplicates are expected, use the ellipsis (...) after the value "
                         "expression to enable grouping by key.",
                         tfx_ev_quote(ev, key.s, key.nbytes));
            continue;
        }
        vals[m] = v;
        if (m == 0)
            one_type = v->type;
        else if (v->type != one_type)
            one_type = NULL;
        m++;
    }
    if (!in_main)
        key_scratch_free(ks.box);
    if (!known)
        return unknown_for_pn(ctx, marks);
    if (group)
        return tfx_value_mark(ctx, group_values(ctx, names, vals, m, one_type), marks);
    return tfx_value_mark(ctx, tfx_value_object(ctx, names, vals, m), marks);
}

/* [for.tuple] [for.forms] [mark.prop.for] (semantics F1, F7, F11, F13, F20, F21) The
 * tuple form's iteration: per element the `if` clause, then the value. */
static const tfx_value *for_tuple(tfx_ev *ev, const tfx_node *n, const tfx_env *env,
                                  const tfx_value *coll, const tfx_marks *marks)
{
    tfx_ctx *ctx = ev->ctx;
    size_t count = tfx_value_length(coll);
    const tfx_value **vals = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1,
                                                 sizeof(const tfx_value *));
    bool want_key = n->as.for_expr.key_var != NULL;
    bool known = true;
    size_t m = 0;
    size_t i;

    for (i = 0; i < count; i++) {
        const tfx_value *k;
        const tfx_value *v;
        for_scope scope;

        element_at(ev, coll, i, want_key, &k, &v);
        scope_init(&scope, n, env, k, v);
        if (n->as.for_expr.cond != NULL) {
            cond_result c = element_condition(ev, n, &scope.env, known, &marks);

            if (c == COND_UNKNOWN)
                known = false;
            if (c != COND_KEEP)
                continue;
        }
        vals[m++] = tfx_ev_node(ev, n->as.for_expr.value, &scope.env);
    }
    if (!known)
        return unknown_for_pn(ctx, marks);
    return tfx_value_mark(ctx, tfx_value_tuple(ctx, vals, m), marks);
}

/* [for.coll] [for.unknown] [for.empty] [for.scope] (semantics F1–F22,
 * U4, M6) ForExpr: the collection (null, dynamic, non-iterable and
 * unknown collections end it), its marks set aside for the result, the
 * early `if` check, then the iteration in the object or tuple form.
 * Every failure gives unknown(dynamic), without marks (P14). */
const tfx_value *tfx_ev_for(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    tfx_ctx *ctx = ev->ctx;
    const tfx_node *collx = n->as.for_expr.coll;
    const tfx_value *coll = tfx_ev_node(ev, collx, env);
    const tfx_marks *marks = NULL;
    tfx_type_kind kind;

    if (tfx_value_is_null(coll)) {
        tfx_ev_error(ev, TFX_CAT_ITERATION, "Iteration over null value", &collx->range,
                     &n->range, "A null value cannot be used as the collection in a 'for' "
                                "expression.");
        return &tfx_value_dynamic_unknown;
    }
    kind = coll->type->kind;
    if (kind == TFX_TYPE_DYNAMIC)
        return &tfx_value_dynamic_unknown;
    coll = tfx_value_unmark(ctx, coll, &marks);
    if (kind != TFX_TYPE_LIST && kind != TFX_TYPE_SET && kind != TFX_TYPE_MAP
        && kind != TFX_TYPE_TUPLE && kind != TFX_TYPE_OBJECT) {
        tfx_ev_error(ev, TFX_CAT_ITERATION, "Iteration over non-iterable value", &collx->range,
                     &n->range,
                     "A value of type %s cannot be used as the collection in a 'for' expression.",
                     tfx_type_friendly(ctx, coll->type));
        return &tfx_value_dynamic_unknown;
    }
    if (ctx->pn) {
        /* [for.unknown.pn] [mark.prop.for.pn] the early check first; an
         * unknown collection keeps its marks and the check's */
        const tfx_marks *cond_marks = NULL;

        if (n->as.for_expr.cond != NULL && !early_condition(ev, n, env, &cond_marks))
            return &tfx_value_dynamic_unknown;
        if (tfx_value_is_unknown(coll))
            return tfx_value_mark(ctx, &tfx_value_dynamic_unknown,
                                  tfx_marks_union(ctx, marks, cond_marks));
    } else {
        const tfx_marks *cond_marks = NULL;

        if (tfx_value_is_unknown(coll))
            return &tfx_value_dynamic_unknown;
        if (n->as.for_expr.cond != NULL && !early_condition(ev, n, env, &cond_marks))
            return &tfx_value_dynamic_unknown;
    }
    if (n->as.for_expr.key != NULL)
        return for_object(ev, n, env, coll, marks);
    return for_tuple(ev, n, env, coll, marks);
}
