/* SPDX-License-Identifier: MPL-2.0 */
/*
 * eval.c — the evaluator: HCL 2.14.1's hclsyntax Expression.Value for
 * every node kind but the templates and `for` (eval_template.c), with
 * hcl.Index, hcl.GetAttr and Traversal.TraverseAbs/TraverseRel
 * (spec/evaluation.md, spec/functions.md section 1; semantics.md R, I,
 * O, Q, K, FN, U, M, P).
 *
 * Each node's function follows upstream's Value method step by step:
 * the same order of evaluation, the same checks in the same order, the
 * same diagnostics (summary, detail, subject, context) and the same
 * placeholders.  Diagnostics of a sub-expression that upstream drops (the
 * unchosen result of a conditional, say) are collected in a list of their
 * own and never copied over.
 */
#include "eval.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "convert.h"
#include "eval_internal.h"
#include "funcs_internal.h"
#include "refine.h"
#include "render.h"
#include "text.h"

/* ---------------------------------------------------------------------
 * Shared helpers
 * ------------------------------------------------------------------ */

void tfx_ev_error(tfx_ev *ev, tfx_category cat, const char *summary, const tfx_range *subject,
                  const tfx_range *context, const char *detail_fmt, ...)
{
    char detail[1024];
    const char *text = detail;
    va_list ap;
    int len;

    va_start(ap, detail_fmt);
    len = vsnprintf(detail, sizeof(detail), detail_fmt, ap);
    va_end(ap);
    if (len < 0)
        len = 0;
    if ((size_t)len >= sizeof(detail)) {
        /* long (a quoted name, say): format again into the arena */
        char *big = tfx_ctx_alloc(ev->ctx, (size_t)len + 1);

        va_start(ap, detail_fmt);
        vsnprintf(big, (size_t)len + 1, detail_fmt, ap);
        va_end(ap);
        text = big;
    }
    if (tfx_diags_add(ev->diags, TFX_PHASE_EVAL, cat, summary, subject, context, "%s", text)
        == NULL)
        tfx_ctx_fail(ev->ctx, "Memory limit exceeded",
                     "The evaluation needs more than the memory limit of %zu bytes.",
                     ev->ctx->limits.max_memory_bytes);
}

bool tfx_ev_failed_since(const tfx_ev *ev, size_t mark)
{
    return ev->diags->n > mark;
}

const char *tfx_ev_quote(tfx_ev *ev, const char *s, size_t nbytes)
{
    return tfx_textbuf_quoted(ev->ctx, s, nbytes);
}

/* [conv.def] The fast path of tfx_ev_convert: a value whose type is
 * the wanted type itself, a string, number or bool type.  tfx_convert
 * gives such a value back as it is: a primitive type has no optional
 * attributes, so tfx_type_without_optional gives it back, and it equals
 * itself. */
static bool same_primitive_type(const tfx_value *v, const tfx_type *want)
{
    return v->type == want
           && (want->kind == TFX_TYPE_STRING || want->kind == TFX_TYPE_NUMBER
               || want->kind == TFX_TYPE_BOOL);
}

const tfx_value *tfx_ev_convert(tfx_ev *ev, const tfx_value *v, const tfx_type *want,
                                const char **error)
{
    *error = NULL;
    if (same_primitive_type(v, want))
        return v;
    return tfx_convert(ev->ctx, v, want, TFX_CONVERT_UNSAFE, error);
}

static const tfx_value *dynamic_unknown(void)
{
    return &tfx_value_dynamic_unknown;
}

/* Copies the diagnostics of `from` to the end of ev->diags. */
static void append_diags(tfx_ev *ev, const tfx_diags *from)
{
    size_t i;

    for (i = 0; i < from->n; i++) {
        const tfx_diag *d = &from->items[i];

        tfx_ev_error(ev, d->category, d->summary, d->has_subject ? &d->subject : NULL,
                     d->has_context ? &d->context : NULL, "%s", d->detail);
    }
}

/* Evaluates n into a list of diagnostics of its own, *into (which must
 * use the ctx's arena), so that the caller decides whether to keep them. */
static const tfx_value *node_aside(tfx_ev *ev, const tfx_node *n, const tfx_env *env,
                                   tfx_diags *into)
{
    tfx_diags *saved = ev->diags;
    const tfx_value *v;

    tfx_diags_init(into, ev->ctx->arena);
    ev->diags = into;
    v = tfx_ev_node(ev, n, env);
    ev->diags = saved;
    return v;
}

/* [eval.start-range] upstream's StartRange of each node kind. */
tfx_range tfx_ev_start_range(const tfx_node *n)
{
    tfx_range r;

    switch (n->kind) {
    case TFX_NODE_FUNCTION_CALL:
        return tfx_range_between(n->as.call.name_range, n->as.call.open_range);
    case TFX_NODE_CONDITIONAL:
        return tfx_ev_start_range(n->as.conditional.cond);
    case TFX_NODE_BINARY_OP:
        return tfx_ev_start_range(n->as.op.lhs);
    case TFX_NODE_UNARY_OP:
        return tfx_node_lead_range(n);
    case TFX_NODE_INDEX:
        return n->as.index.open_range;
    case TFX_NODE_TUPLE_CONS:
    case TFX_NODE_OBJECT_CONS:
        return tfx_node_lead_range(n);
    case TFX_NODE_OBJECT_CONS_KEY:
        return tfx_ev_start_range(n->as.key.wrapped);
    case TFX_NODE_FOR:
        return n->as.for_expr.open_range;
    case TFX_NODE_SPLAT:
        return n->as.splat.marker_range;
    case TFX_NODE_PARENTHESES:
        return tfx_ev_start_range(n->as.parens.expr);
    case TFX_NODE_TEMPLATE_JOIN:
        return tfx_ev_start_range(n->as.join.tuple);
    case TFX_NODE_TEMPLATE:
        if (n->as.template.nparts > 0)
            return tfx_ev_start_range(n->as.template.parts[0]);
        /* `""`: upstream's one empty literal, just after the quote */
        r.start = n->range.start;
        if (n->range.end.byte > n->range.start.byte) {
            r.start.byte++;
            r.start.column++;
        }
        r.end = r.start;
        return r;
    case TFX_NODE_LITERAL:
    case TFX_NODE_TEMPLATE_WRAP:
    case TFX_NODE_SCOPE_TRAVERSAL:
    case TFX_NODE_RELATIVE_TRAVERSAL:
    case TFX_NODE_ANON_SYMBOL:
    case TFX_NODE_COUNT:
        break;
    }
    return n->range;
}

/* ---------------------------------------------------------------------
 * Literals [eval.literal]
 * ------------------------------------------------------------------ */

/* [eval.literal] [value.string.nfc] [limit.eval.string] A string
 * literal's value from the NFC form the parser worked out
 * (tfx_p_literal_value): the same string tfx_value_string makes of the
 * literal's text, with the same string-limit checks in the same order
 * (the text's length, then the NFC form's), without normalising again. */
static const tfx_value *string_literal_value(tfx_ctx *ctx, const tfx_literal *lit)
{
    tfx_ctx_check_string(ctx, lit->ntext);
    return tfx_value_string_raw(ctx, lit->value.nfc.s, lit->value.nfc.n);
}

/* [eval.literal] [num.literal] (semantics L16, S14) A literal's value:
 * numbers at 512 bits, strings NFC, null of type dynamic; for numbers and
 * strings the value the parser worked out once when there is one. */
static const tfx_value *literal_value(tfx_ctx *ctx, const tfx_literal *lit)
{
    const tfx_num *num = NULL;
    tfx_num_err err;

    switch (lit->kind) {
    case TFX_LIT_NUMBER:
        if (lit->value.num != NULL)
            return tfx_value_number(ctx, lit->value.num);
        err = tfx_num_parse_n(ctx->arena, lit->text, lit->ntext, &num);
        if (err == TFX_NUM_ERR_NOMEM)
            tfx_ctx_fail(ctx, "Memory limit exceeded",
                         "The evaluation needs more than the memory limit of %zu bytes.",
                         ctx->limits.max_memory_bytes);
        if (err != TFX_NUM_OK)
            return tfx_value_unknown(ctx, &tfx_type_number);
        return tfx_value_number(ctx, num);
    case TFX_LIT_STRING:
        if (lit->value.nfc.s != NULL)
            return string_literal_value(ctx, lit);
        return tfx_value_string(ctx, lit->text != NULL ? lit->text : "", lit->ntext);
    case TFX_LIT_BOOL:
        return tfx_value_bool(lit->boolean);
    case TFX_LIT_NULL:
        return &tfx_value_dynamic_null;
    case TFX_LIT_UNKNOWN_NUMBER:
        return tfx_value_unknown(ctx, &tfx_type_number);
    case TFX_LIT_UNKNOWN:
        break;
    }
    return dynamic_unknown();
}

/* Direct-mapped tables of literal values, by the literal's address, and
 * of the functions calls found, by the call's node and the scope whose
 * function table found it. */
#define LITERAL_SLOTS 64
#define CALL_SLOTS 32

struct tfx_ev_cache {
    const tfx_literal *lit[LITERAL_SLOTS];
    const tfx_value *value[LITERAL_SLOTS];
    const tfx_node *call[CALL_SLOTS];
    const tfx_env *call_scope[CALL_SLOTS];
    const tfx_function *call_fn[CALL_SLOTS];
};

/* [eval.literal] The fast path of literal_value for number and string
 * literals whose value the parser worked out: the value made the first
 * time the literal was evaluated in this evaluation, kept in a small
 * table, instead of a new one each time (a literal in a `for` body over a
 * million elements made a million equal values).  It gives the same
 * value: literal_value makes it from the literal alone (its number, or
 * its NFC text after a string-limit check that depends only on the
 * literal and the ctx's limits, which do not change), and values are
 * immutable and compared by content, never by address, except capsules,
 * which literals never are.  The first evaluation of a literal takes the
 * general path; test_eval compares the values of later ones (a `for`
 * body of many random literals, evaluated many times) with those. */
static const tfx_value *cached_literal_value(tfx_ev *ev, const tfx_literal *lit)
{
    size_t slot = ((uintptr_t)lit / sizeof(void *)) % LITERAL_SLOTS;
    const tfx_value *v;

    if ((lit->kind != TFX_LIT_NUMBER || lit->value.num == NULL)
        && (lit->kind != TFX_LIT_STRING || lit->value.nfc.s == NULL))
        return literal_value(ev->ctx, lit);
    if (ev->cache == NULL)
        ev->cache = tfx_ctx_alloc(ev->ctx, sizeof *ev->cache);
    if (ev->cache->lit[slot] == lit)
        return ev->cache->value[slot];
    v = literal_value(ev->ctx, lit);
    ev->cache->lit[slot] = lit;
    ev->cache->value[slot] = v;
    return v;
}

/* ---------------------------------------------------------------------
 * Suggestions [call.suggestion]
 * ------------------------------------------------------------------ */

/* The code points of s[0..nbytes) (a byte that is not UTF-8 counts as
 * U+FFFD, as Go's []rune conversion makes it). */
static size_t runes_of(tfx_ctx *ctx, const char *s, size_t nbytes, int32_t **out)
{
    int32_t *r = tfx_ctx_alloc_array(ctx, nbytes + 1, sizeof(int32_t));
    size_t i = 0;
    size_t n = 0;

    while (i < nbytes) {
        int32_t cp;

        i += tfx_text_decode((const unsigned char *)s + i, nbytes - i, &cp);
        r[n++] = cp < 0 ? 0xFFFD : cp;
    }
    *out = r;
    return n;
}

/* Whether the Levenshtein distance of a and b (in code points, each
 * edit costing 1) is below 3, computed in the band |i - j| <= 2 that
 * decides it. */
static bool close_names(tfx_ctx *ctx, const int32_t *a, size_t na, const int32_t *b, size_t nb)
{
    enum { FAR = 3 };
    size_t *prev;
    size_t *cur;
    size_t i;
    size_t j;

    if ((na > nb ? na - nb : nb - na) >= FAR)
        return false;
    prev = tfx_ctx_alloc_array(ctx, nb + 1, sizeof(size_t));
    cur = tfx_ctx_alloc_array(ctx, nb + 1, sizeof(size_t));
    for (j = 0; j <= nb; j++)
        prev[j] = j < FAR ? j : FAR;
    for (i = 1; i <= na; i++) {
        size_t lo = i > FAR ? i - FAR : 0;
        size_t hi = i + FAR < nb ? i + FAR : nb;
        size_t *tmp;

        for (j = 0; j <= nb; j++)
            cur[j] = FAR;
        if (lo == 0)
            cur[0] = i < FAR ? i : FAR;
        for (j = lo > 1 ? lo : 1; j <= hi; j++) {
            size_t best = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);

            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            cur[j] = best < FAR ? best : FAR;
        }
        tmp = prev;
        prev = cur;
        cur = tmp;
    }
    return prev[nb] < FAR;
}

typedef struct {
    const int32_t *given;
    size_t ngiven;
    tfx_str best;
    bool found;
} suggestion;

/* Considers one candidate: kept if it is close and sorts before the best
 * so far (upstream takes the first close one in Go's map order, which is
 * random; tfexpr takes the first in byte order). */
static void consider(tfx_ctx *ctx, suggestion *sg, const char *name, size_t nbytes)
{
    tfx_str cand = {name, nbytes};
    int32_t *r;
    size_t nr;

    if (sg->found && tfx_str_cmp(cand, sg->best) >= 0)
        return;
    nr = runes_of(ctx, name, nbytes, &r);
    if (close_names(ctx, sg->given, sg->ngiven, r, nr)) {
        sg->best = cand;
        sg->found = true;
    }
}

/* " Did you mean \"x\"?" or "". */
static const char *suggestion_text(tfx_ev *ev, const suggestion *sg)
{
    if (!sg->found)
        return "";
    return tfx_ctx_printf(ev->ctx, " Did you mean %s?", tfx_ev_quote(ev, sg->best.s, sg->best.nbytes));
}

/* ---------------------------------------------------------------------
 * Variables [var.*]
 * ------------------------------------------------------------------ */

/* The variable of one scope, or NULL (binary search: names are sorted). */
static const tfx_value *scope_lookup(const tfx_env *scope, const char *name, size_t nbytes)
{
    tfx_str key = {name, nbytes};
    size_t lo = 0;
    size_t hi = scope->nvars;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = tfx_str_cmp(scope->var_names[mid], key);

        if (c == 0)
            return scope->var_values[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* [var.lookup] [var.none] [var.unknown] [var.name] [call.suggestion]
 * (semantics R1–R3, FN2) Traversal.TraverseAbs's root: the innermost
 * scope with a variable table holding the name gives the value; without
 * any table, "Variables not allowed"; otherwise "Unknown variable", with
 * a suggestion among the names of every scope.  NULL after an error. */
static const tfx_value *lookup_variable(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    const char *name = n->as.traversal.root;
    size_t nname = n->as.traversal.nroot;
    const tfx_env *scope;
    bool any_table = false;
    suggestion sg;

    for (scope = env; scope != NULL; scope = scope->parent) {
        const tfx_value *v;

        if (!scope->has_variables)
            continue;
        any_table = true;
        v = scope_lookup(scope, name, nname);
        if (v != NULL)
            return v;
    }
    if (!any_table) {
        tfx_ev_error(ev, TFX_CAT_UNKNOWN_VARIABLE, "Variables not allowed",
                     &n->as.traversal.root_range, NULL, "Variables may not be used here.");
        return NULL;
    }
    memset(&sg, 0, sizeof(sg));
    {
        int32_t *given;

        sg.ngiven = runes_of(ev->ctx, name, nname, &given);
        sg.given = given;
    }
    for (scope = env; scope != NULL; scope = scope->parent) {
        size_t i;

        for (i = 0; scope->has_variables && i < scope->nvars; i++)
            consider(ev->ctx, &sg, scope->var_names[i].s, scope->var_names[i].nbytes);
    }
    tfx_ev_error(ev, TFX_CAT_UNKNOWN_VARIABLE, "Unknown variable", &n->as.traversal.root_range,
                 NULL, "There is no variable named %s.%s", tfx_ev_quote(ev, name, nname),
                 suggestion_text(ev, &sg));
    return NULL;
}

/* ---------------------------------------------------------------------
 * Index and attribute access [index.*] [attr.*]
 * ------------------------------------------------------------------ */

static const char INVALID_INDEX[] = "Invalid index";
static const char NO_ELEMENT[] = "The given key does not identify an element in this collection value";

/* cty's HasIndex of a list, tuple or map and a key already converted
 * (marks ignored): TRUE, FALSE, or UNKNOWN. */
/* [mark.prop.unknown.pn] Profile PN (HCL 2.23): the top-level marks of
 * the collection or object v that an index or attribute step keeps on the
 * unknown it makes up without looking at v's value; none in P14. */
static const tfx_value *unknown_step_pn(tfx_ev *ev, const tfx_value *unknown, const tfx_value *v)
{
    return ev->ctx->pn ? tfx_value_mark(ev->ctx, unknown, v->marks) : unknown;
}

static tfx_tri has_index(const tfx_value *coll, const tfx_value *key, size_t *index)
{
    int64_t i;

    if (tfx_value_is_unknown(key))
        return TFX_TRI_UNKNOWN;
    if (coll->type->kind == TFX_TYPE_MAP) {
        if (tfx_value_is_unknown(coll))
            return TFX_TRI_UNKNOWN;
        return tfx_value_lookup(coll, key->as.string.s, key->as.string.nbytes) != NULL
                   ? TFX_TRI_TRUE
                   : TFX_TRI_FALSE;
    }
    if (coll->type->kind == TFX_TYPE_LIST && tfx_value_is_unknown(coll))
        return TFX_TRI_UNKNOWN;
    if (!tfx_num_to_int64(key->as.number, &i) || i < 0)
        return TFX_TRI_FALSE;
    *index = (size_t)i;
    if (coll->type->kind == TFX_TYPE_TUPLE)
        return (uint64_t)i < (uint64_t)coll->type->n ? TFX_TRI_TRUE : TFX_TRI_FALSE;
    return (uint64_t)i < (uint64_t)tfx_value_length(coll) ? TFX_TRI_TRUE : TFX_TRI_FALSE;
}

/* [index.list.range] (semantics I4, Z7) The error for a list or tuple
 * key that identifies no element: a fractional (or infinite) key, a
 * negative one, one at or past the known length of an unmarked
 * collection (the length 0 has its own words), else the generic one. */
static void sequence_range_error(tfx_ev *ev, const tfx_value *coll, const tfx_value *key,
                                 const tfx_range *rng)
{
    const tfx_num *k = key->as.number;

    if (!tfx_num_is_integer(k)) {
        tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL,
                     "%s: indexing a sequence requires a whole number, but the given index has "
                     "a fractional part.", NO_ELEMENT);
        return;
    }
    if (tfx_num_sign(k) < 0) {
        tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL,
                     "%s: a negative number is not a valid index for a sequence.", NO_ELEMENT);
        return;
    }
    if (!tfx_value_is_marked(coll)
        && (coll->type->kind == TFX_TYPE_TUPLE || tfx_value_is_known(coll))) {
        size_t length =
            coll->type->kind == TFX_TYPE_TUPLE ? coll->type->n : tfx_value_length(coll);
        const tfx_num *len = tfx_num_from_int64(ev->ctx->arena, (int64_t)length);

        if (len == NULL)
            tfx_ctx_fail(ev->ctx, "Memory limit exceeded",
                         "The evaluation needs more than the memory limit of %zu bytes.",
                         ev->ctx->limits.max_memory_bytes);
        if (tfx_num_cmp(k, len) <= 0) {
            if (length == 0)
                tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL,
                             "%s: the collection has no elements.", NO_ELEMENT);
            else
                tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL,
                             "%s: the given index is greater than or equal to the length of the "
                             "collection.", NO_ELEMENT);
            return;
        }
    }
    tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL, "%s.", NO_ELEMENT);
}

/* [index.seq.key] [index.map] [index.list.unknown] [index.tuple.unknown]
 * [index.key.unknown] [index.map.unknown] [index.marks] (semantics I3–I7,
 * I15) Index of a list, tuple or map: the key converted to number or
 * string; unknown answers; then the element with the marks of the
 * collection and of the key. */
static const tfx_value *index_sequence_or_map(tfx_ev *ev, const tfx_value *coll,
                                              const tfx_value *key, const tfx_range *rng)
{
    tfx_ctx *ctx = ev->ctx;
    tfx_type_kind kind = coll->type->kind;
    const tfx_type *want = kind == TFX_TYPE_MAP ? &tfx_type_str : &tfx_type_number;
    const char *why = NULL;
    const tfx_value *k = tfx_ev_convert(ev, key, want, &why);
    const tfx_value *elem;
    size_t i = 0;

    if (k == NULL) {
        tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL, "%s: %s.", NO_ELEMENT,
                     why != NULL ? why : "invalid key");
        return dynamic_unknown();
    }
    switch (has_index(coll, k, &i)) {
    case TFX_TRI_UNKNOWN:
        if (kind == TFX_TYPE_TUPLE)
            return unknown_step_pn(ev, dynamic_unknown(), coll);
        return unknown_step_pn(ev, tfx_value_unknown(ctx, coll->type->elem), coll);
    case TFX_TRI_FALSE:
        if (kind == TFX_TYPE_MAP)
            tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL, "%s.", NO_ELEMENT);
        else
            sequence_range_error(ev, coll, k, rng);
        return dynamic_unknown();
    case TFX_TRI_TRUE:
        break;
    }
    if (kind == TFX_TYPE_MAP)
        elem = tfx_value_lookup(coll, k->as.string.s, k->as.string.nbytes);
    else if (kind == TFX_TYPE_TUPLE && tfx_value_is_unknown(coll))
        elem = tfx_value_unknown(ctx, coll->type->elems[i]);
    else
        elem = tfx_value_item(coll, i);
    return tfx_value_mark(ctx, elem, tfx_marks_union(ctx, coll->marks, k->marks));
}

/* [index.object.unknown.pn] Profile PN (HCL 2.24): index_object after the
 * key k converted to a string: an unknown key gives unknown(dynamic); the
 * attribute is checked before the object's value, so an unknown object
 * gives the unknown of the attribute's type; both keep the object's
 * marks. */
static const tfx_value *index_object_pn(tfx_ev *ev, const tfx_value *coll, const tfx_value *k,
                                        bool was_number, const tfx_range *rng)
{
    long ai;

    if (tfx_value_is_unknown(k))
        return tfx_value_mark(ev->ctx, dynamic_unknown(), coll->marks);
    ai = tfx_type_attr_index(coll->type, k->as.string.s, k->as.string.nbytes);
    if (ai < 0) {
        tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL, "%s.%s", NO_ELEMENT,
                     was_number ? " An object only supports looking up attributes by name, not "
                                  "by numeric index."
                                : "");
        return dynamic_unknown();
    }
    if (tfx_value_is_unknown(coll))
        return tfx_value_mark(ev->ctx, tfx_value_unknown(ev->ctx, coll->type->elems[ai]),
                              coll->marks);
    return tfx_value_mark(ev->ctx, tfx_value_lookup(coll, k->as.string.s, k->as.string.nbytes),
                          coll->marks);
}

/* [index.object] [index.object.unknown] [index.marks] (semantics I8, I9,
 * I15) Index of an object: the key converted to string; unknown object
 * or key → unknown(dynamic) (P14); the attribute with the object's marks
 * only (the key's are dropped). */
static const tfx_value *index_object(tfx_ev *ev, const tfx_value *coll, const tfx_value *key,
                                     const tfx_range *rng)
{
    bool was_number = key->type->kind == TFX_TYPE_NUMBER;
    const char *why = NULL;
    const tfx_value *k = tfx_ev_convert(ev, key, &tfx_type_str, &why);
    const tfx_value *attr;

    if (k == NULL) {
        tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL, "%s: %s.", NO_ELEMENT,
                     why != NULL ? why : "invalid key");
        return dynamic_unknown();
    }
    if (ev->ctx->pn)
        return index_object_pn(ev, coll, k, was_number, rng);
    if (!tfx_value_is_known(coll) || tfx_value_is_unknown(k))
        return dynamic_unknown();
    if (tfx_type_attr_index(coll->type, k->as.string.s, k->as.string.nbytes) < 0) {
        tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL, "%s.%s", NO_ELEMENT,
                     was_number ? " An object only supports looking up attributes by name, not "
                                  "by numeric index."
                                : "");
        return dynamic_unknown();
    }
    attr = tfx_value_lookup(coll, k->as.string.s, k->as.string.nbytes);
    return tfx_value_mark(ev->ctx, attr, coll->marks);
}

/* [index.order] [index.set] [index.other] [index.subject] (semantics I2,
 * I10, I16) hcl.Index: null collection, null key, dynamic types, then by
 * the collection's type.  Errors give unknown(dynamic). */
static const tfx_value *index_value(tfx_ev *ev, const tfx_value *coll, const tfx_value *key,
                                    const tfx_range *rng)
{
    if (tfx_value_is_null(coll)) {
        tfx_ev_error(ev, TFX_CAT_NULL_ACCESS, "Attempt to index null value", rng, NULL,
                     "This value is null, so it does not have any indices.");
        return dynamic_unknown();
    }
    if (tfx_value_is_null(key)) {
        tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL,
                     "Can't use a null value as an indexing key.");
        return dynamic_unknown();
    }
    if (key->type->kind == TFX_TYPE_DYNAMIC || coll->type->kind == TFX_TYPE_DYNAMIC)
        return unknown_step_pn(ev, dynamic_unknown(), coll);
    switch (coll->type->kind) {
    case TFX_TYPE_LIST:
    case TFX_TYPE_TUPLE:
    case TFX_TYPE_MAP:
        return index_sequence_or_map(ev, coll, key, rng);
    case TFX_TYPE_OBJECT:
        return index_object(ev, coll, key, rng);
    case TFX_TYPE_SET:
        tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL,
                     "Elements of a set are identified only by their value and don't have any "
                     "separate index or key to select with, so it's only possible to perform "
                     "operations across all elements of the set.");
        return dynamic_unknown();
    case TFX_TYPE_DYNAMIC:
    case TFX_TYPE_BOOL:
    case TFX_TYPE_NUMBER:
    case TFX_TYPE_STRING:
    case TFX_TYPE_CAPSULE:
        break;
    }
    tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, INVALID_INDEX, rng, NULL,
                 "This value does not have any indices.");
    return dynamic_unknown();
}

/* [attr.step] [attr.object] [attr.map] [attr.dynamic] [attr.list]
 * [attr.set] [attr.primitive] [attr.other] [attr.marks] [attr.subject]
 * (semantics I11–I13, I15) hcl.GetAttr. */
/* [attr.step] The attribute `name` of a known object v whose type has it
 * at index ai: tfx_value_lookup's answer.  A known object's keys are its
 * type's attribute names, in the same order, so the key at ai is the one
 * to look at first; when it is `name` (keys are distinct, so the binary
 * search would find this one) its value is the answer without the
 * search.  test_eval_ops compares both on random objects. */
const tfx_value *tfx_ev_object_attr(const tfx_value *v, long ai, const char *name, size_t nname)
{
    if (v->state == TFX_VAL_KNOWN && ai >= 0 && (size_t)ai < v->as.attrs.n) {
        const tfx_str *k = &v->as.attrs.keys[ai];

        if (k->nbytes == nname && (nname == 0 || memcmp(k->s, name, nname) == 0))
            return v->as.attrs.vals[ai];
    }
    return tfx_value_lookup(v, name, nname);
}

static const tfx_value *get_attr(tfx_ev *ev, const tfx_value *v, const char *name, size_t nname,
                                 const tfx_range *rng)
{
    tfx_ctx *ctx = ev->ctx;
    const tfx_type *t = v->type;
    const char *unsupported = "Unsupported attribute";
    long ai;

    if (tfx_value_is_null(v)) {
        tfx_ev_error(ev, TFX_CAT_NULL_ACCESS, "Attempt to get attribute from null value", rng, NULL,
                     "This value is null, so it does not have any attributes.");
        return dynamic_unknown();
    }
    switch (t->kind) {
    case TFX_TYPE_OBJECT:
        ai = tfx_type_attr_index(t, name, nname);
        if (ai < 0) {
            tfx_ev_error(ev, TFX_CAT_UNSUPPORTED_ATTRIBUTE, unsupported, rng, NULL,
                         "This object does not have an attribute named %s.",
                         tfx_ev_quote(ev, name, nname));
            return dynamic_unknown();
        }
        if (tfx_value_is_unknown(v))
            return unknown_step_pn(ev, tfx_value_unknown(ctx, t->elems[ai]), v);
        return tfx_value_mark(ctx, tfx_ev_object_attr(v, ai, name, nname), v->marks);
    case TFX_TYPE_MAP: {
        /* the key is cty.StringVal(name): NFC, unlike object attributes */
        const tfx_value *key;
        const tfx_value *elem;

        if (tfx_value_is_unknown(v))
            return unknown_step_pn(ev, tfx_value_unknown(ctx, t->elem), v);
        key = tfx_value_string(ctx, name, nname);
        elem = tfx_value_lookup(v, key->as.string.s, key->as.string.nbytes);
        if (elem == NULL) {
            tfx_ev_error(ev, TFX_CAT_INVALID_INDEX, "Missing map element", rng, NULL,
                         "This map does not have an element with the key %s.",
                         tfx_ev_quote(ev, name, nname));
            return dynamic_unknown();
        }
        return tfx_value_mark(ctx, elem, v->marks);
    }
    case TFX_TYPE_DYNAMIC:
        return unknown_step_pn(ev, dynamic_unknown(), v);
    case TFX_TYPE_LIST:
        if (t->elem->kind != TFX_TYPE_OBJECT)
            break;
        if (tfx_type_attr_index(t->elem, name, nname) >= 0)
            tfx_ev_error(ev, TFX_CAT_UNSUPPORTED_ATTRIBUTE, unsupported, rng, NULL,
                         "Can't access attributes on a list of objects. Did you mean to access "
                         "attribute %s for a specific element of the list, or across all "
                         "elements of the list?",
                         tfx_ev_quote(ev, name, nname));
        else
            tfx_ev_error(ev, TFX_CAT_UNSUPPORTED_ATTRIBUTE, unsupported, rng, NULL,
                         "Can't access attributes on a list of objects. Did you mean to access "
                         "an attribute for a specific element of the list, or across all "
                         "elements of the list?");
        return dynamic_unknown();
    case TFX_TYPE_SET:
        if (t->elem->kind != TFX_TYPE_OBJECT)
            break;
        tfx_ev_error(ev, TFX_CAT_UNSUPPORTED_ATTRIBUTE, unsupported, rng, NULL,
                     "Can't access attributes on a set of objects. Did you mean to access an "
                     "attribute across all elements of the set?");
        return dynamic_unknown();
    case TFX_TYPE_BOOL:
    case TFX_TYPE_NUMBER:
    case TFX_TYPE_STRING:
        tfx_ev_error(ev, TFX_CAT_UNSUPPORTED_ATTRIBUTE, unsupported, rng, NULL,
                     "Can't access attributes on a primitive-typed value (%s).",
                     tfx_type_friendly(ctx, t));
        return dynamic_unknown();
    case TFX_TYPE_TUPLE:
    case TFX_TYPE_CAPSULE: /* [type.capsule] no attributes */
        break;
    }
    tfx_ev_error(ev, TFX_CAT_UNSUPPORTED_ATTRIBUTE, unsupported, rng, NULL,
                 "This value does not have any attributes.");
    return dynamic_unknown();
}

/* [var.traversal] [index.step] [index.legacy] [attr.step] (semantics R4,
 * I1, I14) Traversal.TraverseRel: the steps in order, stopping at the
 * first that fails (then unknown(dynamic)). */
static const tfx_value *apply_steps(tfx_ev *ev, const tfx_value *v, const tfx_step *steps,
                                    size_t nsteps)
{
    size_t i;

    for (i = 0; i < nsteps; i++) {
        const tfx_step *s = &steps[i];
        size_t mark = ev->diags->n;

        if (s->is_attr)
            v = get_attr(ev, v, s->name, s->nname, &s->range);
        else
            v = index_value(ev, v, literal_value(ev->ctx, &s->key), &s->range);
        if (tfx_ev_failed_since(ev, mark))
            return dynamic_unknown();
    }
    return v;
}

/* [var.traversal] (semantics R1, R4) ScopeTraversalExpr: the root, then
 * the steps. */
static const tfx_value *eval_scope_traversal(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    const tfx_value *root = lookup_variable(ev, n, env);

    if (root == NULL)
        return dynamic_unknown();
    return apply_steps(ev, root, n->as.traversal.steps, n->as.traversal.nsteps);
}

/* [var.traversal] RelativeTraversalExpr: the source's value and
 * diagnostics, then the steps. */
static const tfx_value *eval_relative_traversal(tfx_ev *ev, const tfx_node *n,
                                                const tfx_env *env)
{
    const tfx_value *src = tfx_ev_node(ev, n->as.traversal.source, env);

    return apply_steps(ev, src, n->as.traversal.steps, n->as.traversal.nsteps);
}

/* [index.step] IndexExpr: the collection, the key (both diagnostics
 * kept), then the index operation even if they failed. */
static const tfx_value *eval_index(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    const tfx_value *coll = tfx_ev_node(ev, n->as.index.collection, env);
    const tfx_value *key = tfx_ev_node(ev, n->as.index.key, env);

    return index_value(ev, coll, key, &n->as.index.bracket_range);
}

/* ---------------------------------------------------------------------
 * Operators [op.*]
 * ------------------------------------------------------------------ */

/* [op.func] (semantics O1) The function of an operator. */
static tfx_func_op operator_function(tfx_op op)
{
    switch (op) {
    case TFX_OP_OR: return TFX_FOP_OR;
    case TFX_OP_AND: return TFX_FOP_AND;
    case TFX_OP_EQUAL: return TFX_FOP_EQUAL;
    case TFX_OP_NOT_EQUAL: return TFX_FOP_NOT_EQUAL;
    case TFX_OP_GREATER: return TFX_FOP_GREATER;
    case TFX_OP_GREATER_EQUAL: return TFX_FOP_GREATER_EQUAL;
    case TFX_OP_LESS: return TFX_FOP_LESS;
    case TFX_OP_LESS_EQUAL: return TFX_FOP_LESS_EQUAL;
    case TFX_OP_ADD: return TFX_FOP_ADD;
    case TFX_OP_SUBTRACT: return TFX_FOP_SUBTRACT;
    case TFX_OP_MULTIPLY: return TFX_FOP_MULTIPLY;
    case TFX_OP_DIVIDE: return TFX_FOP_DIVIDE;
    case TFX_OP_MODULO: return TFX_FOP_MODULO;
    case TFX_OP_NEGATE: return TFX_FOP_NEGATE;
    case TFX_OP_NOT: break;
    }
    return TFX_FOP_NOT;
}

/* The result type of an operation (upstream's Operation.Type). */
static const tfx_type *operator_type(tfx_op op)
{
    switch (op) {
    case TFX_OP_ADD:
    case TFX_OP_SUBTRACT:
    case TFX_OP_MULTIPLY:
    case TFX_OP_DIVIDE:
    case TFX_OP_MODULO:
    case TFX_OP_NEGATE:
        return &tfx_type_number;
    default:
        return &tfx_type_bool;
    }
}

/* One operand converted to its parameter's type, or NULL after an
 * "Invalid operand" error [op.order]. */
static const tfx_value *operand(tfx_ev *ev, const tfx_node *whole, const tfx_node *expr,
                                const tfx_value *v, const tfx_param *param, const char *which)
{
    const char *why = NULL;
    const tfx_value *c = tfx_ev_convert(ev, v, param->type, &why);

    if (c == NULL)
        tfx_ev_error(ev, TFX_CAT_OPERAND_TYPE, "Invalid operand", &expr->range, &whole->range,
                     "Unsuitable value for %s operand: %s.", which,
                     why != NULL ? why : "invalid value");
    return c;
}

/* Whether a call of the function fn with args[0..nargs) may skip the
 * generic machinery (tfx_ev_func_call): fn has a static result type and
 * takes that many arguments, and every argument is for an ordinary value
 * parameter and is known, not null, unmarked and a string, number or bool
 * of exactly its parameter's type (of its kind: primitive types are equal
 * when their kinds are, whichever type object a value points to, such as
 * a decoder's) or for a parameter of any type. */
static bool direct_call_ok(const tfx_function *fn, const tfx_value *const *args, size_t nargs)
{
    size_t i;

    if (fn->type != NULL || nargs < fn->nparams || (fn->varparam == NULL && nargs > fn->nparams))
        return false;
    for (i = 0; i < nargs; i++) {
        const tfx_param *p = i < fn->nparams ? &fn->params[i] : fn->varparam;
        const tfx_value *v = args[i];
        tfx_type_kind k = v->type->kind;

        if (p->kind != TFX_PARAM_VALUE || !tfx_value_is_known(v) || tfx_value_is_marked(v)
            || (k != TFX_TYPE_STRING && k != TFX_TYPE_NUMBER && k != TFX_TYPE_BOOL)
            || (k != p->type->kind && p->type->kind != TFX_TYPE_DYNAMIC))
            return false;
    }
    return true;
}

/* [call.machinery] [op.*] [call.return-type] The call of an operator's
 * or a built-in function, as tfx_func_call makes it, without its generic
 * steps when they change nothing (direct_call_ok).  With as many
 * arguments as fn takes, each known, not null, unmarked and a primitive
 * value of its parameter's own type or for a parameter of any type,
 * tfx_func_call's result type is fn->ret_type: no count error; no null
 * error (nothing is null); nothing to unmark for the type rules (a
 * primitive value holds no marks inside, and it has none on top); no
 * dynamic argument; each conforms (equal types, or a parameter of any
 * type); no type function.  Its argument loop ends no call early (nothing
 * is unknown) and unmarks nothing, so no marks go on the result.  What is
 * left is the one step, the implementation with those arguments and the
 * result type, and the check of the result's type.  The allow_* flags of
 * the parameters matter only for null, unknown, dynamic or marked
 * arguments, which take the general path.  test_eval_ops compares both
 * on random arguments of every operator and built-in function. */
const tfx_value *tfx_ev_func_call(tfx_ctx *ctx, const tfx_function *fn,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    const tfx_value *r;
    const char *msg;

    if (!direct_call_ok(fn, args, nargs))
        return tfx_func_call(ctx, fn, args, nargs, err);
    tfx_ctx_step(ctx);
    err->arg = -1;
    err->message = NULL;
    r = fn->impl(ctx, fn, fn->ret_type, args, nargs, err);
    if (r == NULL) {
        if (err->message == NULL)
            tfx_fn_error(err, "the function returned no result");
        return NULL;
    }
    msg = tfx_fn_conformance(ctx, r->type, fn->ret_type);
    if (msg != NULL)
        return tfx_fn_error(
            err, tfx_ctx_printf(ctx,
                                "panic in function implementation: returned value does not "
                                "conform to expected return type: %s",
                                msg));
    return r;
}

/* [op.operand] [op.null] [op.unknown] [op.arith] [op.marks]
 * [op.marks.unknown] (semantics O3, O5, O6, O21, O22) The call of the
 * operator's function, unless an error came before: then, or when the
 * call fails ("Operation failed", subject the whole operation), the
 * unknown of the result type. */
static const tfx_value *operate(tfx_ev *ev, const tfx_node *n, const tfx_function *fn,
                                const tfx_value *const *args, size_t nargs, size_t mark)
{
    const tfx_type *rt = operator_type(n->as.op.op);
    tfx_func_error err;
    const tfx_value *r;

    if (tfx_ev_failed_since(ev, mark))
        return tfx_value_unknown(ev->ctx, rt);
    memset(&err, 0, sizeof(err));
    r = tfx_ev_func_call(ev->ctx, fn, args, nargs, &err);
    if (r == NULL) {
        tfx_ev_error(ev, TFX_CAT_OPERATION_FAILED, "Operation failed", &n->range, NULL,
                     "Error during operation: %s.",
                     err.message != NULL ? err.message : "the operation failed");
        return tfx_value_unknown(ev->ctx, rt);
    }
    return r;
}

/* [op.order] [op.arith.operand] [op.cmp] [op.eq] [op.logic.operand]
 * [op.logic] (semantics O2–O4, O7–O17, O23) BinaryOpExpr: the left
 * operand, the right one, each converted to its parameter's type (both
 * may fail), then the call. */
static const tfx_value *eval_binary_p14(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    const tfx_function *fn = tfx_func_operator(operator_function(n->as.op.op));
    size_t mark = ev->diags->n;
    const tfx_value *lhs = tfx_ev_node(ev, n->as.op.lhs, env);
    const tfx_value *rhs = tfx_ev_node(ev, n->as.op.rhs, env);
    const tfx_value *args[2];

    args[0] = operand(ev, n, n->as.op.lhs, lhs, &fn->params[0], "left");
    args[1] = operand(ev, n, n->as.op.rhs, rhs, &fn->params[1], "right");
    return operate(ev, n, fn, args, 2, mark);
}

/* Moves the diagnostics ev->diags[from..n) before ev->diags[to..from)
 * (both runs keep their own order). */
static void diags_move_before(tfx_ev *ev, size_t to, size_t from)
{
    tfx_diag *d = ev->diags->items;
    size_t n = ev->diags->n, tail = n - from;
    tfx_diag *keep;

    if (tail == 0 || from == to)
        return;
    keep = tfx_ctx_alloc_array(ev->ctx, tail, sizeof(*keep));
    memcpy(keep, &d[from], tail * sizeof(*d));
    memmove(&d[to + tail], &d[to], (from - to) * sizeof(*d));
    memcpy(&d[to], keep, tail * sizeof(*d));
}

/* Drops the diagnostics ev->diags[from..to). */
static void diags_drop(tfx_ev *ev, size_t from, size_t to)
{
    tfx_diag *d = ev->diags->items;

    if (from == to)
        return;
    memmove(&d[from], &d[to], (ev->diags->n - to) * sizeof(*d));
    ev->diags->n -= to - from;
}

/* cty's True() of a known bool operand: a null one is not true. */
static bool is_true(const tfx_value *v)
{
    return tfx_value_is_known(v) && v->as.boolean;
}

/* [op.logic.pn] Profile PN (HCL 2.24): the short circuit of `&&` and
 * `||` on converted, unmarked operands l and r, whose evaluations
 * reported ev->diags[mark..mid) and [mid..n).  NULL when the operation
 * goes on; otherwise its result, with the diagnostics of the side that
 * decided it only.  A null operand counts as false (cty's False() is
 * "not True()"), an unknown one as neither. */
static const tfx_value *short_circuit_pn(tfx_ev *ev, tfx_op op, const tfx_value *l,
                                         const tfx_value *r, size_t mark, size_t mid)
{
    bool lk = !tfx_value_is_unknown(l), rk = !tfx_value_is_unknown(r);
    bool decides = op == TFX_OP_OR; /* the value that decides: true for ||, false for && */
    /* [refine.logic] its unknown results are not null */
    const tfx_value *unknown = tfx_value_refine_not_null(ev->ctx,
                                                         tfx_value_unknown(ev->ctx, &tfx_type_bool));

    if (!lk && !rk) {
        if (mid > mark)
            return NULL;
        diags_drop(ev, mid, ev->diags->n);
        return unknown;
    }
    if (lk && is_true(l) == decides) {
        diags_drop(ev, mid, ev->diags->n);
        return tfx_value_bool(decides);
    }
    if (rk && is_true(r) == decides) {
        diags_drop(ev, mark, mid);
        return tfx_value_bool(decides);
    }
    if (!lk && is_true(r) != decides) {
        diags_drop(ev, mid, ev->diags->n);
        return unknown;
    }
    if (!rk && is_true(l) != decides) {
        diags_drop(ev, mark, mid);
        return unknown;
    }
    return NULL;
}

/* [op.order.pn] [op.logic.pn] [op.marks.unknown.pn] Profile PN (HCL
 * 2.24): BinaryOpExpr evaluates and converts both operands; conversion
 * errors come first, followed by the operands' own diagnostics, and end
 * the operation with the unknown of the result type.  Otherwise the
 * operands are unmarked (top level), `&&` and `||` may short-circuit
 * (short_circuit_pn), an error of either operand gives the unknown of
 * the result type, and the call's result gets the operands' marks, also
 * when unknown. */
static const tfx_value *eval_binary_pn(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    const tfx_function *fn = tfx_func_operator(operator_function(n->as.op.op));
    const tfx_type *rt = operator_type(n->as.op.op);
    size_t mark = ev->diags->n, mid, end;
    const tfx_value *lhs = tfx_ev_node(ev, n->as.op.lhs, env);
    const tfx_value *rhs, *args[2], *r;
    const tfx_marks *lm = NULL, *rm = NULL;
    tfx_func_error err;

    mid = ev->diags->n;
    rhs = tfx_ev_node(ev, n->as.op.rhs, env);
    end = ev->diags->n;
    args[0] = operand(ev, n, n->as.op.lhs, lhs, &fn->params[0], "left");
    args[1] = operand(ev, n, n->as.op.rhs, rhs, &fn->params[1], "right");
    if (ev->diags->n > end) {
        diags_move_before(ev, mark, end);
        return tfx_value_unknown(ev->ctx, rt);
    }
    args[0] = tfx_value_unmark(ev->ctx, args[0], &lm);
    args[1] = tfx_value_unmark(ev->ctx, args[1], &rm);
    lm = tfx_marks_union(ev->ctx, lm, rm);
    if (n->as.op.op == TFX_OP_AND || n->as.op.op == TFX_OP_OR) {
        r = short_circuit_pn(ev, n->as.op.op, args[0], args[1], mark, mid);
        if (r != NULL)
            return tfx_value_mark(ev->ctx, r, lm);
    }
    if (tfx_ev_failed_since(ev, mark))
        return tfx_value_mark(ev->ctx, tfx_value_unknown(ev->ctx, rt), lm);
    memset(&err, 0, sizeof(err));
    r = tfx_ev_func_call(ev->ctx, fn, args, 2, &err);
    if (r == NULL) {
        tfx_ev_error(ev, TFX_CAT_OPERATION_FAILED, "Operation failed", &n->range, NULL,
                     "Error during operation: %s.",
                     err.message != NULL ? err.message : "the operation failed");
        return tfx_value_unknown(ev->ctx, rt);
    }
    return tfx_value_mark(ev->ctx, r, lm);
}

/* BinaryOpExpr under the context's profile. */
static const tfx_value *eval_binary(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    return ev->ctx->pn ? eval_binary_pn(ev, n, env) : eval_binary_p14(ev, n, env);
}

/* [op.neg] [op.not] (semantics N24, G4) UnaryOpExpr. */
static const tfx_value *eval_unary(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    const tfx_function *fn = tfx_func_operator(operator_function(n->as.op.op));
    size_t mark = ev->diags->n;
    const tfx_value *v = tfx_ev_node(ev, n->as.op.lhs, env);
    const tfx_value *args[1];

    args[0] = operand(ev, n, n->as.op.lhs, v, &fn->params[0], "unary");
    return operate(ev, n, fn, args, 1, mark);
}

/* ---------------------------------------------------------------------
 * The conditional [cond.*]
 * ------------------------------------------------------------------ */

/* [cond.type-error.reason] (semantics Q5) upstream's
 * describeConditionalTypeMismatch. */
static const char *describe_mismatch(tfx_ev *ev, const tfx_type *a, const tfx_type *b)
{
    tfx_ctx *ctx = ev->ctx;
    const char *an;
    const char *bn;
    size_t i;

    if (a->kind == TFX_TYPE_OBJECT && b->kind == TFX_TYPE_OBJECT) {
        for (i = 0; i < a->n; i++) {
            long j = tfx_type_attr_index(b, a->names[i].s, a->names[i].nbytes);

            if (j < 0)
                return tfx_ctx_printf(ctx,
                                      "The 'true' value includes object attribute %s, which is "
                                      "absent in the 'false' value",
                                      tfx_ev_quote(ev, a->names[i].s, a->names[i].nbytes));
            if (!tfx_type_equal(a->elems[i], b->elems[j]))
                return tfx_ctx_printf(ctx, "Type mismatch for object attribute %s: %s",
                                      tfx_ev_quote(ev, a->names[i].s, a->names[i].nbytes),
                                      describe_mismatch(ev, a->elems[i], b->elems[j]));
        }
        for (i = 0; i < b->n; i++)
            if (tfx_type_attr_index(a, b->names[i].s, b->names[i].nbytes) < 0)
                return tfx_ctx_printf(ctx,
                                      "The 'false' value includes object attribute %s, which is "
                                      "absent in the 'true' value",
                                      tfx_ev_quote(ev, b->names[i].s, b->names[i].nbytes));
    } else if (a->kind == TFX_TYPE_TUPLE && b->kind == TFX_TYPE_TUPLE) {
        if (a->n != b->n)
            return tfx_ctx_printf(ctx,
                                  "The 'true' tuple has length %zu, but the 'false' tuple has "
                                  "length %zu",
                                  a->n, b->n);
        for (i = 0; i < a->n; i++)
            if (!tfx_type_equal(a->elems[i], b->elems[i]))
                return tfx_ctx_printf(ctx, "Type mismatch for tuple element %zu: %s", i,
                                      describe_mismatch(ev, a->elems[i], b->elems[i]));
    } else if (tfx_type_is_collection(a) && a->kind == b->kind) {
        bool objects = a->elem->kind == TFX_TYPE_OBJECT && b->elem->kind == TFX_TYPE_OBJECT;
        bool tuples = a->elem->kind == TFX_TYPE_TUPLE && b->elem->kind == TFX_TYPE_TUPLE;

        if (objects || tuples)
            return tfx_ctx_printf(ctx, "Mismatched %s element types: %s",
                                  a->kind == TFX_TYPE_LIST ? "list"
                                  : a->kind == TFX_TYPE_SET ? "set" : "map",
                                  describe_mismatch(ev, a->elem, b->elem));
    }
    an = tfx_type_friendly(ctx, a);
    bn = tfx_type_friendly(ctx, b);
    if (strcmp(an, bn) == 0)
        return "At least one deeply-nested attribute or element is not compatible across both "
               "the 'true' and the 'false' value";
    return tfx_ctx_printf(ctx, "The 'true' value is %s, but the 'false' value is %s", an, bn);
}

/* Whether v is exactly null(dynamic) without marks (cty's RawEquals with
 * cty.NullVal(cty.DynamicPseudoType)). */
static bool is_bare_dynamic_null(const tfx_value *v)
{
    return v->type->kind == TFX_TYPE_DYNAMIC && tfx_value_is_null(v) && !tfx_value_is_marked(v);
}

/* [cond.convert] (semantics Q9) The chosen result converted to the
 * result type R, when [cond.type] chose a conversion for it: by the
 * conversion unification handed back for it (result i of *u) when the
 * type came from unifying, else by a plain conversion. */
static const tfx_value *chosen_result(tfx_ev *ev, const tfx_node *n, const tfx_node *expr,
                                      const tfx_value *v, const tfx_type *rt, bool convert,
                                      const tfx_unification *u, size_t i, const char *which)
{
    const char *why = NULL;
    const tfx_value *c;

    if (!convert || tfx_type_equal(v->type, rt))
        return v;
    if (u != NULL)
        c = tfx_unify_convert(ev->ctx, u, i, v, &why);
    else
        c = tfx_ev_convert(ev, v, rt, &why);
    if (c != NULL)
        return c;
    tfx_ev_error(ev, TFX_CAT_INCONSISTENT_TYPES, "Inconsistent conditional result types",
                 &expr->range, &n->range, "The %s result value has the wrong type: %s.", which,
                 why != NULL ? why : "invalid value");
    return tfx_value_unknown(ev->ctx, rt);
}

/* [cond.bool] The known condition c converted to bool, or NULL after the
 * error "Incorrect condition type". */
static const tfx_value *condition_bool(tfx_ev *ev, const tfx_node *n, const tfx_value *c)
{
    const char *why = NULL;
    const tfx_value *b = tfx_ev_convert(ev, c, &tfx_type_bool, &why);

    if (b == NULL)
        tfx_ev_error(ev, TFX_CAT_OPERAND_TYPE, "Incorrect condition type",
                     &n->as.conditional.cond->range, &n->range,
                     "The condition expression must be of type bool.");
    return b;
}

/* [cond.marks.pn] [cond.unknown.pn] [tmpl.eval.if.marks.pn] Profile PN (HCL 2.23): the end of
 * a conditional whose condition c is not null.  The top-level marks of
 * c, a and b all go on the result, also when it is unknown; an unknown c
 * with two null results gives null(rt).  (An unconvertible c is still an
 * unmarked unknown.) */
static const tfx_value *conditional_end_pn(tfx_ev *ev, const tfx_node *n, const tfx_value *c,
                                           const tfx_value *a, const tfx_value *b,
                                           const tfx_type *rt, bool conv_a, bool conv_b,
                                           const tfx_unification *u, const tfx_diags *yes_diags,
                                           const tfx_diags *no_diags)
{
    tfx_ctx *ctx = ev->ctx;
    const tfx_marks *cm = NULL, *am = NULL, *bm = NULL;
    const tfx_value *r;

    c = tfx_value_unmark(ctx, c, &cm);
    a = tfx_value_unmark(ctx, a, &am);
    b = tfx_value_unmark(ctx, b, &bm);
    cm = tfx_marks_union(ctx, cm, tfx_marks_union(ctx, am, bm));
    if (tfx_value_is_unknown(c)) {
        /* [refine.cond] what both results have in common */
        r = tfx_value_is_null(a) && tfx_value_is_null(b) ? tfx_value_null(ctx, rt)
                                                         : tfx_refine_conditional(ctx, rt, a, b);
        return tfx_value_mark(ctx, r, cm);
    }
    c = condition_bool(ev, n, c);
    if (c == NULL)
        return tfx_value_unknown(ctx, rt);
    if (c->as.boolean) {
        append_diags(ev, yes_diags);
        r = chosen_result(ev, n, n->as.conditional.true_result, a, rt, conv_a, u, 0, "true");
    } else {
        append_diags(ev, no_diags);
        r = chosen_result(ev, n, n->as.conditional.false_result, b, rt, conv_b, u, 1, "false");
    }
    return tfx_value_mark(ctx, r, cm);
}

/* [cond.order] [cond.type] [cond.unify] [cond.type-error] [cond.null]
 * [cond.unknown] [cond.bool] [cond.diagnostics] [cond.marks]
 * [tmpl.eval.if] (semantics Q1–Q12, T10, T11, T23) ConditionalExpr:
 * both results first (diagnostics set aside), the result type, then the
 * condition; only the chosen result's diagnostics are kept, after the
 * condition's. */
static const tfx_value *eval_conditional(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    tfx_ctx *ctx = ev->ctx;
    const tfx_node *yes = n->as.conditional.true_result;
    const tfx_node *no = n->as.conditional.false_result;
    tfx_diags yes_diags;
    tfx_diags no_diags;
    const tfx_value *a = node_aside(ev, yes, env, &yes_diags);
    const tfx_value *b = node_aside(ev, no, env, &no_diags);
    const tfx_type *rt;
    bool conv_a = false;
    bool conv_b = false;
    tfx_unification unification;
    const tfx_unification *u = NULL;
    const tfx_value *c;
    const tfx_marks *marks = NULL;

    if (is_bare_dynamic_null(a)) {
        rt = b->type;
        conv_a = true;
    } else if (is_bare_dynamic_null(b)) {
        rt = a->type;
        conv_b = true;
    } else if (a->type->kind == TFX_TYPE_DYNAMIC || b->type->kind == TFX_TYPE_DYNAMIC) {
        rt = &tfx_type_dynamic;
    } else {
        const tfx_type *types[2];

        types[0] = a->type;
        types[1] = b->type;
        rt = tfx_unify_plan(ctx, types, 2, TFX_CONVERT_UNSAFE, &unification);
        u = &unification;
        conv_a = conv_b = true;
        if (rt == NULL) {
            tfx_range subject = tfx_range_between(yes->range, no->range);

            tfx_ev_error(ev, TFX_CAT_INCONSISTENT_TYPES, "Inconsistent conditional result types",
                         &subject, &n->range,
                         "The true and false result expressions must have consistent types. %s.",
                         describe_mismatch(ev, a->type, b->type));
            return dynamic_unknown();
        }
    }

    c = tfx_ev_node(ev, n->as.conditional.cond, env);
    if (tfx_value_is_null(c)) {
        tfx_ev_error(ev, TFX_CAT_NULL_CONDITION, "Null condition", &n->as.conditional.cond->range,
                     &n->range, "The condition value is null. Conditions must either be true or "
                                "false.");
        return tfx_value_unknown(ctx, rt);
    }
    if (ctx->pn)
        return conditional_end_pn(ev, n, c, a, b, rt, conv_a, conv_b, u, &yes_diags, &no_diags);
    if (tfx_value_is_unknown(c))
        return tfx_value_unknown(ctx, rt);
    c = condition_bool(ev, n, c);
    if (c == NULL)
        return tfx_value_unknown(ctx, rt);
    c = tfx_value_unmark_deep(ctx, c, &marks);
    if (c->as.boolean) {
        append_diags(ev, &yes_diags);
        return chosen_result(ev, n, yes, a, rt, conv_a, u, 0, "true");
    }
    append_diags(ev, &no_diags);
    return chosen_result(ev, n, no, b, rt, conv_b, u, 1, "false");
}

/* ---------------------------------------------------------------------
 * Constructors [cons.*]
 * ------------------------------------------------------------------ */

/* [cons.tuple] (semantics K1) TupleConsExpr: the elements in order, their
 * exact types and marks. */
static const tfx_value *eval_tuple(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    size_t count = n->as.tuple.nitems;
    const tfx_value **vals = tfx_ctx_alloc_array(ev->ctx, count > 0 ? count : 1,
                                                 sizeof(const tfx_value *));
    size_t i;

    for (i = 0; i < count; i++)
        vals[i] = tfx_ev_node(ev, n->as.tuple.items[i], env);
    return tfx_value_tuple(ev->ctx, vals, count);
}

/* [cons.object.key.bare] [cons.object.key.ambiguous]
 * [cons.object.key.paren] [cons.object.key.expr] (semantics K3–K6, V10)
 * ObjectConsKeyExpr: unless parenthesized, a bare traversal of more than
 * the root is ambiguous, and a bare name (or the word null, true or
 * false) is itself the key; anything else is evaluated. */
static const tfx_value *eval_object_key(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    const tfx_node *w = n->as.key.wrapped;

    if (!n->as.key.force_non_literal) {
        if (w->kind == TFX_NODE_SCOPE_TRAVERSAL && w->as.traversal.nsteps > 0) {
            tfx_ev_error(ev, TFX_CAT_OBJECT_KEY, "Ambiguous attribute key", &w->range, NULL,
                         "If this expression is intended to be a reference, wrap it in "
                         "parentheses. If it's instead intended as a literal name containing "
                         "periods, wrap it in quotes to create a string literal.");
            return dynamic_unknown();
        }
        if (w->kind == TFX_NODE_SCOPE_TRAVERSAL)
            return tfx_value_string(ev->ctx, w->as.traversal.root, w->as.traversal.nroot);
        if (w->kind == TFX_NODE_LITERAL && w->as.literal.kind == TFX_LIT_NULL)
            return tfx_value_string(ev->ctx, "null", 4);
        if (w->kind == TFX_NODE_LITERAL && w->as.literal.kind == TFX_LIT_BOOL)
            return w->as.literal.boolean ? tfx_value_string(ev->ctx, "true", 4)
                                         : tfx_value_string(ev->ctx, "false", 5);
    }
    return tfx_ev_node(ev, w, env);
}

/* [cons.object] [cons.object.key.convert] [cons.object.key.unknown]
 * [cons.object.key.duplicate] [cons.object.key.marks] [cons.object.names]
 * [cons.object.values] (semantics K7–K12, Z6) ObjectConsExpr: for each
 * item the key, the value, then the key's checks; a skipped item makes
 * the object unknown(dynamic); a later duplicate key wins; key marks go
 * onto the object. */
static const tfx_value *eval_object(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    tfx_ctx *ctx = ev->ctx;
    size_t count = n->as.object.nitems;
    tfx_str *names = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1, sizeof(tfx_str));
    const tfx_value **vals = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1,
                                                 sizeof(const tfx_value *));
    const tfx_marks *marks = NULL;
    bool known = true;
    size_t m = 0;
    size_t i;

    for (i = 0; i < count; i++) {
        const tfx_object_item *item = &n->as.object.items[i];
        size_t mark = ev->diags->n;
        const tfx_value *key = tfx_ev_node(ev, item->key, env);
        bool key_failed = tfx_ev_failed_since(ev, mark);
        const tfx_value *val = tfx_ev_node(ev, item->value, env);
        const tfx_marks *key_marks = NULL;
        const char *why = NULL;

        if (key_failed) {
            known = false;
            continue;
        }
        if (tfx_value_is_null(key)) {
            tfx_ev_error(ev, TFX_CAT_OBJECT_KEY, "Null value as key", &item->value->range, NULL,
                         "Can't use a null value as a key.");
            known = false;
            continue;
        }
        key = tfx_value_unmark(ctx, key, &key_marks);
        marks = tfx_marks_union(ctx, marks, key_marks);
        key = tfx_ev_convert(ev, key, &tfx_type_str, &why);
        if (key == NULL) {
            tfx_ev_error(ev, TFX_CAT_OBJECT_KEY, "Incorrect key type", &item->key->range, NULL,
                         "Can't use this value as a key: %s.", why != NULL ? why : "invalid key");
            known = false;
            continue;
        }
        if (tfx_value_is_unknown(key)) {
            known = false;
            continue;
        }
        names[m] = key->as.string;
        vals[m] = val;
        m++;
    }
    if (!known)
        return dynamic_unknown();
    return tfx_value_mark(ctx, tfx_value_object(ctx, names, vals, m), marks);
}

/* ---------------------------------------------------------------------
 * Expression closures [call.decode] [fn.try.*]
 * ------------------------------------------------------------------ */

const tfx_ev_closure *tfx_ev_closure_of(const tfx_value *arg)
{
    return (const tfx_ev_closure *)(const void *)arg;
}

/* [call.decode] The closure of an argument's expression (or of an element
 * of an expanded argument), not evaluated. */
static const tfx_value *make_closure(tfx_ev *ev, const tfx_node *expr, const tfx_value *literal,
                                     const tfx_env *env)
{
    tfx_ev_closure *c = tfx_ctx_alloc(ev->ctx, sizeof(*c));

    memset(c, 0, sizeof(*c));
    c->value.type = &tfx_type_dynamic;
    c->value.state = TFX_VAL_KNOWN;
    c->ev = ev;
    c->expr = expr;
    c->literal = literal;
    c->env = env;
    return &c->value;
}

const tfx_value *tfx_ev_closure_value(const tfx_ev_closure *c, tfx_diags *diags)
{
    tfx_ev *ev = c->ev;
    tfx_diags *saved = ev->diags;
    const tfx_value *v;

    if (c->expr == NULL)
        return c->literal;
    ev->diags = diags;
    ev->nested++;
    v = tfx_ev_node(ev, c->expr, c->env);
    ev->nested--;
    ev->diags = saved;
    return v;
}

/* The names bound by the enclosing for-expressions of a walk. */
typedef struct ref_scope {
    const struct ref_scope *outer;
    const tfx_node *for_node;
} ref_scope;

static bool is_for_local(const ref_scope *s, const char *name, size_t n)
{
    for (; s != NULL; s = s->outer) {
        const tfx_node *f = s->for_node;

        if (f->as.for_expr.key_var != NULL && f->as.for_expr.nkey_var == n
            && memcmp(f->as.for_expr.key_var, name, n) == 0)
            return true;
        if (f->as.for_expr.nval_var == n && memcmp(f->as.for_expr.val_var, name, n) == 0)
            return true;
    }
    return false;
}

/* [refs.walk] The walk of each_reference: visit(data, traversal) for
 * every traversal that HCL's Variables() lists for n, in its order (the
 * walk of refs.c: for-expression symbols are not references, nor is an
 * object key that reads as a bare name), until a visit returns true. */
typedef struct {
    tfx_ev *ev;
    bool (*visit)(void *data, const tfx_node *traversal);
    void *data;
} ref_walk;

static bool walk_refs(const ref_walk *w, const tfx_node *n, const ref_scope *locals)
{
    size_t i;

    if (n == NULL)
        return false;
    tfx_ctx_step(w->ev->ctx);
    switch (n->kind) {
    case TFX_NODE_SCOPE_TRAVERSAL:
        return !is_for_local(locals, n->as.traversal.root, n->as.traversal.nroot)
               && w->visit(w->data, n);
    case TFX_NODE_TEMPLATE:
        for (i = 0; i < n->as.template.nparts; i++)
            if (walk_refs(w, n->as.template.parts[i], locals))
                return true;
        return false;
    case TFX_NODE_TEMPLATE_WRAP:
        return walk_refs(w, n->as.wrap.wrapped, locals);
    case TFX_NODE_TEMPLATE_JOIN:
        return walk_refs(w, n->as.join.tuple, locals);
    case TFX_NODE_RELATIVE_TRAVERSAL:
        return walk_refs(w, n->as.traversal.source, locals);
    case TFX_NODE_FUNCTION_CALL:
        for (i = 0; i < n->as.call.nargs; i++)
            if (walk_refs(w, n->as.call.args[i], locals))
                return true;
        return false;
    case TFX_NODE_CONDITIONAL:
        return walk_refs(w, n->as.conditional.cond, locals)
               || walk_refs(w, n->as.conditional.true_result, locals)
               || walk_refs(w, n->as.conditional.false_result, locals);
    case TFX_NODE_BINARY_OP:
        return walk_refs(w, n->as.op.lhs, locals)
               || walk_refs(w, n->as.op.rhs, locals);
    case TFX_NODE_UNARY_OP:
        return walk_refs(w, n->as.op.lhs, locals);
    case TFX_NODE_TUPLE_CONS:
        for (i = 0; i < n->as.tuple.nitems; i++)
            if (walk_refs(w, n->as.tuple.items[i], locals))
                return true;
        return false;
    case TFX_NODE_OBJECT_CONS:
        for (i = 0; i < n->as.object.nitems; i++)
            if (walk_refs(w, n->as.object.items[i].key, locals)
                || walk_refs(w, n->as.object.items[i].value, locals))
                return true;
        return false;
    case TFX_NODE_OBJECT_CONS_KEY: {
        const tfx_node *k = n->as.key.wrapped;
        bool keyword = (k->kind == TFX_NODE_SCOPE_TRAVERSAL && k->as.traversal.nsteps == 0)
                       || (k->kind == TFX_NODE_LITERAL
                           && (k->as.literal.kind == TFX_LIT_BOOL
                               || k->as.literal.kind == TFX_LIT_NULL));

        return !keyword && walk_refs(w, k, locals);
    }
    case TFX_NODE_FOR: {
        ref_scope inner;

        if (walk_refs(w, n->as.for_expr.coll, locals))
            return true;
        inner.outer = locals;
        inner.for_node = n;
        return walk_refs(w, n->as.for_expr.key, &inner)
               || walk_refs(w, n->as.for_expr.value, &inner)
               || walk_refs(w, n->as.for_expr.cond, &inner);
    }
    case TFX_NODE_INDEX:
        return walk_refs(w, n->as.index.collection, locals)
               || walk_refs(w, n->as.index.key, locals);
    case TFX_NODE_SPLAT:
        return walk_refs(w, n->as.splat.source, locals)
               || walk_refs(w, n->as.splat.each, locals);
    case TFX_NODE_PARENTHESES:
        return walk_refs(w, n->as.parens.expr, locals);
    case TFX_NODE_LITERAL:
    case TFX_NODE_ANON_SYMBOL:
    case TFX_NODE_COUNT:
        break;
    }
    return false;
}

bool tfx_ev_each_reference(tfx_ev *ev, const tfx_node *n,
                           bool (*visit)(void *data, const tfx_node *traversal), void *data)
{
    ref_walk w;

    w.ev = ev;
    w.visit = visit;
    w.data = data;
    return walk_refs(&w, n, NULL);
}

typedef struct {
    tfx_ev *ev;
    const tfx_env *env;
} unknown_check;

/* [fn.try.unknowns] Whether a traversal's value in the closure's scope is
 * not wholly known; a traversal that fails is passed over. */
static bool is_unknown_ref(void *data, const tfx_node *traversal)
{
    const unknown_check *u = data;
    tfx_diags aside;
    const tfx_value *v = node_aside(u->ev, traversal, u->env, &aside);

    return !tfx_diags_has_errors(&aside) && !tfx_value_is_wholly_known(v);
}

bool tfx_ev_closure_depends_on_unknowns(const tfx_ev_closure *c)
{
    unknown_check u;

    u.ev = c->ev;
    u.env = c->env;
    return c->expr != NULL && tfx_ev_each_reference(c->ev, c->expr, is_unknown_ref, &u);
}

const char *tfx_ev_range_text(const tfx_ev *ev, const tfx_range *r)
{
    const char *file = ev->filename != NULL ? ev->filename : "case.hcl";

    if (r->start.line == r->end.line)
        return tfx_ctx_printf(ev->ctx, "%s:%zu,%zu-%zu", file, r->start.line, r->start.column,
                              r->end.column);
    return tfx_ctx_printf(ev->ctx, "%s:%zu,%zu-%zu,%zu", file, r->start.line, r->start.column,
                          r->end.line, r->end.column);
}

/* ---------------------------------------------------------------------
 * Function calls [call.*]
 * ------------------------------------------------------------------ */

/* One argument of a call after expansion: an expression, or an element
 * of the expanded collection. */
typedef struct {
    const tfx_node *expr;         /* NULL for an expanded element */
    const tfx_value *value;       /* the expanded element */
    tfx_range start;              /* its start range for diagnostics */
} call_arg;

/* [call.lookup] [call.none] The function named by the call, searching the
 * scopes innermost first; NULL after the error. */
/* [call.lookup] The fast path of lookup_function: the function the
 * call's name found in the innermost scope that has a function table,
 * remembered for the call's node and that scope, or NULL (then the
 * general path decides).  The general path asks the scopes' tables
 * innermost first and takes the first function found; a table answers
 * by name alone, the same each time (the built-in tables, and hosts',
 * are fixed lists), so a call evaluated again (a `for` body) in the same
 * innermost table gets the same function.  test_eval compares calls in
 * a `for` body evaluated many times with the same calls evaluated once
 * each. */
/* [call.pn.core] [call.pn.provider] The function `name` names in the
 * table of `scope` (a scope with a table).  In profile PN every function
 * of a table is also core::NAME, and Terraform's provider "terraform"
 * adds its functions as provider::terraform::NAME to every table; no
 * other namespaced name names a function.  (P14 parses no "::".) */
static const tfx_function *scope_function(const tfx_ev *ev, const tfx_env *scope,
                                          const char *name, size_t nname)
{
    if (scope->function == NULL)
        return NULL;
    if (ev->ctx->pn && memchr(name, ':', nname) != NULL) {
        if (nname > 6 && memcmp(name, "core::", 6) == 0)
            return scope->function(name + 6, nname - 6);
        if (nname > 21 && memcmp(name, "provider::terraform::", 21) == 0)
            return tfx_func_provider(name + 21, nname - 21);
        return NULL;
    }
    return scope->function(name, nname);
}

static const tfx_function *cached_function(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    size_t slot = ((uintptr_t)n / sizeof(void *)) % CALL_SLOTS;
    const tfx_env *scope = env;
    const tfx_function *fn;

    while (scope != NULL && !scope->has_functions)
        scope = scope->parent;
    if (scope == NULL || scope->function == NULL)
        return NULL;
    if (ev->cache == NULL)
        ev->cache = tfx_ctx_alloc(ev->ctx, sizeof *ev->cache);
    if (ev->cache->call[slot] == n && ev->cache->call_scope[slot] == scope)
        return ev->cache->call_fn[slot];
    fn = scope_function(ev, scope, n->as.call.name, n->as.call.nname);
    if (fn != NULL) {
        ev->cache->call[slot] = n;
        ev->cache->call_scope[slot] = scope;
        ev->cache->call_fn[slot] = fn;
    }
    return fn;
}

/* Whether a call's name has a namespace ("::"). */
static bool namespaced(const char *name, size_t nname)
{
    for (size_t i = 0; i + 1 < nname; i++)
        if (name[i] == ':' && name[i + 1] == ':')
            return true;
    return false;
}

/* The provider "terraform"'s functions [call.pn.provider]. */
static const char *const provider_names[] = {"decode_tfvars", "encode_expr", "encode_tfvars"};

/* [call.pn.unknown] Whether the innermost scope's table (none inside a
 * `for`) has a name that starts with `ns` (which ends with "::"): the
 * core:: aliases and the provider functions are its only namespaced
 * names. */
static bool namespace_has_functions(const tfx_env *env, const char *ns, size_t nns)
{
    static const char provider_ns[] = "provider::terraform::";

    if (env == NULL || !env->has_functions || env->function_name == NULL)
        return false;
    if (nns == 6 && memcmp(ns, "core::", 6) == 0)
        return env->function_name(0) != NULL;
    return nns <= sizeof(provider_ns) - 1 && memcmp(ns, provider_ns, nns) == 0;
}

/* [call.pn.unknown] Terraform's addition to the detail of an unknown
 * function's error, at the top of an evaluation in PN: the provider
 * function of that name, if the innermost scope has a table. */
static const char *provider_suggestion(tfx_ev *ev, const tfx_env *env, const char *name,
                                       size_t nname)
{
    if (!ev->ctx->pn || ev->nested > 0 || env == NULL || !env->has_functions
        || env->function_name == NULL)
        return "";
    for (size_t i = 0; i < TFX_COUNTOF(provider_names); i++)
        if (strlen(provider_names[i]) == nname && memcmp(provider_names[i], name, nname) == 0)
            return tfx_ctx_printf(ev->ctx, " Did you mean \"provider::terraform::%s\"?",
                                  provider_names[i]);
    return "";
}

/* [call.pn.unknown] A namespaced name that names no function: HCL's error
 * (the namespace is the name up to its last "::"), which Terraform words
 * again when it reaches the top of the evaluation: "Unknown provider
 * function", with what is wrong with the namespace.  Inside a function's
 * own evaluation (try, can, the template functions) HCL's wording stays,
 * as Terraform rewords only the diagnostics an evaluation returns. */
static void unknown_namespaced_function(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    const char *name = n->as.call.name;
    size_t nname = n->as.call.nname;
    size_t sep = nname - 2;   /* the last "::" */
    const char *ns = name;
    size_t nns;
    const char *fn;
    size_t nfn;
    bool avail;
    size_t first_part;

    while (!(name[sep] == ':' && name[sep + 1] == ':'))
        sep--;
    nns = sep + 2;
    fn = name + nns;
    nfn = nname - nns;
    avail = namespace_has_functions(env, ns, nns);
    if (ev->nested > 0) {
        if (!avail)
            tfx_ev_error(ev, TFX_CAT_UNKNOWN_FUNCTION, "Call to unknown function",
                         &n->as.call.name_range, &n->range,
                         "There are no functions in namespace %s.", tfx_ev_quote(ev, ns, nns));
        else
            tfx_ev_error(ev, TFX_CAT_UNKNOWN_FUNCTION, "Call to unknown function",
                         &n->as.call.name_range, &n->range,
                         "There is no function named %s in namespace %.*s.",
                         tfx_ev_quote(ev, fn, nfn), (int)nns, ns);
        return;
    }
    for (first_part = 0; name[first_part] != ':'; first_part++)
        ;
    if (first_part != 8 || memcmp(name, "provider", 8) != 0)
        tfx_ev_error(ev, TFX_CAT_UNKNOWN_FUNCTION, "Unknown provider function",
                     &n->as.call.name_range, &n->range,
                     "The function namespace %s is not valid. Provider function calls must use "
                     "the \"provider::\" namespace prefix.",
                     tfx_ev_quote(ev, name, first_part));
    else if (nns == 10)
        tfx_ev_error(ev, TFX_CAT_UNKNOWN_FUNCTION, "Unknown provider function",
                     &n->as.call.name_range, &n->range,
                     "The function call must include the provider name after the "
                     "\"provider::\" prefix.");
    else {
        const char *provider = name + 10;
        size_t nprovider = 0;

        while (provider[nprovider] != ':')
            nprovider++;
        if (avail)
            tfx_ev_error(ev, TFX_CAT_UNKNOWN_FUNCTION, "Unknown provider function",
                         &n->as.call.name_range, &n->range,
                         "The function %s is not available from the provider %s.",
                         tfx_ev_quote(ev, fn, nfn), tfx_ev_quote(ev, provider, nprovider));
        else
            tfx_ev_error(ev, TFX_CAT_UNKNOWN_FUNCTION, "Unknown provider function",
                         &n->as.call.name_range, &n->range,
                         "There is no function named %s. Ensure that provider name %s is "
                         "declared in this module's required_providers block, and that this "
                         "provider offers a function named %s.",
                         tfx_ev_quote(ev, name, nname), tfx_ev_quote(ev, provider, nprovider),
                         tfx_ev_quote(ev, fn, nfn));
    }
}

static const tfx_function *lookup_function(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    const char *name = n->as.call.name;
    size_t nname = n->as.call.nname;
    const tfx_env *scope;
    bool any_table = false;
    suggestion sg;
    const tfx_function *found = cached_function(ev, n, env);

    if (found != NULL)
        return found;
    for (scope = env; scope != NULL; scope = scope->parent) {
        const tfx_function *fn;

        if (!scope->has_functions)
            continue;
        any_table = true;
        fn = scope_function(ev, scope, name, nname);
        if (fn != NULL)
            return fn;
    }
    if (!any_table) {
        tfx_ev_error(ev, TFX_CAT_UNKNOWN_FUNCTION, "Function calls not allowed", &n->range, NULL,
                     "Functions may not be called here.");
        return NULL;
    }
    if (ev->ctx->pn && namespaced(name, nname)) {
        unknown_namespaced_function(ev, n, env);
        return NULL;
    }
    /* [call.suggestion] upstream offers the names of the innermost scope's
     * table only (none inside a `for`, whose scopes have no table) */
    memset(&sg, 0, sizeof(sg));
    if (env != NULL && env->has_functions && env->function_name != NULL) {
        const char *cand;
        int32_t *given;
        size_t i;

        sg.ngiven = runes_of(ev->ctx, name, nname, &given);
        sg.given = given;
        for (i = 0; (cand = env->function_name(i)) != NULL; i++)
            consider(ev->ctx, &sg, cand, strlen(cand));
    }
    tfx_ev_error(ev, TFX_CAT_UNKNOWN_FUNCTION, "Call to unknown function", &n->as.call.name_range,
                 &n->range, "There is no function named %s.%s%s", tfx_ev_quote(ev, name, nname),
                 suggestion_text(ev, &sg), provider_suggestion(ev, env, name, nname));
    return NULL;
}

/* [call.expand] [call.expand.errors] [call.expand.marks] (semantics FN9–
 * FN11) The final argument's expansion: the arguments, or NULL when the
 * call ends here (an error, or an unknown collection). */
static call_arg *expand_arguments(tfx_ev *ev, const tfx_node *n, const tfx_env *env,
                                  size_t *nargs)
{
    tfx_ctx *ctx = ev->ctx;
    size_t nfixed = n->as.call.nargs - 1;
    const tfx_node *expr = n->as.call.args[nfixed];
    size_t mark = ev->diags->n;
    const tfx_value *v = tfx_ev_node(ev, expr, env);
    const tfx_marks *marks = NULL;
    tfx_type_kind kind = v->type->kind;
    call_arg *args;
    size_t count;
    size_t i;

    if (tfx_ev_failed_since(ev, mark))
        return NULL;
    if (kind != TFX_TYPE_DYNAMIC && kind != TFX_TYPE_TUPLE && kind != TFX_TYPE_LIST
        && kind != TFX_TYPE_SET) {
        tfx_ev_error(ev, TFX_CAT_FUNCTION_ARGUMENT, "Invalid expanding argument value",
                     &expr->range, &n->range,
                     "The expanding argument (indicated by ...) must be of a tuple, list, or set "
                     "type.");
        return NULL;
    }
    if (tfx_value_is_null(v)) {
        tfx_ev_error(ev, TFX_CAT_FUNCTION_ARGUMENT, "Invalid expanding argument value",
                     &expr->range, &n->range,
                     "The expanding argument (indicated by ...) must not be null.");
        return NULL;
    }
    if (kind == TFX_TYPE_DYNAMIC || tfx_value_is_unknown(v))
        return NULL;
    v = tfx_value_unmark(ctx, v, &marks);
    count = tfx_value_length(v);
    if (count > SIZE_MAX / sizeof(call_arg) - nfixed - 1)
        tfx_ctx_fail(ctx, "Memory limit exceeded", "Too many function arguments to expand.");
    args = tfx_ctx_alloc_array(ctx, nfixed + count + 1, sizeof(call_arg));
    for (i = 0; i < nfixed; i++) {
        args[i].expr = n->as.call.args[i];
        args[i].start = tfx_ev_start_range(args[i].expr);
    }
    for (i = 0; i < count; i++) {
        call_arg *a = &args[nfixed + i];

        a->value = tfx_value_mark(ctx, tfx_value_item(v, i), marks);
        a->start = expr->range;
    }
    *nargs = nfixed + count;
    return args;
}

/* [call.error] (semantics FN12) An error of the function's type rule or
 * implementation, worded as upstream words it. */
static void call_error(tfx_ev *ev, const tfx_node *n, const tfx_function *fn,
                       const call_arg *args, size_t nargs, const tfx_func_error *err)
{
    const char *msg = err->message != NULL ? err->message : "the function failed";
    tfx_range start = tfx_range_between(n->as.call.name_range, n->as.call.open_range);
    const char *fname = tfx_ev_quote(ev, n->as.call.name, n->as.call.nname);

    if (err->arg >= 0) {
        size_t i = (size_t)err->arg;
        const tfx_param *p = i < fn->nparams ? &fn->params[i] : fn->varparam;

        if (p != NULL && i < nargs) {
            tfx_ev_error(ev, TFX_CAT_FUNCTION_ARGUMENT, "Invalid function argument",
                         &args[i].start, &n->range, "Invalid value for %s parameter: %s.",
                         tfx_ev_quote(ev, p->name, strlen(p->name)), msg);
            return;
        }
        if (p != NULL) {
            tfx_ev_error(ev, TFX_CAT_FUNCTION_ARGUMENT, "Invalid function argument", &n->range,
                         NULL, "Invalid value for %s parameter: %s.",
                         tfx_ev_quote(ev, p->name, strlen(p->name)), msg);
            return;
        }
    }
    tfx_ev_error(ev, TFX_CAT_FUNCTION_ERROR, "Error in function call", &start, &n->range,
                 "Call to function %s failed: %s.", fname, msg);
}

/* [call.lookup] [call.expand] [call.arity] [call.convert]
 * [call.machinery] [call.error] [mark.prop.call] (semantics FN1–FN12)
 * FunctionCallExpr: the function, the expansion, the arity, each argument
 * evaluated and converted to its parameter's type, then cty's call. */
/* Calls of at most this many arguments (without expansion) keep their
 * argument arrays on the stack rather than in the arena: nothing holds
 * on to the arrays past the call (functions copy what they keep), so a
 * call in a `for` body over a million elements no longer leaves a
 * million arrays behind; the arrays hold the same entries either way. */
#define CALL_LOCAL_ARGS 4

static const tfx_value *eval_call(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    tfx_ctx *ctx = ev->ctx;
    const tfx_function *fn = lookup_function(ev, n, env);
    size_t mark = ev->diags->n;
    const char *fname;
    call_arg *args;
    size_t nargs = n->as.call.nargs;
    const tfx_value **vals;
    call_arg local_args[CALL_LOCAL_ARGS + 1];
    const tfx_value *local_vals[CALL_LOCAL_ARGS + 1];
    const tfx_value *result;
    tfx_func_error err;
    size_t i;

    if (fn == NULL)
        return dynamic_unknown();
    args = local_args;
    if (n->as.call.expand_final && nargs > 0) {
        args = expand_arguments(ev, n, env, &nargs);
        if (args == NULL)
            return dynamic_unknown();
    } else {
        if (nargs > CALL_LOCAL_ARGS)
            args = tfx_ctx_alloc_array(ctx, nargs + 1, sizeof(call_arg));
        for (i = 0; i < nargs; i++) {
            args[i].expr = n->as.call.args[i];
            args[i].value = NULL;
            args[i].start = tfx_ev_start_range(args[i].expr);
        }
    }

    if (nargs < fn->nparams) {
        const tfx_param *missing = &fn->params[nargs];

        fname = tfx_ev_quote(ev, n->as.call.name, n->as.call.nname);
        tfx_ev_error(ev, TFX_CAT_ARITY, "Not enough function arguments", &n->as.call.close_range,
                     &n->range, "Function %s expects%s %zu argument(s). Missing value for %s.",
                     fname, fn->varparam != NULL ? " at least" : "", fn->nparams,
                     tfx_ev_quote(ev, missing->name, strlen(missing->name)));
        return dynamic_unknown();
    }
    if (fn->varparam == NULL && nargs > fn->nparams) {
        fname = tfx_ev_quote(ev, n->as.call.name, n->as.call.nname);
        tfx_ev_error(ev, TFX_CAT_ARITY, "Too many function arguments", &args[fn->nparams].start,
                     &n->range, "Function %s expects only %zu argument(s).", fname, fn->nparams);
        return dynamic_unknown();
    }

    vals = nargs <= CALL_LOCAL_ARGS
               ? local_vals
               : tfx_ctx_alloc_array(ctx, nargs + 1, sizeof(const tfx_value *));
    for (i = 0; i < nargs; i++) {
        const tfx_param *p = i < fn->nparams ? &fn->params[i] : fn->varparam;
        const tfx_value *v;
        const char *why = NULL;
        const tfx_value *c;

        if (p->kind == TFX_PARAM_EXPRESSION) {
            /* [call.decode] the expression, not its value */
            vals[i] = make_closure(ev, args[i].expr, args[i].value, env);
            continue;
        }
        if (p->kind == TFX_PARAM_TYPE) {
            /* [call.decode] [fn.convert.type] a type constraint; after
             * its errors, an unknown placeholder (the call stops below) */
            c = tfx_ev_decode_type(ev, args[i].expr, args[i].value, &args[i].start);
            vals[i] = c != NULL ? c : dynamic_unknown();
            continue;
        }
        v = args[i].expr != NULL ? tfx_ev_node(ev, args[i].expr, env) : args[i].value;
        c = tfx_ev_convert(ev, v, p->type, &why);

        if (c == NULL) {
            tfx_ev_error(ev, TFX_CAT_FUNCTION_ARGUMENT, "Invalid function argument",
                         &args[i].start, &n->range, "Invalid value for %s parameter: %s.",
                         tfx_ev_quote(ev, p->name, strlen(p->name)),
                         why != NULL ? why : "invalid value");
            c = v;
        }
        vals[i] = c;
    }
    if (tfx_ev_failed_since(ev, mark))
        return dynamic_unknown();

    memset(&err, 0, sizeof(err));
    result = tfx_ev_func_call(ctx, fn, vals, nargs, &err);
    if (result == NULL) {
        call_error(ev, n, fn, args, nargs, &err);
        return dynamic_unknown();
    }
    return result;
}

/* ---------------------------------------------------------------------
 * Splat [splat.*]
 * ------------------------------------------------------------------ */

/* The value of the per-element expression with the anonymous symbol
 * bound to `item`. */
static const tfx_value *each_value(tfx_ev *ev, const tfx_node *n, const tfx_env *env,
                                   const tfx_value *item)
{
    tfx_ev_binding b;
    const tfx_ev_binding *saved = ev->bindings;
    const tfx_value *v;

    b.next = saved;
    b.item = n->as.splat.item;
    b.value = item;
    ev->bindings = &b;
    v = tfx_ev_node(ev, n->as.splat.each, env);
    ev->bindings = saved;
    return v;
}

/* [splat.type] (semantics P8, P9, P11) The result type of a splat over
 * a list or set (a list of the per-element expression's type for an
 * unknown element) or a tuple (a tuple of the types for an unknown of
 * each element type). */
static const tfx_type *splat_result_type(tfx_ev *ev, const tfx_node *n, const tfx_env *env,
                                         const tfx_type *src)
{
    tfx_ctx *ctx = ev->ctx;

    if (src->kind == TFX_TYPE_LIST || src->kind == TFX_TYPE_SET) {
        const tfx_value *v = each_value(ev, n, env, tfx_value_unknown(ctx, src->elem));

        return tfx_type_list(ctx, v->type);
    }
    if (src->kind == TFX_TYPE_TUPLE) {
        const tfx_type **types = tfx_ctx_alloc_array(ctx, src->n > 0 ? src->n : 1,
                                                     sizeof(const tfx_type *));
        size_t i;

        for (i = 0; i < src->n; i++)
            types[i] = each_value(ev, n, env, tfx_value_unknown(ctx, src->elems[i]))->type;
        return tfx_type_tuple(ctx, types, src->n);
    }
    return &tfx_type_dynamic;
}

/* [splat.unknown] [splat.unknown.pn] The unknown result of type t of a
 * splat over the unknown src; in profile PN (HCL 2.17) refined not null
 * unless t is dynamic, and a list result of a list or set source takes
 * the source's length bounds. */
static const tfx_value *unknown_splat_pn(tfx_ctx *ctx, const tfx_value *src, const tfx_type *t)
{
    const tfx_value *r = tfx_value_unknown(ctx, t);
    const tfx_refinement *sr;
    tfx_refinement add;

    if (!ctx->pn || t->kind == TFX_TYPE_DYNAMIC)
        return r;
    tfx_refinement_init(&add);
    add.not_null = true;
    sr = tfx_value_refinement(src);
    if (t->kind == TFX_TYPE_LIST && sr != NULL
        && (src->type->kind == TFX_TYPE_LIST || src->type->kind == TFX_TYPE_SET)) {
        add.len_lower = sr->len_lower;
        add.len_upper = sr->len_upper;
    }
    return tfx_value_refine(ctx, r, &add);
}

/* [splat.forms] [splat.source] [splat.null] [splat.wrap] [splat.unknown]
 * [splat.each] [splat.nested] [splat.nested.types] [mark.prop.splat] (semantics P1–P16, M7)
 * SplatExpr: the source (its errors end the splat); a null sequence is an
 * error, any other null the empty tuple; a value that is no sequence is
 * wrapped in a one-element tuple; an unknown gives an unknown of the
 * result type; otherwise the per-element expression over each element,
 * the result a list (for a list or set source) or a tuple, with the
 * source's marks. */
static const tfx_value *eval_splat(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    tfx_ctx *ctx = ev->ctx;
    size_t mark = ev->diags->n;
    const tfx_value *src = tfx_ev_node(ev, n->as.splat.source, env);
    tfx_type_kind kind = src->type->kind;
    bool wrap = kind != TFX_TYPE_TUPLE && kind != TFX_TYPE_LIST && kind != TFX_TYPE_SET;
    bool wrapped_unknown = false;
    bool known = true;
    const tfx_marks *marks = NULL;
    const tfx_marks *pn_marks; /* [mark.prop.splat.pn] the source's, in PN */
    const tfx_value **vals;
    const tfx_type *elem;
    size_t count;
    size_t i;

    if (tfx_ev_failed_since(ev, mark))
        return dynamic_unknown();
    pn_marks = ctx->pn ? src->marks : NULL;
    if (tfx_value_is_null(src)) {
        tfx_range context;

        if (wrap)
            return tfx_value_mark(ctx, tfx_value_tuple(ctx, NULL, 0), pn_marks);
        context = tfx_range_between(n->as.splat.source->range, n->as.splat.marker_range);
        tfx_ev_error(ev, TFX_CAT_NULL_ACCESS, "Splat of null value", &n->as.splat.source->range,
                     &context,
                     "Splat expressions (with the * symbol) cannot be applied to null "
                     "sequences.");
        return dynamic_unknown();
    }
    if (kind == TFX_TYPE_DYNAMIC)
        return tfx_value_mark(ctx, dynamic_unknown(), pn_marks);
    if (wrap) {
        /* [splat.wrap.pn] PN (HCL 2.17): an unknown refined not null is
         * wrapped like a known value */
        wrapped_unknown = tfx_value_is_unknown(src)
                          && !(ctx->pn && tfx_refine_definitely_not_null(src));
        src = tfx_value_mark(ctx, tfx_value_tuple(ctx, &src, 1), pn_marks);
    }
    if (tfx_value_is_unknown(src))
        return tfx_value_mark(ctx, unknown_splat_pn(ctx, src, splat_result_type(ev, n, env, src->type)),
                              pn_marks);

    src = tfx_value_unmark(ctx, src, &marks);
    count = tfx_value_length(src);
    vals = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1, sizeof(const tfx_value *));
    for (i = 0; i < count; i++) {
        size_t before = ev->diags->n;

        vals[i] = each_value(ev, n, env, tfx_value_item(src, i));
        if (tfx_ev_failed_since(ev, before))
            known = false;
    }
    if (wrapped_unknown)
        return tfx_value_mark(ctx, dynamic_unknown(), marks);
    if (!known) {
        /* the type's diagnostics repeat those above: set aside */
        tfx_diags aside;
        tfx_diags *saved = ev->diags;
        const tfx_type *t;

        tfx_diags_init(&aside, ctx->arena);
        ev->diags = &aside;
        t = splat_result_type(ev, n, env, src->type);
        ev->diags = saved;
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, t), pn_marks);
    }
    if (src->type->kind == TFX_TYPE_TUPLE)
        return tfx_value_mark(ctx, tfx_value_tuple(ctx, vals, count), marks);
    if (count == 0)
        return tfx_value_mark(
            ctx, tfx_value_list(ctx, splat_result_type(ev, n, env, src->type)->elem, NULL, 0),
            pn_marks);
    elem = tfx_value_common_type(vals, count);
    if (elem == NULL) {
        /* [splat.nested.types] upstream P14 panics; tfexpr reports what PN
         * reports (semantics P15, X11) */
        tfx_ev_error(ev, TFX_CAT_NESTED_SPLAT, "Invalid nested splat expressions",
                     &n->as.splat.each->range, &n->range,
                     "The second level of splat expression produced elements of different "
                     "types, so it isn't possible to construct a valid list to represent "
                     "the top-level result.\n\nConsider using a for expression instead, to "
                     "produce a tuple-typed result which can therefore have non-homogenous "
                     "element types.");
        return dynamic_unknown();
    }
    /* [value.collection.make] an unknown(dynamic) result fits any type */
    tfx_value_retype_dynamic(ctx, vals, count, elem);
    return tfx_value_mark(ctx, tfx_value_list(ctx, elem, vals, count), marks);
}

/* [splat.each] The anonymous symbol: the element the enclosing splat
 * bound, or unknown(dynamic) outside one. */
static const tfx_value *eval_anon_symbol(const tfx_ev *ev, const tfx_node *n)
{
    const tfx_ev_binding *b;

    for (b = ev->bindings; b != NULL; b = b->next)
        if (b->item == n)
            return b->value;
    return dynamic_unknown();
}

/* ---------------------------------------------------------------------
 * Dispatch and the entry point
 * ------------------------------------------------------------------ */

/* [limit.eval.depth] */
static void enter(tfx_ctx *ctx)
{
    tfx_ctx_step(ctx);
    if (++ctx->depth > ctx->limits.max_depth)
        tfx_ctx_fail(ctx, "Nesting too deep",
                     "The evaluation nests deeper than the limit of %zu levels.",
                     ctx->limits.max_depth);
}

static const tfx_value *dispatch(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    switch (n->kind) {
    case TFX_NODE_LITERAL:
        return cached_literal_value(ev, &n->as.literal);
    case TFX_NODE_TEMPLATE:
        return tfx_ev_template(ev, n, env);
    case TFX_NODE_TEMPLATE_WRAP:
        /* [tmpl.eval.wrap] (semantics T2) the interpolation's own value */
        return tfx_ev_node(ev, n->as.wrap.wrapped, env);
    case TFX_NODE_TEMPLATE_JOIN:
        return tfx_ev_template_join(ev, n, env);
    case TFX_NODE_SCOPE_TRAVERSAL:
        return eval_scope_traversal(ev, n, env);
    case TFX_NODE_RELATIVE_TRAVERSAL:
        return eval_relative_traversal(ev, n, env);
    case TFX_NODE_FUNCTION_CALL:
        return eval_call(ev, n, env);
    case TFX_NODE_CONDITIONAL:
        return eval_conditional(ev, n, env);
    case TFX_NODE_BINARY_OP:
        return eval_binary(ev, n, env);
    case TFX_NODE_UNARY_OP:
        return eval_unary(ev, n, env);
    case TFX_NODE_TUPLE_CONS:
        return eval_tuple(ev, n, env);
    case TFX_NODE_OBJECT_CONS:
        return eval_object(ev, n, env);
    case TFX_NODE_OBJECT_CONS_KEY:
        return eval_object_key(ev, n, env);
    case TFX_NODE_FOR:
        return tfx_ev_for(ev, n, env);
    case TFX_NODE_INDEX:
        return eval_index(ev, n, env);
    case TFX_NODE_SPLAT:
        return eval_splat(ev, n, env);
    case TFX_NODE_ANON_SYMBOL:
        return eval_anon_symbol(ev, n);
    case TFX_NODE_PARENTHESES:
        /* [eval.literal] parentheses give the inner value unchanged */
        return tfx_ev_node(ev, n->as.parens.expr, env);
    case TFX_NODE_COUNT:
        break;
    }
    return dynamic_unknown();
}

/* [limit.eval.steps] [limit.eval.depth] One node: a step, a level. */
const tfx_value *tfx_ev_node(tfx_ev *ev, const tfx_node *n, const tfx_env *env)
{
    const tfx_value *v;

    enter(ev->ctx);
    v = dispatch(ev, n, env);
    ev->ctx->depth--;
    return v;
}

typedef struct {
    tfx_ev ev;
    const tfx_node *node;
    const tfx_env *env;
    const tfx_value *result;
} eval_job;

static void run_eval(tfx_ctx *ctx, void *arg)
{
    eval_job *job = arg;

    TFX_UNUSED(ctx);
    job->result = tfx_ev_node(&job->ev, job->node, job->env);
}

/* [eval.result] [eval.placeholder] [limit.eval] The evaluation, inside
 * tfx_ctx_try: a limit reached replaces the evaluation's diagnostics with
 * one resource.limit error whose subject is the whole expression.  The
 * memory of that diagnostic is set aside first, so that it can be
 * reported even when the memory limit was the one reached. */
const tfx_value *tfx_eval(tfx_ctx *ctx, const tfx_node *node, const tfx_env *env,
                          tfx_diags *diags)
{
    eval_job job;
    const tfx_env *outer;
    size_t start = diags->n;
    bool out_of_memory = diags->out_of_memory;
    char *detail = tfx_arena_alloc(ctx->arena, sizeof(ctx->fail_detail));
    bool reserved = detail != NULL
                    && tfx_diags_add(diags, TFX_PHASE_EVAL, TFX_CAT_RESOURCE_LIMIT, "",
                                     &node->range, NULL, "%s", "") != NULL;
    const char *summary;

    memset(&job, 0, sizeof(job));
    job.ev.ctx = ctx;
    job.ev.diags = diags;
    for (outer = env; outer != NULL && outer->parent != NULL; outer = outer->parent)
        ;
    job.ev.filename = outer != NULL ? outer->filename : NULL;
    job.node = node;
    job.env = env;
    job.result = dynamic_unknown();
    if (tfx_ctx_try(ctx, run_eval, &job)) {
        if (reserved) {
            /* the evaluation went well: give the slot back */
            memmove(&diags->items[start], &diags->items[start + 1],
                    (diags->n - start - 1) * sizeof(tfx_diag));
            diags->n--;
        }
        return job.result;
    }
    summary = ctx->fail_summary != NULL ? ctx->fail_summary : "Memory limit exceeded";
    diags->out_of_memory = out_of_memory;
    if (reserved) {
        tfx_diag *d = &diags->items[start];

        memcpy(detail, ctx->fail_detail, sizeof(ctx->fail_detail));
        detail[sizeof(ctx->fail_detail) - 1] = '\0';
        d->summary = summary;
        d->detail = detail;
        diags->n = start + 1;
    } else {
        diags->n = start;
        tfx_diags_add(diags, TFX_PHASE_EVAL, TFX_CAT_RESOURCE_LIMIT, summary, &node->range, NULL,
                      "%s", ctx->fail_detail);
    }
    return dynamic_unknown();
}
