/* SPDX-License-Identifier: MPL-2.0 */
/*
 * ast.c — the syntax tree: names, invariants, dumps, the printer back to
 * source, and structural equality.
 *
 * Tree walks here recurse; the parser bounds the depth of every tree
 * (limit.depth), so they cannot exhaust the stack.
 */
#include "ast.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "text.h"

static const char *const node_names[] = {
#define TFX_NODE_NAME(name, str) str,
    TFX_NODE_KINDS(TFX_NODE_NAME)
#undef TFX_NODE_NAME
};

const char *tfx_node_kind_name(tfx_node_kind k)
{
    return (size_t)k < TFX_NODE_COUNT ? node_names[k] : "?";
}

static const char *const op_texts[] = {
#define TFX_OP_TEXT(name, str) str,
    TFX_BINARY_OPS(TFX_OP_TEXT)
#undef TFX_OP_TEXT
    "-", "!",
};

const char *tfx_op_text(tfx_op op)
{
    return (size_t)op < sizeof(op_texts) / sizeof(op_texts[0]) ? op_texts[op] : "?";
}

/* ---------------------------------------------------------------------
 * Children, in source order
 * ------------------------------------------------------------------ */

/* Calls fn on each child of n (NULL children skipped); stops and returns
 * the first non-NULL result. */
typedef const char *(*child_fn)(const tfx_node *child, void *ctx);

static const char *each_child(const tfx_node *n, child_fn fn, void *ctx)
{
    const char *r = NULL;
    size_t i;

#define VISIT(c) do { if ((c) != NULL && (r = fn((c), ctx)) != NULL) return r; } while (0)
    switch (n->kind) {
    case TFX_NODE_LITERAL:
    case TFX_NODE_ANON_SYMBOL:
        break;
    case TFX_NODE_TEMPLATE:
        for (i = 0; i < n->as.template.nparts; i++)
            VISIT(n->as.template.parts[i]);
        break;
    case TFX_NODE_TEMPLATE_WRAP:
        VISIT(n->as.wrap.wrapped);
        break;
    case TFX_NODE_TEMPLATE_JOIN:
        VISIT(n->as.join.tuple);
        break;
    case TFX_NODE_SCOPE_TRAVERSAL:
        break;
    case TFX_NODE_RELATIVE_TRAVERSAL:
        VISIT(n->as.traversal.source);
        break;
    case TFX_NODE_FUNCTION_CALL:
        for (i = 0; i < n->as.call.nargs; i++)
            VISIT(n->as.call.args[i]);
        break;
    case TFX_NODE_CONDITIONAL:
        VISIT(n->as.conditional.cond);
        VISIT(n->as.conditional.true_result);
        VISIT(n->as.conditional.false_result);
        break;
    case TFX_NODE_BINARY_OP:
        VISIT(n->as.op.lhs);
        VISIT(n->as.op.rhs);
        break;
    case TFX_NODE_UNARY_OP:
        VISIT(n->as.op.lhs);
        break;
    case TFX_NODE_TUPLE_CONS:
        for (i = 0; i < n->as.tuple.nitems; i++)
            VISIT(n->as.tuple.items[i]);
        break;
    case TFX_NODE_OBJECT_CONS:
        for (i = 0; i < n->as.object.nitems; i++) {
            VISIT(n->as.object.items[i].key);
            VISIT(n->as.object.items[i].value);
        }
        break;
    case TFX_NODE_OBJECT_CONS_KEY:
        VISIT(n->as.key.wrapped);
        break;
    case TFX_NODE_FOR:
        VISIT(n->as.for_expr.coll);
        VISIT(n->as.for_expr.key);
        VISIT(n->as.for_expr.value);
        VISIT(n->as.for_expr.cond);
        break;
    case TFX_NODE_INDEX:
        VISIT(n->as.index.collection);
        VISIT(n->as.index.key);
        break;
    case TFX_NODE_SPLAT:
        VISIT(n->as.splat.source);
        VISIT(n->as.splat.each);
        break;
    case TFX_NODE_PARENTHESES:
        VISIT(n->as.parens.expr);
        break;
    case TFX_NODE_COUNT:
        break;
    }
#undef VISIT
    return NULL;
}

/* ---------------------------------------------------------------------
 * Invariants
 * ------------------------------------------------------------------ */

static const char *check_range(tfx_range r, size_t nbytes)
{
    if (r.start.byte > r.end.byte)
        return "a range ends before it starts";
    if (r.end.byte > nbytes)
        return "a range runs past the end of the source";
    if (r.start.line < 1 || r.start.column < 1 || r.end.line < 1 || r.end.column < 1)
        return "a position has line or column 0";
    if (r.start.line > r.end.line || (r.start.line == r.end.line && r.start.column > r.end.column))
        return "a range's lines and columns run backwards";
    return NULL;
}

static const char *check_child(const tfx_node *child, void *ctx)
{
    return tfx_ast_check(child, *(const size_t *)ctx);
}

const char *tfx_ast_check(const tfx_node *n, size_t nbytes)
{
    const char *err;

    if ((size_t)n->kind >= TFX_NODE_COUNT)
        return "a node has an unknown kind";
    if ((err = check_range(n->range, nbytes)) != NULL)
        return err;
    if (n->kind == TFX_NODE_SCOPE_TRAVERSAL || n->kind == TFX_NODE_RELATIVE_TRAVERSAL)
        for (size_t i = 0; i < n->as.traversal.nsteps; i++)
            if ((err = check_range(n->as.traversal.steps[i].range, nbytes)) != NULL)
                return err;
    if (n->kind == TFX_NODE_SCOPE_TRAVERSAL && n->as.traversal.root == NULL)
        return "a scope traversal has no root name";
    if (n->kind == TFX_NODE_FOR && n->as.for_expr.value == NULL)
        return "a for expression has no value";
    return each_child(n, check_child, &nbytes);
}

/* ---------------------------------------------------------------------
 * S-expression dump
 * ------------------------------------------------------------------ */

static void put_quoted(tfx_buf *b, const char *s, size_t n)
{
    tfx_buf_putc(b, '"');
    tfx_buf_json_escape(b, s, n);
    tfx_buf_putc(b, '"');
}

static void sexpr_literal(tfx_buf *b, const tfx_literal *lit)
{
    switch (lit->kind) {
    case TFX_LIT_NUMBER: tfx_buf_put(b, lit->text, lit->ntext); break;
    case TFX_LIT_STRING: put_quoted(b, lit->text, lit->ntext); break;
    case TFX_LIT_BOOL: tfx_buf_puts(b, lit->boolean ? "true" : "false"); break;
    case TFX_LIT_NULL: tfx_buf_puts(b, "null"); break;
    case TFX_LIT_UNKNOWN: tfx_buf_puts(b, "(unknown)"); break;
    case TFX_LIT_UNKNOWN_NUMBER: tfx_buf_puts(b, "(unknown number)"); break;
    }
}

static void sexpr_range(tfx_buf *b, tfx_range r)
{
    tfx_buf_printf(b, " @%zu:%zu-%zu:%zu", r.start.line, r.start.column, r.end.line, r.end.column);
}

static void sexpr_steps(tfx_buf *b, const tfx_node *n)
{
    size_t i;

    for (i = 0; i < n->as.traversal.nsteps; i++) {
        const tfx_step *s = &n->as.traversal.steps[i];

        tfx_buf_putc(b, ' ');
        if (s->is_attr) {
            tfx_buf_putc(b, '.');
            tfx_buf_put(b, s->name, s->nname);
        } else {
            tfx_buf_puts(b, s->legacy ? "(legacy-index " : "(index ");
            sexpr_literal(b, &s->key);
            tfx_buf_putc(b, ')');
        }
    }
}

struct sexpr_ctx {
    tfx_buf *b;
    bool ranges;
};

static void sexpr_node(const tfx_node *n, struct sexpr_ctx *c);

static const char *sexpr_child(const tfx_node *child, void *ctx)
{
    struct sexpr_ctx *c = ctx;

    tfx_buf_putc(c->b, ' ');
    sexpr_node(child, c);
    return NULL;
}

static void sexpr_node(const tfx_node *n, struct sexpr_ctx *c)
{
    tfx_buf *b = c->b;

    tfx_buf_putc(b, '(');
    tfx_buf_puts(b, tfx_node_kind_name(n->kind));
    if (c->ranges)
        sexpr_range(b, n->range);
    switch (n->kind) {
    case TFX_NODE_LITERAL:
        tfx_buf_putc(b, ' ');
        sexpr_literal(b, &n->as.literal);
        break;
    case TFX_NODE_SCOPE_TRAVERSAL:
        tfx_buf_putc(b, ' ');
        tfx_buf_put(b, n->as.traversal.root, n->as.traversal.nroot);
        sexpr_steps(b, n);
        break;
    case TFX_NODE_RELATIVE_TRAVERSAL:
        sexpr_child(n->as.traversal.source, c);
        sexpr_steps(b, n);
        tfx_buf_putc(b, ')');
        return;
    case TFX_NODE_FUNCTION_CALL:
        tfx_buf_putc(b, ' ');
        tfx_buf_put(b, n->as.call.name, n->as.call.nname);
        if (n->as.call.expand_final)
            tfx_buf_puts(b, " ...");
        break;
    case TFX_NODE_BINARY_OP:
    case TFX_NODE_UNARY_OP:
        tfx_buf_printf(b, " %s", tfx_op_text(n->as.op.op));
        break;
    case TFX_NODE_CONDITIONAL:
        if (n->as.conditional.directive)
            tfx_buf_puts(b, " %if");
        break;
    case TFX_NODE_OBJECT_CONS_KEY:
        if (n->as.key.force_non_literal)
            tfx_buf_puts(b, " (parenthesized)");
        break;
    case TFX_NODE_FOR:
        tfx_buf_putc(b, ' ');
        if (n->as.for_expr.key_var != NULL) {
            tfx_buf_put(b, n->as.for_expr.key_var, n->as.for_expr.nkey_var);
            tfx_buf_putc(b, ',');
        }
        tfx_buf_put(b, n->as.for_expr.val_var, n->as.for_expr.nval_var);
        if (n->as.for_expr.key == NULL && n->as.for_expr.group)
            tfx_buf_puts(b, " ...");
        if (n->as.for_expr.key != NULL)
            tfx_buf_puts(b, n->as.for_expr.group ? " object..." : " object");
        if (n->as.for_expr.cond != NULL)
            tfx_buf_puts(b, " if");
        break;
    case TFX_NODE_SPLAT:
        if (n->as.splat.legacy)
            tfx_buf_puts(b, " legacy");
        break;
    default:
        break;
    }
    each_child(n, sexpr_child, c);
    tfx_buf_putc(b, ')');
}

char *tfx_ast_sexpr(const tfx_node *n, bool ranges)
{
    tfx_buf b = {0};
    struct sexpr_ctx c;

    c.b = &b;
    c.ranges = ranges;
    sexpr_node(n, &c);
    return tfx_buf_take(&b);
}

/* ---------------------------------------------------------------------
 * JSON dump
 * ------------------------------------------------------------------ */

static void json_pos(tfx_buf *b, tfx_pos p)
{
    tfx_buf_printf(b, "{\"byte\":%zu,\"line\":%zu,\"column\":%zu}", p.byte, p.line, p.column);
}

static void json_range(tfx_buf *b, const char *key, tfx_range r)
{
    tfx_buf_printf(b, ",\"%s\":{\"start\":", key);
    json_pos(b, r.start);
    tfx_buf_puts(b, ",\"end\":");
    json_pos(b, r.end);
    tfx_buf_putc(b, '}');
}

static void json_literal(tfx_buf *b, const tfx_literal *lit)
{
    static const char *const kinds[] = {"number", "string", "bool", "null", "unknown", "unknown-number"};

    tfx_buf_printf(b, "{\"kind\":\"%s\"", kinds[lit->kind]);
    if (lit->kind == TFX_LIT_NUMBER || lit->kind == TFX_LIT_STRING) {
        tfx_buf_puts(b, ",\"text\":");
        put_quoted(b, lit->text, lit->ntext);
    } else if (lit->kind == TFX_LIT_BOOL) {
        tfx_buf_printf(b, ",\"value\":%s", lit->boolean ? "true" : "false");
    }
    tfx_buf_putc(b, '}');
}

static void json_node(tfx_buf *b, const tfx_node *n);

static void json_field(tfx_buf *b, const char *key, const tfx_node *n)
{
    if (n == NULL)
        return;
    tfx_buf_printf(b, ",\"%s\":", key);
    json_node(b, n);
}

static void json_list(tfx_buf *b, const char *key, tfx_node *const *items, size_t n)
{
    size_t i;

    tfx_buf_printf(b, ",\"%s\":[", key);
    for (i = 0; i < n; i++) {
        if (i > 0)
            tfx_buf_putc(b, ',');
        json_node(b, items[i]);
    }
    tfx_buf_putc(b, ']');
}

static void json_name(tfx_buf *b, const char *key, const char *s, size_t n)
{
    tfx_buf_printf(b, ",\"%s\":", key);
    put_quoted(b, s, n);
}

static void json_node(tfx_buf *b, const tfx_node *n)
{
    size_t i;

    tfx_buf_printf(b, "{\"kind\":\"%s\"", tfx_node_kind_name(n->kind));
    json_range(b, "range", n->range);
    switch (n->kind) {
    case TFX_NODE_LITERAL:
        tfx_buf_puts(b, ",\"value\":");
        json_literal(b, &n->as.literal);
        break;
    case TFX_NODE_TEMPLATE:
        json_list(b, "parts", n->as.template.parts, n->as.template.nparts);
        break;
    case TFX_NODE_TEMPLATE_WRAP:
        json_field(b, "wrapped", n->as.wrap.wrapped);
        break;
    case TFX_NODE_TEMPLATE_JOIN:
        json_field(b, "tuple", n->as.join.tuple);
        break;
    case TFX_NODE_SCOPE_TRAVERSAL:
    case TFX_NODE_RELATIVE_TRAVERSAL:
        if (n->kind == TFX_NODE_SCOPE_TRAVERSAL)
            json_name(b, "root", n->as.traversal.root, n->as.traversal.nroot);
        else
            json_field(b, "source", n->as.traversal.source);
        tfx_buf_puts(b, ",\"steps\":[");
        for (i = 0; i < n->as.traversal.nsteps; i++) {
            const tfx_step *s = &n->as.traversal.steps[i];

            if (i > 0)
                tfx_buf_putc(b, ',');
            if (s->is_attr) {
                tfx_buf_puts(b, "{\"attr\":");
                put_quoted(b, s->name, s->nname);
            } else {
                tfx_buf_puts(b, "{\"index\":");
                json_literal(b, &s->key);
                if (s->legacy)
                    tfx_buf_puts(b, ",\"legacy\":true");
            }
            json_range(b, "range", s->range);
            tfx_buf_putc(b, '}');
        }
        tfx_buf_putc(b, ']');
        break;
    case TFX_NODE_FUNCTION_CALL:
        json_name(b, "name", n->as.call.name, n->as.call.nname);
        json_list(b, "args", n->as.call.args, n->as.call.nargs);
        tfx_buf_printf(b, ",\"expand_final\":%s", n->as.call.expand_final ? "true" : "false");
        break;
    case TFX_NODE_CONDITIONAL:
        json_field(b, "condition", n->as.conditional.cond);
        json_field(b, "true", n->as.conditional.true_result);
        json_field(b, "false", n->as.conditional.false_result);
        if (n->as.conditional.directive)
            tfx_buf_puts(b, ",\"directive\":true");
        break;
    case TFX_NODE_BINARY_OP:
        tfx_buf_printf(b, ",\"op\":\"%s\"", tfx_op_text(n->as.op.op));
        json_field(b, "lhs", n->as.op.lhs);
        json_field(b, "rhs", n->as.op.rhs);
        break;
    case TFX_NODE_UNARY_OP:
        tfx_buf_printf(b, ",\"op\":\"%s\"", tfx_op_text(n->as.op.op));
        json_field(b, "operand", n->as.op.lhs);
        break;
    case TFX_NODE_TUPLE_CONS:
        json_list(b, "items", n->as.tuple.items, n->as.tuple.nitems);
        break;
    case TFX_NODE_OBJECT_CONS:
        tfx_buf_puts(b, ",\"items\":[");
        for (i = 0; i < n->as.object.nitems; i++) {
            if (i > 0)
                tfx_buf_putc(b, ',');
            tfx_buf_puts(b, "{\"key\":");
            json_node(b, n->as.object.items[i].key);
            tfx_buf_puts(b, ",\"value\":");
            json_node(b, n->as.object.items[i].value);
            tfx_buf_putc(b, '}');
        }
        tfx_buf_putc(b, ']');
        break;
    case TFX_NODE_OBJECT_CONS_KEY:
        json_field(b, "wrapped", n->as.key.wrapped);
        if (n->as.key.force_non_literal)
            tfx_buf_puts(b, ",\"parenthesized\":true");
        break;
    case TFX_NODE_FOR:
        if (n->as.for_expr.key_var != NULL)
            json_name(b, "key_var", n->as.for_expr.key_var, n->as.for_expr.nkey_var);
        json_name(b, "value_var", n->as.for_expr.val_var, n->as.for_expr.nval_var);
        json_field(b, "collection", n->as.for_expr.coll);
        json_field(b, "key", n->as.for_expr.key);
        json_field(b, "value", n->as.for_expr.value);
        json_field(b, "condition", n->as.for_expr.cond);
        tfx_buf_printf(b, ",\"group\":%s", n->as.for_expr.group ? "true" : "false");
        break;
    case TFX_NODE_INDEX:
        json_field(b, "collection", n->as.index.collection);
        json_field(b, "key", n->as.index.key);
        break;
    case TFX_NODE_SPLAT:
        json_field(b, "source", n->as.splat.source);
        json_field(b, "each", n->as.splat.each);
        tfx_buf_printf(b, ",\"legacy\":%s", n->as.splat.legacy ? "true" : "false");
        break;
    case TFX_NODE_PARENTHESES:
        json_field(b, "expression", n->as.parens.expr);
        break;
    case TFX_NODE_ANON_SYMBOL:
    case TFX_NODE_COUNT:
        break;
    }
    tfx_buf_putc(b, '}');
}

char *tfx_ast_json(const tfx_node *n)
{
    tfx_buf b = {0};

    json_node(&b, n);
    return tfx_buf_take(&b);
}

/* ---------------------------------------------------------------------
 * Printer: source that parses back to the same tree [ast.print]
 * ------------------------------------------------------------------ */

static void print_node(tfx_buf *b, const tfx_node *n);

/* Literal template text inside a quoted string: backslash escapes for
 * the characters that need them, and "$${" / "%%{" wherever the text has
 * "${" / "%{". */
static void print_template_text(tfx_buf *b, const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        char c = s[i];

        if ((unsigned char)c >= 0x80) {
            /* bytes that are not UTF-8 (possible only in a bare template,
             * after a lone CR) cannot be written in quotes: U+FFFD instead */
            int32_t cp;
            size_t len = tfx_text_decode((const unsigned char *)s + i, n - i, &cp);

            if (cp < 0)
                tfx_buf_puts(b, "\\ufffd");
            else
                tfx_buf_put(b, s + i, len);
            i += len - 1;
            continue;
        }
        switch (c) {
        case '\\': tfx_buf_puts(b, "\\\\"); break;
        case '"': tfx_buf_puts(b, "\\\""); break;
        case '\n': tfx_buf_puts(b, "\\n"); break;
        case '\r': tfx_buf_puts(b, "\\r"); break;
        case '\t': tfx_buf_puts(b, "\\t"); break;
        case '\0': tfx_buf_puts(b, "\\u0000"); break;   /* the text is a C string */
        case '$':
        case '%':
            tfx_buf_putc(b, c);
            if (i + 1 < n && s[i + 1] == '{')
                tfx_buf_putc(b, c);
            break;
        default:
            tfx_buf_putc(b, c);
        }
    }
}

static void print_literal(tfx_buf *b, const tfx_literal *lit)
{
    switch (lit->kind) {
    case TFX_LIT_NUMBER: tfx_buf_put(b, lit->text, lit->ntext); break;
    case TFX_LIT_STRING:
        tfx_buf_putc(b, '"');
        print_template_text(b, lit->text, lit->ntext);
        tfx_buf_putc(b, '"');
        break;
    case TFX_LIT_BOOL: tfx_buf_puts(b, lit->boolean ? "true" : "false"); break;
    case TFX_LIT_NULL:
    case TFX_LIT_UNKNOWN:          /* only in trees of sources with errors, */
    case TFX_LIT_UNKNOWN_NUMBER:   /* which are never printed */
        tfx_buf_puts(b, "null");
        break;
    }
}

static void print_steps(tfx_buf *b, const tfx_step *steps, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        /* a dot right after a digit would join a number token */
        if ((steps[i].is_attr || steps[i].legacy) && b->len > 0
            && b->data[b->len - 1] >= '0' && b->data[b->len - 1] <= '9')
            tfx_buf_putc(b, ' ');
        if (steps[i].is_attr) {
            tfx_buf_putc(b, '.');
            tfx_buf_put(b, steps[i].name, steps[i].nname);
        } else if (steps[i].legacy && steps[i].key.kind == TFX_LIT_NUMBER) {
            tfx_buf_putc(b, '.');
            tfx_buf_put(b, steps[i].key.text, steps[i].key.ntext);
        } else {
            tfx_buf_putc(b, '[');
            print_literal(b, &steps[i].key);
            tfx_buf_putc(b, ']');
        }
    }
}

static bool is_text(const tfx_node *n)
{
    return n->kind == TFX_NODE_LITERAL && n->as.literal.kind == TFX_LIT_STRING;
}

/* Whether the run of literal strings at parts[i] is non-empty and all
 * its strings are empty. */
static bool empty_text_run(const tfx_node *const *parts, size_t i, size_t n)
{
    size_t j;

    for (j = i; j < n && is_text(parts[j]); j++)
        if (parts[j]->as.literal.ntext > 0)
            return false;
    return j > i;
}

static bool is_directive(const tfx_node *n)
{
    return n->kind == TFX_NODE_TEMPLATE_JOIN
           || (n->kind == TFX_NODE_CONDITIONAL && n->as.conditional.directive);
}

/* The parts of a template inside quotes.  Adjacent literals print as one
 * run (the tree does not depend on where literal tokens split).  Two
 * things cannot be written directly, and are written with a space that a
 * strip marker removes again:
 *   - an empty run between sequences, or after one: a space, the
 *     sequence before it closing with "~}";
 *   - an empty run before the first sequence, or a run ending with the
 *     '$' (or '%') that would make the next "${" (or "%{") an escape: a
 *     space, the next sequence opening with "${~" ("%{~").
 * `before_directive` says a directive marker (%{else}, %{endif},
 * %{endfor}) follows the parts.  Returns whether that marker must open
 * with '~'. */
static bool print_parts(tfx_buf *b, const tfx_node *const *parts, size_t n, bool before_directive)
{
    size_t i = 0;
    bool strip_open = false;

    while (i < n) {
        const tfx_node *part = parts[i];
        bool close_strip;

        if (is_text(part)) {
            size_t j = i;
            size_t len = 0;
            int last = 0;
            int next_lead;

            for (; j < n && is_text(parts[j]); j++) {
                print_template_text(b, parts[j]->as.literal.text, parts[j]->as.literal.ntext);
                len += parts[j]->as.literal.ntext;
                if (parts[j]->as.literal.ntext > 0)
                    last = (unsigned char)parts[j]->as.literal.text[parts[j]->as.literal.ntext - 1];
            }
            next_lead = j < n ? (is_directive(parts[j]) ? '%' : '$') : before_directive ? '%' : 0;
            if (len == 0 && n > 1) {
                tfx_buf_putc(b, ' ');
                if (i == 0)
                    strip_open = true;   /* else the sequence before closed with "~}" */
            } else if (len > 0 && next_lead != 0 && last == next_lead) {
                tfx_buf_putc(b, ' ');
                strip_open = true;
            }
            i = j;
            continue;
        }
        close_strip = empty_text_run(parts, i + 1, n) && n > 1;
        if (part->kind == TFX_NODE_CONDITIONAL && part->as.conditional.directive) {
            const tfx_node *yes = part->as.conditional.true_result;
            const tfx_node *no = part->as.conditional.false_result;
            bool strip;

            tfx_buf_puts(b, strip_open ? "%{~ if " : "%{ if ");
            print_node(b, part->as.conditional.cond);
            tfx_buf_puts(b, " }");
            strip = print_parts(b, (const tfx_node *const *)yes->as.template.parts, yes->as.template.nparts, true);
            tfx_buf_puts(b, strip ? "%{~ else }" : "%{ else }");
            strip = print_parts(b, (const tfx_node *const *)no->as.template.parts, no->as.template.nparts, true);
            tfx_buf_puts(b, strip ? "%{~ endif" : "%{ endif");
        } else if (part->kind == TFX_NODE_TEMPLATE_JOIN) {
            const tfx_node *f = part->as.join.tuple;
            const tfx_node *body = f->as.for_expr.value;
            bool strip;

            tfx_buf_puts(b, strip_open ? "%{~ for " : "%{ for ");
            if (f->as.for_expr.key_var != NULL) {
                tfx_buf_put(b, f->as.for_expr.key_var, f->as.for_expr.nkey_var);
                tfx_buf_puts(b, ", ");
            }
            tfx_buf_put(b, f->as.for_expr.val_var, f->as.for_expr.nval_var);
            tfx_buf_puts(b, " in ");
            print_node(b, f->as.for_expr.coll);
            tfx_buf_puts(b, " }");
            strip = print_parts(b, (const tfx_node *const *)body->as.template.parts, body->as.template.nparts, true);
            tfx_buf_puts(b, strip ? "%{~ endfor" : "%{ endfor");
        } else {
            tfx_buf_puts(b, strip_open ? "${~ " : "${ ");
            print_node(b, part);
        }
        tfx_buf_puts(b, close_strip ? " ~}" : " }");
        strip_open = false;
        i++;
    }
    return strip_open;
}

/* Whether a template's parts are the lines of a heredoc: two or more
 * literals, each one line ending with its only newline, valid UTF-8
 * without CR or a "${" / "%{".  Only a heredoc splits literal text that
 * way, and the split is part of the tree where it decides that an index
 * key is not static in P14 ([gram.traversal.index], [gram.pn.static-key]:
 * a quoted string of the same text would be one literal), so such a template prints as a
 * heredoc again. */
static bool heredoc_lines(const tfx_node *const *parts, size_t n)
{
    size_t i, j;

    if (n < 2)
        return false;
    for (i = 0; i < n; i++) {
        const char *s;
        size_t len;

        if (!is_text(parts[i]))
            return false;
        s = parts[i]->as.literal.text;
        len = parts[i]->as.literal.ntext;
        if (len == 0 || s[len - 1] != '\n')
            return false;
        for (j = 0; j + 1 < len; j++) {
            int32_t cp;

            if (s[j] == '\n' || s[j] == '\r' || s[j] == '\0'
                || ((s[j] == '$' || s[j] == '%') && s[j + 1] == '{'))
                return false;
            if ((unsigned char)s[j] >= 0x80) {
                j += tfx_text_decode((const unsigned char *)s + j, len - 1 - j, &cp) - 1;
                if (cp < 0)
                    return false;
            }
        }
    }
    return true;
}

/* A heredoc marker (EOT, EOTX, EOTXX, ...) that no line holds anywhere,
 * so that no line can close the heredoc whatever the lexer trims around a
 * marker; false if even the longest that marker[cap] holds is taken. */
static bool heredoc_marker(const tfx_node *const *parts, size_t n, char *marker, size_t cap)
{
    size_t len = 3;
    size_t i;

    memcpy(marker, "EOT", 4);
    for (i = 0; i < n; i++) {
        const char *s = parts[i]->as.literal.text;
        size_t ns = parts[i]->as.literal.ntext;
        size_t j;

        for (j = 0; j + len <= ns; j++) {
            if (memcmp(s + j, marker, len) == 0) {
                if (len + 2 > cap)
                    return false;
                marker[len++] = 'X';
                marker[len] = '\0';
                i = (size_t)-1;   /* check every line against the new marker */
                break;
            }
        }
    }
    return true;
}

/* Prints heredoc_lines' parts as a heredoc; false (nothing printed) when
 * no marker fits. */
static bool print_heredoc(tfx_buf *b, const tfx_node *const *parts, size_t n)
{
    char marker[16];
    size_t i;

    if (!heredoc_marker(parts, n, marker, sizeof(marker)))
        return false;
    tfx_buf_puts(b, "<<");
    tfx_buf_puts(b, marker);
    tfx_buf_putc(b, '\n');
    for (i = 0; i < n; i++)
        tfx_buf_put(b, parts[i]->as.literal.text, parts[i]->as.literal.ntext);
    tfx_buf_puts(b, marker);
    tfx_buf_putc(b, '\n');
    return true;
}

static void print_node(tfx_buf *b, const tfx_node *n)
{
    size_t i;

    switch (n->kind) {
    case TFX_NODE_LITERAL:
        print_literal(b, &n->as.literal);
        break;
    case TFX_NODE_TEMPLATE:
        if (heredoc_lines((const tfx_node *const *)n->as.template.parts, n->as.template.nparts)
            && print_heredoc(b, (const tfx_node *const *)n->as.template.parts,
                             n->as.template.nparts))
            break;
        tfx_buf_putc(b, '"');
        print_parts(b, (const tfx_node *const *)n->as.template.parts, n->as.template.nparts, false);
        tfx_buf_putc(b, '"');
        break;
    case TFX_NODE_TEMPLATE_WRAP:
        tfx_buf_puts(b, "\"${ ");
        print_node(b, n->as.wrap.wrapped);
        tfx_buf_puts(b, " }\"");
        break;
    case TFX_NODE_TEMPLATE_JOIN:
        tfx_buf_putc(b, '"');
        print_parts(b, &n, 1, false);
        tfx_buf_putc(b, '"');
        break;
    case TFX_NODE_SCOPE_TRAVERSAL:
        tfx_buf_put(b, n->as.traversal.root, n->as.traversal.nroot);
        print_steps(b, n->as.traversal.steps, n->as.traversal.nsteps);
        break;
    case TFX_NODE_RELATIVE_TRAVERSAL:
        print_node(b, n->as.traversal.source);
        print_steps(b, n->as.traversal.steps, n->as.traversal.nsteps);
        break;
    case TFX_NODE_FUNCTION_CALL:
        tfx_buf_put(b, n->as.call.name, n->as.call.nname);
        tfx_buf_putc(b, '(');
        for (i = 0; i < n->as.call.nargs; i++) {
            if (i > 0)
                tfx_buf_puts(b, ", ");
            print_node(b, n->as.call.args[i]);
        }
        if (n->as.call.expand_final)
            tfx_buf_puts(b, "...");
        tfx_buf_putc(b, ')');
        break;
    case TFX_NODE_CONDITIONAL:
        if (n->as.conditional.directive) {
            tfx_buf_putc(b, '"');
            print_parts(b, &n, 1, false);
            tfx_buf_putc(b, '"');
            break;
        }
        print_node(b, n->as.conditional.cond);
        tfx_buf_puts(b, " ? ");
        print_node(b, n->as.conditional.true_result);
        tfx_buf_puts(b, " : ");
        print_node(b, n->as.conditional.false_result);
        break;
    case TFX_NODE_BINARY_OP:
        print_node(b, n->as.op.lhs);
        tfx_buf_printf(b, " %s ", tfx_op_text(n->as.op.op));
        print_node(b, n->as.op.rhs);
        break;
    case TFX_NODE_UNARY_OP:
        tfx_buf_puts(b, tfx_op_text(n->as.op.op));
        print_node(b, n->as.op.lhs);
        break;
    case TFX_NODE_TUPLE_CONS:
        tfx_buf_putc(b, '[');
        for (i = 0; i < n->as.tuple.nitems; i++) {
            if (i > 0)
                tfx_buf_puts(b, ", ");
            print_node(b, n->as.tuple.items[i]);
        }
        tfx_buf_putc(b, ']');
        break;
    case TFX_NODE_OBJECT_CONS:
        tfx_buf_putc(b, '{');
        for (i = 0; i < n->as.object.nitems; i++) {
            tfx_buf_puts(b, i > 0 ? ", " : " ");
            print_node(b, n->as.object.items[i].key);
            tfx_buf_puts(b, " = ");
            print_node(b, n->as.object.items[i].value);
        }
        tfx_buf_puts(b, n->as.object.nitems > 0 ? " }" : "}");
        break;
    case TFX_NODE_OBJECT_CONS_KEY:
        print_node(b, n->as.key.wrapped);
        break;
    case TFX_NODE_FOR:
        tfx_buf_puts(b, n->as.for_expr.key != NULL ? "{for " : "[for ");
        if (n->as.for_expr.key_var != NULL) {
            tfx_buf_put(b, n->as.for_expr.key_var, n->as.for_expr.nkey_var);
            tfx_buf_puts(b, ", ");
        }
        tfx_buf_put(b, n->as.for_expr.val_var, n->as.for_expr.nval_var);
        tfx_buf_puts(b, " in ");
        print_node(b, n->as.for_expr.coll);
        tfx_buf_puts(b, " : ");
        if (n->as.for_expr.key != NULL) {
            print_node(b, n->as.for_expr.key);
            tfx_buf_puts(b, " => ");
        }
        print_node(b, n->as.for_expr.value);
        if (n->as.for_expr.group)
            tfx_buf_puts(b, "...");
        if (n->as.for_expr.cond != NULL) {
            tfx_buf_puts(b, " if ");
            print_node(b, n->as.for_expr.cond);
        }
        tfx_buf_putc(b, n->as.for_expr.key != NULL ? '}' : ']');
        break;
    case TFX_NODE_INDEX:
        print_node(b, n->as.index.collection);
        tfx_buf_putc(b, '[');
        print_node(b, n->as.index.key);
        tfx_buf_putc(b, ']');
        break;
    case TFX_NODE_SPLAT: {
        const tfx_node *each = n->as.splat.each;

        print_node(b, n->as.splat.source);
        tfx_buf_puts(b, n->as.splat.legacy ? ".*" : "[*]");
        /* `each` is the splat item or a chain of steps and nodes on it */
        if (each->kind != TFX_NODE_ANON_SYMBOL)
            print_node(b, each);
        break;
    }
    case TFX_NODE_ANON_SYMBOL:
        break;
    case TFX_NODE_PARENTHESES:
        tfx_buf_putc(b, '(');
        print_node(b, n->as.parens.expr);
        tfx_buf_putc(b, ')');
        break;
    case TFX_NODE_COUNT:
        break;
    }
}

char *tfx_ast_print(const tfx_node *n)
{
    tfx_buf b = {0};

    print_node(&b, n);
    return tfx_buf_take(&b);
}

/* ---------------------------------------------------------------------
 * Equality, ranges aside [ast.equal]
 * ------------------------------------------------------------------ */

static bool same_text(const char *a, size_t na, const char *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na) == 0);
}

static bool literal_equal(const tfx_literal *a, const tfx_literal *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TFX_LIT_NUMBER:
    case TFX_LIT_STRING:
        return same_text(a->text, a->ntext, b->text, b->ntext);
    case TFX_LIT_BOOL:
        return a->boolean == b->boolean;
    default:
        return true;
    }
}

static bool steps_equal(const tfx_node *a, const tfx_node *b)
{
    size_t i;

    if (a->as.traversal.nsteps != b->as.traversal.nsteps)
        return false;
    for (i = 0; i < a->as.traversal.nsteps; i++) {
        const tfx_step *x = &a->as.traversal.steps[i];
        const tfx_step *y = &b->as.traversal.steps[i];

        if (x->is_attr != y->is_attr || x->legacy != y->legacy)
            return false;
        if (x->is_attr ? !same_text(x->name, x->nname, y->name, y->nname)
                       : !literal_equal(&x->key, &y->key))
            return false;
    }
    return true;
}

/* Template parts compare as sequences in which adjacent literal strings
 * are joined. */
static bool parts_equal(tfx_node *const *a, size_t na, tfx_node *const *b, size_t nb)
{
    size_t i = 0;
    size_t j = 0;

    while (i < na && j < nb) {
        if (is_text(a[i]) && is_text(b[j])) {
            tfx_buf x = {0};
            tfx_buf y = {0};
            bool eq;
            char *sx;
            char *sy;

            for (; i < na && is_text(a[i]); i++)
                tfx_buf_put(&x, a[i]->as.literal.text, a[i]->as.literal.ntext);
            for (; j < nb && is_text(b[j]); j++)
                tfx_buf_put(&y, b[j]->as.literal.text, b[j]->as.literal.ntext);
            eq = x.len == y.len && !x.failed && !y.failed && (x.len == 0 || memcmp(x.data, y.data, x.len) == 0);
            sx = tfx_buf_take(&x);
            sy = tfx_buf_take(&y);
            free(sx);
            free(sy);
            if (!eq)
                return false;
            continue;
        }
        if (!tfx_ast_equal(a[i], b[j]))
            return false;
        i++;
        j++;
    }
    return i == na && j == nb;
}

static bool opt_equal(const tfx_node *a, const tfx_node *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return tfx_ast_equal(a, b);
}

static bool list_equal(tfx_node *const *a, size_t na, tfx_node *const *b, size_t nb)
{
    size_t i;

    if (na != nb)
        return false;
    for (i = 0; i < na; i++)
        if (!tfx_ast_equal(a[i], b[i]))
            return false;
    return true;
}

bool tfx_ast_equal(const tfx_node *a, const tfx_node *b)
{
    size_t i;

    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TFX_NODE_LITERAL:
        return literal_equal(&a->as.literal, &b->as.literal);
    case TFX_NODE_TEMPLATE:
        return parts_equal(a->as.template.parts, a->as.template.nparts,
                           b->as.template.parts, b->as.template.nparts);
    case TFX_NODE_TEMPLATE_WRAP:
        return tfx_ast_equal(a->as.wrap.wrapped, b->as.wrap.wrapped);
    case TFX_NODE_TEMPLATE_JOIN:
        return tfx_ast_equal(a->as.join.tuple, b->as.join.tuple);
    case TFX_NODE_SCOPE_TRAVERSAL:
        return same_text(a->as.traversal.root, a->as.traversal.nroot,
                         b->as.traversal.root, b->as.traversal.nroot) && steps_equal(a, b);
    case TFX_NODE_RELATIVE_TRAVERSAL:
        return tfx_ast_equal(a->as.traversal.source, b->as.traversal.source) && steps_equal(a, b);
    case TFX_NODE_FUNCTION_CALL:
        return same_text(a->as.call.name, a->as.call.nname, b->as.call.name, b->as.call.nname)
               && a->as.call.expand_final == b->as.call.expand_final
               && list_equal(a->as.call.args, a->as.call.nargs, b->as.call.args, b->as.call.nargs);
    case TFX_NODE_CONDITIONAL:
        return a->as.conditional.directive == b->as.conditional.directive
               && tfx_ast_equal(a->as.conditional.cond, b->as.conditional.cond)
               && tfx_ast_equal(a->as.conditional.true_result, b->as.conditional.true_result)
               && tfx_ast_equal(a->as.conditional.false_result, b->as.conditional.false_result);
    case TFX_NODE_BINARY_OP:
        return a->as.op.op == b->as.op.op && tfx_ast_equal(a->as.op.lhs, b->as.op.lhs)
               && tfx_ast_equal(a->as.op.rhs, b->as.op.rhs);
    case TFX_NODE_UNARY_OP:
        return a->as.op.op == b->as.op.op && tfx_ast_equal(a->as.op.lhs, b->as.op.lhs);
    case TFX_NODE_TUPLE_CONS:
        return list_equal(a->as.tuple.items, a->as.tuple.nitems, b->as.tuple.items, b->as.tuple.nitems);
    case TFX_NODE_OBJECT_CONS:
        if (a->as.object.nitems != b->as.object.nitems)
            return false;
        for (i = 0; i < a->as.object.nitems; i++)
            if (!tfx_ast_equal(a->as.object.items[i].key, b->as.object.items[i].key)
                || !tfx_ast_equal(a->as.object.items[i].value, b->as.object.items[i].value))
                return false;
        return true;
    case TFX_NODE_OBJECT_CONS_KEY:
        return a->as.key.force_non_literal == b->as.key.force_non_literal
               && tfx_ast_equal(a->as.key.wrapped, b->as.key.wrapped);
    case TFX_NODE_FOR:
        return same_text(a->as.for_expr.key_var, a->as.for_expr.nkey_var,
                         b->as.for_expr.key_var, b->as.for_expr.nkey_var)
               && (a->as.for_expr.key_var == NULL) == (b->as.for_expr.key_var == NULL)
               && same_text(a->as.for_expr.val_var, a->as.for_expr.nval_var,
                            b->as.for_expr.val_var, b->as.for_expr.nval_var)
               && a->as.for_expr.group == b->as.for_expr.group
               && tfx_ast_equal(a->as.for_expr.coll, b->as.for_expr.coll)
               && opt_equal(a->as.for_expr.key, b->as.for_expr.key)
               && tfx_ast_equal(a->as.for_expr.value, b->as.for_expr.value)
               && opt_equal(a->as.for_expr.cond, b->as.for_expr.cond);
    case TFX_NODE_INDEX:
        return tfx_ast_equal(a->as.index.collection, b->as.index.collection)
               && tfx_ast_equal(a->as.index.key, b->as.index.key);
    case TFX_NODE_SPLAT:
        return a->as.splat.legacy == b->as.splat.legacy
               && tfx_ast_equal(a->as.splat.source, b->as.splat.source)
               && tfx_ast_equal(a->as.splat.each, b->as.splat.each);
    case TFX_NODE_PARENTHESES:
        return tfx_ast_equal(a->as.parens.expr, b->as.parens.expr);
    case TFX_NODE_ANON_SYMBOL:
    case TFX_NODE_COUNT:
        return true;
    }
    return false;
}
