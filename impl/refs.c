/* SPDX-License-Identifier: MPL-2.0 */
/*
 * refs.c — static reference analysis (spec/references.md, rules refs.*):
 * the traversals an expression or template refers to, as upstream's
 * hclsyntax Variables() lists them, without evaluating anything.
 *
 * A walk of the syntax tree in upstream's child order; for-expression
 * (and %{for} directive) symbols open a local scope for the key, value
 * and condition expressions.  Each reported traversal points into the
 * tree of its source (names, step ranges); the typed JSON of index keys
 * and the texts are made in the result's own arena.
 */
#include "tfexpr.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "ctx.h"
#include "diag.h"
#include "jsonio.h"
#include "num.h"
#include "source.h"
#include "value.h"

/* One reported traversal. */
typedef struct {
    const tfx_node *node;       /* its SCOPE_TRAVERSAL node */
    tfx_ref_step *steps;        /* nsteps public steps (arena) */
    size_t nsteps;
    tfx_range range;            /* root through last step [refs.range] */
    const char *text;           /* a.b[0] (arena) */
} ref_entry;

struct tfx_refs {
    tfx_ctx mem;
    ref_entry *items;           /* arena; grown by doubling */
    size_t n;
    size_t cap;
    const char *json;           /* the protocol list (arena) */
};

/* The local names of the enclosing for-expressions, innermost first. */
typedef struct scope {
    const struct scope *outer;
    const char *key;
    size_t nkey;
    const char *val;
    size_t nval;
} scope;

/* [refs.scope] Whether `name` is bound by an enclosing for-expression or
 * for-directive. */
static bool is_local(const scope *s, const char *name, size_t n)
{
    for (; s != NULL; s = s->outer) {
        if (s->key != NULL && s->nkey == n && memcmp(s->key, name, n) == 0)
            return true;
        if (s->val != NULL && s->nval == n && memcmp(s->val, name, n) == 0)
            return true;
    }
    return false;
}

/* The longest text of a number key written out (as the evaluator's
 * default max_string_bytes): a literal like 1e646456992 is a valid number
 * of 646 million digits. */
#define REFS_MAX_NUMBER_BYTES ((size_t)64 << 20)

/* [refs.step.index] The value of a literal index key: numbers at 512
 * bits, strings NFC, null of type dynamic (as the literal evaluates). */
static const tfx_value *key_value(tfx_ctx *ctx, const tfx_literal *lit)
{
    const tfx_num *num = NULL;

    switch (lit->kind) {
    case TFX_LIT_NUMBER:
        if (tfx_num_parse_n(ctx->arena, lit->text, lit->ntext, &num) != TFX_NUM_OK)
            return tfx_value_unknown(ctx, &tfx_type_number);
        if (tfx_num_format_max_bytes(num) > REFS_MAX_NUMBER_BYTES)
            tfx_ctx_fail(ctx, "String length limit exceeded",
                         "an index key's number has a text longer than %zu bytes",
                         REFS_MAX_NUMBER_BYTES);
        return tfx_value_number(ctx, num);
    case TFX_LIT_STRING:
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
    return tfx_value_unknown(ctx, &tfx_type_dynamic);
}

/* [refs.text] A key as the text form writes it: numbers in their
 * shortest decimal form, strings quoted, true, false, null. */
static void put_key(tfx_textbuf *b, const tfx_value *v)
{
    if (tfx_value_is_unknown(v)) {
        tfx_textbuf_puts(b, "?");
    } else if (tfx_value_is_null(v)) {
        tfx_textbuf_puts(b, "null");
    } else if (v->type->kind == TFX_TYPE_BOOL) {
        tfx_textbuf_puts(b, v->as.boolean ? "true" : "false");
    } else if (v->type->kind == TFX_TYPE_NUMBER) {
        size_t n;
        const char *s = tfx_num_format(b->ctx->arena, v->as.number, &n);

        if (s == NULL)
            tfx_ctx_fail(b->ctx, "Memory limit exceeded", "no memory for a number's text");
        tfx_textbuf_put(b, s, n);
    } else {
        tfx_textbuf_quote(b, v->as.string.s, v->as.string.nbytes);
    }
}

/* [refs.steps] [refs.range] [refs.text] Records the traversal of a
 * SCOPE_TRAVERSAL node: its steps with their ranges and key values. */
static void add_ref(tfx_refs *r, const tfx_node *n)
{
    ref_entry *e;
    tfx_textbuf text;
    tfx_textbuf keytext;
    size_t i;

    if (r->n == r->cap) {
        size_t cap = r->cap == 0 ? 8 : r->cap * 2;
        ref_entry *items = tfx_ctx_alloc_array(&r->mem, cap, sizeof(ref_entry));

        if (r->n > 0)
            memcpy(items, r->items, r->n * sizeof(ref_entry));
        r->items = items;
        r->cap = cap;
    }
    e = &r->items[r->n];
    memset(e, 0, sizeof(*e));
    e->node = n;
    e->nsteps = n->as.traversal.nsteps;
    e->steps = tfx_ctx_alloc_array(&r->mem, e->nsteps + 1, sizeof(tfx_ref_step));
    e->range = n->as.traversal.root_range;
    tfx_textbuf_init(&text, &r->mem);
    tfx_textbuf_put(&text, n->as.traversal.root, n->as.traversal.nroot);
    for (i = 0; i < e->nsteps; i++) {
        const tfx_step *s = &n->as.traversal.steps[i];
        tfx_ref_step *out = &e->steps[i];

        out->range = s->range;
        e->range = tfx_range_between(e->range, s->range);
        if (s->is_attr) {
            out->kind = TFX_REF_ATTR;
            out->name = s->name;
            out->nname = s->nname;
            tfx_textbuf_putc(&text, '.');
            tfx_textbuf_put(&text, s->name, s->nname);
        } else {
            const tfx_value *key = key_value(&r->mem, &s->key);
            const char *error = NULL;

            out->kind = TFX_REF_INDEX;
            out->key_json = tfx_json_encode_typed_in(&r->mem, key, NULL, &error);
            if (out->key_json == NULL)
                out->key_json = "{\"type\":\"dynamic\",\"unknown\":true}";
            tfx_textbuf_init(&keytext, &r->mem);
            put_key(&keytext, key);
            out->key_text = tfx_textbuf_text(&keytext);
            tfx_textbuf_putc(&text, '[');
            tfx_textbuf_puts(&text, out->key_text);
            tfx_textbuf_putc(&text, ']');
        }
    }
    e->text = tfx_textbuf_text(&text);
    r->n++;
}

/* [refs.walk] [refs.scope] [refs.object.key] Walks a node's children in
 * upstream's order (hclsyntax walkChildNodes), reporting every scope
 * traversal whose root is not a local of an enclosing for.  Recursion
 * as deep as the tree, which the parse's max_depth bounds; each node
 * counts one step of the result's ctx. */
static void walk(tfx_refs *r, const tfx_node *n, const scope *locals)
{
    size_t i;

    if (n == NULL)
        return;
    tfx_ctx_step(&r->mem);
    switch (n->kind) {
    case TFX_NODE_LITERAL:
    case TFX_NODE_ANON_SYMBOL:
    case TFX_NODE_COUNT:
        break;
    case TFX_NODE_TEMPLATE:
        for (i = 0; i < n->as.template.nparts; i++)
            walk(r, n->as.template.parts[i], locals);
        break;
    case TFX_NODE_TEMPLATE_WRAP:
        walk(r, n->as.wrap.wrapped, locals);
        break;
    case TFX_NODE_TEMPLATE_JOIN:
        walk(r, n->as.join.tuple, locals);
        break;
    case TFX_NODE_SCOPE_TRAVERSAL:
        if (!is_local(locals, n->as.traversal.root, n->as.traversal.nroot))
            add_ref(r, n);
        break;
    case TFX_NODE_RELATIVE_TRAVERSAL:
        walk(r, n->as.traversal.source, locals);
        break;
    case TFX_NODE_FUNCTION_CALL:
        for (i = 0; i < n->as.call.nargs; i++)
            walk(r, n->as.call.args[i], locals);
        break;
    case TFX_NODE_CONDITIONAL:
        walk(r, n->as.conditional.cond, locals);
        walk(r, n->as.conditional.true_result, locals);
        walk(r, n->as.conditional.false_result, locals);
        break;
    case TFX_NODE_BINARY_OP:
        walk(r, n->as.op.lhs, locals);
        walk(r, n->as.op.rhs, locals);
        break;
    case TFX_NODE_UNARY_OP:
        walk(r, n->as.op.lhs, locals);
        break;
    case TFX_NODE_TUPLE_CONS:
        for (i = 0; i < n->as.tuple.nitems; i++)
            walk(r, n->as.tuple.items[i], locals);
        break;
    case TFX_NODE_OBJECT_CONS:
        for (i = 0; i < n->as.object.nitems; i++) {
            walk(r, n->as.object.items[i].key, locals);
            walk(r, n->as.object.items[i].value, locals);
        }
        break;
    case TFX_NODE_OBJECT_CONS_KEY: {
        /* [refs.object.key] a key that reads as one bare name (or the
         * keywords true, false, null) is a literal, not a reference */
        const tfx_node *w = n->as.key.wrapped;
        bool keyword = w != NULL
                       && ((w->kind == TFX_NODE_SCOPE_TRAVERSAL && w->as.traversal.nsteps == 0)
                           || (w->kind == TFX_NODE_LITERAL
                               && (w->as.literal.kind == TFX_LIT_BOOL
                                   || w->as.literal.kind == TFX_LIT_NULL)));

        if (!keyword)
            walk(r, w, locals);
        break;
    }
    case TFX_NODE_FOR: {
        scope inner;

        walk(r, n->as.for_expr.coll, locals);
        inner.outer = locals;
        inner.key = n->as.for_expr.key_var;
        inner.nkey = n->as.for_expr.nkey_var;
        inner.val = n->as.for_expr.val_var;
        inner.nval = n->as.for_expr.nval_var;
        walk(r, n->as.for_expr.key, &inner);
        walk(r, n->as.for_expr.value, &inner);
        walk(r, n->as.for_expr.cond, &inner);
        break;
    }
    case TFX_NODE_INDEX:
        walk(r, n->as.index.collection, locals);
        walk(r, n->as.index.key, locals);
        break;
    case TFX_NODE_SPLAT:
        walk(r, n->as.splat.source, locals);
        walk(r, n->as.splat.each, locals);
        break;
    case TFX_NODE_PARENTHESES:
        walk(r, n->as.parens.expr, locals);
        break;
    }
}

typedef struct {
    tfx_refs *refs;
    const tfx_node *root;
} walk_job;

/* The walk inside tfx_ctx_try: allocation failures jump out of it. */
static void run_walk(tfx_ctx *ctx, void *arg)
{
    walk_job *job = arg;

    (void)ctx;
    walk(job->refs, job->root, NULL);
}

static void run_json(tfx_ctx *ctx, void *arg);

/* ---- The public interface [refs.result] [refs.range] ---- */

/* [refs.result] Walks the source's tree (as far as the parse built it)
 * and makes the protocol list at once, so that the accessors never fail;
 * NULL when memory, or the length limit of a number key, runs out. */
TFX_API tfx_refs *tfx_source_refs(const tfx_source *src)
{
    tfx_refs *r = calloc(1, sizeof(tfx_refs));
    walk_job job;

    if (r == NULL)
        return NULL;
    if (!tfx_ctx_init(&r->mem, NULL)) {
        free(r);
        return NULL;
    }
    job.refs = r;
    job.root = src != NULL ? src->root : NULL;
    if (!tfx_ctx_try(&r->mem, run_walk, &job) || !tfx_ctx_try(&r->mem, run_json, r)) {
        tfx_refs_free(r);
        return NULL;
    }
    return r;
}

/* The accessors below only read what tfx_source_refs made. */
TFX_API void tfx_refs_free(tfx_refs *r)
{
    if (r == NULL)
        return;
    tfx_ctx_free(&r->mem);
    free(r);
}

TFX_API size_t tfx_refs_count(const tfx_refs *r)
{
    return r != NULL ? r->n : 0;
}

TFX_API const char *tfx_ref_root(const tfx_refs *r, size_t i, size_t *nbytes)
{
    const tfx_node *n = r->items[i].node;

    if (nbytes != NULL)
        *nbytes = n->as.traversal.nroot;
    return n->as.traversal.root;
}

TFX_API tfx_range tfx_ref_root_range(const tfx_refs *r, size_t i)
{
    return r->items[i].node->as.traversal.root_range;
}

TFX_API tfx_range tfx_ref_range(const tfx_refs *r, size_t i)
{
    return r->items[i].range;
}

TFX_API size_t tfx_ref_step_count(const tfx_refs *r, size_t i)
{
    return r->items[i].nsteps;
}

TFX_API const tfx_ref_step *tfx_ref_step_at(const tfx_refs *r, size_t i, size_t j)
{
    return &r->items[i].steps[j];
}

TFX_API const char *tfx_ref_text(const tfx_refs *r, size_t i)
{
    return r->items[i].text;
}

/* [refs.protocol] Appends a name as a JSON string, escaped as the typed
 * encoding escapes strings (its "v" member of a string value). */
static void put_name(tfx_textbuf *b, const char *name, size_t n)
{
    const char *error = NULL;
    const char *enc = tfx_json_encode_typed_in(b->ctx, tfx_value_string_raw(b->ctx, name, n),
                                               NULL, &error);
    const char *v = enc != NULL ? strstr(enc, "\"v\":") : NULL;

    if (v != NULL)
        tfx_textbuf_put(b, v + 4, strlen(v + 4) - 1);
    else
        tfx_textbuf_puts(b, "\"\"");
}

/* [refs.protocol] A range as the protocol writes positions. */
static void put_range(tfx_textbuf *b, tfx_range rg)
{
    tfx_textbuf_printf(b,
                       "{\"start\":{\"byte\":%zu,\"line\":%zu,\"column\":%zu},"
                       "\"end\":{\"byte\":%zu,\"line\":%zu,\"column\":%zu}}",
                       rg.start.byte, rg.start.line, rg.start.column, rg.end.byte,
                       rg.end.line, rg.end.column);
}

/* [refs.protocol] The list in the protocol's encoding: members in the
 * order root, steps, root_range, range; a step's attr or index, then its
 * range (what the Go reference adapter writes, byte for byte). */
static void run_json(tfx_ctx *ctx, void *arg)
{
    tfx_refs *r = arg;
    tfx_textbuf b;
    size_t i;
    size_t j;

    tfx_textbuf_init(&b, ctx);
    tfx_textbuf_putc(&b, '[');
    for (i = 0; i < r->n; i++) {
        const ref_entry *e = &r->items[i];
        const tfx_node *n = e->node;

        tfx_textbuf_puts(&b, i > 0 ? ",{\"root\":" : "{\"root\":");
        put_name(&b, n->as.traversal.root, n->as.traversal.nroot);
        tfx_textbuf_puts(&b, ",\"steps\":[");
        for (j = 0; j < e->nsteps; j++) {
            const tfx_ref_step *s = &e->steps[j];

            if (j > 0)
                tfx_textbuf_putc(&b, ',');
            if (s->kind == TFX_REF_ATTR) {
                tfx_textbuf_puts(&b, "{\"attr\":");
                put_name(&b, s->name, s->nname);
            } else {
                tfx_textbuf_puts(&b, "{\"index\":");
                tfx_textbuf_puts(&b, s->key_json);
            }
            tfx_textbuf_puts(&b, ",\"range\":");
            put_range(&b, s->range);
            tfx_textbuf_putc(&b, '}');
        }
        tfx_textbuf_puts(&b, "],\"root_range\":");
        put_range(&b, n->as.traversal.root_range);
        tfx_textbuf_puts(&b, ",\"range\":");
        put_range(&b, e->range);
        tfx_textbuf_putc(&b, '}');
    }
    tfx_textbuf_putc(&b, ']');
    r->json = tfx_textbuf_text(&b);
}

/* [refs.protocol] A malloc'd copy of the list made with the result. */
TFX_API char *tfx_refs_json(const tfx_refs *r)
{
    char *out;
    size_t n;

    if (r == NULL || r->json == NULL)
        return NULL;
    n = strlen(r->json);
    out = malloc(n + 1);
    if (out != NULL)
        memcpy(out, r->json, n + 1);
    return out;
}
