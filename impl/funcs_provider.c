/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_provider.c — the functions of Terraform's built-in provider
 * "terraform", called as provider::terraform::NAME in profile PN
 * (spec/functions-provider.md, rules fn.provider.*, fn.encode-expr.*,
 * fn.encode-tfvars.*).
 *
 * Both write values as HCL text the way hclwrite does: the value becomes a
 * list of tokens (hclwrite's TokensForValue), then the spaces before each
 * token are worked out by hclwrite's formatter (indentation by brackets,
 * spaces by the kinds of neighbouring tokens, `=` signs of consecutive
 * one-line attributes aligned), and the tokens are written out with them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "funcs_internal.h"
#include "host.h"
#include "lex.h"
#include "parse.h"
#include "refine.h"
#include "text.h"

/* ---- Tokens [fn.provider.tokens] ---- */

typedef enum {
    HW_NIL,      /* stands for "no token" before the first of a line */
    HW_IDENT,
    HW_NUMBER,
    HW_OQUOTE,
    HW_QUOTED,
    HW_CQUOTE,
    HW_OBRACK,
    HW_CBRACK,
    HW_OBRACE,
    HW_CBRACE,
    HW_COMMA,
    HW_EQUAL,
    HW_NEWLINE
} hw_kind;

typedef struct {
    hw_kind kind;
    const char *text;
    size_t nbytes;
    size_t spaces;        /* written before the token */
} hw_token;

typedef struct {
    tfx_ctx *ctx;
    hw_token *items;
    size_t n;
    size_t cap;
} hw_tokens;

static void hw_add(hw_tokens *t, hw_kind kind, const char *text, size_t nbytes)
{
    if (t->n == t->cap) {
        size_t cap = t->cap == 0 ? 64 : t->cap * 2;
        hw_token *items = tfx_ctx_alloc_array(t->ctx, cap, sizeof(*items));

        if (t->n > 0)
            memcpy(items, t->items, t->n * sizeof(*items));
        t->items = items;
        t->cap = cap;
    }
    tfx_ctx_step(t->ctx);
    t->items[t->n].kind = kind;
    t->items[t->n].text = text;
    t->items[t->n].nbytes = nbytes;
    t->items[t->n].spaces = 0;
    t->n++;
}

static void hw_punct(hw_tokens *t, hw_kind kind)
{
    static const char *const text[] = {
        [HW_OQUOTE] = "\"", [HW_CQUOTE] = "\"", [HW_OBRACK] = "[", [HW_CBRACK] = "]",
        [HW_OBRACE] = "{", [HW_CBRACE] = "}", [HW_COMMA] = ",", [HW_EQUAL] = "=",
        [HW_NEWLINE] = "\n",
    };

    hw_add(t, kind, text[kind], 1);
}

/* [fn.provider.identifier] Whether s is one identifier token (HCL's
 * ValidIdentifier): the whole of it, since HCL scans it for identifiers
 * alone, where white space and comments are not skipped ("a\t" is no
 * identifier). */
static bool valid_identifier(tfx_ctx *ctx, const char *s, size_t nbytes)
{
    tfx_tokens toks;
    tfx_token first;

    if (!tfx_lex(ctx->arena, (const unsigned char *)s, nbytes, TFX_LEX_EXPRESSION, &toks))
        tfx_fn_nomem(ctx);
    if (toks.n != 2 || toks.items[0].kind != TFX_TOK_IDENT)
        return false;
    first = tfx_token_at(&toks, 0);
    return first.range.start.byte == 0 && first.nbytes == nbytes;
}

/* [fn.provider.string] The text of a quoted string for s: "\n", "\r",
 * "\t", "\"" and "\\" escaped; "$" and "%" doubled before "{"; a code
 * point that is not printable (Go's unicode.IsPrint) as \uXXXX, or
 * \UXXXXXXXX above U+FFFF, in lower-case hexadecimal; the rest as it is. */
static void quoted_text(tfx_ctx *ctx, const char *s, size_t nbytes, const char **out,
                        size_t *nout)
{
    char *buf = tfx_ctx_alloc(ctx, nbytes * 10 + 1);
    size_t n = 0;
    size_t i = 0;

    while (i < nbytes) {
        unsigned char c = (unsigned char)s[i];
        int32_t cp;
        size_t len;

        switch (c) {
        case '\n': buf[n++] = '\\'; buf[n++] = 'n'; i++; continue;
        case '\r': buf[n++] = '\\'; buf[n++] = 'r'; i++; continue;
        case '\t': buf[n++] = '\\'; buf[n++] = 't'; i++; continue;
        case '"': buf[n++] = '\\'; buf[n++] = '"'; i++; continue;
        case '\\': buf[n++] = '\\'; buf[n++] = '\\'; i++; continue;
        case '$':
        case '%':
            buf[n++] = (char)c;
            if (i + 1 < nbytes && s[i + 1] == '{')
                buf[n++] = (char)c;
            i++;
            continue;
        default:
            break;
        }
        len = tfx_text_decode((const unsigned char *)s + i, nbytes - i, &cp);
        if (len == 0)
            len = 1;
        if (cp < 0) {
            /* a byte of a bad sequence: Go reads it as U+FFFD, which is
             * printable and written as it is */
            memcpy(buf + n, "\xef\xbf\xbd", 3);
            n += 3;
        } else if (!tfx_text_is_print_profile(cp, true)) /* [fn.provider.string] */
            n += (size_t)snprintf(buf + n, 11, cp < 65536 ? "\\u%04x" : "\\U%08x", (unsigned)cp);
        else {
            memcpy(buf + n, s + i, len);
            n += len;
        }
        i += len;
    }
    buf[n] = '\0';
    *out = buf;
    *nout = n;
}

/* [fn.provider.tokens] The tokens of a wholly known value v (hclwrite's
 * TokensForValue before formatting). */
static void value_tokens(hw_tokens *t, const tfx_value *v)
{
    tfx_ctx *ctx = t->ctx;
    size_t n;

    if (tfx_value_is_null(v)) {
        hw_add(t, HW_IDENT, "null", 4);
        return;
    }
    switch (v->type->kind) {
    case TFX_TYPE_BOOL:
        if (v->as.boolean)
            hw_add(t, HW_IDENT, "true", 4);
        else
            hw_add(t, HW_IDENT, "false", 5);
        return;
    case TFX_TYPE_NUMBER: {
        size_t nbytes = 0;
        const char *text = tfx_num_format(ctx->arena, v->as.number, &nbytes);

        if (text == NULL)
            tfx_fn_nomem(ctx);
        hw_add(t, HW_NUMBER, text, nbytes);
        return;
    }
    case TFX_TYPE_STRING: {
        const char *text;
        size_t nbytes;

        quoted_text(ctx, v->as.string.s, v->as.string.nbytes, &text, &nbytes);
        hw_punct(t, HW_OQUOTE);
        if (nbytes > 0)
            hw_add(t, HW_QUOTED, text, nbytes);
        hw_punct(t, HW_CQUOTE);
        return;
    }
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_TUPLE:
        n = tfx_value_length(v);
        hw_punct(t, HW_OBRACK);
        for (size_t i = 0; i < n; i++) {
            if (i > 0)
                hw_punct(t, HW_COMMA);
            value_tokens(t, tfx_value_item(v, i));
        }
        hw_punct(t, HW_CBRACK);
        return;
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT:
        n = v->as.attrs.n;
        hw_punct(t, HW_OBRACE);
        if (n > 0)
            hw_punct(t, HW_NEWLINE);
        for (size_t i = 0; i < n; i++) {
            const tfx_str *key = &v->as.attrs.keys[i];

            if (valid_identifier(ctx, key->s, key->nbytes)) {
                hw_add(t, HW_IDENT, key->s, key->nbytes);
            } else {
                const char *text;
                size_t nbytes;

                quoted_text(ctx, key->s, key->nbytes, &text, &nbytes);
                hw_punct(t, HW_OQUOTE);
                if (nbytes > 0)
                    hw_add(t, HW_QUOTED, text, nbytes);
                hw_punct(t, HW_CQUOTE);
            }
            hw_punct(t, HW_EQUAL);
            value_tokens(t, v->as.attrs.vals[i]);
            hw_punct(t, HW_NEWLINE);
        }
        hw_punct(t, HW_CBRACE);
        return;
    default:
        /* capsules and dynamic values have no text; the callers never
         * pass them */
        hw_add(t, HW_IDENT, "null", 4);
        return;
    }
}

/* ---- Formatting [fn.provider.format] ---- */

/* A line's tokens: the lead cell, then (when the line assigns a whole
 * one-line expression) the assign cell from its `=` on. */
typedef struct {
    size_t lead;
    size_t nlead;
    size_t assign;
    size_t nassign;    /* 0: the line has no assign cell */
} hw_line;

static int bracket_change(hw_kind k)
{
    switch (k) {
    case HW_OBRACE: case HW_OBRACK: return 1;
    case HW_CBRACE: case HW_CBRACK: return -1;
    default: return 0;
    }
}

static size_t columns(const hw_token *items, size_t from, size_t n)
{
    size_t cols = 0;

    for (size_t i = from; i < from + n; i++)
        cols += items[i].spaces /* profile PN's clusters [fn.strings.graphemes.pn] */
                + tfx_text_count_graphemes_profile((const unsigned char *)items[i].text,
                                                   items[i].nbytes, true);
    return cols;
}

/* [fn.provider.format.space] Whether a space goes between subject and
 * after (before: the token before subject on its line, HW_NIL for none). */
static bool space_after(const hw_token *subject, const hw_token *before, const hw_token *after)
{
    if (after->kind == HW_NEWLINE || after->kind == HW_NIL)
        return false;
    if (after->kind == HW_COMMA)
        return false;
    if (subject->kind == HW_COMMA)
        return true;
    if (subject->kind == HW_QUOTED || subject->kind == HW_OQUOTE || after->kind == HW_QUOTED
        || after->kind == HW_CQUOTE)
        return false;
    if (subject->kind == HW_IDENT && subject->nbytes == 2 && memcmp(subject->text, "in", 2) == 0
        && before->kind == HW_IDENT)
        return true;
    if (after->kind == HW_OBRACK
        && (subject->kind == HW_IDENT || subject->kind == HW_NUMBER
            || bracket_change(subject->kind) < 0))
        return false;
    if (subject->kind == HW_OBRACE || after->kind == HW_CBRACE)
        return !(subject->kind == HW_OBRACE && after->kind == HW_CBRACE);
    if (bracket_change(subject->kind) > 0)
        return false;
    if (bracket_change(after->kind) < 0)
        return false;
    return true;
}

static void space_cell(hw_token *items, size_t from, size_t n)
{
    static const hw_token nil = {HW_NIL, "", 0, 0};

    for (size_t i = from; i + 1 < from + n; i++) {
        const hw_token *before = i > from ? &items[i - 1] : &nil;

        items[i + 1].spaces = space_after(&items[i], before, &items[i + 1]) ? 1 : 0;
    }
}

/* hclwrite's format: lines, indentation, spaces, then the alignment of
 * the `=` of consecutive lines with an assign cell. */
static void format_tokens(tfx_ctx *ctx, hw_tokens *t)
{
    hw_token *items = t->items;
    size_t nlines = 1;
    hw_line *lines;
    size_t li = 0;
    size_t start = 0;
    size_t *indents;
    size_t nindents = 0;

    if (t->n == 0)
        return;
    for (size_t i = 0; i < t->n; i++)
        if (items[i].kind == HW_NEWLINE)
            nlines++;
    lines = tfx_ctx_alloc_array(ctx, nlines, sizeof(*lines));
    indents = tfx_ctx_alloc_array(ctx, nlines, sizeof(*indents));
    for (size_t i = 0; i < t->n; i++) {
        if (items[i].kind == HW_NEWLINE) {
            lines[li].lead = start;
            lines[li].nlead = i + 1 - start;
            li++;
            start = i + 1;
        }
    }
    lines[li].lead = start;
    lines[li].nlead = t->n - start;

    /* the assign cell: from the first `=` after the line's first token,
     * when the brackets from there on balance */
    for (size_t l = 0; l < nlines; l++) {
        hw_line *line = &lines[l];

        for (size_t i = 1; i < line->nlead; i++) {
            if (items[line->lead + i].kind == HW_EQUAL) {
                int net = 0;

                for (size_t j = i; j < line->nlead; j++)
                    net += bracket_change(items[line->lead + j].kind);
                if (net == 0) {
                    line->assign = line->lead + i;
                    line->nassign = line->nlead - i;
                    line->nlead = i;
                }
                break;
            }
        }
    }

    /* [fn.provider.format.indent] two spaces per level of the brackets
     * that lines before opened and left open */
    for (size_t l = 0; l < nlines; l++) {
        hw_line *line = &lines[l];
        hw_token *first = &items[line->lead];
        int net = 0;

        if (line->nlead == 0)
            continue;
        if (first->kind == HW_NEWLINE) {
            first->spaces = 0;
            continue;
        }
        for (size_t i = 0; i < line->nlead; i++)
            net += bracket_change(items[line->lead + i].kind);
        for (size_t i = 0; i < line->nassign; i++)
            net += bracket_change(items[line->assign + i].kind);
        if (net > 0) {
            first->spaces = 2 * nindents;
            indents[nindents++] = (size_t)net;
        } else if (net < 0) {
            size_t closed = (size_t)-net;

            while (closed > 0 && nindents > 0) {
                size_t top = indents[nindents - 1];

                if (closed > top) {
                    closed -= top;
                    nindents--;
                } else if (closed < top) {
                    indents[nindents - 1] -= closed;
                    closed = 0;
                } else {
                    nindents--;
                    closed = 0;
                }
            }
            first->spaces = 2 * nindents;
        } else {
            first->spaces = 2 * nindents;
        }
    }

    /* [fn.provider.format.space] */
    for (size_t l = 0; l < nlines; l++) {
        space_cell(items, lines[l].lead, lines[l].nlead);
        if (lines[l].nassign > 0) {
            items[lines[l].assign].spaces = 1;
            space_cell(items, lines[l].assign, lines[l].nassign);
        }
    }

    /* [fn.provider.format.align] the `=` of a run of lines with an assign
     * cell one column after the widest lead cell of the run */
    for (size_t l = 0; l < nlines;) {
        size_t end = l;
        size_t widest = 0;

        while (end < nlines && lines[end].nassign > 0) {
            size_t cols = columns(items, lines[end].lead, lines[end].nlead);

            if (cols > widest)
                widest = cols;
            end++;
        }
        for (size_t k = l; k < end; k++)
            items[lines[k].assign].spaces =
                widest - columns(items, lines[k].lead, lines[k].nlead) + 1;
        l = end > l ? end : l + 1;
    }
}

/* The formatted text of the tokens, in the arena. */
static const char *tokens_text(tfx_ctx *ctx, const hw_tokens *t, size_t *nbytes)
{
    size_t total = 0;
    char *out;
    size_t n = 0;

    for (size_t i = 0; i < t->n; i++)
        total += t->items[i].spaces + t->items[i].nbytes;
    tfx_ctx_check_string(ctx, total);
    out = tfx_ctx_alloc(ctx, total + 1);
    for (size_t i = 0; i < t->n; i++) {
        memset(out + n, ' ', t->items[i].spaces);
        n += t->items[i].spaces;
        memcpy(out + n, t->items[i].text, t->items[i].nbytes);
        n += t->items[i].nbytes;
    }
    out[n] = '\0';
    *nbytes = n;
    return out;
}

/* ---- The functions [fn.provider] ---- */

/* [fn.provider.call] A value of any type; null refused by the machinery;
 * unknowns passed to the function, which handles them. */
static const tfx_param value_params[] = {
    {.name = "value", .type = &tfx_type_dynamic, .allow_unknown = true, .allow_dynamic = true},
};

/* [fn.encode-expr.unknown] The unknown string for v, refined: not null,
 * and, when v is known not to be null, starting with the character its
 * type's text starts with. */
static const tfx_value *expr_unknown(tfx_ctx *ctx, const tfx_value *v, const tfx_type *ret)
{
    const tfx_value *u = tfx_value_refine_not_null(ctx, tfx_value_unknown(ctx, ret));
    const char *prefix = NULL;
    tfx_refinement r;

    if (!tfx_refine_definitely_not_null(v))
        return u;
    switch (v->type->kind) {
    case TFX_TYPE_OBJECT: case TFX_TYPE_MAP: prefix = "{"; break;
    case TFX_TYPE_TUPLE: case TFX_TYPE_LIST: case TFX_TYPE_SET: prefix = "["; break;
    case TFX_TYPE_STRING: prefix = "\""; break;
    default: return u;
    }
    tfx_refinement_init(&r);
    r.prefix.s = prefix;
    r.prefix.nbytes = 1;
    return tfx_value_refine(ctx, u, &r);
}

/* [fn.encode-expr.unknown] [fn.encode-expr.text] A value with an unknown
 * in it gives an unknown string; any other, its formatted tokens with
 * white space trimmed from both ends. */
static const tfx_value *encode_expr_impl(tfx_ctx *ctx, const tfx_function *fn,
                                         const tfx_type *ret, const tfx_value *const *args,
                                         size_t nargs, tfx_func_error *err)
{
    hw_tokens t = {ctx, NULL, 0, 0};
    const char *text;
    size_t nbytes;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (!tfx_value_is_wholly_known(args[0]))
        return expr_unknown(ctx, args[0], ret);
    value_tokens(&t, args[0]);
    format_tokens(ctx, &t);
    text = tokens_text(ctx, &t, &nbytes);
    while (nbytes > 0 && (*text == ' ' || *text == '\n')) {
        text++;
        nbytes--;
    }
    while (nbytes > 0 && (text[nbytes - 1] == ' ' || text[nbytes - 1] == '\n'))
        nbytes--;
    return tfx_value_string(ctx, text, nbytes);
}

/* [fn.encode-tfvars.unknown] [fn.encode-tfvars.type] [fn.encode-tfvars.name]
 * [fn.encode-tfvars.text] An object or map as the text of a .tfvars file:
 * for each attribute in name order `NAME = VALUE` and a newline, the
 * whole formatted as one file. */
static const tfx_value *encode_tfvars_impl(tfx_ctx *ctx, const tfx_function *fn,
                                           const tfx_type *ret, const tfx_value *const *args,
                                           size_t nargs, tfx_func_error *err)
{
    const tfx_value *v = args[0];
    hw_tokens t = {ctx, NULL, 0, 0};
    const char *text;
    size_t nbytes;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!tfx_value_is_wholly_known(v))
        return tfx_value_refine_not_null(ctx, tfx_value_unknown(ctx, ret));
    if (v->type->kind != TFX_TYPE_OBJECT && v->type->kind != TFX_TYPE_MAP)
        return tfx_fn_arg_error(err, 1,
                                "invalid value to encode: must be an object whose attribute names "
                                "will become the encoded variable names");
    for (size_t i = 0; i < v->as.attrs.n; i++) {
        const tfx_str *key = &v->as.attrs.keys[i];

        if (!valid_identifier(ctx, key->s, key->nbytes))
            return tfx_fn_arg_error(
                err, 1,
                tfx_ctx_printf(ctx,
                               "invalid variable name %s: must be a valid identifier, per "
                               "Terraform's rules for input variable declarations",
                               tfx_textbuf_quoted(ctx, key->s, key->nbytes)));
        hw_add(&t, HW_IDENT, key->s, key->nbytes);
        hw_punct(&t, HW_EQUAL);
        value_tokens(&t, v->as.attrs.vals[i]);
        hw_punct(&t, HW_NEWLINE);
    }
    format_tokens(ctx, &t);
    text = tokens_text(ctx, &t, &nbytes);
    return tfx_value_string(ctx, text, nbytes);
}

/* ---- decode_tfvars [fn.decode-tfvars] ---- */

/* The file name in decode_tfvars' messages. */
static const char TFVARS_FILE[] = "<decode_tfvars argument>";

/* One attribute of the text: its name's token, and its expression's
 * bytes [start, end). */
typedef struct {
    tfx_token name;
    size_t start;
    size_t end;
} tfvars_attr;

/* A copy of src with every byte before `start` but line endings made a
 * space, so that the expression at `start` parses with its own lines and
 * (for ASCII text before it) columns: for the messages of errors. */
static const char *padded(tfx_ctx *ctx, const char *src, size_t start, size_t end)
{
    char *copy = tfx_ctx_alloc(ctx, end + 1);

    for (size_t i = 0; i < start; i++)
        copy[i] = src[i] == '\n' ? '\n' : ' ';
    memcpy(copy + start, src + start, end - start);
    return copy;
}

/* [fn.decode-tfvars.value] The expression src[start, end) parsed (PN) and
 * evaluated with no variables and no functions; NULL with *message set
 * ("invalid tfvars syntax: ..." or "invalid expression for variable
 * "NAME": ...", HCL's Diagnostics.Error() of the errors) on failure. */
static const tfx_value *attribute_value(tfx_ctx *ctx, const char *src, const tfvars_attr *a,
                                        const char **message)
{
    tfx_ev ev;
    tfx_diags diags;
    tfx_node *expr;
    size_t n = a->end - a->start;

    memset(&ev, 0, sizeof(ev));
    ev.ctx = ctx;
    ev.filename = TFVARS_FILE;
    tfx_diags_init(&diags, ctx->arena);
    ev.diags = &diags;
    expr = tfx_parse_profile(ctx->arena, (const unsigned char *)src + a->start, n,
                             TFX_LEX_EXPRESSION, ctx->limits.max_depth, true, &diags);
    if (expr == NULL)
        tfx_fn_nomem(ctx);
    if (!tfx_diags_has_errors(&diags)) {
        const tfx_value *v = tfx_ev_node(&ev, expr, NULL);

        if (!tfx_diags_has_errors(&diags))
            return v;
    }
    /* again over the padded text, for the ranges in the message */
    tfx_diags_init(&diags, ctx->arena);
    ev.diags = &diags;
    expr = tfx_parse_profile(ctx->arena, (const unsigned char *)padded(ctx, src, a->start, a->end),
                             a->end, TFX_LEX_EXPRESSION, ctx->limits.max_depth, true, &diags);
    if (expr == NULL)
        tfx_fn_nomem(ctx);
    if (tfx_diags_has_errors(&diags)) {
        *message = tfx_ctx_printf(ctx, "invalid tfvars syntax: %s",
                                  tfx_template_diags_error(&ev, &diags, TFVARS_FILE));
        return NULL;
    }
    (void)tfx_ev_node(&ev, expr, NULL);
    *message = tfx_ctx_printf(ctx, "invalid expression for variable %s: %s",
                              tfx_textbuf_quoted(ctx, (const char *)a->name.bytes, a->name.nbytes),
                              diags.n > 0 ? tfx_template_diags_error(&ev, &diags, TFVARS_FILE)
                                          : "no value");
    return NULL;
}

/* Orders attributes by name, then by place. */
static int by_name(const void *a, const void *b)
{
    const tfvars_attr *x = a;
    const tfvars_attr *y = b;
    size_t n = x->name.nbytes < y->name.nbytes ? x->name.nbytes : y->name.nbytes;
    int c = memcmp(x->name.bytes, y->name.bytes, n);

    if (c != 0)
        return c;
    if (x->name.nbytes != y->name.nbytes)
        return x->name.nbytes < y->name.nbytes ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start ? 1 : 0;
}

/* [fn.decode-tfvars.body] Whether a name is given twice: then *message
 * names the first place a name is given again (sorting a copy by name
 * finds every repeat in n log n). */
static bool redefinition(tfx_ctx *ctx, const tfvars_attr *attrs, size_t n, const char **message)
{
    tfvars_attr *sorted;
    const tfvars_attr *again = NULL;
    const tfvars_attr *first = NULL;

    if (n < 2)
        return false;
    sorted = tfx_ctx_alloc_array(ctx, n, sizeof(*sorted));
    memcpy(sorted, attrs, n * sizeof(*sorted));
    qsort(sorted, n, sizeof(*sorted), by_name);
    for (size_t run = 0, i = 1; i < n; i++) {
        /* sorted[run] is the first of the names equal to sorted[i - 1] */
        if (sorted[i].name.nbytes != sorted[run].name.nbytes
            || memcmp(sorted[i].name.bytes, sorted[run].name.bytes, sorted[i].name.nbytes) != 0) {
            run = i;
            continue;
        }
        if (again == NULL || sorted[i].start < again->start) {
            again = &sorted[i];
            first = &sorted[run];
        }
    }
    if (again == NULL)
        return false;
    *message = tfx_ctx_printf(
        ctx,
        "invalid tfvars syntax: %s:%zu,%zu-%zu: Attribute redefined; The argument %s was already "
        "set at %s:%zu,%zu-%zu. Each argument may be set only once.",
        TFVARS_FILE, again->name.range.start.line, again->name.range.start.column,
        again->name.range.end.column,
        tfx_textbuf_quoted(ctx, (const char *)again->name.bytes, again->name.nbytes), TFVARS_FILE,
        first->name.range.start.line, first->name.range.start.column, first->name.range.end.column);
    return true;
}

/* [fn.decode-tfvars.body] The attributes of a tfvars text: each is an
 * identifier, `=`, and an expression that ends at the first line ending
 * (a newline, or a line comment) outside brackets and template
 * sequences, or at the end; blank lines and comments may come between.
 * Anything else (a block, a stray token, a name given twice) is an error
 * of the text, *message set; NULL then. */
static tfvars_attr *tfvars_attributes(tfx_ctx *ctx, const char *src, size_t nbytes, size_t *count,
                                      const char **message)
{
    tfx_tokens toks;
    tfvars_attr *attrs;
    size_t n = 0;
    size_t i = 0;

    /* PN's lexer, its columns too ([lex.pos.column.pn]): for the messages */
    if (!tfx_lex_profile(ctx->arena, (const unsigned char *)src, nbytes, TFX_LEX_EXPRESSION, true,
                         &toks))
        tfx_fn_nomem(ctx);
    tfx_lex_join_double_colons(&toks);
    attrs = tfx_ctx_alloc_array(ctx, toks.n, sizeof(*attrs));
    for (;;) {
        tfx_token name;
        tfx_token eq;
        int depth = 0;

        while (i < toks.n && (toks.items[i].kind == TFX_TOK_NEWLINE
                              || toks.items[i].kind == TFX_TOK_COMMENT))
            i++;
        if (i >= toks.n || toks.items[i].kind == TFX_TOK_EOF)
            break;
        name = tfx_token_at(&toks, i);
        eq = i + 1 < toks.n ? tfx_token_at(&toks, i + 1) : name;
        if (name.kind != TFX_TOK_IDENT || eq.kind != TFX_TOK_EQUAL) {
            *message = tfx_ctx_printf(ctx,
                                      "invalid tfvars syntax: %s:%zu,%zu-%zu: Argument or block "
                                      "definition required; An argument or block definition is "
                                      "required here.",
                                      TFVARS_FILE, name.range.start.line, name.range.start.column,
                                      name.range.end.column);
            return NULL;
        }
        attrs[n].name = name;
        i += 2;
        attrs[n].start = toks.items[i - 1].end;
        while (i < toks.n && toks.items[i].kind != TFX_TOK_EOF) {
            tfx_token_kind k = (tfx_token_kind)toks.items[i].kind;
            bool line_comment = k == TFX_TOK_COMMENT
                                && src[toks.items[i].end - 1] == '\n';

            if (depth <= 0 && (k == TFX_TOK_NEWLINE || line_comment))
                break;
            if (k == TFX_TOK_OBRACE || k == TFX_TOK_OBRACK || k == TFX_TOK_OPAREN
                || k == TFX_TOK_TEMPLATE_INTERP || k == TFX_TOK_TEMPLATE_CONTROL)
                depth++;
            else if (k == TFX_TOK_CBRACE || k == TFX_TOK_CBRACK || k == TFX_TOK_CPAREN
                     || k == TFX_TOK_TEMPLATE_SEQ_END)
                depth--;
            i++;
        }
        attrs[n].end = i < toks.n ? toks.items[i].start : nbytes;
        if (i < toks.n && i > 0 && toks.items[i - 1].kind == TFX_TOK_CHEREDOC)
            attrs[n].end = toks.items[i].end;   /* a heredoc ends with its line */
        n++;
    }
    *count = n;
    return redefinition(ctx, attrs, n, message) ? NULL : attrs;
}

static const tfx_param src_params[] = {
    {.name = "src", .type = &tfx_type_str},
};

/* [fn.decode-tfvars] An object of the attributes of the text. */
static const tfx_value *decode_tfvars_impl(tfx_ctx *ctx, const tfx_function *fn,
                                           const tfx_type *ret, const tfx_value *const *args,
                                           size_t nargs, tfx_func_error *err)
{
    const tfx_value *src = args[0];
    const char *message = NULL;
    tfvars_attr *attrs;
    size_t n = 0;
    tfx_str *names;
    const tfx_value **vals;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!tfx_value_is_known(src))
        return &tfx_value_dynamic_unknown;
    attrs = tfvars_attributes(ctx, src->as.string.s, src->as.string.nbytes, &n, &message);
    if (attrs == NULL)
        return tfx_fn_error(err, message);
    names = tfx_ctx_alloc_array(ctx, n + 1, sizeof(*names));
    vals = tfx_ctx_alloc_array(ctx, n + 1, sizeof(const tfx_value *));
    for (size_t i = 0; i < n; i++) {
        names[i].s = (const char *)attrs[i].name.bytes;
        names[i].nbytes = attrs[i].name.nbytes;
        vals[i] = attribute_value(ctx, src->as.string.s, &attrs[i], &message);
        if (vals[i] == NULL)
            return tfx_fn_error(err, message);
    }
    return tfx_value_object(ctx, names, vals, n);
}

const tfx_function tfx_fn_decode_tfvars = {.name = "provider::terraform::decode_tfvars",
                                           .params = src_params,
                                           .nparams = TFX_COUNTOF(src_params),
                                           .varparam = NULL,
                                           .type = NULL,
                                           .ret_type = &tfx_type_dynamic,
                                           .impl = decode_tfvars_impl};

const tfx_function tfx_fn_encode_expr = {.name = "provider::terraform::encode_expr",
                                         .params = value_params,
                                         .nparams = TFX_COUNTOF(value_params),
                                         .varparam = NULL,
                                         .type = NULL,
                                         .ret_type = &tfx_type_str,
                                         .impl = encode_expr_impl};

const tfx_function tfx_fn_encode_tfvars = {.name = "provider::terraform::encode_tfvars",
                                           .params = value_params,
                                           .nparams = TFX_COUNTOF(value_params),
                                           .varparam = NULL,
                                           .type = NULL,
                                           .ret_type = &tfx_type_str,
                                           .impl = encode_tfvars_impl};

/* [fn.provider] The provider's functions by name (without the
 * "provider::terraform::" prefix), NULL for another name. */
const tfx_function *tfx_func_provider(const char *name, size_t nbytes)
{
    if (nbytes == 11 && memcmp(name, "encode_expr", 11) == 0)
        return &tfx_fn_encode_expr;
    if (nbytes == 13 && memcmp(name, "encode_tfvars", 13) == 0)
        return &tfx_fn_encode_tfvars;
    if (nbytes == 13 && memcmp(name, "decode_tfvars", 13) == 0)
        return &tfx_fn_decode_tfvars;
    return NULL;
}
